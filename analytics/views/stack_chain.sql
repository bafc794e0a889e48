-- stack_chain: each player's starting stack in a replayed hand against what the previous hand he
-- played at the same table (venue and table name; ordered by date, time and hand number) left him.
-- agrees is false where they differ: a hand missing from the file, a top-up or rebuy between hands,
-- a file that is wrong. A player's first hand at a table, hands naming no table, and hands whose
-- result was not recorded (unchecked: their finishing stacks are not known) are left out.
-- Amounts are exact decimals of the currency (in_currency): hands of different units compare.
WITH seated AS (
    SELECT h.run_id, h.hand_id, h.venue, h.table_name, h.played_on, h.played_time, h.hand_no, p.player,
           in_currency(p.starting_stack, h.amount_decimals) AS starting_stack,
           in_currency(p.finishing_stack, h.amount_decimals) AS finishing_stack
    FROM hands_raw AS h JOIN players_raw AS p USING (hand_id)
    WHERE h.venue IS NOT NULL AND h.table_name IS NOT NULL AND p.player IS NOT NULL
      AND h.record <> 'unchecked'  -- no record: its finishing stacks are not known
), chained AS (
    SELECT *, lag(finishing_stack) OVER (PARTITION BY venue, table_name, player
                                         ORDER BY played_on, played_time, hand_no, hand_id) AS previous_stack
    FROM seated
)
SELECT run_id, hand_id, venue, table_name, player, played_on, played_time, hand_no, starting_stack,
       previous_stack, starting_stack = previous_stack AS agrees
FROM chained
WHERE previous_stack IS NOT NULL
