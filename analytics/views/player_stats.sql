-- player_stats: per player and run, statistics of hands with betting (replayed or betting-mode
-- simulation), as count/opportunity pairs so that they add up across runs and shards:
--   vpip        put chips in voluntarily before the flop / hands dealt
--   pfr         bet or raised before the flop / hands dealt
--   three_bet   re-raised a single raise before the flop / times facing a single raise
--   wtsd        went to showdown / saw the flop
--   wsd         won chips at the showdown / went to showdown
--   net, bb_won chips won or lost, and the same in big blinds (bb/100 = 100 * bb_won / hands)
WITH first_round AS (
    SELECT
        hand_id, seat, action,
        count(*) FILTER (WHERE action IN ('bet', 'raise')) OVER (
            PARTITION BY hand_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS raises_before
    FROM actions_raw
    WHERE street IN ('preflop', 'fan') AND action IN ('fold', 'check', 'call', 'bet', 'raise')
),
preflop AS (
    SELECT
        hand_id, seat,
        bool_or(action IN ('call', 'bet', 'raise')) AS vpip,
        bool_or(action IN ('bet', 'raise')) AS pfr,
        bool_or(raises_before = 1) AS faced_raise,
        bool_or(raises_before = 1 AND action IN ('bet', 'raise')) AS three_bet,
        bool_or(action = 'fold') AS folded_early
    FROM first_round
    GROUP BY hand_id, seat
),
flops AS (
    SELECT DISTINCT hand_id FROM actions_raw
    WHERE action = 'deal' AND board IS NOT NULL AND street NOT IN ('preflop', 'fan')
)
SELECT
    p.run_id,
    p.variant,
    coalesce(p.player, 'seat ' || (p.seat + 1)) AS player,
    count(*) AS hands,
    count(*) FILTER (WHERE coalesce(f.vpip, false)) AS vpip,
    count(*) FILTER (WHERE coalesce(f.pfr, false)) AS pfr,
    count(*) FILTER (WHERE coalesce(f.three_bet, false)) AS three_bet,
    count(*) FILTER (WHERE coalesce(f.faced_raise, false)) AS three_bet_chances,
    count(*) FILTER (WHERE fl.hand_id IS NOT NULL AND NOT coalesce(f.folded_early, false) AND NOT p.dead) AS saw_flop,
    count(*) FILTER (WHERE p.showdown) AS wtsd,
    count(*) FILTER (WHERE p.showdown AND p.won > 0) AS wsd,
    sum(p.net) AS net,
    sum(p.net / h.big_blind) AS bb_won
FROM players_raw AS p
JOIN hands_raw AS h USING (hand_id)
LEFT JOIN preflop AS f USING (hand_id, seat)
LEFT JOIN flops AS fl USING (hand_id)
GROUP BY p.run_id, p.variant, coalesce(p.player, 'seat ' || (p.seat + 1))
