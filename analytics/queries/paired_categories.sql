-- paired_categories: seats at the showdown in both of two runs that dealt the same cards, by the
-- hand category each run gave the seat (for a McNemar test per category). $variant_a, $run_a,
-- $variant_b, $run_b (two runs of one game, or of two games of one ranking that deal alike).
-- Such runs are showdown-mode runs, their seats stored as lists: hand i of shard s of one run is
-- hand i of shard s of the other ("deal", the id's "s:i" part), seat by seat in list order.
WITH a AS (
    SELECT substr(hand_id, length(run_id) + 2) AS deal, seat_strength AS strengths
    FROM hands_raw WHERE variant = $variant_a AND run_id = $run_a AND showdown
),
b AS (
    SELECT substr(hand_id, length(run_id) + 2) AS deal, seat_strength AS strengths
    FROM hands_raw WHERE variant = $variant_b AND run_id = $run_b AND showdown
),
seats AS (
    SELECT unnest(a.strengths) AS sa, unnest(b.strengths) AS sb
    FROM a JOIN b USING (deal)
)
SELECT CAST(strength_category(sa) AS TINYINT) AS category_a, CAST(strength_category(sb) AS TINYINT) AS category_b,
       count(*) AS seats
FROM seats WHERE sa >= 0 AND sb >= 0
GROUP BY ALL
