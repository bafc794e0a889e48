"""Compiled betting-mode play: deal, bet by built-in policies, discard, until the showdown.

``play_hands`` plays a chunk of no-limit, pot-limit or fixed-limit hands in one call and
never returns to Python per hand or per action. It follows ``engine.rules.state.HandState`` rule
for rule (posts, who acts first, bet sizes of each structure, short all-ins that reopen the
betting only as ``engine.rules.betting.reopens`` says, raise caps, a call-only first
round, uncalled bets returned,
forced discards and dead hands) and records every action as the state
machine does; a test replays its output through the state machine and compares
every row. The kernel stops where ``HandState.finish`` would start: the pots and
showdowns are ``engine.compiled.betting_showdown.settle_hands``.

Random numbers come from a xoshiro256** generator whose state the caller seeds
from the shard's numpy generator, so a shard's hands depend on its seed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.sim_kernels import EVERYONE_DEAD, SHOWDOWN, UNCONTESTED
from engine.hands.kernels import card_bit, key_strength
from engine.rules.games.base import Structure
from engine.rules.pushfold_play import CALL_SPOT, NO_SPOT, PUSH_SPOT

# action kinds, in the order of ``ACTION_KINDS``
POST, FOLD, CHECK, CALL, BET, RAISE, DISCARD, DEAL = range(8)
ACTION_KINDS = ("post", "fold", "check", "call", "bet", "raise", "discard", "deal")
STATION, RANDOM, TAG, PUSHFOLD = 0, 1, 2, 3
POLICY_CODES = {"station": STATION, "random": RANDOM, "tag": TAG, "pushfold": PUSHFOLD}
NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2  # betting structures, for both kernels
STRUCTURE_CODES = {
    Structure.NO_LIMIT: NO_LIMIT,
    Structure.POT_LIMIT: POT_LIMIT,
    Structure.FIXED_LIMIT: FIXED_LIMIT,
}
MAX_CARDS = 6  # hole cards per seat, and cards per recorded action
MAX_BOARD = 5
HAND_ACTIONS = 4096  # room for one hand's actions; no-limit with these blinds needs far fewer


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
def hand_score(hole, n_hole, board, n_board, ranking, kickers, tables, n_ranks):
    """``engine.rules.policies.hand_score``: 0 (hopeless) to 1 (the nuts), from hole cards and one board."""
    if n_hole + n_board < 5:
        return _starting_score(hole, n_hole, n_ranks)
    key = np.int64(0)
    for i in range(n_hole):
        key |= card_bit(hole[i])
    for i in range(n_board):
        key |= card_bit(board[i])
    strength = key_strength(key, ranking, kickers, tables)
    place = strength >> 24  # ordered strengths carry their place (engine.rules.policies.strength_score)
    if place == 0:
        place = (strength >> 20) & 15
    return (place + ((strength >> 16) & 0xF) / (n_ranks + 1)) / 9


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


@njit(cache=True, inline="always")
def record(rec, rec_cards, k, street, seat, kind, amount, cards, n_cards, board, automatic):
    """Record action ``k`` (its street, seat, kind, amount, cards, board, automatic); returns k + 1."""
    if k >= rec.shape[0]:
        return k + 1  # counted, not stored: the caller reports the overflow
    rec[k, 0] = street
    rec[k, 1] = seat
    rec[k, 2] = kind
    rec[k, 3] = amount
    rec[k, 4] = board
    rec[k, 5] = automatic
    rec[k, 6] = n_cards
    for i in range(MAX_CARDS):
        rec_cards[k, i] = cards[i] if i < n_cards else -1
    return k + 1


@njit(cache=True, inline="always")
def next_pending(pending, after, n):
    for step in range(1, n + 1):
        seat = (after + step + n) % n
        if pending[seat]:
            return seat
    return -1


@njit(cache=True, inline="always")
def betting_needed(folded, stacks, bets, n):
    current = bets.max()
    can_act = 0
    behind = False
    for s in range(n):
        if not folded[s] and stacks[s] > 0:
            can_act += 1
            if bets[s] < current:
                behind = True
    return can_act > 1 or behind


@njit(cache=True, inline="always")
def refund_uncalled(bets, contributed, stacks, n):
    top = 0
    for s in range(1, n):
        if bets[s] > bets[top]:
            top = s
    second = 0
    for s in range(n):
        if s != top and bets[s] > second:
            second = bets[s]
    excess = bets[top] - second
    if excess > 0:
        bets[top] -= excess
        contributed[top] -= excess
        stacks[top] += excess


@njit(cache=True, inline="always")
def post_forced_bets(antes, blinds, starting_bet, stacks, bets, contributed, antes_paid, n, rec, rec_cards, k,
                     cards):  # fmt: skip
    """Post the antes (dead), the blinds and seat 0's starting bet (live), each at most the stack."""
    for phase in range(3):
        for seat in range(n):
            if phase == 0:
                amount = antes[seat]
            elif phase == 1:
                amount = blinds[seat]
            else:
                amount = starting_bet if seat == 0 else 0
            amount = min(amount, stacks[seat])
            if amount <= 0:
                continue
            stacks[seat] -= amount
            contributed[seat] += amount
            if phase == 0:
                antes_paid[seat] += amount
            else:
                bets[seat] += amount
            k = record(rec, rec_cards, k, 0, seat, POST, amount, cards, 0, -1, 1)
    return k


