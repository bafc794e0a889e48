"""Compiled replay of PHH actions: the state machine's rules, many hands per call.

``replay_hands`` reads each hand's action texts (one ASCII buffer for a batch) and applies
them as ``engine.rules.state.HandState`` does (deals, posts, turn order, bet sizes of every
structure, short all-ins, raise caps, uncalled bets, shows and mucks), recording every
action the same way. It covers games without forced discards (no discard-trigger board).
It never explains a failure: a hand it cannot take (an illegal action, an unknown card, a
comment, anything unusual) is marked ``FALLBACK`` and the caller replays
it through the state machine, which accepts it or names what is wrong. The showdown is
``engine.compiled.betting_showdown.settle_hands``. Tests compare every row with the state machine's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.betting_kernel import (
    BET,
    CALL,
    CHECK,
    DEAL,
    FIXED_LIMIT,
    FOLD,
    HAND_ACTIONS,
    MAX_BOARD,
    MAX_CARDS,
    RAISE,
    betting_needed,
    first_to_act,
    full_raise,
    next_pending,
    post_forced_bets,
    raise_bounds_to,
    record,
    refund_uncalled,
    reopened_for,
    round_min_of,
)
from engine.compiled.sim_kernels import SHOWDOWN, UNCONTESTED

SHOW, MUCK = 8, 9  # action kinds beyond engine.compiled.betting_kernel.ACTION_KINDS
OK, FALLBACK = 0, 1
DEAL_PHASE, BET_PHASE, SHOWDOWN_PHASE, OVER = 0, 1, 2, 3
# scalars of a hand (``sc``)
PHASE, STREET, N_LIVE, NEXT, RAISES, LAST_INC, BOARD_DUE, ENDING, COUNT = range(9)
# per-seat rows (``ss``)
STACK, BET_, CONTRIB, ANTE, FOLDED, MUCKED, DUE, PENDING, HAS_ACTED, ACTED, N_HOLE = range(11)
# hand settings (``cfg``)
N, STRUCT, MIN_BET, SMALL_BET, BIG_BET, START_BET, CAP = range(7)
SPACE, SLASH = 32, 47


@njit(cache=True, inline="always")
def _record(rec, rec_cards, sc, seat, kind, amount, cards, n_cards, board, automatic):
    sc[COUNT] = record(
        rec, rec_cards, sc[COUNT], sc[STREET], seat, kind, amount, cards, n_cards, board, automatic
    )


@njit(cache=True, inline="always")
def _max_bet(ss, n):
    top = ss[BET_, 0]
    for s in range(1, n):
        top = max(top, ss[BET_, s])
    return top


@njit(cache=True)
def _close_uncontested(sc, ss, n):
    refund_uncalled(ss[BET_], ss[CONTRIB], ss[STACK], n)
    sc[PHASE] = OVER
    sc[ENDING] = UNCONTESTED


@njit(cache=True)
def _close_round(sc, ss, n, n_streets) -> bool:
    """``HandState._next_street``: uncalled bets back, bets cleared; True when a street follows."""
    refund_uncalled(ss[BET_], ss[CONTRIB], ss[STACK], n)
    ss[BET_, :n] = 0
    ss[PENDING, :n] = 0
    sc[NEXT] = -1
    if sc[STREET] + 1 >= n_streets:
        sc[PHASE] = SHOWDOWN_PHASE
        sc[ENDING] = SHOWDOWN
        return False
    sc[STREET] += 1
    return True


@njit(cache=True)
def _start_street(sc, ss, cfg, game, blinds):
    """``HandState._start_deals``: what the street deals is due, or its betting starts, or it ends."""
    street_hole, street_board = game[0], game[1]
    n = cfg[N]
    while True:
        street = sc[STREET]
        sc[PHASE] = DEAL_PHASE
        for s in range(n):
            ss[DUE, s] = 0 if ss[FOLDED, s] else street_hole[street]
        sc[BOARD_DUE] = street_board[street]
        if not _maybe_start_betting(sc, ss, cfg, game, blinds):
            return
        if not _close_round(sc, ss, n, street_hole.shape[0]):
            return


@njit(cache=True)
def _maybe_start_betting(sc, ss, cfg, game, blinds):
    """Start the betting when nothing is due; True when the street must end at once."""
    n = cfg[N]
    if sc[PHASE] != DEAL_PHASE or sc[BOARD_DUE] > 0:
        return False
    for s in range(n):
        if ss[DUE, s] > 0:
            return False
    if sc[N_LIVE] <= 1:
        _close_uncontested(sc, ss, n)
        return False
    if not game[2][sc[STREET]] or not betting_needed(ss[FOLDED], ss[STACK], ss[BET_], n):
        return True
    sc[PHASE] = BET_PHASE
    for s in range(n):
        ss[PENDING, s] = not ss[FOLDED, s] and ss[STACK, s] > 0
        ss[HAS_ACTED, s] = 0
    sc[RAISES] = 0
    first = 0
    if sc[STREET] == 0:
        first = first_to_act(blinds, cfg[START_BET], n)
        if cfg[START_BET] > 0:
            ss[PENDING, 0] = 0
    else:
        sc[LAST_INC] = 0
    sc[NEXT] = next_pending(ss[PENDING], first - 1, n)
    return False


@njit(cache=True)
def _after_action(sc, ss, cfg, game, blinds, seat, raised):
    n = cfg[N]
    if not raised:
        ss[PENDING, seat] = 0
        ss[HAS_ACTED, seat] = 1
        ss[ACTED, seat] = _max_bet(ss, n)
    if sc[N_LIVE] == 1:
        _close_uncontested(sc, ss, n)
        return
    any_pending = False
    for s in range(n):
        any_pending = any_pending or ss[PENDING, s] != 0
    if any_pending:
        sc[NEXT] = next_pending(ss[PENDING], seat, n)
    elif _close_round(sc, ss, n, game[0].shape[0]):
        _start_street(sc, ss, cfg, game, blinds)


@njit(cache=True)
def _close_idle_round(sc, ss, cfg, game, blinds):
    """``HandState._close_idle_round``: end a round whose seats to act can only check."""
    n = cfg[N]
    idle = sc[PHASE] == BET_PHASE and not betting_needed(ss[FOLDED], ss[STACK], ss[BET_], n)
    if idle and _close_round(sc, ss, n, game[0].shape[0]):
        _start_street(sc, ss, cfg, game, blinds)


@njit(cache=True)
def _round_min(sc, cfg, game):
    """``HandState._limits().min_bet``."""
    big_street = game[4][sc[STREET]]
    return round_min_of(cfg[STRUCT], cfg[START_BET], cfg[MIN_BET], cfg[SMALL_BET], cfg[BIG_BET], big_street)


@njit(cache=True)
def _bet_or_raise(sc, ss, cfg, game, blinds, seat, to, double_raise, rec, rec_cards, cards) -> bool:
    n = cfg[N]
    current = _max_bet(ss, n)
    if game[3][sc[STREET]]:
        return False  # a call-only round
    if cfg[CAP] >= 0 and sc[RAISES] >= cfg[CAP]:
        return False
    round_min = _round_min(sc, cfg, game)
    fixed = cfg[STRUCT] == FIXED_LIMIT
    if ss[HAS_ACTED, seat] and not reopened_for(fixed, current, ss[ACTED, seat], sc[LAST_INC], round_min):
        return False
    others = False
    for s in range(n):
        others = others or (s != seat and not ss[FOLDED, s] and ss[STACK, s] > 0)
    if not others or to <= current:
        return False
    all_in = ss[BET_, seat] + ss[STACK, seat]
    if to > all_in:
        return False
    pot = 0
    for s in range(n):
        pot += ss[CONTRIB, s]
    low, high = raise_bounds_to(cfg[STRUCT], current, sc[LAST_INC], round_min, double_raise, ss[BET_, seat],
                                all_in, pot)  # fmt: skip
    if (to < low and to != all_in) or to > high:
        return False
    put = to - ss[BET_, seat]
    ss[STACK, seat] -= put
    ss[BET_, seat] += put
    ss[CONTRIB, seat] += put
    _record(rec, rec_cards, sc, seat, RAISE if current else BET, to, cards, 0, -1, 0)
    if full_raise(fixed, current, to, sc[LAST_INC], round_min, double_raise):
        sc[RAISES] += 1
        sc[LAST_INC] = to - current
        ss[HAS_ACTED, :n] = 0
    ss[HAS_ACTED, seat] = 1
    ss[ACTED, seat] = to
    for s in range(n):
        ss[PENDING, s] = s != seat and not ss[FOLDED, s] and ss[STACK, s] > 0
    _after_action(sc, ss, cfg, game, blinds, seat, True)
    return True


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


@njit(cache=True)
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


@njit(cache=True)
def _add_new_cards(seen, cards, count) -> bool:
    for i in range(count):
        if seen[cards[i]]:
            return False
    for i in range(count):
        seen[cards[i]] = True
    return True


@njit(cache=True)
def _apply(text, start, end, sc, ss, cfg, game, blinds, hole, boards, board_n, seen, card_table,
           n_boards, double_raise, rec, rec_cards, cards, tokens, all_cards) -> bool:  # fmt: skip
    """Apply one action text; False when the hand needs the state machine."""
    n = cfg[N]
    i = _skip_space(text, start, end)
    if i == end:
        return True  # an empty action does nothing
    count = 0
    while i < end:
        if count == 5:
            return False
        stop = _token_end(text, i, end)
        tokens[count, 0], tokens[count, 1] = i, stop
        count += 1
        i = _skip_space(text, stop, end)
    for t in range(start, end):
        if text[t] == 35:  # '#': a comment
            return False
    if sc[PHASE] == OVER:
        return False
    first = tokens[0]
    if first[1] - first[0] == 1 and text[first[0]] == 100:  # "d"
        if count == 4 and _is_word(text, tokens[1], 100, 104, 0):  # "dh"
            seat = _parse_seat(text, tokens[2, 0], tokens[2, 1], n)
            if seat < 0 or sc[PHASE] != DEAL_PHASE:
                return False
            got = _parse_cards(text, tokens[3, 0], tokens[3, 1], card_table, cards)
            if got <= 0 or got > ss[DUE, seat] or not _add_new_cards(seen, cards, got):
                return False
            for c in range(got):
                hole[seat, ss[N_HOLE, seat]] = cards[c]
                ss[N_HOLE, seat] += 1
            ss[DUE, seat] -= got
            _record(rec, rec_cards, sc, seat, DEAL, -1, cards, got, -1, 0)
            if _maybe_start_betting(sc, ss, cfg, game, blinds) and _close_round(sc, ss, n, game[0].shape[0]):
                _start_street(sc, ss, cfg, game, blinds)
            return True
        if count == 3 and _is_word(text, tokens[1], 100, 98, 0):  # "db"
            _close_idle_round(sc, ss, cfg, game, blinds)
            if sc[PHASE] != DEAL_PHASE or sc[BOARD_DUE] == 0:
                return False
            for s in range(n):
                if ss[DUE, s] > 0:
                    return False
            due = sc[BOARD_DUE]
            a = tokens[2, 0]
            total = 0
            for b in range(n_boards):
                stop = a
                while stop < tokens[2, 1] and text[stop] != SLASH:
                    stop += 1
                if (b < n_boards - 1) != (stop < tokens[2, 1]):
                    return False  # not one card list per board
                got = _parse_cards(text, a, stop, card_table, cards)
                if got != due:
                    return False
                for c in range(got):
                    all_cards[total] = cards[c]
                    total += 1
                a = stop + 1
            for x in range(total):
                for y in range(x):
                    if all_cards[x] == all_cards[y]:
                        return False
            if not _add_new_cards(seen, all_cards, total):
                return False
            for b in range(n_boards):
                for c in range(due):
                    cards[c] = all_cards[b * due + c]
                    boards[b, board_n[b]] = cards[c]
                    board_n[b] += 1
                _record(rec, rec_cards, sc, -1, DEAL, -1, cards, due, b, 0)
            sc[BOARD_DUE] = 0
            if _maybe_start_betting(sc, ss, cfg, game, blinds) and _close_round(sc, ss, n, game[0].shape[0]):
                _start_street(sc, ss, cfg, game, blinds)
            return True
        return False
    seat = _parse_seat(text, first[0], first[1], n)
    if seat < 0 or count < 2:
        return False
    verb = tokens[1]
    if _is_word(text, verb, 115, 109, 0):  # "sm"
        _close_idle_round(sc, ss, cfg, game, blinds)
        if count > 3 or sc[PHASE] == BET_PHASE or ss[FOLDED, seat]:
            return False
        if sc[PHASE] == DEAL_PHASE:
            with_chips = 0
            for s in range(n):
                with_chips += not ss[FOLDED, s] and ss[STACK, s] > 0
            if with_chips > 1:
                return False  # the showdown has not been reached
        if count == 2:
            ss[MUCKED, seat] = 1 + ss[MUCKED, :n].max()  # the muck order: the last keeps unclaimed pots
            _record(rec, rec_cards, sc, seat, MUCK, -1, cards, 0, -1, 0)
            return True
        got = _parse_cards(text, tokens[2, 0], tokens[2, 1], card_table, cards)
        if got <= 0 or got != ss[N_HOLE, seat]:
            return False
        for c in range(got):
            held = False
            for j in range(ss[N_HOLE, seat]):
                held = held or hole[seat, j] == cards[c]
            if not held:
                return False
        _record(rec, rec_cards, sc, seat, SHOW, -1, cards, got, -1, 0)
        return True
    if sc[PHASE] != BET_PHASE or seat != sc[NEXT]:
        return False
    if _is_word(text, verb, 102, 0, 0) and count == 2:  # "f"
        ss[FOLDED, seat] = 1
        sc[N_LIVE] -= 1
        _record(rec, rec_cards, sc, seat, FOLD, -1, cards, 0, -1, 0)
        _after_action(sc, ss, cfg, game, blinds, seat, False)
        return True
    if _is_word(text, verb, 99, 99, 0) and count == 2:  # "cc"
        amount = min(_max_bet(ss, n) - ss[BET_, seat], ss[STACK, seat])
        ss[STACK, seat] -= amount
        ss[BET_, seat] += amount
        ss[CONTRIB, seat] += amount
        kind, recorded = (CALL, amount) if amount else (CHECK, -1)
        _record(rec, rec_cards, sc, seat, kind, recorded, cards, 0, -1, 0)
        _after_action(sc, ss, cfg, game, blinds, seat, False)
        return True
    if _is_word(text, verb, 99, 98, 114) and count == 3:  # "cbr"
        a, b = tokens[2, 0], tokens[2, 1]
        if b - a > 15:
            return False
        to = 0
        for x in range(a, b):
            digit = text[x] - 48
            if digit < 0 or digit > 9:
                return False
            to = to * 10 + digit
        return _bet_or_raise(sc, ss, cfg, game, blinds, seat, to, double_raise, rec, rec_cards, cards)
    return False


@njit(cache=True)
def replay_hands(
    text, hand_actions, action_bounds, settings, antes, blinds, stacks, game, n_boards, double_raise,
    card_table, rec, rec_cards, hand_start, status, ending, stacks_out, contributed_out, antes_out,
    folded_out, mucked_out, hole_out, hole_n, boards_out, board_n,
):  # fmt: skip
    """Replay every hand; ``status[h]`` is ``OK`` or ``FALLBACK``; returns the number of records.

    Hand ``h`` has the actions ``hand_actions[h]:hand_actions[h + 1]``, each the bytes
    ``text[action_bounds[a, 0]:action_bounds[a, 1]]``; ``settings[h]`` holds N, STRUCT, MIN_BET,
    SMALL_BET, BIG_BET, START_BET and CAP; ``antes``/``blinds``/``stacks`` are per hand and
    seat (forced bets already in the state machine's seat order). ``game`` is the tuple of
    street arrays (hole cards, board cards, betting, call only, big bet). Records of OK hands
    are ``rec[hand_start[h]:hand_start[h + 1]]``, laid out as in ``engine.compiled.betting_kernel``.
    """
    width = stacks.shape[1]
    sc = np.zeros(9, dtype=np.int64)
    ss = np.zeros((11, width), dtype=np.int64)
    hole = np.full((width, MAX_CARDS), -1, dtype=np.int8)
    boards = np.full((n_boards, MAX_BOARD), -1, dtype=np.int8)
    board_count = np.zeros(n_boards, dtype=np.int64)
    seen = np.zeros(card_table.max() + 1, dtype=np.bool_)
    cards = np.full(MAX_CARDS, -1, dtype=np.int8)
    tokens = np.empty((5, 2), dtype=np.int64)  # (start, end) of an action's words
    all_cards = np.empty(n_boards * MAX_BOARD, dtype=np.int8)
    scratch = np.zeros((HAND_ACTIONS, rec.shape[1]), dtype=np.int64)
    scratch_cards = np.full((HAND_ACTIONS, MAX_CARDS), -1, dtype=np.int8)
    position = 0
    for h in range(settings.shape[0]):
        hand_start[h] = position
        cfg = settings[h]
        n = cfg[N]
        status[h] = FALLBACK
        sc[:] = 0
        ss[:] = 0
        hole[:] = -1
        boards[:] = -1
        board_count[:] = 0
        seen[:] = False
        sc[N_LIVE] = n
        sc[NEXT] = -1
        ok = n >= 2
        for s in range(n):
            ss[STACK, s] = stacks[h, s]
            ok = ok and stacks[h, s] > 0
        if not ok:
            continue
        # forced bets: antes (dead), blinds and the starting bet (live)
        sc[COUNT] = post_forced_bets(antes[h], blinds[h], cfg[START_BET], ss[STACK], ss[BET_], ss[CONTRIB],
                                     ss[ANTE], n, scratch, scratch_cards, sc[COUNT], cards)  # fmt: skip
        sc[LAST_INC] = max(_max_bet(ss, n), cfg[MIN_BET])
        _start_street(sc, ss, cfg, game, blinds[h])
        for a in range(hand_actions[h], hand_actions[h + 1]):
            ok = _apply(text, action_bounds[a, 0], action_bounds[a, 1], sc, ss, cfg, game, blinds[h], hole,
                        boards, board_count, seen, card_table, n_boards, double_raise, scratch, scratch_cards,
                        cards, tokens, all_cards)  # fmt: skip
            if not ok:
                break
        if ok:
            _close_idle_round(sc, ss, cfg, game, blinds[h])
        if not ok or sc[PHASE] < SHOWDOWN_PHASE or sc[COUNT] > scratch.shape[0]:
            continue  # an illegal action, or the hand ends before it is over
        if sc[PHASE] == SHOWDOWN_PHASE:
            refund_uncalled(ss[BET_], ss[CONTRIB], ss[STACK], n)
        k = sc[COUNT]
        if position + k > rec.shape[0]:
            return -1 - h  # out of room: the caller grows ``rec`` and starts again
        rec[position : position + k] = scratch[:k]
        rec_cards[position : position + k] = scratch_cards[:k]
        position += k
        status[h] = OK
        ending[h] = sc[ENDING]
        for s in range(n):
            stacks_out[h, s] = ss[STACK, s]
            contributed_out[h, s] = ss[CONTRIB, s]
            antes_out[h, s] = ss[ANTE, s]
            folded_out[h, s] = ss[FOLDED, s] != 0
            mucked_out[h, s] = ss[MUCKED, s]
            hole_n[h, s] = ss[N_HOLE, s]
            for i in range(ss[N_HOLE, s]):
                hole_out[h, s, i] = hole[s, i]
        for b in range(n_boards):
            board_n[h, b] = board_count[b]
            for i in range(board_count[b]):
                boards_out[h, b, i] = boards[b, i]
    hand_start[settings.shape[0]] = position
    return position
