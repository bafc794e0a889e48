-- bring_ins: a game with a bring-in (stud): of the hands whose first street was bet, how many had
-- the bring-in posted, how many of those were completed after it, and how many the opener
-- completed at once (no bring-in posted).
WITH first_street AS (
    SELECT
        bool_or(a.action = 'bring_in') AS brought_in,
        bool_or(a.action = 'bet') AS completed
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.variant = $variant AND chosen_run(a.run_id, $runs, $skip) AND a.street = v.streets[1]
    GROUP BY a.run_id, a.hand_id
)
SELECT
    count(*) FILTER (WHERE brought_in OR completed) AS hands,
    count(*) FILTER (WHERE brought_in) AS brought_in,
    count(*) FILTER (WHERE brought_in AND completed) AS completed_after,
    count(*) FILTER (WHERE completed AND NOT brought_in) AS completed_at_once
FROM first_street
