-- paired_hands: two runs that dealt the same cards (same seed, same shard size: hand i of shard s
-- of one is hand i of shard s of the other; "deal" is the id's "s:i" part), hand by hand. For each hand-level outcome, the pairs where only run A
-- had it and where only run B had it: what a McNemar test needs. Rates over showdowns count
-- the pairs where both runs reached the showdown. $variant_a, $run_a, $variant_b, $run_b (two runs
-- of one game, or of a game and one derived from it that deals alike).
WITH outcomes AS (
    SELECT o.variant = $variant_a AND o.run_id = $run_a AS in_a,
           substr(o.hand_id, length(o.run_id) + 2) AS deal, o.showdown, o.scoop, o.split, o.category_tie,
           o.triple_scoop, o.high_low_same, o.high_low_different, o.surviving
    FROM wide_hand_outcomes AS o  -- (runs that dealt alike are showdown-mode runs: seats as lists)
    WHERE (o.variant = $variant_a AND o.run_id = $run_a) OR (o.variant = $variant_b AND o.run_id = $run_b)
),
pairs AS (
    SELECT a.showdown AS sa, b.showdown AS sb,
           a.scoop AS scoop_a, b.scoop AS scoop_b, a.split AS split_a, b.split AS split_b,
           a.category_tie AS tie_a, b.category_tie AS tie_b,
           a.triple_scoop AS triple_a, b.triple_scoop AS triple_b,
           a.high_low_same AS same_a, b.high_low_same AS same_b,
           a.high_low_different AS different_a, b.high_low_different AS different_b,
           a.surviving AS surviving_a, b.surviving AS surviving_b
    FROM (SELECT * FROM outcomes WHERE in_a) AS a
    JOIN (SELECT * FROM outcomes WHERE NOT in_a) AS b USING (deal)
)
SELECT
    count(*) FILTER (WHERE sa AND NOT sb) AS showdown_a,
    count(*) FILTER (WHERE sb AND NOT sa) AS showdown_b,
    count(*) FILTER (WHERE sa AND sb AND scoop_a AND NOT scoop_b) AS scoop_a,
    count(*) FILTER (WHERE sa AND sb AND scoop_b AND NOT scoop_a) AS scoop_b,
    count(*) FILTER (WHERE sa AND sb AND split_a AND NOT split_b) AS split_a,
    count(*) FILTER (WHERE sa AND sb AND split_b AND NOT split_a) AS split_b,
    count(*) FILTER (WHERE sa AND sb AND tie_a AND NOT tie_b) AS category_tie_a,
    count(*) FILTER (WHERE sa AND sb AND tie_b AND NOT tie_a) AS category_tie_b,
    count(*) FILTER (WHERE sa AND sb AND triple_a AND NOT triple_b) AS triple_scoop_a,
    count(*) FILTER (WHERE sa AND sb AND triple_b AND NOT triple_a) AS triple_scoop_b,
    count(*) FILTER (WHERE sa AND sb AND same_a AND NOT same_b) AS high_low_same_a,
    count(*) FILTER (WHERE sa AND sb AND same_b AND NOT same_a) AS high_low_same_b,
    count(*) FILTER (WHERE sa AND sb AND different_a AND NOT different_b) AS high_low_different_a,
    count(*) FILTER (WHERE sa AND sb AND different_b AND NOT different_a) AS high_low_different_b,
    count(*) FILTER (WHERE sa AND sb AND surviving_a = 1 AND surviving_b <> 1) AS one_board_a,
    count(*) FILTER (WHERE sa AND sb AND surviving_b = 1 AND surviving_a <> 1) AS one_board_b
FROM pairs
