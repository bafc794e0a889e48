-- showdown_seats: one row per seat that contested a showdown, with what statistics need:
-- strength and category, whether it won chips (with a low half: of the high part), whether it
-- won chips of the low part, and its low points. Showdown-mode hands come straight from their
-- seat lists (no card text is touched; a list a hand's rule set has no use for is null); other
-- hands from players_raw.
WITH wide AS (
    SELECT
        h.hand_id, h.run_id, h.variant, h.source, h.structure,
        unnest(range(h.n_players)) AS seat,
        unnest(h.seat_strength) AS strength,
        unnest(h.seat_won) AS chips,
        unnest(h.seat_won_low) AS low_chips,
        unnest(h.seat_low) AS low
    FROM hands_raw AS h
    WHERE h.seat_hole IS NOT NULL AND h.showdown
)
SELECT
    hand_id, run_id, variant, source, structure, CAST(seat AS TINYINT) AS seat,
    CAST(strength AS BIGINT) AS strength,
    CAST(strength_category(strength) AS TINYINT) AS category,
    CASE WHEN low_chips IS NOT NULL THEN chips - low_chips > 0 ELSE chips > 0 END AS won,
    coalesce(low_chips > 0, false) AS won_low,
    low AS low_points
FROM wide
WHERE strength >= 0
UNION ALL
SELECT
    p.hand_id, p.run_id, p.variant, h.source, h.structure, p.seat,
    p.high_strength AS strength,
    CAST(strength_category(p.high_strength) AS TINYINT) AS category,
    -- a seat with chips of a high or a low half (the rule set's shares) won the high one or not;
    -- other winnings (a pot of a game without halves) count whole
    CASE WHEN p.won_high + p.won_low > 0 THEN p.won_high > 0 ELSE p.won > 0 END AS won,
    p.won_low > 0 AS won_low,
    p.low_points
FROM players_raw AS p
JOIN hands_raw AS h USING (hand_id)
WHERE p.showdown
