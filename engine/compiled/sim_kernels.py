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

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.compiled.betting_showdown import sole_best_everywhere
from engine.compiled.core import (
    HOLE_ANY,
    NO_VALUE,
    PotWinnings,
    SeatScratch,
    award,
    board_key_of,
    divide_pot,
    key_strength,
    one_share_pot,
    restricted_strengths,
    seat_lows,
    seat_strength,
    surviving,
)
from engine.hands.kernels import card_bit, category_of
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


class DealPlan(NamedTuple):
    """How showdown-mode hands are dealt: random words or given deals, and where each card goes.

    ``words`` holds 32 random bits per card (one row per hand) unless ``given``, when each hand's
    row of ``ShowdownHands.cards`` already holds its cards. ``hole[seat, j]`` and ``board[b, j]``
    are positions in the dealt prefix, ``board_street[j]`` the street of board card j.
    """

    words: np.ndarray
    given: bool
    hole: np.ndarray
    board: np.ndarray
    board_street: np.ndarray
    deck_size: int
    stake: int


class ShowdownHands(NamedTuple):
    """Everything ``simulate_hands`` writes, one row per hand (``tally``: the ``O_*``/``K_*``/``T_*``
    counts). Outputs a game has no use for may be one-row placeholders: they are never touched
    (``low``, ``won_high``/``won_low`` without a low half, ``board_won``/``triple`` without board
    shares, ``discard_street`` without a discard board or a low share)."""

    cards: np.ndarray
    strength: np.ndarray
    low: np.ndarray
    won: np.ndarray
    won_high: np.ndarray
    won_low: np.ndarray
    board_won: np.ndarray
    survivors: np.ndarray
    triple: np.ndarray
    discard_street: np.ndarray
    dead: np.ndarray
    ending: np.ndarray
    streets_dealt: np.ndarray
    outcomes: np.ndarray
    tally: np.ndarray


class ShowdownWork(NamedTuple):
    """One hand in play: the deck, the seats' kept cards, the boards, and one hand's results."""

    deck: np.ndarray  # (deck size,) int8
    alive: np.ndarray  # (seats,) bool: holds a hand
    before: np.ndarray  # (seats,) bool: held one before the last discards
    hole_key: np.ndarray  # (seats,) the kept hole cards as a key
    kept_n: np.ndarray  # (seats,) hole cards kept
    low_row: np.ndarray  # (seats,) points or best low (NO_VALUE: none)
    per_board: np.ndarray  # (boards, seats) each seat's hand on each board
    board_cards: np.ndarray  # (boards, cards)
    last: np.ndarray  # (boards,) each board's last card
    board_alive: np.ndarray  # (boards,) bool
    board_key: np.ndarray  # (boards,)
    rank_count: np.ndarray  # (ranks,)
    categories: np.ndarray  # (9,) one hand's seats of each category at the showdown
    pot: PotWinnings  # one hand's chips, copied out where the game has them
    scratch: SeatScratch


