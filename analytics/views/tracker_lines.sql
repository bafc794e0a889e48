-- tracker_lines: one row per seat of a hand that chose at least once in a betting round (a move
-- not made for it), with each chance a tracker counts and whether the seat took it, 0 or 1, the
-- round of its fold (folded_in, null if it never folded) and its moves after the raise round. The
-- view tracker_seats builds on it. It is written once more, compiled, in analytics/tracker_kernel.py
-- (what counting a run's derived files uses); tests/test_tracker_kernel.py holds the two equal.
WITH acts AS (
    SELECT
        a.hand_id, a.seq, a.seat, a.action,
        list_position(v.streets, a.street) AS round,
        list_position(v.streets, v.first_raise_street) AS raise_round,
        list_position(v.streets, v.first_bet_street) AS bet_round,
        count(*) FILTER (WHERE a.action IN ('bet', 'raise')) OVER (
            PARTITION BY a.hand_id, a.street ORDER BY a.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS raises_before
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.action IN ('fold', 'check', 'call', 'bet', 'raise') AND NOT a.automatic
),
raisers AS (  -- who opened the raise round, who raised last in it, who bet first the round after
    SELECT
        hand_id,
        arg_min(seat, seq) FILTER (WHERE round = raise_round AND action IN ('bet', 'raise')) AS opener,
        arg_max(seat, seq) FILTER (WHERE round = raise_round AND action IN ('bet', 'raise')) AS aggressor,
        arg_min(seat, seq) FILTER (WHERE round = raise_round + 1 AND action IN ('bet', 'raise')) AS first_bettor
    FROM acts
    GROUP BY hand_id
),
choices AS (
    SELECT
        a.*,
        a.round = a.raise_round AND a.seat = r.opener AND a.raises_before = 2 AS faces_three_bet,
        a.round = a.raise_round + 1 AND a.seat = r.aggressor AND a.raises_before = 0 AS may_cbet,
        a.round = a.raise_round + 1 AND a.seat <> r.aggressor AND r.first_bettor = r.aggressor
            AND a.raises_before = 1 AS faces_cbet,
        row_number() OVER (PARTITION BY a.hand_id, a.seat, a.round ORDER BY a.seq) AS nth_in_round
    FROM acts AS a
    LEFT JOIN raisers AS r USING (hand_id)
),
lines AS (  -- each chance and what was made of it, 0 or 1, and the counts of moves
    SELECT
        hand_id, seat,
        min(round) FILTER (WHERE action = 'fold') AS folded_in,
        CAST(bool_or(round = bet_round) AS INTEGER) AS vpip_chances,
        CAST(bool_or(round = bet_round AND action IN ('call', 'bet', 'raise')) AS INTEGER) AS vpip,
        CAST(bool_or(round = raise_round) AS INTEGER) AS pfr_chances,
        CAST(bool_or(round = raise_round AND action IN ('bet', 'raise')) AS INTEGER) AS pfr,
        CAST(bool_or(round = raise_round AND raises_before = 1) AS INTEGER) AS three_bet_chances,
        CAST(bool_or(round = raise_round AND raises_before = 1 AND action IN ('bet', 'raise')) AS INTEGER)
            AS three_bet,
        CAST(bool_or(faces_three_bet) AS INTEGER) AS fold_to_three_bet_chances,
        CAST(bool_or(faces_three_bet AND action = 'fold') AS INTEGER) AS fold_to_three_bet,
        CAST(bool_or(may_cbet AND nth_in_round = 1) AS INTEGER) AS cbet_chances,
        CAST(bool_or(may_cbet AND nth_in_round = 1 AND action = 'bet') AS INTEGER) AS cbet,
        CAST(bool_or(faces_cbet) AS INTEGER) AS fold_to_cbet_chances,
        CAST(bool_or(faces_cbet AND action = 'fold') AS INTEGER) AS fold_to_cbet,
        count(*) FILTER (WHERE round > raise_round AND action IN ('bet', 'raise')) AS postflop_aggressive,
        count(*) FILTER (WHERE round > raise_round AND action = 'call') AS postflop_calls
    FROM choices
    GROUP BY hand_id, seat
)
SELECT * FROM lines
