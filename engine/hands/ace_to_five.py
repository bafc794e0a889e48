"""The ace-to-five low as a game's own ranking (razz): the lowest five cards win, aces low,
straights and flushes ignored, pairs bad; no qualifier.

A strength is greater for a better low, as for every ranking (``engine.hands.strengths``): its
category (``ACE_TO_FIVE_CATEGORIES``: four of a kind, the worst, up to five low, the wheel) then
its five ranks, the larger groups first and higher ranks first, each stored as 12 less its
ace-to-five rank (ace 0, deuce 1, ... king 12) so that lower cards weigh more. The best five of
more cards come straight from the rank counts: the five lowest ranks if there are five, else the
fewest and lowest pairs.

>>> from engine.hands.cards import parse_card_rows
>>> from engine.hands.strengths import ACE_TO_FIVE_CATEGORIES, category_of
>>> s = evaluate_ace_to_five(parse_card_rows(["As2d3c4h5sKdKc", "8c8d2h3s4c"]))
>>> [ACE_TO_FIVE_CATEGORIES[category_of(int(x))] for x in s]
['five low', 'one pair']
>>> bool(s[0] > s[1])
True
"""

from __future__ import annotations

from functools import cache
from math import comb, prod

import numpy as np
from numba import njit

from engine.hands.kernels import row_key
from engine.hands.strengths import ACE_TO_FIVE_CATEGORIES, CATEGORY_SHIFT, INVALID

N_RANKS = 13
QUADS, FULL_HOUSE, TRIPS, TWO_PAIR, ONE_PAIR, KING_LOW = range(6)  # categories, worst first


@njit(cache=True, inline="always")
def _packed(category: int, ranks) -> int:
    strength = category << CATEGORY_SHIFT
    for i in range(5):
        strength |= (12 - ranks[i]) << (16 - 4 * i)
    return strength


@njit(cache=True)
def strength_of_counts(counts: np.ndarray) -> int:
    """The best ace-to-five low of cards with these counts per rank (ace first); INVALID below five."""
    ranks = np.zeros(5, np.int64)
    distinct = np.flatnonzero(counts > 0)
    if counts.sum() < 5:
        return INVALID
    if len(distinct) >= 5:
        for i in range(5):
            ranks[i] = distinct[4 - i]
        return _packed(KING_LOW + 12 - ranks[0], ranks)
    paired = distinct[counts[distinct] >= 2]
    if len(distinct) == 4:  # one pair: the lowest that pairs, with the three other ranks
        pair = paired[0]
        ranks[0] = ranks[1] = pair
        kickers = distinct[distinct != pair]
        ranks[2], ranks[3], ranks[4] = kickers[2], kickers[1], kickers[0]
        return _packed(ONE_PAIR, ranks)
    if len(distinct) == 3:
        if len(paired) >= 2:  # two pair: the two lowest pairs, then the third rank
            low, high = paired[0], paired[1]
            kicker = distinct[(distinct != low) & (distinct != high)][0]
            ranks[0], ranks[1], ranks[2], ranks[3], ranks[4] = high, high, low, low, kicker
            return _packed(TWO_PAIR, ranks)
        trips = distinct[counts[distinct] >= 3][0]
        kickers = distinct[distinct != trips]
        ranks[0], ranks[1], ranks[2], ranks[3], ranks[4] = trips, trips, trips, kickers[1], kickers[0]
        return _packed(TRIPS, ranks)
    low, high = distinct[0], distinct[1]  # two ranks: a full house (the lower trips) if one can be made
    if (counts[low] >= 3 and counts[high] >= 2) or (counts[high] >= 3 and counts[low] >= 2):
        trips = low if counts[low] >= 3 and counts[high] >= 2 else high
        pair = high if trips == low else low
        ranks[0], ranks[1], ranks[2], ranks[3], ranks[4] = trips, trips, trips, pair, pair
        return _packed(FULL_HOUSE, ranks)
    quads = low if counts[low] == 4 else high
    ranks[0] = ranks[1] = ranks[2] = ranks[3] = quads
    ranks[4] = high if quads == low else low
    return _packed(QUADS, ranks)


@njit(cache=True)
def _evaluate_rows(rows: np.ndarray, out: np.ndarray) -> None:
    counts = np.zeros(N_RANKS, np.int64)
    for i in range(rows.shape[0]):
        key, _ = row_key(rows, i, 52)
        if key == INVALID:
            out[i] = INVALID
            continue
        for rank in range(N_RANKS):  # the ace (the deck's rank 12) first
            suits = (key >> ((rank + 12) % N_RANKS)) & 0x0001000100010001  # its bit in each suit's 16
            counts[rank] = (suits & 1) + ((suits >> 16) & 1) + ((suits >> 32) & 1) + ((suits >> 48) & 1)
        out[i] = strength_of_counts(counts)


def evaluate_ace_to_five(rows: np.ndarray) -> np.ndarray:
    """Strengths of rows of standard-deck cards (padded with -1); a row of fewer than five cards,
    a duplicate or an id outside the deck raises ``ValueError`` naming the row."""
    rows = np.ascontiguousarray(np.atleast_2d(rows), dtype=np.int8)
    out = np.zeros(rows.shape[0], np.int64)
    _evaluate_rows(rows, out)
    bad = np.flatnonzero(out == INVALID)
    if len(bad):
        raise ValueError(f"row {int(bad[0])}: an ace-to-five low needs five to eight different cards")
    return out


@cache
def category_counts(k: int) -> tuple[int, ...]:
    """Exact number of k-card sets of the 52 cards whose best ace-to-five low is in each category
    (worst first), from every way of drawing k cards by rank (each rank's count times its suits).

    >>> category_counts(5)[-1]  # the wheel: A-2-3-4-5 in any suits
    1024
    """
    if not 5 <= k <= 8:
        raise ValueError(f"an ace-to-five low is counted over 5 to 8 cards, not {k}")
    totals = [0] * len(ACE_TO_FIVE_CATEGORIES)
    for counts in rank_patterns(k, 0):
        ways = prod(comb(4, c) for c in counts)
        strength = strength_of_counts(np.array(counts, np.int64))
        totals[(strength >> CATEGORY_SHIFT) & 0xF] += ways
    return tuple(totals)


def rank_patterns(left: int, rank: int) -> list[tuple[int, ...]]:
    """Every way to take ``left`` cards from ranks ``rank`` to 12, at most four of each."""
    if rank == N_RANKS:
        return [()] if left == 0 else []
    return [(c, *rest) for c in range(min(4, left) + 1) for rest in rank_patterns(left - c, rank + 1)]
