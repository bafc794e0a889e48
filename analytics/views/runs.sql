-- runs: one row per ingest or simulation run and game.
SELECT * FROM runs_raw
