"""The draw games' rankings, written to be read: deuce-to-seven low and badugi (RULINGS, "Draw").

These are the references the state machine settles hands with; ``engine.hands.draw_kernels``
computes the same strengths from card keys for the compiled core, and the tests hold the two
equal. A strength is greater for a better hand, as for every ranking (``engine.hands.strengths``).

**Deuce-to-seven**: the lowest five cards win, aces high only (A-2-3-4-5 is ace high, no
straight), straights and flushes count against the hand. Its strength is the five cards' standard
high hand turned over: the category (``DEUCE_TO_SEVEN_CATEGORIES``, straight flush the worst, then
no pair by its top card up to seven low) above the standard packing of the deciding ranks, each
nibble taken from 15 so that lower cards weigh more. Of more than five cards, the best five.

**Badugi**: the most cards of different ranks and different suits, then the lowest, aces low,
the highest card first. Its category is the number of such cards (one to three), or for four
the top card (``BADUGI_CATEGORIES``: king badugi the worst, four badugi, A-2-3-4, the best);
below it the ranks, highest first, each stored as 12 less its aces-low rank.

>>> from engine.hands.cards import card_list
>>> from engine.hands.strengths import DEUCE_TO_SEVEN_CATEGORIES as LOW, BADUGI_CATEGORIES as BADUGI
>>> LOW[deuce_to_seven(card_list("7c5d4h3s2c")) >> 20], LOW[deuce_to_seven(card_list("As2d3c4h5s")) >> 20]
('seven low', 'ace low')
>>> deuce_to_seven(card_list("7c5d4h3s2c")) > deuce_to_seven(card_list("8c5d4h3s2c"))
True
>>> BADUGI[badugi(card_list("As2d3c4h")) >> 20], BADUGI[badugi(card_list("As2s3c4h")) >> 20]
('four badugi', 'three cards')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from engine.hands.strengths import BADUGI, CATEGORY_SHIFT, INVALID

STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, ONE_PAIR, ACE_LOW = range(9)
FOUR_CARDS = 3  # the first badugi category of four cards (king badugi)


def _nibbles(ranks: Sequence[int]) -> int:
    """Ranks packed as nibbles from bit 16 down, the first most significant."""
    return sum(rank << (16 - 4 * i) for i, rank in enumerate(ranks))


def _high_hand(cards: Sequence[int]) -> tuple[int, list[int]]:
    """Five cards' standard high category (0 high card ... 8 straight flush, no wheel) and the ranks
    that decide it, as the standard packing lists them (deuce 0, ace 12)."""
    ranks = sorted((card >> 2 for card in cards), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    flush = len({card & 3 for card in cards}) == 1
    straight = len(counts) == 5 and ranks[0] - ranks[4] == 4
    shape = sorted(counts.values(), reverse=True)
    if straight and flush:
        return 8, [ranks[0]]
    if shape[0] == 4:
        return 7, by_count
    if shape[:2] == [3, 2]:
        return 6, by_count
    if flush:
        return 5, ranks
    if straight:
        return 4, [ranks[0]]
    if shape[0] == 3:
        return 3, by_count
    if shape[:2] == [2, 2]:
        return 2, by_count
    if shape[0] == 2:
        return 1, by_count
    return 0, ranks


def _five_card_low(cards: Sequence[int]) -> int:
    category, ranks = _high_hand(cards)
    if category == 0:  # no pair: the lower its top card, the better (seven low the best)
        low_category = ACE_LOW + 12 - ranks[0]
    else:
        low_category = ONE_PAIR - (category - 1)
    return (low_category << CATEGORY_SHIFT) | (0xFFFFF - _nibbles(ranks))


def deuce_to_seven(cards: Sequence[int]) -> int:
    """The deuce-to-seven low of the best five of ``cards`` (5 to 7); INVALID for fewer than five."""
    cards = [int(card) for card in cards]
    if len(cards) < 5:
        return INVALID
    return max(_five_card_low(five) for five in combinations(cards, 5))


def _aces_low(card: int) -> int:
    return ((card >> 2) + 1) % 13  # ace 0, deuce 1, ... king 12


def badugi(cards: Sequence[int]) -> int:
    """The badugi of ``cards`` (1 to 8; four in the game); INVALID for none."""
    cards = [int(card) for card in cards]
    best = INVALID
    for size in range(min(4, len(cards)), 0, -1):
        for subset in combinations(cards, size):
            best = max(best, badugi_value(subset))
        if best != INVALID:
            return best
    return best


def badugi_value(cards: Sequence[int]) -> int:
    """The strength of cards as one badugi hand: INVALID unless their ranks and suits all differ."""
    ranks = sorted((_aces_low(card) for card in cards), reverse=True)
    size = len(ranks)
    if not 0 < size <= 4 or len(set(ranks)) < size or len({card & 3 for card in cards}) < size:
        return INVALID
    category = size - 1 if size < 4 else FOUR_CARDS + 12 - ranks[0]
    return (category << CATEGORY_SHIFT) | _nibbles([12 - rank for rank in ranks])


def evaluate_draw_low(code: int, rows: np.ndarray, min_cards: int, max_cards: int) -> np.ndarray:
    """Strengths of rows of standard-deck cards (padded with -1) by the reference of a ranking code
    (``engine.hands.strengths``: deuce-to-seven or badugi); a row of too few or too many cards, a
    duplicate or an id outside the deck raises ``ValueError`` naming the row."""
    rows = np.atleast_2d(np.asarray(rows))
    rank = badugi if code == BADUGI else deuce_to_seven
    out = np.zeros(rows.shape[0], np.int64)
    for i, row in enumerate(rows.tolist()):
        cards = [card for card in row if card != -1]
        if (
            not min_cards <= len(cards) <= max_cards
            or len(set(cards)) < len(cards)
            or not all(0 <= card < 52 for card in cards)
        ):
            raise ValueError(f"row {i}: {min_cards} to {max_cards} different cards of the 52 are needed")
        out[i] = rank(cards)
    return out
