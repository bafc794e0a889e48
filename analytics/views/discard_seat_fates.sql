-- discard_seat_fates: one row per dealt seat of a game with a discard-trigger board: the cards
-- forced out on each street after the deal (forced[k]: on street k + 1 of the variant's streets,
-- the deal being street 1), dead and voided hands, dead on the first street of board cards,
-- and the hole cards kept to a showdown (NULL when the seat did not reach one). Showdown-mode rows are read from their hole-card fates
-- (the number of the street each card left on); other hands from their discard actions.
WITH wide AS (
    SELECT
        h.run_id, h.variant, h.showdown, len(v.streets) AS n_streets, v.first_board_street,
        unnest(h.seat_discard_street) AS fate,
        unnest(h.seat_strength) AS strength
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE v.discard_board AND h.seat_discard_street IS NOT NULL
),
discards AS (
    SELECT a.hand_id, a.seat, list_position(v.streets, a.street) - 1 AS street,
        sum(length(a.cards) // 2) AS cards
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.action = 'discard' AND v.discard_board
    GROUP BY ALL
),
by_seat AS (
    SELECT hand_id, seat, map_from_entries(list((street, cards))) AS cards
    FROM discards
    GROUP BY hand_id, seat
)
SELECT
    run_id,
    variant,
    list_transform(range(1, n_streets), lambda k: len(list_filter(fate, lambda f: f = k))) AS forced,
    len(fate) AS n_hole,
    list_bool_and(list_transform(fate, lambda f: f > 0)) AS dead,
    list_bool_and(list_transform(fate, lambda f: f = first_board_street)) AS dead_on_first_street,
    false AS voided,
    CASE WHEN showdown AND strength >= 0 THEN len(list_filter(fate, lambda f: f = 0)) END AS remaining
FROM wide
UNION ALL
SELECT
    p.run_id, p.variant,
    list_transform(range(1, len(v.streets)), lambda k: coalesce(d.cards[k], 0)::BIGINT),
    CAST(length(p.hole_cards) // 2 AS INTEGER), p.dead,
    coalesce(d.cards[v.first_board_street], 0) = length(p.hole_cards) // 2, p.voided,
    CASE WHEN p.showdown THEN length(p.final_hole_cards) // 2 END
FROM players_raw AS p
JOIN variants AS v ON v.variant = p.variant
LEFT JOIN by_seat AS d USING (hand_id, seat)
WHERE v.discard_board
