"""One hand in play, compiled: the seats, the round and the record, and the betting moves on them.

Betting-mode play (``engine.compiled.betting_kernel``) and compiled replay
(``engine.compiled.replay_kernel``) keep a hand in the same ``Hand`` and move it with the same
functions: post the forced bets, open a betting round, fold, check or call, bet or raise, close
the round (the uncalled part of the largest bet goes back). Each follows the rule of
``engine.rules.state.HandState`` of the same name; the size rules are ``engine.rules.betting``'s.
A new mechanic adds a field to ``Table`` or ``Streets``, or a row to ``Hand.seats``, not a parameter
to every kernel.

Every recorded action is a row of ``RECORD_WIDTH`` numbers (``R_*`` columns) and up to
``MAX_CARDS`` cards. Its stack and pot after are those once the action and the uncalled bet it
returns (when it closes a round or the hand) are applied; winnings never count.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# action kinds, in the order of ``ACTION_KINDS`` (replay alone records SHOW and MUCK; betting mode
# alone DRAW: the cards a seat throws in a draw, none when it stands pat)
POST, FOLD, CHECK, CALL, BET, RAISE, DISCARD, DEAL, SHOW, MUCK, BRING_IN, DRAW = range(12)
ACTION_KINDS = (
    "post", "fold", "check", "call", "bet", "raise", "discard", "deal", "show", "muck", "bring_in", "draw"
)  # fmt: skip
NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2  # betting structures
MAX_CARDS = 7  # hole cards per seat, and cards per recorded action
MAX_BOARD = 5
HAND_ACTIONS = 4096  # room for one hand's actions; no-limit with these blinds needs far fewer
# columns of a recorded action
R_STREET, R_SEAT, R_KIND, R_AMOUNT, R_BOARD, R_AUTOMATIC, R_CARDS, R_STACK, R_POT = range(9)
RECORD_WIDTH = 9
# the round's numbers (``Hand.at``)
STREET, LABEL, N_LIVE, NEXT, RAISES, LAST_INC, COUNT, PHASE, BOARD_DUE, ENDING, TOP = range(11)
COMPLETION_DUE, DRAWS_DONE = 11, 12
AT_SIZE = 13  # COMPLETION_DUE: a bring-in is due or posted and nobody has completed it (stud);
# DRAWS_DONE: draw rounds played so far
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
    bring_in: int  # the first street's bring-in (0: none), fixed-limit


# what a street does (rows of ``Streets.plan``; flags are 0 or 1)
HOLE_DEALT, BOARD_DEALT, BURNED, BETTING_ROUND, CALL_ONLY, BIG_BET, DRAW_ROUND, FORCED_ROUND = range(8)
STREET_FIELDS = 8


class Streets(NamedTuple):
    """What each street deals and how it bets (``plan[FIELD, street]``: hole cards per seat, cards
    per board, cards burned before the boards, whether a betting round follows, whether nobody may
    bet or raise in it, whether fixed limit bets the big bet, whether the live seats draw after its
    cards, whether the forced bets are its round's: the first street with betting), and the boards
    and deck of the game."""

    plan: np.ndarray  # (STREET_FIELDS, streets) int64
    n_boards: int
    discard_board: int  # the board whose ranks force hole cards out (-1: none)
    deck_size: int
    opener: np.ndarray  # (streets,) who acts first: OPEN_BY_POSITION, or an opener by the up cards
    up: np.ndarray  # (MAX_CARDS,) bool: the hole card dealt j-th is face up
    deck_runs_short: bool  # a street the deck cannot give every seat deals a community card


# who acts first on a street (``engine.rules.games.base.Opener``, in its order)
OPEN_BY_POSITION, OPEN_LOW_CARD, OPEN_HIGH_CARD, OPEN_HIGH_HAND, OPEN_LOW_HAND = range(5)


def street_plan(hole: list[int], board: list[int], burns: list[int], betting: list[bool],
                call_only: list[bool], big_bet: list[bool], n_boards: int, discard_board: int,
                deck_size: int, opener: list[int] | None = None, up: tuple[bool, ...] = (),
                deck_runs_short: bool = False, draws: list[bool] | None = None) -> Streets:  # fmt: skip
    """``Streets`` from one value per street for each of its rows (``opener`` by default: position;
    ``up``: each hole card's face, in deal order, by default every card down; ``draws``: by default
    none)."""
    draw = draws if draws is not None else [False] * len(hole)
    forced = [False] * len(hole)
    if any(betting):
        forced[list(betting).index(True)] = True
    plan = np.array([hole, board, burns, betting, call_only, big_bet, draw, forced], np.int64).reshape(
        STREET_FIELDS, len(hole)
    )
    openers = np.array(opener if opener is not None else [OPEN_BY_POSITION] * len(hole), np.int64)
    faces = np.zeros(MAX_CARDS, np.bool_)
    faces[: len(up)] = up
    return Streets(plan, n_boards, discard_board, deck_size, openers, faces, deck_runs_short)


def game_streets(game, options) -> Streets:
    """A described game's ``Streets`` under ``options``: what each street deals, burns and bets,
    who opens it, which hole cards are dealt face up, whether the deck may run short."""
    from engine.rules.games.base import Opener
    from engine.rules.showing import up_pattern

    dealt = game.streets_under(options)
    openers = list(Opener)  # in the order of OPEN_*
    burns = [game.burns(s, options) for s in dealt]
    return street_plan(
        [s.hole_cards for s in dealt], [s.board_cards for s in dealt], burns,
        [s.betting for s in dealt], [s.call_only for s in dealt], [s.big_bet for s in dealt],
        len(game.board_names), -1 if game.discard_board is None else game.discard_board, game.deck.size,
        [openers.index(s.opener) for s in dealt], up_pattern(dealt), game.deck_runs_short is not None,
        [s.draw for s in dealt],
    )  # fmt: skip


# a seat's numbers in the hand in play (rows of ``Hand.seats``; flags are 0 or 1)
STACK, ROUND_BET, CONTRIBUTED, ANTES_PAID, FOLDED, DEAD, MUCKED = range(7)
PENDING, HAS_ACTED, ACTED_AT, DUE, N_HOLE, N_DEALT, DREW, REFUNDED = range(7, 15)
SEAT_FIELDS = 15
# STACK: chips behind; ROUND_BET: this round's live bet; CONTRIBUTED: everything put in, antes
# included; ANTES_PAID; FOLDED; DEAD: lost every hole card to forced discards; MUCKED: 0, or k
# for the k-th muck; PENDING: still to act this round; HAS_ACTED: acted since the last full
# raise; ACTED_AT: the bet it last acted on; DUE: hole cards still to be dealt this street;
# N_HOLE: hole cards held; N_DEALT: hole cards dealt, discarded ones too; DREW: cards drawn at the
# latest draw; REFUNDED: uncalled bets returned to it (``HandState.refunded``)


class Hand(NamedTuple):
    """A hand in play: each seat's numbers (``seats[FIELD, seat]``, ``FIELD`` one of ``STACK``...),
    the hole cards held, the round's numbers (``at``, indexed by ``STREET``...) and the record.

    Five plain arrays, no nested structure: numba counts references on every array of a
    structure it passes or unpacks, so a hand read a few times per action stays small."""

    seats: np.ndarray  # (SEAT_FIELDS, seats) int64
    hole: np.ndarray  # (seats, MAX_CARDS) int8
    at: np.ndarray  # (AT_SIZE,) int64
    rows: np.ndarray  # (HAND_ACTIONS, RECORD_WIDTH) int64
    cards: np.ndarray  # (HAND_ACTIONS, MAX_CARDS) int8


@njit(cache=True)
def new_hand(width) -> Hand:
    """Room for one hand of up to ``width`` seats."""
    i = np.int64
    return Hand(
        np.zeros((SEAT_FIELDS, width), i), np.full((width, MAX_CARDS), -1, np.int8), np.zeros(AT_SIZE, i),
        np.zeros((HAND_ACTIONS, RECORD_WIDTH), i), np.full((HAND_ACTIONS, MAX_CARDS), -1, np.int8),
    )  # fmt: skip


@njit(cache=True)
def reset_hand(hand, stacks, n) -> None:
    """Start a hand of ``n`` seats with ``stacks`` (one per seat, or one for every seat)."""
    seats = hand.seats
    seats[:] = 0
    for s in range(min(n, seats.shape[1])):
        seats[STACK, s] = stacks[min(s, stacks.shape[0] - 1)]
    hand.hole[:] = -1
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
    seats = hand.seats
    row[R_STACK] = seats[STACK, seat] if seat >= 0 else -1
    pot = 0
    for s in range(seats.shape[1]):  # (pot_of's loop: an inline function calls no inline function)
        pot += seats[CONTRIBUTED, s]
    row[R_POT] = pot
    for i in range(MAX_CARDS):
        hand.cards[k, i] = cards[i] if i < n_cards else -1


@njit(cache=True)
def copy_out(h, n, hand, out, position) -> None:
    """Hand ``h``'s records into ``out.rec``/``out.rec_cards`` from ``position``, and each seat's
    stack, contributions, antes, folded mark and hole cards into row ``h`` of ``out`` (a kernel's
    output structure: ``PlayedHands`` or ``ReplayedHands``)."""
    seats, k = hand.seats, hand.at[COUNT]
    for i in range(k):  # loops: a slice assignment copies through a temporary array
        for j in range(RECORD_WIDTH):
            out.rec[position + i, j] = hand.rows[i, j]
        for j in range(MAX_CARDS):
            out.rec_cards[position + i, j] = hand.cards[i, j]
    for s in range(n):
        out.stacks[h, s] = seats[STACK, s]
        out.contributed[h, s] = seats[CONTRIBUTED, s]
        out.antes[h, s] = seats[ANTES_PAID, s]
        out.folded[h, s] = seats[FOLDED, s]
        out.hole_n[h, s] = seats[N_HOLE, s]
        for i in range(seats[N_HOLE, s]):
            out.hole[h, s, i] = hand.hole[s, i]


@njit(cache=True, inline="always")
def move_chips(seats, seat, amount) -> None:
    """``seat`` puts ``amount`` into its bet (``HandState._move``)."""
    seats[STACK, seat] -= amount
    seats[ROUND_BET, seat] += amount
    seats[CONTRIBUTED, seat] += amount


@njit(cache=True, inline="always")
def max_bet(seats, n) -> int:
    top = seats[ROUND_BET, 0]
    for s in range(1, n):
        top = max(top, seats[ROUND_BET, s])
    return top


@njit(cache=True, inline="always")
def pot_of(seats) -> int:
    pot = 0
    for s in range(seats.shape[1]):  # no row views: each would count a reference
        pot += seats[CONTRIBUTED, s]
    return pot


@njit(cache=True)
def refund_uncalled(hand, n) -> None:
    """``HandState._refund_uncalled``: the part of the largest bet nobody matched goes back; the last
    recorded action's stack and pot after say so."""
    seats = hand.seats
    top = 0
    for s in range(1, n):
        if seats[ROUND_BET, s] > seats[ROUND_BET, top]:
            top = s
    second = 0
    for s in range(n):
        if s != top and seats[ROUND_BET, s] > second:
            second = seats[ROUND_BET, s]
    excess = seats[ROUND_BET, top] - second
    if excess <= 0:
        return
    seats[ROUND_BET, top] -= excess
    seats[CONTRIBUTED, top] -= excess
    seats[STACK, top] += excess
    seats[REFUNDED, top] += excess
    k = hand.at[COUNT] - 1
    if 0 <= k < hand.rows.shape[0]:
        hand.rows[k, R_POT] = pot_of(seats)
        if hand.rows[k, R_SEAT] == top:
            hand.rows[k, R_STACK] = seats[STACK, top]


@njit(cache=True, inline="always")
def bets_wait(plan, street) -> bool:
    """Whether the forced bets wait for a later street's round (this one deals only, before the
    first betting round: ``HandState._next_street``), so its end returns nothing and clears nothing;
    in a game with no betting round they wait to the end."""
    for later in range(street + 1, plan.shape[1]):
        if plan[FORCED_ROUND, later]:
            return True
    for earlier in range(street + 1):  # noqa: SIM110
        if plan[FORCED_ROUND, earlier]:
            return False
    return True


@njit(cache=True)
def end_round(hand, n) -> None:
    """Close a betting round: the uncalled bet back, the bets cleared, nobody left to act."""
    refund_uncalled(hand, n)
    seats = hand.seats
    for s in range(seats.shape[1]):
        seats[ROUND_BET, s] = 0
        seats[PENDING, s] = False


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
            amount = min(amount, seats[STACK, seat])
            if amount <= 0:
                continue
            seats[STACK, seat] -= amount
            seats[CONTRIBUTED, seat] += amount
            if phase == 0:
                seats[ANTES_PAID, seat] += amount
            else:
                seats[ROUND_BET, seat] += amount
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
def next_pending(seats, after, n) -> int:
    """The first seat after ``after`` still to act (-1: none)."""
    for step in range(1, n + 1):
        seat = (after + step + n) % n
        if seats[PENDING, seat]:
            return seat
    return -1


@njit(cache=True, inline="always")
def betting_needed(seats, n) -> bool:
    """Whether two seats can still bet, or one must still match a bet."""
    current = max_bet(seats, n)
    can_act = 0
    behind = False
    for s in range(n):
        if not seats[FOLDED, s] and seats[STACK, s] > 0:
            can_act += 1
            if seats[ROUND_BET, s] < current:
                behind = True
    return can_act > 1 or behind


@njit(cache=True)
def open_betting(table, streets, hand) -> None:
    """Start the street's betting round: who is to act, and the first of them (on the forced bets'
    street, left of the largest; ``HandState._maybe_start_betting``)."""
    seats, n = hand.seats, table.n
    for seat in range(n):
        seats[HAS_ACTED, seat] = False
        seats[PENDING, seat] = not seats[FOLDED, seat] and seats[STACK, seat] > 0
    hand.at[RAISES] = 0
    first = 0
    if streets.plan[FORCED_ROUND, hand.at[STREET]]:
        first = first_to_act(table.blinds, table.starting_bet, n)
        if table.starting_bet > 0:
            seats[PENDING, 0] = False
    else:
        hand.at[LAST_INC] = 0
    hand.at[NEXT] = next_pending(seats, first - 1, n)
