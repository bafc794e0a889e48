"""Compiled showdowns of betting-mode and replayed hands: side pots, then the rules core, per hand.

``settle_hands`` does for a chunk of hands what ``HandState.finish`` does for one:
pots built on live bets with the antes as dead money (``engine.rules.pots.pots_with_antes``),
then each pot divided by the game's shares (``engine.compiled.core.divide_pot``). Odd chips go as
the Python rules give them. A test replays every hand through the state machine and
compares the rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.core import (
    NO_VALUE,
    award,
    best_of,
    board_key_of,
    divide_pot,
    seat_lows,
    seat_strength,
    surviving,
)


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


@njit(cache=True)
def settle_hands(
    rules, showdown, contributed, antes_paid, folded, muck_order, hole, hole_n, boards, board_n,
    won, strength, low, won_high, won_low, board_won, triple, survivors, split,
):  # fmt: skip
    """Settle every hand with ``showdown[h]``: chips won and each seat's showdown facts.

    ``rules`` is ``engine.compiled.core.Rules.args``. ``folded`` marks the seats out of the pots,
    ``muck_order`` (0, or k for the k-th muck) the seats that mucked: they win a pot only
    when every claimant of it mucked, the last alone. A pot no claimant holds a hand for
    goes whole to its claimants. ``strength``/``low`` hold -1 for seats without a showdown
    hand; ``survivors`` is a bit mask of surviving boards; the other outputs start at zero.
    """
    community, points = rules[5], rules[8]
    n = contributed.shape[1]
    n_boards = boards.shape[1]
    amounts = np.zeros(2 * n + 2, dtype=np.int64)
    eligible = np.zeros((2 * n + 2, n), dtype=np.bool_)
    contender = np.zeros(n, dtype=np.bool_)
    among = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    paid = np.zeros(n, dtype=np.int64)
    per_board = np.full((n_boards, n), NO_VALUE, dtype=np.int64)
    alive = np.zeros(n_boards, dtype=np.bool_)
    last = np.zeros(n_boards, dtype=np.int64)
    first = 0
    while not community[first]:
        first += 1
    has_points, low_hands = rules[11], rules[13]
    board_shares = rules[10]
    scratch = np.zeros(n, dtype=np.int64)
    hole_keys = np.zeros(n, dtype=np.int64)
    board_keys = np.zeros(n_boards, dtype=np.int64)
    holding = np.zeros(n, dtype=np.bool_)
    for h in range(showdown.shape[0]):
        if not showdown[h]:
            continue
        for s in range(n):
            contender[s] = not folded[h, s] and muck_order[h, s] == 0
        pots = build_pots(contributed[h], antes_paid[h], folded[h], amounts, eligible)
        hand_boards = boards[h]
        for s in range(n):  # each seat's hole cards as a key, once a hand
            hole_keys[s] = board_key_of(hole[h, s], hole_n[h, s])
        for b in range(n_boards):  # each contender's hand on each community board
            last[b] = boards[h, b, max(board_n[h, b] - 1, 0)]
            board_key = board_key_of(boards[h, b], board_n[h, b])
            for s in range(n):
                per_board[b, s] = NO_VALUE
                if not community[b] or not contender[s] or hole_n[h, s] == 0:
                    continue
                per_board[b, s] = seat_strength(
                    hole_keys[s], hole_n[h, s], board_key, hand_boards, b, board_n[h, b], rules
                )
        for s in range(n):
            if has_points and per_board[first, s] != NO_VALUE:
                total = 0
                for i in range(hole_n[h, s]):
                    total += points[hole[h, s, i] >> 2]
                low[h, s] = total
        surviving(rules, last, alive)
        for b in range(n_boards):
            if alive[b]:
                survivors[h] |= 1 << b
        if low_hands:  # each seat's best ace-to-five low on a surviving board
            for s in range(n):
                holding[s] = per_board[first, s] != NO_VALUE
            for b in range(n_boards):
                board_keys[b] = board_key_of(boards[h, b], board_n[h, b])
            seat_lows(hole_keys, holding, board_keys, alive, rules, low[h])
        for p in range(pots):
            claimants(eligible[p], contender, muck_order[h], among)
            has_hand = 0
            for s in range(n):
                among[s] = among[s] and per_board[first, s] != NO_VALUE
                has_hand += among[s]
            if has_hand == 0:  # no claimant holds a hand: they share the pot
                claimants(eligible[p], contender, muck_order[h], among)
                award(amounts[p], among, won[h], paid)
                continue
            outcome = divide_pot(amounts[p], among, per_board, low[h], alive, rules, won[h], won_high[h],
                                 won_low[h], board_won[h], winners, paid, scratch)  # fmt: skip
            split[h] |= outcome == 1
        for s in range(n):  # each seat's hand: its best on a surviving board
            best = NO_VALUE
            for b in range(n_boards):
                if community[b] and alive[b]:
                    best = max(best, per_board[b, s])
            strength[h, s] = best
        if board_shares and contender.sum() > 1:
            seat = sole_best_everywhere(per_board, community, contender, winners)
            if seat >= 0:
                triple[h, seat] = True


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
