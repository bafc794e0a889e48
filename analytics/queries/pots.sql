-- pots: the pot size distribution and the number of runs (one column: fast on any size).
SELECT
    count(DISTINCT run_id) AS runs,
    avg(pot) AS pot_mean,
    min(pot) AS pot_min,
    quantile_cont(pot, [0.1, 0.25, 0.5, 0.75, 0.9]) AS pot_quantiles,
    max(pot) AS pot_max
FROM hands_raw
WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id))
