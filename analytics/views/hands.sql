-- hands: one row per hand. Showdown-mode simulated hands store their boards as one text of
-- card codes (board_text, "/" between boards; see macros) and the surviving boards as a bit
-- mask; this view gives every hand the documented boards and surviving_boards lists. Their
-- seats are in players.
SELECT h.* REPLACE (
    coalesce(
        h.boards,
        list_transform(string_split(h.board_text, '/'), lambda b: cards_text(b, v.deck_cards))
    ) AS boards,
    coalesce(
        h.surviving_boards,
        list_transform(list_filter(range(v.n_boards), lambda b: (h.surviving_mask >> b) & 1 = 1),
                       lambda b: CAST(b AS TINYINT))
    ) AS surviving_boards,
    coalesce(h.notes, []) AS notes
)
FROM hands_raw AS h
LEFT JOIN variants AS v ON v.variant = h.variant
