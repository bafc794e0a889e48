-- starting_hands: the stored starting-hand tables (scooplab hands), one row per class or per
-- value of a feature, with the high and low halves' shares taken out of the shares list (a pot
-- of one part is all high: its high share is the equity).
SELECT
    *,
    CASE WHEN len(shares) = 0 THEN equity
         ELSE list_filter(shares, lambda s: s.part = 'high')[1].share END AS high_share,
    list_filter(shares, lambda s: s.part = 'low')[1].share AS low_share
FROM starting_hands_raw
