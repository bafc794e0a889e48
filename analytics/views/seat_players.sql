-- seat_players: one row per seat of every showdown-mode simulated hand.
-- Such hands are stored as one wide row of hands_raw (seat_* columns, seat after seat);
-- this view gives them the documented columns of the players table.
WITH seats AS (
    SELECT
        h.*,
        CAST(s.seat AS TINYINT) AS seat_index,
        CAST(length(h.seat_hole) / (2 * h.n_players) AS INTEGER) AS n_hole
    FROM hands_raw AS h
    CROSS JOIN LATERAL (SELECT unnest(range(h.n_players)) AS seat) AS s
    WHERE h.seat_won IS NOT NULL
),
cards AS (
    SELECT
        *,
        substr(seat_hole, 1 + seat_index * 2 * n_hole, 2 * n_hole) AS dealt,
        coalesce(substr(seat_discards, 1 + seat_index * n_hole, n_hole), repeat('0', n_hole)) AS fate,
        seat_strength[seat_index + 1] AS strength,
        seat_won[seat_index + 1] AS chips
    FROM seats
)
SELECT
    hand_id,
    run_id,
    variant,
    seat_index AS seat,
    CAST(NULL AS VARCHAR) AS player,
    dealt AS hole_cards,
    array_to_string(
        list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '0'),
                       lambda j: substr(dealt, 2 * j + 1, 2)), '') AS final_hole_cards,
    CAST(length(replace(fate, '0', '')) AS TINYINT) AS discarded,
    array_to_string(  -- street by street (flop, turn, river), in hole-card order within one
        list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '1'),
                       lambda j: substr(dealt, 2 * j + 1, 2))
        || list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '2'),
                          lambda j: substr(dealt, 2 * j + 1, 2))
        || list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '3'),
                          lambda j: substr(dealt, 2 * j + 1, 2)), '') AS discarded_cards,
    length(replace(fate, '0', '')) = n_hole AS dead,
    false AS voided,
    length(replace(fate, '0', '')) = n_hole AS folded,
    false AS mucked,
    showdown AND strength >= 0 AS showdown,
    big_blind AS starting_stack,
    chips AS finishing_stack,
    chips - big_blind AS net,
    chips AS won,
    CASE WHEN showdown AND strength >= 0 THEN
        CASE WHEN variant = 'skoejarth'
            THEN ['Orphan', 'Eyes', 'Twins', 'Threefold', 'Disparate', 'Fourfold', 'Stairs',
                  'Perfect', 'Four Kings'][(strength >> 20) + 1]
            ELSE ['high card', 'pair', 'two pair', 'three of a kind', 'straight', 'flush',
                  'full house', 'four of a kind', 'straight flush'][(strength >> 20) + 1]
        END
    END AS high_category,
    CASE WHEN showdown AND strength >= 0 THEN strength END AS high_strength,
    CASE WHEN showdown AND seat_low[seat_index + 1] >= 0 THEN seat_low[seat_index + 1] END AS low_points,
    coalesce(seat_won_high[seat_index + 1], 0) AS won_high,
    coalesce(seat_won_low[seat_index + 1], 0) AS won_low,
    seat_board_won[3 * seat_index + 1 : 3 * seat_index + 3] AS board_won,
    showdown AND chips = pot AS scoop,
    coalesce(triple_scoop_seat = seat_index, false) AS triple_scoop
FROM cards
