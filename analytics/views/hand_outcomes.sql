-- hand_outcomes: one row per hand with how it ended: scoop (one player alone collected every
-- chip of a hand that reached a showdown), split (a pot or share divided among tied hands),
-- triple scoop (a game whose boards take shares: one player alone best on every board),
-- whether one player won both the high and the low parts, whether they went to different players
-- (high chips to one, low chips to another, and no one won both), whether a low part was paid (none
-- is when no one qualifies; all three false without a low half), how many boards survived, and whether two or more players held
-- the best category at the showdown (category_tie: the tiebreak rule decided, or the pot split).
WITH raw AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.showdown AND bool_or(p.scoop) AS scoop,
        h.showdown AND coalesce(h.split, false) AS split,
        bool_or(p.triple_scoop) AS triple_scoop,
        CASE WHEN h.showdown THEN bool_or(p.won_high > 0 AND p.won_low > 0) END AS high_low_same,
        CASE WHEN h.showdown THEN bool_or(p.won_high > 0) AND bool_or(p.won_low > 0)
            AND NOT bool_or(p.won_high > 0 AND p.won_low > 0) END AS high_low_different,
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
SELECT * FROM wide_hand_outcomes
UNION ALL BY NAME
SELECT * FROM raw
