"""Compiled betting-mode play: deal, bet by built-in policies, discard, until the showdown.

``play_hands`` plays a chunk of no-limit, pot-limit or fixed-limit hands in one call and
never returns to Python per hand or per action. It follows ``engine.rules.state.HandState`` rule
for rule (posts, who acts first, bet sizes of each structure, short all-ins that reopen the
betting only as ``engine.rules.betting.reopens`` says, raise caps, a call-only first
round, uncalled bets returned, forced discards and dead hands) and records every action as the
state machine does; a test replays its output through the state machine and compares every row.
The hand in play and its moves are ``engine.compiled.hand_state`` and
``engine.compiled.betting_moves``, shared with compiled replay; each phase of a hand (deal a
street, open its betting, forced discards, a betting round, a policy's choice) is a function
here. The kernel stops where ``HandState.finish`` would start: the pots and showdowns are
``engine.compiled.betting_showdown.settle_hands``.

Random numbers come from a xoshiro256** generator whose state the caller seeds
from the shard's numpy generator, so a shard's hands depend on its seed alone.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.compiled.betting_moves import (
    after_action,
    check_or_call,
    complete_to,
    fold,
    post_bring_in,
    raise_to,
    raise_window,
    round_min_of,
)
from engine.compiled.draw_kernel import DrawPolicy, decision_seed_of, draw_scratch, hand_worth
from engine.compiled.draw_play import draw_signal, draws_after, play_draw_round
from engine.compiled.hand_state import (  # noqa: F401 (re-exported: the record's layout, for callers)
    ACTION_KINDS,
    BET,
    BETTING_ROUND,
    BIG_BET,
    BOARD_DEALT,
    BURNED,
    COMPLETION_DUE,
    COUNT,
    DEAD,
    DEAL,
    DISCARD,
    DRAW_ROUND,
    FIXED_LIMIT,
    FOLD,
    FOLDED,
    HAND_ACTIONS,
    HAS_ACTED,
    HOLE_DEALT,
    LABEL,
    MAX_BOARD,
    MAX_CARDS,
    N_DEALT,
    N_HOLE,
    N_LIVE,
    NEXT,
    NEXT_SEAT,
    NO_LIMIT,
    ONE_LEFT,
    PENDING,
    POT_LIMIT,
    RAISE,
    RAISES,
    RECORD_WIDTH,
    ROUND_BET,
    STACK,
    STREET,
    TOP,
    Streets,
    Table,
    bets_wait,
    betting_needed,
    copy_out,
    end_round,
    max_bet,
    new_hand,
    next_pending,
    open_betting,
    post_forced_bets,
    pot_of,
    record,
    refund_uncalled,
    reset_hand,
)
from engine.compiled.showing_kernel import open_by_cards, shown_a_better_hand
from engine.compiled.sim_kernels import EVERYONE_DEAD, SHOWDOWN, UNCONTESTED
from engine.hands.borrowed import borrowed
from engine.hands.kernels import PLACE_SHIFT, card_bit, category_of, key_strength
from engine.rules.draw_policy import WORTH_SAMPLES
from engine.rules.games.base import Structure
from engine.rules.pushfold_play import CALL_SPOT, NO_SPOT, PUSH_SPOT
from engine.rules.showing import THREAT

STATION, RANDOM, TAG, PUSHFOLD = 0, 1, 2, 3
POLICY_CODES = {"station": STATION, "random": RANDOM, "tag": TAG, "pushfold": PUSHFOLD}
STRUCTURE_CODES = {
    Structure.NO_LIMIT: NO_LIMIT,
    Structure.POT_LIMIT: POT_LIMIT,
    Structure.FIXED_LIMIT: FIXED_LIMIT,
}
CHOOSE_FOLD, CHOOSE_CALL, CHOOSE_RAISE = 0, 1, 2  # a policy's choice


class Players(NamedTuple):
    """How each seat plays: its policy, what ``TAG`` scores hands with, and the push/fold chart
    ``PUSHFOLD`` seats follow where ``chart_on`` and the spot is the chart's; ``draw``: how every
    seat draws."""

    policies: np.ndarray  # (seats,) STATION, RANDOM, TAG or PUSHFOLD
    ranking: int
    score_board: int  # the board TAG scores hands on
    kickers: bool
    tables: tuple
    chart_on: bool
    small_blind_seat: int
    held: int  # hole cards the chart's classes read
    class_of: np.ndarray
    binomial: np.ndarray
    push_prob: np.ndarray
    call_prob: np.ndarray
    categories: int  # a lowball ranking's categories (razz: TAG scores lows), 0 for a high one
    reads_up_cards: bool  # cards are dealt face up: TAG reads the opponents' showing hands
    min_cards: int  # the fewest cards the ranking evaluates (fewer: TAG scores starting cards)
    draw: DrawPolicy  # how seats draw, in a game with draws
    reads_draws: bool  # the game has draws: TAG reads how many cards each opponent drew
    scores_worth: bool  # a draw game of hole cards alone: TAG scores a hand by its worth (hand_worth)


class PlayedHands(NamedTuple):
    """What ``play_hands`` writes: the records (``rec``/``rec_cards``, hand h's from
    ``hand_start[h]`` to ``hand_start[h + 1]``) and, per hand and seat, the state where
    ``HandState.finish`` starts (``won`` is filled for hands that end without a showdown)."""

    rec: np.ndarray  # (actions, RECORD_WIDTH)
    rec_cards: np.ndarray  # (actions, MAX_CARDS)
    hand_start: np.ndarray  # (hands + 1,)
    ending: np.ndarray
    stacks: np.ndarray
    contributed: np.ndarray
    antes: np.ndarray
    folded: np.ndarray
    dead: np.ndarray
    won: np.ndarray
    dealt: np.ndarray  # (hands, seats, cards) every hole card dealt, discarded ones too
    hole: np.ndarray  # (hands, seats, cards) the hole cards kept
    hole_n: np.ndarray
    discarded: np.ndarray
    discarded_n: np.ndarray
    boards: np.ndarray
    board_n: np.ndarray


class HandRow(NamedTuple):
    """Hand h's rows of ``PlayedHands`` that play writes as it goes: every hole card dealt, the
    boards, the discards and what seats won without a showdown (views, taken once a hand)."""

    dealt: np.ndarray  # (seats, cards)
    boards: np.ndarray  # (boards, MAX_BOARD)
    board_n: np.ndarray  # (boards,)
    discarded: np.ndarray  # (seats, MAX_CARDS)
    discarded_n: np.ndarray  # (seats,)
    won: np.ndarray  # (seats,)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def next_word(state: np.ndarray) -> np.uint64:
    """xoshiro256**: the next 64 random bits; ``state`` is four uint64 words, updated."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True, inline="always")
