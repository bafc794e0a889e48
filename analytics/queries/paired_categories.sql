-- paired_categories: seats at the showdown in both of two runs that dealt the same cards, by the
-- hand category each run gave the seat (for a McNemar test per category). $variant, $run_a, $run_b.
WITH seats AS (
    SELECT s.run_id, substr(s.hand_id, length(s.run_id) + 2) AS deal, s.seat, s.category  -- "shard:index"
    FROM showdown_seats AS s
    WHERE s.variant = $variant AND s.run_id IN ($run_a, $run_b)
)
SELECT a.category AS category_a, b.category AS category_b, count(*) AS seats
FROM (SELECT * FROM seats WHERE run_id = $run_a) AS a
JOIN (SELECT * FROM seats WHERE run_id = $run_b) AS b USING (deal, seat)
GROUP BY ALL
