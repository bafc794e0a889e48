"""Draws in compiled code: the default drawing policy, and the stub that replaces the discards.

``discard_mask`` is ``engine.rules.draw_policy.standard_discards`` (the readable reference; the tests
hold the two equal hand by hand) as a bit mask over a seat's hole cards. ``draw_round`` plays one draw
round of a showdown-mode hand: each seat in turn throws its discards and is dealt as many from the
stub; when the stub cannot cover a draw, its last cards go first, then the discards made before
(not those the seat throws in it) are shuffled into a new stub (RULINGS, "Draw"; the reference is
``engine.rules.drawing.Stub``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.hands.kernels import card_bit, key_strength
from engine.hands.low_kernel import bit_count
from engine.hands.strengths import ACE_TO_FIVE, BADUGI, CATEGORY_SHIFT, DEUCE_TO_SEVEN, STANDARD_HIGH
from engine.rules.draw_policy import decision_seed  # noqa: F401 (the reference of decision_seed_of)

PAT_TOP, KEEP_TOP, STRAIGHT = 7, 6, 4  # as engine.rules.draw_policy
STANDARD, SAMPLED, SPLIT = 0, 1, 2  # drawing policies (the rule option draw_policy; SPLIT: standard in
# a high game with a low half, engine.rules.draw_policy._split_keeps)
SPLIT_HIGH_PAIR = 7  # a high-low draw goes high on a pair of nines or better


@njit(cache=True, inline="always")
def _low_rank(card: int, aces_low: bool) -> int:
    return ((card >> 2) + 1) % 13 if aces_low else card >> 2


@njit(cache=True)
def _sorted_positions(hand: np.ndarray, n: int, order: np.ndarray) -> None:
    """``order[:n]``: the positions of ``hand[:n]`` by card id (insertion sort: a handful of cards)."""
    for i in range(n):
        j = i
        while j > 0 and hand[order[j - 1]] > hand[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i


@njit(cache=True)
def _low_keeps(hand, n, order, aces_low) -> int:
    shift = 1 if aces_low else 0
    ranks = 0
    top, bottom, suits = -1, 99, 0
    for i in range(n):
        rank = _low_rank(hand[i], aces_low)
        ranks |= 1 << rank
        top, bottom = max(top, rank), min(bottom, rank)
        suits |= 1 << (hand[i] & 3)
    distinct = 0
    for rank in range(13):
        distinct += (ranks >> rank) & 1
    if n == 5 and distinct == 5 and top <= PAT_TOP + shift:
        made = top - bottom == 4 or suits & (suits - 1) == 0
        if aces_low or not made:
            return (1 << n) - 1
    kept, kept_ranks, count = 0, 0, 0
    for rank in range(KEEP_TOP + shift + 1):  # the lowest first; of a pair, the lower card id
        for k in range(n):
            i = order[k]
            if count < n - 1 and _low_rank(hand[i], aces_low) == rank and not (kept_ranks >> rank) & 1:
                kept |= 1 << i
                kept_ranks |= 1 << rank
                count += 1
    return kept


@njit(cache=True)
def _badugi_keeps(hand, n, order) -> int:
    """The best partial badugi's cards (the first found, subsets over the cards in id order), or every
    card on a badugi. A subset of different ranks and suits is its own best badugi, so it is ranked
    here at once: more cards first, then the lower rank mask (aces low), which orders the ranks high
    card first as ``badugi_strength`` does."""
    best, best_subset = -1, 0
    for subset in range(1, 1 << n):
        ranks, suits, size = 0, 0, 0
        for k in range(n):
            if (subset >> k) & 1:
                card = hand[order[k]]
                ranks |= 1 << _low_rank(card, True)
                suits |= 1 << (card & 3)
                size += 1
        if size > 4 or bit_count(ranks) < size or bit_count(suits) < size:
            continue
        value = (size << 13) | (0x1FFF - ranks)
        if value > best:
            best, best_subset = value, subset
    if bit_count(best_subset) == 4:  # a badugi stands pat
        return (1 << n) - 1
    kept = 0
    for k in range(n):
        if (best_subset >> k) & 1 and _low_rank(hand[order[k]], True) <= KEEP_TOP + 1:
            kept |= 1 << order[k]
    return kept


@njit(cache=True)
def _high_keeps(hand, n, order, ranking, kickers, tables) -> int:
    key = np.int64(0)
    for i in range(n):
        key |= card_bit(hand[i])
    made = ranking == STANDARD_HIGH and n == 5
    if made and (key_strength(key, ranking, kickers, tables) >> CATEGORY_SHIFT) & 0xF >= STRAIGHT:
        return (1 << n) - 1
    kept = 0
    for i in range(n):
        for j in range(n):
            if i != j and hand[i] >> 2 == hand[j] >> 2:
                kept |= 1 << i
    if kept == 0 and made:
        kept = _draw_keeps(hand, n, order, ranking, kickers, tables)
    if kept == 0:
        kept = 1 << order[n - 1]  # the highest card
    return kept


@njit(cache=True)
def _split_keeps(hand, n, order, kickers, tables) -> int:
    """``engine.rules.draw_policy._split_keeps``: pat on a straight or better or a made low; high on two
    pair or better or a pair of nines or better; low on three or more low cards kept; else high."""
    full = (1 << n) - 1
    high = _high_keeps(hand, n, order, STANDARD_HIGH, kickers, tables)
    low = _low_keeps(hand, n, order, True)
    if high == full or low == full:
        return full
    counts = np.zeros(13, np.int64)
    for i in range(n):
        counts[hand[i] >> 2] += 1
    pairs, strong = 0, False
    for rank in range(13):
        if counts[rank] >= 2:
            pairs += 1
            strong = strong or counts[rank] >= 3 or rank >= SPLIT_HIGH_PAIR
    if pairs >= 2 or strong:
        return high
    return low if bit_count(low) >= 3 else high


@njit(cache=True)
def _draw_keeps(hand, n, order, ranking, kickers, tables) -> int:
    """Five cards of five ranks: the four of one suit, else the highest four that two ranks would each
    make a straight with (``engine.rules.draw_policy._open_ended``); 0 when neither."""
    suits = np.zeros(4, np.int64)
    for i in range(n):
        suits[hand[i] & 3] += 1
    for suit in range(4):
        if suits[suit] == 4:
            kept = 0
            for i in range(n):
                if hand[i] & 3 == suit:
                    kept |= 1 << i
            return kept
    for k in range(n):  # the lowest card thrown first
        thrown = order[k]
        key, ranks = np.int64(0), 0
        for i in range(n):
            if i != thrown:
                key |= card_bit(hand[i])
                ranks |= 1 << (hand[i] >> 2)
        makers = 0
        for rank in range(13):
            if not (ranks >> rank) & 1:
                strength = key_strength(key | card_bit(rank * 4), ranking, kickers, tables)
                makers += (strength >> CATEGORY_SHIFT) & 0xF == STRAIGHT
        if makers >= 2:
            return ((1 << n) - 1) & ~(1 << thrown)
    return 0


@njit(cache=True)
def discard_mask(
    hand: np.ndarray, n: int, ranking: int, kickers: bool, tables: tuple, order: np.ndarray
) -> int:
    """Bit i set: the default policy throws away ``hand[i]`` (of ``n`` hole cards); ``order`` is scratch."""
    _sorted_positions(hand, n, order)
    if ranking in (DEUCE_TO_SEVEN, ACE_TO_FIVE):
        kept = _low_keeps(hand, n, order, ranking == ACE_TO_FIVE)
    elif ranking == BADUGI:
        kept = _badugi_keeps(hand, n, order)
    else:
        kept = _high_keeps(hand, n, order, ranking, kickers, tables)
    return ((1 << n) - 1) & ~kept


@njit(cache=True)
def standard_draws(hands, ranking, kickers, tables, aces_low, drawn, top) -> None:
    """Each row of ``hands`` (rows, cards) under the default policy: ``drawn`` the cards it draws,
    ``top`` its highest kept card in low order (aces low where ``aces_low``; -1: it keeps none)."""
    n = hands.shape[1]
    order = np.zeros(max(8, n), np.int64)
    for i in range(hands.shape[0]):
        mask = discard_mask(hands[i], n, ranking, kickers, tables, order)
        drawn[i], top[i] = 0, -1
        for j in range(n):
            if (mask >> j) & 1:
                drawn[i] += 1
            else:
                top[i] = max(top[i], _low_rank(hands[i, j], aces_low))


@njit(cache=True, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _next_card(stub: np.ndarray, pile: np.ndarray, at: np.ndarray) -> int:
    """The stub's next card; an empty stub first takes the pile, shuffled. ``stub`` and ``pile`` hold a
    deck's room; ``at``: the stub's next card and end, the cards in the pile, the reshuffles' random
    state."""
    if at[0] == at[1]:
        count = at[2]
        for i in range(count):
            stub[i] = pile[i]
        state = np.uint64(at[3])
        for i in range(count - 1, 0, -1):  # Fisher-Yates
            state, r = _splitmix(state)
            j = np.int64(r % np.uint64(i + 1))
            stub[i], stub[j] = stub[j], stub[i]
        at[3] = np.int64(state)
        at[0], at[1], at[2] = 0, count, 0
    card = stub[at[0]]
    at[0] += 1
    return card


@njit(cache=True)
def _fresh_samples(held, n_cards, deck_size, samples, seed, unseen, draws) -> None:
    """``draws[t, :n_cards]``: for each sample, the first cards of a fresh shuffle of the cards not in
    ``held`` (taken in id order), from the random state ``seed``."""
    state = np.uint64(seed)
    for t in range(samples):
        m = 0
        for card in range(deck_size):
            if not held & card_bit(card):
                unseen[m] = card
                m += 1
        for i in range(n_cards):
            state, r = _splitmix(state)
            j = i + np.int64(r % np.uint64(m - i))
            unseen[i], unseen[j] = unseen[j], unseen[i]
            draws[t, i] = unseen[i]


@njit(cache=True)
def _rollout(kept, trial, n, thrown, sample, draws_left, ranking, kickers, tables, order) -> int:
    """The strength a hand ends with: ``trial[:n]`` holds the kept cards first, the ``thrown`` places
    after them take the sample's first cards, and each later draw plays the standard policy on the
    sample's next cards."""
    taken = 0
    for i in range(n - thrown, n):
        trial[i] = sample[taken]
        taken += 1
    for _ in range(draws_left):
        mask = discard_mask(trial, n, ranking, kickers, tables, order)
        for i in range(n):
            if (mask >> i) & 1:
                trial[i] = sample[taken]
                taken += 1
    key = np.int64(0)
    for i in range(n):
        key |= card_bit(trial[i])
    return key_strength(key, ranking, kickers, tables)


