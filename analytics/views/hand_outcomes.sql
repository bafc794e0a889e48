-- hand_outcomes: one row per hand with how it ended: scoop (one player alone collected every
-- chip of a hand that reached a showdown), split (a pot or share divided among tied hands),
-- triple scoop (Cry Me A River: one player alone best on all three boards), whether one
-- player won both Scarney halves, how many boards survived, and whether two or more players held
-- the best category at the showdown (category_tie: the tiebreak rule decided, or the pot split).
WITH wide AS (
    SELECT
        hand_id, run_id, variant, source, structure, showdown, ending, pot, n_players,
        seat_winners AS m, surviving_mask AS alive,
        CASE WHEN variant = 'scarney' THEN list_contains(seat_won, pot) END AS scarney_scoop,
        seat_strength AS strengths
    FROM hands_raw
    WHERE seat_hole IS NOT NULL
),
wide_outcomes AS (
    SELECT
        hand_id, run_id, variant, source, structure, showdown, ending, pot, n_players,
        showdown AND CASE variant
            WHEN 'scarney' THEN scarney_scoop
            WHEN 'cry-me-a-river' THEN  -- one seat alone best on every surviving board
                bit_count(
                    (CASE WHEN (alive & 1) = 1 THEN m & 1023 ELSE 1023 END)
                    & (CASE WHEN (alive & 2) = 2 THEN (m >> 10) & 1023 ELSE 1023 END)
                    & (CASE WHEN (alive & 4) = 4 THEN (m >> 20) & 1023 ELSE 1023 END)) = 1
                AND ((alive & 1) = 0 OR bit_count(m & 1023) = 1)
                AND ((alive & 2) = 0 OR bit_count((m >> 10) & 1023) = 1)
                AND ((alive & 4) = 0 OR bit_count((m >> 20) & 1023) = 1)
            ELSE bit_count(m & 1023) = 1
        END AS scoop,
        showdown AND CASE variant
            WHEN 'scarney' THEN bit_count(m & 1023) > 1 OR bit_count((m >> 10) & 1023) > 1
            WHEN 'cry-me-a-river' THEN
                ((alive & 1) = 1 AND bit_count(m & 1023) > 1)
                OR ((alive & 2) = 2 AND bit_count((m >> 10) & 1023) > 1)
                OR ((alive & 4) = 4 AND bit_count((m >> 20) & 1023) > 1)
            ELSE bit_count(m & 1023) > 1
        END AS split,
        variant = 'cry-me-a-river' AND (m & 1023) = ((m >> 10) & 1023) AND (m & 1023) = ((m >> 20) & 1023)
            AND bit_count(m & 1023) = 1 AS triple_scoop,
        CASE WHEN variant = 'scarney' AND showdown THEN (m & (m >> 10) & 1023) <> 0 END AS high_low_same,
        CAST(bit_count(alive) AS TINYINT) AS surviving,
        showdown AND len(list_filter(strengths, lambda x: x >= 0 AND x >> 20 = list_max(strengths) >> 20)) > 1
            AS category_tie
    FROM wide
),
raw AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.showdown AND bool_or(p.scoop) AS scoop,
        h.showdown AND coalesce(h.split, false) AS split,
        bool_or(p.triple_scoop) AS triple_scoop,
        CASE WHEN h.variant = 'scarney' AND h.showdown THEN bool_or(p.won_high > 0 AND p.won_low > 0) END
            AS high_low_same,
        CAST(len(h.surviving_boards) AS TINYINT) AS surviving,
        h.showdown AND count(*) FILTER (WHERE p.showdown AND p.high_strength >> 20 = w.best_category) > 1
            AS category_tie
    FROM hands_raw AS h
    JOIN players_raw AS p USING (hand_id)
    JOIN (
        SELECT hand_id,
            max(high_strength) FILTER (WHERE showdown) >> 20 AS best_category
        FROM players_raw GROUP BY hand_id
    ) AS w USING (hand_id)
    WHERE h.seat_hole IS NULL
    GROUP BY h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.surviving_boards, h.split
)
SELECT * FROM wide_outcomes
UNION ALL BY NAME
SELECT * FROM raw
