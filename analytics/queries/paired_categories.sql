-- paired_categories: seats at the showdown in both of two runs that dealt the same cards, by the
-- hand category each run gave the seat (for a McNemar test per category). $variant, $run_a, $run_b.
WITH seats AS (
    SELECT s.run_id, h.hand_index, s.seat, s.category
    FROM showdown_seats AS s
    JOIN hands_raw AS h USING (hand_id)
    WHERE s.variant = $variant AND s.run_id IN ($run_a, $run_b)
)
SELECT a.category AS category_a, b.category AS category_b, count(*) AS seats
FROM (SELECT * FROM seats WHERE run_id = $run_a) AS a
JOIN (SELECT * FROM seats WHERE run_id = $run_b) AS b USING (hand_index, seat)
GROUP BY ALL
