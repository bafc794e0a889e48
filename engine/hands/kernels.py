"""Compiled (numba) hand-evaluation kernels.

Every kernel works on a *card key*: a 64-bit integer with one bit per card,
bit ``16 * suit + rank`` (suit = id & 3, rank = id >> 2), so each 16-bit slot is
the rank mask of one suit. Keys make duplicates visible (a bit set twice is
set once) and make every evaluation a handful of table look-ups and bit
operations, whatever the number of cards.

Strengths pack a category and up to five ranks as nibbles:
``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`` (ranks are indices of the
deck's ranks). Under a category order of a game's own (``ordered_strength``) the category's
place in that order sits above, ``place << 24``, so the category is always
``(strength >> 20) & 15``. Greater is stronger; equal is a tie. ``INVALID`` (-1) marks a row that could not
be evaluated (too few cards, a duplicate, an id outside the deck).

The public, validated API is ``engine.hands.evaluate``; the ``*_strength`` functions
here are also meant to be called from other compiled code (simulation).

Tables (``engine.hands.tables``) are passed in as arguments, never read as globals:
numba's on-disk cache freezes globals into the compiled code and only notices
changes to this file, so a rebuilt table would otherwise be silently ignored.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaIRAssumptionWarning
from numba.extending import overload

from engine.hands.borrowed import borrowed
from engine.hands.draw_kernels import badugi_strength
from engine.hands.low_kernel import bit_count, key_low_strength
from engine.hands.strengths import (
    BADUGI,
    CATEGORY_MASK,
    CATEGORY_SHIFT,
    DEUCE_TO_SEVEN,
    INVALID,
    PLACE_SHIFT,
    SEVEN_RANK,
    STANDARD_HIGH,
)

# Inlining the overload of ``key_strength`` trips a pedantic check of numba's SSA pass on
# Python 3.11 (numba issues 7802 and 9489: a variable's scope is not carried over while
# inlining); the compiled code is right (the tests hold it equal to the reference), so this
# one warning is not shown to users.
warnings.filterwarnings(
    "ignore", message="variable '_key_strength_compiled", category=NumbaIRAssumptionWarning
)

__all__ = ["CATEGORY_MASK", "CATEGORY_SHIFT", "INVALID", "PLACE_SHIFT", "SEVEN_RANK", "STANDARD_HIGH"]
RANK_MASK_13 = 0x1FFF
LOW_ONE_PAIR, LOW_ACE_HIGH = 7, 8  # deuce-to-seven categories (engine.hands.strengths)
RANKS_MASK = 0xFFFFF
KING = 6  # rank index of the King in the seven-rank deck


@njit(cache=True, inline="always")
def category_of(strength: int) -> int:
    """``engine.hands.strengths.category_of``, compiled."""
    return (strength >> CATEGORY_SHIFT) & CATEGORY_MASK


@njit(cache=True, inline="always")
def card_bit(card: int) -> int:
    """The key bit of one card id."""
    c = np.int64(card)
    return np.int64(1) << ((c & 3) * 16 + (c >> 2))


@njit(cache=True, inline="always")
def key_count(key: int) -> int:
    """Number of cards in a key (a 64-bit population count)."""
    x = np.int64(key)
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, inline="always")
def row_key(cards: np.ndarray, row: int, deck_size: int) -> tuple[int, int]:
    """Key and number of real cards of one row; key INVALID on a bad id or duplicate."""
    key = np.int64(0)
    n = 0
    for j in range(cards.shape[1]):
        c = np.int64(cards[row, j])
        if c == -1:
            continue
        if c < 0 or c >= deck_size:
            return np.int64(INVALID), 0
        key |= card_bit(c)
        n += 1
    if key_count(key) != n:
        return np.int64(INVALID), 0
    return key, n


@njit(cache=True, inline="always")
def standard_strength(key: int, tables: tuple) -> int:
    """Strength of the best five-card standard poker hand among the cards of a key.

    ``tables`` is ``engine.hands.tables.STANDARD_TABLES`` (or another deck's,
    ``engine.hands.tables.high_tables``).
    """
    bit_count, top_bit, top_five, straight_top = tables[0], tables[1], tables[2], tables[3]
    m0 = key & RANK_MASK_13
    m1 = (key >> 16) & RANK_MASK_13
    m2 = (key >> 32) & RANK_MASK_13
    m3 = (key >> 48) & RANK_MASK_13
    flush = np.int64(-1)
    for m in (m0, m1, m2, m3):
        if bit_count[m] >= 5:
            top = np.int64(straight_top[m])
            if top >= 0:
                value = (np.int64(8) << 20) | (top << 16)
            else:
                value = (np.int64(5) << 20) | top_five[m]
            flush = max(flush, value)
    if flush >= np.int64(8) << 20:
        return flush
    ranks = m0 | m1 | m2 | m3
    four = m0 & m1 & m2 & m3
    if four:
        q = np.int64(top_bit[four])
        return (np.int64(7) << 20) | (q << 16) | ((top_five[ranks & ~(1 << q)] >> 4) & 0xF000)
    parity = m0 ^ m1 ^ m2 ^ m3
    two_or_more = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    trips = parity & two_or_more
    pairs = two_or_more & ~parity
    if trips:
        t = np.int64(top_bit[trips])
        rest = (trips & ~(1 << t)) | pairs
        if rest:
            return (np.int64(6) << 20) | (t << 16) | (np.int64(top_bit[rest]) << 12)
    if flush >= 0:
        return flush
    top = np.int64(straight_top[ranks])
    if top >= 0:
        return (np.int64(4) << 20) | (top << 16)
    if trips:
        t = np.int64(top_bit[trips])
        return (np.int64(3) << 20) | (t << 16) | ((top_five[ranks & ~(1 << t)] >> 4) & 0xFF00)
    if pairs:
        p1 = np.int64(top_bit[pairs])
        rest = pairs & ~(1 << p1)
        if rest:
            p2 = np.int64(top_bit[rest])
            kicker = (top_five[ranks & ~(1 << p1) & ~(1 << p2)] >> 8) & 0xF00
            return (np.int64(2) << 20) | (p1 << 16) | (p2 << 12) | kicker
        return (np.int64(1) << 20) | (p1 << 16) | ((top_five[ranks & ~(1 << p1)] >> 4) & 0xFFF0)
    return np.int64(top_five[ranks])


@njit(cache=True, inline="always")
def seven_rank_strength(key: int, kickers: bool, tables: tuple) -> int:
    """Strength of the best five-card seven-rank hand among the cards of a key (at most 7).

    With ``kickers`` False (rule ``highest_card``) a strength is the category and
    the top card of the five-card hand only; with True the category cards, then
    the other cards, high to low. ``tables`` is ``engine.hands.tables.SEVEN_RANK_TABLES``.
    """
    bit_count, top_bit, top_five, stairs_top = tables[0], tables[1], tables[2], tables[3]
    m0 = key & 0x7F
    m1 = (key >> 16) & 0x7F
    m2 = (key >> 32) & 0x7F
    m3 = (key >> 48) & 0x7F
    ranks = m0 | m1 | m2 | m3
    top_card = np.int64(top_bit[ranks])
    four = m0 & m1 & m2 & m3
    if four & (1 << KING):
        if kickers:
            kicker = np.int64(top_bit[ranks & ~(1 << KING)])
            return (np.int64(8) << 20) | (np.int64(KING) << 16) | (kicker << 12)
        return (np.int64(8) << 20) | (np.int64(KING) << 16)
    perfect = np.int64(-1)
    for m in (m0, m1, m2, m3):
        perfect = max(perfect, np.int64(stairs_top[m]))
    if perfect >= 0:
        return (np.int64(7) << 20) | (perfect << 16)
    stairs = np.int64(stairs_top[ranks])
    if stairs >= 0:
        return (np.int64(6) << 20) | (stairs << 16)
    if four:
        if not kickers:
            return (np.int64(5) << 20) | (top_card << 16)
        q = np.int64(top_bit[four])
        return (np.int64(5) << 20) | (q << 16) | (np.int64(top_bit[ranks & ~(1 << q)]) << 12)
    for suit in range(4):
        m = (key >> (16 * suit)) & 0x7F
        if bit_count[m] >= 4:
            if not kickers:
                return (np.int64(4) << 20) | (top_card << 16)
            chosen = m
            while bit_count[chosen] > 4:
                chosen &= chosen - 1  # drop the lowest suited card
            others = m & ~chosen
            for other in range(4):
                if other != suit:
                    others |= (key >> (16 * other)) & 0x7F
            fifth = np.int64(top_bit[others])
            return (np.int64(4) << 20) | (top_five[chosen] & 0xFFFF0) | fifth
    parity = m0 ^ m1 ^ m2 ^ m3
    two_or_more = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    trips = parity & two_or_more
    pairs = two_or_more & ~parity
    if trips:
        if not kickers:
            return (np.int64(3) << 20) | (top_card << 16)
        t = np.int64(top_bit[trips])
        others = ranks & ~(1 << t)
        doubled = (trips & ~(1 << t)) | pairs
        first = np.int64(top_bit[others])
        if doubled & (1 << first):
            second = first
        else:
            second = np.int64(top_bit[others & ~(1 << first)])
        return (np.int64(3) << 20) | (t << 16) | (first << 12) | (second << 8)
    if pairs:
        p1 = np.int64(top_bit[pairs])
        rest = pairs & ~(1 << p1)
        if rest:
            if not kickers:
                return (np.int64(2) << 20) | (top_card << 16)
            p2 = np.int64(top_bit[rest])
            kicker = np.int64(top_bit[ranks & ~(1 << p1) & ~(1 << p2)])
            return (np.int64(2) << 20) | (p1 << 16) | (p2 << 12) | (kicker << 8)
        if not kickers:
            return (np.int64(1) << 20) | (top_card << 16)
        return (np.int64(1) << 20) | (p1 << 16) | ((top_five[ranks & ~(1 << p1)] >> 4) & 0xFFF0)
    if not kickers:
        return top_card << 16
    return np.int64(top_five[ranks])


@njit(cache=True, inline="always")
def _low_of_high(high: int) -> int:
    """A five-card standard high strength (no wheel) turned into its deuce-to-seven low."""
    category = (high >> CATEGORY_SHIFT) & 0xF
    if category == 0:
        low_category = LOW_ACE_HIGH + 12 - ((high >> 16) & 0xF)
    else:
        low_category = LOW_ONE_PAIR + 1 - category
    return (low_category << CATEGORY_SHIFT) | (RANKS_MASK - (high & RANKS_MASK))


@njit(cache=True)
def deuce_to_seven_strength(key: int, tables: tuple) -> int:
    """The best deuce-to-seven low of five of a key's 5 to 7 cards (INVALID otherwise); ``tables``
    are ``engine.hands.tables.DEUCE_TO_SEVEN_TABLES`` (standard, with no wheel)."""
    n = bit_count(key)
    if n == 5:
        return _low_of_high(standard_strength(key, tables))
    if n < 5 or n > 7:
        return INVALID
    best = INVALID
    first = key
    while first:  # leave out one card, or (of seven) two
        one = first & -first
        first ^= one
        if n == 6:
            best = max(best, _low_of_high(standard_strength(key ^ one, tables)))
            continue
        second = first
        while second:
            two = second & -second
            second ^= two
            best = max(best, _low_of_high(standard_strength(key ^ one ^ two, tables)))
    return best


@njit(cache=True, inline="always")
def rank_count_strength(m0: int, m1: int, m2: int, m3: int, top_bit: np.ndarray, top_five: np.ndarray) -> int:
    """The best hand among the categories made of rank counts alone (no straight, no flush):
    four of a kind, full house, three of a kind, two pair, pair, high card; standard packing."""
    ranks = m0 | m1 | m2 | m3
    four = m0 & m1 & m2 & m3
    parity = m0 ^ m1 ^ m2 ^ m3
    two_or_more = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    trips = parity & two_or_more & ~four
    pairs = two_or_more & ~parity & ~four
    value = np.int64(top_five[ranks])
    if four:
        q = np.int64(top_bit[four])
        value = (np.int64(7) << 20) | (q << 16) | ((top_five[ranks & ~(1 << q)] >> 4) & 0xF000)
    elif trips and ((trips & (trips - 1)) or pairs):
        t = np.int64(top_bit[trips])
        value = (np.int64(6) << 20) | (t << 16) | (np.int64(top_bit[(trips & ~(1 << t)) | pairs]) << 12)
    elif trips:
        t = np.int64(top_bit[trips])
        value = (np.int64(3) << 20) | (t << 16) | ((top_five[ranks & ~(1 << t)] >> 4) & 0xFF00)
    elif pairs & (pairs - 1):
        p1 = np.int64(top_bit[pairs])
        p2 = np.int64(top_bit[pairs & ~(1 << p1)])
        kicker = (top_five[ranks & ~(1 << p1) & ~(1 << p2)] >> 8) & 0xF00
        value = (np.int64(2) << 20) | (p1 << 16) | (p2 << 12) | kicker
    elif pairs:
        p1 = np.int64(top_bit[pairs])
        value = (np.int64(1) << 20) | (p1 << 16) | ((top_five[ranks & ~(1 << p1)] >> 4) & 0xFFF0)
    return value


@njit(cache=True, inline="always")
def ordered_strength(key: int, tables: tuple) -> int:
    """Strength of the best five cards of a key under a category order (any number of cards).

    ``tables[4][c]`` is category c's place in the order, weakest 0 (``engine.hands.tables.high_tables``
    with an order: the only tables with a fifth member); the strength is
    ``place << 24`` above the standard packing of that category's best hand, so the category
    stays ``(strength >> 20) & 15``. The best of each kind the cards make (straight flush,
    flush, straight, and the best hand of rank counts) is found and the highest placed kept:
    right for orders that keep the straight flush strongest and the rank-count categories in
    their usual order (``engine.hands.rankings.check_category_order``).
    """
    bit_count, top_bit, top_five, straight_top, place = tables[0], tables[1], tables[2], tables[3], tables[4]
    m0 = key & RANK_MASK_13
    m1 = (key >> 16) & RANK_MASK_13
    m2 = (key >> 32) & RANK_MASK_13
    m3 = (key >> 48) & RANK_MASK_13
    best = np.int64(-1)
    for m in (m0, m1, m2, m3):
        if bit_count[m] >= 5:
            top = np.int64(straight_top[m])
            if top >= 0:
                best = max(best, (place[8] << 24) | (np.int64(8) << 20) | (top << 16))
            best = max(best, (place[5] << 24) | (np.int64(5) << 20) | top_five[m])
    top = np.int64(straight_top[m0 | m1 | m2 | m3])
    if top >= 0:
        best = max(best, (place[4] << 24) | (np.int64(4) << 20) | (top << 16))
    counted = rank_count_strength(m0, m1, m2, m3, top_bit, top_five)
    return max(best, (place[counted >> CATEGORY_SHIFT] << PLACE_SHIFT) | counted)


def key_strength(key: int, ranking: int, kickers: bool, tables: tuple) -> int:
    """Strength of the best five cards of a key under a ranking code and its tables.

    Tables with a fifth member (each category's place: ``engine.hands.tables.high_tables`` with an
    order) rank standard hands in that order; one member (``engine.hands.low_kernel.low_order``)
    ranks ace-to-five lows; four members, by the code: standard high, seven-rank, deuce-to-seven (its
    tables have no wheel) or badugi (tables unused). Compiled code gets a version chosen by the
    tables' type (the ``overload`` below), so the usual rankings' loops never test for an order or
    an ace-to-five low.
    """
    if len(tables) == 1:
        return key_low_strength(key)
    if len(tables) == 5:
        return ordered_strength(key, tables)
    if ranking == STANDARD_HIGH:
        return standard_strength(key, tables)
    if ranking == SEVEN_RANK:
        return seven_rank_strength(key, kickers, tables)
    if ranking == DEUCE_TO_SEVEN:
        return deuce_to_seven_strength(key, tables)
    return badugi_strength(key)


@overload(key_strength, inline="always")
def _key_strength_compiled(key, ranking, kickers, tables):
    if len(tables) == 1:
        return lambda key, ranking, kickers, tables: key_low_strength(key)
    if len(tables) == 5:
        return lambda key, ranking, kickers, tables: ordered_strength(key, tables)

    def usual(key, ranking, kickers, tables):
        if ranking == STANDARD_HIGH:
            return standard_strength(key, tables)
        if ranking == SEVEN_RANK:
            return seven_rank_strength(key, kickers, tables)
        if ranking == DEUCE_TO_SEVEN:
            return deuce_to_seven_strength(key, tables)
        return badugi_strength(key)

    return usual


@njit(cache=True)
def evaluate_rows(cards: np.ndarray, out: np.ndarray, ranking: int, kickers: bool, tables: tuple,
                  deck_size: int, max_cards: int) -> None:  # fmt: skip
    """Best five-card hand of each row of ``cards`` (5 to ``max_cards`` cards) into ``out``."""
    tables = borrowed(tables)  # the caller holds them
    for i in range(cards.shape[0]):
        key, n = row_key(cards, i, deck_size)
        ok = key >= 0 and (5 if ranking != BADUGI else 1) <= n <= max_cards
        out[i] = key_strength(key, ranking, kickers, tables) if ok else INVALID


@njit(cache=True, nogil=True)  # (a simulation's counts, on its writer thread while the kernel deals)
def key_strength_rows(keys: np.ndarray, out: np.ndarray, ranking: int, kickers: bool, tables: tuple) -> None:
    """``key_strength`` of each key (a hand as card bits) into ``out``."""
    tables = borrowed(tables)  # the caller holds them
    for i in range(keys.shape[0]):
        out[i] = key_strength(keys[i], ranking, kickers, tables)


@njit(cache=True)
def evaluate_high_hole_rows(hole: np.ndarray, board: np.ndarray, out: np.ndarray, ranking: int, tables: tuple,
                            deck_size: int) -> None:  # fmt: skip
    """Best hand of each row that uses at least one hole card.

    Every such five-card hand uses at most four board cards, so it lies within
    the hole cards plus some four of the board cards: the best over those sets.
    """
    tables = borrowed(tables)  # the caller holds them
    for i in range(hole.shape[0]):
        hole_key, n_hole = row_key(hole, i, deck_size)
        board_key, n_board = row_key(board, i, deck_size)
        both = hole_key | board_key
        if hole_key < 0 or board_key < 0 or key_count(both) != n_hole + n_board:
            out[i] = INVALID
            continue
        if n_hole == 0 or n_hole + min(n_board, 4) < 5:
            out[i] = INVALID
            continue
        if n_board <= 4:
            out[i] = key_strength(both, ranking, False, tables)
            continue
        best = np.int64(INVALID)
        n = board.shape[1]
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        ca, cb, cc, cd = board[i, a], board[i, b], board[i, c], board[i, d]
                        if ca < 0 or cb < 0 or cc < 0 or cd < 0:
                            continue
                        key = hole_key | card_bit(ca) | card_bit(cb) | card_bit(cc) | card_bit(cd)
                        best = max(best, key_strength(key, ranking, False, tables))
        out[i] = best


@njit(cache=True)
def low_points_rows(cards: np.ndarray, points: np.ndarray, out: np.ndarray) -> None:
    """Low points of the real cards of each row (``points`` per rank); INVALID on an id outside
    the ranks ``points`` covers."""
    for i in range(cards.shape[0]):
        total = 0
        for j in range(cards.shape[1]):
            c = np.int64(cards[i, j])
            if c == -1:
                continue
            if c < 0 or c >= 4 * points.shape[0]:
                total = INVALID
                break
            total += points[c >> 2]
        out[i] = total


@njit(cache=True)
def count_categories(deck_size: int, k: int, ranking: int, kickers: bool, tables: tuple) -> np.ndarray:
    """Count every k-card set of the deck by category of its best five-card hand under a ranking code."""
    tables = borrowed(tables)  # the caller holds them
    counts = np.zeros(16, dtype=np.int64)  # the most categories a ranking has
    index = np.arange(k)
    prefix = np.zeros(k + 1, dtype=np.int64)  # prefix[j]: key of cards index[:j]
    for j in range(k):
        prefix[j + 1] = prefix[j] | card_bit(index[j])
    while True:
        key = prefix[k]
        counts[category_of(key_strength(key, ranking, kickers, tables))] += 1
        i = k - 1
        while i >= 0 and index[i] == deck_size - k + i:
            i -= 1
        if i < 0:
            break
        index[i] += 1
        prefix[i + 1] = prefix[i] | card_bit(index[i])
        for j in range(i + 1, k):
            index[j] = index[j - 1] + 1
            prefix[j + 1] = prefix[j] | card_bit(index[j])
    return counts


@njit(cache=True)
def all_combinations(n: int, k: int, total: int) -> np.ndarray:
    """Every k-subset of range(n) in lexicographic order, as a (total, k) int8 array."""
    out = np.empty((total, k), dtype=np.int8)
    index = np.arange(k)
    for row in range(total):
        for j in range(k):
            out[row, j] = index[j]
        i = k - 1
        while i >= 0 and index[i] == n - k + i:
            i -= 1
        if i < 0:
            break
        index[i] += 1
        for j in range(i + 1, k):
            index[j] = index[j - 1] + 1
    return out
