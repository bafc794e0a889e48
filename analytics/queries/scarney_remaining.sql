-- scarney_remaining: how many hole cards Scarney hands keep to the showdown.
SELECT remaining AS cards, count(*) AS seats
FROM scarney_seat_fates
WHERE (len($runs) = 0 OR list_contains($runs, run_id)) AND NOT list_contains($skip, run_id)
    AND remaining IS NOT NULL
GROUP BY remaining
ORDER BY remaining
