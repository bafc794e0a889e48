-- categories: hand categories of every showdown hand and of the winning ones (Scarney: the
-- high half's winners).
SELECT
    category,
    count(*) AS showdown,
    count(*) FILTER (WHERE won) AS winning
FROM showdown_seats
WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id))
    AND NOT list_contains($skip, run_id)
GROUP BY category
ORDER BY category
