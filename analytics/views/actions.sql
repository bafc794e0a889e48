-- actions: every action of every hand, replayed, betting-mode and showdown-mode alike.
SELECT * FROM actions_raw
UNION ALL BY NAME
SELECT * FROM seat_actions
