-- seat_players: one row per seat of every showdown-mode simulated hand, with the documented
-- columns of the players table, read from the hand's seat lists (one item per seat): the cards
-- dealt, each hole card's fate (a discard board: 0 kept, else the street it was forced out on),
-- the strength, the chips won in all, from the low share and on each board, and the low points; a
-- draw game's cards held at the showdown and the cards thrown in its draws.
-- What a game has comes from the variants table (its description).
-- Each hand is cut into its seats by a seat number (unnest of range) and each seat's items picked by
-- it, not by unnesting every list at once: a query that needs one column (net, won) then reads that
-- list alone, and a filter on hand_id reaches the hands' files (unnest of several lists read all of
-- them, 34 M hands' worth: a join with a few replayed hands took a minute). Showdown-mode hands are
-- those with no PHH text (the files' statistics then skip every other file without reading it).
WITH hand_seats AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.showdown, h.pot, h.big_blind,
        coalesce(h.triple_scoop, false) AS hand_triple_scoop,
        v.categories,
        CAST(unnest(range(h.n_players)) AS TINYINT) AS seat,
        h.seat_hole, h.seat_discard_street, h.seat_strength, h.seat_won, h.seat_won_low, h.seat_low,
        h.seat_board_won, h.seat_final_hole, h.seat_thrown, h.seat_received
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.phh IS NULL AND h.source = 'simulation'
),
seats AS (
    SELECT
        hand_id, run_id, variant, showdown, pot, big_blind, hand_triple_scoop, categories, seat,
        seat_hole[seat + 1] AS dealt,
        seat_discard_street[seat + 1] AS fate,
        seat_strength[seat + 1] AS strength,
        seat_won[seat + 1] AS chips,
        seat_won_low[seat + 1] AS low_chips,
        seat_low[seat + 1] AS low,
        seat_board_won[seat + 1] AS board_won,
        seat_final_hole[seat + 1] AS final_held,
        seat_thrown[seat + 1] AS thrown,
        seat_received[seat + 1] AS received
    FROM hand_seats
),
fates AS (
    SELECT
        * REPLACE (coalesce(fate, list_transform(range(length(dealt) // 2), lambda j: 0)) AS fate),
        showdown AND strength >= 0 AS at_showdown
    FROM seats
)
SELECT
    hand_id,
    run_id,
    variant,
    seat,
    CAST(NULL AS VARCHAR) AS player,
    dealt || coalesce(array_to_string(received, ''), '') AS hole_cards,  -- a draw game: then the cards drawn
    coalesce(final_held, cards_with_fate(dealt, fate, 0)) AS final_hole_cards,
    CAST(CASE WHEN thrown IS NOT NULL THEN length(array_to_string(thrown, '')) // 2
              ELSE len(list_filter(fate, lambda f: f > 0)) END AS TINYINT) AS discarded,
    -- street by street (draw by draw), in hole-card order within one
    coalesce(array_to_string(thrown, ''),
             array_to_string(list_transform(range(1, coalesce(list_max(fate), 0) + 1),
                                            lambda k: cards_with_fate(dealt, fate, k)), '')) AS discarded_cards,
    list_bool_and(list_transform(fate, lambda f: f > 0)) AS dead,
    false AS voided,
    list_bool_and(list_transform(fate, lambda f: f > 0)) AS folded,
    false AS mucked,
    at_showdown AS showdown,
    big_blind AS starting_stack,
    chips AS finishing_stack,
    chips - big_blind AS net,
    chips AS won,
    CASE WHEN at_showdown THEN categories[strength_category(strength) + 1] END AS high_category,
    CASE WHEN at_showdown THEN CAST(strength AS BIGINT) END AS high_strength,
    CASE WHEN at_showdown THEN low END AS low_points,
    CASE WHEN low_chips IS NOT NULL AND showdown THEN chips - low_chips ELSE 0 END AS won_high,
    CASE WHEN low_chips IS NOT NULL AND showdown THEN low_chips ELSE 0 END AS won_low,
    board_won,
    showdown AND chips = pot AS scoop,
    hand_triple_scoop AND chips = pot AS triple_scoop
FROM fates
