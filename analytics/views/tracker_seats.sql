-- tracker_seats: one row per seat of every hand with betting (replayed, or simulated in betting
-- mode), with what a tracker counts (docs/statistics.md, "Players"): for each statistic whether
-- the seat had the chance (*_chances) and whether it took it, as 0 or 1, so that any grouping sums
-- them. The rounds are the game's, read from its description: the first betting round (VPIP), the
-- first round that allows raises (PFR, 3-bet, fold to 3-bet; hold'em: both are preflop) and the
-- round after it (c-bet, fold to c-bet; hold'em: the flop). Results (net, in units, in the
-- currency and in big blinds) are null for a hand whose result is unchecked (no record).
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
),
reached AS (  -- hands whose cards reached the round after the raise round
    SELECT a.hand_id, min(list_position(v.streets, a.street)) AS second_round
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE list_position(v.streets, a.street) > list_position(v.streets, v.first_raise_street)
    GROUP BY a.hand_id
)
SELECT
    p.hand_id, p.run_id, p.variant, h.structure, h.source, h.venue,
    coalesce(p.player, 'seat ' || (p.seat + 1)) AS player,
    p.seat, h.n_players, seat_position(p.seat, h.n_players) AS position,
    h.currency, h.amount_decimals, h.big_blind,
    in_currency(h.big_blind, h.amount_decimals) AS big_blind_currency,
    -- the stake a filter names: the big blind in its currency ("1 USD", "0.5 USD", "100 chips")
    rtrim(rtrim(CAST(in_currency(h.big_blind, h.amount_decimals) AS VARCHAR), '0'), '.') || ' '
        || coalesce(h.currency, CASE WHEN h.amount_decimals > 0 THEN 'money' ELSE 'chips' END) AS stake,
    h.played_on, h.played_time, h.hand_no, h.source_file, h.hand_index,
    coalesce(COLUMNS(l.* EXCLUDE (hand_id, seat, folded_in)), 0),  -- a seat that never chose: all 0
    CAST(r.second_round IS NOT NULL AND NOT p.dead
         AND coalesce(l.folded_in, 1000) >= r.second_round AS INTEGER) AS saw_flop,
    -- at the showdown: still in when the hand reached it (one who mucked there went to it too)
    CAST(h.showdown AND NOT p.folded AND NOT p.dead AS INTEGER) AS wtsd,
    CAST(h.showdown AND NOT p.folded AND NOT p.dead AND p.won > 0 AS INTEGER) AS wsd,
    coalesce(h.record, '') <> 'unchecked' AS counted,
    CASE WHEN counted THEN p.net END AS net,
    CASE WHEN counted THEN in_currency(p.net, h.amount_decimals) END AS net_currency,
    CASE WHEN counted THEN p.net / h.big_blind END AS net_bb
FROM players_raw AS p
JOIN hands_raw AS h USING (hand_id)
LEFT JOIN lines AS l USING (hand_id, seat)
LEFT JOIN reached AS r USING (hand_id)
WHERE h.big_blind > 0
