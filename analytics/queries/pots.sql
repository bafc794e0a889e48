-- pots: how many hands had each pot size (runs in $skip are left out: their pots are in the
-- summaries table), and how many runs.
SELECT pot, count(*) AS hands, count(DISTINCT run_id) AS runs
FROM hands_raw
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
GROUP BY GROUPING SETS ((pot), ())
