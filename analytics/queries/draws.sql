-- draws: a draw game, on each street with a draw: the draws made (one a seat still in), the cards
-- drawn in all and their squares, and the draws that stood pat; replayed, betting-mode and
-- showdown-mode hands alike (the actions view gives showdown-mode draws from their seat lists).
SELECT
    a.street,
    count(*) AS draws,
    sum(coalesce(length(a.cards), 0) // 2) AS cards_drawn,
    sum(pow(coalesce(length(a.cards), 0) // 2, 2)) AS cards_drawn_squares,
    count(*) FILTER (WHERE a.cards IS NULL) AS stood_pat
FROM actions AS a
WHERE a.variant = $variant AND chosen_run(a.run_id, $runs, $skip) AND a.action = 'draw'
GROUP BY a.street
