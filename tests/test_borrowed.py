"""``borrowed``: the same values read with no reference counting, at any depth of (named) tuples,
non-array members left counted (a string borrowed a thousand times is still there)."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.core import compile_rules
from engine.hands.borrowed import borrowed
from engine.rules.games import GAMES


@njit
def _rules_totals(rules):
    rules = borrowed(rules)
    total = rules.tables[0].sum() + rules.tables[1].sum() + rules.tables[2].sum() + rules.tables[3].sum()
    return total, rules.community.sum(), rules.points.sum(), rules.ranking, rules.low_share


@njit
def _text_length(pair):
    array, text = borrowed(pair)
    return array[0] + len(text)


@njit
def _sliced_rows(grid):
    grid = borrowed(grid)
    total = 0
    for row in range(grid.shape[0]):
        view = grid[row]  # a view of a borrowed array owns nothing either
        total += view.sum()
    return total


def test_a_game_s_rules_read_the_same_borrowed():
    for name in ("holdem", "scarney", "skoejarth"):
        rules = compile_rules(GAMES[name], {})
        tables, community, points, ranking, low_share = _rules_totals(rules)
        assert tables == sum(int(np.asarray(t).sum()) for t in rules.tables[:4])
        assert (community, points) == (rules.community.sum(), rules.points.sum())
        assert (ranking, low_share) == (rules.ranking, rules.low_share)


def test_non_array_members_stay_counted():
    text = "".join(["hand ", "history"])  # a string of its own, not an interned constant
    for _ in range(1_000):
        assert _text_length((np.array([3]), text)) == 3 + len(text)
    assert text == "hand history"


def test_views_of_borrowed_arrays_read_their_rows():
    grid = np.arange(12).reshape(3, 4)
    assert _sliced_rows(grid) == grid.sum()
    assert grid.tolist() == np.arange(12).reshape(3, 4).tolist()  # nothing written or freed
