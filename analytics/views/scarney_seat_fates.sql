-- scarney_seat_fates: one row per dealt Scarney seat: cards forced out on each street, dead and
-- voided hands, and the hole cards kept to a showdown (NULL when the seat did not reach one).
-- Showdown-mode rows are read from their discard digits; other hands from their actions.
WITH wide AS (
    SELECT
        run_id, showdown, seat_discards, seat_strength,
        unnest(range(n_players)) AS seat,
        CAST(length(seat_discards) / n_players AS INTEGER) AS n_hole
    FROM hands_raw
    WHERE variant = 'scarney' AND seat_discards IS NOT NULL
),
wide_seats AS (
    SELECT
        run_id,
        substr(seat_discards, 1 + seat * n_hole, n_hole) AS fate,
        n_hole,
        showdown AND seat_strength[seat + 1] >= 0 AS at_showdown
    FROM wide
),
discards AS (
    SELECT hand_id, seat,
        sum(length(cards) // 2) FILTER (WHERE street = 'flop') AS flop,
        sum(length(cards) // 2) FILTER (WHERE street = 'turn') AS turn,
        sum(length(cards) // 2) FILTER (WHERE street = 'river') AS river
    FROM actions_raw
    WHERE action = 'discard' AND variant = 'scarney'
    GROUP BY hand_id, seat
)
SELECT
    run_id,
    n_hole - length(replace(fate, '1', '')) AS flop,
    n_hole - length(replace(fate, '2', '')) AS turn,
    n_hole - length(replace(fate, '3', '')) AS river,
    length(replace(fate, '0', '')) = n_hole AS dead,
    false AS voided,
    CASE WHEN at_showdown THEN n_hole - length(replace(fate, '0', '')) END AS remaining
FROM wide_seats
UNION ALL
SELECT
    p.run_id, coalesce(d.flop, 0), coalesce(d.turn, 0), coalesce(d.river, 0), p.dead, p.voided,
    CASE WHEN p.showdown THEN length(p.final_hole_cards) // 2 END
FROM players_raw AS p
LEFT JOIN discards AS d USING (hand_id, seat)
WHERE p.variant = 'scarney'
