"""Compiled writing of simulated hands as PHH text: every hand of a batch in one call.

``hand_texts`` writes what ``write_hand`` writes for a betting-mode hand: the run's header
(the same for every hand), its actions one quoted string a line, its finishing stacks, its
number and the players line, straight into one byte buffer with Arrow's string offsets. The
records are the compiled loop's (``engine.compiled.hand_state``'s layout); a card's text comes
from a table of the deck's card texts (``card_table``), so any deck writes its own cards.

>>> import numpy as np
>>> from engine.rules.games import GAMES
>>> data, at = card_table(GAMES["holdem"].deck)
>>> bytes(data[at[51 + 2] : at[51 + 3]]).decode(), bytes(data[at[0] : at[1]]).decode()
('As', '??')
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pyarrow as pa
from numba import njit

from engine.compiled.hand_state import (
    BET,
    DEAL,
    DISCARD,
    DRAW,
    MUCK,
    R_AMOUNT,
    R_AUTOMATIC,
    R_BOARD,
    R_CARDS,
    R_KIND,
    R_SEAT,
    RAISE,
    SHOW,
)
from engine.hands.borrowed import borrowed

NEWLINE, SPACE, SLASH, MINUS, LETTER_P = 10, 32, 47, 45, 112


def _ascii(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("ascii"), np.uint8).copy()


# the fixed pieces of a hand's text (numba keeps global arrays as constants)
ACTIONS_OPEN, ACTIONS_CLOSE = _ascii("actions = [\n"), _ascii("]\n")
LINE_OPEN, LINE_CLOSE = _ascii('  "'), _ascii('",\n')
FINISHING, NUMBER, COMMA_SPACE = _ascii("finishing_stacks = ["), _ascii("hand = "), _ascii(", ")
DEAL_BOARD, DEAL_HOLE = _ascii("d db "), _ascii("d dh ")
# what follows "pN" for each action kind, in ``ACTION_KINDS`` order (post, fold, check, call, bet,
# raise, discard, deal, show, muck, bring_in, draw); deals are written apart, and a draw's cards
# after a space (a seat that stands pat writes none)
KIND_WORDS = ("", " f", " cc", " cc", " cbr ", " cbr ", " sd ", "", "", "", " pb", " sd")


class Fixed(NamedTuple):
    """The text every hand shares: ``header`` (the run's fields), ``players`` (its players line),
    and the words after each action kind (``words[k, :word_lengths[k]]``)."""

    header: np.ndarray
    players: np.ndarray
    words: np.ndarray
    word_lengths: np.ndarray


def card_table(deck) -> tuple[np.ndarray, np.ndarray]:
    """The deck's card texts as bytes: card c (``-2``: a card nobody saw, ``??``; ``-1``: none)
    is ``data[at[c + 2]:at[c + 3]]``."""
    texts = [b"??", b""] + [deck.card_text(c).encode("utf-8") for c in range(deck.size)]
    at = np.zeros(len(texts) + 1, np.int64)
    np.cumsum([len(t) for t in texts], out=at[1:])
    return np.frombuffer(b"".join(texts), np.uint8).copy(), at


def fixed_text(header: str, players_line: str) -> Fixed:
    """``Fixed`` for a header and a players line."""
    words = np.zeros((len(KIND_WORDS), max(len(w) for w in KIND_WORDS)), np.uint8)
    for k, word in enumerate(KIND_WORDS):
        words[k, : len(word)] = np.frombuffer(word.encode(), np.uint8)
    header_bytes = np.frombuffer(header.encode("utf-8"), np.uint8).copy()
    players_bytes = np.frombuffer(players_line.encode("utf-8"), np.uint8).copy()
    return Fixed(header_bytes, players_bytes, words, np.array([len(w) for w in KIND_WORDS], np.int64))


def hand_texts(records: np.ndarray, record_cards: np.ndarray, hand_start: np.ndarray, finishing: np.ndarray,
               first: int, fixed: Fixed, cards: tuple[np.ndarray, np.ndarray],
               boards: int) -> pa.Array:  # fmt: skip
    """The PHH text of each hand (hand h's records ``records[hand_start[h]:hand_start[h + 1]]``,
    numbered ``first + h + 1``, ``finishing`` its stacks), as an Arrow string array."""
    count, seats = finishing.shape
    _check_records(records, hand_start, count, boards)
    longest_card = int(np.diff(cards[1]).max())
    per_record = 48 + max(boards, 1) * (record_cards.shape[1] * longest_card + 1)
    per_hand = len(fixed.header) + len(fixed.players) + 64 + 23 * seats
    out = np.empty(per_hand * count + per_record * len(records), np.uint8)
    offsets = np.zeros(count + 1, np.int64)
    _write_hands((records, record_cards, hand_start, finishing), first, fixed, cards, boards, out, offsets)
    if offsets[-1] >= 2**31:
        raise OverflowError(f"{count} hands' PHH text is over 2 GiB: write fewer hands at a time")
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets.astype(np.int32)),
                                       pa.py_buffer(out[: offsets[-1]]))  # fmt: skip


def _check_records(records: np.ndarray, hand_start: np.ndarray, count: int, boards: int) -> None:
    """What the kernel reads without checking: one start per hand and the end, betting-mode kinds
    only, and every board's deal after the first board's."""
    if len(hand_start) != count + 1 or hand_start[-1] > len(records):
        raise ValueError(f"{count} hands need {count + 1} record starts within the records")
    kinds = records[: hand_start[-1], R_KIND]
    if ((kinds == SHOW) | (kinds == MUCK)).any():
        raise ValueError("betting mode records no show or muck")
    first_boards = np.flatnonzero((kinds == DEAL) & (records[: hand_start[-1], R_BOARD] == 0))
    if len(first_boards) and first_boards[-1] + boards > hand_start[-1]:
        raise ValueError("a board deal without the deals of the other boards after it")


@njit(cache=True, nogil=True)  # (on a simulation's writer thread, beside the dealing kernel)
def _write_hands(hands, first, fixed, cards, boards, out, offsets) -> None:
    """Each hand's text one after another in ``out``; hand h from ``offsets[h]`` to ``offsets[h + 1]``
    (``hands``: records, their cards, each hand's first record, finishing stacks)."""
    records, record_cards, hand_start, finishing = borrowed(hands)  # the caller holds them all
    header, players, words, word_lengths = borrowed(fixed)
    card_data, card_at = borrowed(cards)
    out, offsets = borrowed((out, offsets))
    n = 0
    for h in range(len(finishing)):
        n = _put(out, n, header, 0, len(header))
        n = _put(out, n, ACTIONS_OPEN, 0, len(ACTIONS_OPEN))
        for r in range(hand_start[h], hand_start[h + 1]):
            if records[r, R_AUTOMATIC] == 0 and not (records[r, R_KIND] == DEAL and records[r, R_BOARD] > 0):
                n = _put(out, n, LINE_OPEN, 0, len(LINE_OPEN))
                n = _put_action(
                    out, n, records, record_cards, r, (words, word_lengths), (card_data, card_at), boards
                )
                n = _put(out, n, LINE_CLOSE, 0, len(LINE_CLOSE))
        n = _put(out, n, ACTIONS_CLOSE, 0, len(ACTIONS_CLOSE))
        n = _put(out, n, FINISHING, 0, len(FINISHING))
        for s in range(finishing.shape[1]):
            if s > 0:
                n = _put(out, n, COMMA_SPACE, 0, len(COMMA_SPACE))
            n = _put_int(out, n, finishing[h, s])
        n = _put(out, n, ACTIONS_CLOSE, 0, len(ACTIONS_CLOSE))
        n = _put(out, n, NUMBER, 0, len(NUMBER))
        n = _put_int(out, n, first + h + 1)
        out[n] = NEWLINE
        n = _put(out, n + 1, players, 0, len(players))
        offsets[h + 1] = n


@njit(cache=True)  # not inlined: it calls inlined functions (docs/architecture.md)
def _put_action(out, n, records, record_cards, r, kind_words, cards, boards) -> int:
    """Record r's action (automatic records and the deals of boards past the first write no line:
    the first board's deal is ``d db`` with every board's cards, joined by ``/``)."""
    (words, word_lengths), (card_data, card_at) = kind_words, cards
    kind, seat = records[r, R_KIND], records[r, R_SEAT]
    if kind == DEAL and records[r, R_BOARD] == 0:
        n = _put(out, n, DEAL_BOARD, 0, len(DEAL_BOARD))
        for b in range(boards):
            if b > 0:
                out[n] = SLASH
                n += 1
            n = _put_cards(out, n, record_cards, r + b, card_data, card_at)
    elif kind == DEAL:
        n = _put(out, n, DEAL_HOLE, 0, len(DEAL_HOLE))
        n = _put_seat(out, n, seat)
        out[n] = SPACE
        n = _put_cards(out, n + 1, record_cards, r, card_data, card_at)
    else:
        n = _put_seat(out, n, seat)
        for i in range(word_lengths[kind]):
            out[n] = words[kind, i]
            n += 1
        if kind in (BET, RAISE):
            n = _put_int(out, n, records[r, R_AMOUNT])
        elif kind == DISCARD:
            n = _put_cards(out, n, record_cards, r, card_data, card_at)
        elif kind == DRAW and records[r, R_CARDS] > 0:
            out[n] = SPACE
            n = _put_cards(out, n + 1, record_cards, r, card_data, card_at)
    return n


@njit(cache=True)  # not inlined: it calls inlined functions (docs/architecture.md)
def _put_seat(out, n, seat) -> int:
    """``p`` and the seat's number from 1 (nothing for a record of no seat)."""
    if seat < 0:
        return n
    out[n] = LETTER_P
    return _put_int(out, n + 1, seat + 1)


@njit(cache=True)  # not inlined: it calls inlined functions (docs/architecture.md)
def _put_cards(out, n, record_cards, r, card_data, card_at) -> int:
    """The texts of record r's cards, one after another (-1: no card)."""
    for j in range(record_cards.shape[1]):
        card = record_cards[r, j]
        if card != -1:
            n = _put(out, n, card_data, card_at[card + 2], card_at[card + 3])
    return n


@njit(cache=True, inline="always")
def _put(out, n, source, start, end) -> int:
    """``source[start:end]`` into ``out`` from n. (Its own copy, not ``scan_kernel``'s: numba's cache
    notices changes to this file and to the engine only, so a compiled helper from another ingest
    module would go stale here.)"""
    for i in range(start, end):
        out[n] = source[i]
        n += 1
    return n


@njit(cache=True, inline="always")
def _put_int(out, n, value) -> int:
    """An integer in decimal, as ``str`` writes it."""
    if value < 0:
        out[n] = MINUS
        n += 1
        value = -value
    digits, scale = 1, 10
    while scale <= value and digits < 19:
        digits, scale = digits + 1, scale * 10
    for place in range(digits - 1, -1, -1):
        out[n] = 48 + (value // 10**place) % 10
        n += 1
    return n
