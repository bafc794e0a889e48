"""The summary of a PokerStars-family hand read by compiled code (``stars_family.Body._summary_line``):
its total pot with the rake and fees, and the cards a seat showed.
"""

from __future__ import annotations

from numba import njit

from ingest.histories.sites.stars_actions import completed_show, first_amount
from ingest.histories.sites.stars_bytes import (
    SPACE,
    amount,
    at,
    cards,
    find,
    literal,
    token_end,
    whole,
)
from ingest.histories.sites.stars_hand import (
    H_FEES,
    H_RAKE,
    H_TOTAL,
    S_KNOWN,
    S_PLAYS,
    SCRATCH,
    amount_group,
    exact_amount,
    seat_named,
)

_SEAT, _COLON_SPACE = literal("Seat "), literal(": ")
_TOTAL, _RAKE = literal("Total pot "), literal(" Rake ")
_FEES = (literal(" Jackpot contribution "), literal(" Jackpot "), literal(" Bingo "), literal(" Fortune "),
         literal(" Tax "), literal(" JP Fee "))  # fmt: skip


@njit(cache=True)
def summary_line(buf, a, e, w) -> bool:
    """A summary line: the total pot and its fees, or a seat's shown cards; others say nothing."""
    if at(buf, a, e, _TOTAL):
        return _total(buf, a + len(_TOTAL), e, w)
    if at(buf, a, e, _SEAT):
        return _summary_seat(buf, a + len(_SEAT), e, w)
    return True


@njit(cache=True)
def _total(buf, p, e, w) -> bool:
    """``Total pot X[ ...] | Rake Y | Jackpot Z ...`` (``Body._TOTAL``, ``_FEE``)."""
    end, units, _, _ = amount(buf, p, e)
    if end < 0 or not token_end(buf, end, e) or w.hand[H_TOTAL] >= 0:
        return False
    w.hand[H_TOTAL] = units
    for i in range(end, e):
        if buf[i] != 124:
            continue
        rake = at(buf, i + 1, e, _RAKE)
        size = len(_RAKE) if rake else 0
        for lit in _FEES:
            if size == 0 and at(buf, i + 1, e, lit):
                size = len(lit)
        if size == 0:
            return False  # a ``|`` that is no fee: the Python reader's
        fee = first_amount(buf, i + 1 + size, e)
        if fee < 0:
            return False
        w.hand[H_RAKE if rake else H_FEES] += fee
    return True


_SUMMARY_NAME_ENDS = (literal(" ("), literal(" showed"), literal(" mucked"), literal(" folded"),
                      literal(" collected"), literal(" won"), literal(" lost"), literal(" did"))  # fmt: skip


@njit(cache=True)
def _names_end(buf, q, e) -> bool:
    """Whether a summary seat line's name may end at the space ``q`` (`` (``, `` showed``...)."""
    x = buf[q + 1]
    if not (x == 40 or x == 115 or x == 109 or x == 102 or x == 99 or x == 119 or x == 108 or x == 100):
        return False
    for lit in _SUMMARY_NAME_ENDS:  # noqa: SIM110 (numba: no generators)
        if at(buf, q, e, lit):
            return True
    return False


@njit(cache=True)
def _first_of(buf, p, e, one, other) -> int:
    """Where ``one`` or ``other`` (of one length) first starts in ``buf[p:e]``, or -1."""
    a, b = find(buf, p, e, one), find(buf, p, e, other)
    return b if a < 0 else a if b < 0 else min(a, b)


_SHOWED, _MUCKED = literal("showed ["), literal("mucked [")


@njit(cache=True)
def _summary_seat(buf, p, e, w) -> bool:
    """``Seat N: NAME ... showed [cards] ...``: a seat's cards not known before become known."""
    i, _ = whole(buf, p, e, 12)
    if i == -2:
        return False
    if i < 0 or not at(buf, i, e, _COLON_SPACE):
        return True
    name, name_end = i + 2, -1
    for q in range(name + 1, e - 1):
        if buf[q] == SPACE and _names_end(buf, q, e):
            name_end = q
            break
    if name_end >= 0 and not _won_amount(buf, p - len(_SEAT), e):
        return False
    shown = _first_of(buf, p - len(_SEAT), e, _SHOWED, _MUCKED)
    if shown >= 0 and find(buf, shown + len(_SHOWED), e, _CLOSE) < 0:
        shown = -1  # (after a ``showed [`` with no ``]``, none has one)
    shown = shown + len(_SHOWED) if shown >= 0 else -1
    if name_end < 0 or shown < 0:
        return True
    s = seat_named(buf, name, name_end, w)
    if s < 0:
        return True
    close = find(buf, shown, e, _CLOSE)
    a = shown
    while a < close and buf[a] == 91:
        a += 1
    n = cards(buf, a, close, w.show_cards, SCRATCH)
    if n < 0:
        return False
    size = completed_show(w, s, n)
    if size < 0:
        return False
    if w.seat[S_KNOWN, s] < 0:
        w.known[s, :size] = w.show_cards[SCRATCH, :size]
        w.seat[S_KNOWN, s], w.seat[S_PLAYS, s] = size, 1
    return True


_CLOSE = literal("]")
_WON, _COLLECTED_OPEN, _CLOSE_PAREN = literal("won ("), literal("collected ("), literal(")")


@njit(cache=True)
def _won_amount(buf, a, e) -> bool:
    """Whether the first ``won (X)`` or ``collected (X)`` of a summary seat line (``Body._SUMMARY_WON``)
    holds an amount ``text.amount`` reads (the Python reader refuses the hand when it does not)."""
    q = a
    while q < e:
        won, collected = find(buf, q, e, _WON), find(buf, q, e, _COLLECTED_OPEN)
        if won < 0 and collected < 0:
            return True
        q = won if collected < 0 or 0 <= won < collected else collected
        start = q + (len(_WON) if q == won else len(_COLLECTED_OPEN))
        run, _ = amount_group(buf, start, e, _CLOSE_PAREN)
        if run == -2:
            return False
        if run >= 0:
            return exact_amount(buf, start, run)[3]
        q += 1
    return True
