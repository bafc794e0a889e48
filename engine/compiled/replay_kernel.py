"""Compiled replay of PHH actions: the state machine's rules, many hands per call.

``replay_hands`` reads each hand's action texts (one ASCII buffer for a batch) and applies
them as ``engine.rules.state.HandState`` does (deals, posts, turn order, bet sizes of every
structure, short all-ins, raise caps, uncalled bets, shows and mucks), recording every
action the same way. The hand in play and its betting moves are ``engine.compiled.hand_state``
and ``engine.compiled.betting_moves``, shared with betting-mode play. It covers games without
forced discards (no discard-trigger board). It never explains a failure: a hand it cannot take
(an illegal action, an unknown card, a comment, anything unusual) is marked ``FALLBACK`` and the
caller replays it through the state machine, which accepts it or names what is wrong. The
showdown is ``engine.compiled.betting_showdown.settle_hands``. Tests compare every row with the
state machine's.
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
from engine.compiled.hand_state import (
    BETTING_ROUND,
    BOARD_DEALT,
    BOARD_DUE,
    BURNED,
    COMPLETION_DUE,
    COUNT,
    DEAL,
    DUE,
    ENDING,
    FIXED_LIMIT,
    FOLDED,
    HOLE_DEALT,
    LABEL,
    MAX_BOARD,
    MAX_CARDS,
    MUCK,
    MUCKED,
    N_HOLE,
    N_LIVE,
    NEXT,
    ONE_LEFT,
    PHASE,
    REFUNDED,
    ROUND_BET,
    ROUND_OVER,
    SHOW,
    STACK,
    STREET,
    Table,
    bets_wait,
    betting_needed,
    copy_out,
    end_round,
    max_bet,
    new_hand,
    open_betting,
    post_forced_bets,
    record,
    refund_uncalled,
    reset_hand,
)
from engine.compiled.hand_state import BIG_BET as BIG_BET_STREET
from engine.compiled.showing_kernel import open_by_cards
from engine.compiled.sim_kernels import SHOWDOWN, UNCONTESTED
from engine.hands.borrowed import borrowed

OK, FALLBACK = 0, 1
HIDDEN = -2  # a hole card nobody saw (``????``): kept unknown, never dealt at random
MOST_UNITS = 2**53  # the largest amount read (as MAX_CHIPS): the state machine judges larger ones
DEAL_PHASE, BET_PHASE, SHOWDOWN_PHASE, OVER = 0, 1, 2, 3
GIVE_UP = 4  # a hand only the state machine plays (a deck that runs short, an unknown up card)
# hand settings (a row of ``ReplayInput.settings``)
N, STRUCT, MIN_BET, SMALL_BET, BIG_BET, START_BET, CAP, DECIMALS, BRING_IN_AMOUNT = range(9)
SPACE, SLASH, DOT, QUESTION = 32, 47, 46, 63


class ReplayInput(NamedTuple):
    """A batch of hands to replay: hand h has the actions ``hand_actions[h]:hand_actions[h + 1]``,
    each the bytes ``text[action_bounds[a, 0]:action_bounds[a, 1]]``; ``settings[h]`` holds N,
    STRUCT, MIN_BET, SMALL_BET, BIG_BET, START_BET, CAP, DECIMALS and BRING_IN_AMOUNT;
    ``antes``/``blinds``/``stacks``
    are per hand and seat (forced bets already in the state machine's seat order), in units of
    10^-DECIMALS (a bet's text ``2.5`` is 250 units at 2 decimals); ``card_table`` maps two
    ASCII characters to a card (-1: not a card)."""

    text: np.ndarray
    hand_actions: np.ndarray
    action_bounds: np.ndarray
    settings: np.ndarray
    antes: np.ndarray
    blinds: np.ndarray
    stacks: np.ndarray
    card_table: np.ndarray
    double_raise: bool


class ReplayedHands(NamedTuple):
    """What ``replay_hands`` writes: ``status[h]`` (``OK`` or ``FALLBACK``), the records of OK hands
    (``rec[hand_start[h]:hand_start[h + 1]]``, laid out as ``engine.compiled.hand_state`` says) and
    their seats where ``HandState.finish`` starts (``refunded``: the uncalled bets each got back)."""

    rec: np.ndarray
    rec_cards: np.ndarray
    hand_start: np.ndarray
    status: np.ndarray
    ending: np.ndarray
    stacks: np.ndarray
    contributed: np.ndarray
    antes: np.ndarray
    folded: np.ndarray
    mucked: np.ndarray
    hole: np.ndarray
    hole_n: np.ndarray
    boards: np.ndarray
    board_n: np.ndarray
    refunded: np.ndarray


class ReplayWork(NamedTuple):
    """One hand being replayed: the hand, its boards, the cards seen, and room to parse an action."""

    hand: object  # engine.compiled.hand_state.Hand
    boards: np.ndarray  # (boards, MAX_BOARD) int8
    board_n: np.ndarray  # (boards,)
    seen: np.ndarray  # (cards,) bool
    cards: np.ndarray  # (MAX_CARDS,) int8
    tokens: np.ndarray  # (5, 2): (start, end) of an action's words
    all_cards: np.ndarray  # (boards * MAX_BOARD,) int8
    decimals: np.ndarray  # (1,): the hand's amounts are units of 10^-decimals[0]


@njit(cache=True)
def _close_uncontested(hand, n) -> None:
    refund_uncalled(hand, n)
    hand.at[PHASE] = OVER
    hand.at[ENDING] = UNCONTESTED


@njit(cache=True)
def _close_round(hand, n, plan) -> bool:
    """``HandState._next_street``: uncalled bets back, bets cleared (not before the forced bets'
    round); True when a street follows."""
    at = hand.at
    if not bets_wait(plan, at[STREET]):
        end_round(hand, n)
    n_streets = plan.shape[1]
    at[NEXT] = -1
    if at[STREET] + 1 >= n_streets:
        at[PHASE] = SHOWDOWN_PHASE
        at[ENDING] = SHOWDOWN
        return False
    at[STREET] += 1
    at[LABEL] = at[STREET]
    return True


@njit(cache=True)
def _start_street(table, streets, hand) -> None:
    """``HandState._start_deals``: what the street deals is due, or its betting starts, or it ends."""
    seats, at = hand.seats, hand.at
    while True:
        at[PHASE] = DEAL_PHASE
        for s in range(table.n):
            seats[DUE, s] = 0 if seats[FOLDED, s] else streets.plan[HOLE_DEALT, at[STREET]]
        at[BOARD_DUE] = streets.plan[BOARD_DEALT, at[STREET]]
        if streets.deck_runs_short and _deck_may_run_short(table, streets, hand):
            at[PHASE] = GIVE_UP
            return
        if not _maybe_start_betting(table, streets, hand):
            return
        if not _close_round(hand, table.n, streets.plan):
            return


@njit(cache=True)
def _deck_may_run_short(table, streets, hand) -> bool:
    """Whether this street's hole cards, after its burn, would not fit what is left of the deck:
    the reference skips the burn or deals a community card (``HandState._deck_runs_short``)."""
    seats, plan, street = hand.seats, streets.plan, hand.at[STREET]
    dealt, due = 0, 0
    for s in range(table.n):
        dealt += seats[N_HOLE, s]
        due += seats[DUE, s]
    for k in range(street + 1):  # every burn so far (none was skipped: that would have given up)
        if plan[HOLE_DEALT, k] or plan[BOARD_DEALT, k]:
            dealt += plan[BURNED, k]
    return due > 0 and due > streets.deck_size - dealt


@njit(cache=True, inline="always")
def _maybe_start_betting(table, streets, hand) -> bool:
    """Start the betting when nothing is due; True when the street must end at once."""
    seats, at = hand.seats, hand.at
    if at[PHASE] != DEAL_PHASE or at[BOARD_DUE] > 0:
        return False
    for s in range(table.n):
        if seats[DUE, s] > 0:
            return False
    if at[N_LIVE] <= 1:
        _close_uncontested(hand, table.n)
        return False
    if not streets.plan[BETTING_ROUND, at[STREET]] or not betting_needed(seats, table.n):
        return True
    at[PHASE] = BET_PHASE
    open_betting(table, streets, hand)
    opened = not (table.bring_in or streets.opener[at[STREET]]) or open_by_cards(table, streets, hand)
    if not opened:  # an up card nobody wrote: the record names the opener
        at[PHASE] = GIVE_UP
    return False


@njit(cache=True, inline="always")
def _after(table, streets, hand, seat, raised) -> None:
    """``HandState._after_action``, and the next street when the round closes."""
    after = after_action(hand, table.n, seat, raised)
    if after == ONE_LEFT:
        _close_uncontested(hand, table.n)
    elif after == ROUND_OVER and _close_round(hand, table.n, streets.plan):
        _start_street(table, streets, hand)


@njit(cache=True, inline="always")
def _close_idle_round(table, streets, hand) -> None:
    """``HandState._close_idle_round``: end a round whose seats to act can only check."""
    idle = hand.at[PHASE] == BET_PHASE and not betting_needed(hand.seats, table.n)
    if idle and _close_round(hand, table.n, streets.plan):
        _start_street(table, streets, hand)


@njit(cache=True, inline="always")
def _bet_or_raise(table, streets, hand, seat, to, cards) -> bool:
    """``HandState.bet_or_raise``; False when the size or the turn is not allowed."""
    allowed, low, high = raise_window(table, streets, hand.seats, hand.at, seat)
    seats = hand.seats
    all_in = seats[ROUND_BET, seat] + seats[STACK, seat]
    current = 0
    for s in range(table.n):
        current = max(current, seats[ROUND_BET, s])
    covered = 0  # all any opponent can match: in fixed-limit a bet may stop there (HandState.bet_or_raise)
    for o in range(table.n):
        if o != seat and not seats[FOLDED, o]:
            covered = max(covered, seats[ROUND_BET, o] + seats[STACK, o])
    capped = table.structure == FIXED_LIMIT and to == covered
    round_min = round_min_of(table, streets.plan[BIG_BET_STREET, hand.at[STREET]])
    if hand.at[COMPLETION_DUE] and current < round_min:  # completing the bring-in: to the whole bet
        short = to < round_min and to != all_in and not capped
        if not allowed or to <= current or to > all_in or to > round_min or short:
            return False
        complete_to(table, hand, seat, to, round_min, cards)
        _after(table, streets, hand, seat, True)
        return True
    if over_short_all_in(table.structure == FIXED_LIMIT, current, round_min, to):
        low = high = to  # a card room's bet over a short all-in (``betting.over_short_all_in``)
    if not allowed or to <= current or to > all_in or (to < low and to != all_in and not capped) or to > high:
        return False
    raise_to(table, streets, hand, seat, to, cards)
    _after(table, streets, hand, seat, True)
    return True


@njit(cache=True, inline="always")
def over_short_all_in(fixed, current, bet, to) -> bool:
    """``engine.rules.betting.over_short_all_in``: to the whole bet over a short all-in, or in
    fixed-limit one whole bet above it."""
    if bet <= 0:
        return False
    if not fixed:
        return current < bet and to == bet
    whole = -(-current // bet) * bet
    counted = current < bet or 2 * (current - whole + bet) >= bet
    return whole != current and (to == whole or (counted and to == whole + bet))


@njit(cache=True, inline="always")
def _token_end(text, i, end):
    while i < end and text[i] != SPACE and text[i] != 9 and text[i] != 13:
        i += 1
    return i


@njit(cache=True, inline="always")
def _skip_space(text, i, end):
    while i < end and (text[i] == SPACE or text[i] == 9 or text[i] == 13):
        i += 1
    return i


@njit(cache=True, inline="always")
def _is_word(text, token, c0, c1, c2) -> bool:
    """Whether ``token`` (start, end) spells the one to three characters given (0: none)."""
    length = 1 + (c1 != 0) + (c2 != 0)
    if token[1] - token[0] != length or text[token[0]] != c0:
        return False
    return (c1 == 0 or text[token[0] + 1] == c1) and (c2 == 0 or text[token[0] + 2] == c2)


@njit(cache=True, inline="always")
def _parse_cards(text, start, end, card_table, out) -> int:
    """Cards of ``text[start:end]`` into ``out``; -1 when not plain known cards without repeats."""
    if (end - start) % 2 or end - start > 2 * out.shape[0]:
        return -1
    count = 0
    for i in range(start, end, 2):
        card = card_table[text[i], text[i + 1]]
        if card < 0:
            return -1
        for j in range(count):
            if out[j] == card:
                return -1
        out[count] = card
        count += 1
    return count


@njit(cache=True)
def _hidden_cards(text, start, end, out) -> int:
    """``????``: as many ``HIDDEN`` cards into ``out`` as pairs of ``?``; -1 for anything else."""
    if (end - start) % 2 or end == start or end - start > 2 * out.shape[0]:
        return -1
    for i in range(start, end):
        if text[i] != QUESTION:
            return -1
    for c in range((end - start) // 2):
        out[c] = HIDDEN
    return (end - start) // 2


@njit(cache=True, inline="always")
def _parse_amount(text, start, end, decimals) -> int:
    """An amount's text in units of 10^-``decimals`` (``2.5`` at 2 is 250); -1 when it is not
    digits with at most ``decimals`` after one point."""
    if end - start > 17 or end == start:
        return -1
    value, after = 0, -1
    for x in range(start, end):
        if text[x] == DOT and after < 0 and x > start and x < end - 1:
            after = 0
            continue
        digit = text[x] - 48
        if digit < 0 or digit > 9:
            return -1
        value = value * 10 + digit
        if value > MOST_UNITS:
            return -1  # past what scooplab counts (and never wrapping round int64)
        if after >= 0:
            after += 1
    shown = max(after, 0)
    if shown > decimals:
        return -1
    for _ in range(decimals - shown):
        value *= 10
        if value > MOST_UNITS:
            return -1
    return value


@njit(cache=True, inline="always")
def _parse_seat(text, start, end, n) -> int:
    if end - start < 2 or text[start] != 112 or text[start + 1] == 48:  # "p", no leading zero
        return -1
    value = 0
    for i in range(start + 1, end):
        digit = text[i] - 48
        if digit < 0 or digit > 9 or value > 100:
            return -1
        value = value * 10 + digit
    return value - 1 if 1 <= value <= n else -1


@njit(cache=True, inline="always")
def _add_new_cards(seen, cards, count) -> bool:
    for i in range(count):
        if seen[cards[i]]:
            return False
    for i in range(count):
        seen[cards[i]] = True
    return True


@njit(cache=True, inline="always")
def _tokenize(text, start, end, tokens) -> int:
    """Split an action into at most five words (``tokens``); -1 when it has more or a comment."""
    i = _skip_space(text, start, end)
    count = 0
    while i < end:
        if count == 5:
            return -1
        stop = _token_end(text, i, end)
        tokens[count, 0], tokens[count, 1] = i, stop
        count += 1
        i = _skip_space(text, stop, end)
    for t in range(start, end):
        if text[t] == 35:  # '#': a comment
            return -1
    return count


@njit(cache=True, inline="always")
def _deal_hole(given, table, streets, work, count) -> bool:
    """``d dh pN cards``."""
    text, tokens, hand = given.text, work.tokens, work.hand
    seats, cards = hand.seats, work.cards
    if count != 4:
        return False  # (the words past ``count`` are an earlier action's, or never set)
    seat = _parse_seat(text, tokens[2, 0], tokens[2, 1], table.n)
    if seat < 0 or hand.at[PHASE] != DEAL_PHASE:
        return False
    got = _parse_cards(text, tokens[3, 0], tokens[3, 1], given.card_table, cards)
    if got < 0:
        got = _hidden_cards(text, tokens[3, 0], tokens[3, 1], cards)
        if got <= 0 or got > seats[DUE, seat]:
            return False
    elif got == 0 or got > seats[DUE, seat] or not _add_new_cards(work.seen, cards, got):
        return False
    for c in range(got):
        hand.hole[seat, seats[N_HOLE, seat]] = cards[c]
        seats[N_HOLE, seat] += 1
    seats[DUE, seat] -= got
    record(hand, hand.at[LABEL], seat, DEAL, -1, cards, got, -1, 0)
    if _maybe_start_betting(table, streets, hand) and _close_round(hand, table.n, streets.plan):
        _start_street(table, streets, hand)
    return True


@njit(cache=True)
def _board_cards(given, streets, work, due) -> int:
    """The cards of ``d db`` (one list per board, ``/`` between) into ``work.all_cards``; -1 when
    they are not ``due`` new cards a board."""
    text, tokens, cards, all_cards = given.text, work.tokens, work.cards, work.all_cards
    a = tokens[2, 0]
    total = 0
    for b in range(streets.n_boards):
        stop = a
        while stop < tokens[2, 1] and text[stop] != SLASH:
            stop += 1
        if (b < streets.n_boards - 1) != (stop < tokens[2, 1]):
            return -1  # not one card list per board
        got = _parse_cards(text, a, stop, given.card_table, cards)
        if got != due:
            return -1
        for c in range(got):
            all_cards[total] = cards[c]
            total += 1
        a = stop + 1
    for x in range(total):
        for y in range(x):
            if all_cards[x] == all_cards[y]:
                return -1
    return total if _add_new_cards(work.seen, all_cards, total) else -1


@njit(cache=True, inline="always")
def _deal_boards(given, table, streets, work, count) -> bool:
    """``d db cards[/cards...]``."""
    hand, cards = work.hand, work.cards
    if count != 3:
        return False
    _close_idle_round(table, streets, hand)
    if hand.at[PHASE] != DEAL_PHASE or hand.at[BOARD_DUE] == 0:
        return False
    for s in range(table.n):
        if hand.seats[DUE, s] > 0:
            return False
    due = hand.at[BOARD_DUE]
    if _board_cards(given, streets, work, due) < 0:
        return False
    for b in range(streets.n_boards):
        for c in range(due):
            cards[c] = work.all_cards[b * due + c]
            work.boards[b, work.board_n[b]] = cards[c]
            work.board_n[b] += 1
        record(hand, hand.at[LABEL], -1, DEAL, -1, cards, due, b, 0)
    hand.at[BOARD_DUE] = 0
    if _maybe_start_betting(table, streets, hand) and _close_round(hand, table.n, streets.plan):
        _start_street(table, streets, hand)
    return True


@njit(cache=True, inline="always")
def _show_or_muck(given, table, streets, work, seat, count) -> bool:
    """``pN sm cards`` shows, ``pN sm`` mucks (the muck order: the last keeps unclaimed pots)."""
    hand, cards, tokens = work.hand, work.cards, work.tokens
    seats = hand.seats
    _close_idle_round(table, streets, hand)
    if count > 3 or hand.at[PHASE] == BET_PHASE or seats[FOLDED, seat]:
        return False
    if hand.at[PHASE] == DEAL_PHASE:
        with_chips = 0
        for s in range(table.n):
            with_chips += not seats[FOLDED, s] and seats[STACK, s] > 0
        if with_chips > 1:
            return False  # the showdown has not been reached
    if count == 2:
        seats[MUCKED, seat] = 1 + seats[MUCKED, : table.n].max()
        record(hand, hand.at[LABEL], seat, MUCK, -1, cards, 0, -1, 0)
        return True
    got = _parse_cards(given.text, tokens[2, 0], tokens[2, 1], given.card_table, cards)
    if got < 0:  # ``????``: a seat whose cards nobody saw shows them unseen (the record decides)
        got = _hidden_cards(given.text, tokens[2, 0], tokens[2, 1], cards)
        for j in range(max(got, 0)):
            got = got if hand.hole[seat, j] == HIDDEN else -1
    if got <= 0 or got != seats[N_HOLE, seat]:
        return False
    for c in range(got):
        held = False
        for j in range(seats[N_HOLE, seat]):
            held = held or hand.hole[seat, j] == cards[c]
        if not held:
            return False
    record(hand, hand.at[LABEL], seat, SHOW, -1, cards, got, -1, 0)
    return True


@njit(cache=True, inline="always")
def _bet_action(given, table, streets, work, seat, count) -> bool:
    """``pN f``, ``pN cc`` and ``pN cbr amount`` by the seat to act."""
    text, verb, hand = given.text, work.tokens[1], work.hand
    if hand.at[PHASE] != BET_PHASE or seat != hand.at[NEXT]:
        return False
    bring_in_due = hand.at[COMPLETION_DUE] and max_bet(hand.seats, table.n) == 0
    if _is_word(text, verb, 112, 98, 0) and count == 2:  # "pb"
        if not bring_in_due:
            return False
        post_bring_in(table, hand, seat, work.cards)
        _after(table, streets, hand, seat, False)
        return True
    if bring_in_due and not _is_word(text, verb, 99, 98, 114):  # only pb or a completion now
        return False
    if _is_word(text, verb, 102, 0, 0) and count == 2:  # "f"
        fold(hand, seat, work.cards)
        _after(table, streets, hand, seat, False)
        return True
    if _is_word(text, verb, 99, 99, 0) and count == 2:  # "cc"
        check_or_call(hand, table.n, seat, work.cards)
        _after(table, streets, hand, seat, False)
        return True
    if not (_is_word(text, verb, 99, 98, 114) and count == 3):  # "cbr"
        return False
    to = _parse_amount(text, work.tokens[2, 0], work.tokens[2, 1], work.decimals[0])
    return to >= 0 and _bet_or_raise(table, streets, hand, seat, to, work.cards)


@njit(cache=True, inline="always")
def _apply(given, a, table, streets, work) -> bool:
    """Apply action ``a``; False when the hand needs the state machine."""
    text, tokens = given.text, work.tokens
    start, end = given.action_bounds[a, 0], given.action_bounds[a, 1]
    if _skip_space(text, start, end) == end:
        return True  # an empty action does nothing
    count = _tokenize(text, start, end, tokens)
    phase = work.hand.at[PHASE]
    if count < 0 or phase > OVER:
        return False
    if tokens[0, 1] - tokens[0, 0] == 1 and text[tokens[0, 0]] == 100:  # "d"
        if count >= 2 and _is_word(text, tokens[1], 100, 104, 0):  # "dh"
            return _deal_hole(given, table, streets, work, count)
        if count >= 2 and _is_word(text, tokens[1], 100, 98, 0):  # "db"
            return _deal_boards(given, table, streets, work, count)
        return False
    seat = _parse_seat(text, tokens[0, 0], tokens[0, 1], table.n)
    if seat < 0 or count < 2:
        return False
    if _is_word(text, tokens[1], 115, 109, 0):  # "sm"
        if phase == OVER and (count != 3 or work.hand.at[ENDING] != UNCONTESTED):
            return False  # over: only the seat everyone folded to may show (HandState.show_or_muck)
        return _show_or_muck(given, table, streets, work, seat, count)
    return _bet_action(given, table, streets, work, seat, count)  # (none once the hand is over)


@njit(cache=True)
def _table_of(given, h) -> Table:
    """Hand ``h``'s ``Table`` from its settings row and forced bets."""
    cfg = given.settings[h]
    return Table(cfg[N], given.antes[h], given.blinds[h], cfg[START_BET], cfg[MIN_BET], cfg[STRUCT],
                 cfg[SMALL_BET], cfg[BIG_BET], given.double_raise, cfg[CAP],
                 cfg[BRING_IN_AMOUNT])  # fmt: skip


@njit(cache=True)
def _replay_one(given, h, streets, work) -> bool:
    """Replay hand ``h`` into ``work``; True when it is over and every action was the compiled core's."""
    table = _table_of(given, h)
    n, hand = table.n, work.hand
    reset_hand(hand, given.stacks[h], n)
    work.decimals[0] = given.settings[h, DECIMALS]
    work.boards[:] = -1
    work.board_n[:] = 0
    work.seen[:] = False
    ok = n >= 2
    for s in range(n):
        ok = ok and given.stacks[h, s] > 0
    if not ok:
        return False
    post_forced_bets(table, hand, work.cards)  # antes (dead), blinds and the starting bet (live)
    _start_street(table, streets, hand)
    for a in range(given.hand_actions[h], given.hand_actions[h + 1]):
        if not _apply(given, a, table, streets, work):
            return False
    _close_idle_round(table, streets, hand)
    if hand.at[PHASE] < SHOWDOWN_PHASE or hand.at[PHASE] == GIVE_UP or hand.at[COUNT] > hand.rows.shape[0]:
        return False  # the hand ends before it is over
    if hand.at[PHASE] == SHOWDOWN_PHASE:
        refund_uncalled(hand, n)
    return True


@njit(cache=True)
def _copy_out(h, n, work, out, position) -> None:
    hand = work.hand
    copy_out(h, n, hand, out, position)
    out.status[h] = OK
    out.ending[h] = hand.at[ENDING]
    for s in range(n):
        out.mucked[h, s] = hand.seats[MUCKED, s]
        out.refunded[h, s] = hand.seats[REFUNDED, s]
    for b in range(work.board_n.shape[0]):
        out.board_n[h, b] = work.board_n[b]
        for i in range(work.board_n[b]):
            out.boards[h, b, i] = work.boards[b, i]


@njit(cache=True)
def replay_hands(given, streets, out) -> int:
    """Replay every hand of ``given`` (a ``ReplayInput``) of a game with ``streets`` (a
    ``engine.compiled.hand_state.Streets``) into ``out`` (a ``ReplayedHands``); returns the number of
    records, or -1 - h when ``out.rec`` has no room for hand h (the caller grows it and starts again)."""
    width, n_boards = given.stacks.shape[1], streets.n_boards
    work = ReplayWork(
        new_hand(width), np.full((n_boards, MAX_BOARD), -1, np.int8), np.zeros(n_boards, np.int64),
        np.zeros(given.card_table.max() + 1, np.bool_), np.full(MAX_CARDS, -1, np.int8),
        np.empty((5, 2), np.int64), np.empty(n_boards * MAX_BOARD, np.int8), np.zeros(1, np.int64),
    )  # fmt: skip
    return _replay_hands(given, streets, out, work)


@njit(cache=True)
def _replay_hands(given, streets, out, work) -> int:
    """``replay_hands`` in ``work``, every structure borrowed (the caller holds them)."""
    given, streets, out, work = borrowed((given, streets, out, work))
    position = 0
    for h in range(given.settings.shape[0]):
        out.hand_start[h] = position
        out.status[h] = FALLBACK
        if not _replay_one(given, h, streets, work):
            continue  # an illegal action, or the hand ends before it is over
        k = work.hand.at[COUNT]
        if position + k > out.rec.shape[0]:
            return -1 - h
        _copy_out(h, given.settings[h, N], work, out, position)
        position += k
    out.hand_start[given.settings.shape[0]] = position
    return position
