"""Plain-language descriptions of evaluated hands, for the command line and dashboard.

>>> from engine.hands.cards import parse_card_rows
>>> from engine.hands.evaluate import evaluate_high
>>> describe_high(int(evaluate_high(parse_card_rows(["AhKhQhJhTh2c3d"]))[0]))
'straight flush, A high'
"""

from __future__ import annotations

from engine.hands.cards import SEVEN_RANKS, STANDARD, Deck
from engine.hands.evaluate import HIGH_CATEGORIES, SEVEN_RANK_CATEGORIES, strength_ranks
from engine.hands.low_hands import LOW_NAMES  # by ace-to-five value: 1 the ace ... 13 the king
from engine.hands.strengths import ACE_TO_FIVE_CATEGORIES, category_of

# How many rank nibbles of a strength matter, per category.
_HIGH_RANKS_USED = (5, 4, 3, 3, 1, 5, 2, 2, 1)
_SEVEN_RANK_KICKER_RANKS_USED = (5, 4, 3, 3, 5, 2, 1, 1, 2)


def describe_high(strength: int, deck: Deck = STANDARD) -> str:
    """Category and deciding ranks of a standard strength (in any category order) of a deck's cards.

    >>> from engine.hands.cards import SHORT
    >>> describe_high((4 << 20) | (3 << 16), SHORT)  # A-6-7-8-9
    'straight, 9 high'
    """
    category = category_of(strength)
    ranks = [deck.ranks[r] for r in strength_ranks(strength)[: _HIGH_RANKS_USED[category]]]
    name = HIGH_CATEGORIES[category]
    if category in (4, 8):
        return f"{name}, {ranks[0]} high"
    if category == 6:
        return f"{name}, {ranks[0]}s full of {ranks[1]}s"
    return f"{name}, {' '.join(ranks)}"


def describe_seven_rank(strength: int, tiebreak: str = "highest_card", deck: Deck | None = None) -> str:
    """Category and deciding ranks of a ``seven-rank`` strength under a tiebreak rule, the ranks
    written as ``deck`` writes them (by default the ranking's own deck).

    >>> describe_seven_rank((6 << 20) | (6 << 16))
    'Stairs, top card K'
    """
    category = category_of(strength)
    ranks = [(deck or SEVEN_RANKS).ranks[r] for r in strength_ranks(strength)]
    name = SEVEN_RANK_CATEGORIES[category]
    if tiebreak == "highest_card" or category in (6, 7):
        return f"{name}, top card {ranks[0]}"
    return f"{name}, {' '.join(ranks[: _SEVEN_RANK_KICKER_RANKS_USED[category]])}"


def describe_ace_to_five(strength: int) -> str:
    """An ace-to-five low (``engine.hands.ace_to_five``): its category and five cards, highest first.

    >>> from engine.hands.ace_to_five import evaluate_ace_to_five
    >>> from engine.hands.cards import parse_card_rows
    >>> describe_ace_to_five(int(evaluate_ace_to_five(parse_card_rows(["As2d3c4h6sKdKc"]))[0]))
    'six low, 6-4-3-2-A'
    """
    ranks = "-".join(LOW_NAMES[13 - r] for r in strength_ranks(strength))  # r: 12 less the rank, ace 0
    return f"{ACE_TO_FIVE_CATEGORIES[category_of(strength)]}, {ranks}"


def describe(ranking, strength: int, tiebreak: str = "highest_card", deck: Deck | None = None) -> str:
    """Category and deciding ranks of a strength under a ranking of ``engine.hands.rankings``."""
    from engine.hands.rankings import ACE_TO_FIVE, SEVEN_RANK

    if ranking.code == SEVEN_RANK:
        return describe_seven_rank(strength, tiebreak, deck)
    if ranking.code == ACE_TO_FIVE:
        return describe_ace_to_five(strength)
    return describe_high(strength, deck or ranking.deck)
