"""Simulated rates against exact combinatorics computed here; each within 4 standard errors."""

from math import comb, sqrt

import numpy as np
import pytest

from analytics.exact import cry_one_board_survives, scarney_flop
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
    exact = cry_one_board_survives()
    batch = simulate("cry-me-a-river", 6, 3)
    survivors = batch.extra["survivors"].sum(axis=1)
    assert set(np.unique(survivors).tolist()) <= {1, 2}
    assert_within_4_se(int((survivors == 1).sum()), HANDS, exact, "one board survives")


def test_scarney_flop_discards_and_dead_hands():
    expected, dead = scarney_flop()
    batch = simulate("scarney", 4, 4)
    flop = batch.extra["discard_street"][:, 0, :] == 1  # seat 0, cards forced out by the flop
    per_hand = flop.sum(axis=1)
    se = per_hand.std() / sqrt(HANDS)
    assert abs(per_hand.mean() - expected) <= 4 * se, (per_hand.mean(), expected)
    assert_within_4_se(int((per_hand == 6).sum()), HANDS, dead, "dead on the flop")