@njit(cache=True)
def showdown_work(n, n_boards, n_board_cards, deck_size) -> ShowdownWork:
    """Fresh ``ShowdownWork`` for ``n`` seats and ``n_boards`` boards of ``n_board_cards`` cards."""
    pot = PotWinnings(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                      np.zeros((n, n_boards), np.int64))  # fmt: skip
    scratch = SeatScratch(np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64))
    return ShowdownWork(
        np.empty(deck_size, np.int8), np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.full(n, NO_VALUE, np.int64), np.full((n_boards, n), NO_VALUE, np.int64),
        np.zeros((n_boards, n_board_cards), np.int8), np.zeros(n_boards, np.int64),
        np.zeros(n_boards, np.bool_), np.zeros(n_boards, np.int64), np.zeros(deck_size // 4, np.int64),
        np.zeros(9, np.int64), pot, scratch,
    )  # fmt: skip


@njit(cache=True)
def _deal(h, plan, out, deck) -> None:
    """Hand ``h``'s cards into ``deck``: its given deal, or a shuffle of its random words."""
    n_cards = out.cards.shape[1]
    if plan.given:
        for i in range(n_cards):
            deck[i] = out.cards[h, i]
    else:
        shuffle_prefix(plan.words[h], deck, n_cards)
        out.cards[h] = deck[:n_cards]


@njit(cache=True)
def _discard_phase(h, plan, rules, out, work) -> int:
    """The discard board's forced discards and their tallies; returns how many seats keep a hand,
    and settles a hand that ends without a showdown (one seat left, or none)."""
    trigger = plan.board[rules.discard_board]
    n_streets = plan.board_street.max() + 1
    out.discard_street[h] = -1
    n_alive = _discard_streets(h, work.deck, plan.hole, trigger, plan.board_street, n_streets, work.alive,
                               work.before, out.discard_street, out.streets_dealt)  # fmt: skip
    _discard_tally(h, work.deck, plan.hole, trigger, plan.board_street[0], rules.points, work.alive,
                   out.discard_street, out.tally)  # fmt: skip
    for s in range(work.alive.shape[0]):
        out.dead[h, s] = not work.alive[s]
    pot = work.alive.shape[0] * plan.stake
    if n_alive == 0:  # everyone left died at once: they share the pot equally
        out.ending[h] = EVERYONE_DEAD
        award(pot, work.before, out.won[h], work.scratch.paid)
    elif n_alive == 1:
        out.ending[h] = UNCONTESTED
        award(pot, work.alive, out.won[h], work.scratch.paid)
    return n_alive


@njit(cache=True)
def _kept_cards(h, plan, rules, out, work) -> None:
    """Each seat's kept hole cards as a key, their count, and their points."""
    n_hole = plan.hole.shape[1]
    for s in range(plan.hole.shape[0]):
        work.hole_key[s] = 0
        work.kept_n[s] = 0
        total = 0
        for j in range(n_hole):
            if rules.discard_board < 0 or out.discard_street[h, s, j] == -1:
                c = work.deck[plan.hole[s, j]]
                work.hole_key[s] |= card_bit(c)
                work.kept_n[s] += 1
                total += rules.points[c >> 2]
        work.low_row[s] = total if work.alive[s] else NO_VALUE
        if rules.low_share:
            out.low[h, s] = work.low_row[s]


@njit(cache=True)
def _boards(h, plan, rules, out, work) -> int:
    """The boards' cards, which survive, the seats' best lows, and each seat's hand on each surviving
    community board; returns how many boards survive."""
    n_boards, n_board = plan.board.shape[0], plan.board.shape[1]
    for b in range(n_boards):
        for j in range(n_board):
            work.board_cards[b, j] = work.deck[plan.board[b, j]]
        work.last[b] = work.board_cards[b, n_board - 1]
        work.board_key[b] = board_key_of(work.board_cards[b], n_board)
    n_surviving = surviving(rules, work.last, work.board_alive)
    if rules.low_hands:
        seat_lows(work.hole_key, work.alive, work.board_key, work.board_alive, rules, work.low_row)
        for s in range(work.alive.shape[0]):
            out.low[h, s] = work.low_row[s]
    for b in range(n_boards):
        out.survivors[h, b] = work.board_alive[b]
        if not rules.community[b] or not work.board_alive[b]:
            continue
        if rules.hole_use == HOLE_ANY:  # the common case inlined (see engine.compiled.core.seat_strength)
            for s in range(work.alive.shape[0]):
                key = work.hole_key[s] | work.board_key[b]
                value = key_strength(key, rules.ranking, rules.kickers, rules.tables)
                work.per_board[b, s] = value if work.alive[s] else NO_VALUE
        else:
            restricted_strengths(rules.hole_use, work.hole_key, work.kept_n, work.alive, work.board_key[b],
                                 work.board_cards, b, n_board, rules.ranking, rules.kickers, rules.tables,
                                 work.per_board)  # fmt: skip
    return n_surviving


@njit(cache=True)
def _settle(h, pot, rules, out, work) -> int:
    """Divide the pot at the showdown and copy the hand's chips out; returns ``divide_pot``'s outcome."""
    into = work.pot
    into.won[:] = 0
    halves = rules.low_share or rules.low_hands  # chips of the high and the low halves apart
    if halves:
        into.won_high[:] = 0
        into.won_low[:] = 0
    if rules.board_shares:
        into.board_won[:] = 0
    if rules.one_share:
        s = work.scratch
        outcome = one_share_pot(pot, work.alive, work.per_board[rules.share_board[0]], into.won, s.winners,
                                s.paid)  # fmt: skip
    else:
        outcome = divide_pot(pot, work.alive, work.per_board, work.low_row, work.board_alive, rules, into,
                             work.scratch)  # fmt: skip
    out.won[h] = into.won
    if halves:
        out.won_high[h] = into.won_high
        out.won_low[h] = into.won_low
    if rules.board_shares:
        out.board_won[h] = into.board_won
    return outcome


@njit(cache=True)
def _sole_owner(plan, rules, work, n_surviving) -> int:
    """The seat alone best on every community board, killed boards evaluated too, else -1."""
    n_board = plan.board.shape[1]
    if n_surviving < plan.board.shape[0]:  # the killed boards decide it
        for b in range(plan.board.shape[0]):
            if rules.community[b] and not work.board_alive[b]:
                for s in range(work.alive.shape[0]):
                    work.per_board[b, s] = seat_strength(work.hole_key[s], work.kept_n[s], work.board_key[b],
                                                         work.board_cards, b, n_board, rules)  # fmt: skip
    return sole_best_everywhere(work.per_board, rules.community, work.alive, work.scratch.winners)


@njit(cache=True)
def _tally_showdown(h, pot, rules, out, work, outcome, owner, n_surviving) -> None:
    """A showdown hand's counts: scoops, splits, triples, kills, each seat's category and wins."""
    tally = out.tally
    tally[O_SHOWDOWN] += 1
    scooped = False  # one seat alone collected every chip
    for s in range(work.alive.shape[0]):
        scooped = scooped or work.pot.won[s] == pot
    tally[O_SCOOP] += scooped
    tally[O_SPLIT] += outcome == 1
    tally[O_TRIPLE] += owner >= 0
    if rules.kill != 0:
        tally[K_SURVIVING + n_surviving] += 1
        for b in range(work.last.shape[0]):
            if rules.community[b]:
                tally[K_BOARDS + (work.last[b] >> 2)] += 1
                tally[K_KILLED + (work.last[b] >> 2)] += not work.board_alive[b]
    halves = rules.low_share or rules.low_hands
    for s in range(work.alive.shape[0]):
        if rules.board_shares:
            out.triple[h, s] = s == owner
        best = np.int64(NO_VALUE)
        for b in range(work.last.shape[0]):
            if rules.community[b] and work.board_alive[b]:
                best = max(best, work.per_board[b, s])
        out.strength[h, s] = best
        if best < 0:
            continue
        # a winner collected chips of the high parts (as the replayed hands' players rows say)
        won_high_part = (work.pot.won_high[s] if halves else work.pot.won[s]) > 0
        category = category_of(best)
        tally[O_CATEGORY + category] += 1
        tally[O_CATEGORY_WON + category] += won_high_part
        work.categories[category] += 1
    _cluster_tally(work.categories, tally)


@njit(cache=True)
def simulate_hands(plan, rules, out) -> None:
    """Deal and settle every hand of ``out.cards`` under ``rules`` (``engine.compiled.core.Rules``)
    as ``plan`` (a ``DealPlan``) deals them, into ``out`` (a ``ShowdownHands``).

    ``out.outcomes[h]`` is 2 when one seat won every part of the pot alone, 1 when some part was
    split among tied hands, else 0 (also for a hand that ended before the showdown); a killed
    board is evaluated only when it decides ``triple`` (one seat alone best on every board,
    killed ones included). Winners in the tallies are seats that collected chips (of the high
    parts, beside a low share), as the replayed hands' players rows count them; a scoop is one
    seat collecting every chip.
    """
    n, n_boards = plan.hole.shape[0], plan.board.shape[0]
    work = showdown_work(n, n_boards, plan.board.shape[1], plan.deck_size)
    n_streets = plan.board_street.max() + 1
    pot = n * plan.stake
    for h in range(out.cards.shape[0]):
        _deal(h, plan, out, work.deck)
        work.alive[:] = True
        out.ending[h] = SHOWDOWN
        out.outcomes[h] = 0
        out.streets_dealt[h] = n_streets - 1
        if rules.discard_board >= 0 and _discard_phase(h, plan, rules, out, work) <= 1:
            continue
        _kept_cards(h, plan, rules, out, work)
        n_surviving = _boards(h, plan, rules, out, work)
        outcome = _settle(h, pot, rules, out, work)
        owner = -1
        if rules.board_shares and outcome == 2:
            owner = _sole_owner(plan, rules, work, n_surviving)
        out.outcomes[h] = outcome
        _tally_showdown(h, pot, rules, out, work, outcome, owner, n_surviving)
        if rules.discard_board >= 0:
            _remaining_tally(h, plan.hole, work.alive, out.discard_street, out.tally)
        if rules.low_share:
            _low_tally(h, work.deck, plan.hole, work.alive, out.discard_street, out.low, work.pot.won_low,
                       out.tally, work.rank_count)  # fmt: skip
