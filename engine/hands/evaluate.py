"""Hand evaluators: batch functions over numpy arrays of card ids.

Each function takes an (N, k) integer array, one hand per row, padded with
``NO_CARD`` (-1), and returns an int64 array of N strengths: greater is
stronger, equal is a tie, and strengths of rows with different numbers of
cards compare directly. The work runs in compiled kernels (``engine.hands.kernels``);
a bad row (too few cards, a duplicate, an id outside the deck) raises
``ValueError`` naming the row.

>>> from engine.hands.cards import parse_card_rows
>>> s = evaluate_high(parse_card_rows(["AhKhQhJhTh2c3d", "2c2d2h3s3c"]))
>>> [HIGH_CATEGORIES[c] for c in high_category(s)]
['straight flush', 'full house']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Literal

import numpy as np

from engine.hands import kernels
from engine.hands.cards import NO_CARD, SEVEN_RANKS, STANDARD, Deck, format_cards
from engine.hands.strengths import (
    ACE_TO_FIVE,
    BADUGI,
    BADUGI_CATEGORIES,
    DEUCE_TO_SEVEN,
    DEUCE_TO_SEVEN_CATEGORIES,
    INVALID,
    SEVEN_RANK,
    SEVEN_RANK_TIEBREAKS,
    STANDARD_HIGH,
    category_of,
)
from engine.hands.strengths import (
    HIGH_CATEGORIES as HIGH_CATEGORIES,  # re-exported: the category names beside the evaluators
)
from engine.hands.strengths import (
    SEVEN_RANK_CATEGORIES as SEVEN_RANK_CATEGORIES,
)
from engine.hands.tables import DEUCE_TO_SEVEN_TABLES, SEVEN_RANK_TABLES, high_tables

Places = tuple[int, ...] | None  # each category's place in a game's own order (None: the usual one)

Tiebreak = Literal["highest_card", "kickers"]


def _as_rows(cards: np.ndarray, name: str, min_k: int, max_k: int) -> np.ndarray:
    array = np.asarray(cards)
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name}: expected an (N, k) integer array, got {array.dtype} {array.shape}")
    if not min_k <= array.shape[1] <= max_k:
        raise ValueError(f"{name}: rows hold {array.shape[1]} cards, expected {min_k} to {max_k}")
    if array.dtype != np.int8:  # one compiled specialization: card ids fit in int8
        if array.size and (array.max() > 127 or array.min() < -128):
            raise ValueError(f"{name}: card ids must be -1 (no card) or ids of the deck")
        array = array.astype(np.int8)
    return np.ascontiguousarray(array)


def _check(out: np.ndarray, rows: tuple[np.ndarray, ...], deck: Deck, name: str, need: str) -> None:
    bad = np.flatnonzero(out == INVALID)
    if bad.size:
        i = int(bad[0])
        shown = " ".join(_describe_row(row[i], deck) for row in rows)
        raise ValueError(
            f"{name}: row {i} ({shown}) is not a valid hand: {need}, "
            f"each a card of the {deck.name} deck, none twice"
        )


def _describe_row(row: np.ndarray, deck: Deck) -> str:
    try:
        return format_cards(row, deck) or "no cards"
    except ValueError:
        return str([int(c) for c in row if c != NO_CARD])


def evaluate_high(cards: np.ndarray, deck: Deck = STANDARD, places: Places = None) -> np.ndarray:
    """Strength of the best five-card standard poker hand in each row (5 to 11 cards).

    Ace plays high, and low below the deck's lowest rank (A-2-3-4-5; A-6-7-8-9 in the short
    deck). ``places`` puts the categories in a game's own order (``engine.hands.kernels.ordered_strength``).

    >>> from engine.hands.cards import SHORT, parse_card_rows
    >>> a, b = evaluate_high(parse_card_rows(["As2d3h4c5s9d", "6s2d3h4c5s"]))
    >>> bool(a < b)
    True
    >>> wheel = evaluate_high(parse_card_rows(["As6d7h8c9s"], SHORT), SHORT)
    >>> HIGH_CATEGORIES[int(high_category(wheel)[0])]
    'straight'
    """
    rows = _as_rows(cards, "evaluate_high", 5, 11)
    out = np.empty(rows.shape[0], dtype=np.int64)
    tables = high_tables(len(deck.ranks), places)
    kernels.evaluate_rows(rows, out, STANDARD_HIGH, False, tables, deck.size, 11)
    _check(out, (rows,), deck, "evaluate_high", "at least 5 cards")
    return out


def _hole_and_board_rows(hole: np.ndarray, board: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Checked rows of hole cards and of board cards, as many of each."""
    hole_rows = _as_rows(hole, f"{name} (hole)", 0, 11)
    board_rows = _as_rows(board, f"{name} (board)", 0, 11)
    if hole_rows.shape[0] != board_rows.shape[0]:
        raise ValueError(f"{name}: {hole_rows.shape[0]} hole rows but {board_rows.shape[0]} board rows")
    return hole_rows, board_rows


