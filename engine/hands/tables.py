"""Small lookup tables over rank bit masks, shared by the compiled evaluators.

A rank mask has bit ``r`` set when rank index ``r`` is present. Every table is
indexed by a 13-bit mask (8,192 entries) and is built once, in plain numpy, at
import; the kernels in ``engine.hands.kernels`` read them as compile-time constants.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

N_MASKS = 1 << 13


def _bit_counts() -> np.ndarray:
    masks = np.arange(N_MASKS)
    counts = np.zeros(N_MASKS, dtype=np.int8)
    for bit in range(13):
        counts += (masks >> bit) & 1
    return counts


def _top_bits() -> np.ndarray:
    """Index of the highest set bit, -1 for the empty mask."""
    top = np.full(N_MASKS, -1, dtype=np.int8)
    for bit in range(13):
        top[1 << bit : 1 << (bit + 1)] = bit
    return top


def _top_five_packed(top: np.ndarray) -> np.ndarray:
    """The five highest ranks of a mask, packed as nibbles 16, 12, 8, 4, 0.

    Missing ranks (a mask of fewer than five bits) pack as 0.
    """
    packed = np.zeros(N_MASKS, dtype=np.int32)
    rest = np.arange(N_MASKS)
    for shift in (16, 12, 8, 4, 0):
        highest = top[rest].astype(np.int64)
        present = highest >= 0
        packed[present] |= (highest[present] << shift).astype(np.int32)
        rest = np.where(present, rest & ~(1 << np.maximum(highest, 0)), rest)
    return packed


def _straight_tops(n_ranks: int, wheel: bool) -> np.ndarray:
    """Top rank of the highest run of five consecutive ranks in a mask, -1 if none.

    With ``wheel`` the top rank (the ace) also plays below the lowest, so
    A-2-3-4-5 is a run whose top is rank 3 (the five).
    """
    tops = np.full(N_MASKS, -1, dtype=np.int8)
    masks = np.arange(N_MASKS)
    run = 0b11111
    if wheel:
        wheel_mask = (1 << (n_ranks - 1)) | 0b1111
        tops[(masks & wheel_mask) == wheel_mask] = 3
    for low in range(n_ranks - 4):
        tops[(masks & (run << low)) == (run << low)] = low + 4
    return tops


BIT_COUNT = _bit_counts()
TOP_BIT = _top_bits()
TOP_FIVE = _top_five_packed(TOP_BIT)
STANDARD_STRAIGHT_TOP = _straight_tops(13, wheel=True)
SEVEN_RANK_STAIRS_TOP = _straight_tops(7, wheel=False)

# The argument tuples the compiled kernels take (see engine.hands.kernels): the bit tables and the
# straights of the deck's ranks; under a game's own category order, each category's place too.
STANDARD_TABLES = (BIT_COUNT, TOP_BIT, TOP_FIVE, STANDARD_STRAIGHT_TOP)
SEVEN_RANK_TABLES = (BIT_COUNT, TOP_BIT, TOP_FIVE, SEVEN_RANK_STAIRS_TOP)
DEUCE_TO_SEVEN_TABLES = (BIT_COUNT, TOP_BIT, TOP_FIVE, _straight_tops(13, wheel=False))  # aces high only


@lru_cache(maxsize=16)
def high_tables(n_ranks: int, places: tuple[int, ...] | None = None) -> tuple:
    """The tables of standard poker hands over a deck of ``n_ranks`` ranks (the ace the top one,
    playing also below the lowest: A-6-7-8-9 in a 36-card deck), under a category order.

    ``places[c]`` is category c's place, weakest 0 (None: the usual order); with an order the
    tuple has a fifth member, the places, and the kernels rank by it (``engine.hands.kernels.key_strength``).

    >>> short = high_tables(9)[3]
    >>> int(short[0b100001111]), int(short[0b000011111])  # A-6-7-8-9 tops at the 9; 6-T at the T
    (3, 4)
    >>> high_tables(13) == STANDARD_TABLES, len(high_tables(13, (0, 1, 2, 4, 3, 6, 5, 7, 8)))
    (True, 5)
    """
    straights = STANDARD_STRAIGHT_TOP if n_ranks == 13 else _straight_tops(n_ranks, wheel=True)
    if places is None:
        return (BIT_COUNT, TOP_BIT, TOP_FIVE, straights)
    return (BIT_COUNT, TOP_BIT, TOP_FIVE, straights, np.array(places, dtype=np.int64))


def low_order() -> np.ndarray:
    """Each rank's place in ace-to-five order (the ace 0), standard deck: the table the ace-to-five
    ranking hands the kernels, whose one-member tuple tells ``key_strength`` to rank lows
    (``engine.hands.low_kernel``).

    >>> low_order().tolist()[-1], low_order().tolist()[0]  # the ace, the deuce
    (0, 1)
    """
    return np.array([(rank + 1) % 13 for rank in range(13)], np.int64)
