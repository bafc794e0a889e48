-- low_points: low points of every showdown hand and of the winning lows.
SELECT
    low_points,
    count(*) AS showdown,
    count(*) FILTER (WHERE won_low) AS winning
FROM showdown_seats
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip) AND low_points IS NOT NULL
GROUP BY low_points
ORDER BY low_points