def evaluate_high_exactly_two(
    hole: np.ndarray, board: np.ndarray, deck: Deck = STANDARD, places: Places = None
) -> np.ndarray:
    """Best standard hand of each row made of exactly two hole cards and three board cards (Omaha).

    ``hole`` is (N, h) and ``board`` (N, b), both padded with -1. Every pair of hole cards
    with every three board cards is evaluated as five cards, and the best kept; a row with
    fewer than two hole cards or three board cards makes no hand (``INVALID``, an error).

    >>> from engine.hands.cards import parse_card_rows
    >>> hole, board = parse_card_rows(["Th9c8d7s"]), parse_card_rows(["AhKhQhJh2c"])
    >>> HIGH_CATEGORIES[int(high_category(evaluate_high_exactly_two(hole, board))[0])]
    'straight'
    """
    hole_rows, board_rows = _hole_and_board_rows(hole, board, "evaluate_high_exactly_two")
    best = _best_of_fives(hole_rows, board_rows, (2, 2), deck, places)
    _check(best, (hole_rows, board_rows), deck, "evaluate_high_exactly_two",
           "2 hole cards or more and 3 board cards or more")  # fmt: skip
    return best


def evaluate_high_hole_range(
    hole: np.ndarray, board: np.ndarray, uses: tuple[int, int], deck: Deck = STANDARD, places: Places = None
) -> np.ndarray:
    """Best standard hand of each row made of k hole cards and 5 - k board cards, k within ``uses``
    (fewest, most): Tahoe's ``at-most-2`` is (0, 2). The readable reference: every such choice of
    cards evaluated as five cards, the best kept; a row that can make none is ``INVALID`` (an error).

    >>> from engine.hands.cards import parse_card_rows
    >>> hole, board = parse_card_rows(["AsAhAd"]), parse_card_rows(["Ac2c3h7d9s"])
    >>> [HIGH_CATEGORIES[int(high_category(evaluate_high_hole_range(hole, board, uses))[0])]
    ...  for uses in ((0, 2), (0, 3))]
    ['three of a kind', 'four of a kind']
    """
    hole_rows, board_rows = _hole_and_board_rows(hole, board, "evaluate_high_hole_range")
    best = _best_of_fives(hole_rows, board_rows, uses, deck, places)
    _check(best, (hole_rows, board_rows), deck, "evaluate_high_hole_range",
           f"from {uses[0]} to {uses[1]} hole cards and the rest of five from the board")  # fmt: skip
    return best


def _best_of_fives(hole_rows: np.ndarray, board_rows: np.ndarray, uses: tuple[int, int], deck: Deck,
                   places: Places) -> np.ndarray:  # fmt: skip
    """Each row's best five of k hole cards and 5 - k board cards, k within ``uses`` (``INVALID``: none)."""
    best = np.full(hole_rows.shape[0], INVALID, dtype=np.int64)
    for k in range(uses[0], uses[1] + 1):
        for held in itertools.combinations(range(hole_rows.shape[1]), k):
            for shown in itertools.combinations(range(board_rows.shape[1]), 5 - k):
                five = np.concatenate([hole_rows[:, list(held)], board_rows[:, list(shown)]], axis=1)
                complete = (five >= 0).all(axis=1)
                if complete.any():
                    strengths = evaluate_high(five[complete], deck, places)
                    best[complete] = np.maximum(best[complete], strengths)
    return best