def below(state: np.ndarray, k: int) -> int:
    """A uniform integer in [0, k) (53-bit float scaled; bias below 2**-40 for k < 2**13)."""
    return min(int(uniform(state) * k), k - 1)


@njit(cache=True, inline="always")
def uniform(state: np.ndarray) -> float:
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_word(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _starting_score(hole, n_hole, n_ranks):
    if n_hole == 0:
        return 0.0
    first = -1
    second = -1
    paired = False
    seen = 0
    for i in range(n_hole):
        rank = hole[i] >> 2
        if seen & (1 << rank):
            paired = True
        seen |= 1 << rank
        if rank > first:
            second = first
            first = rank
        elif rank > second:
            second = rank
    high = first / (n_ranks - 1)
    low = second / (n_ranks - 1) if n_hole > 1 else 0.0
    return min(1.0, 0.25 * high + 0.15 * low + (0.35 if paired else 0.0))


@njit(cache=True)
def _starting_low_score(hole, n_hole, n_ranks):
    """``engine.rules.policies._starting_low_score``."""
    if n_hole == 0:
        return 0.0
    top = 0
    seen = 0
    paired = False
    for i in range(n_hole):
        rank = ((hole[i] >> 2) + 1) % n_ranks
        paired = paired or (seen >> rank) & 1 == 1
        seen |= 1 << rank
        top = max(top, rank)
    return min(1.0, 0.7 * (1 - top / (n_ranks - 1)) + (0.0 if paired else 0.15))


@njit(cache=True)
def hand_score(hole, n_hole, board, n_board, ranking, kickers, tables, n_ranks, categories, min_cards):
    """``engine.rules.policies.hand_score`` before the up cards and draws: 0 (hopeless) to 1 (the
    nuts), from hole cards and one board (``categories``: 0 for a high ranking, scored out of 9
    whatever its order; else a lowball ranking's count; ``min_cards``: fewer are starting cards)."""
    if n_hole + n_board < min_cards:
        if categories:
            return _starting_low_score(hole, n_hole, n_ranks)
        return _starting_score(hole, n_hole, n_ranks)
    key = np.int64(0)
    for i in range(n_hole):
        key |= card_bit(hole[i])
    for i in range(n_board):
        key |= card_bit(board[i])
    strength = key_strength(key, ranking, kickers, tables)
    place = strength >> PLACE_SHIFT  # ordered strengths carry their place (policies.strength_score)
    if place == 0:
        place = category_of(strength)
    return (place + ((strength >> 16) & 0xF) / (n_ranks + 1)) / (categories if categories else 9)


@njit(cache=True)
def chart_class(hole, held, class_of, binomial):
    """``PushFoldChart.class_index``: the class of a seat's first ``held`` hole cards."""
    rank = 0
    for k in range(held):  # the k-th smallest card adds C(card, k + 1)
        smaller = 0
        for j in range(held):
            if hole[j] < hole[k] or (hole[j] == hole[k] and j < k):
                smaller += 1
        rank += binomial[hole[k], smaller]
    return class_of[rank]


@njit(cache=True)
def chart_spot(s, seat, small_blind_seat, raise_count, acted, call, folded, stacks, n):
    """``engine.rules.pushfold_play.spot_of`` for the kernel's state."""
    if s != 0:
        return NO_SPOT
    if seat == small_blind_seat and raise_count == 0 and not acted:
        return PUSH_SPOT
    others_all_in = False
    for o in range(n):
        if o != seat and not folded[o]:
            if stacks[o] > 0:
                return NO_SPOT
            others_all_in = True
    return CALL_SPOT if call > 0 and others_all_in else NO_SPOT


@njit(cache=True)
def _shuffle(h, deck, rng_state, fixed_decks) -> None:
    """Hand ``h``'s deck: its row of ``fixed_decks`` when there are rows, else a Fisher–Yates shuffle."""
    if fixed_decks.shape[0]:
        deck[:] = fixed_decks[h]
        return
    for i in range(deck.shape[0]):
        deck[i] = i
    for i in range(deck.shape[0] - 1):
        j = i + below(rng_state, deck.shape[0] - i)
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True)
def _deal_street(table, streets, hand, deck, row, cards) -> None:
    """Deal what the street deals: hole cards round-robin from seat 0 to the seats still in, then
    each board's cards after the burns."""
    seats, at, s = hand.seats, hand.at, hand.at[STREET]
    per_seat, per_board = streets.plan[HOLE_DEALT, s], streets.plan[BOARD_DEALT, s]
    burn = streets.plan[BURNED, s]
    if per_seat > 0 and per_board == 0:  # hole cards alone (stud): burn first, if the deck allows
        due = per_seat * at[N_LIVE]
        left = streets.deck_size - at[TOP]
        if streets.deck_runs_short and due > left:  # one community card for everyone, burning none
            per_seat, per_board, burn = 0, 1, 0
        elif not (streets.deck_runs_short and due > left - burn):
            at[TOP] += burn
    if per_seat > 0:
        for _round in range(per_seat):
            for seat in range(table.n):
                if not seats[FOLDED, seat]:
                    card = deck[at[TOP]]
                    at[TOP] += 1
                    hand.hole[seat, seats[N_HOLE, seat]] = card
                    seats[N_HOLE, seat] += 1
                    row.dealt[seat, seats[N_DEALT, seat]] = card
                    seats[N_DEALT, seat] += 1
        for seat in range(table.n):
            if not seats[FOLDED, seat]:
                for i in range(per_seat):
                    cards[i] = hand.hole[seat, seats[N_HOLE, seat] - per_seat + i]
                record(hand, at[LABEL], seat, DEAL, -1, cards, per_seat, -1, 0)
    if per_board > 0:
        at[TOP] += burn
        for b in range(streets.n_boards):
            for i in range(per_board):
                row.boards[b, row.board_n[b]] = deck[at[TOP]]
                cards[i] = deck[at[TOP]]
                row.board_n[b] += 1
                at[TOP] += 1
            record(hand, at[LABEL], -1, DEAL, -1, cards, per_board, b, 0)


