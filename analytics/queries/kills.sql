-- kills: for the last card of every board of every showdown of a game with a kill rule, its
-- rank and whether its board died.
WITH boards AS (
    SELECT
        list_transform(h.boards, lambda b: substr(b, length(b) - 1, 1)) AS river_ranks,
        list_reduce(list_transform(h.surviving_boards, lambda b: 1 << b), lambda a, b: a | b) AS alive,
        v.n_boards
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.variant = $variant AND chosen_run(h.run_id, $runs, $skip) AND h.showdown
)
SELECT
    river_ranks[b + 1] AS rank,
    count(*) AS boards,
    count(*) FILTER (WHERE (alive >> b) & 1 = 0) AS killed
FROM boards, (SELECT unnest(range(3)) AS b)
WHERE b < n_boards
GROUP BY rank
