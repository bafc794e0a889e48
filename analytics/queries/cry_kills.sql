-- cry_kills: for every river card of every Cry Me A River showdown, its rank and whether
-- its board died.
WITH boards AS (
    SELECT
        coalesce(boards, string_split(board_text, '/')) AS texts,
        coalesce(surviving_mask, list_reduce(list_transform(surviving_boards, lambda b: 1 << b), lambda a, b: a | b)) AS alive
    FROM hands_raw
    WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id)) AND showdown
        AND NOT list_contains($skip, run_id)
)
SELECT
    substr(texts[b + 1], 9, 1) AS rank,
    count(*) AS boards,
    count(*) FILTER (WHERE (alive >> b) & 1 = 0) AS killed
FROM boards, (SELECT unnest(range(3)) AS b)
GROUP BY rank
