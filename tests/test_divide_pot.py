"""The one-share settlement of the showdown-mode loop pays exactly what ``divide_pot`` pays."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from engine.compiled.core import NO_VALUE, PotWinnings, SeatScratch, compile_rules, divide_pot, one_share_pot
from engine.rules.games import GAMES


@njit(cache=False)
def _both(amount, among, high, rules):
    n = among.shape[0]
    won, paid, winners = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_)
    fast = one_share_pot(amount, among, high[rules[7][0]], won, winners, paid)
    general_won = np.zeros(n, np.int64)
    unused = np.zeros(n, np.int64)
    board_won = np.zeros((n, high.shape[0]), np.int64)
    no_low, boards_alive = np.full(n, NO_VALUE, np.int64), np.ones(high.shape[0], np.bool_)
    into = PotWinnings(general_won, unused, unused, board_won)
    general = divide_pot(amount, among, high, no_low, boards_alive, rules, into,
                         SeatScratch(winners, paid, np.zeros(n, np.int64)))  # fmt: skip
    return fast, won, general, general_won


ONE_SHARE_GAMES = sorted(name for name, game in GAMES.items() if compile_rules(game, {}).one_share)


def test_the_one_share_games_are_the_games_of_one_high_share():
    assert {"holdem", "skoejarth", "short-deck"} <= set(ONE_SHARE_GAMES)
    assert not {"scarney", "cry-me-a-river"} & set(ONE_SHARE_GAMES)


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(ONE_SHARE_GAMES),
    scores=st.lists(st.integers(-1, 3), min_size=2, max_size=9),  # few values: ties are common
    among_bits=st.integers(1, 511),
    amount=st.integers(1, 10_000),
)
def test_one_share_pot_pays_what_divide_pot_pays(game, scores, among_bits, amount):
    n = len(scores)
    among = np.array([(among_bits >> s) & 1 == 1 for s in range(n)])
    if not among.any():
        among[0] = True
    rules = compile_rules(GAMES[game], {})
    high = np.tile(np.array(scores, np.int64), (len(GAMES[game].boards), 1))
    fast, won, general, general_won = _both(amount, among, high, rules)
    assert won.tolist() == general_won.tolist()
    assert fast == general
    assert won.sum() == amount and not won[~among].any()
