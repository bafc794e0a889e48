-- scarney_remaining: how many hole cards Scarney hands keep to the showdown.
SELECT remaining AS cards, count(*) AS seats
FROM scarney_seat_fates
WHERE chosen_run(run_id, $runs, $skip)
    AND remaining IS NOT NULL
GROUP BY remaining
ORDER BY remaining
