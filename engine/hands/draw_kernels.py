"""Badugi from card keys, compiled (deuce-to-seven's low is ``engine.hands.kernels``'s
``deuce_to_seven_strength``: it turns the standard high hand over).

Same strengths as the readable reference in ``engine.hands.draw_lows`` (the tests hold the two
equal); a key is ``engine.hands.kernels``'s, one 16-bit rank mask per suit, deuce at bit 0.

>>> badugi_strength(1 << 12 | 1 << 16 | 1 << 33 | 1 << 50) >> 20  # an ace, deuce, three, four: four badugi
12
"""

from __future__ import annotations

from numba import njit

from engine.hands.low_kernel import bit_count, low_bits
from engine.hands.strengths import CATEGORY_SHIFT, INVALID

FOUR_CARDS = 3  # the first category of four cards, king badugi (engine.hands.strengths)


@njit(cache=True)
def badugi_strength(key: int) -> int:
    """The badugi among a key's 1 to 8 cards (INVALID otherwise): the most cards of different ranks
    and suits, then the lowest (aces low), every subset tried."""
    n = bit_count(key)
    if n == 0 or n > 8:
        return INVALID
    packed = 0  # each card in 6 bits: its aces-low rank, then its suit
    for suit in range(4):
        mask = low_bits((key >> (16 * suit)) & 0x1FFF)
        for rank in range(13):
            if (mask >> rank) & 1:
                packed = (packed << 6) | (rank << 2) | suit
    best = INVALID
    for subset in range(1, 1 << n):
        ranks = 0
        suits = 0
        size = 0
        for i in range(n):
            if (subset >> i) & 1:
                card = (packed >> (6 * i)) & 63
                ranks |= 1 << (card >> 2)
                suits |= 1 << (card & 3)
                size += 1
        if size > 4 or bit_count(ranks) < size or bit_count(suits) < size:
            continue
        strength = 0
        place = 0
        top = -1
        for rank in range(12, -1, -1):
            if (ranks >> rank) & 1:
                if top < 0:
                    top = rank
                strength |= (12 - rank) << (16 - 4 * place)
                place += 1
        category = size - 1 if size < 4 else FOUR_CARDS + 12 - top
        best = max(best, (category << CATEGORY_SHIFT) | strength)
    return best
