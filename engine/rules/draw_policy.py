"""Which cards a simulated player throws away in a draw: the standard rules a player learns first.

The reference, written to be read; ``engine.compiled.draw_kernel`` makes the same choice in compiled
code, and the tests hold the two equal hand by hand. The choice reads the player's hole cards alone
(never a board, an opponent or the draws to come), in order of card id, so it does not depend on the
order the cards came in. By the game's ranking (RULINGS, "Draw": a documented default per ranking):

- **a low** (deuce-to-seven, ace-to-five): five different ranks, no straight or flush where they
  count, topped by a nine or lower stand pat; otherwise keep one card of each rank of eight or lower
  (aces high in deuce-to-seven, low in ace-to-five), the lowest first, at most all but one, and
  draw the rest;
- **badugi**: a four-card badugi stands pat; otherwise keep the cards of the best partial badugi
  (the first found, subsets in order of card id) of eight or lower, aces low, and draw the rest;
- **a high** (standard, seven-rank): a straight or better of five cards stands pat (standard
  ranking); otherwise keep every card whose rank is held twice or more; with no pair, five cards of
  the standard ranking keep four of one suit (a flush draw), else four ranks that two ranks would
  each make a straight (an open-ended straight draw: the highest such four), else the highest card;
  and draw the rest;
- **a high with a low half** (a best-low share beside the high one: Archie): a straight or better, or
  a made low (the low rules' pat hand, aces low), stands pat; two pair or better, or a pair of nines
  or better, goes high by the high rules; else three or more cards the low rules keep (aces low) go
  low; else the high rules.

>>> from engine.hands.cards import card_list, format_cards
>>> from engine.hands.rankings import RANKINGS
>>> low = RANKINGS["deuce-to-seven-low"]
>>> format_cards(standard_discards(low, card_list("2c3d4h5s6c")))  # a straight: break it
'6c'
>>> format_cards(standard_discards(low, card_list("9c7d4h3s2c")))  # a nine low stands pat
''
>>> format_cards(standard_discards(low, card_list("Ac7d7h3s2c")))  # the pair's second card, the ace
'7hAc'
>>> format_cards(standard_discards(RANKINGS["badugi"], card_list("As2s5dKh")))
'2sKh'
>>> format_cards(standard_discards(RANKINGS["standard-high"], card_list("AcKd7h7s2c")))
'2cKdAc'
>>> high = RANKINGS["standard-high"]
>>> hands = ("AhKh7h3h2c", "9c8d7h6s2c", "Ac2d3h4s9c")  # a flush draw, an open-ended one, neither
>>> [format_cards(standard_discards(high, card_list(hand))) for hand in hands]
['2c', '2c', '2d3h4s9c']
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from engine.hands.cards import Deck
from engine.hands.rankings import Ranking
from engine.hands.strengths import ACE_TO_FIVE, BADUGI, DEUCE_TO_SEVEN, STANDARD_HIGH

PAT_TOP = 7  # deuce-to-seven's nine (deuce 0); ace-to-five's is one higher (ace 0)
KEEP_TOP = 6  # deuce-to-seven's eight
STRAIGHT = 4  # the standard high category a pat hand reaches
SPLIT_HIGH_PAIR = 7  # a high-low draw goes high on a pair of nines (the standard deck's 9) or better
MASK64 = (1 << 64) - 1
WORTH_SAMPLES = 32  # deals ``hand_worth`` averages over (the tag betting policy's score in a draw game)


def low_rank(card: int, aces_low: bool) -> int:
    """A card's rank in low order: deuce 0 ... ace 12, or with aces low ace 0, deuce 1 ... king 12."""
    return ((card >> 2) + 1) % 13 if aces_low else card >> 2


def standard_discards(ranking: Ranking, hole: list[int], deck: Deck | None = None, low_half: bool = False
                      ) -> list[int]:  # fmt: skip
    """The cards the default policy throws away from ``hole`` (card ids of ``deck``, by default the
    ranking's own), lowest id first; ``low_half``: the game has a best-low share beside its high one.

    >>> from engine.hands.cards import card_list, format_cards
    >>> from engine.hands.rankings import RANKINGS
    >>> split = [standard_discards(RANKINGS["standard-high"], card_list(h), low_half=True)
    ...          for h in ("Ac2d3h7sKc", "9c9d3h4s5c", "Ac2d4h4sKc")]
    >>> [format_cards(thrown) for thrown in split]  # a low draw, nines, a low pair: low again
    ['Kc', '3h4s5c', '4sKc']
    """
    cards = sorted(int(card) for card in hole)
    if low_half and ranking.code == STANDARD_HIGH:
        kept = _split_keeps(cards, ranking, deck or ranking.deck)
    elif ranking.code in (DEUCE_TO_SEVEN, ACE_TO_FIVE):
        kept = _low_keeps(cards, aces_low=ranking.code == ACE_TO_FIVE)
    elif ranking.code == BADUGI:
        kept = _badugi_keeps(cards)
    else:
        kept = _high_keeps(cards, ranking, deck or ranking.deck)
    return [card for card in cards if card not in kept]


