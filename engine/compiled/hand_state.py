"""One hand in play, compiled: the seats, the round and the record, and the betting moves on them.

Betting-mode play (``engine.compiled.betting_kernel``) and compiled replay
(``engine.compiled.replay_kernel``) keep a hand in the same ``Hand`` and move it with the same
functions: post the forced bets, open a betting round, fold, check or call, bet or raise, close
the round (the uncalled part of the largest bet goes back). Each follows the rule of
``engine.rules.state.HandState`` of the same name; the size rules are ``engine.rules.betting``'s.
A new mechanic adds a field to ``Table``, ``Streets`` or ``Seats``, not a parameter to every kernel.

Every recorded action is a row of ``RECORD_WIDTH`` numbers (``R_*`` columns) and up to
``MAX_CARDS`` cards. Its stack and pot after are those once the action and the uncalled bet it
returns (when it closes a round or the hand) are applied; winnings never count.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# action kinds, in the order of ``ACTION_KINDS`` (replay alone records SHOW and MUCK)
POST, FOLD, CHECK, CALL, BET, RAISE, DISCARD, DEAL, SHOW, MUCK = range(10)
ACTION_KINDS = ("post", "fold", "check", "call", "bet", "raise", "discard", "deal", "show", "muck")
NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2  # betting structures
MAX_CARDS = 6  # hole cards per seat, and cards per recorded action
MAX_BOARD = 5
HAND_ACTIONS = 4096  # room for one hand's actions; no-limit with these blinds needs far fewer
# columns of a recorded action
R_STREET, R_SEAT, R_KIND, R_AMOUNT, R_BOARD, R_AUTOMATIC, R_CARDS, R_STACK, R_POT = range(9)
RECORD_WIDTH = 9
# the round's numbers (``Hand.at``)
STREET, LABEL, N_LIVE, NEXT, RAISES, LAST_INC, COUNT, PHASE, BOARD_DUE, ENDING, TOP = range(11)
AT_SIZE = 11
# what ``after_action`` leaves to the caller
NEXT_SEAT, ROUND_OVER, ONE_LEFT = 0, 1, 2


class Table(NamedTuple):
    """The bets of a hand: forced bets per seat, the structure and its sizes, the raise rules."""

    n: int  # seats
    antes: np.ndarray  # (seats,) dead
    blinds: np.ndarray  # (seats,) live
    starting_bet: int  # seat 0's live starting bet (0: none)
    min_bet: int
    structure: int  # NO_LIMIT, POT_LIMIT or FIXED_LIMIT
    small_bet: int  # fixed limit: the bet of the small-bet streets
    big_bet: int  # fixed limit: the bet of the big-bet streets
    double_raise: bool  # a raise at least doubles the bet
    raise_cap: int  # full raises a round allows (-1: no cap)


class Streets(NamedTuple):
    """What each street deals and how it bets, and the boards and deck of the game."""

    hole: np.ndarray  # (streets,) hole cards per seat
    board: np.ndarray  # (streets,) cards per board
    burns: np.ndarray  # (streets,) cards burned before the boards
    betting: np.ndarray  # (streets,) bool: a betting round follows
    call_only: np.ndarray  # (streets,) bool: nobody may bet or raise
    big_bet: np.ndarray  # (streets,) bool: fixed limit's big bet
    n_boards: int
    discard_board: int  # the board whose ranks force hole cards out (-1: none)
    deck_size: int


class Seats(NamedTuple):
    """Each seat's chips, standing and cards in the hand in play."""

    stacks: np.ndarray
    bets: np.ndarray  # this round's live bets
    contributed: np.ndarray  # everything put in, antes included
    antes_paid: np.ndarray
    folded: np.ndarray  # bool
    dead: np.ndarray  # bool: lost every hole card to forced discards
    mucked: np.ndarray  # 0, or k for the k-th muck
    pending: np.ndarray  # bool: still to act this round
    has_acted: np.ndarray  # bool: acted since the last full raise
    acted: np.ndarray  # the bet each seat last acted on
    due: np.ndarray  # hole cards still to be dealt this street
    hole: np.ndarray  # (seats, MAX_CARDS) int8
    n_hole: np.ndarray  # hole cards held
    n_dealt: np.ndarray  # hole cards dealt, discarded ones too


