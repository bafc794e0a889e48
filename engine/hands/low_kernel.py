"""The ace-to-five low of a card key, compiled: razz's ranking as the kernels call it.

A key (``engine.hands.kernels``) holds one 16-bit rank mask per suit, the deuce at bit 0 and
the ace at bit 12. Turned so the ace sits at bit 0 (``low_bits``), the masks give the ranks
held once, twice and three times; the best low takes the lowest ranks held once, then pairs
the lowest ranks that pair (``engine.hands.ace_to_five`` counts the same lows from rank
counts, and the tests hold the two equal over every pattern of rank counts of 5 to 8 cards).

>>> key = sum(1 << (16 * (i % 4) + r) for i, r in enumerate([12, 0, 1, 2, 3, 11, 11]))  # A2345KK
>>> key_low_strength(key) >> 20  # five low, the best category
13
"""

from __future__ import annotations

from numba import njit

from engine.hands.strengths import CATEGORY_SHIFT, INVALID

QUADS, FULL_HOUSE, TRIPS, TWO_PAIR, ONE_PAIR, KING_LOW = range(6)  # categories, worst first
LOW_RANKS = 13


@njit(cache=True, inline="always")
def low_bits(mask: int) -> int:
    """A suit's 13 rank bits (deuce first) turned to ace-to-five order (ace first)."""
    return ((mask << 1) | (mask >> 12)) & 0x1FFF


@njit(cache=True, inline="always")
def bit_count(mask: int) -> int:
    """Bits set in a mask."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _lowest(mask: int) -> int:
    """The lowest rank in a mask (ace-to-five order)."""
    r = 0
    while not (mask >> r) & 1:
        r += 1
    return r


@njit(cache=True, inline="always")
def _weight(rank: int, place: int) -> int:
    """A rank's nibble at ``place`` (0 the first, most significant, of five): lower ranks weigh more."""
    return (12 - rank) << (16 - 4 * place)


@njit(cache=True, inline="always")
def _rising(mask: int, places: int, first_place: int) -> int:
    """The lowest ``places`` ranks of a mask written from ``first_place`` on, highest first."""
    strength = 0
    taken = 0
    for r in range(LOW_RANKS):
        if taken < places and (mask >> r) & 1:
            strength |= _weight(r, first_place + places - 1 - taken)
            taken += 1
    return strength


@njit(cache=True)
def key_low_strength(key: int) -> int:
    """The strength of the best ace-to-five low among a key's cards (INVALID below five cards)."""
    s0, s1 = low_bits(key & 0x1FFF), low_bits((key >> 16) & 0x1FFF)
    s2, s3 = low_bits((key >> 32) & 0x1FFF), low_bits((key >> 48) & 0x1FFF)
    once = s0 | s1 | s2 | s3
    twice = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    thrice = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if bit_count(s0) + bit_count(s1) + bit_count(s2) + bit_count(s3) < 5:
        return INVALID
    distinct = bit_count(once)
    if distinct >= 5:
        strength = _rising(once, 5, 0)
        top = 12 - ((strength >> 16) & 0xF)  # the fifth lowest rank, written first
        return ((KING_LOW + 12 - top) << CATEGORY_SHIFT) | strength
    if distinct == 4:  # one pair: the lowest that pairs, with the three other ranks
        pair = _lowest(twice)
        rest = _rising(once & ~(1 << pair), 3, 2)
        return (ONE_PAIR << CATEGORY_SHIFT) | _weight(pair, 0) | _weight(pair, 1) | rest
    if distinct == 3 and bit_count(twice) >= 2:  # two pair: the two lowest pairs, then the third rank
        low = _lowest(twice)
        high = _lowest(twice & ~(1 << low))
        kicker = _lowest(once & ~(1 << low) & ~(1 << high))
        pairs = _weight(high, 0) | _weight(high, 1) | _weight(low, 2) | _weight(low, 3)
        return (TWO_PAIR << CATEGORY_SHIFT) | pairs | _weight(kicker, 4)
    if distinct == 3:
        trips = _lowest(thrice)
        rest = _rising(once & ~(1 << trips), 2, 3)
        return (TRIPS << CATEGORY_SHIFT) | _weight(trips, 0) | _weight(trips, 1) | _weight(trips, 2) | rest
    low = _lowest(once)  # two ranks: a full house (the lower trips) if one can be made, else quads
    high = _lowest(once & ~(1 << low))
    low_bit, high_bit = 1 << low, 1 << high
    if (thrice & low_bit and twice & high_bit) or (thrice & high_bit and twice & low_bit):
        trips, pair = (low, high) if thrice & low_bit and twice & high_bit else (high, low)
        three = _weight(trips, 0) | _weight(trips, 1) | _weight(trips, 2)
        return (FULL_HOUSE << CATEGORY_SHIFT) | three | _weight(pair, 3) | _weight(pair, 4)
    quads, other = (low, high) if (s0 & s1 & s2 & s3) & low_bit else (high, low)
    four = _weight(quads, 0) | _weight(quads, 1) | _weight(quads, 2) | _weight(quads, 3)
    return (QUADS << CATEGORY_SHIFT) | four | _weight(other, 4)