def _low_keeps(cards: list[int], aces_low: bool) -> list[int]:
    ranks = [low_rank(card, aces_low) for card in cards]
    shift = 1 if aces_low else 0  # the nine and the eight sit one higher with the ace below the deuce
    if len(cards) == 5 and len(set(ranks)) == 5 and max(ranks) <= PAT_TOP + shift:
        straight = max(ranks) - min(ranks) == 4
        flush = len({card & 3 for card in cards}) == 1
        if aces_low or not (straight or flush):
            return cards
    kept: list[int] = []
    kept_ranks: set[int] = set()
    for rank, card in sorted(zip(ranks, cards, strict=True)):  # the lowest first, the lower id of a pair
        if rank <= KEEP_TOP + shift and rank not in kept_ranks and len(kept) < len(cards) - 1:
            kept.append(card)
            kept_ranks.add(rank)
    return kept


def _badugi_keeps(cards: list[int]) -> list[int]:
    from engine.hands.draw_lows import badugi_value

    best, best_cards = -1, []
    for subset in range(1, 1 << len(cards)):
        chosen = [card for i, card in enumerate(cards) if subset >> i & 1]
        strength = badugi_value(chosen)  # (INVALID, below every hand, where ranks or suits repeat)
        if strength > best:
            best, best_cards = strength, chosen
    if len(best_cards) == 4:
        return cards
    return [card for card in best_cards if low_rank(card, aces_low=True) <= KEEP_TOP + 1]


def _split_keeps(cards: list[int], ranking: Ranking, deck: Deck) -> list[int]:
    """A high-low draw: pat on a straight or better or a made low; high on two pair or better or a pair
    of nines or better; low on three or more low cards kept; else high."""
    high, low = _high_keeps(cards, ranking, deck), _low_keeps(cards, aces_low=True)
    if len(high) == len(cards) or len(low) == len(cards):
        return cards
    counts = Counter(card >> 2 for card in cards)
    pairs = [rank for rank, count in counts.items() if count >= 2]
    if len(pairs) >= 2 or any(counts[rank] >= 3 or rank >= SPLIT_HIGH_PAIR for rank in pairs):
        return high
    return low if len(low) >= 3 else high


def _high_keeps(cards: list[int], ranking: Ranking, deck: Deck) -> list[int]:
    five = ranking.code == STANDARD_HIGH and len(cards) == 5
    if five:
        strength = int(ranking.evaluate(np.array([cards]), np.full((1, 0), -1), "any", "kickers", deck)[0])
        if (strength >> 20) & 0xF >= STRAIGHT:
            return cards
    counts = Counter(card >> 2 for card in cards)
    paired = [card for card in cards if counts[card >> 2] >= 2]
    if paired or not five:
        return paired or [max(cards)]
    suited = Counter(card & 3 for card in cards)
    flush_draw = [card for card in cards if suited[card & 3] == 4]
    return flush_draw or _open_ended(cards, len(deck.ranks)) or [max(cards)]


def _open_ended(cards: list[int], n_ranks: int = 13) -> list[int]:
    """Four of five cards of different ranks that two ranks would each make a straight with (the ace
    also below the lowest rank), the highest such four; [] when none.

    >>> from engine.hands.cards import card_list, format_cards
    >>> format_cards(_open_ended(card_list("2c3d4h5s9c"))), _open_ended(card_list("Jc9dQhKsAc"))
    ('2c3d4h5s', [])
    """
    for thrown in sorted(cards):  # the lowest card thrown first: the highest four kept first
        four = [card for card in cards if card != thrown]
        ranks = {card >> 2 for card in four}
        makers = [r for r in range(n_ranks) if r not in ranks and _straight(ranks | {r}, n_ranks)]
        if len(makers) >= 2:
            return four
    return []


def _straight(ranks: set[int], n_ranks: int) -> bool:
    """Five ranks in a run (the ace, the top rank, also below the lowest)."""
    low = sorted(-1 if r == n_ranks - 1 and 3 in ranks and 0 in ranks else r for r in ranks)
    return len(low) == 5 and low[-1] - low[0] == 4


