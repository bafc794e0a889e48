"""Compiled showdowns of betting-mode and replayed hands: side pots, then the rules core, per hand.

``settle_hands`` does for a chunk of hands what ``HandState.finish`` does for one:
pots built on live bets with the antes as dead money (``engine.rules.pots.pots_with_antes``),
then each pot divided by the game's shares (``engine.compiled.core.divide_pot``). Odd chips go as
the Python rules give them. A test replays every hand through the state machine and
compares the rows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.compiled.core import (
    NO_VALUE,
    PotWinnings,
    SeatScratch,
    award,
    best_of,
    board_key_of,
    divide_pot,
    seat_lows,
    seat_strength,
    surviving,
)
from engine.hands.borrowed import borrowed


@njit(cache=True, inline="always")
def _next_level(values, folded, live, previous, ante_only) -> int:
    """The smallest value above ``previous`` of a seat still in (``ante_only``: with no live chips)."""
    level = -1
    for s in range(values.shape[0]):
        v = values[s]
        if not folded[s] and (not ante_only or live[s] == 0) and v > previous and (level < 0 or v < level):
            level = v
    return level


@njit(cache=True)
def build_pots(contributed, antes_paid, folded, amounts, eligible) -> int:
    """``pots_with_antes`` into ``amounts`` and ``eligible`` (pot, seat); returns the pot count."""
    n = contributed.shape[0]
    live = contributed - antes_paid
    count = 0
    # pots of the antes up to each ante-only all-in player's own ante
    previous = 0
    ante_pots = 0
    ante_total = 0
    while True:
        level = _next_level(antes_paid, folded, live, previous, True)
        if level < 0:
            break
        amount = 0
        for s in range(n):
            amount += min(antes_paid[s], level) - min(antes_paid[s], previous)
            eligible[count, s] = not folded[s] and (live[s] > 0 or antes_paid[s] >= level)
        amounts[count] = amount
        ante_total += amount
        count += 1
        ante_pots += 1
        previous = level
    # pots on live bets
    previous = 0
    while True:
        level = _next_level(live, folded, live, previous, False)
        if level < 0:
            break
        amount = 0
        for s in range(n):
            amount += min(live[s], level) - min(live[s], previous)
            eligible[count, s] = not folded[s] and live[s] >= level
        amounts[count] = amount
        count += 1
        previous = level
    left_over = 0
    for s in range(n):
        left_over += live[s] - min(live[s], previous)
    if left_over:
        if count > ante_pots:
            amounts[count - 1] += left_over
        else:
            amounts[count] = left_over
            eligible[count, :] = False
            count += 1
    rest = antes_paid.sum() - ante_total
    if count > ante_pots:
        amounts[ante_pots] += rest
    elif ante_pots:
        amounts[ante_pots - 1] += rest
    else:
        amounts[0] = rest
        for s in range(n):
            eligible[0, s] = not folded[s]
        count = 1
    return join_unclaimed(amounts, eligible, count)


@njit(cache=True, inline="always")
def join_unclaimed(amounts, eligible, count) -> int:
    """``engine.rules.pots.join_unclaimed``: a pot nobody can win joins the next smaller one; the new
    count."""
    kept = 0
    carried = 0
    for p in range(count):
        if eligible[p].any():
            amounts[kept] = amounts[p] + carried
            eligible[kept] = eligible[p]
            carried = 0
            kept += 1
        elif kept:
            amounts[kept - 1] += amounts[p]
        else:
            carried += amounts[p]
    return kept if kept else count


@njit(cache=True, inline="always")
def claimants(eligible, contender, muck_order, among) -> int:
    """``engine.rules.pots.claimants`` into ``among``: who may win a pot; returns how many contend."""
    live = 0
    unmucked = 0
    last = -1
    for s in range(eligible.shape[0]):
        among[s] = eligible[s] and contender[s]
        live += among[s]
        unmucked += eligible[s] and muck_order[s] == 0
        if eligible[s] and (last < 0 or muck_order[s] > muck_order[last]):
            last = s
    if live == 0:
        for s in range(eligible.shape[0]):
            among[s] = eligible[s] and muck_order[s] == 0 if unmucked else s == last
    return live


class HandsAtShowdown(NamedTuple):
    """Hands as they reach the showdown, one row per hand (seats past a hand's table are folded).

    ``showdown[h]``: settle hand h. ``muck_order`` is 0, or k for the k-th muck: a seat that mucked
    wins a pot only when every claimant of it mucked, the last alone.
    """

    showdown: np.ndarray  # (hands,) bool
    contributed: np.ndarray  # (hands, seats)
    antes_paid: np.ndarray  # (hands, seats)
    folded: np.ndarray  # (hands, seats) bool: out of the pots
    muck_order: np.ndarray  # (hands, seats)
    hole: np.ndarray  # (hands, seats, cards)
    hole_n: np.ndarray  # (hands, seats)
    boards: np.ndarray  # (hands, boards, cards)
    board_n: np.ndarray  # (hands, boards)


class Settlement(NamedTuple):
    """What ``settle_hands`` writes, one row per hand; every array starts at zero but ``strength``
    and ``low`` (-1: no showdown hand). ``survivors`` is a bit mask of the surviving boards."""

    won: np.ndarray
    strength: np.ndarray
    low: np.ndarray
    won_high: np.ndarray
    won_low: np.ndarray
    board_won: np.ndarray
    triple: np.ndarray
    survivors: np.ndarray
    split: np.ndarray


class SettleWork(NamedTuple):
    """One hand's pots and seats while it is settled."""

    amounts: np.ndarray  # (pots,) chips of each pot
    eligible: np.ndarray  # (pots, seats) bool
    contender: np.ndarray  # (seats,) bool: in, and not mucked
    among: np.ndarray  # (seats,) bool: a pot's claimants
    per_board: np.ndarray  # (boards, seats) each seat's hand on each board
    alive: np.ndarray  # (boards,) bool: the board survives
    last: np.ndarray  # (boards,) each board's last card
    hole_keys: np.ndarray  # (seats,)
    board_keys: np.ndarray  # (boards,)
    holding: np.ndarray  # (seats,) bool: holds a hand
    scratch: SeatScratch


@njit(cache=True)
def _settle_work(n, n_boards) -> SettleWork:
    scratch = SeatScratch(np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64))
    return SettleWork(
        np.zeros(2 * n + 2, np.int64), np.zeros((2 * n + 2, n), np.bool_), np.zeros(n, np.bool_),
        np.zeros(n, np.bool_), np.full((n_boards, n), NO_VALUE, np.int64), np.zeros(n_boards, np.bool_),
        np.zeros(n_boards, np.int64), np.zeros(n, np.int64), np.zeros(n_boards, np.int64),
        np.zeros(n, np.bool_), scratch,
    )  # fmt: skip


