-- hand_outcomes: one row per hand with how it ended: scoop (one player alone collected every
-- chip of a hand that reached a showdown), split (a pot or share divided among tied hands),
-- triple scoop (a game whose boards take shares: one player alone best on every board),
-- whether one player won both the high and the low parts, whether a low part was paid (none is
-- when no one qualifies; both false without a low half), how many boards survived, and whether two or more players held
-- the best category at the showdown (category_tie: the tiebreak rule decided, or the pot split).
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
        * EXCLUDE (strengths),
        showdown AND len(list_filter(strengths, lambda x: x >= 0 AND strength_category(x) = strength_category(list_max(strengths)))) > 1
            AS category_tie
    FROM wide
),
raw AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.showdown AND bool_or(p.scoop) AS scoop,
        h.showdown AND coalesce(h.split, false) AS split,
        bool_or(p.triple_scoop) AS triple_scoop,
        CASE WHEN h.showdown THEN bool_or(p.won_high > 0 AND p.won_low > 0) END AS high_low_same,
        CASE WHEN h.showdown THEN bool_or(p.won_low > 0) END AS low_paid,
        CAST(len(h.surviving_boards) AS TINYINT) AS surviving,
        h.showdown AND count(*) FILTER (WHERE p.showdown AND strength_category(p.high_strength) = w.best_category) > 1
            AS category_tie
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    JOIN players_raw AS p USING (hand_id)
    JOIN (
        SELECT hand_id,
            strength_category(max(high_strength) FILTER (WHERE showdown)) AS best_category
        FROM players_raw GROUP BY hand_id
    ) AS w USING (hand_id)
    WHERE h.seat_hole IS NULL
    GROUP BY h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.surviving_boards, h.split
)
SELECT * FROM wide_outcomes
UNION ALL BY NAME
SELECT * FROM raw
