-- discard_remaining: how many hole cards hands of a game with a discard-trigger board keep to the showdown.
SELECT remaining AS cards, count(*) AS seats
FROM discard_seat_fates
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
    AND remaining IS NOT NULL
GROUP BY remaining
ORDER BY remaining
