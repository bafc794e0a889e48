-- showing_order: a game whose later streets open by the up cards (stud: the best showing hand;
-- razz: the lowest). For each such street that was bet, whether the seat that acted first (the
-- opener, or the next with chips when it is all in) won chips of the pot: hands by street, and
-- the first actor's wins.
WITH firsts AS (
    SELECT a.run_id, a.hand_id, a.street, arg_min(a.seat, a.seq) AS seat
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.variant = $variant AND chosen_run(a.run_id, $runs, $skip) AND a.street <> v.streets[1]
        AND a.seat IS NOT NULL AND a.action IN ('fold', 'check', 'call', 'bet', 'raise')
    GROUP BY a.run_id, a.hand_id, a.street
)
SELECT
    f.street,
    count(*) AS hands,
    count(*) FILTER (WHERE p.won > 0) AS first_won
FROM firsts AS f
JOIN players_raw AS p ON p.run_id = f.run_id AND p.hand_id = f.hand_id AND p.seat = f.seat
GROUP BY f.street
