-- seat_players: one row per seat of every showdown-mode simulated hand, with the documented
-- columns of the players table. Such a hand is one wide row of hands (seat_* columns, seat
-- after seat); what it does not store is derived here by the rules:
--   won_high / won_low (a low-points share): the halves (odd chip to high) split among the
--     winners in seat_winners (high: bits 0-9, low: bits 10-19), odd chips from seat 0;
--   board_won (boards that take shares): each surviving board's share of the pot (odd chips
--     to the highest board) split among that board's winners (bits 10*b .. 10*b+9);
--   low_points (a low-points share): the points of the remaining hole cards.
-- What a game has comes from the variants table (its description).
WITH seats AS (
    SELECT
        h.*,
        v.deck_cards, v.ranks, v.categories, v.points, v.low_share, v.board_shares, v.n_boards,
        CAST(s.seat AS TINYINT) AS seat_index,
        CAST(length(h.seat_hole) / h.n_players AS INTEGER) AS n_hole
    FROM hands AS h
    JOIN variants AS v ON v.variant = h.variant
    CROSS JOIN LATERAL (SELECT unnest(range(h.n_players)) AS seat) AS s
    WHERE h.seat_hole IS NOT NULL
),
cards AS (
    SELECT
        *,
        cards_text(substr(seat_hole, 1 + seat_index * n_hole, n_hole), deck_cards) AS dealt,
        coalesce(substr(seat_discards, 1 + seat_index * n_hole, n_hole), repeat('0', n_hole)) AS fate,
        seat_strength[seat_index + 1] AS strength,
        CAST(1 AS BIGINT) << seat_index AS bit,
        (CAST(1 AS BIGINT) << seat_index) - 1 AS below
    FROM seats
),
kept AS (
    SELECT
        *,
        array_to_string(
            list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '0'),
                           lambda j: substr(dealt, 2 * j + 1, 2)), '') AS final,
        length(replace(fate, '0', '')) AS n_gone,
        showdown AND strength >= 0 AS at_showdown,
        -- each board's share of the pot: equal, odd chips to the highest surviving board
        list_transform(range(n_boards), lambda b:
            CASE WHEN (surviving_mask >> b) & 1 = 1 THEN
                pot // bit_count(surviving_mask)
                + CASE WHEN bit_count(surviving_mask & ((1 << b) - 1)) < pot % bit_count(surviving_mask)
                       THEN 1 ELSE 0 END
            ELSE 0 END) AS shares
    FROM cards
),
results AS (
    SELECT
        *,
        CASE WHEN board_shares THEN list_transform(range(n_boards), lambda b:
            CASE WHEN ((seat_winners >> (10 * b)) & bit) <> 0 THEN
                shares[b + 1] // bit_count((seat_winners >> (10 * b)) & 1023)
                + CASE WHEN bit_count((seat_winners >> (10 * b)) & below)
                            < shares[b + 1] % bit_count((seat_winners >> (10 * b)) & 1023)
                       THEN 1 ELSE 0 END
            ELSE 0 END
        ) END AS board_chips
    FROM kept
),
settled AS (
    SELECT
        *,
        CASE
            WHEN seat_won IS NOT NULL THEN seat_won[seat_index + 1]
            WHEN board_shares THEN list_sum(board_chips)
            WHEN (seat_winners & bit) <> 0 THEN  -- one pot, split among the winners
                pot // bit_count(seat_winners & 1023)
                + CASE WHEN bit_count(seat_winners & below) < pot % bit_count(seat_winners & 1023) THEN 1 ELSE 0 END
            ELSE 0
        END AS chips
    FROM results
)
SELECT
    hand_id,
    run_id,
    variant,
    seat_index AS seat,
    CAST(NULL AS VARCHAR) AS player,
    dealt AS hole_cards,
    final AS final_hole_cards,
    CAST(n_gone AS TINYINT) AS discarded,
    array_to_string(  -- street by street (flop, turn, river), in hole-card order within one
        list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '1'),
                       lambda j: substr(dealt, 2 * j + 1, 2))
        || list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '2'),
                          lambda j: substr(dealt, 2 * j + 1, 2))
        || list_transform(list_filter(range(n_hole), lambda j: substr(fate, j + 1, 1) = '3'),
                          lambda j: substr(dealt, 2 * j + 1, 2)), '') AS discarded_cards,
    n_gone = n_hole AS dead,
    false AS voided,
    n_gone = n_hole AS folded,
    false AS mucked,
    at_showdown AS showdown,
    big_blind AS starting_stack,
    chips AS finishing_stack,
    chips - big_blind AS net,
    chips AS won,
    CASE WHEN at_showdown THEN categories[(strength >> 20) + 1]
    END AS high_category,
    CASE WHEN at_showdown THEN strength END AS high_strength,
    CASE WHEN at_showdown AND low_share THEN CAST(coalesce(list_sum(list_transform(
        range(length(final) // 2),
        lambda j: points[instr(ranks, substr(final, 2 * j + 1, 1))]
    )), 0) AS SMALLINT) END AS low_points,
    CASE WHEN low_share AND showdown AND (seat_winners & bit) <> 0 THEN
        (pot - pot // 2) // bit_count(seat_winners & 1023)
        + CASE WHEN bit_count(seat_winners & below) < (pot - pot // 2) % bit_count(seat_winners & 1023)
               THEN 1 ELSE 0 END
    ELSE 0 END AS won_high,
    CASE WHEN low_share AND showdown AND ((seat_winners >> 10) & bit) <> 0 THEN
        (pot // 2) // bit_count((seat_winners >> 10) & 1023)
        + CASE WHEN bit_count((seat_winners >> 10) & below) < (pot // 2) % bit_count((seat_winners >> 10) & 1023)
               THEN 1 ELSE 0 END
    ELSE 0 END AS won_low,
    board_chips AS board_won,
    showdown AND chips = pot AS scoop,
    board_shares AND (seat_winners & 1023) = bit
        AND list_bool_and(list_transform(range(n_boards), lambda b: ((seat_winners >> (10 * b)) & 1023) = bit))
        AS triple_scoop
FROM settled
