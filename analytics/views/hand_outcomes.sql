-- hand_outcomes: one row per hand with how it ended: scoop (one player alone collected every
-- chip of a hand that reached a showdown), split (a pot or share divided among tied hands),
-- triple scoop (a game whose boards take shares: one player alone best on every board),
-- whether one player won both the high and the low parts, how many boards survived, and whether two or more players held
-- the best category at the showdown (category_tie: the tiebreak rule decided, or the pot split).
WITH wide AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.showdown, h.ending, h.pot, h.n_players,
        h.seat_winners AS m, h.surviving_mask AS alive, v.low_share, v.board_shares, v.n_boards,
        list_contains(h.seat_won, h.pot) AS halves_scoop,
        h.seat_strength AS strengths
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.seat_hole IS NOT NULL
),
wide_outcomes AS (
    SELECT
        hand_id, run_id, variant, source, structure, showdown, ending, pot, n_players,
        showdown AND CASE
            WHEN low_share THEN halves_scoop
            WHEN board_shares THEN  -- one seat alone best on every surviving board
                bit_count(
                    (CASE WHEN (alive & 1) = 1 THEN m & 1023 ELSE 1023 END)
                    & (CASE WHEN (alive & 2) = 2 THEN (m >> 10) & 1023 ELSE 1023 END)
                    & (CASE WHEN (alive & 4) = 4 THEN (m >> 20) & 1023 ELSE 1023 END)) = 1
                AND ((alive & 1) = 0 OR bit_count(m & 1023) = 1)
                AND ((alive & 2) = 0 OR bit_count((m >> 10) & 1023) = 1)
                AND ((alive & 4) = 0 OR bit_count((m >> 20) & 1023) = 1)
            ELSE bit_count(m & 1023) = 1
        END AS scoop,
        showdown AND CASE
            WHEN low_share THEN bit_count(m & 1023) > 1 OR bit_count((m >> 10) & 1023) > 1
            WHEN board_shares THEN
                ((alive & 1) = 1 AND bit_count(m & 1023) > 1)
                OR ((alive & 2) = 2 AND bit_count((m >> 10) & 1023) > 1)
                OR ((alive & 4) = 4 AND bit_count((m >> 20) & 1023) > 1)
            ELSE bit_count(m & 1023) > 1
        END AS split,
        board_shares AND bit_count(m & 1023) = 1
            AND list_bool_and(list_transform(range(n_boards), lambda b: ((m >> (10 * b)) & 1023) = (m & 1023)))
            AS triple_scoop,
        CASE WHEN low_share AND showdown THEN (m & (m >> 10) & 1023) <> 0 END AS high_low_same,
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
        CASE WHEN any_value(v.low_share) AND h.showdown THEN bool_or(p.won_high > 0 AND p.won_low > 0) END
            AS high_low_same,
        CAST(len(h.surviving_boards) AS TINYINT) AS surviving,
        h.showdown AND count(*) FILTER (WHERE p.showdown AND p.high_strength >> 20 = w.best_category) > 1
            AS category_tie
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
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
