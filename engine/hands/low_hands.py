"""Ace-to-five low hands with a qualifier (eight or better): compiled kernels and a batch API.

A low hand is five cards of five different ranks, all at or below the qualifier, aces low;
straights and flushes do not count (RULINGS, "Ultimate Hi-Lo"). Its value is the mask of its
five ranks in ace-to-five order (bit 1 the ace, bit 2 the two, ... bit 13 the king): of two
lows, the smaller value is the better (the highest card decides first, then the next), so
8-5-4-3-2 beats 8-6-3-2-A. ``NO_LOW`` (-1): the cards make no qualifying low.

The kernels take card keys (``engine.hands.kernels``); they are meant for compiled callers too.

>>> from engine.hands.cards import parse_card_rows
>>> hole, board = parse_card_rows(["As2dKcKd"]), parse_card_rows(["3h4c5sKhQh"])
>>> describe_low(int(evaluate_low(hole, board, "exactly-2")[0]))
'5-4-3-2-A'
>>> int(evaluate_low(parse_card_rows(["AsAdKcKd"]), parse_card_rows(["2h3c4s5h6h"]), "exactly-2")[0])
-1
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.hands.cards import NO_CARD, STANDARD
from engine.hands.kernels import INVALID, row_key

NO_LOW = -1
ACE = 12  # the ace's rank index in the standard deck
LOW_NAMES = "?A23456789TJQK"  # by ace-to-five value: 1 the ace ... 13 the king


def qualifying_ranks(qualifier: int) -> int:
    """The mask of the ace-to-five ranks at or below a qualifier (8: ace to eight).

    >>> bin(qualifying_ranks(8))
    '0b111111110'
    """
    if not 5 <= qualifier <= 13:
        raise ValueError(f"a low qualifier is 5 (five-high) to 13 (king-high), not {qualifier}")
    return (1 << (qualifier + 1)) - 2


@njit(cache=True, inline="always")
def low_ranks(key: int) -> int:
    """The ace-to-five ranks of the cards of a key, as a mask (bit 1 the ace ... bit 13 the king)."""
    m = (key | (key >> 16) | (key >> 32) | (key >> 48)) & 0x1FFF
    return ((m & 0xFFF) << 2) | (((m >> ACE) & 1) << 1)


@njit(cache=True, inline="always")
def lowest_ranks(mask: int, count: int) -> int:
    """The ``count`` lowest ranks of a mask, or ``NO_LOW`` when it holds fewer."""
    chosen, bit = 0, 1
    for _ in range(count):
        bit = mask & -mask
        chosen |= bit
        mask ^= bit
    return chosen if bit != 0 else NO_LOW


@njit(cache=True)
def best_low_any(key: int, allowed: int) -> int:
    """The best low of any five of a key's cards (ranks within ``allowed``)."""
    return lowest_ranks(low_ranks(key) & allowed, 5)


@njit(cache=True)
def best_low_exactly_two(hole_key: int, board_key: int, allowed: int) -> int:
    """The best low of exactly two hole cards and three board cards (Omaha).

    For each pair of hole cards of two different qualifying ranks, the three lowest qualifying
    board ranks besides theirs complete the best low that pair makes.
    """
    board = low_ranks(board_key) & allowed
    best = NO_LOW
    first_cards = hole_key
    while first_cards:
        first = first_cards & -first_cards
        first_cards ^= first
        r1 = low_ranks(first) & allowed
        second_cards = first_cards
        while second_cards and r1:
            second = second_cards & -second_cards
            second_cards ^= second
            r2 = low_ranks(second) & allowed
            if r2 == 0 or r2 == r1:
                continue
            three = lowest_ranks(board & ~(r1 | r2), 3)
            if three != NO_LOW and (best == NO_LOW or (three | r1 | r2) < best):
                best = three | r1 | r2
    return best


@njit(cache=True)
def low_rows(hole: np.ndarray, board: np.ndarray, exactly_two: bool, allowed: int, deck_size: int,
             out: np.ndarray) -> None:  # fmt: skip
    """``out[i]``: the best low of row i's hole cards with its board cards (-1 pads; -2: a bad row)."""
    for i in range(hole.shape[0]):
        hole_key, _ = row_key(hole, i, deck_size)
        board_key, _ = row_key(board, i, deck_size)
        bad = hole_key == INVALID or board_key == INVALID or (hole_key & board_key) != 0
        if bad:
            out[i] = -2
        elif exactly_two:
            out[i] = best_low_exactly_two(hole_key, board_key, allowed)
        else:
            out[i] = best_low_any(hole_key | board_key, allowed)


def evaluate_low(hole: np.ndarray, board: np.ndarray | None = None, hole_use: str = "any",
                 qualifier: int = 8) -> np.ndarray:  # fmt: skip
    """The best ace-to-five low of each row (standard cards), ``NO_LOW`` where none qualifies.

    ``hole`` is (N, h) and ``board`` (N, b), both padded with -1 (no board: the hole cards
    alone). ``hole_use`` is ``"any"`` (any five of all the cards) or ``"exactly-2"`` (two hole
    cards and three board cards). A row with a card twice or outside the deck raises ``ValueError``.

    >>> from engine.hands.cards import parse_card_rows
    >>> [describe_low(int(v)) for v in evaluate_low(parse_card_rows(["As2d3h4c5s9d", "8c7d6h5s4c"]))]
    ['5-4-3-2-A', '8-7-6-5-4']
    """
    if hole_use not in ("any", "exactly-2"):
        raise ValueError(f"hole_use must be any or exactly-2, not {hole_use!r}")
    hole_rows = np.atleast_2d(np.asarray(hole, dtype=np.int8))
    board_rows = np.full((hole_rows.shape[0], 0), NO_CARD, np.int8) if board is None else board
    board_rows = np.atleast_2d(np.asarray(board_rows, dtype=np.int8))
    if hole_rows.shape[0] != board_rows.shape[0]:
        raise ValueError(f"evaluate_low: {hole_rows.shape[0]} hole rows but {board_rows.shape[0]} board rows")
    out = np.empty(hole_rows.shape[0], dtype=np.int64)
    low_rows(hole_rows, board_rows, hole_use == "exactly-2", qualifying_ranks(qualifier), STANDARD.size, out)
    bad = np.flatnonzero(out == -2)
    if bad.size:
        raise ValueError(
            f"evaluate_low: row {int(bad[0])} holds a card twice or one outside the standard deck"
        )
    return out


def describe_low(value: int) -> str:
    """A low's ranks, highest first, or ``no low``.

    >>> describe_low(0b100101110), describe_low(NO_LOW)
    ('8-5-3-2-A', 'no low')
    """
    if value == NO_LOW:
        return "no low"
    return "-".join(LOW_NAMES[v] for v in range(13, 0, -1) if value >> v & 1)
