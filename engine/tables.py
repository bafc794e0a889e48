"""Small lookup tables over rank bit masks, shared by the compiled evaluators.

A rank mask has bit ``r`` set when rank index ``r`` is present. Every table is
indexed by a 13-bit mask (8,192 entries) and is built once, in plain numpy, at
import; the kernels in ``engine.kernels`` read them as compile-time constants.
"""

from __future__ import annotations

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

# Low points by standard rank index: 2..9 face value, T J Q K = 10, A = 1 (the points a
# description gives its lowest-points share; engine.evaluate.low_points uses them).
SCARNEY_POINTS = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1], dtype=np.int8)

# The argument tuples the compiled kernels take (see engine.kernels).
STANDARD_TABLES = (BIT_COUNT, TOP_BIT, TOP_FIVE, STANDARD_STRAIGHT_TOP)
SEVEN_RANK_TABLES = (BIT_COUNT, TOP_BIT, TOP_FIVE, SEVEN_RANK_STAIRS_TOP)
