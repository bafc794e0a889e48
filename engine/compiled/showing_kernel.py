"""Who acts first by the up cards, compiled: ``engine.rules.showing.opener_seat`` over a ``Hand``'s
hole cards, for the compiled replay of stud.

A seat's up cards are its hole cards dealt face up (``up[j]``: the j-th card dealt). Single
cards compare by rank then suit; showing hands by shape (no pair, one pair, two pair, three
and four of a kind) then ranks, larger groups first and higher ranks first, packed in one
integer whose order is the reference's tuple order (a rank is written one above itself, so a
shorter hand that is a prefix of a longer one stays below it). Razz's openers count aces low.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.hand_state import (
    COMPLETION_DUE,
    FOLDED,
    FORCED_ROUND,
    N_HOLE,
    NEXT,
    OPEN_BY_POSITION,
    OPEN_HIGH_CARD,
    OPEN_LOW_CARD,
    OPEN_LOW_HAND,
    STREET,
    next_pending,
)

HIDDEN_UP = -2  # a live seat's up card is unknown: the reference lets the record name the opener
RANK_PLACES = 7  # the most up cards a showing hand packs


@njit(cache=True, inline="always")
def _rank(card, aces_low, n_ranks) -> int:
    rank = card >> 2
    return (rank + 1) % n_ranks if aces_low else rank


@njit(cache=True)
def _showing_key(hole, seat, n_hole, up, aces_low, n_ranks, counts) -> int:
    """The packed (shape, ranks) of one seat's up cards (``engine.rules.showing.showing_key``)."""
    counts[:] = 0
    for j in range(n_hole):
        if up[j]:
            counts[_rank(hole[seat, j], aces_low, n_ranks)] += 1
    most, pairs = 0, 0
    for r in range(n_ranks):
        most = max(most, counts[r])
        pairs += counts[r] == 2
    shape = 4 if most == 4 else 3 if most == 3 else 2 if pairs >= 2 else 1 if pairs == 1 else 0
    key, places = shape, 0
    for size in range(4, 0, -1):  # larger groups first, higher ranks first
        for r in range(n_ranks - 1, -1, -1):
            if counts[r] == size:
                for _ in range(size):
                    key = key * 16 + r + 1
                    places += 1
    for _ in range(places, RANK_PLACES):
        key *= 16
    return key


@njit(cache=True)
def opener_by_cards(opener, hole, seats, up, n, n_ranks) -> int:
    """The seat the up cards name to act first (a tie: the first from seat 0; no live seat with
    up cards: seat 0), or ``HIDDEN_UP`` when a live seat's up card is unknown."""
    counts = np.zeros(n_ranks, np.int64)
    aces_low = opener in (OPEN_HIGH_CARD, OPEN_LOW_HAND)
    lowest = opener in (OPEN_LOW_CARD, OPEN_LOW_HAND)
    best_seat, best = 0, -1
    for s in range(n):
        if seats[FOLDED, s]:
            continue
        single = opener in (OPEN_LOW_CARD, OPEN_HIGH_CARD)
        key, shown = -1, False
        for j in range(seats[N_HOLE, s]):
            if not up[j]:
                continue
            card = hole[s, j]
            if card < 0:
                return HIDDEN_UP
            if single:
                value = _rank(card, aces_low, n_ranks) * 4 + (card & 3)
                key = value if not shown or (value < key if lowest else value > key) else key
            shown = True
        if not shown:
            continue
        if not single:
            key = _showing_key(hole, s, seats[N_HOLE, s], up, aces_low, n_ranks, counts)
        if best < 0 or (key < best if lowest else key > best):
            best_seat, best = s, key
    return best_seat


@njit(cache=True)
def open_by_cards(table, streets, hand) -> bool:
    """After ``open_betting``: on a street opened by the up cards, the seat they name acts first
    and, on the first street of a game with a bring-in, the bring-in is due
    (``HandState._maybe_start_betting``). False when a live seat's up card is unknown."""
    at = hand.at
    at[COMPLETION_DUE] = 0
    opener = streets.opener[at[STREET]]
    if opener == OPEN_BY_POSITION:
        return True
    first = opener_by_cards(opener, hand.hole, hand.seats, streets.up, table.n, streets.deck_size // 4)
    if first == HIDDEN_UP:
        return False
    at[NEXT] = next_pending(hand.seats, first - 1, table.n)
    at[COMPLETION_DUE] = streets.plan[FORCED_ROUND, at[STREET]] and table.bring_in > 0
    return True


@njit(cache=True)
def shown_a_better_hand(hole, seats, up, n, seat, lowball, n_ranks) -> bool:
    """``engine.rules.policies._shown_a_better_hand``: a live opponent's up cards show a better hand
    than the seat's own (aces low, and lower better, under a lowball ranking)."""
    counts = np.zeros(n_ranks, np.int64)
    mine = _showing_key(hole, seat, seats[N_HOLE, seat], up, lowball, n_ranks, counts)
    for other in range(n):
        if other == seat or seats[FOLDED, other]:
            continue
        theirs = _showing_key(hole, other, seats[N_HOLE, other], up, lowball, n_ranks, counts)
        if theirs < mine if lowball else theirs > mine:
            return True
    return False
