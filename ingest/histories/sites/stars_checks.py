"""A PokerStars-family hand read (``stars_lines``) held against what the Python reader checks before it
writes PHH: who was dealt in and in what order, the boards its moves need, names written as they are,
and the file's own arithmetic (``site_hand.arithmetic_notes``: any note makes the hand the Python
reader's, which writes it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ingest.histories.sites.stars_bytes import (
    writable,
)
from ingest.histories.sites.stars_hand import (
    CALL,
    FOLD,
    H_BIG_BLIND,
    H_BIGS,
    H_BOARD,
    H_BUTTON,
    H_DEALT,
    H_FEES,
    H_MOVES,
    H_RAKE,
    H_SEATS,
    H_SMALLS,
    H_STREET,
    H_TABLE_A,
    H_TABLE_B,
    H_TOTAL,
    M_SEAT,
    M_STREET,
    M_UNITS,
    M_VERB,
    RAISE,
    S_ANTE,
    S_BET,
    S_BLIND,
    S_COLLECTED,
    S_FOLDED,
    S_KNOWN,
    S_LAST_BET,
    S_LEFT,
    S_NAME_A,
    S_NAME_B,
    S_NUMBER,
    S_OUT,
    S_PLACE,
    S_PLAYS,
    S_PUT,
    S_RETURNED,
    S_RULES_BET,
    S_RULES_PUT,
    S_STACK,
    S_STREET_BET,
)


@njit(cache=True)
def finish(buf, w) -> bool:
    """After the lines: who was dealt in and in what order (``SiteHand.dealt``), the boards the
    moves need, names that may be written as they are, and the file's own arithmetic."""
    n = w.hand[H_SEATS]
    dealt = 0
    for s in range(n):
        w.seat[S_OUT, s] = w.seat[S_OUT, s] and not w.seat[S_PLAYS, s]  # ``_seated_out_but_playing``
        if not w.seat[S_OUT, s]:
            k = dealt
            while k > 0 and w.seat[S_NUMBER, w.order[k - 1]] > w.seat[S_NUMBER, s]:
                w.order[k] = w.order[k - 1]
                k -= 1
            w.order[k] = s
            dealt += 1
    if dealt < 2:
        return False
    button = w.hand[H_BUTTON] if w.hand[H_BUTTON] >= 0 else w.seat[S_NUMBER, w.order[dealt - 1]]
    first = 0
    while first < dealt and w.seat[S_NUMBER, w.order[first]] <= button:
        first += 1
    rotated = np.empty(dealt, np.int64)
    for k in range(dealt):
        rotated[k] = w.order[(first + k) % dealt]
    for k in range(dealt):
        s = rotated[k]
        w.order[k], w.seat[S_PLACE, s] = s, k
        if w.seat[S_KNOWN, s] == 0 or not writable(buf, w.seat[S_NAME_A, s], w.seat[S_NAME_B, s]):
            return False
    w.hand[H_DEALT] = dealt
    if w.hand[H_TABLE_A] >= 0 and not writable(buf, w.hand[H_TABLE_A], w.hand[H_TABLE_B]):
        return False
    for street in range(1, w.hand[H_STREET] + 1):
        if w.hand[H_BOARD + street] <= 0:
            return False  # a street's cards missing (``to_phh._board``)
    for m in range(w.hand[H_MOVES]):
        if w.seat[S_PLACE, w.move[M_SEAT, m]] < 0:
            return False
    return _agrees(w)


@njit(cache=True)
def _agrees(w) -> bool:
    """Whether the file agrees with itself (``site_hand.arithmetic_notes`` finds nothing): its total
    pot is its bets (``contributions``: a raise sets the street's bet, a call adds to it) less the
    bets returned (written, or not: ``_unwritten_return``); each player put in what the replay has
    him put in (``_rules_agree``); what was collected, the rake and the fees add up to the pot."""
    n = w.hand[H_SEATS]
    for s in range(n):
        w.seat[S_BET, s] = w.seat[S_BLIND, s]
        w.seat[S_BET + 1 : S_BET + 4, s] = 0
    for m in range(w.hand[H_MOVES]):
        row, s = S_BET + w.move[M_STREET, m], w.move[M_SEAT, m]
        if w.move[M_VERB, m] == RAISE:
            w.seat[row, s] = w.move[M_UNITS, m]
        else:
            w.seat[row, s] += w.move[M_UNITS, m]
    pot, collected = 0, 0
    for s in range(n):
        w.seat[S_PUT, s] = w.seat[S_ANTE, s] - w.seat[S_RETURNED, s]
        for street in range(4):
            w.seat[S_PUT, s] += w.seat[S_BET + street, s]
        collected += w.seat[S_COLLECTED, s]
    _unwritten_return(w)
    for s in range(n):
        pot += w.seat[S_PUT, s]
    total = w.hand[H_TOTAL]
    if total >= 0 and (total != pot or collected + w.hand[H_RAKE] + w.hand[H_FEES] != total):
        return False
    return _rules_agree(w)