@njit(cache=True, inline="always")
def first_to_act(blinds, starting_bet, n):
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
def min_raise_to(current, last_increment, round_min, double_raise):
    """The smallest full bet or raise (no-limit, pot-limit): ``engine.rules.betting.raise_bounds``."""
    if double_raise:
        return 2 * current if current else round_min
    return current + max(last_increment, round_min)


@njit(cache=True, inline="always")
def reopened_for(fixed_limit, current, acted_at, last_increment, round_min):
    """``engine.rules.betting.reopens`` for a seat that acted at ``acted_at``: may it raise again?"""
    if fixed_limit:
        return 2 * (current - acted_at) >= round_min
    return current - acted_at >= max(last_increment, round_min)


@njit(cache=True, inline="always")
def full_raise(fixed_limit, current, to, last_increment, round_min, double_raise):
    """``engine.rules.betting.is_full_raise``: does a bet or raise to ``to`` reopen the betting for all?"""
    if fixed_limit:
        return 2 * (to - current) >= round_min
    return to >= min_raise_to(current, last_increment, round_min, double_raise)


@njit(cache=True, inline="always")
def round_min_of(structure, starting_bet, min_bet, small_bet, big_bet, big_street):
    """``HandState._limits().min_bet``: the starting bet, the street's fixed bet, or the minimum bet."""
    if starting_bet > 0:
        return starting_bet
    if structure == FIXED_LIMIT:
        return big_bet if big_street else small_bet
    return min_bet


@njit(cache=True, inline="always")
def raise_bounds_to(structure, current, last_increment, round_min, double_raise, bet, all_in, pot):
    """``engine.rules.betting.raise_bounds``, both ends at most all in."""
    if structure == FIXED_LIMIT:
        low = high = current + round_min
    else:
        low = min_raise_to(current, last_increment, round_min, double_raise)
        high = all_in
        if structure == POT_LIMIT:
            high = max(current + pot + current - bet, low)
    return min(low, all_in), min(high, all_in)


@njit(cache=True, inline="always")
def _end_round(bets, contributed, stacks, pending, n):
    """Close a betting round: return the uncalled part of the largest bet, clear the bets."""
    refund_uncalled(bets, contributed, stacks, n)
    bets[:] = 0
    pending[:] = False


