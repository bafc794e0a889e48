-- best_hole_card: win rate of showdown hands by the best of their hole cards (a game whose
-- ranking breaks ties by the top card alone).
WITH wide AS (
    SELECT
        unnest(range(h.n_players)) AS seat, h.seat_hole, h.seat_winners, v.ranks,
        CAST(length(h.seat_hole) / h.n_players AS INTEGER) AS n_hole
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.variant = $variant AND chosen_run(h.run_id, $runs, $skip)
        AND h.seat_hole IS NOT NULL AND h.showdown
),
seats AS (
    SELECT
        list_max(list_transform(range(n_hole),
            lambda j: (ascii(substr(seat_hole, 1 + n_hole * seat + j, 1)) - 48) // 4 + 1)) AS best,
        ((seat_winners >> seat) & 1) = 1 AS won,
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
