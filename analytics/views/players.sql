-- players: one row per seat per hand, replayed, betting-mode and showdown-mode hands alike.
SELECT * FROM players_raw
UNION ALL BY NAME
SELECT * FROM seat_players
