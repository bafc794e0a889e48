"""Decks by their ranks and hole-card ranges (issue #55): Royal hold'em's 20 cards and Tahoe's "at most
two hole cards", each checked against a count that does not use the engine, and the compiled core
against the readable reference, hand by hand."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from analytics.exact import seven_card_categories
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import parse_card_rows
from engine.hands.evaluate import HIGH_CATEGORIES, evaluate_high_hole_range, high_category
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.games.description import DescriptionError, parse_description
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_described_game import _holdem_like

ROYAL = GAMES["royal-holdem"]


def _royal_category(cards: tuple[int, ...]) -> str:
    """The best five of seven cards of the 20-card deck, counted from ranks and suits alone: with five
    ranks, five cards of one suit are the royal flush and five different ranks the one straight."""
    ranks = Counter(card // 4 for card in cards)
    if max(Counter(card % 4 for card in cards).values()) == 5:
        return "straight flush"
    counts = sorted(ranks.values(), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3 and counts[1] >= 2:
        return "full house"
    return "straight" if len(ranks) == 5 else "two pair"  # (four ranks or fewer in seven cards: 3-2-2..)


def test_royal_holdem_deck_is_its_ranks_and_its_exact_law_counts_out():
    deck = ROYAL.deck
    assert (deck.size, deck.ranks, deck.card_id("Tc"), deck.card_text(19)) == (20, "TJQKA", 0, "As")
    counts = Counter(_royal_category(cards) for cards in itertools.combinations(range(20), 7))
    assert (
        sum(counts.values()) == 77_520 and counts["straight flush"] == 4 * 105
    )  # the suit's 5 + any 2 of 15
    exact = seven_card_categories("standard-high", "kickers", deck)
    for code, name in enumerate(HIGH_CATEGORIES):
        assert exact[code] == pytest.approx(counts[name] / 77_520, abs=1e-12), name


def test_royal_holdem_simulated_categories_fit_the_exact_law():
    u = random_words(np.random.default_rng(5), 40_000, words_per_hand(ROYAL, 6, {}))
    batch = simulate_chunk(ROYAL, 6, 100, {}, u)
    exact = seven_card_categories("standard-high", "kickers", ROYAL.deck)
    seen = np.bincount((batch.strength[:, 0] >> 20) & 15, minlength=9)[:9]  # seat 0: independent hands
    assert seen.sum() == 40_000
    for code, p in enumerate(exact):  # five standard errors each (nine categories)
        assert abs(seen[code] - 40_000 * p) <= 5 * np.sqrt(40_000 * p * (1 - p)) + 1e-9, HIGH_CATEGORIES[code]
    assert seen[HIGH_CATEGORIES.index("flush")] == 0 and seen[HIGH_CATEGORIES.index("high card")] == 0


def test_a_deck_by_its_ranks_that_no_ranking_ranks_is_one_line():
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(deck={"ranks": "2345"}))
    assert any("ranking standard-high ranks" in p for p in raised.value.problems)
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(deck={"ranks": "TJQKA", "suits": "cd"}))
    assert any("four suits" in p for p in raised.value.problems)


def test_at_most_two_hole_cards_is_tahoes_hand():
    hole, board = parse_card_rows(["AsAhAd", "2h3h4h"]), parse_card_rows(["Ac2c3h7d9s", "5h6h7c8cKh"])
    categories = [HIGH_CATEGORIES[c] for c in high_category(evaluate_high_hole_range(hole, board, (0, 2)))]
    # two of the three aces; the 2-3-4-5-6 of hearts would take all three hole cards: a flush
    assert categories == ["three of a kind", "flush"]
    everything = evaluate_high_hole_range(hole, board, (0, 3))
    assert [HIGH_CATEGORIES[c] for c in high_category(everything)] == ["four of a kind", "straight flush"]


def _best_using_at_most_two(hole: list[int], board: list[int]) -> int:
    """Tahoe's hand by brute force over the 46 choices of five (the reference evaluates five cards)."""
    rows = [list(h) + list(b) for k in range(3) for h in itertools.combinations(hole, k)
            for b in itertools.combinations(board, 5 - k)]  # fmt: skip
    from engine.hands.evaluate import evaluate_high

    return int(evaluate_high(np.array(rows, np.int8)).max())


def test_tahoe_compiled_showdowns_equal_a_brute_force_count():
    tahoe = GAMES["tahoe"]
    u = random_words(np.random.default_rng(9), 300, words_per_hand(tahoe, 4, {}))
    batch = simulate_chunk(tahoe, 4, 100, {}, u)
    for h in range(300):
        board = [int(c) for c in batch.boards[h, 0] if c >= 0]
        for seat in range(4):
            hole = [int(c) for c in batch.hole[h, seat] if c >= 0]
            assert int(batch.strength[h, seat]) == _best_using_at_most_two(hole, board), (h, seat)


@pytest.mark.parametrize("name", ["tahoe", "royal-holdem"])
def test_betting_mode_plays_them_as_the_state_machine_does(name):
    assert_replays_to_the_same_rows(GAMES[name], 4, {}, ("tag", "random", "station"), 11, 100, 500,
                                    structure=Structure.NO_LIMIT)  # fmt: skip


def test_a_deck_of_suits_of_its_own_is_drawn_by_its_letters():
    from dashboards.widgets import cards_html

    spec = parse_description(_holdem_like(deck={"ranks": "TJQKA", "suits": "wxyz"}, players=[2, 6]))
    assert spec.deck.suit_names == ("w", "x", "y", "z") and spec.deck.card_id("Az") == 19
    html = cards_html("AzTw", spec.deck)
    assert "A" in html and "z" in html and "w" in html
