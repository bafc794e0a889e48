-- discard_seat_fates: one row per dealt seat of a game with a discard-trigger board: cards
-- forced out on each of the first three streets after the deal (flop, turn, river), dead and
-- voided hands, and the hole cards kept to a showdown (NULL when the seat did not reach one).
-- Showdown-mode rows are read from their hole-card fates; other hands from their actions.
WITH wide AS (
    SELECT
        h.run_id, h.variant, h.showdown,
        unnest(h.seat_discard_street) AS fate,
        unnest(h.seat_strength) AS strength
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE v.discard_board AND h.seat_discard_street IS NOT NULL
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
    len(list_filter(fate, lambda f: f = 1)) AS flop,
    len(list_filter(fate, lambda f: f = 2)) AS turn,
    len(list_filter(fate, lambda f: f = 3)) AS river,
    len(fate) AS n_hole,
    list_bool_and(list_transform(fate, lambda f: f > 0)) AS dead,
    false AS voided,
    CASE WHEN showdown AND strength >= 0 THEN len(list_filter(fate, lambda f: f = 0)) END AS remaining
FROM wide
UNION ALL
SELECT
    p.run_id, p.variant, coalesce(d.flop, 0), coalesce(d.turn, 0), coalesce(d.river, 0),
    CAST(length(p.hole_cards) // 2 AS INTEGER), p.dead, p.voided,
    CASE WHEN p.showdown THEN length(p.final_hole_cards) // 2 END
FROM players_raw AS p
JOIN variants AS v ON v.variant = p.variant
LEFT JOIN discards AS d USING (hand_id, seat)
WHERE v.discard_board
