"""Compiled showdown-mode simulation: deal, discard, kill boards, evaluate and divide, per hand.

Every player puts the same stake in and stays to the showdown (the all-in
view). One call handles a chunk of hands and never returns to Python per hand.
Random numbers come in as raw 64-bit words ``u`` (one row per hand, 32 bits per
card) drawn by the caller from the shard's generator, so results depend on the
seed alone. The rules are the compiled core's (``engine.compiled.core``), read from the
game's description; a test deals the same cards through ``engine.rules.state`` and
compares every payout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.betting_showdown import sole_best_everywhere
from engine.compiled.core import (
    HOLE_ANY,
    NO_VALUE,
    board_key_of,
    divide_pot,
    key_strength,
    one_share_pot,
    restricted_strengths,
    seat_lows,
    seat_strength,
    surviving,
)
from engine.hands.kernels import card_bit
from engine.rules.games.description import STREET_SLOTS  # forced discards counted per street after the deal

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


# Slots of the statistic tally: every game (O_*), a kill rule (K_*), a discard board and low points (T_*)
O_SHOWDOWN, O_SCOOP, O_SPLIT, O_TRIPLE, O_CATEGORY, O_CATEGORY_WON = 0, 1, 2, 3, 4, 13
K_SURVIVING, K_BOARDS, K_KILLED = 22, 26, 39  # K_SURVIVING + boards left (1..3)
T_BASE = 52
T_HELD, T_FORCED, T_STREET = T_BASE, T_BASE + 13, T_BASE + 26
T_DEAD_ON_FIRST, T_DEAD = T_STREET + STREET_SLOTS, T_STREET + STREET_SLOTS + 1
T_REMAINING = T_DEAD + 1
T_PAIRS, T_PAIRS_WON = T_REMAINING + 7, T_REMAINING + 11
T_LOW_WINNERS, T_LOW_WINNERS_ACE = T_REMAINING + 15, T_REMAINING + 16
T_LOW_POINTS, T_LOW_POINTS_WON, T_FULL_BOARD_POINTS = T_REMAINING + 17, T_REMAINING + 78, T_REMAINING + 139
# per category, over showdown hands: the square of the hand's seats of it, and that times the hand's
# seats at the showdown; the square of those seats, and the seats (a variance clustered by hand)
C_SQUARES = T_REMAINING + 200
C_BY_SEATS, C_SEATS_SQUARED, C_SEATS = C_SQUARES + 9, C_SQUARES + 18, C_SQUARES + 19
TALLY_SIZE = C_SQUARES + 20


@njit(cache=True)
def _discard_streets(
    h, deck, hole, trigger, trigger_street, n_streets, alive, before, discard_street, streets_dealt
):
    """Forced discards street by street; returns how many seats keep a hand (stops at one or none)."""
    n, n_hole = hole.shape
    ranks_seen = 0
    n_alive = n
    for street in range(1, n_streets):
        for j in range(trigger.shape[0]):
            if trigger_street[j] == street:
                ranks_seen |= 1 << (deck[trigger[j]] >> 2)
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
    return n_alive


@njit(cache=True)
def _discard_tally(h, deck, hole, trigger, first_street, points, alive, discard_street, tally) -> None:
    """Every seat's held and forced ranks, discard streets, dead hands (on ``first_street``, the
    first of board cards, and at all), points after the whole board."""
    n, n_hole = hole.shape
    full_ranks = 0
    for j in range(trigger.shape[0]):
        full_ranks |= 1 << (deck[trigger[j]] >> 2)
    for s in range(n):
        kept_points = 0
        on_first = 0
        for j in range(n_hole):
            rank = deck[hole[s, j]] >> 2
            if not (full_ranks >> rank) & 1:
                kept_points += points[rank]
            tally[T_HELD + rank] += 1
            street = discard_street[h, s, j]
            if street > 0:
                tally[T_FORCED + rank] += 1
                tally[T_STREET + street - 1] += 1
                on_first += street == first_street
        tally[T_FULL_BOARD_POINTS + kept_points] += 1
        tally[T_DEAD_ON_FIRST] += on_first == n_hole
        tally[T_DEAD] += not alive[s]


@njit(cache=True)
def _low_tally(h, deck, hole, alive, discard_street, low, low_won, tally, rank_count) -> None:
    """Seats at a showdown of a low-points game: pairs held, points, low winners (chips won)."""
    n, n_hole = hole.shape
    top_rank = rank_count.shape[0] - 1
    for s in range(n):
        if not alive[s]:
            continue
        ace = False
        rank_count[:] = 0
        for j in range(n_hole):
            rank = deck[hole[s, j]] >> 2
            rank_count[rank] += 1
            ace = ace or (rank == top_rank and discard_street[h, s, j] == -1)
        pairs = 0
        for r in range(rank_count.shape[0]):
            pairs += rank_count[r] >= 2
        tally[T_PAIRS + pairs] += 1
        tally[T_LOW_POINTS + low[h, s]] += 1
        if low_won[s] > 0:
            tally[T_PAIRS_WON + pairs] += 1
            tally[T_LOW_WINNERS] += 1
            tally[T_LOW_WINNERS_ACE] += ace
            tally[T_LOW_POINTS_WON + low[h, s]] += 1


@njit(cache=True)
def _remaining_tally(h, hole, alive, discard_street, tally) -> None:
    """Seats at a showdown of a game with a discard board: the hole cards each kept."""
    for s in range(hole.shape[0]):
        if alive[s]:
            kept = 0
            for j in range(hole.shape[1]):
                kept += discard_street[h, s, j] == -1
            tally[T_REMAINING + kept] += 1


@njit(cache=True, inline="always")
def _cluster_tally(counts, tally) -> None:
    """One showdown hand's share of the hand-clustered variance of the category rates (``C_*``),
    from its seats of each category (``counts``, zeroed for the next hand)."""
    seats = 0
    for category in range(9):
        seats += counts[category]
    for category in range(9):
        tally[C_SQUARES + category] += counts[category] * counts[category]
        tally[C_BY_SEATS + category] += counts[category] * seats
        counts[category] = 0
    tally[C_SEATS_SQUARED] += seats * seats
    tally[C_SEATS] += seats


@njit(cache=True)
def simulate_hands(
    u, dealt, hole, board, board_street, deck_size, stake, rules, cards, strength, low, won, won_high,
    won_low, board_won, survivors, triple, discard_street, dead, ending, streets_dealt, outcomes, tally,
):  # fmt: skip
    """Deal and settle every hand of ``cards`` under ``rules`` (``engine.compiled.core.Rules.args``): each
    dealt by ``u``'s random words, or, when ``dealt``, the cards already in its row of ``cards``.

    ``hole[seat, j]`` and ``board[b, j]`` are positions in the dealt prefix,
    ``board_street[j]`` the street of board card j. ``outcomes[h]`` is 2 when one seat won
    every part of the pot alone, 1 when some part was split among tied hands, else 0 (also for
    a hand that ended before the showdown); a killed board is evaluated only when it decides
    ``triple`` (one seat alone best on every board, killed ones included). Winners in the
    tallies are seats that collected chips (of the high parts, beside a low share), as the
    replayed hands' players rows count them; a scoop is one seat collecting every chip.
    ``tally`` accumulates the ``O_*``/``K_*``/``T_*`` counts.
    Outputs a game has no use for (``low``, ``won_high``/``won_low`` without a low share,
    ``board_won``/``triple`` without board shares, ``discard_street`` without a discard
    board or a low share) may be one-row placeholders: they are never touched.
    """
    discard_board, community, points = rules[4], rules[5], rules[8]
    n_hands, n, n_hole = cards.shape[0], hole.shape[0], hole.shape[1]
    n_boards, last_card = board.shape[0], board.shape[1] - 1
    deck = np.empty(deck_size, dtype=np.int8)
    alive = np.zeros(n, dtype=np.bool_)
    before = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    paid = np.zeros(n, dtype=np.int64)
    hole_key = np.zeros(n, dtype=np.int64)
    kept_n = np.zeros(n, dtype=np.int64)
    per_board = np.full((n_boards, n), NO_VALUE, dtype=np.int64)
    board_cards = np.zeros((n_boards, last_card + 1), dtype=np.int8)
    last = np.zeros(n_boards, dtype=np.int64)
    board_alive = np.zeros(n_boards, dtype=np.bool_)
    board_key = np.zeros(n_boards, dtype=np.int64)
    won_row = np.zeros(n, dtype=np.int64)  # one hand's results, copied out where the game has them
    high_row = np.zeros(n, dtype=np.int64)
    low_won_row = np.zeros(n, dtype=np.int64)
    low_row = np.full(n, NO_VALUE, dtype=np.int64)
    board_row = np.zeros((n, n_boards), dtype=np.int64)
    rank_count = np.zeros(deck_size // 4, dtype=np.int64)
    hand_categories = np.zeros(9, dtype=np.int64)  # one hand's seats of each category at the showdown
    n_streets = board_street.max() + 1
    has_points, low_hands = rules[11], rules[13]
    halves = has_points or low_hands  # chips of the high and the low halves apart
    scratch = np.zeros(n, dtype=np.int64)
    ranking, kickers, hole_use, tables = rules[0], rules[1], rules[2], rules[9]
    board_shares, one_share, share_board = rules[10], rules[12], rules[7]
    trigger = board[max(discard_board, 0)]
    pot = n * stake
    for h in range(n_hands):
        if dealt:
            for i in range(cards.shape[1]):
                deck[i] = cards[h, i]
        else:
            shuffle_prefix(u[h], deck, cards.shape[1])
            cards[h] = deck[: cards.shape[1]]
        alive[:] = True
        ending[h] = SHOWDOWN
        outcomes[h] = 0
        streets_dealt[h] = n_streets - 1
        n_alive = n
        if discard_board >= 0:
            discard_street[h] = -1
            n_alive = _discard_streets(h, deck, hole, trigger, board_street, n_streets, alive, before,
                                       discard_street, streets_dealt)  # fmt: skip
            _discard_tally(h, deck, hole, trigger, board_street[0], points, alive, discard_street, tally)
            for s in range(n):
                dead[h, s] = not alive[s]
            if n_alive == 0:  # everyone left died at once: they share the pot equally
                ending[h] = EVERYONE_DEAD
                split_among(won[h], before, pot)
                continue
            if n_alive == 1:
                ending[h] = UNCONTESTED
                split_among(won[h], alive, pot)
                continue
        for s in range(n):  # the cards each seat keeps, and their points
            hole_key[s] = 0
            kept_n[s] = 0
            total = 0
            for j in range(n_hole):
                if discard_board < 0 or discard_street[h, s, j] == -1:
                    c = deck[hole[s, j]]
                    hole_key[s] |= card_bit(c)
                    kept_n[s] += 1
                    total += points[c >> 2]
            low_row[s] = total if alive[s] else NO_VALUE
            if has_points:
                low[h, s] = low_row[s]
        for b in range(n_boards):
            for j in range(last_card + 1):
                board_cards[b, j] = deck[board[b, j]]
            last[b] = board_cards[b, last_card]
            board_key[b] = board_key_of(board_cards[b], last_card + 1)
        n_surviving = surviving(rules, last, board_alive)
        if low_hands:
            seat_lows(hole_key, alive, board_key, board_alive, rules, low_row)
            for s in range(n):
                low[h, s] = low_row[s]
        for b in range(n_boards):
            survivors[h, b] = board_alive[b]
            if not community[b] or not board_alive[b]:
                continue
            if (
                hole_use == HOLE_ANY
            ):  # the rule's common case, inlined (see engine.compiled.core.seat_strength)
                for s in range(n):
                    key = hole_key[s] | board_key[b]
                    per_board[b, s] = key_strength(key, ranking, kickers, tables) if alive[s] else NO_VALUE
            else:
                restricted_strengths(
                    hole_use,
                    hole_key,
                    kept_n,
                    alive,
                    board_key[b],
                    board_cards,
                    b,
                    last_card + 1,
                    ranking,
                    kickers,
                    tables,
                    per_board,
                )
        won_row[:] = 0
        if halves:
            high_row[:] = 0
            low_won_row[:] = 0
        if board_shares:
            board_row[:] = 0
        if one_share:
            outcome = one_share_pot(pot, alive, per_board[share_board[0]], won_row, winners, paid)
        else:
            outcome = divide_pot(pot, alive, per_board, low_row, board_alive, rules, won_row, high_row,
                                 low_won_row, board_row, winners, paid, scratch)  # fmt: skip
        won[h] = won_row
        if halves:
            won_high[h] = high_row
            won_low[h] = low_won_row
        if board_shares:
            board_won[h] = board_row
        owner = -1
        if board_shares and outcome == 2 and n_surviving < n_boards:  # the killed boards decide it
            for b in range(n_boards):
                if community[b] and not board_alive[b]:
                    for s in range(n):
                        per_board[b, s] = seat_strength(
                            hole_key[s], kept_n[s], board_key[b], board_cards, b, last_card + 1, rules
                        )
            owner = sole_best_everywhere(per_board, community, alive, winners)
        elif board_shares and outcome == 2:
            owner = sole_best_everywhere(per_board, community, alive, winners)
        outcomes[h] = outcome
        tally[O_SHOWDOWN] += 1
        scooped = False  # one seat alone collected every chip
        for s in range(n):
            scooped = scooped or won_row[s] == pot
        tally[O_SCOOP] += scooped
        tally[O_SPLIT] += outcome == 1
        tally[O_TRIPLE] += owner >= 0
        if rules[3] != 0:
            tally[K_SURVIVING + n_surviving] += 1
            for b in range(n_boards):
                if community[b]:
                    tally[K_BOARDS + (last[b] >> 2)] += 1
                    tally[K_KILLED + (last[b] >> 2)] += not board_alive[b]
        for s in range(n):
            if board_shares:
                triple[h, s] = s == owner
            best = np.int64(NO_VALUE)
            for b in range(n_boards):
                if community[b] and board_alive[b]:
                    best = max(best, per_board[b, s])
            strength[h, s] = best
            if best < 0:
                continue
            # a winner collected chips of the high parts (as the replayed hands' players rows say)
            won_high_part = (high_row[s] if halves else won_row[s]) > 0
            tally[O_CATEGORY + ((best >> 20) & 15)] += 1
            tally[O_CATEGORY_WON + ((best >> 20) & 15)] += won_high_part
            hand_categories[(best >> 20) & 15] += 1
        _cluster_tally(hand_categories, tally)
        if discard_board >= 0:
            _remaining_tally(h, hole, alive, discard_street, tally)
        if has_points:
            _low_tally(h, deck, hole, alive, discard_street, low, low_won_row, tally, rank_count)
