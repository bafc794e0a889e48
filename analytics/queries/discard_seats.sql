-- discard_seats: seats dealt in a game with a discard-trigger board, seats that lost every hole
-- card on the first street of board cards, dead and voided hands.
SELECT
    count(*) AS seats,
    count(*) FILTER (WHERE dead_on_first_street) AS dead_on_first_street,
    count(*) FILTER (WHERE dead) AS dead,
    count(*) FILTER (WHERE voided) AS voided
FROM discard_seat_fates
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
