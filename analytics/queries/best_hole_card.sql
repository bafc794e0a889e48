-- best_hole_card: win rate of showdown hands by the best of their hole cards (a game whose
-- ranking breaks ties by the top card alone).
WITH wide AS (
    SELECT unnest(h.seat_hole) AS hole, unnest(h.seat_won) AS chips, v.ranks
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.variant = $variant AND chosen_run(h.run_id, $runs, $skip)
        AND h.seat_hole IS NOT NULL AND h.showdown
),
seats AS (
    SELECT
        list_max(list_transform(range(length(hole) // 2), lambda j: instr(ranks, substr(hole, 2 * j + 1, 1))))
            AS best,
        chips > 0 AS won,
        ranks
    FROM wide
    UNION ALL
    SELECT
        list_max(list_transform(range(length(p.hole_cards) // 2),
            lambda j: instr(v.ranks, substr(p.hole_cards, 2 * j + 1, 1)))),
        p.won > 0,
        v.ranks
    FROM players_raw AS p
    JOIN variants AS v ON v.variant = p.variant
    WHERE p.variant = $variant AND chosen_run(p.run_id, $runs, $skip) AND p.showdown
)
SELECT substr(any_value(ranks), best, 1) AS best_fan_card, count(*) AS hands, count(*) FILTER (WHERE won) AS won
FROM seats
GROUP BY best
ORDER BY best