@njit(cache=True)
def play_hands(
    n_hands, n, stake, antes, blinds, starting_bet, min_bet, structure, small_bet, big_bet,
    street_hole, street_board, street_burns, street_betting, street_call_only, street_big_bet,
    n_boards, discard_board, deck_size, double_raise, raise_cap,
    policies, ranking, score_board, kickers, tables, rng_state, fixed_decks,
    chart_on, small_blind_seat, held, class_of, binomial, push_prob, call_prob,
    rec, rec_cards, hand_start, ending, stacks_out, contributed_out, antes_out, folded_out, dead_out,
    won_out, dealt_out, hole_out, hole_n, disc_out, disc_n, boards_out, board_n,
):  # fmt: skip
    """Play up to ``n_hands`` hands; returns how many fit in ``rec`` (the rest wait for a bigger one).

    Per hand ``i`` its actions are ``rec[hand_start[i]:hand_start[i + 1]]`` (columns: street,
    seat or -1, kind, amount or -1, board or -1, automatic, card count; cards in ``rec_cards``);
    the seat arrays hold the state where ``HandState.finish`` starts (``won_out`` is filled for
    hands that end without a showdown). ``fixed_decks`` (one row per hand, or no rows) deals
    given decks instead of shuffled ones, for tests. ``structure`` is ``NO_LIMIT``, ``POT_LIMIT``
    or ``FIXED_LIMIT`` (with ``small_bet`` and ``big_bet``, the latter on ``street_big_bet`` streets).
    ``PUSHFOLD`` seats play ``push_prob`` and ``call_prob`` by class where ``chart_on`` and the spot
    is the chart's (``engine.rules.pushfold_play``), else ``TAG``'s rules.
    """
    n_streets = street_hole.shape[0]
    fixed_limit = structure == FIXED_LIMIT
    deck = np.empty(deck_size, dtype=np.int8)
    stacks = np.empty(n, dtype=np.int64)
    bets = np.empty(n, dtype=np.int64)
    contributed = np.empty(n, dtype=np.int64)
    antes_paid = np.empty(n, dtype=np.int64)
    folded = np.empty(n, dtype=np.bool_)
    dead = np.empty(n, dtype=np.bool_)
    pending = np.empty(n, dtype=np.bool_)
    has_acted = np.empty(n, dtype=np.bool_)
    acted = np.empty(n, dtype=np.int64)
    hole = np.empty((n, MAX_CARDS), dtype=np.int8)
    n_hole = np.empty(n, dtype=np.int64)
    n_dealt = np.empty(n, dtype=np.int64)
    cards = np.empty(MAX_CARDS, dtype=np.int8)
    scratch_rec = np.empty((HAND_ACTIONS, rec.shape[1]), dtype=np.int64)
    scratch_cards = np.empty((HAND_ACTIONS, MAX_CARDS), dtype=np.int8)
    saved = np.empty(4, dtype=np.uint64)
    position = hand_start[0]
    for h in range(n_hands):
        saved[:] = rng_state
        stacks[:] = stake
        bets[:] = 0
        contributed[:] = 0
        antes_paid[:] = 0
        folded[:] = False
        dead[:] = False
        pending[:] = False
        has_acted[:] = False
        n_hole[:] = 0
        n_dealt[:] = 0
        disc_n[h, :] = 0
        board_n[h, :] = 0
        won_out[h, :] = 0
        k = post_forced_bets(antes, blinds, starting_bet, stacks, bets, contributed, antes_paid, n,
                             scratch_rec, scratch_cards, 0, cards)  # fmt: skip
        last_increment = max(bets.max(), min_bet)
        if fixed_decks.shape[0]:
            deck[:] = fixed_decks[h]
        else:
            for i in range(deck_size):
                deck[i] = i
            for i in range(deck_size - 1):
                j = i + below(rng_state, deck_size - i)
                deck[i], deck[j] = deck[j], deck[i]
        top = 0  # next card of the deck
        n_live = n
        label = 0  # the street actions are recorded under
        result = -1
        s = 0
        while result < 0:
            # deal what the street deals: hole cards round-robin from seat 0, then the boards
            per_seat = street_hole[s]
            if per_seat > 0:
                for _round in range(per_seat):
                    for seat in range(n):
                        if not folded[seat]:
                            card = deck[top]
                            top += 1
                            hole[seat, n_hole[seat]] = card
                            n_hole[seat] += 1
                            dealt_out[h, seat, n_dealt[seat]] = card
                            n_dealt[seat] += 1
                for seat in range(n):
                    if not folded[seat]:
                        for i in range(per_seat):
                            cards[i] = hole[seat, n_hole[seat] - per_seat + i]
                        k = record(
                            scratch_rec, scratch_cards, k, label, seat, DEAL, -1, cards, per_seat, -1, 0
                        )
            per_board = street_board[s]
            if per_board > 0:
                top += street_burns[s]
                for b in range(n_boards):
                    for i in range(per_board):
                        boards_out[h, b, board_n[h, b]] = deck[top]
                        cards[i] = deck[top]
                        board_n[h, b] += 1
                        top += 1
                    k = record(scratch_rec, scratch_cards, k, label, -1, DEAL, -1, cards, per_board, b, 0)
            # start the betting, or move on when nobody can bet
            betting = False
            next_seat = -1
            raise_count = 0
            if n_live <= 1:
                result = UNCONTESTED
                break
            if street_betting[s] and betting_needed(folded, stacks, bets, n):
                betting = True
                has_acted[:] = False
                for seat in range(n):
                    pending[seat] = not folded[seat] and stacks[seat] > 0
                if s == 0:
                    first = first_to_act(blinds, starting_bet, n)
                    if starting_bet > 0:
                        pending[0] = False
                else:
                    first = 0
                    last_increment = 0
                next_seat = next_pending(pending, first - 1, n)
                if next_seat < 0:
                    raise ValueError("a betting round with nobody to act")
            else:
                _end_round(bets, contributed, stacks, pending, n)
                s += 1
                if s < n_streets:
                    label = s
            # a discard-trigger board forces matching hole cards out; empty hands die
            if discard_board >= 0 and per_board > 0:
                ranks = 0
                for i in range(board_n[h, discard_board]):
                    ranks |= 1 << (boards_out[h, discard_board, i] >> 2)
                for seat in range(n):
                    if folded[seat]:
                        continue
                    kept = 0
                    gone = 0
                    for i in range(n_hole[seat]):
                        card = hole[seat, i]
                        if ranks & (1 << (card >> 2)):
                            cards[gone] = card
                            gone += 1
                            disc_out[h, seat, disc_n[h, seat]] = card
                            disc_n[h, seat] += 1
                        else:
                            hole[seat, kept] = card
                            kept += 1
                    n_hole[seat] = kept
                    if gone:
                        k = record(scratch_rec, scratch_cards, k, s - (0 if betting else 1), seat, DISCARD,
                                    -1, cards, gone, -1, 0)  # fmt: skip
                dying = 0
                for seat in range(n):
                    if not folded[seat] and n_hole[seat] == 0:
                        dying += 1
                if dying == n_live:  # everyone left dies at once: they share the pot equally
                    refund_uncalled(bets, contributed, stacks, n)
                    pot = contributed.sum()
                    share = pot // dying
                    odd = pot - share * dying
                    place = 0
                    for seat in range(n):
                        if not folded[seat]:
                            dead[seat] = True
                            folded[seat] = True
                            won_out[h, seat] = share + (1 if place < odd else 0)
                            place += 1
                    n_live = 0
                    result = EVERYONE_DEAD
                    break
                if dying:
                    for seat in range(n):
                        if not folded[seat] and n_hole[seat] == 0:
                            dead[seat] = True
                            folded[seat] = True
                            n_live -= 1
                            pending[seat] = False
                            k = record(scratch_rec, scratch_cards, k, label, seat, FOLD, -1, cards, 0, -1, 1)
                    if n_live == 1:
                        result = UNCONTESTED
                        break
                    if betting:
                        if not pending.any() or not betting_needed(folded, stacks, bets, n):
                            betting = False
                            _end_round(bets, contributed, stacks, pending, n)
                            s += 1
                            if s < n_streets:
                                label = s
                        elif not pending[next_seat]:
                            next_seat = next_pending(pending, next_seat, n)
            # the betting round
            while betting:
                seat = next_seat
                current = bets.max()
                call = min(current - bets[seat], stacks[seat])
                cap_reached = raise_cap >= 0 and raise_count >= raise_cap
                reopened = True
                round_min = round_min_of(structure, starting_bet, min_bet, small_bet, big_bet,
                                         street_big_bet[s])  # fmt: skip
                if has_acted[seat]:
                    reopened = reopened_for(fixed_limit, current, acted[seat], last_increment, round_min)
                others = False
                for o in range(n):
                    if o != seat and not folded[o] and stacks[o] > 0:
                        others = True
                can_raise = (not street_call_only[s]) and not cap_reached and reopened and others
                can_raise = can_raise and stacks[seat] > call
                all_in = bets[seat] + stacks[seat]
                low = 0
                high = 0
                if can_raise:
                    low, high = raise_bounds_to(structure, current, last_increment, round_min, double_raise,
                                              bets[seat], all_in, contributed.sum())  # fmt: skip
                # the policy decides: 0 fold, 1 check or call, 2 raise to ``to``
                choice = 1
                to = 0
                policy = policies[seat]
                if policy == RANDOM:
                    n_choices = 1 + (1 if call > 0 else 0) + (1 if can_raise else 0)
                    pick = below(rng_state, n_choices)
                    if pick == 1 and call > 0:
                        choice = 0
                    elif pick >= 1:
                        choice = 2
                        to = low + below(rng_state, high - low + 1)
                spot = NO_SPOT
                if policy == PUSHFOLD and chart_on:
                    spot = chart_spot(s, seat, small_blind_seat, raise_count, has_acted[seat], call, folded,
                                      stacks, n)  # fmt: skip
                if spot != NO_SPOT:
                    index = chart_class(hole[seat], held, class_of, binomial)
                    chance = push_prob[index] if spot == PUSH_SPOT else call_prob[index]
                    if uniform(rng_state) >= chance:
                        choice = 0
                    elif spot == PUSH_SPOT and can_raise:
                        choice = 2
                        to = high
                elif policy == TAG or policy == PUSHFOLD:  # noqa: SIM109 (numba's tuples)
                    scored = boards_out[h, score_board]
                    score = hand_score(hole[seat], n_hole[seat], scored, board_n[h, score_board],
                                       ranking, kickers, tables, deck_size // 4)  # fmt: skip
                    if score >= 0.42 and can_raise:
                        choice = 2
                        to = min(max(low, current + contributed.sum() // 2), high)
                    elif score >= 0.25 or call == 0:
                        choice = 1
                    else:
                        choice = 0
                raised = False
                if choice == 0:
                    folded[seat] = True
                    n_live -= 1
                    k = record(scratch_rec, scratch_cards, k, label, seat, FOLD, -1, cards, 0, -1, 0)
                elif choice == 1:
                    stacks[seat] -= call
                    bets[seat] += call
                    contributed[seat] += call
                    kind = CALL if call else CHECK
                    k = record(scratch_rec, scratch_cards, k, label, seat, kind, call if call else -1,
                                cards, 0, -1, 0)  # fmt: skip
                else:
                    put = to - bets[seat]
                    stacks[seat] -= put
                    bets[seat] += put
                    contributed[seat] += put
                    kind = RAISE if current else BET
                    k = record(scratch_rec, scratch_cards, k, label, seat, kind, to, cards, 0, -1, 0)
                    if full_raise(fixed_limit, current, to, last_increment, round_min, double_raise):
                        raise_count += 1
                        last_increment = to - current
                        has_acted[:] = False
                    has_acted[seat] = True
                    acted[seat] = to
                    for o in range(n):
                        pending[o] = o != seat and not folded[o] and stacks[o] > 0
                    raised = True
                if not raised:
                    pending[seat] = False
                    has_acted[seat] = True
                    acted[seat] = bets.max()
                if n_live == 1:
                    result = UNCONTESTED
                    break
                if not pending.any():
                    betting = False
                    _end_round(bets, contributed, stacks, pending, n)
                    s += 1
                    if s < n_streets:
                        label = s
                else:
                    next_seat = next_pending(pending, seat, n)
            if result < 0 and s >= n_streets:
                result = SHOWDOWN
        refund_uncalled(bets, contributed, stacks, n)
        if k > HAND_ACTIONS:
            raise ValueError("a hand has more actions than play_hands has room for")
        if position + k > rec.shape[0]:
            rng_state[:] = saved  # replay this hand in the next call, with more room
            return h
        rec[position : position + k] = scratch_rec[:k]
        rec_cards[position : position + k] = scratch_cards[:k]
        position += k
        hand_start[h + 1] = position
        ending[h] = result
        for seat in range(n):
            stacks_out[h, seat] = stacks[seat] + won_out[h, seat]
            contributed_out[h, seat] = contributed[seat]
            antes_out[h, seat] = antes_paid[seat]
            folded_out[h, seat] = folded[seat]
            dead_out[h, seat] = dead[seat]
            hole_n[h, seat] = n_hole[seat]
            for i in range(n_hole[seat]):
                hole_out[h, seat, i] = hole[seat, i]
    return n_hands