@njit(cache=True, inline="always")
def _next_street(hand, table, streets) -> None:
    """Close the round (a street before the forced bets' round leaves them) and move on; actions
    after the last street keep its name."""
    if not bets_wait(streets.plan, hand.at[STREET]):
        end_round(hand, table.n)
    hand.at[STREET] += 1
    if hand.at[STREET] < streets.plan.shape[1]:
        hand.at[LABEL] = hand.at[STREET]


@njit(cache=True)
def _open_street(table, streets, hand) -> bool:
    """Start the street's betting (True), or close it when it has none or nobody can bet."""
    if streets.plan[BETTING_ROUND, hand.at[STREET]] and betting_needed(hand.seats, table.n):
        open_betting(table, streets, hand)
        if table.bring_in or streets.opener[hand.at[STREET]]:  # stud: every up card is known here
            open_by_cards(table, streets, hand)
        if hand.at[NEXT] < 0:
            raise ValueError("a betting round with nobody to act")
        return True
    _next_street(hand, table, streets)
    return False


@njit(cache=True)
def _discard_into(seat, ranks, hand, row, cards) -> int:
    """Move the seat's hole cards of ``ranks`` (a rank mask) out to ``cards``; returns how many."""
    seats = hand.seats
    kept = 0
    gone = 0
    for i in range(seats[N_HOLE, seat]):
        card = hand.hole[seat, i]
        if ranks & (1 << (card >> 2)):
            cards[gone] = card
            gone += 1
            row.discarded[seat, row.discarded_n[seat]] = card
            row.discarded_n[seat] += 1
        else:
            hand.hole[seat, kept] = card
            kept += 1
    seats[N_HOLE, seat] = kept
    return gone


