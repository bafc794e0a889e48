"""How a strength is packed, and the category names of each ranking: plain constants, no
compiled code, so that reading a game's description does not load numba.

A strength is ``category << 20 | r1 << 16 | ... | r5`` (``engine.hands.kernels``), with the category's
place in a game's own order above (``place << 24``); ``INVALID`` marks a row that could not be
evaluated.

>>> HIGH_CATEGORIES[((6 << CATEGORY_SHIFT) >> CATEGORY_SHIFT) & CATEGORY_MASK]
'full house'
"""

from __future__ import annotations

INVALID = -1
CATEGORY_SHIFT = 20
CATEGORY_MASK = 0xF  # the category of a strength: (strength >> CATEGORY_SHIFT) & CATEGORY_MASK
PLACE_SHIFT = 24  # an ordered strength's place in its category order
STANDARD_HIGH, SEVEN_RANK, ACE_TO_FIVE, DEUCE_TO_SEVEN, BADUGI = 0, 1, 2, 3, 4  # ranking codes


def category_of(strength):
    """The category of a strength (or of each of an array of them): its index in the ranking's names.

    The compiled kernels call ``engine.hands.kernels.category_of``; SQL, the ``strength_category``
    macro (``analytics/views/macros.sql``).

    >>> category_of(6 << CATEGORY_SHIFT | 0x1234), HIGH_CATEGORIES[category_of(6 << CATEGORY_SHIFT)]
    (6, 'full house')
    """
    return (strength >> CATEGORY_SHIFT) & CATEGORY_MASK


HIGH_CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
SEVEN_RANK_CATEGORIES = (
    "Orphan",
    "Eyes",
    "Twins",
    "Threefold",
    "Disparate",
    "Fourfold",
    "Stairs",
    "Perfect",
    "Four Kings",
)
SEVEN_RANK_TIEBREAKS = ("highest_card", "kickers")
ACE_TO_FIVE_CATEGORIES = (  # worst first: pairs are bad, then the higher the top card the worse
    "four of a kind",
    "full house",
    "three of a kind",
    "two pair",
    "one pair",
    "king low",
    "queen low",
    "jack low",
    "ten low",
    "nine low",
    "eight low",
    "seven low",
    "six low",
    "five low",
)
DEUCE_TO_SEVEN_CATEGORIES = (  # worst first: a made hand counts against a low, then the top card
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "one pair",
    "ace low",
    "king low",
    "queen low",
    "jack low",
    "ten low",
    "nine low",
    "eight low",
    "seven low",
)
BADUGI_CATEGORIES = (  # worst first: fewer cards of different ranks and suits, then the top card
    "one card",
    "two cards",
    "three cards",
    "king badugi",
    "queen badugi",
    "jack badugi",
    "ten badugi",
    "nine badugi",
    "eight badugi",
    "seven badugi",
    "six badugi",
    "five badugi",
    "four badugi",
)
