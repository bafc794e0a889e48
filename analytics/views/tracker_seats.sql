-- tracker_seats: one row per seat of every hand with betting (replayed, or simulated in betting
-- mode), with what a tracker counts (docs/statistics.md, "Players"): for each statistic whether
-- the seat had the chance (*_chances) and whether it took it, as 0 or 1, so that any grouping sums
-- them. The rounds are the game's, read from its description: the first betting round (VPIP), the
-- first round that allows raises (PFR, 3-bet, fold to 3-bet; hold'em: both are preflop) and the
-- round after it (c-bet, fold to c-bet; hold'em: the flop). Results (net, in units, in the
-- currency and in big blinds) are null for a hand whose result is unchecked (no record). The
-- chances come from tracker_lines, the rounds reached from tracker_reached.
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
LEFT JOIN tracker_lines AS l USING (hand_id, seat)
LEFT JOIN tracker_reached AS r USING (hand_id)
WHERE h.big_blind > 0
