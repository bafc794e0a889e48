-- cash_outs: the all-in cash-outs (insurance) a site file records, one row per player who took one:
-- what the site paid and its fee (exact decimals of the currency), the player's result at the table
-- (unchanged by the cash-out: who won the pot by the cards) and his net with the cash-out, a separate
-- figure: what he put in the pot, back as the cash-out instead of what the table gave him.
WITH taken AS (
    SELECT h.run_id, h.hand_id, h.variant, h.venue, h.currency, p.seat, p.player,
           in_currency(p.net, h.amount_decimals) AS table_net,
           in_currency(p.won, h.amount_decimals) AS table_won,
           CAST(json_extract_string(h.extra_fields, '$._cash_outs[' || p.seat || ']') AS DECIMAL(38, 6))
               AS cash_out,
           CAST(json_extract_string(h.extra_fields, '$._cash_out_fees[' || p.seat || ']') AS DECIMAL(38, 6))
               AS cash_out_fee
    FROM hands_raw AS h JOIN players_raw AS p USING (hand_id)
    WHERE h.extra_fields LIKE '%"_cash_outs"%'
)
SELECT run_id, hand_id, variant, venue, currency, seat, player, cash_out, cash_out_fee, table_net,
       table_net - table_won + cash_out AS net_with_cash_out
FROM taken
WHERE cash_out > 0
