"""One PokerStars-family hand as the compiled reader holds it (``Work``: its seats, moves, shows,
boards and numbers, in rows of arrays), what the Python side gives it (``Tables``), and the readers
of pieces several of its modules share: an amount as the Python reader's pattern finds it, a seat
by name. ``stars_lines`` reads a hand's lines into ``Work`` (``stars_actions``, ``stars_summary``),
``stars_checks`` holds it against the file's own arithmetic, ``stars_write`` writes its PHH.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ingest.histories.sites.stars_bytes import (
    SPACE,
    amount,
    at,
    code_end,
    same,
    symbol,
)

MAX_SEATS, MAX_MOVES, MAX_SHOWS, CARD_BYTES = 12, 256, 32, 16
# a seat: rows of ``Work.seat`` (S_BET to S_BET + 3: its bets on each street, before the flop first)
S_NUMBER, S_NAME_A, S_NAME_B, S_STACK, S_BOUNTY_M, S_BOUNTY_D, S_OUT, S_PLAYS, S_ANTE, S_BLIND = range(10)
S_BET = 10
(S_COLLECTED, S_RETURNED, S_KNOWN, S_FOLDED, S_PLACE, S_STREET_BET, S_PUT, S_LEFT, S_RULES_PUT, S_RULES_BET,
 S_LAST_BET, SEAT_ROWS) = range(S_BET + 4, S_BET + 16)  # fmt: skip
# a move: rows of ``Work.move``, and its verb
M_STREET, M_SEAT, M_VERB, M_UNITS = range(4)
FOLD, CALL, RAISE = range(3)
# the hand: ``Work.hand`` (H_BOARD to H_BOARD + 3: each street's board length, -1 when none)
(H_SEATS, H_MOVES, H_SHOWS, H_STREET, H_TABLE_A, H_TABLE_B, H_SEAT_COUNT, H_BUTTON, H_TOTAL, H_RAKE, H_FEES,
 H_BIGS, H_SMALLS, H_BIG_POSTED, H_HOLE, H_BIG_BLIND, H_DEALT, H_WHY, H_BOARD) = range(19)  # fmt: skip
# why a hand is the Python reader's (``H_WHY``): the place of the line this module cannot read, or
WHY_FIRST_LINE, WHY_KIND, WHY_ID, WHY_SEATS, WHY_CHECK, WHY_NUMBER = -1, -2, -3, -4, -5, -6
HAND_FIELDS = H_BOARD + 4
# what follows a name at a line's start (``stars_family.Body.names``)
COLON, COLLECTS, CASHES, SHOWS = range(4)
SCRATCH = MAX_SHOWS  # the row of ``Work.show_cards`` cards are read into


class Tables(NamedTuple):
    """What the Python side gives (``stars_headers``): each kind of header's PHH pieces (spans of
    ``text``: ``parts[info, part]``) and whether the kernel may take its hands with how many hole
    cards (``info[info] = usable, hole cards``); the time zones' abbreviations and names; the
    literals whose lines the Python reader ignores (``stars_family._IGNORED``)."""

    text: np.ndarray
    info: np.ndarray  # (infos, 4): usable, hole cards, min_bet as posted, the big blind in units
    parts: np.ndarray  # (infos, parts, 2)
    zone_abbreviations: np.ndarray  # (zones, 8)
    zone_lengths: np.ndarray
    zone_names: np.ndarray  # (zones, 2): spans of text
    ignored: np.ndarray  # (rules, 2, 40): each rule's two literals
    ignored_rules: np.ndarray  # (rules, 3): its kind (``stars_headers.IGNORED``), the literals' lengths
    longest_zone: int  # bytes of the longest zone name


class Work(NamedTuple):
    """One hand as read (``reset`` for each)."""

    seat: np.ndarray  # (SEAT_ROWS, MAX_SEATS)
    known: np.ndarray  # (MAX_SEATS, CARD_BYTES): the hole cards the file shows, as PHH writes them
    move: np.ndarray  # (4, MAX_MOVES)
    show: np.ndarray  # (2, MAX_SHOWS): the seat, its cards' length (0: mucked)
    show_cards: np.ndarray  # (MAX_SHOWS + 1, CARD_BYTES)
    board: np.ndarray  # (4, CARD_BYTES)
    hand: np.ndarray  # (HAND_FIELDS,)
    order: np.ndarray  # (MAX_SEATS,): the dealt seats in PHH order


def new_work() -> Work:
    """Room for one hand."""
    return Work(np.zeros((SEAT_ROWS, MAX_SEATS), np.int64), np.zeros((MAX_SEATS, CARD_BYTES), np.uint8),
                np.zeros((4, MAX_MOVES), np.int64), np.zeros((2, MAX_SHOWS), np.int64),
                np.zeros((MAX_SHOWS + 1, CARD_BYTES), np.uint8), np.zeros((4, CARD_BYTES), np.uint8),
                np.zeros(HAND_FIELDS, np.int64), np.zeros(MAX_SEATS, np.int64))  # fmt: skip


@njit(cache=True)
def reset(w, hole, big_blind) -> None:
    w.seat[:, :] = 0
    w.seat[S_KNOWN, :] = -1
    w.seat[S_BOUNTY_D, :] = -1
    w.seat[S_PLACE, :] = -1
    w.hand[:] = 0
    w.hand[H_TABLE_A], w.hand[H_TABLE_B], w.hand[H_BUTTON], w.hand[H_TOTAL] = -1, -1, -1, -1
    w.hand[H_BIG_POSTED] = -1
    w.hand[H_BOARD : H_BOARD + 4] = -1
    w.hand[H_HOLE], w.hand[H_BIG_BLIND] = hole, big_blind


@njit(cache=True, inline="always")
def line_end(buf, p, e) -> int:
    while p < e and buf[p] != 10:
        p += 1
    return p


@njit(cache=True)
def amount_group(buf, q, e, lit):
    """``(AMOUNT)`` followed by ``lit`` at ``q`` as ``stars_family._AMOUNT`` matches it (bytes
    other than white space and ``()|``, the last of them digits, commas and points with a digit,
    then maybe a currency code): (where its bytes end before a code, where ``lit`` ends); -1 when it
    does not match, -2 when a byte past ASCII leaves it open."""
    r = q
    while r < e:
        x = buf[r]
        if x == SPACE or 9 <= x <= 13 or 28 <= x <= 31 or x == 40 or x == 41 or x == 124:
            break
        if x >= 128:
            size = symbol(buf, r, e)
            if size == 0:
                return -2, -2
            r += size
        else:
            r += 1
    t, digits = r, False
    while t > q and (48 <= buf[t - 1] <= 57 or buf[t - 1] == 44 or buf[t - 1] == 46):
        digits = digits or (buf[t - 1] != 44 and buf[t - 1] != 46)
        t -= 1
    if not digits:
        return -1, -1
    if at(buf, r, e, lit):
        return r, r + len(lit)
    c = code_end(buf, r, e)
    if c > r and at(buf, c, e, lit):
        return r, c + len(lit)
    return -1, -1


@njit(cache=True)
def exact_amount(buf, q, r):
    """(units, digits, decimals, ok) of the amount that is all of ``buf[q:r]`` (``text.amount``)."""
    end, units, mantissa, decimals = amount(buf, q, r)
    return units, mantissa, decimals, end == r and end > 0


@njit(cache=True)
def seat_named(buf, a, b, w) -> int:
    """The seat named ``buf[a:b]``, or -1."""
    for s in range(w.hand[H_SEATS]):
        if same(buf, a, b, w.seat[S_NAME_A, s], w.seat[S_NAME_B, s]):
            return s
    return -1
