-- skoejarth_fan: win rate of Skœjarth showdown hands by the best of their three fan cards.
WITH wide AS (
    SELECT
        unnest(range(n_players)) AS seat, seat_hole, seat_winners, seat_strength
    FROM hands_raw
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
        AND seat_hole IS NOT NULL AND showdown
),
seats AS (
    SELECT
        greatest(
            (ascii(substr(seat_hole, 1 + 3 * seat, 1)) - 48) // 4 + 1,
            (ascii(substr(seat_hole, 2 + 3 * seat, 1)) - 48) // 4 + 1,
            (ascii(substr(seat_hole, 3 + 3 * seat, 1)) - 48) // 4 + 1) AS best_fan,
        ((seat_winners >> seat) & 1) = 1 AS won
    FROM wide
    UNION ALL
    SELECT
        greatest(
            instr('123456K', substr(hole_cards, 1, 1)),
            instr('123456K', substr(hole_cards, 3, 1)),
            instr('123456K', substr(hole_cards, 5, 1))),
        won > 0
    FROM players_raw
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip) AND showdown
)
SELECT substr('123456K', best_fan, 1) AS best_fan_card, count(*) AS hands, count(*) FILTER (WHERE won) AS won
FROM seats
GROUP BY best_fan
ORDER BY best_fan
