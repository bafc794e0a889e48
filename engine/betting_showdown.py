"""Compiled showdowns of betting-mode hands: side pots, then each game's rule, per hand.

``settle_hands`` does for a chunk of hands what ``HandState.finish`` does for one:
pots built on live bets with the antes as dead money (``engine.pots.pots_with_antes``),
then the showdown rule of the game (``engine.games``): the best hand takes each pot
(hold'em, Skœjarth), high and low halves (Scarney), shares per surviving board (Cry Me
A River). Odd chips go as the Python rules give them. A test replays every hand through
the state machine and compares the rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels import card_bit, evaluate_high_hole_rows, skoejarth_strength, standard_strength
from engine.sim_kernels import surviving_mask

BEST_HAND, SKOEJARTH, SCARNEY, CRY = range(4)
NO_VALUE = -1


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
    """``engine.pots.join_unclaimed``: a pot nobody can win joins the next smaller one; the new count."""
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
    """``engine.pots.claimants`` into ``among``: who may win a pot; returns how many contend."""
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


@njit(cache=True, inline="always")
def award(amount, winners, won, paid):
    """Split ``amount`` among ``winners`` (a seat mask), odd chips from seat 0; ``paid`` gets the shares."""
    count = winners.sum()
    share = amount // count
    odd = amount - share * count
    k = 0
    for s in range(winners.shape[0]):
        paid[s] = 0
        if winners[s]:
            paid[s] = share + (1 if k < odd else 0)
            won[s] += paid[s]
            k += 1


@njit(cache=True, inline="always")
def best_of(scores, among, lowest, winners) -> int:
    """Mark in ``winners`` the seats of ``among`` with the best score; returns how many."""
    target = NO_VALUE
    found = False
    for s in range(among.shape[0]):
        if among[s] and (not found or (scores[s] < target if lowest else scores[s] > target)):
            target = scores[s]
            found = True
    count = 0
    for s in range(among.shape[0]):
        winners[s] = among[s] and scores[s] == target
        count += winners[s]
    return count


@njit(cache=True)
def settle_hands(
    rule, kickers, must_use, tables, points, showdown, contributed, antes_paid, folded, muck_order, hole,
    hole_n, boards, board_n, won, strength, low, won_high, won_low, board_won, triple, survivors, split,
):  # fmt: skip
    """Settle every hand with ``showdown[h]``: chips won and each seat's showdown facts.

    ``folded`` marks the seats out of the pots, ``muck_order`` (0, or k for the k-th muck) the
    seats that mucked: they win a pot only when every claimant of it mucked, the last alone.
    ``strength``/``low`` hold -1 for seats without a showdown hand; ``survivors`` is a bit
    mask of surviving boards; the other outputs start at zero.
    """
    n = contributed.shape[1]
    n_boards = boards.shape[1]
    amounts = np.zeros(2 * n + 2, dtype=np.int64)
    eligible = np.zeros((2 * n + 2, n), dtype=np.bool_)
    contender = np.zeros(n, dtype=np.bool_)
    among = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    paid = np.zeros(n, dtype=np.int64)
    per_board = np.full((3, n), NO_VALUE, dtype=np.int64)
    alive = np.zeros(3, dtype=np.bool_)
    river = np.zeros(3, dtype=np.int8)
    one = np.zeros(1, dtype=np.int64)
    for h in range(showdown.shape[0]):
        if not showdown[h]:
            continue
        for s in range(n):
            contender[s] = not folded[h, s] and muck_order[h, s] == 0
        pots = build_pots(contributed[h], antes_paid[h], folded[h], amounts, eligible)
        # each contender's hand, on each board it plays
        for b in range(n_boards):
            board_key = np.int64(0)
            for i in range(board_n[h, b]):
                board_key |= card_bit(boards[h, b, i])
            for s in range(n):
                per_board[b, s] = NO_VALUE
                if not contender[s] or (b > 0 and rule != CRY) or hole_n[h, s] == 0:
                    continue
                key = board_key
                for i in range(hole_n[h, s]):
                    key |= card_bit(hole[h, s, i])
                if rule == SKOEJARTH:
                    per_board[b, s] = skoejarth_strength(key, kickers, tables)
                elif rule == SCARNEY and must_use:
                    evaluate_high_hole_rows(hole[h, s : s + 1], boards[h, 0:1], one, tables)
                    per_board[b, s] = one[0]
                else:
                    per_board[b, s] = standard_strength(key, tables)
        if rule == SCARNEY:
            for s in range(n):
                if per_board[0, s] != NO_VALUE:
                    total = 0
                    for i in range(hole_n[h, s]):
                        total += points[hole[h, s, i] >> 2]
                    low[h, s] = total
        if rule == CRY:
            for b in range(3):
                river[b] = boards[h, b, board_n[h, b] - 1]
            surviving_mask(river, alive)
            n_alive = 0
            for b in range(3):
                if alive[b]:
                    survivors[h] |= 1 << b
                    n_alive += 1
        else:
            survivors[h] = 3 if rule == SCARNEY else 1
        for p in range(pots):
            live_count = claimants(eligible[p], contender, muck_order[h], among)
            if rule == CRY:
                share = amounts[p] // n_alive
                odd = amounts[p] - share * n_alive
                k = 0
                for b in range(3):
                    if not alive[b]:
                        continue
                    part = share + (1 if k < odd else 0)
                    k += 1
                    if live_count == 0:
                        winners[:] = among
                    elif best_of(per_board[b], among, False, winners) > 1:
                        split[h] = True
                    award(part, winners, won[h], paid)
                    for s in range(n):
                        board_won[h, s, b] += paid[s]
                continue
            has_hand = 0
            for s in range(n):
                among[s] = among[s] and per_board[0, s] != NO_VALUE
                has_hand += among[s]
            if has_hand == 0:
                claimants(eligible[p], contender, muck_order[h], among)
                award(amounts[p], among, won[h], paid)
                continue
            if rule != SCARNEY:
                if best_of(per_board[0], among, False, winners) > 1:
                    split[h] = True
                award(amounts[p], winners, won[h], paid)
                continue
            low_half = amounts[p] // 2
            if best_of(per_board[0], among, False, winners) > 1:
                split[h] = True
            award(amounts[p] - low_half, winners, won[h], paid)
            won_high[h] += paid
            if best_of(low[h], among, True, winners) > 1:
                split[h] = True
            award(low_half, winners, won[h], paid)
            won_low[h] += paid
        # each seat's hand: the best on a surviving board; the triple scoop
        for s in range(n):
            best = NO_VALUE
            for b in range(n_boards if rule == CRY else 1):
                if rule != CRY or alive[b]:
                    best = max(best, per_board[b, s])
            strength[h, s] = best
        if rule == CRY and contender.sum() > 1:
            scooper = -1
            for b in range(3):
                if best_of(per_board[b], contender, False, winners) != 1:
                    scooper = -2
                    break
                seat = np.argmax(winners)
                if scooper == -1:
                    scooper = seat
                elif scooper != seat:
                    scooper = -2
                    break
            if scooper >= 0:
                triple[h, scooper] = True
