"""The draw games' rankings (RULINGS, "Draw"): deuce-to-seven low and badugi.

The compiled kernels count every hand of the deck by category, against counts made by hand
(combinatorics); they equal the readable references hand by hand; and PokerKit's
``StandardLowHand`` (its deuce-to-seven) and ``BadugiHand`` order every pair of hands alike.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hands.cards import format_cards
from engine.hands.draw_lows import badugi, deuce_to_seven
from engine.hands.evaluate import count_ranking_categories
from engine.hands.kernels import evaluate_rows
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import BADUGI, BADUGI_CATEGORIES, DEUCE_TO_SEVEN, DEUCE_TO_SEVEN_CATEGORIES
from engine.hands.tables import DEUCE_TO_SEVEN_TABLES


def _kernel(code: int, hands: list[list[int]], max_cards: int = 8) -> list[int]:
    width = max(map(len, hands))
    rows = np.full((len(hands), width), -1, np.int8)
    for i, hand in enumerate(hands):
        rows[i, : len(hand)] = hand
    out = np.zeros(len(hands), np.int64)
    evaluate_rows(rows, out, code, False, DEUCE_TO_SEVEN_TABLES, 52, max_cards)
    return out.tolist()


def test_deuce_to_seven_counts_every_five_card_hand() -> None:
    counts = dict(zip(DEUCE_TO_SEVEN_CATEGORIES, count_ranking_categories(DEUCE_TO_SEVEN, 5).tolist(),
                      strict=True))  # fmt: skip
    straights = 9  # six high to ace high: A-2-3-4-5 is no straight (aces high only)
    exact = {
        "straight flush": 4 * straights,
        "four of a kind": 13 * 48,
        "full house": 13 * 4 * 12 * 6,
        "flush": 4 * (comb(13, 5) - straights),
        "straight": straights * (4**5 - 4),
        "three of a kind": 13 * 4 * comb(12, 2) * 16,
        "two pair": comb(13, 2) * 36 * 44,
        "one pair": 13 * 6 * comb(12, 3) * 64,
    }
    names = ["seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
    for top, name in enumerate(names, start=5):  # no pair, no straight, no flush, by its top card
        exact[f"{name} low"] = (comb(top, 4) - 1) * (4**5 - 4)
    assert counts == exact
    assert sum(counts.values()) == comb(52, 5)


def test_badugi_counts_every_four_card_hand() -> None:
    counts = dict(zip(BADUGI_CATEGORIES, count_ranking_categories(BADUGI, 4).tolist(), strict=True))
    assert counts["one card"] == 13 + 4 * comb(13, 4)  # four of a rank, or four of a suit
    names = ["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
    for top, name in enumerate(names, start=3):  # aces low: the ace is rank 0
        assert counts[f"{name} badugi"] == comb(top, 3) * 24  # three lower ranks, four suits in any order
    assert sum(counts.values()) == comb(52, 4)
    # two cards: no three cards of different ranks and suits. Counted apart from the kernel:
    two = sum(1 for hand in _all_hands(4) if badugi(hand) >> 20 == 1)
    assert counts["two cards"] == two


def _all_hands(k: int):
    from itertools import combinations

    return combinations(range(52), k)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_deuce_to_seven_kernel_equals_the_reference(cards: list[int]) -> None:
    assert _kernel(DEUCE_TO_SEVEN, [cards], 7) == [deuce_to_seven(cards)]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True))
def test_badugi_kernel_equals_the_reference(cards: list[int]) -> None:
    assert _kernel(BADUGI, [cards]) == [badugi(cards)]


def test_kernels_equal_references_on_many_hands() -> None:
    rng = np.random.default_rng(38)
    for code, rank, sizes in ((DEUCE_TO_SEVEN, deuce_to_seven, (5, 6, 7)), (BADUGI, badugi, (4, 5, 6))):
        hands = [rng.choice(52, size=sizes[i % 3], replace=False).tolist() for i in range(6000)]
        assert _kernel(code, hands) == [rank(hand) for hand in hands]


@pytest.mark.parametrize("name", ["deuce-to-seven-low", "badugi"])
def test_pokerkit_orders_every_pair_alike(name: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    peer = pokerkit.StandardLowHand if name == "deuce-to-seven-low" else pokerkit.BadugiHand
    ranking = RANKINGS[name]
    size = 5 if name == "deuce-to-seven-low" else 4
    rng = np.random.default_rng(7)
    hands = [rng.choice(52, size=size, replace=False).tolist() for _ in range(1500)]
    ours = _kernel(ranking.code, hands)
    theirs = [peer.from_game("".join(format_cards([c]) for c in hand)) for hand in hands]
    for i in range(0, len(hands), 2):
        j = i + 1
        assert (ours[i] > ours[j]) == (theirs[i] > theirs[j]), (hands[i], hands[j])
        assert (ours[i] == ours[j]) == (theirs[i] == theirs[j]), (hands[i], hands[j])


def test_rankings_name_categories_of_their_strengths() -> None:
    low, bad = RANKINGS["deuce-to-seven-low"], RANKINGS["badugi"]
    from engine.hands.cards import card_list

    assert low.category_name(deuce_to_seven(card_list("As2d3c4h5s"))) == "ace low"  # no wheel
    assert low.category_name(deuce_to_seven(card_list("2s3s4s5s7s"))) == "flush"  # counts against it
    assert low.category_name(deuce_to_seven(card_list("7c5d4h3s2cKd8h"))) == "seven low"  # best five
    assert bad.category_name(badugi(card_list("Kc2d2h2s"))) == "two cards"
    assert bad.min_cards == 4 and low.min_cards == 5
    strengths = low.evaluate(np.array([[5 * 4, 3 * 4 + 1, 2 * 4 + 2, 4 + 3, 0]]), np.full((1, 0), -1), "any",
                             "kickers")  # fmt: skip
    assert low.category_name(int(strengths[0])) == "seven low"
