-- category_clusters: over showdown hands, the sum of the square of a hand's seats at the showdown
-- and of those seats (with the categories' squares: the categories' variance clustered by hand;
-- the seats say whether every hand counted has its sums).
SELECT sum(seated * seated) AS seats_squared, sum(seated) AS seats
FROM (
    SELECT count(*) AS seated
    FROM showdown_seats
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
    GROUP BY hand_id
)