@njit(cache=True)
def _seat_hands(h, hands, rules, out, work, first) -> None:
    """Each contender's hand on each community board, its points, the surviving boards, the lows."""
    n, n_boards = hands.contributed.shape[1], hands.boards.shape[1]
    hole_n, board_n = hands.hole_n[h], hands.board_n[h]
    for s in range(n):  # each seat's hole cards as a key, once a hand
        work.hole_keys[s] = board_key_of(hands.hole[h, s], hole_n[s])
    for b in range(n_boards):
        work.last[b] = hands.boards[h, b, max(board_n[b] - 1, 0)]
        work.board_keys[b] = board_key_of(hands.boards[h, b], board_n[b])
        for s in range(n):
            work.per_board[b, s] = NO_VALUE
            if rules.community[b] and work.contender[s] and hole_n[s] > 0:
                work.per_board[b, s] = seat_strength(work.hole_keys[s], hole_n[s], work.board_keys[b],
                                                     hands.boards[h], b, board_n[b], rules)  # fmt: skip
    for s in range(n):
        if rules.low_share and work.per_board[first, s] != NO_VALUE:
            total = 0
            for i in range(hole_n[s]):
                total += rules.points[hands.hole[h, s, i] >> 2]
            out.low[h, s] = total
    surviving(rules, work.last, work.alive)
    for b in range(n_boards):
        if work.alive[b]:
            out.survivors[h] |= 1 << b
    if rules.low_hands:  # each seat's best ace-to-five low on a surviving board
        for s in range(n):
            work.holding[s] = work.per_board[first, s] != NO_VALUE
        seat_lows(work.hole_keys, work.holding, work.board_keys, work.alive, rules, out.low[h])