def evaluate_high_using_hole(
    hole: np.ndarray, board: np.ndarray, deck: Deck = STANDARD, places: Places = None
) -> np.ndarray:
    """Best standard hand of each row that uses at least one hole card.

    This is Scarney's ``must_use_hole_card`` option: ``hole`` is (N, h) and
    ``board`` (N, b), both padded with -1; a row needs at least one hole card
    and at least five cards in the hole cards plus four board cards.

    >>> from engine.hands.cards import parse_card_rows
    >>> hole, board = parse_card_rows(["2c"]), parse_card_rows(["AhKhQhJhTh"])
    >>> HIGH_CATEGORIES[int(high_category(evaluate_high_using_hole(hole, board))[0])]
    'high card'
    """
    hole_rows, board_rows = _hole_and_board_rows(hole, board, "evaluate_high_using_hole")
    out = np.empty(hole_rows.shape[0], dtype=np.int64)
    tables = high_tables(len(deck.ranks), places)
    kernels.evaluate_high_hole_rows(hole_rows, board_rows, out, STANDARD_HIGH, tables, deck.size)
    _check(
        out,
        (hole_rows, board_rows),
        deck,
        "evaluate_high_using_hole",
        "at least 1 hole card and 5 cards with at most 4 from the board",
    )
    return out


def high_category(strength: np.ndarray | int) -> np.ndarray:
    """Category 0..8 of standard strengths (see ``HIGH_CATEGORIES``), in any category order.

    >>> int(high_category(evaluate_high(np.array([[0, 4, 8, 12, 21]]))[0]))
    0
    """
    return category_of(np.asarray(strength))


def evaluate_seven_rank(
    cards: np.ndarray, tiebreak: Tiebreak = "highest_card", deck: Deck | None = None
) -> np.ndarray:
    """Strength of the best five-card hand of the ``seven-rank`` ranking (28 cards, seven ranks: the
    game's ``deck``, by default the ranking's own) in each row (5 to 7 cards).

    ``tiebreak`` is the rule option of RULINGS.md: ``highest_card`` (only the
    top card of the five-card hand breaks a tie within a category) or
    ``kickers`` (the category cards, then the remaining cards, high to low).

    >>> from engine.hands.cards import parse_card_rows
    >>> latin = Deck("Latin", "123456K", "bcos", ("Batons", "Cups", "Coins", "Swords"))
    >>> s = evaluate_seven_rank(parse_card_rows(["KbKcKoKs1b", "1b2c3o4s5b"], latin))
    >>> [SEVEN_RANK_CATEGORIES[c] for c in seven_rank_category(s)]
    ['Four Kings', 'Stairs']
    """
    if tiebreak not in SEVEN_RANK_TIEBREAKS:
        expected = ", ".join(SEVEN_RANK_TIEBREAKS)
        raise ValueError(f"unknown seven-rank tiebreak {tiebreak!r}; expected one of {expected}")
    deck = deck or SEVEN_RANKS
    rows = _as_rows(cards, "evaluate_seven_rank", 5, 7)
    out = np.empty(rows.shape[0], dtype=np.int64)
    kernels.evaluate_rows(rows, out, SEVEN_RANK, tiebreak == "kickers", SEVEN_RANK_TABLES, deck.size, 7)
    _check(out, (rows,), deck, "evaluate_seven_rank", "5 to 7 cards")
    return out


def seven_rank_category(strength: np.ndarray | int) -> np.ndarray:
    """Category 0..8 of seven-rank strengths (see ``SEVEN_RANK_CATEGORIES``)."""
    return category_of(np.asarray(strength))


