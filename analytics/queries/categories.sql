-- categories: hand categories of every showdown hand and of the winning ones (with a low share: the
-- high half's winners); per category also, over hands, the square of a hand's seats of it and that
-- times the hand's seats at the showdown (with category_clusters: a variance clustered by hand).
WITH seats AS (
    SELECT hand_id, category, won
    FROM showdown_seats
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
),
per_hand AS (
    SELECT hand_id, category, count(*) AS of_category, any_value(seated) AS seated
    FROM (SELECT *, count(*) OVER (PARTITION BY hand_id) AS seated FROM seats)
    GROUP BY hand_id, category
)
SELECT
    category,
    showdown,
    winning,
    showdown_squares,
    showdown_by_seats
FROM (
    SELECT category, count(*) AS showdown, count(*) FILTER (WHERE won) AS winning FROM seats GROUP BY category
)
JOIN (
    SELECT
        category,
        sum(of_category * of_category) AS showdown_squares,
        sum(of_category * seated) AS showdown_by_seats
    FROM per_hand
    GROUP BY category
) USING (category)
ORDER BY category
