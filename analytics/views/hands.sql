-- hands: one row per hand. Showdown-mode simulated hands store their boards as one text of
-- card codes (board_text, "/" between boards; see macros) and the surviving boards as a bit
-- mask; this view gives every hand the documented boards and surviving_boards lists. Their
-- seats are in players.
SELECT * REPLACE (
    coalesce(
        boards,
        list_transform(string_split(board_text, '/'), lambda b: cards_text(b, variant = 'skoejarth'))
    ) AS boards,
    coalesce(
        surviving_boards,
        list_transform(list_filter(range(3), lambda b: (surviving_mask >> b) & 1 = 1),
                       lambda b: CAST(b AS TINYINT))
    ) AS surviving_boards,
    coalesce(notes, []) AS notes
)
FROM hands_raw