def low_points(cards: np.ndarray, points: Sequence[int]) -> np.ndarray:
    """Low points of each row under ``points`` (the points of each rank, lowest rank first, as a
    game's lowest-points share states them in its description); padding ignored.

    >>> from engine.hands.cards import parse_card_rows
    >>> face = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)  # A = 1, 2-9 face value, T/J/Q/K = 10
    >>> low_points(parse_card_rows(["AcKd5h", "2c"]), face).tolist()
    [16, 2]
    """
    rows = _as_rows(cards, "low_points", 0, 52)
    per_rank = np.asarray(points, dtype=np.int64)
    out = np.empty(rows.shape[0], dtype=np.int64)
    kernels.low_points_rows(rows, per_rank, out)
    bad = np.flatnonzero(out == INVALID)
    if bad.size:
        raise ValueError(f"low_points: row {int(bad[0])} holds an id that is not a card of the "
                         f"{len(per_rank)} ranks the points are given for")  # fmt: skip
    return out


def strength_ranks(strength: int) -> list[int]:
    """The five rank nibbles of a strength, most significant first.

    >>> strength_ranks((1 << 20) | (12 << 16) | (11 << 12))
    [12, 11, 0, 0, 0]
    """
    return [(int(strength) >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]


def count_categories(ranking: str, k: int, tiebreak: Tiebreak = "highest_card") -> np.ndarray:
    """Exact number of k-card sets of a ranking's own deck in each category (exhaustive), for
    ``standard-high`` (52 cards) or ``seven-rank`` (28).

    >>> count_categories("seven-rank", 5)[8]  # the four Kings and any fifth card
    np.int64(24)
    """
    codes = {"standard-high": STANDARD_HIGH, "seven-rank": SEVEN_RANK}
    if ranking not in codes:
        expected = " or ".join(codes)
        raise ValueError(f"count_categories: unknown ranking {ranking!r}; expected {expected}")
    return count_ranking_categories(codes[ranking], k, tiebreak)


def count_ranking_categories(
    ranking_code: int,
    k: int,
    tiebreak: Tiebreak = "highest_card",
    deck: Deck | None = None,
    places: Places = None,
) -> np.ndarray:
    """Exact category counts of every k-card set of a deck under a ranking of ``engine.hands.rankings``, by
    its code (0 standard-high, 52 cards unless ``deck`` says otherwise, in the order ``places``;
    1 seven-rank over 28; 2 ace-to-five-low, 3 deuce-to-seven-low and 4 badugi over 52).

    >>> from engine.hands.cards import SHORT
    >>> int(count_ranking_categories(0, 5, deck=SHORT)[4])  # the short deck's straights: 6 x (4**5 - 4)
    6120
    """
    if ranking_code == ACE_TO_FIVE:
        from engine.hands.ace_to_five import category_counts

        return np.array(category_counts(k), np.int64)
    if ranking_code in (DEUCE_TO_SEVEN, BADUGI):
        low, high = (5, 7) if ranking_code == DEUCE_TO_SEVEN else (1, 8)
        if not low <= k <= high:
            raise ValueError(f"count_categories: k={k} is outside the ranking's {low} to {high} cards")
        names = DEUCE_TO_SEVEN_CATEGORIES if ranking_code == DEUCE_TO_SEVEN else BADUGI_CATEGORIES
        counts = kernels.count_categories(52, k, ranking_code, False, DEUCE_TO_SEVEN_TABLES)
        return counts[: len(names)]
    seven_rank = ranking_code == SEVEN_RANK
    if tiebreak not in SEVEN_RANK_TIEBREAKS:
        raise ValueError(f"count_categories: unknown tiebreak {tiebreak!r}")
    deck = deck or (SEVEN_RANKS if seven_rank else STANDARD)
    if not 5 <= k <= (7 if seven_rank else 11):
        raise ValueError(
            f"count_categories: k={k} is outside the evaluator's range for the {deck.size}-card deck"
        )
    if seven_rank:
        code, tables = SEVEN_RANK, SEVEN_RANK_TABLES
    else:
        code, tables = STANDARD_HIGH, high_tables(len(deck.ranks), places)
    return kernels.count_categories(deck.size, k, code, tiebreak == "kickers", tables)[:9]