@njit(cache=True, inline="always")
def _worth(keys, below, strength) -> float:
    return below[np.searchsorted(keys, strength, side="right") - 1] if strength >= keys[0] else 0.0


@njit(cache=True)
def sampled_mask(
    hand, n, draws_left, deck_size, ranking, kickers, tables, keys, below, samples, seed, work
) -> int:
    """Bit i set: throw away ``hand[i]``. Every discard is tried on the same ``samples`` sampled deals
    of the cards the seat does not hold (``seed`` the decision's random state), the ``draws_left``
    later draws played by the standard policy; the one whose final hands are worth most on average
    (``keys``/``below``: the share of a standard player's final hands each strength beats) is kept;
    ties go to the first, discards taken as bit masks over the cards in id order (standing pat
    first)."""
    order, trial, draws = work.order, work.trial, work.draws
    _sorted_positions(hand, n, order)
    sorted_cards = work.sorted_cards
    held = np.int64(0)
    for k in range(n):
        sorted_cards[k] = hand[order[k]]
        held |= card_bit(hand[k])
    draws_left = min(draws_left, (deck_size - n) // n - 1)  # (what one deal of the unseen cards covers)
    _fresh_samples(held, n * (1 + draws_left), deck_size, samples, seed, work.unseen, draws)
    best, best_mask = -1.0, 0
    for mask in range(1 << n):
        total = 0.0
        for t in range(samples):
            kept = 0
            for k in range(n):
                if not (mask >> k) & 1:
                    trial[kept] = sorted_cards[k]
                    kept += 1
            strength = _rollout(kept, trial, n, n - kept, draws[t], draws_left, ranking, kickers, tables,
                                work.rollout_order)  # fmt: skip
            total += _worth(keys, below, strength)
        if total > best:
            best, best_mask = total, mask
    positions = 0
    for k in range(n):
        if (best_mask >> k) & 1:
            positions |= 1 << order[k]
    return positions


@njit(cache=True)
def hand_worth(
    hand, n, draws_left, deck_size, ranking, kickers, tables, keys, below, samples, seed, work
) -> float:
    """``engine.rules.draw_policy.hand_worth``: the share of a standard player's final hands
    (``keys``/``below``) the hand's final hand beats, ``draws_left`` standard draws to come, averaged
    over ``samples`` deals of the cards not held (``seed`` their random state); exact with none to come."""
    order, trial = work.order, work.trial
    _sorted_positions(hand, n, order)
    held = np.int64(0)
    for k in range(n):
        held |= card_bit(hand[k])
    draws_left = min(draws_left, (deck_size - n) // n)  # (as sampled_mask)
    if draws_left == 0:
        return _worth(keys, below, key_strength(held, ranking, kickers, tables))
    _fresh_samples(held, n * draws_left, deck_size, samples, seed, work.unseen, work.draws)
    total = 0.0
    for t in range(samples):
        for k in range(n):
            trial[k] = hand[order[k]]
        strength = _rollout(n, trial, n, 0, work.draws[t], draws_left, ranking, kickers, tables,
                            work.rollout_order)  # fmt: skip
        total += _worth(keys, below, strength)
    return total / samples


class DrawPolicy(NamedTuple):
    """How simulated players draw: ``STANDARD`` (``discard_mask``) or ``SAMPLED`` (``sampled_mask``,
    with its samples and the value scale of ``hand_values``)."""

    code: int
    samples: int
    keys: np.ndarray
    below: np.ndarray


class DrawScratch(NamedTuple):
    """Room a draw round works in: the stub, the pile and their counters, the policies' scratch."""

    stub: np.ndarray  # (deck size,)
    pile: np.ndarray  # (deck size,)
    at: np.ndarray  # (4,) the stub's next card and end, the pile's count, the reshuffles' random state
    order: np.ndarray  # (8,)
    unseen: np.ndarray  # (deck size,)
    draws: np.ndarray  # (samples, deck size) each sample's cards
    trial: np.ndarray  # (8,) a hand played out
    sorted_cards: np.ndarray  # (8,)
    rollout_order: np.ndarray  # (8,)


@njit(cache=True)
def draw_scratch(deck_size: int, samples: int) -> DrawScratch:
    """Fresh ``DrawScratch``."""
    cards = np.zeros(deck_size, np.int8)
    return DrawScratch(cards, cards.copy(), np.zeros(4, np.int64), np.zeros(8, np.int64), cards.copy(),
                       np.zeros((max(samples, 1), deck_size), np.int8), np.zeros(8, np.int8),
                       np.zeros(8, np.int8), np.zeros(8, np.int64))  # fmt: skip


@njit(cache=True, inline="always")
def decision_seed_of(hand_seed, street, seat):
    return np.uint64(hand_seed) ^ (np.uint64(street * 16 + seat + 1) * np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True)
def burn_stub(work: DrawScratch, burns: int) -> None:
    """Burn ``burns`` cards off the stub, while it has cards (a reshuffle burns none)."""
    for _ in range(burns):
        if work.at[0] < work.at[1]:
            work.at[0] += 1


@njit(cache=True)
def choose_discards(hand, n_hole, policy, ranking, kickers, tables, work, seed, draws_left) -> int:
    """Bit j set: the seat holding ``hand[:n_hole]`` throws ``hand[j]`` (``policy`` a ``DrawPolicy``;
    ``seed``: the decision's random state, read by ``SAMPLED``)."""
    if policy.code == SAMPLED:
        return sampled_mask(hand, n_hole, draws_left, work.stub.shape[0], ranking, kickers, tables,
                            policy.keys, policy.below, policy.samples, seed, work)  # fmt: skip
    if policy.code == SPLIT:
        _sorted_positions(hand, n_hole, work.order)
        return ((1 << n_hole) - 1) & ~_split_keeps(hand, n_hole, work.order, kickers, tables)
    return discard_mask(hand, n_hole, ranking, kickers, tables, work.order)


@njit(cache=True)
def seat_draws(hand, n_hole, mask, work, thrown, received) -> int:
    """The seat throws the cards of ``mask`` and is dealt as many from the stub: its kept cards move
    up, in order, and the cards drawn follow. ``thrown`` and ``received`` get the cards, in hole
    order and in deal order (-1 after); returns how many."""
    stub, pile, at = work.stub, work.pile, work.at
    count, kept = 0, 0
    for j in range(n_hole):
        thrown[j] = -1
        received[j] = -1
    for j in range(n_hole):
        if (mask >> j) & 1:
            thrown[count] = hand[j]
            count += 1
        else:
            hand[kept] = hand[j]
            kept += 1
    for i in range(count):
        hand[kept + i] = _next_card(stub, pile, at)
        received[i] = hand[kept + i]
    for j in range(count):  # the seat's own discards join the pile after its draw
        pile[at[2]] = thrown[j]
        at[2] += 1
    return count


@njit(cache=True)
def draw_round(
    hands, n_hole, burns, policy, rules, work, hand_seed, street, draws_left, drawn, thrown, received
):
    """One draw round: burn ``burns`` (while the stub has cards), then each seat in turn throws what
    the policy says and is dealt as many. ``drawn[s]``: cards drawn; ``thrown[s]`` and ``received[s]``
    the cards, in hole order and in deal order (-1 after); ``draws_left``: draw rounds after this one."""
    burn_stub(work, burns)
    for s in range(hands.shape[0]):
        seed = decision_seed_of(hand_seed, street, s)
        mask = choose_discards(hands[s], n_hole, policy, rules.ranking, rules.kickers, rules.tables, work,
                               seed, draws_left)  # fmt: skip
        drawn[s] = seat_draws(hands[s], n_hole, mask, work, thrown[s], received[s])