@njit(cache=True)
def _divide_pots(h, pots, hands, rules, out, work, first) -> None:
    """Each pot to its claimants holding hands by the game's shares; a pot no claimant holds a hand
    for goes whole to its claimants."""
    into = PotWinnings(out.won[h], out.won_high[h], out.won_low[h], out.board_won[h])
    among, muck_order = work.among, hands.muck_order[h]
    for p in range(pots):
        claimants(work.eligible[p], work.contender, muck_order, among)
        has_hand = 0
        for s in range(among.shape[0]):
            among[s] = among[s] and work.per_board[first, s] != NO_VALUE
            has_hand += among[s]
        if has_hand == 0:  # no claimant holds a hand: they share the pot
            claimants(work.eligible[p], work.contender, muck_order, among)
            award(work.amounts[p], among, out.won[h], work.scratch.paid)
            continue
        outcome = divide_pot(work.amounts[p], among, work.per_board, out.low[h], work.alive, rules, into,
                             work.scratch)  # fmt: skip
        out.split[h] |= outcome == 1


@njit(cache=True, nogil=True)  # (on a simulation's writer thread, beside the dealing kernel)
def settle_hands(rules, hands, out) -> None:
    """Settle every hand of ``hands`` (a ``HandsAtShowdown``) with ``showdown[h]`` into ``out`` (a
    ``Settlement``): chips won and each seat's showdown facts, under ``rules``
    (``engine.compiled.core.Rules``)."""
    _settle_hands(rules, hands, out, _settle_work(hands.contributed.shape[1], hands.boards.shape[1]))


@njit(cache=True)
def _settle_hands(rules, hands, out, work) -> None:
    """``settle_hands`` in ``work``, every structure borrowed (the caller holds them)."""
    rules, hands, out, work = borrowed((rules, hands, out, work))
    n, n_boards = hands.contributed.shape[1], hands.boards.shape[1]
    first = 0
    while not rules.community[first]:
        first += 1
    for h in range(hands.showdown.shape[0]):
        if not hands.showdown[h]:
            continue
        for s in range(n):
            work.contender[s] = not hands.folded[h, s] and hands.muck_order[h, s] == 0
        pots = build_pots(hands.contributed[h], hands.antes_paid[h], hands.folded[h], work.amounts,
                          work.eligible)  # fmt: skip
        _seat_hands(h, hands, rules, out, work, first)
        _divide_pots(h, pots, hands, rules, out, work, first)
        for s in range(n):  # each seat's hand: its best on a surviving board
            best = NO_VALUE
            for b in range(n_boards):
                if rules.community[b] and work.alive[b]:
                    best = max(best, work.per_board[b, s])
            out.strength[h, s] = best
        if rules.board_shares and work.contender.sum() > 1:
            seat = sole_best_everywhere(work.per_board, rules.community, work.contender, work.scratch.winners)
            if seat >= 0:
                out.triple[h, seat] = True


@njit(cache=True)
def sole_best_everywhere(per_board, community, among, winners) -> int:
    """The one seat of ``among`` alone best on every community board (killed ones too), else -1."""
    scooper = -1
    for b in range(per_board.shape[0]):
        if not community[b]:
            continue
        if best_of(per_board[b], among, False, winners) != 1:
            return -1
        seat = np.argmax(winners)
        if scooper == -1:
            scooper = seat
        elif scooper != seat:
            return -1
    return scooper
