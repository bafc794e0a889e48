"""The betting moves, compiled: what a seat may bet, and folding, calling and raising on a ``Hand``.

The size rules follow ``engine.rules.betting`` (``raise_bounds``, ``reopens``,
``is_full_raise``) and the moves ``engine.rules.state.HandState`` (``fold``,
``check_or_call``, ``bet_or_raise``, ``_after_action``). Betting-mode play and compiled
replay both move their hands with these; the round's numbers are ``Hand.at``'s.
"""

from __future__ import annotations

from numba import njit

from engine.compiled.hand_state import (
    ACTED_AT,
    BET,
    BIG_BET,
    BRING_IN,
    CALL,
    CALL_ONLY,
    CHECK,
    COMPLETION_DUE,
    FIXED_LIMIT,
    FOLD,
    FOLDED,
    HAS_ACTED,
    LABEL,
    LAST_INC,
    N_LIVE,
    NEXT,
    NEXT_SEAT,
    ONE_LEFT,
    PENDING,
    POT_LIMIT,
    RAISE,
    RAISES,
    ROUND_BET,
    ROUND_OVER,
    STACK,
    STREET,
    max_bet,
    move_chips,
    next_pending,
    pot_of,
    record,
)


@njit(cache=True, inline="always")
def min_raise_to(current, last_increment, round_min, double_raise) -> int:
    """The smallest full bet or raise (no-limit, pot-limit): ``engine.rules.betting.raise_bounds``."""
    if double_raise:
        return 2 * current if current else round_min
    return current + max(last_increment, round_min)


@njit(cache=True, inline="always")
def reopened_for(fixed_limit, current, acted_at, last_increment, round_min) -> bool:
    """``engine.rules.betting.reopens`` for a seat that acted at ``acted_at``: may it raise again?"""
    if fixed_limit:
        return 2 * (current - acted_at) >= round_min
    return current - acted_at >= max(last_increment, round_min)


@njit(cache=True, inline="always")
def full_raise(fixed_limit, current, to, last_increment, round_min, double_raise) -> bool:
    """``engine.rules.betting.is_full_raise``: does a bet or raise to ``to`` reopen the betting for all?"""
    if fixed_limit:
        return 2 * (to - current) >= round_min
    return to >= min_raise_to(current, last_increment, round_min, double_raise)


@njit(cache=True, inline="always")
def round_min_of(table, big_street) -> int:
    """``HandState._limits().min_bet``: the starting bet, the street's fixed bet, or the minimum bet."""
    if table.starting_bet > 0:
        return table.starting_bet
    if table.structure == FIXED_LIMIT:
        return table.big_bet if big_street else table.small_bet
    return table.min_bet


@njit(cache=True, inline="always")
def raise_bounds_to(table, current, last_increment, round_min, bet, all_in, pot) -> tuple[int, int]:
    """``engine.rules.betting.raise_bounds``, both ends at most all in."""
    if table.structure == FIXED_LIMIT:
        low = high = current + round_min
    else:
        low = min_raise_to(current, last_increment, round_min, table.double_raise)
        high = all_in
        if table.structure == POT_LIMIT:
            high = max(current + pot + current - bet, low)
    return min(low, all_in), min(high, all_in)


@njit(cache=True)
def raise_window(table, streets, seats, at, seat) -> tuple[bool, int, int]:
    """Whether ``seat`` may bet or raise now, and the smallest and largest amounts it may raise to
    (``HandState.options_for``): not in a call-only round, under the cap, reopened for it,
    someone left to call it, chips beyond a call. ``seats`` and ``at`` are a ``Hand``'s."""
    current = max_bet(seats, table.n)
    round_min = round_min_of(table, streets.plan[BIG_BET, at[STREET]])
    if streets.plan[CALL_ONLY, at[STREET]] or (table.raise_cap >= 0 and at[RAISES] >= table.raise_cap):
        return False, 0, 0
    fixed = table.structure == FIXED_LIMIT
    reopened = reopened_for(fixed, current, seats[ACTED_AT, seat], at[LAST_INC], round_min)
    if seats[HAS_ACTED, seat] and not reopened:
        return False, 0, 0
    others = False
    for o in range(table.n):
        others = others or (o != seat and not seats[FOLDED, o] and seats[STACK, o] > 0)
    all_in = seats[ROUND_BET, seat] + seats[STACK, seat]
    if not others or all_in <= current:
        return False, 0, 0
    low, high = raise_bounds_to(table, current, at[LAST_INC], round_min, seats[ROUND_BET, seat], all_in,
                                pot_of(seats))  # fmt: skip
    return True, low, high


