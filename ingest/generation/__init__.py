"""Generation: simulation runs in shards, reproducible and resumable, local or on Dask
(``simulation``), betting-mode play (``betting_sim``), per-shard statistic counts
(``sim_summary``), push/fold equilibria and starting-hand tables computed and stored
(``pushfold``, ``starting_hands``), and runs of an older scooplab brought up to date (``upgrade``).
"""
