-- pots: how many hands had each pot size (runs in $skip are left out: their pots are in the
-- summaries table), and how many runs. Pots are whole units of the population's finest unit:
-- a hand of 10^-k (amount_decimals) counts its pot in 10^-d, d the most decimals among the
-- chosen hands, so hands in cents and in thousandths add up (chips: d = 0, the pot as stored).
WITH chosen AS (
    SELECT pot, coalesce(amount_decimals, 0) AS k, run_id
    FROM hands_raw
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
), finest AS (
    SELECT coalesce(max(k), 0) AS d FROM chosen
), scaled AS (
    SELECT CAST(pot AS HUGEINT) * CAST(10 ** (finest.d - k) AS HUGEINT) AS pot, run_id FROM chosen, finest
)
SELECT pot, count(*) AS hands, count(DISTINCT run_id) AS runs
FROM scaled
GROUP BY GROUPING SETS ((pot), ())
