-- discard_seats: seats dealt in a game with a discard-trigger board, cards forced out on each
-- street, dead and voided hands.
SELECT
    count(*) AS seats,
    sum(flop) AS flop_discards,
    sum(turn) AS turn_discards,
    sum(river) AS river_discards,
    count(*) FILTER (WHERE flop = n_hole) AS dead_on_flop,
    count(*) FILTER (WHERE dead) AS dead,
    count(*) FILTER (WHERE voided) AS voided
FROM discard_seat_fates
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
