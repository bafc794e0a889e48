-- scarney_seats: Scarney seats dealt, cards forced out on each street, dead and voided hands.
SELECT
    count(*) AS seats,
    sum(flop) AS flop_discards,
    sum(turn) AS turn_discards,
    sum(river) AS river_discards,
    count(*) FILTER (WHERE flop = 6) AS dead_on_flop,
    count(*) FILTER (WHERE dead) AS dead,
    count(*) FILTER (WHERE voided) AS voided
FROM scarney_seat_fates
WHERE chosen_run(run_id, $runs, $skip)