@njit(cache=True)
def _unwritten_return(w) -> None:
    """``site_hand._unwritten_return``: the part of the last street's largest bet nobody matched that
    the file does not say was returned comes back (the last street: the latest with a blind, a call
    or a bet)."""
    last = 0 if w.hand[H_BIGS] + w.hand[H_SMALLS] > 0 else -1
    for m in range(w.hand[H_MOVES]):
        if w.move[M_VERB, m] != FOLD:
            last = max(last, w.move[M_STREET, m])
    if last < 0:
        return
    top, matched, bettor = _top_two(w, S_BET + last)
    unwritten = top - matched - w.seat[S_RETURNED, bettor]
    if unwritten > 0:
        w.seat[S_PUT, bettor] -= unwritten


@njit(cache=True)
def _top_two(w, row):
    """(the largest, the second largest (0 when none), the seat of the largest) of a seat row."""
    top, matched, bettor = 0, 0, -1
    for s in range(w.hand[H_SEATS]):
        bet = w.seat[row, s]
        if bettor < 0 or bet > top:
            matched = top if bettor >= 0 else 0
            top, bettor = bet, s
        elif bet > matched:
            matched = bet
    return top, matched, bettor


@njit(cache=True)
def _pay(w, s, value, bet) -> None:
    """``rules_contributions.pay``: at most what seat s has left, into the pot (and its bet)."""
    paid = min(max(value, 0), w.seat[S_LEFT, s])
    w.seat[S_LEFT, s] -= paid
    w.seat[S_RULES_PUT, s] += paid
    if bet:
        w.seat[S_RULES_BET, s] += paid


@njit(cache=True)
def _rules_agree(w) -> bool:
    """``site_hand.rules_contributions`` (what the replay has each player put in: a call matches the
    street's highest bet, a call above every bet is a bet, every payment stops at the stack, the last
    street's bet nobody matched comes back) equal to each seat's put by the file."""
    n = w.hand[H_SEATS]
    for s in range(n):
        if w.seat[S_ANTE, s] + w.seat[S_BLIND, s] > w.seat[S_STACK, s]:
            return False  # a post cut short: which one is the order of the lines' (the Python reader's)
        w.seat[S_LEFT, s] = 0 if w.seat[S_OUT, s] else w.seat[S_STACK, s]
        w.seat[S_RULES_PUT, s], w.seat[S_RULES_BET, s] = 0, 0
        _pay(w, s, w.seat[S_ANTE, s], False)
        _pay(w, s, w.seat[S_BLIND, s], True)
        w.seat[S_STREET_BET, s] = w.seat[S_BLIND, s]  # ``forced_bets``
    w.seat[S_LAST_BET] = w.seat[S_RULES_BET]
    street = 0
    for m in range(w.hand[H_MOVES]):
        s, verb, units = w.move[M_SEAT, m], w.move[M_VERB, m], w.move[M_UNITS, m]
        if w.move[M_STREET, m] != street:
            street = w.move[M_STREET, m]
            w.seat[S_RULES_BET], w.seat[S_STREET_BET] = 0, 0
        above = bet_after(w, s, verb, units, street)
        if above >= 0 and not _others_with_chips(w, s):
            return False  # the Python reader writes that call a call (``to_phh._others_with_chips``)
        if verb == RAISE or above >= 0:
            _pay(w, s, (units if above < 0 else above) - w.seat[S_RULES_BET, s], True)
        elif verb == CALL:
            _pay(w, s, _top_two(w, S_RULES_BET)[0] - w.seat[S_RULES_BET, s], True)
        for t in range(n):
            if w.seat[S_RULES_BET, t] > 0:
                w.seat[S_LAST_BET] = w.seat[S_RULES_BET]
                break
    top, second, bettor = _top_two(w, S_LAST_BET)
    w.seat[S_RULES_PUT, bettor] -= top - second
    for s in range(n):  # noqa: SIM110 (numba: no generators)
        if w.seat[S_RULES_PUT, s] != w.seat[S_PUT, s]:
            return False
    return True


@njit(cache=True)
def _others_with_chips(w, s) -> bool:
    """Whether a seat besides s that never folds has chips left (seats folding later count as gone:
    a hand this leaves out goes to the Python reader, which looks move by move)."""
    for t in range(w.hand[H_SEATS]):
        if t != s and not w.seat[S_FOLDED, t] and not w.seat[S_OUT, t] and w.seat[S_LEFT, t] > 0:
            return True
    return False


@njit(cache=True)
def bet_after(w, s, verb, units, street) -> int:
    """``site_hand.bet_after`` over ``S_STREET_BET`` (the street's bets as the file writes them): the
    bet a call makes when every bet so far is short of the big blind before the flop (``owed_on``:
    its poster all in for less) and it puts in more (PHH writes it ``cbr``), else -1."""
    if verb == RAISE:
        w.seat[S_STREET_BET, s] = units
    elif verb == CALL:
        highest = 0
        for t in range(w.hand[H_SEATS]):
            if t != s:
                highest = max(highest, w.seat[S_STREET_BET, t])
        w.seat[S_STREET_BET, s] += units
        owed = w.hand[H_BIG_BLIND] if street == 0 else 0
        if highest < w.seat[S_STREET_BET, s] and highest < owed:
            return w.seat[S_STREET_BET, s]
    return -1