def decision_seed(hand_seed: int, street: int, seat: int) -> int:
    """The random state of one sampled decision (``engine.compiled.draw_kernel.decision_seed_of``)."""
    return (hand_seed ^ ((street * 16 + seat + 1) * 0x9E3779B97F4A7C15)) & MASK64


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _samples(held: list[int], n_cards: int, count: int, seed: int, deck_size: int) -> list[list[int]]:
    """Each sample: the first ``n_cards`` of a fresh shuffle of the cards not held (in id order)."""
    state, samples = seed, []
    for _ in range(count):
        unseen = [card for card in range(deck_size) if card not in held]
        for i in range(n_cards):
            state, r = _splitmix(state)
            j = i + r % (len(unseen) - i)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        samples.append(unseen[:n_cards])
    return samples


def _strength(ranking: Ranking, cards: list[int]) -> int:
    from engine.hands.draw_lows import badugi, deuce_to_seven

    if ranking.code == BADUGI:
        return badugi(cards)
    if ranking.code == DEUCE_TO_SEVEN:
        return deuce_to_seven(cards)
    return int(ranking.evaluate(np.array([cards]), np.full((1, 0), -1), "any", "kickers")[0])


def _played_out(ranking: Ranking, hand: list[int], deal: list[int], taken: int, draws_left: int) -> list[int]:
    """``hand`` after ``draws_left`` standard draws, the cards drawn taken from ``deal[taken:]``."""
    for _ in range(draws_left):
        thrown = set(standard_discards(ranking, hand))
        replaced = []
        for card in hand:
            if card in thrown:
                replaced.append(deal[taken])
                taken += 1
            else:
                replaced.append(card)
        hand = replaced
    return hand


def _worth(scale: tuple, strength: int) -> float:
    """The share of a standard player's final hands a final strength beats (``scale``: strengths
    sorted, and that share for each)."""
    place = int(np.searchsorted(scale[0], strength, side="right")) - 1
    return float(scale[1][place]) if place >= 0 else 0.0


def sampled_discards(ranking: Ranking, hole: list[int], draws_left: int, scale: tuple, samples: int,
                     seed: int, deck_size: int = 52) -> list[int]:  # fmt: skip
    """The sampled policy's discards (the reference of ``engine.compiled.draw_kernel.sampled_mask``):
    every discard (bit masks over the cards in id order, standing pat first) is tried on the same
    ``samples`` deals of the cards not held, the ``draws_left`` later draws played by the standard
    policy; the first whose final hands are worth most on average on ``scale`` (strengths sorted, and
    the share of a standard player's final hands each beats) is kept. Only the later draws one deal of
    the cards not held can cover are played out (all of them, but in a game of very many draws)."""
    cards = sorted(int(card) for card in hole)
    n = len(cards)
    draws_left = min(draws_left, (deck_size - n) // n - 1)  # (what one deal of the unseen cards covers)
    deals = _samples(cards, n * (1 + draws_left), samples, seed, deck_size)
    best, best_mask = -1.0, 0
    for mask in range(1 << n):
        kept = [card for k, card in enumerate(cards) if not mask >> k & 1]
        total = 0.0
        for deal in deals:
            hand = _played_out(ranking, kept + deal[: n - len(kept)], deal, n - len(kept), draws_left)
            total += _worth(scale, _strength(ranking, hand))
        if total > best:
            best, best_mask = total, mask
    return [card for k, card in enumerate(cards) if best_mask >> k & 1]


def hand_worth(ranking: Ranking, hole: list[int], draws_left: int, scale: tuple, samples: int, seed: int,
               deck_size: int = 52) -> float:  # fmt: skip
    """What a hand is worth with ``draws_left`` draws to come, all played by the standard policy: the
    share of a standard player's final hands (``scale``, as ``sampled_discards``) its final hand
    beats, averaged over ``samples`` deals of the cards not held (exact with no draw to come)."""
    cards = sorted(int(card) for card in hole)
    draws_left = min(draws_left, (deck_size - len(cards)) // len(cards))  # (as sampled_discards)
    if draws_left == 0:
        return _worth(scale, _strength(ranking, cards))
    total = 0.0
    for deal in _samples(cards, len(cards) * draws_left, samples, seed, deck_size):
        total += _worth(scale, _strength(ranking, _played_out(ranking, list(cards), deal, 0, draws_left)))
    return total / samples
