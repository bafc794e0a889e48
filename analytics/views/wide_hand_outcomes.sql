-- wide_hand_outcomes: hand_outcomes of the hands stored with their seats as lists (showdown-mode
-- simulations), from those lists alone: no players rows are read (paired comparisons use it).
WITH wide AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.showdown AND coalesce(h.scoop, false) AS scoop,
        h.showdown AND coalesce(h.split, false) AS split,
        coalesce(h.triple_scoop, false) AS triple_scoop,
        -- (a rule set without a low half stores no seat_won_low: false, as for replayed hands)
        CASE WHEN h.showdown THEN coalesce(list_bool_or(list_transform(range(h.n_players),
            lambda i: h.seat_won[i + 1] - h.seat_won_low[i + 1] > 0 AND h.seat_won_low[i + 1] > 0)), false) END
            AS high_low_same,
        CASE WHEN h.showdown THEN coalesce(list_bool_or(list_transform(range(h.n_players),
            lambda i: h.seat_won[i + 1] - h.seat_won_low[i + 1] > 0)), false)
            AND coalesce(list_bool_or(list_transform(h.seat_won_low, lambda c: c > 0)), false) END AS paid_both,
        CASE WHEN h.showdown THEN coalesce(list_bool_or(list_transform(h.seat_won_low, lambda c: c > 0)), false)
            END AS low_paid,
        CAST(len(h.surviving_boards) AS TINYINT) AS surviving,
        h.seat_strength AS strengths
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.seat_hole IS NOT NULL
),
wide_outcomes AS (
    SELECT
        * EXCLUDE (strengths, paid_both),
        paid_both AND NOT high_low_same AS high_low_different,
        showdown AND len(list_filter(strengths, lambda x: x >= 0 AND strength_category(x) = strength_category(list_max(strengths)))) > 1
            AS category_tie
    FROM wide
)
SELECT * FROM wide_outcomes
