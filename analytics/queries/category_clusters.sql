-- category_clusters: the sum over showdown hands of the square of the hand's seats at the showdown
-- (with the categories' squares: the categories' variance clustered by hand).
SELECT sum(seated * seated) AS seats_squared
FROM (
    SELECT count(*) AS seated
    FROM showdown_seats
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
    GROUP BY hand_id
)
