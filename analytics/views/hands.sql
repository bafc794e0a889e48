-- hands: one row per hand, replayed and simulated alike. Showdown-mode simulated hands also keep
-- their seats in the seat_* lists (one item per seat); the players and actions views unnest them.
SELECT h.* REPLACE (coalesce(h.notes, []) AS notes)
FROM hands_raw AS h
