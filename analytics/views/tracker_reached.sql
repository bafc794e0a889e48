-- tracker_reached: each hand of a game with betting whose cards reached the round after the raise
-- round (hold'em: the flop), and the first such round (second_round), from any action of the hand.
-- Written once more, compiled, in analytics/tracker_kernel.py.
SELECT a.hand_id, min(list_position(v.streets, a.street)) AS second_round
FROM actions_raw AS a
JOIN variants AS v ON v.variant = a.variant
WHERE list_position(v.streets, a.street) > list_position(v.streets, v.first_raise_street)
GROUP BY a.hand_id
