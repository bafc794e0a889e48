"""A site's name of a game (``Hold'em No Limit``, ``PLO-5``) as a scooplab description's PHH code.

A game scooplab has no description for is refused by its name as the file writes it.

>>> game_of("Hold'em No Limit"), game_of("Omaha Hi/Lo Pot Limit"), game_of("Razz Limit")
(('NT', 2, 'board'), ('PO/8', 4, 'board'), ('FR', 7, 'stud'))
>>> game_of("5 Card Draw Limit"), last_game_name("Split Hold'em No Limit ($1/$2 USD)")
(('F5D', 5, 'draw'), "Split Hold'em No Limit")
"""

from __future__ import annotations

import re

_LIMITS = {"No Limit": "N", "Pot Limit": "P", "Fixed Limit": "F", "Limit": "F"}
# a game's name without its limit: (PHH code without the structure letter, hole cards, kind: "board"
# (hole cards and boards), "stud" (cards dealt street by street), "draw")
_FAMILIES = {
    "Hold'em": ("T", 2, "board"), "Holdem": ("T", 2, "board"), "Omaha": ("O", 4, "board"),
    "Omaha Hi": ("O", 4, "board"), "Omaha Hi/Lo": ("O/8", 4, "board"), "Omaha H/L": ("O/8", 4, "board"),
    "6+ Hold'em": ("S", 2, "board"), "ShortDeck": ("S", 2, "board"), "Short Deck": ("S", 2, "board"),
    "Hold'em Short Deck": ("S", 2, "board"), "7 Card Stud": ("7S", 7, "stud"), "Stud": ("7S", 7, "stud"),
    "7 Card Stud Hi/Lo": ("7S/8", 7, "stud"), "Razz": ("R", 7, "stud"), "Badugi": ("B", 4, "draw"),
    "Triple Draw 2-7 Lowball": ("2L3D", 5, "draw"), "2-7 Triple Draw": ("2L3D", 5, "draw"),
    "Single Draw 2-7 Lowball": ("2L1D", 5, "draw"), "5 Card Omaha": ("O5", 5, "board"),
    "5 Card Omaha Hi/Lo": ("O5/8", 5, "board"), "6 Card Omaha": ("O6", 6, "board"),
    "Courchevel": ("CV", 5, "board"), "Courchevel Hi/Lo": ("CV/8", 5, "board"),
    "5 Card Draw": ("5D", 5, "draw"),
}  # fmt: skip
_SHORT_NAMES = {"PLO": ("PO", 4, "board"), "PLO8": ("PO/8", 4, "board"), "PLO Hi/Lo": ("PO/8", 4, "board"),
                "NLH": ("NT", 2, "board"), "PLO-5": ("PO5", 5, "board"), "PLO5": ("PO5", 5, "board"),
                "PLO-6": ("PO6", 6, "board"), "PLO6": ("PO6", 6, "board")}  # fmt: skip
# the codes of scooplab's descriptions these names reach
# fmt: off
_DESCRIBED = frozenset({
    "NT", "PT", "FT", "NO", "PO", "FO", "NO/8", "PO/8", "FO/8", "NS", "PS", "FS", "F7S", "F7S/8", "FR", "FB",
    "F2L3D", "N2L1D", "NO5", "PO5", "FO5", "NO5/8", "PO5/8", "FO5/8", "NO6", "PO6", "FO6",
    "NCV", "PCV", "FCV", "NCV/8", "PCV/8", "FCV/8", "N5D", "P5D", "F5D",
})
# fmt: on
GAME_NAMES = re.compile(
    r"((?:Split )?(?:\d Card )?(?:Hold'em|Holdem|Omaha|6\+ Hold'em|ShortDeck|Short Deck|Courchevel|"
    r"7 Card Stud|Razz|Badugi|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|5 Card Draw|2-7 Triple Draw|"
    r"Stud)"
    r"(?: Hi/Lo| H/L| Hi| Short Deck)?(?: No Limit| Pot Limit| Fixed Limit| Limit))"
    r"|\b(PLO(?:-\d|\d)?(?: Hi/Lo)?|NLH)\b"
)


# games with a board card dealt before the first betting round (Courchevel): only a reader that knows
# how its room writes that card asks for them (``early_board``)
_EARLY_BOARD = frozenset({"CV", "CV/8"})


def game_of(name: str, early_board: bool = False) -> tuple[str, int, str] | None:
    """The PHH code, hole cards and kind of a site's game name, or None when scooplab has no description
    (or, without ``early_board``, when its first board card comes before the first betting round).

    >>> game_of("Courchevel Pot Limit"), game_of("Courchevel Pot Limit", early_board=True)
    (None, ('PCV', 5, 'board'))
    """
    if name in _SHORT_NAMES:
        return _SHORT_NAMES[name]
    for limit, letter in _LIMITS.items():
        if name.endswith(" " + limit):
            family = _FAMILIES.get(name[: -len(limit) - 1])
            if family is None or letter + family[0] not in _DESCRIBED:
                return None
            if family[0] in _EARLY_BOARD and not early_board:
                return None
            return letter + family[0], family[1], family[2]
    return None


def last_game_name(text: str) -> str | None:
    """The last game name in a header's text (a tournament's own name may hold one before it)."""
    found = [m.group(0) for m in GAME_NAMES.finditer(text)]
    return found[-1] if found else None
