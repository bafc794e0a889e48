"""Simulated rates against exact combinatorics computed here; each within 4 standard errors."""

from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest

from engine.evaluate import count_categories
from engine.games import GAMES
from engine.simulate import random_words, simulate_chunk, words_per_hand
from tests.reference import STANDARD_CATEGORY_COUNTS_7

HANDS = 300_000


def simulate(name: str, players: int, seed: int, options=None):
    game = GAMES[name]
    rng = np.random.default_rng(seed)
    return simulate_chunk(
        game, players, 100, options or {}, random_words(rng, HANDS, words_per_hand(game, players, {}))
    )


def assert_within_4_se(successes: int, trials: int, exact: float, what: str) -> None:
    if exact == 0:
        assert successes == 0, what
        return
    rate = successes / trials
    se = sqrt(exact * (1 - exact) / trials)
    assert abs(rate - exact) <= 4 * se, f"{what}: {rate:.6f} vs exact {exact:.6f} (se {se:.6f})"


def test_holdem_seven_card_categories():
    batch = simulate("holdem", 2, 1)
    categories = np.bincount(batch.strength[:, 0] >> 20, minlength=9)  # seat 0: a uniform 7-card set
    total = comb(52, 7)
    for category, count in STANDARD_CATEGORY_COUNTS_7.items():
        assert_within_4_se(int(categories[category]), HANDS, count / total, f"category {category}")


@pytest.mark.parametrize("tiebreak", ["highest_card", "kickers"])
def test_skoejarth_seven_card_categories(tiebreak):
    batch = simulate("skoejarth", 3, 2, {"tiebreak": tiebreak})
    exact = count_categories("skoejarth", 7, tiebreak) / comb(28, 7)  # every 7-card set, enumerated
    categories = np.bincount(batch.strength[:, 0] >> 20, minlength=9)
    for category in range(9):
        assert_within_4_se(int(categories[category]), HANDS, float(exact[category]), f"category {category}")


def test_cry_me_a_river_one_board_survives():
    one_survivor = 0
    for cards in combinations(range(52), 3):  # the river cards are a uniform 3-card set
        ranks = sorted(card // 4 for card in cards)
        one_survivor += ranks[0] == ranks[1]  # two or three river cards share the lowest rank
    exact = one_survivor / comb(52, 3)
    batch = simulate("cry-me-a-river", 6, 3)
    survivors = batch.extra["survivors"].sum(axis=1)
    assert set(np.unique(survivors).tolist()) <= {1, 2}
    assert_within_4_se(int((survivors == 1).sum()), HANDS, exact, "one board survives")


def rank_count_vectors(cards: int = 6, ranks: int = 13):
    """Every way a hand of ``cards`` cards spreads over the ranks, with its number of hands."""

    def walk(rank: int, left: int, counts: list[int]):
        if rank == ranks:
            if left == 0:
                ways = 1
                for m in counts:
                    ways *= comb(4, m)
                yield counts, ways
            return
        for m in range(min(4, left) + 1):
            yield from walk(rank + 1, left - m, [*counts, m])

    yield from walk(0, cards, [])


def scarney_flop_exact() -> tuple[float, float]:
    """Expected flop discards of one player, and the chance they lose all six on the flop.

    From that player's view the Bottom Board flop is a uniform 3-card set of the 46
    cards not in their hand; a held rank with ``m`` copies in hand has ``4 - m`` left.
    """
    unseen, flop = 46, 3
    all_sets = comb(unseen, flop)
    expected = dead = 0.0
    hands = 0
    for counts, ways in rank_count_vectors():
        hands += ways
        held = [m for m in counts if m]
        expected += ways * sum(m * (1 - comb(unseen - (4 - m), flop) / all_sets) for m in held)
        if len(held) <= flop:  # every held rank must show: inclusion-exclusion over the ranks
            cover = 0.0
            for size in range(len(held) + 1):
                for subset in combinations(held, size):
                    cover += (-1) ** size * comb(unseen - sum(4 - m for m in subset), flop)
            dead += ways * cover / all_sets
    assert hands == comb(52, 6)
    return expected / hands, dead / hands


def test_scarney_flop_discards_and_dead_hands():
    expected, dead = scarney_flop_exact()
    batch = simulate("scarney", 4, 4)
    flop = batch.extra["discard_street"][:, 0, :] == 1  # seat 0, cards forced out by the flop
    per_hand = flop.sum(axis=1)
    se = per_hand.std() / sqrt(HANDS)
    assert abs(per_hand.mean() - expected) <= 4 * se, (per_hand.mean(), expected)
    assert_within_4_se(int((per_hand == 6).sum()), HANDS, dead, "dead on the flop")
