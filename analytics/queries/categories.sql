-- categories: hand categories of every showdown hand and of the winning ones (with a low share: the
-- high half's winners).
SELECT
    category,
    count(*) AS showdown,
    count(*) FILTER (WHERE won) AS winning
FROM showdown_seats
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
GROUP BY category
ORDER BY category
