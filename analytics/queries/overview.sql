-- overview: hand counts and how hands ended. Runs in $skip are left out (their counts come
-- from the summaries table).
SELECT
    count(*) AS hands,
    count(*) FILTER (WHERE showdown) AS showdown_hands,
    count(*) FILTER (WHERE ending = 'uncontested') AS uncontested_hands,
    count(*) FILTER (WHERE ending = 'everyone_dead') AS everyone_dead_hands,
    count(*) FILTER (WHERE scoop) AS scoops,
    count(*) FILTER (WHERE split) AS splits,
    count(*) FILTER (WHERE triple_scoop) AS triple_scoops,
    count(*) FILTER (WHERE high_low_same) AS high_low_same,
    count(*) FILTER (WHERE low_paid) AS low_paid,
    count(*) FILTER (WHERE low_paid AND NOT high_low_same AND NOT high_low_different) AS low_alone,
    count(*) FILTER (WHERE category_tie) AS category_ties,
    count(*) FILTER (WHERE showdown AND surviving = 1) AS one_board_survives,
    count(*) FILTER (WHERE showdown AND surviving = 2) AS two_boards_survive,
    count(*) FILTER (WHERE structure = 'all-in') AS showdown_mode_hands
FROM hand_outcomes
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