@njit(cache=True)
def _everyone_dies(table, hand, row, dying) -> None:
    """Every seat left lost its hand at once: they share the pot equally, odd chips from seat 0."""
    seats = hand.seats
    refund_uncalled(hand, table.n)
    pot = pot_of(seats)
    share = pot // dying
    odd = pot - share * dying
    place = 0
    for seat in range(table.n):
        if not seats[FOLDED, seat]:
            seats[DEAD, seat] = True
            seats[FOLDED, seat] = True
            row.won[seat] = share + (1 if place < odd else 0)
            place += 1
    hand.at[N_LIVE] = 0


@njit(cache=True)
def _forced_discards(table, streets, hand, row, cards, betting) -> tuple[int, bool]:
    """The discard board forces matching hole cards out; empty hands die. Returns the hand's ending
    (-1: it goes on) and whether the betting round goes on."""
    seats, at = hand.seats, hand.at
    board = streets.discard_board
    ranks = 0
    for i in range(row.board_n[board]):
        ranks |= 1 << (row.boards[board, i] >> 2)
    street = at[STREET] - (0 if betting else 1)  # the street that dealt the board
    for seat in range(table.n):
        if not seats[FOLDED, seat]:
            gone = _discard_into(seat, ranks, hand, row, cards)
            if gone:
                record(hand, street, seat, DISCARD, -1, cards, gone, -1, 0)
    dying = 0
    for seat in range(table.n):
        dying += not seats[FOLDED, seat] and seats[N_HOLE, seat] == 0
    if dying == 0:
        return -1, betting
    if dying == at[N_LIVE]:
        _everyone_dies(table, hand, row, dying)
        return EVERYONE_DEAD, False
    for seat in range(table.n):
        if not seats[FOLDED, seat] and seats[N_HOLE, seat] == 0:
            seats[DEAD, seat] = True
            seats[FOLDED, seat] = True
            at[N_LIVE] -= 1
            seats[PENDING, seat] = False
            record(hand, at[LABEL], seat, FOLD, -1, cards, 0, -1, 1)
    if at[N_LIVE] == 1:
        return UNCONTESTED, betting
    if betting:
        if next_pending(seats, 0, table.n) < 0 or not betting_needed(seats, table.n):
            _next_street(hand, table, streets)
            return -1, False
        if not seats[PENDING, at[NEXT]]:
            at[NEXT] = next_pending(seats, at[NEXT], table.n)
    return -1, betting


