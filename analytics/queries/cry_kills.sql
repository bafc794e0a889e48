-- cry_kills: for every river card of every Cry Me A River showdown, its rank and whether
-- its board died.
WITH boards AS (
    SELECT
        coalesce(
            list_transform(boards, lambda b: substr(b, 9, 1)),
            list_transform(string_split(board_text, '/'), lambda b: substr(card_text(substr(b, 5, 1), false), 1, 1))
        ) AS river_ranks,
        coalesce(surviving_mask, list_reduce(list_transform(surviving_boards, lambda b: 1 << b), lambda a, b: a | b)) AS alive
    FROM hands_raw
    WHERE variant = $variant AND chosen_run(run_id, $runs, $skip) AND showdown
)
SELECT
    river_ranks[b + 1] AS rank,
    count(*) AS boards,
    count(*) FILTER (WHERE (alive >> b) & 1 = 0) AS killed
FROM boards, (SELECT unnest(range(3)) AS b)
GROUP BY rank
