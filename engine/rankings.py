"""Hand rankings a description can name: the deck they rank, their categories, their evaluator.

A ranking turns hole cards plus board cards into a strength (greater is stronger, equal
ties). ``standard-high`` is five-card poker high (ace high, and low in A-2-3-4-5);
``seven-rank`` ranks the 28-card deck of seven ranks (Four Kings, Perfect, Stairs,
Fourfold, Disparate, Threefold, Twins, Eyes, Orphan), with a ``tiebreak``.

>>> r = RANKINGS["standard-high"]
>>> r.categories[-1], r.deck.size
('straight flush', 52)
>>> from engine.cards import parse_card_rows
>>> hole, board = parse_card_rows(["2c3d"]), parse_card_rows(["AhKhQhJhTh"])
>>> r.category_name(int(r.evaluate(hole, board, "any", "highest_card")[0]))
'straight flush'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.cards import SKOEJARTH, STANDARD, Deck
from engine.evaluate import (
    HIGH_CATEGORIES,
    SKOEJARTH_CATEGORIES,
    SKOEJARTH_TIEBREAKS,
    evaluate_high,
    evaluate_high_exactly_two,
    evaluate_high_using_hole,
    evaluate_skoejarth,
)
from engine.kernels import CATEGORY_SHIFT

STANDARD_HIGH, SEVEN_RANK = 0, 1  # ranking codes of the compiled core


@dataclass(frozen=True)
class Ranking:
    """A hand ranking: its deck, category names weakest first, hole-card uses, tiebreaks."""

    name: str
    code: int
    deck: Deck
    categories: tuple[str, ...]
    hole_uses: tuple[str, ...]
    tiebreaks: tuple[str, ...]
    max_cards: int  # most cards one evaluation takes

    def category_name(self, strength: int) -> str:
        """The category of a strength."""
        return self.categories[int(strength) >> CATEGORY_SHIFT]

    def evaluate(self, hole: np.ndarray, board: np.ndarray, hole_use: str, tiebreak: str) -> np.ndarray:
        """Strengths of rows of hole cards with rows of board cards (both padded with -1)."""
        if hole_use == "at-least-1":
            return evaluate_high_using_hole(hole, board)
        if hole_use == "exactly-2":
            return evaluate_high_exactly_two(hole, board)
        rows = np.concatenate([hole, board], axis=1)
        if self.code == SEVEN_RANK:
            return evaluate_skoejarth(rows, tiebreak)  # type: ignore[arg-type]
        return evaluate_high(rows)


RANKINGS: dict[str, Ranking] = {
    "standard-high": Ranking(
        "standard-high",
        STANDARD_HIGH,
        STANDARD,
        HIGH_CATEGORIES,
        ("any", "at-least-1", "exactly-2"),
        ("kickers",),  # every card of the five decides, high to low
        11,
    ),
    "seven-rank": Ranking(
        "seven-rank", SEVEN_RANK, SKOEJARTH, SKOEJARTH_CATEGORIES, ("any",), SKOEJARTH_TIEBREAKS, 7
    ),
}
