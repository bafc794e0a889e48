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
    surviving_of,
)
from engine.compiled.draw_kernel import DrawPolicy, DrawScratch, draw_round, draw_scratch
from engine.hands.borrowed import borrowed
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
CATEGORY_SLOTS = 16  # the most categories a ranking has (deuce-to-seven lows)
O_SHOWDOWN, O_SCOOP, O_SPLIT, O_TRIPLE, O_CATEGORY = 0, 1, 2, 3, 4
O_CATEGORY_WON = O_CATEGORY + CATEGORY_SLOTS
K_SURVIVING = O_CATEGORY_WON + CATEGORY_SLOTS  # K_SURVIVING + boards left (1..3)
K_BOARDS = K_SURVIVING + 4
K_KILLED = K_BOARDS + 13
T_BASE = K_KILLED + 13
T_HELD, T_FORCED, T_STREET = T_BASE, T_BASE + 13, T_BASE + 26
T_DEAD_ON_FIRST, T_DEAD = T_STREET + STREET_SLOTS, T_STREET + STREET_SLOTS + 1
T_REMAINING = T_DEAD + 1
T_PAIRS, T_PAIRS_WON = T_REMAINING + 7, T_REMAINING + 11
T_LOW_WINNERS, T_LOW_WINNERS_ACE = T_REMAINING + 15, T_REMAINING + 16
T_LOW_POINTS, T_LOW_POINTS_WON, T_FULL_BOARD_POINTS = T_REMAINING + 17, T_REMAINING + 78, T_REMAINING + 139
# per category, over showdown hands: the square of the hand's seats of it, and that times the hand's
# seats at the showdown; the square of those seats, and the seats (a variance clustered by hand)
C_SQUARES = T_REMAINING + 200
C_BY_SEATS = C_SQUARES + CATEGORY_SLOTS
C_SEATS_SQUARED = C_BY_SEATS + CATEGORY_SLOTS
C_SEATS = C_SEATS_SQUARED + 1
TALLY_SIZE = C_SEATS + 1


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
    for category in range(CATEGORY_SLOTS):
        seats += counts[category]
    for category in range(CATEGORY_SLOTS):
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
    n_streets: int
    draw_burns: np.ndarray  # (streets,) burns before each street's draw, -1: none (engine.rules.sim_layout)
    stub_from: int  # the position the draws deal from (-1: no draws)
    draw_policy: DrawPolicy


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
    final_hole: np.ndarray  # a draw game: (hands, seats, hole cards) held at the showdown
    drawn: np.ndarray  # (hands, seats, streets) cards drawn on each street
    thrown: np.ndarray  # (hands, streets, seats, hole cards) cards thrown in hole order, -1 after
    received: np.ndarray  # (hands, streets, seats, hole cards) cards drawn in deal order, -1 after


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
    categories: np.ndarray  # (CATEGORY_SLOTS,) one hand's seats of each category at the showdown
    pot: PotWinnings  # one hand's chips, copied out where the game has them
    scratch: SeatScratch
    hands: np.ndarray  # (seats, hole cards) a draw game's cards held
    draw: DrawScratch  # the stub and the policies' scratch (engine.compiled.draw_kernel)


