-- scarney_seats: Scarney seats dealt, cards forced out on each street, dead and voided hands.
WITH wide AS (
    SELECT
        showdown,
        unnest(range(n_players)) AS seat,
        seat_discards,
        seat_strength,
        CAST(length(seat_discards) / n_players AS INTEGER) AS n_hole
    FROM hands_raw
    WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id)) AND seat_discards IS NOT NULL
        AND NOT list_contains($skip, run_id)
),
wide_seats AS (
    SELECT
        substr(seat_discards, 1 + seat * n_hole, n_hole) AS fate,
        n_hole,
        showdown AND seat_strength[seat + 1] >= 0 AS at_showdown
    FROM wide
),
per_seat AS (
    SELECT
        n_hole - length(replace(fate, '1', '')) AS flop,
        n_hole - length(replace(fate, '2', '')) AS turn,
        n_hole - length(replace(fate, '3', '')) AS river,
        length(replace(fate, '0', '')) = n_hole AS dead,
        false AS voided,
        CASE WHEN at_showdown THEN n_hole - length(replace(fate, '0', '')) END AS remaining
    FROM wide_seats
    UNION ALL
    SELECT
        coalesce(d.flop, 0), coalesce(d.turn, 0), coalesce(d.river, 0), p.dead, p.voided,
        CASE WHEN p.showdown THEN length(p.final_hole_cards) // 2 END
    FROM players_raw AS p
    LEFT JOIN (
        SELECT hand_id, seat,
            sum(length(cards) // 2) FILTER (WHERE street = 'flop') AS flop,
            sum(length(cards) // 2) FILTER (WHERE street = 'turn') AS turn,
            sum(length(cards) // 2) FILTER (WHERE street = 'river') AS river
        FROM actions_raw WHERE action = 'discard' AND variant = $variant GROUP BY ALL
    ) AS d USING (hand_id, seat)
    WHERE p.variant = $variant AND (len($runs) = 0 OR list_contains($runs, p.run_id))
)
SELECT
    count(*) AS seats,
    sum(flop) AS flop_discards,
    sum(turn) AS turn_discards,
    sum(river) AS river_discards,
    count(*) FILTER (WHERE flop = 6) AS dead_on_flop,
    count(*) FILTER (WHERE dead) AS dead,
    count(*) FILTER (WHERE voided) AS voided
FROM per_seat
