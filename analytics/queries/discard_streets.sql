-- discard_streets: hole cards forced out on each street after the deal (street: its number, the
-- deal being 0) in a game with a discard-trigger board.
SELECT street, sum(f.forced[street]) AS discards
FROM discard_seat_fates AS f, range(1, len(f.forced) + 1) AS t(street)
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
GROUP BY street
ORDER BY street
