"""Compiled showdown-mode simulation: deal, discard, kill boards, evaluate and split, per hand.

Every player puts the same stake in and stays to the showdown (the all-in
view). One call handles a chunk of hands and never returns to Python per hand.
Random numbers come in as raw 64-bit words ``u`` (one row per hand, 32 bits per
card) drawn by the caller from the shard's generator, so results depend on the
seed alone. The kernels
follow the rules exactly as ``engine.state`` plays them; a test deals the same
cards both ways and compares every payout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels import card_bit, skoejarth_strength, standard_strength

SHOWDOWN, UNCONTESTED, EVERYONE_DEAD = 0, 1, 2


@njit(cache=True, inline="always")
def shuffle_prefix(bits: np.ndarray, deck: np.ndarray, n_cards: int) -> None:
    """Fisher–Yates on the first ``n_cards`` positions of ``deck`` (reset to 0..size-1).

    ``bits`` holds 32 random bits per card (two per uint64 word, low half first);
    position ``i`` swaps with ``i + (r * (size - i) >> 32)``, the multiply-shift
    map of a 32-bit ``r`` onto ``size - i`` choices (a bias below 2**-26).
    """
    size = deck.shape[0]
    for i in range(size):
        deck[i] = i
    for i in range(n_cards):
        word = bits[i >> 1]
        r = (word >> np.uint64(32 * (i & 1))) & np.uint64(0xFFFFFFFF)
        j = i + np.int64((r * np.uint64(size - i)) >> np.uint64(32))
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True, inline="always")
def split_among(won_row: np.ndarray, winners: np.ndarray, amount: int) -> None:
    """Split ``amount`` among seats flagged in ``winners``; odd chips from seat 0 (left of the button)."""
    count = 0
    for s in range(winners.shape[0]):
        if winners[s]:
            count += 1
    share = amount // count
    odd = amount - share * count
    k = 0
    for s in range(winners.shape[0]):
        if winners[s]:
            won_row[s] += share + (1 if k < odd else 0)
            k += 1


@njit(cache=True)
def simulate_one_board(u, hole, board, stake, skoejarth, kickers, tables, cards, strength, won, winners_mask):
    """Hold'em and Skœjarth: the best hand on the one board wins the pot; ties split it.

    ``skoejarth`` picks Skœjarth's deck and ranking (``kickers``: its tiebreak option).
    """
    n_hands, n = u.shape[0], hole.shape[0]
    deck = np.empty(28 if skoejarth else 52, dtype=np.int8)
    winners = np.zeros(n, dtype=np.bool_)
    for h in range(n_hands):
        shuffle_prefix(u[h], deck, cards.shape[1])
        cards[h] = deck[: cards.shape[1]]
        board_key = np.int64(0)
        for j in range(board.shape[1]):
            board_key |= card_bit(deck[board[0, j]])
        best = np.int64(-1)
        for s in range(n):
            key = board_key
            for j in range(hole.shape[1]):
                key |= card_bit(deck[hole[s, j]])
            if skoejarth:
                strength[h, s] = skoejarth_strength(key, kickers, tables)
            else:
                strength[h, s] = standard_strength(key, tables)
            best = max(best, strength[h, s])
        mask = np.int64(0)
        for s in range(n):
            winners[s] = strength[h, s] == best
            if winners[s]:
                mask |= np.int64(1) << s
        winners_mask[h] = mask
        split_among(won[h], winners, n * stake)


@njit(cache=True)
def surviving_mask(river_cards: np.ndarray, alive: np.ndarray) -> None:
    """Boards that survive the river: the lowest river rank dies; all equal: highest suit lives."""
    r0, r1, r2 = river_cards[0] >> 2, river_cards[1] >> 2, river_cards[2] >> 2
    if r0 == r1 and r1 == r2:
        top = 0
        for b in range(3):
            if (river_cards[b] & 3) > (river_cards[top] & 3):
                top = b
        for b in range(3):
            alive[b] = b == top
        return
    lowest = min(r0, min(r1, r2))
    for b in range(3):
        alive[b] = (river_cards[b] >> 2) > lowest


@njit(cache=True, inline="always")
def _board_best(deck, board, b, hole, n, tables, per_board) -> int:
    """Evaluate every seat on board ``b``; the best strength."""
    board_key = np.int64(0)
    for j in range(board.shape[1]):
        board_key |= card_bit(deck[board[b, j]])
    best = np.int64(-1)
    for s in range(n):
        key = board_key | card_bit(deck[hole[s, 0]]) | card_bit(deck[hole[s, 1]])
        per_board[b, s] = standard_strength(key, tables)
        best = max(best, per_board[b, s])
    return best


@njit(cache=True)
def simulate_cry_me_a_river(
    u, hole, board, stake, tables, cards, strength, won, board_won, survivors, triple, winners_mask, tally
):
    """Cry Me A River: shares per surviving board (odd chips to the highest), best hand per board.

    ``winners_mask`` holds the best hand's seats per board (bits 10*b + seat); a killed
    board is only evaluated when it decides a triple scoop (one player alone best on
    the surviving boards), otherwise its bits stay 0. ``tally`` accumulates the ``C_*``
    statistic counts (see ``ingest.sim_summary``).
    """
    n_hands, n = u.shape[0], hole.shape[0]
    deck = np.empty(52, dtype=np.int8)
    winners = np.zeros(n, dtype=np.bool_)
    per_board = np.zeros((3, n), dtype=np.int64)
    rivers = np.zeros(3, dtype=np.int8)
    alive = np.zeros(3, dtype=np.bool_)
    share_won = np.zeros(n, dtype=np.int64)
    last = board.shape[1] - 1
    for h in range(n_hands):
        shuffle_prefix(u[h], deck, cards.shape[1])
        cards[h] = deck[: cards.shape[1]]
        for b in range(3):
            rivers[b] = deck[board[b, last]]
        surviving_mask(rivers, alive)
        n_alive = 0
        for b in range(3):
            survivors[h, b] = alive[b]
            n_alive += alive[b]
        pot = n * stake
        base = pot // n_alive
        odd = pot - base * n_alive
        k = 0
        mask = np.int64(0)
        sole = -1  # the one seat alone best on every surviving board so far, -2 if none
        split = False
        for b in range(3):
            if not alive[b]:
                continue
            best = _board_best(deck, board, b, hole, n, tables, per_board)
            count = 0
            for s in range(n):
                winners[s] = per_board[b, s] == best
                share_won[s] = 0
                if winners[s]:
                    mask |= np.int64(1) << (10 * b + s)
                    count += 1
                    who = s
            sole = who if count == 1 and sole in (-1, who) else -2
            split = split or count > 1
            amount = base + (1 if k < odd else 0)
            k += 1
            split_among(share_won, winners, amount)
            for s in range(n):
                board_won[h, s, b] = share_won[s]
                won[h, s] += share_won[s]
        owner = sole
        if sole >= 0:  # a triple scoop is possible: the killed boards decide it
            for b in range(3):
                if alive[b]:
                    continue
                best = _board_best(deck, board, b, hole, n, tables, per_board)
                count = 0
                for s in range(n):
                    if per_board[b, s] == best:
                        mask |= np.int64(1) << (10 * b + s)
                        count += 1
                if count != 1 or per_board[b, sole] != best:
                    owner = -2
        winners_mask[h] = mask
        tally[C_SHOWDOWN] += 1
        tally[C_SCOOP] += sole >= 0
        tally[C_SPLIT] += split
        tally[C_TRIPLE] += owner >= 0
        tally[C_SURVIVING + n_alive] += 1
        for b in range(3):
            tally[C_BOARDS + (rivers[b] >> 2)] += 1
            tally[C_KILLED + (rivers[b] >> 2)] += not alive[b]
        for s in range(n):
            triple[h, s] = s == owner
            best = np.int64(-1)
            won_any = False
            for b in range(3):
                if alive[b]:
                    best = max(best, per_board[b, s])
                    won_any = won_any or ((mask >> (10 * b + s)) & 1) == 1
            strength[h, s] = best
            tally[C_CATEGORY + (best >> 20)] += 1
            tally[C_CATEGORY_WON + (best >> 20)] += won_any


# Slots of the Cry Me A River statistic tally
C_SHOWDOWN, C_SCOOP, C_SPLIT, C_TRIPLE, C_SURVIVING = 0, 1, 2, 3, 4  # C_SURVIVING + boards left (1..3)
C_BOARDS, C_KILLED, C_CATEGORY, C_CATEGORY_WON, CRY_TALLY_SIZE = 8, 21, 34, 43, 52

# Slots of the Scarney statistic tally (every hand: held, forced, street, dead; showdown seats: the rest)
T_HELD, T_FORCED, T_STREET, T_DEAD_ON_FLOP, T_DEAD = 0, 13, 26, 29, 30
T_REMAINING, T_PAIRS, T_PAIRS_WON, T_LOW_WINNERS, T_LOW_WINNERS_ACE = 31, 38, 42, 46, 47
T_LOW_POINTS, T_LOW_POINTS_WON, T_FULL_BOARD_POINTS, TALLY_SIZE = 48, 109, 170, 231


@njit(cache=True)
def simulate_scarney(
    u, hole, top, bottom, bottom_street, stake, must_use, tables, points_table,
    cards, strength, low, won, won_high, won_low, discard_street, dead, ending, streets_dealt, winners_mask,
    tally,
):  # fmt: skip
    """Scarney: forced discards street by street, dead hands, high half and low half.

    ``tally`` accumulates the statistic counts of ``SCARNEY_TALLY`` (see ``ingest.sim_summary``).
    """
    n_hands, n, n_hole = u.shape[0], hole.shape[0], hole.shape[1]
    deck = np.empty(52, dtype=np.int8)
    rank_count = np.zeros(13, dtype=np.int64)
    alive = np.zeros(n, dtype=np.bool_)
    before = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    n_streets = bottom_street.max() + 1
    for h in range(n_hands):
        shuffle_prefix(u[h], deck, cards.shape[1])
        cards[h] = deck[: cards.shape[1]]
        for s in range(n):
            alive[s] = True
            for j in range(n_hole):
                discard_street[h, s, j] = -1
        ranks_seen = 0
        ending[h] = SHOWDOWN
        streets_dealt[h] = n_streets - 1
        for street in range(1, n_streets):
            for j in range(bottom.shape[1]):
                if bottom_street[j] == street:
                    ranks_seen |= 1 << (deck[bottom[0, j]] >> 2)
            n_alive = 0
            for s in range(n):
                before[s] = alive[s]
                if not alive[s]:
                    continue
                kept = 0
                for j in range(n_hole):
                    if discard_street[h, s, j] == -1:
                        if ranks_seen & (1 << (deck[hole[s, j]] >> 2)):
                            discard_street[h, s, j] = street
                        else:
                            kept += 1
                if kept == 0:
                    alive[s] = False
                else:
                    n_alive += 1
            if n_alive <= 1:
                streets_dealt[h] = street
                break
        pot = n * stake
        full_ranks = 0  # every Bottom Board rank, dealt or not: the points-after-the-board statistic
        for j in range(bottom.shape[1]):
            full_ranks |= 1 << (deck[bottom[0, j]] >> 2)
        for s in range(n):
            kept_points = 0
            for j in range(n_hole):
                rank = deck[hole[s, j]] >> 2
                if not (full_ranks >> rank) & 1:
                    kept_points += points_table[rank]
            tally[T_FULL_BOARD_POINTS + kept_points] += 1
        for s in range(n):
            dead[h, s] = not alive[s]
            on_flop = 0
            for j in range(n_hole):
                rank = deck[hole[s, j]] >> 2
                tally[T_HELD + rank] += 1
                street = discard_street[h, s, j]
                if street > 0:
                    tally[T_FORCED + rank] += 1
                    tally[T_STREET + street - 1] += 1
                    on_flop += street == 1
            tally[T_DEAD_ON_FLOP] += on_flop == n_hole
            tally[T_DEAD] += not alive[s]
        n_alive = 0
        for s in range(n):
            n_alive += alive[s]
        if n_alive == 0:  # everyone left died at once: they share the pot equally
            ending[h] = EVERYONE_DEAD
            split_among(won[h], before, pot)
            continue
        if n_alive == 1:
            ending[h] = UNCONTESTED
            split_among(won[h], alive, pot)
            continue
        top_key = np.int64(0)
        for j in range(top.shape[1]):
            top_key |= card_bit(deck[top[0, j]])
        best_high = np.int64(-1)
        best_low = 1 << 30
        for s in range(n):
            if not alive[s]:
                continue
            hole_key = np.int64(0)
            total = 0
            for j in range(n_hole):
                if discard_street[h, s, j] == -1:
                    c = deck[hole[s, j]]
                    hole_key |= card_bit(c)
                    total += points_table[c >> 2]
            low[h, s] = total
            if must_use:
                value = np.int64(-1)
                m = top.shape[1]
                for a in range(m):
                    for b in range(a + 1, m):
                        for c in range(b + 1, m):
                            for d in range(c + 1, m):
                                key = hole_key | card_bit(deck[top[0, a]]) | card_bit(deck[top[0, b]])
                                key |= card_bit(deck[top[0, c]]) | card_bit(deck[top[0, d]])
                                value = max(value, standard_strength(key, tables))
            else:
                value = standard_strength(hole_key | top_key, tables)
            strength[h, s] = value
            best_high = max(best_high, value)
            best_low = min(best_low, total)
        low_half = pot // 2
        mask = np.int64(0)
        for s in range(n):
            winners[s] = alive[s] and strength[h, s] == best_high
            if winners[s]:
                mask |= np.int64(1) << s
        split_among(won_high[h], winners, pot - low_half)
        for s in range(n):
            winners[s] = alive[s] and low[h, s] == best_low
            if winners[s]:
                mask |= np.int64(1) << (10 + s)
        split_among(won_low[h], winners, low_half)
        winners_mask[h] = mask
        for s in range(n):
            won[h, s] = won_high[h, s] + won_low[h, s]
            if not alive[s]:
                continue
            kept, ace = 0, False
            for r in range(13):
                rank_count[r] = 0
            for j in range(n_hole):
                rank = deck[hole[s, j]] >> 2
                rank_count[rank] += 1
                if discard_street[h, s, j] == -1:
                    kept += 1
                    ace = ace or rank == 12
            pairs = 0
            for r in range(13):
                pairs += rank_count[r] >= 2
            low_winner = ((mask >> (10 + s)) & 1) == 1
            tally[T_REMAINING + kept] += 1
            tally[T_PAIRS + pairs] += 1
            tally[T_LOW_POINTS + low[h, s]] += 1
            if low_winner:
                tally[T_PAIRS_WON + pairs] += 1
                tally[T_LOW_WINNERS] += 1
                tally[T_LOW_WINNERS_ACE] += ace
                tally[T_LOW_POINTS_WON + low[h, s]] += 1