@njit(cache=True)
def _random_choice(rng_state, window, call) -> tuple[int, int]:
    """``RANDOM``: fold (when facing a bet), call or check, or raise (when it may) with equal
    chances; a raise to a uniform amount of the window."""
    can_raise, low, high = window
    n_choices = 1 + (1 if call > 0 else 0) + (1 if can_raise else 0)
    pick = below(rng_state, n_choices)
    if pick == 1 and call > 0:
        return CHOOSE_FOLD, 0
    if pick >= 1:
        return CHOOSE_RAISE, low + below(rng_state, high - low + 1)
    return CHOOSE_CALL, 0


@njit(cache=True)
def _chart_choice(players, rng_state, hole, spot, can_raise, high) -> tuple[int, int]:
    """``PUSHFOLD`` in a spot of its chart: push (or call) with the chart's chance, else fold."""
    index = chart_class(hole, players.held, players.class_of, players.binomial)
    chance = players.push_prob[index] if spot == PUSH_SPOT else players.call_prob[index]
    if uniform(rng_state) >= chance:
        return CHOOSE_FOLD, 0
    if spot == PUSH_SPOT and can_raise:
        return CHOOSE_RAISE, high
    return CHOOSE_CALL, 0


@njit(cache=True)
def _scored_choice(score, window, call, current, pot) -> tuple[int, int]:
    """``TAG``: raise half the pot with a score of 0.42 or more, call from 0.25, else check or fold."""
    can_raise, low, high = window
    if score >= 0.42 and can_raise:
        return CHOOSE_RAISE, min(max(low, current + pot // 2), high)
    if score >= 0.25 or call == 0:
        return CHOOSE_CALL, 0
    return CHOOSE_FOLD, 0


@njit(cache=True)
def _tag_score(table, streets, players, hand, scored_board, seat, draw_work) -> float:
    """What ``TAG`` scores the seat's hand (``engine.rules.policies.hand_score``): by its cards and
    the board it is scored on (``scored_board``: the cards and their count), less ``THREAT`` where an
    opponent shows a better hand; in a draw game of hole cards alone by ``hand_worth``
    (``WORTH_SAMPLES`` deals, seeded by the hole cards, the street and the seat) to the power of the
    live opponents; in any game with draws moved by ``THREAT`` by the latest draw."""
    seats, at = hand.seats, hand.at
    board, n_board = scored_board
    n_ranks = streets.deck_size // 4
    if players.scores_worth:
        n_hole, key = seats[N_HOLE, seat], np.int64(0)
        for i in range(n_hole):
            key |= card_bit(hand.hole[seat, i])
        policy, draws_left = players.draw, draws_after(streets.plan, at[STREET])
        score = hand_worth(hand.hole[seat], n_hole, draws_left, streets.deck_size, players.ranking,
                           players.kickers, players.tables, policy.keys, policy.below, WORTH_SAMPLES,
                           decision_seed_of(key, at[STREET], seat), draw_work)  # fmt: skip
        beats_all = 1.0
        for _ in range(at[N_LIVE] - 1):  # the chance of beating every live opponent
            beats_all *= score
        return min(1.0, max(0.0, beats_all + THREAT * draw_signal(seats, at, table.n, seat)))
    score = hand_score(hand.hole[seat], seats[N_HOLE, seat], board, n_board, players.ranking, players.kickers,
                       players.tables, n_ranks, players.categories, players.min_cards)  # fmt: skip
    lowball = players.categories > 0
    if players.reads_up_cards and shown_a_better_hand(hand.hole, seats, streets.up, table.n, seat, lowball,
                                                      n_ranks):  # fmt: skip
        score = max(0.0, score - THREAT)
    if players.reads_draws:
        score = min(1.0, max(0.0, score + THREAT * draw_signal(seats, at, table.n, seat)))
    return score


@njit(cache=True)
def _betting_round(table, streets, players, rng_state, hand, row, cards, draw_work) -> int:
    """Seats act in turn until the round closes (-1: the hand goes on) or one seat is left. Each
    seat's policy decides: ``CHOOSE_FOLD``, ``CHOOSE_CALL`` (or check) or ``CHOOSE_RAISE`` an amount
    (``TAG`` scores hands on the board ``players.score_board``). The choice is made here, each policy
    reading only the arrays it needs: numba counts references on every array a call passes."""
    seats, at = hand.seats, hand.at
    board, n_board = row.boards[players.score_board], row.board_n[players.score_board]
    while True:
        seat = at[NEXT]
        policy = players.policies[seat]
        choice, to = CHOOSE_CALL, 0  # STATION checks or calls (or brings in)
        due, completing, round_min = at[COMPLETION_DUE], False, 0  # (a bring-in game's first street)
        if due:
            bet_so_far = max_bet(seats, table.n)
            round_min = round_min_of(table, streets.plan[BIG_BET, at[STREET]])
            completing = bet_so_far < round_min  # a bet completes the bring-in
            due = bet_so_far == 0  # nothing bet: the bring-in is due
        if policy != STATION:
            current = max_bet(seats, table.n)
            window = raise_window(table, streets, seats, at, seat)
            if completing:  # to the whole bet, or all in short of it
                whole = min(round_min, seats[ROUND_BET, seat] + seats[STACK, seat])
                window = (window[0], whole, whole)
            call = min(current - seats[ROUND_BET, seat], seats[STACK, seat])
            spot = NO_SPOT
            if policy == PUSHFOLD and players.chart_on:
                acted = seats[HAS_ACTED, seat]
                spot = chart_spot(at[STREET], seat, players.small_blind_seat, at[RAISES], acted, call,
                                  seats[FOLDED], seats[STACK], table.n)  # fmt: skip
            if policy == RANDOM:
                choice, to = _random_choice(rng_state, window, call)
            elif spot != NO_SPOT:
                choice, to = _chart_choice(players, rng_state, hand.hole[seat], spot, window[0], window[2])
            else:  # TAG, and PUSHFOLD away from its chart
                score = _tag_score(table, streets, players, hand, (board, n_board), seat, draw_work)
                choice, to = _scored_choice(score, window, call, current, pot_of(seats))
        if due and choice != CHOOSE_RAISE:  # nothing bet: a call (or fold) brings in
            post_bring_in(table, hand, seat, cards)
        elif choice == CHOOSE_FOLD:
            fold(hand, seat, cards)
        elif choice == CHOOSE_CALL:
            check_or_call(hand, table.n, seat, cards)
        elif completing:
            complete_to(table, hand, seat, to, round_min, cards)
        else:
            raise_to(table, streets, hand, seat, to, cards)
        after = after_action(hand, table.n, seat, choice == CHOOSE_RAISE)
        if after == ONE_LEFT:
            return UNCONTESTED
        if after != NEXT_SEAT:
            _next_street(hand, table, streets)
            return -1


@njit(cache=True)
def _play_hand(table, streets, players, rng_state, deck, hand, row, cards, draw_work) -> int:
    """Play a hand to where ``HandState.finish`` starts; returns its ending (``draw_work``: a
    ``DrawScratch``, the stub and the drawing policy's room)."""
    at = hand.at
    n_streets = streets.plan.shape[1]
    post_forced_bets(table, hand, cards)
    result = -1
    while result < 0:
        _deal_street(table, streets, hand, deck, row, cards)
        if at[N_LIVE] <= 1:
            return UNCONTESTED
        if streets.plan[DRAW_ROUND, at[STREET]]:
            play_draw_round(streets, players, hand, row, cards, draw_work, deck, next_word(rng_state))
        dealt_board = streets.plan[BOARD_DEALT, at[STREET]] > 0
        betting = _open_street(table, streets, hand)
        if streets.discard_board >= 0 and dealt_board:
            result, betting = _forced_discards(table, streets, hand, row, cards, betting)
            if result >= 0:
                return result
        if betting:
            result = _betting_round(table, streets, players, rng_state, hand, row, cards, draw_work)
        if result < 0 and at[STREET] >= n_streets:
            result = SHOWDOWN
    return result


@njit(cache=True)
def _copy_out(h, hand, out, position, result, n) -> None:
    """Hand ``h``'s records from ``position`` and its seats' state where ``HandState.finish`` starts."""
    copy_out(h, n, hand, out, position)
    out.hand_start[h + 1] = position + hand.at[COUNT]
    out.ending[h] = result
    for seat in range(n):
        out.stacks[h, seat] += out.won[h, seat]  # hands won without a showdown
        out.dead[h, seat] = hand.seats[DEAD, seat]


@njit(cache=True, nogil=True)  # (a writer thread builds and encodes the last chunk meanwhile)
def play_hands(n_hands, stake, table, streets, players, rng_state, fixed_decks, out) -> int:
    """Play up to ``n_hands`` hands with ``stake`` chips a seat; returns how many fit in ``out.rec``
    (the rest wait for a bigger one).

    ``table``, ``streets`` and ``players`` are ``Table``, ``Streets`` and ``Players``; ``out`` a
    ``PlayedHands``. ``fixed_decks`` (one row per hand, or no rows) deals given decks instead of
    shuffled ones, for tests. Records are laid out as ``engine.compiled.hand_state`` says (the
    ``R_*`` columns).
    """
    room = (new_hand(table.n), np.empty(streets.deck_size, np.int8), np.empty(MAX_CARDS, np.int8),
            np.empty(4, np.uint64), np.full(table.n, stake),
            draw_scratch(streets.deck_size, max(players.draw.samples, WORTH_SAMPLES)))  # fmt: skip
    return _play_hands(n_hands, (table, streets, players, rng_state, fixed_decks, out), room)


@njit(cache=True)
def _play_hands(n_hands, given, room) -> int:
    """``play_hands`` with its arguments and its room (the hand, the deck, a street's cards, the
    generator's saved state, the stacks, the draws' room) borrowed: the caller holds them."""
    table, streets, players, rng_state, fixed_decks, out = borrowed(given)
    hand, deck, cards, saved, stakes, draw_work = borrowed(room)
    position = out.hand_start[0]
    for h in range(n_hands):
        saved[:] = rng_state
        reset_hand(hand, stakes, table.n)
        row = HandRow(
            out.dealt[h], out.boards[h], out.board_n[h], out.discarded[h], out.discarded_n[h], out.won[h]
        )
        row.discarded_n[:] = 0
        row.board_n[:] = 0
        row.won[:] = 0
        _shuffle(h, deck, rng_state, fixed_decks)
        result = _play_hand(table, streets, players, rng_state, deck, hand, row, cards, draw_work)
        refund_uncalled(hand, table.n)
        k = hand.at[COUNT]
        if k > HAND_ACTIONS:
            raise ValueError("a hand has more actions than play_hands has room for")
        if position + k > out.rec.shape[0]:
            rng_state[:] = saved  # replay this hand in the next call, with more room
            return h
        _copy_out(h, hand, out, position, result, table.n)
        position += k
    return n_hands
