"""Hand rankings a description can name: the decks they rank, their categories, their evaluator.

A ranking turns hole cards plus board cards into a strength (greater is stronger, equal
ties). ``standard-high`` is five-card poker high over the standard deck or the short one
(ace high, and low below the deck's lowest rank: A-2-3-4-5, A-6-7-8-9), in its usual category
order or in a game's own (``category_order``, checked by ``check_category_order``);
``seven-rank`` ranks any deck of seven ranks and four suits, 28 cards (Four Kings, Perfect,
Stairs, Fourfold, Disparate, Threefold, Twins, Eyes, Orphan: its top rank is the King), with a
``tiebreak``; Skœjarth's description names its own deck of them.

>>> r = RANKINGS["standard-high"]
>>> r.categories[-1], r.deck.size, [d.size for d in r.decks]
('straight flush', 52, [52, 36])
>>> from engine.hands.cards import parse_card_rows
>>> hole, board = parse_card_rows(["2c3d"]), parse_card_rows(["AhKhQhJhTh"])
>>> r.category_name(int(r.evaluate(hole, board, "any", "highest_card")[0]))
'straight flush'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.hands.cards import SEVEN_RANKS, SHORT, STANDARD, Deck
from engine.hands.strengths import (
    ACE_TO_FIVE,
    ACE_TO_FIVE_CATEGORIES,
    BADUGI,
    BADUGI_CATEGORIES,
    CATEGORY_MASK,
    CATEGORY_SHIFT,
    DEUCE_TO_SEVEN,
    DEUCE_TO_SEVEN_CATEGORIES,
    HIGH_CATEGORIES,
    PLACE_SHIFT,
    SEVEN_RANK,
    SEVEN_RANK_CATEGORIES,
    SEVEN_RANK_TIEBREAKS,
    STANDARD_HIGH,
)
from engine.hands.tables import DEUCE_TO_SEVEN_TABLES, SEVEN_RANK_TABLES, high_tables, low_order

__all__ = [
    "RANKINGS", "SEVEN_RANK", "STANDARD_HIGH", "Ranking", "categories_in_order",
    "check_category_order",
]  # fmt: skip


HAND_CARDS = 5  # cards of a poker hand (the hole-card rules count among them)


def hole_range(use: str) -> tuple[int, int]:
    """The fewest and most hole cards a five-card hand may use under a ``hole_use`` value: ``any``,
    ``at-least-N``, ``at-most-N`` or ``exactly-N`` (ValueError for anything else).

    >>> hole_range("any"), hole_range("exactly-2"), hole_range("at-most-2"), hole_range("at-least-1")
    ((0, 5), (2, 2), (0, 2), (1, 5))
    """
    if use == "any":
        return 0, HAND_CARDS
    kind, _, count = str(use).rpartition("-")
    if count.isdigit() and int(count) <= HAND_CARDS:
        n = int(count)
        ranges = {"at-least": (n, HAND_CARDS), "at-most": (0, n), "exactly": (n, n)}
        if kind in ranges:
            return ranges[kind]
    raise ValueError(f"hole_use {use!r} is not any, at-least-N, at-most-N or exactly-N (N from 0 to 5)")


HOLE_USE_RANGES = ("any", *(f"{kind}-{n}" for kind in ("at-least", "at-most", "exactly") for n in range(6)))


@dataclass(frozen=True)
class Ranking:
    """A hand ranking: its decks (the first its own), category names weakest first, hole-card uses,
    tiebreaks, and whether a game may put its categories in an order of its own."""

    name: str
    code: int
    decks: tuple[Deck, ...]
    categories: tuple[str, ...]
    hole_uses: tuple[str, ...]
    tiebreaks: tuple[str, ...]
    max_cards: int  # most cards one evaluation takes
    orderable: bool = False
    compiled: bool = True  # the compiled core (simulation, compiled replay) plays it
    lowball: bool = False  # the lowest cards make the best hands (the policies' scores assume high)
    min_cards: int = 5  # fewest cards one evaluation takes (a hand is this many cards at least)

    @property
    def deck(self) -> Deck:
        """The deck the ranking was made for."""
        return self.decks[0]

    def ranks_deck(self, deck: Deck) -> bool:
        """Whether the ranking ranks ``deck``: one of its decks by ranks and suits, or for
        ``standard-high`` any four-suit deck of the standard ranks from some rank up to the ace
        (Royal hold'em's ``TJQKA``, Manila's ``789TJQKA``: the ace also plays below the lowest).

        >>> high = RANKINGS["standard-high"]
        >>> royal, low = Deck("royal", "TJQKA", "cdhs", ()), Deck("x", "2345", "cdhs", ())
        >>> high.ranks_deck(royal), high.ranks_deck(low)
        (True, False)
        """
        if any((d.ranks, d.suits) == (deck.ranks, deck.suits) for d in self.decks):
            return True
        if self.code == SEVEN_RANK:  # any seven ranks of four suits: the ranking reads rank places
            return len(deck.ranks) == len(SEVEN_RANKS.ranks) and len(deck.suits) == 4
        tail = STANDARD.ranks.endswith(deck.ranks) and len(deck.ranks) >= 5
        return self.code == STANDARD_HIGH and tail and len(deck.suits) == 4

    @property
    def decks_ranked(self) -> str:
        """The decks the ranking ranks, in words."""
        if self.code == SEVEN_RANK:
            return "a deck of seven ranks and four suits"
        named = " or ".join(f"the {d.size}-card deck" for d in self.decks)
        return named + (
            " or four suits of ranks from some rank up to A" if self.code == STANDARD_HIGH else ""
        )

    def least_strength(self, category: str, rank: str, deck: Deck, places: tuple[int, ...] | None = None
                       ) -> int:  # fmt: skip
        """The strength below every hand of ``category`` whose deciding rank (a pair's, trips', a
        straight's top card...) is ``rank`` or higher, and above every weaker hand: a qualifier.

        >>> from engine.hands.cards import parse_card_rows
        >>> high = RANKINGS["standard-high"]
        >>> nines = high.least_strength("pair", "9", STANDARD)
        >>> hands = parse_card_rows(["9c9d", "8c8d", "AcKd"])
        >>> (high.evaluate(hands, parse_card_rows(["2h3s4c"] * 3), "any", "kickers") >= nines).tolist()
        [True, False, False]
        """
        code = self.categories.index(category)
        counted = (code << CATEGORY_SHIFT) | (deck.ranks.index(rank) << 16)
        return counted if places is None else (places[code] << PLACE_SHIFT) | counted

    def category_name(self, strength: int) -> str:
        """The category of a strength (in any category order)."""
        return self.categories[(int(strength) >> CATEGORY_SHIFT) & CATEGORY_MASK]

    def tables(self, deck: Deck, places: tuple[int, ...] | None = None) -> tuple:
        """The kernels' tables for this ranking over ``deck`` under a category order (None: its own)."""
        if self.code == ACE_TO_FIVE:
            return (low_order(),)
        if self.code in (DEUCE_TO_SEVEN, BADUGI):
            return DEUCE_TO_SEVEN_TABLES  # (badugi's kernel reads none)
        return SEVEN_RANK_TABLES if self.code == SEVEN_RANK else high_tables(len(deck.ranks), places)

    def evaluate(self, hole: np.ndarray, board: np.ndarray, hole_use: str, tiebreak: str,
                 deck: Deck | None = None, places: tuple[int, ...] | None = None) -> np.ndarray:  # fmt: skip
        """Strengths of rows of hole cards with rows of board cards (both padded with -1)."""
        from engine.hands.evaluate import (  # compiled: loaded when a hand is evaluated, not with a game
            evaluate_high,
            evaluate_high_exactly_two,
            evaluate_high_hole_range,
            evaluate_high_using_hole,
            evaluate_seven_rank,
        )

        deck = deck or self.deck
        if self.code == ACE_TO_FIVE:
            from engine.hands.ace_to_five import evaluate_ace_to_five

            return evaluate_ace_to_five(np.concatenate([hole, board], axis=1))
        if self.code in (DEUCE_TO_SEVEN, BADUGI):  # the readable references (few rows: the showdowns)
            from engine.hands.draw_lows import evaluate_draw_low

            return evaluate_draw_low(self.code, np.concatenate([hole, board], axis=1), self.min_cards,
                                     self.max_cards)  # fmt: skip
        if hole_use == "at-least-1":
            return evaluate_high_using_hole(hole, board, deck, places)
        if hole_use == "exactly-2":
            return evaluate_high_exactly_two(hole, board, deck, places)
        if hole_use != "any":
            return evaluate_high_hole_range(hole, board, hole_range(hole_use), deck, places)
        rows = np.concatenate([hole, board], axis=1)
        if self.code == SEVEN_RANK:
            return evaluate_seven_rank(rows, tiebreak, deck)  # type: ignore[arg-type]
        return evaluate_high(rows, deck, places)


def categories_in_order(places: tuple[int, ...] | None, n_categories: int = 9) -> list[int]:
    """The category codes weakest first under an order (None: the ranking's own).

    >>> categories_in_order((0, 1, 2, 4, 3, 6, 5, 7, 8))
    [0, 1, 2, 4, 3, 6, 5, 7, 8]
    """
    if places is None:
        return list(range(n_categories))
    return sorted(range(n_categories), key=lambda code: places[code])


def check_category_order(ranking: Ranking, names: list[str]) -> tuple[tuple[int, ...] | None, str | None]:
    """Each category's place in an order written weakest first, or the problem with the order.

    The order must name every category once, keep the straight flush the strongest and high
    card the weakest, and keep the categories made of rank counts alone in their usual order
    (high card, pair, two pair, three of a kind, full house, four of a kind); straight and flush
    may go anywhere between.
    The places are None when the order is the usual one.

    >>> high = RANKINGS["standard-high"]
    >>> order = list(high.categories)
    >>> order[3], order[4] = order[4], order[3]  # three of a kind above a straight
    >>> check_category_order(high, order)
    ((0, 1, 2, 4, 3, 5, 6, 7, 8), None)
    >>> check_category_order(high, list(reversed(high.categories)))[1]
    'category_order must keep the straight flush the strongest and high card the weakest'
    """
    if not ranking.orderable:
        return None, f"the {ranking.name} ranking keeps its own category order"
    if sorted(names) != sorted(ranking.categories):
        return None, f"category_order must name each of {', '.join(ranking.categories)} once"
    if names[-1] != "straight flush" or names[0] != "high card":
        return None, "category_order must keep the straight flush the strongest and high card the weakest"
    counted = [n for n in names if n not in ("straight", "flush", "straight flush")]
    usual = [n for n in ranking.categories if n not in ("straight", "flush", "straight flush")]
    if counted != usual:
        return None, "category_order must keep " + " < ".join(usual) + " in that order"
    places = tuple(names.index(name) for name in ranking.categories)
    return (None if places == tuple(range(len(names))) else places), None


RANKINGS: dict[str, Ranking] = {
    "standard-high": Ranking(
        "standard-high",
        STANDARD_HIGH,
        (STANDARD, SHORT),
        HIGH_CATEGORIES,
        HOLE_USE_RANGES,
        ("kickers",),  # every card of the five decides, high to low
        11,
        orderable=True,
    ),
    "seven-rank": Ranking(
        "seven-rank", SEVEN_RANK, (SEVEN_RANKS,), SEVEN_RANK_CATEGORIES, ("any",), SEVEN_RANK_TIEBREAKS, 7
    ),
    "ace-to-five-low": Ranking(  # razz: engine.hands.ace_to_five
        "ace-to-five-low",
        ACE_TO_FIVE,
        (STANDARD,),
        ACE_TO_FIVE_CATEGORIES,
        ("any",),
        ("kickers",),
        8,
        lowball=True,
    ),
    "deuce-to-seven-low": Ranking(  # the draw games' low: engine.hands.draw_lows
        "deuce-to-seven-low",
        DEUCE_TO_SEVEN,
        (STANDARD,),
        DEUCE_TO_SEVEN_CATEGORIES,
        ("any",),
        ("kickers",),
        7,
        lowball=True,
    ),
    "badugi": Ranking(
        "badugi", BADUGI, (STANDARD,), BADUGI_CATEGORIES, ("any",), ("kickers",), 8, lowball=True, min_cards=4
    ),
}
