"""Simulated rates against exact combinatorics computed here; each within 4 standard errors."""

from math import comb, sqrt

import numpy as np
import pytest

from analytics.exact import first_discards, kill_survivors
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.evaluate import count_categories
from engine.rules.games import GAMES
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
    exact = count_categories("seven-rank", 7, tiebreak) / comb(28, 7)  # every 7-card set, enumerated
    categories = np.bincount(batch.strength[:, 0] >> 20, minlength=9)
    for category in range(9):
        assert_within_4_se(int(categories[category]), HANDS, float(exact[category]), f"category {category}")


def test_cry_me_a_river_one_board_survives():
    exact = kill_survivors(3)[1]
    batch = simulate("cry-me-a-river", 6, 3)
    survivors = batch.extra["survivors"].sum(axis=1)
    assert set(np.unique(survivors).tolist()) <= {1, 2}
    assert_within_4_se(int((survivors == 1).sum()), HANDS, exact, "one board survives")


def test_scarney_flop_discards_and_dead_hands():
    expected, dead = first_discards(6, 3)
    batch = simulate("scarney", 4, 4)
    flop = batch.extra["discard_street"][:, 0, :] == 1  # seat 0, cards forced out by the flop
    per_hand = flop.sum(axis=1)
    se = per_hand.std() / sqrt(HANDS)
    assert abs(per_hand.mean() - expected) <= 4 * se, (per_hand.mean(), expected)
    assert_within_4_se(int((per_hand == 6).sum()), HANDS, dead, "dead on the flop")


def test_scarney_points_after_the_whole_bottom_board():
    from analytics.exact import points_after_board
    from engine.compiled.sim_kernels import T_FULL_BOARD_POINTS
    from engine.rules.games import get_game

    # the points of each rank, as Scarney's description gives its lowest-points share
    points_by_rank = np.array(next(s.points for s in get_game("scarney").shares if s.points))
    exact = points_after_board(tuple(points_by_rank.tolist()))
    assert abs(sum(exact) - 1) < 1e-12
    batch = simulate("scarney", 4, 5)
    bottom_ranks = batch.boards[:, 1, :] >> 2  # the whole Bottom Board, dealt or not
    hole_ranks = batch.hole >> 2
    forced = (hole_ranks[:, :, :, None] == bottom_ranks[:, None, None, :]).any(axis=3)
    points = np.where(forced, 0, points_by_rank[hole_ranks]).sum(axis=2)  # (hands, seats)
    # the kernel's tally counts exactly these, for every seat
    tally = batch.extra["tally"][T_FULL_BOARD_POINTS : T_FULL_BOARD_POINTS + 61]
    assert (tally == np.bincount(points.ravel(), minlength=61)).all()
    # seat 0 alone: independent deals, against the exact law
    seat0 = np.bincount(points[:, 0], minlength=61)
    for value in (0, 10, 20, 25, 30, 35, 40, 50):
        assert_within_4_se(int(seat0[value]), HANDS, exact[value], f"{value} points")
