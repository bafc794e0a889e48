-- seat_actions: the actions of showdown-mode simulated hands, which are not stored row by row:
-- each seat puts its stake in (an automatic post), and in a game with a discard-trigger board
-- the forced discards of each street follow, street by street, seat by seat. Each seat's stake is
-- its whole stack, so its stack after is 0 and the pot after counts the stakes posted so far.
-- (Seats are cut as in seat_players: by a seat number, each list's item picked by it; streets and
-- draws are numbered by unnest too, not lateral joins, so a filter on hand_id reaches the files.)
WITH hand_seats AS NOT MATERIALIZED (
    SELECT
        h.hand_id, h.run_id, h.variant, h.n_players, h.big_blind, v.streets,
        CAST(unnest(range(h.n_players)) AS TINYINT) AS seat,
        h.seat_hole, h.seat_discard_street, h.seat_thrown, h.seat_received
    FROM hands_raw AS h
    JOIN variants AS v ON v.variant = h.variant
    WHERE h.phh IS NULL AND h.source = 'simulation'
),
seats AS NOT MATERIALIZED (  -- (inlined in each part below: a filter on hand_id reaches the files)
    SELECT
        hand_id, run_id, variant, n_players, big_blind, streets, seat,
        seat_hole[seat + 1] AS dealt,
        seat_discard_street[seat + 1] AS fate,
        seat_thrown[seat + 1] AS thrown,
        seat_received[seat + 1] AS received
    FROM hand_seats
),
posts AS (
    SELECT hand_id, run_id, variant, CAST(seat AS SMALLINT) AS seq,
        streets[1] AS street,
        seat, 'post' AS action, big_blind AS amount, CAST(NULL AS VARCHAR) AS cards,
        CAST(NULL AS TINYINT) AS board, true AS automatic,
        CAST(0 AS BIGINT) AS stack_after, CAST((seat + 1) * big_blind AS BIGINT) AS pot_after
    FROM seats
),
discards AS (
    SELECT hand_id, run_id, variant, n_players, big_blind, seat, street_number, streets,
        cards_with_fate(dealt, fate, street_number) AS cards
    FROM (SELECT *, unnest(range(1, len(streets))) AS street_number FROM seats WHERE fate IS NOT NULL)
)
SELECT * FROM posts
UNION ALL
SELECT hand_id, run_id, variant,
    CAST(n_players - 1 + row_number() OVER (PARTITION BY hand_id ORDER BY street_number, seat) AS SMALLINT) AS seq,
    streets[street_number + 1] AS street,
    seat, 'discard' AS action, CAST(NULL AS BIGINT) AS amount, cards,
    CAST(NULL AS TINYINT) AS board, false AS automatic,
    CAST(0 AS BIGINT) AS stack_after, CAST(n_players * big_blind AS BIGINT) AS pot_after
FROM discards
WHERE cards <> ''
UNION ALL
SELECT hand_id, run_id, variant,
    CAST(n_players - 1 + row_number() OVER (PARTITION BY hand_id ORDER BY draw_number, seat, step) AS SMALLINT)
        AS seq,
    draw_streets[draw_number] AS street,
    seat, CASE step WHEN 0 THEN 'draw' ELSE 'deal' END AS action, CAST(NULL AS BIGINT) AS amount,
    CASE WHEN cards <> '' THEN cards END AS cards,
    CAST(NULL AS TINYINT) AS board, false AS automatic,
    CAST(0 AS BIGINT) AS stack_after, CAST(n_players * big_blind AS BIGINT) AS pot_after
FROM (
    SELECT *, CASE step WHEN 0 THEN thrown[draw_number] ELSE received[draw_number] END AS cards
    FROM (SELECT *, unnest(range(2)) AS step FROM (
        SELECT s.*, v.draw_streets, unnest(range(1, len(s.thrown) + 1)) AS draw_number
        FROM seats AS s
        JOIN variants AS v ON v.variant = s.variant
        WHERE s.thrown IS NOT NULL
    ))
)
WHERE step = 0 OR cards <> ''
