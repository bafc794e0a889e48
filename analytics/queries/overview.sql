-- overview: hand counts, how hands ended, and the pot size distribution.
SELECT
    count(*) AS hands,
    count(*) FILTER (WHERE showdown) AS showdown_hands,
    count(*) FILTER (WHERE ending = 'uncontested') AS uncontested_hands,
    count(*) FILTER (WHERE ending = 'everyone_dead') AS everyone_dead_hands,
    count(*) FILTER (WHERE scoop) AS scoops,
    count(*) FILTER (WHERE split) AS splits,
    count(*) FILTER (WHERE triple_scoop) AS triple_scoops,
    count(*) FILTER (WHERE high_low_same) AS high_low_same,
    count(*) FILTER (WHERE showdown AND surviving = 1) AS one_board_survives,
    count(*) FILTER (WHERE showdown AND surviving = 2) AS two_boards_survive,
    count(*) FILTER (WHERE structure = 'all-in') AS showdown_mode_hands,
    count(DISTINCT run_id) AS runs,
    avg(pot) AS pot_mean,
    min(pot) AS pot_min,
    quantile_cont(pot, [0.1, 0.25, 0.5, 0.75, 0.9]) AS pot_quantiles,
    max(pot) AS pot_max
FROM hand_outcomes
WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id))
