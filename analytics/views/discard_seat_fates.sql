-- discard_seat_fates: one row per dealt seat of a game with a discard-trigger board: cards
-- forced out on each of the first three streets after the deal (flop, turn, river), dead and
-- voided hands, and the hole cards kept to a showdown (NULL when the seat did not reach one).
-- Showdown-mode rows are read from their discard digits; other hands from their actions.
WITH wide AS (
    SELECT
        h.run_id, h.variant, h.showdown, h.seat_discards, h.seat_strength,
        unnest(range(h.n_players)) AS seat,
        CAST(length(h.seat_discards) / h.n_players AS INTEGER) AS n_hole
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE v.discard_board AND h.seat_discards IS NOT NULL
),
wide_seats AS (
    SELECT
        run_id, variant,
        substr(seat_discards, 1 + seat * n_hole, n_hole) AS fate,
        n_hole,
        showdown AND seat_strength[seat + 1] >= 0 AS at_showdown
    FROM wide
),
discards AS (
    SELECT a.hand_id, a.seat,
        sum(length(a.cards) // 2) FILTER (WHERE a.street = v.streets[2]) AS flop,
        sum(length(a.cards) // 2) FILTER (WHERE a.street = v.streets[3]) AS turn,
        sum(length(a.cards) // 2) FILTER (WHERE a.street = v.streets[4]) AS river
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.action = 'discard' AND v.discard_board
    GROUP BY a.hand_id, a.seat
)
SELECT
    run_id,
    variant,
    n_hole - length(replace(fate, '1', '')) AS flop,
    n_hole - length(replace(fate, '2', '')) AS turn,
    n_hole - length(replace(fate, '3', '')) AS river,
    n_hole,
    length(replace(fate, '0', '')) = n_hole AS dead,
    false AS voided,
    CASE WHEN at_showdown THEN n_hole - length(replace(fate, '0', '')) END AS remaining
FROM wide_seats
UNION ALL
SELECT
    p.run_id, p.variant, coalesce(d.flop, 0), coalesce(d.turn, 0), coalesce(d.river, 0),
    CAST(length(p.hole_cards) // 2 AS INTEGER), p.dead, p.voided,
    CASE WHEN p.showdown THEN length(p.final_hole_cards) // 2 END
FROM players_raw AS p
JOIN variants AS v ON v.variant = p.variant
LEFT JOIN discards AS d USING (hand_id, seat)
WHERE v.discard_board