@njit(cache=True)
def showdown_work(n, n_boards, n_board_cards, deck_size, n_hole, samples) -> ShowdownWork:
    """Fresh ``ShowdownWork`` for ``n`` seats and ``n_boards`` boards of ``n_board_cards`` cards."""
    pot = PotWinnings(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                      np.zeros((n, n_boards), np.int64))  # fmt: skip
    scratch = SeatScratch(np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros(n, np.int64))
    return ShowdownWork(
        np.empty(deck_size, np.int8), np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.full(n, NO_VALUE, np.int64), np.full((n_boards, n), NO_VALUE, np.int64),
        np.zeros((n_boards, n_board_cards), np.int8), np.zeros(n_boards, np.int64),
        np.zeros(n_boards, np.bool_), np.zeros(n_boards, np.int64), np.zeros(deck_size // 4, np.int64),
        np.zeros(CATEGORY_SLOTS, np.int64), pot, scratch, np.zeros((n, n_hole), np.int8),
        draw_scratch(deck_size, samples),
    )  # fmt: skip


@njit(cache=True)
def _triple_owner(
    rules, hole_key, kept_n, board_key, board_cards, board_alive, alive, per_board, winners
) -> int:
    """The seat alone best on every community board, killed boards evaluated too, else -1."""
    for b in range(board_key.shape[0]):
        if rules.community[b] and not board_alive[b]:
            for s in range(alive.shape[0]):
                per_board[b, s] = seat_strength(hole_key[s], kept_n[s], board_key[b], board_cards, b,
                                                board_cards.shape[1], rules)  # fmt: skip
    return sole_best_everywhere(per_board, rules.community, alive, winners)


@njit(cache=True, inline="always")  # (once a hand, and it calls nothing: inlined, it passes no arrays)
def _tally_outcome(
    pot, outcome, owner, n_surviving, kill, community, won_row, last, board_alive, tally
) -> None:
    """A showdown hand's scoop, split, triple and kill counts."""
    tally[O_SHOWDOWN] += 1
    scooped = False  # one seat alone collected every chip
    for s in range(won_row.shape[0]):
        scooped = scooped or won_row[s] == pot
    tally[O_SCOOP] += scooped
    tally[O_SPLIT] += outcome == 1
    tally[O_TRIPLE] += owner >= 0
    if kill != 0:
        tally[K_SURVIVING + n_surviving] += 1
        for b in range(last.shape[0]):
            if community[b]:
                tally[K_BOARDS + (last[b] >> 2)] += 1
                tally[K_KILLED + (last[b] >> 2)] += not board_alive[b]


@njit(cache=True)
def _tally_seats(h, owner, community, board_shares, per_board, board_alive, won_part, strength, triple, tally,
                 categories) -> None:  # fmt: skip
    """Each seat's hand (its best on a surviving board), the triple scoop, and the category counts;
    ``won_part`` holds the chips of the high parts (a winner collected some)."""
    for s in range(won_part.shape[0]):
        if board_shares:
            triple[h, s] = s == owner
        best = np.int64(NO_VALUE)
        for b in range(board_alive.shape[0]):
            if community[b] and board_alive[b]:
                best = max(best, per_board[b, s])
        strength[h, s] = best
        if best < 0:
            continue
        category = category_of(best)
        tally[O_CATEGORY + category] += 1
        tally[O_CATEGORY_WON + category] += won_part[s] > 0
        categories[category] += 1
    _cluster_tally(categories, tally)


@njit(cache=True)
def _draws(h, plan, rules, out, work) -> None:
    """Every draw round of hand ``h``: the seats' cards in ``work.hands``, what each threw and drew."""
    words = plan.words
    seed = words[h, words.shape[1] - 1]
    if plan.given:  # the chunk's seed, stepped for each deal (engine.compiled.simulate.given_draw_seeds)
        seed = words[0, 0] + np.uint64(h + 1) * np.uint64(0xD1B54A32D192ED03)
    hands, stub, at, deck = work.hands, work.draw.stub, work.draw.at, work.deck
    n, n_hole = hands.shape
    for s in range(n):
        for j in range(n_hole):
            hands[s, j] = deck[plan.hole[s, j]]
    count = plan.deck_size - plan.stub_from
    for i in range(count):
        stub[i] = deck[plan.stub_from + i]
    at[0], at[1], at[2], at[3] = 0, count, 0, np.int64(seed)
    draws_left = 0
    for street in range(plan.n_streets):
        draws_left += plan.draw_burns[street] >= 0
    for street in range(plan.n_streets):
        burns = plan.draw_burns[street]
        out.drawn[h, :, street] = 0
        if burns >= 0:
            draws_left -= 1
            draw_round(hands, n_hole, burns, plan.draw_policy, rules, work.draw, seed, street, draws_left,
                       out.drawn[h, :, street], out.thrown[h, street], out.received[h, street])  # fmt: skip
    out.final_hole[h] = hands


@njit(cache=True, nogil=True)  # (a writer thread encodes the last chunk meanwhile)
def simulate_hands(plan, rules, out) -> None:
    """Deal and settle every hand of ``out.cards`` under ``rules`` as ``plan`` deals them, into ``out``.

    ``outcomes[h]``: 2 when one seat won every part of the pot alone, 1 when some part was split
    among tied hands, else 0. Tallies count as winners the seats that collected chips of the high
    parts; a killed board is evaluated only for the triple scoop. The loop (``_simulate_hands``)
    reads the structures borrowed, their arrays taken out once (docs/architecture.md)."""
    hole, board = plan.hole, plan.board
    work = showdown_work(hole.shape[0], board.shape[0], board.shape[1], plan.deck_size, hole.shape[1],
                         plan.draw_policy.samples)  # fmt: skip
    _simulate_hands(plan, rules, out, work)


@njit(cache=True)
def _simulate_hands(plan, rules, out, work) -> None:
    """``simulate_hands`` in ``work`` (which the caller holds, as it holds the rest: borrowed)."""
    plan, rules, out, work = borrowed((plan, rules, out, work))
    hole, board, cards, low, words = plan.hole, plan.board, out.cards, out.low, plan.words
    ending, outcomes, dealt_to, survivors = out.ending, out.outcomes, out.streets_dealt, out.survivors
    tally, dead, discard_street, strength = out.tally, out.dead, out.discard_street, out.strength
    triple, won, won_high, won_low, board_won = out.triple, out.won, out.won_high, out.won_low, out.board_won
    n, n_hole, n_boards, n_board = hole.shape[0], hole.shape[1], board.shape[0], board.shape[1]
    deck, alive, before, hole_key, kept_n = work.deck, work.alive, work.before, work.hole_key, work.kept_n
    per_board, board_cards, last, board_alive = work.per_board, work.board_cards, work.last, work.board_alive
    board_key, low_row, won_row, high_row = work.board_key, work.low_row, work.pot.won, work.pot.won_high
    low_won_row, board_row = work.pot.won_low, work.pot.board_won
    pot_into, scratch, categories, rank_count = work.pot, work.scratch, work.categories, work.rank_count
    winners, paid = scratch.winners, scratch.paid
    ranking, kickers, hole_use, tables = rules.ranking, rules.kickers, rules.hole_use, rules.tables
    discard_board, community, points = rules.discard_board, rules.community, rules.points
    halves = rules.low_share or rules.low_hands  # chips of the high and the low halves apart
    won_part = high_row if halves else won_row  # the high parts' chips (a winner collected some)
    board_street, n_streets = plan.board_street, plan.n_streets
    draws = plan.stub_from >= 0
    trigger = board[max(discard_board, 0)]
    pot = n * plan.stake
    for h in range(cards.shape[0]):
        if plan.given:
            deck[: cards.shape[1]] = cards[h]
        else:
            shuffle_prefix(words[h], deck, cards.shape[1])
            cards[h] = deck[: cards.shape[1]]
        alive[:] = True
        ending[h] = SHOWDOWN
        outcomes[h] = 0
        dealt_to[h] = n_streets - 1
        if discard_board >= 0:
            discard_street[h] = -1
            n_alive = _discard_streets(h, deck, hole, trigger, board_street, n_streets, alive, before,
                                       discard_street, dealt_to)  # fmt: skip
            _discard_tally(h, deck, hole, trigger, board_street[0], points, alive, discard_street,
                           tally)  # fmt: skip
            dead[h] = ~alive
            if n_alive <= 1:  # one seat left takes the pot; none: they share it equally
                ending[h] = EVERYONE_DEAD if n_alive == 0 else UNCONTESTED
                award(pot, before if n_alive == 0 else alive, won[h], paid)
                continue
        if draws:
            _draws(h, plan, rules, out, work)
        for s in range(n):  # the cards each seat keeps, and their points
            hole_key[s] = 0
            kept_n[s] = 0
            total = 0
            for j in range(n_hole):
                if discard_board < 0 or discard_street[h, s, j] == -1:
                    c = work.hands[s, j] if draws else deck[hole[s, j]]
                    hole_key[s] |= card_bit(c)
                    kept_n[s] += 1
                    total += points[c >> 2]
            low_row[s] = total if alive[s] else NO_VALUE
            if rules.low_share:
                low[h, s] = low_row[s]
        for b in range(n_boards):
            for j in range(n_board):
                board_cards[b, j] = deck[board[b, j]]
            last[b] = board_cards[b, n_board - 1] if n_board else -1  # (no board: a kill needs one)
            board_key[b] = board_key_of(board_cards[b], n_board)
        n_surviving = surviving_of(rules.kill, community, last, board_alive)
        if rules.low_hands:
            seat_lows(hole_key, alive, board_key, board_alive, rules, low_row)
            low[h] = low_row
        for b in range(n_boards):
            survivors[h, b] = board_alive[b]
            if not community[b] or not board_alive[b]:
                continue
            if hole_use == HOLE_ANY:  # the common case inlined (see engine.compiled.core.seat_strength)
                for s in range(n):
                    key = hole_key[s] | board_key[b]
                    per_board[b, s] = key_strength(key, ranking, kickers, tables) if alive[s] else NO_VALUE
            else:
                restricted_strengths(hole_use, hole_key, kept_n, alive, board_key[b], board_cards, b, n_board,
                                     ranking, kickers, tables, per_board)  # fmt: skip
        won_row.fill(0)
        if halves:
            high_row.fill(0)
            low_won_row.fill(0)
        if rules.board_shares:
            board_row.fill(0)
        if rules.one_share:
            outcome = one_share_pot(pot, alive, per_board[rules.share_board[0]], won_row, winners, paid)
        else:
            outcome = divide_pot(pot, alive, per_board, low_row, board_alive, rules, pot_into, scratch)
        won[h] = won_row
        if halves:
            won_high[h] = high_row
            won_low[h] = low_won_row
        if rules.board_shares:
            board_won[h] = board_row
        owner = -1
        if rules.board_shares and outcome == 2:
            owner = _triple_owner(rules, hole_key, kept_n, board_key, board_cards, board_alive, alive,
                                  per_board, winners)  # fmt: skip
        outcomes[h] = outcome
        _tally_outcome(pot, outcome, owner, n_surviving, rules.kill, community, won_row, last, board_alive,
                       tally)  # fmt: skip
        _tally_seats(
            h,
            owner,
            community,
            rules.board_shares,
            per_board,
            board_alive,
            won_part,
            strength,
            triple,
            tally,
            categories,
        )
        if discard_board >= 0:
            _remaining_tally(h, hole, alive, discard_street, tally)
        if rules.low_share:
            _low_tally(h, deck, hole, alive, discard_street, low, low_won_row, tally, rank_count)
