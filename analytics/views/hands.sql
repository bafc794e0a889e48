-- hands: one row per hand; the seat_* columns hold showdown-mode seats (see players).
SELECT * FROM hands_raw
