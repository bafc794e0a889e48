-- showdown_seats: one row per seat that contested a showdown, with what statistics need:
-- strength and category, whether it won (with a low share: the high half), whether it won the
-- low half, and its low points. Showdown-mode hands come straight from their wide columns
-- (fast: no card text is touched); other hands from players_raw.
WITH wide AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure, h.seat_winners, h.surviving_mask,
        v.low_share, v.board_shares,
        unnest(h.seat_strength) AS strength,
        unnest(range(h.n_players)) AS seat,
        h.seat_low
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.seat_hole IS NOT NULL AND h.showdown
)
SELECT
    hand_id, run_id, variant, source, structure, CAST(seat AS TINYINT) AS seat,
    CAST(strength AS BIGINT) AS strength,
    CAST(strength >> 20 AS TINYINT) AS category,
    CASE WHEN board_shares THEN
        ((surviving_mask & 1) = 1 AND ((seat_winners >> seat) & 1) = 1)
        OR ((surviving_mask & 2) = 2 AND ((seat_winners >> (10 + seat)) & 1) = 1)
        OR ((surviving_mask & 4) = 4 AND ((seat_winners >> (20 + seat)) & 1) = 1)
    ELSE ((seat_winners >> seat) & 1) = 1 END AS won,
    low_share AND ((seat_winners >> (10 + seat)) & 1) = 1 AS won_low,
    CASE WHEN low_share THEN seat_low[seat + 1] END AS low_points
FROM wide
WHERE strength >= 0
UNION ALL
SELECT
    p.hand_id, p.run_id, p.variant, h.source, h.structure, p.seat,
    p.high_strength AS strength,
    CAST(p.high_strength >> 20 AS TINYINT) AS category,
    CASE WHEN v.low_share THEN p.won_high > 0 ELSE p.won > 0 END AS won,
    p.won_low > 0 AS won_low,
    p.low_points
FROM players_raw AS p
JOIN hands_raw AS h USING (hand_id)
JOIN variants AS v ON v.variant = p.variant
WHERE p.showdown