@njit(cache=True, inline="always")
def call_amount(hand, n, seat) -> int:
    """What ``seat`` must put in to call (at most its stack; 0: it may check)."""
    seats = hand.seats
    return min(max_bet(seats, n) - seats[ROUND_BET, seat], seats[STACK, seat])


@njit(cache=True)
def fold(hand, seat, no_cards) -> None:
    hand.seats[FOLDED, seat] = True
    hand.at[N_LIVE] -= 1
    record(hand, hand.at[LABEL], seat, FOLD, -1, no_cards, 0, -1, 0)


@njit(cache=True)
def check_or_call(hand, n, seat, no_cards) -> None:
    amount = call_amount(hand, n, seat)
    move_chips(hand.seats, seat, amount)
    record(
        hand, hand.at[LABEL], seat, CALL if amount else CHECK, amount if amount else -1, no_cards, 0, -1, 0
    )


@njit(cache=True)
def raise_to(table, streets, hand, seat, to, no_cards) -> None:
    """``seat`` bets or raises to ``to`` (within ``raise_window``); a full raise reopens the betting."""
    seats, at = hand.seats, hand.at
    current = max_bet(seats, table.n)
    move_chips(seats, seat, to - seats[ROUND_BET, seat])
    record(hand, at[LABEL], seat, RAISE if current else BET, to, no_cards, 0, -1, 0)
    round_min = round_min_of(table, streets.plan[BIG_BET, at[STREET]])
    fixed = table.structure == FIXED_LIMIT
    full = full_raise(fixed, current, to, at[LAST_INC], round_min, table.double_raise)
    _after_bet(table, seats, at, seat, to, full, to - current)


@njit(cache=True, inline="always")
def _after_bet(table, seats, at, seat, to, full, increment) -> None:
    """After a bet or raise to ``to``: a full one counts and reopens the betting for everyone (the
    next raise is by ``increment``); everyone else with chips is left to act."""
    if full:
        at[RAISES] += 1
        at[LAST_INC] = increment
        for o in range(seats.shape[1]):
            seats[HAS_ACTED, o] = False
    seats[HAS_ACTED, seat] = True
    seats[ACTED_AT, seat] = to
    for o in range(table.n):
        seats[PENDING, o] = o != seat and not seats[FOLDED, o] and seats[STACK, o] > 0


@njit(cache=True)
def post_bring_in(table, hand, seat, no_cards) -> None:
    """``HandState.post_bring_in``: the bring-in, or as much of it as the stack holds."""
    amount = min(table.bring_in, hand.seats[STACK, seat])
    move_chips(hand.seats, seat, amount)
    record(hand, hand.at[LABEL], seat, BRING_IN, amount, no_cards, 0, -1, 0)


@njit(cache=True)
def complete_to(table, hand, seat, to, round_min, no_cards) -> None:
    """``HandState.bet_or_raise`` completing a bring-in: a bet to ``to``, the street's whole bet
    ``round_min`` or a short all-in. One of at least half the bet (fixed-limit) completes: the
    betting reopens for everyone and the next raise is by the whole bet; a smaller one leaves the
    completion to the next seat."""
    seats, at = hand.seats, hand.at
    move_chips(seats, seat, to - seats[ROUND_BET, seat])
    record(hand, at[LABEL], seat, BET, to, no_cards, 0, -1, 0)
    full = 2 * to >= round_min  # ``engine.rules.betting.reopens`` from nothing
    if full:
        at[COMPLETION_DUE] = 0
    _after_bet(table, seats, at, seat, to, full, round_min)


@njit(cache=True)
def after_action(hand, n, seat, raised) -> int:
    """``HandState._after_action``: ``ONE_LEFT`` (the hand is won), ``ROUND_OVER``, or ``NEXT_SEAT``
    (``at[NEXT]`` is who acts)."""
    seats = hand.seats
    if not raised:
        seats[PENDING, seat] = False
        seats[HAS_ACTED, seat] = True
        seats[ACTED_AT, seat] = max_bet(seats, n)
    if hand.at[N_LIVE] == 1:
        return ONE_LEFT
    following = next_pending(seats, seat, n)
    if following < 0:
        return ROUND_OVER
    hand.at[NEXT] = following
    return NEXT_SEAT