class Hand(NamedTuple):
    """A hand in play: its seats, its round's numbers (``at``, indexed by ``STREET``...), its record."""

    seats: Seats
    at: np.ndarray  # (AT_SIZE,) int64
    rows: np.ndarray  # (HAND_ACTIONS, RECORD_WIDTH) int64
    cards: np.ndarray  # (HAND_ACTIONS, MAX_CARDS) int8


@njit(cache=True)
def new_hand(width) -> Hand:
    """Room for one hand of up to ``width`` seats."""
    i, b = np.int64, np.bool_
    seats = Seats(
        np.zeros(width, i), np.zeros(width, i), np.zeros(width, i), np.zeros(width, i), np.zeros(width, b),
        np.zeros(width, b), np.zeros(width, i), np.zeros(width, b), np.zeros(width, b), np.zeros(width, i),
        np.zeros(width, i), np.full((width, MAX_CARDS), -1, np.int8), np.zeros(width, i), np.zeros(width, i),
    )  # fmt: skip
    rows = np.zeros((HAND_ACTIONS, RECORD_WIDTH), i)
    return Hand(seats, np.zeros(AT_SIZE, i), rows, np.full((HAND_ACTIONS, MAX_CARDS), -1, np.int8))


@njit(cache=True)
def reset_hand(hand, stacks, n) -> None:
    """Start a hand of ``n`` seats with ``stacks`` (one per seat, or one for every seat)."""
    seats = hand.seats
    for s in range(seats.stacks.shape[0]):
        seats.stacks[s] = stacks[min(s, stacks.shape[0] - 1)] if s < n else 0
    for values in (seats.bets, seats.contributed, seats.antes_paid, seats.mucked, seats.acted, seats.due,
                   seats.n_hole, seats.n_dealt):  # fmt: skip
        values[:] = 0
    for flags in (seats.folded, seats.dead, seats.pending, seats.has_acted):
        flags[:] = False
    seats.hole[:] = -1
    hand.at[:] = 0
    hand.at[N_LIVE] = n
    hand.at[NEXT] = -1


@njit(cache=True, inline="always")
def record(hand, street, seat, kind, amount, cards, n_cards, board, automatic) -> None:
    """Record an action with the stack (of ``seat``; -1: none) and pot after it."""
    k = hand.at[COUNT]
    hand.at[COUNT] = k + 1
    if k >= hand.rows.shape[0]:
        return  # counted, not stored: the caller reports the overflow
    row = hand.rows[k]
    row[R_STREET], row[R_SEAT], row[R_KIND], row[R_AMOUNT] = street, seat, kind, amount
    row[R_BOARD], row[R_AUTOMATIC], row[R_CARDS] = board, automatic, n_cards
    row[R_STACK] = hand.seats.stacks[seat] if seat >= 0 else -1
    row[R_POT] = hand.seats.contributed.sum()
    for i in range(MAX_CARDS):
        hand.cards[k, i] = cards[i] if i < n_cards else -1


@njit(cache=True)
def copy_out(h, n, hand, out, position) -> None:
    """Hand ``h``'s records into ``out.rec``/``out.rec_cards`` from ``position``, and each seat's
    stack, contributions, antes, folded mark and hole cards into row ``h`` of ``out`` (a kernel's
    output structure: ``PlayedHands`` or ``ReplayedHands``)."""
    seats, k = hand.seats, hand.at[COUNT]
    out.rec[position : position + k] = hand.rows[:k]
    out.rec_cards[position : position + k] = hand.cards[:k]
    for s in range(n):
        out.stacks[h, s] = seats.stacks[s]
        out.contributed[h, s] = seats.contributed[s]
        out.antes[h, s] = seats.antes_paid[s]
        out.folded[h, s] = seats.folded[s]
        out.hole_n[h, s] = seats.n_hole[s]
        for i in range(seats.n_hole[s]):
            out.hole[h, s, i] = seats.hole[s, i]


@njit(cache=True, inline="always")
def move_chips(seats, seat, amount) -> None:
    """``seat`` puts ``amount`` into its bet (``HandState._move``)."""
    seats.stacks[seat] -= amount
    seats.bets[seat] += amount
    seats.contributed[seat] += amount


