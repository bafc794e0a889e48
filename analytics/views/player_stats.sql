-- player_stats: per player and run, statistics of hands with betting (replayed or betting-mode
-- simulation), as count/opportunity pairs so that they add up across runs and shards:
--   vpip        put chips in by choice in the first betting round / hands with a choice in it
--               (after a starting bet: called it in the first round; the starting bet itself is
--               forced and its poster is not asked, so that seat has no VPIP chance)
--   pfr         bet or raised in the first round that allows raises / hands acting in it
--               (the first round, or after a call-only first round the next one)
--   three_bet   re-raised a single raise in that round / times facing a single raise there
--   wtsd        went to showdown / saw the flop
--   wsd         won chips at the showdown / went to showdown
--   net, bb_won won or lost in the hands' currency (exact: in_currency) and in big blinds, over the
--               hands whose result was recorded (results_hands; bb/100 = 100 * bb_won / results_hands)
WITH choices AS (
    SELECT
        a.hand_id, a.seat, a.street, a.action,
        a.street = v.first_bet_street AS first_round,
        a.street = v.first_raise_street AS raise_round,
        count(*) FILTER (WHERE a.action IN ('bet', 'raise')) OVER (
            PARTITION BY a.hand_id, a.street ORDER BY a.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS raises_before
    FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE (a.street = v.first_bet_street OR a.street = v.first_raise_street)
      AND a.action IN ('fold', 'check', 'call', 'bet', 'raise') AND NOT a.automatic
),
preflop AS (
    SELECT
        hand_id, seat,
        bool_or(first_round) AS first_choice,
        bool_or(first_round AND action IN ('call', 'bet', 'raise')) AS vpip,
        bool_or(raise_round) AS raise_choice,
        bool_or(raise_round AND action IN ('bet', 'raise')) AS pfr,
        bool_or(raise_round AND raises_before = 1) AS faced_raise,
        bool_or(raise_round AND raises_before = 1 AND action IN ('bet', 'raise')) AS three_bet,
        bool_or(first_round AND action = 'fold') AS folded_early
    FROM choices
    GROUP BY hand_id, seat
),
flops AS (  -- hands dealt a street after the first betting round: the flop, or stud's fourth street
    SELECT DISTINCT a.hand_id FROM actions_raw AS a
    JOIN variants AS v ON v.variant = a.variant
    WHERE a.action = 'deal' AND list_position(v.streets, a.street) > list_position(v.streets, v.first_bet_street)
)
SELECT
    p.run_id,
    p.variant,
    coalesce(p.player, 'seat ' || (p.seat + 1)) AS player,
    count(*) AS hands,
    count(*) FILTER (WHERE coalesce(f.first_choice, false)) AS vpip_chances,
    count(*) FILTER (WHERE coalesce(f.vpip, false)) AS vpip,
    count(*) FILTER (WHERE coalesce(f.raise_choice, false)) AS pfr_chances,
    count(*) FILTER (WHERE coalesce(f.pfr, false)) AS pfr,
    count(*) FILTER (WHERE coalesce(f.three_bet, false)) AS three_bet,
    count(*) FILTER (WHERE coalesce(f.faced_raise, false)) AS three_bet_chances,
    count(*) FILTER (WHERE fl.hand_id IS NOT NULL AND NOT coalesce(f.folded_early, false) AND NOT p.dead) AS saw_flop,
    count(*) FILTER (WHERE p.showdown) AS wtsd,
    count(*) FILTER (WHERE p.showdown AND p.won > 0) AS wsd,
    sum(in_currency(p.net, h.amount_decimals)) FILTER (WHERE coalesce(h.record, '') <> 'unchecked') AS net,
    sum(p.net / h.big_blind) FILTER (WHERE coalesce(h.record, '') <> 'unchecked') AS bb_won,
    count(*) FILTER (WHERE coalesce(h.record, '') <> 'unchecked') AS results_hands
FROM players_raw AS p
JOIN hands_raw AS h USING (hand_id)
LEFT JOIN preflop AS f USING (hand_id, seat)
LEFT JOIN flops AS fl USING (hand_id)
GROUP BY p.run_id, p.variant, coalesce(p.player, 'seat ' || (p.seat + 1))
