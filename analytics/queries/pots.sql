-- pots: how many hands had each pot size (runs in $skip are left out: their pots are in the
-- summaries table), and how many runs.
SELECT pot, count(*) AS hands, count(DISTINCT run_id) AS runs
FROM hands_raw
WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id))
    AND NOT list_contains($skip, run_id)
GROUP BY GROUPING SETS ((pot), ())