@njit(cache=True, inline="always")
def max_bet(seats, n) -> int:
    top = seats.bets[0]
    for s in range(1, n):
        top = max(top, seats.bets[s])
    return top


@njit(cache=True, inline="always")
def pot_of(seats) -> int:
    return seats.contributed.sum()


@njit(cache=True)
def refund_uncalled(hand, n) -> None:
    """``HandState._refund_uncalled``: the part of the largest bet nobody matched goes back; the last
    recorded action's stack and pot after say so."""
    seats = hand.seats
    top = 0
    for s in range(1, n):
        if seats.bets[s] > seats.bets[top]:
            top = s
    second = 0
    for s in range(n):
        if s != top and seats.bets[s] > second:
            second = seats.bets[s]
    excess = seats.bets[top] - second
    if excess <= 0:
        return
    seats.bets[top] -= excess
    seats.contributed[top] -= excess
    seats.stacks[top] += excess
    k = hand.at[COUNT] - 1
    if 0 <= k < hand.rows.shape[0]:
        hand.rows[k, R_POT] = pot_of(seats)
        if hand.rows[k, R_SEAT] == top:
            hand.rows[k, R_STACK] = seats.stacks[top]


@njit(cache=True)
def end_round(hand, n) -> None:
    """Close a betting round: the uncalled bet back, the bets cleared, nobody left to act."""
    refund_uncalled(hand, n)
    hand.seats.bets[:] = 0
    hand.seats.pending[:] = False


@njit(cache=True)
def post_forced_bets(table, hand, no_cards) -> None:
    """Post the antes (dead), the blinds and seat 0's starting bet (live), each at most the stack."""
    seats = hand.seats
    for phase in range(3):
        for seat in range(table.n):
            if phase == 0:
                amount = table.antes[seat]
            elif phase == 1:
                amount = table.blinds[seat]
            else:
                amount = table.starting_bet if seat == 0 else 0
            amount = min(amount, seats.stacks[seat])
            if amount <= 0:
                continue
            seats.stacks[seat] -= amount
            seats.contributed[seat] += amount
            if phase == 0:
                seats.antes_paid[seat] += amount
            else:
                seats.bets[seat] += amount
            record(hand, 0, seat, POST, amount, no_cards, 0, -1, 1)
    hand.at[LAST_INC] = max(max_bet(seats, table.n), table.min_bet)


@njit(cache=True, inline="always")
def first_to_act(blinds, starting_bet, n) -> int:
    """The seat after the largest blind, straddle or starting bet (the last such seat); else seat 0."""
    largest = 0
    last = 0
    for seat in range(n):
        forced = blinds[seat]
        if seat == 0 and starting_bet > forced:
            forced = starting_bet
        if forced >= largest and forced > 0:
            largest = forced
            last = seat
    return (last + 1) % n if largest > 0 else 0


@njit(cache=True, inline="always")
def next_pending(pending, after, n) -> int:
    for step in range(1, n + 1):
        seat = (after + step + n) % n
        if pending[seat]:
            return seat
    return -1


@njit(cache=True, inline="always")
def betting_needed(seats, n) -> bool:
    """Whether two seats can still bet, or one must still match a bet."""
    current = max_bet(seats, n)
    can_act = 0
    behind = False
    for s in range(n):
        if not seats.folded[s] and seats.stacks[s] > 0:
            can_act += 1
            if seats.bets[s] < current:
                behind = True
    return can_act > 1 or behind


@njit(cache=True)
def open_betting(table, hand) -> None:
    """Start the street's betting round: who is to act, and the first of them
    (``HandState._maybe_start_betting``)."""
    seats, n = hand.seats, table.n
    seats.has_acted[:] = False
    for seat in range(n):
        seats.pending[seat] = not seats.folded[seat] and seats.stacks[seat] > 0
    hand.at[RAISES] = 0
    first = 0
    if hand.at[STREET] == 0:
        first = first_to_act(table.blinds, table.starting_bet, n)
        if table.starting_bet > 0:
            seats.pending[0] = False
    else:
        hand.at[LAST_INC] = 0
    hand.at[NEXT] = next_pending(seats.pending, first - 1, n)
