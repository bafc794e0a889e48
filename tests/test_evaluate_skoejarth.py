"""Skœjarth evaluator: every 5-card hand and every 7-card set against a reference from the rules."""

from itertools import combinations
from math import comb

import numpy as np
import pytest

from engine.hands.cards import parse_card_rows
from engine.hands.evaluate import SEVEN_RANK_CATEGORIES as SKOEJARTH_CATEGORIES
from engine.hands.evaluate import count_categories, evaluate_seven_rank
from engine.hands.evaluate import seven_rank_category as skoejarth_category
from engine.rules.games import get_game
from tests.reference import assert_same_order, colex_index, skoejarth_reference_tables

SKOEJARTH = get_game("skoejarth").deck  # its description's deck

CATEGORY = {name: index for index, name in enumerate(SKOEJARTH_CATEGORIES)}


@pytest.fixture(scope="module")
def reference():
    return skoejarth_reference_tables()


@pytest.fixture(scope="module")
def all_seven_card_sets() -> np.ndarray:
    return np.array(list(combinations(range(28), 7)), dtype=np.int8)


def test_five_card_counts_follow_from_combinatorics():
    """Counts derived by hand from the rules, then checked against enumeration."""
    runs, suits = 3, 4
    four_kings = comb(24, 1)
    perfect = runs * suits
    stairs = runs * 4**5 - perfect
    fourfold = 6 * 24  # four of one non-King rank and any fifth card
    five_suited = suits * comb(7, 5) - perfect
    four_suited = suits * comb(7, 4) * 21 - runs * suits * 5 * 3  # less the Stairs among them
    counts = count_categories("seven-rank", 5)
    assert counts[CATEGORY["Four Kings"]] == four_kings
    assert counts[CATEGORY["Perfect"]] == perfect
    assert counts[CATEGORY["Stairs"]] == stairs
    assert counts[CATEGORY["Fourfold"]] == fourfold
    assert counts[CATEGORY["Disparate"]] == five_suited + four_suited
    assert counts.sum() == comb(28, 5)


@pytest.mark.parametrize("tiebreak", ["highest_card", "kickers"])
def test_every_five_card_hand_matches_the_reference(reference, tiebreak):
    hands, categories, highest, kickers = reference
    ours = evaluate_seven_rank(hands, tiebreak)
    assert (skoejarth_category(ours) == categories).all()
    assert_same_order(ours, highest if tiebreak == "highest_card" else kickers)
    assert (np.bincount(categories, minlength=9) == count_categories("seven-rank", 5, tiebreak)).all()


@pytest.mark.parametrize("tiebreak", ["highest_card", "kickers"])
def test_every_seven_card_set_matches_the_best_reference_subset(reference, all_seven_card_sets, tiebreak):
    hands, categories, highest, kickers = reference
    ref_key = highest if tiebreak == "highest_card" else kickers
    # reference tables are in lexicographic order; index them by colex position
    by_colex = np.empty_like(ref_key)
    by_colex[colex_index(hands)] = ref_key
    category_by_colex = np.empty_like(categories)
    category_by_colex[colex_index(hands)] = categories
    best = np.full(len(all_seven_card_sets), -1, dtype=np.int64)
    best_category = np.zeros(len(all_seven_card_sets), dtype=np.int64)
    for positions in combinations(range(7), 5):
        index = colex_index(all_seven_card_sets[:, positions])
        better = by_colex[index] > best
        best = np.where(better, by_colex[index], best)
        best_category = np.where(better, category_by_colex[index], best_category)
    ours = evaluate_seven_rank(all_seven_card_sets, tiebreak)
    assert (skoejarth_category(ours) == best_category).all()
    assert_same_order(ours, best)
    counts = np.bincount(best_category, minlength=9)
    assert (counts == count_categories("seven-rank", 7, tiebreak)).all()
    assert counts.sum() == 1_184_040


def test_the_ruling_facts_over_every_seven_card_set():
    counts = count_categories("seven-rank", 7)
    assert counts[CATEGORY["Orphan"]] == 0  # seven cards with no pair hold every rank: Stairs
    assert counts[CATEGORY["Stairs"]] > counts[CATEGORY["Fourfold"]]
    assert (counts == count_categories("seven-rank", 7, "kickers")).all()  # ties never move categories


def strengths(hands: list[str], tiebreak: str) -> list[int]:
    return evaluate_seven_rank(parse_card_rows(hands, SKOEJARTH), tiebreak, SKOEJARTH).tolist()


def test_highest_card_lets_the_top_card_beat_a_higher_pair():
    low_pair_king, high_pair = strengths(["2b2cKo3s4b", "6b6c5o3s1b"], "highest_card")
    assert low_pair_king > high_pair
    low_pair_king, high_pair = strengths(["2b2cKo3s4b", "6b6c5o3s1b"], "kickers")
    assert low_pair_king < high_pair


def test_highest_card_splits_on_an_equal_top_card():
    a, b = strengths(["KbKc1o2s3b", "4b4cKo2s1b"], "highest_card")
    assert a == b
    a, b = strengths(["KbKc1o2s3b", "4b4cKo2s1b"], "kickers")
    assert a > b


def test_kickers_compare_the_remaining_cards_high_to_low():
    full_house, trips = strengths(["5b5c5oKbKc", "5s5b5cKo6s"], "kickers")
    assert full_house > trips
    assert len(set(strengths(["5b5c5oKbKc", "5s5b5cKo6s"], "highest_card"))) == 1
    twins_kicker_1, twins_kicker_3 = strengths(["KbKc2o2s1b", "KoKs2b2c3o"], "kickers")
    assert twins_kicker_1 < twins_kicker_3
    assert len(set(strengths(["KbKc2o2s1b", "KoKs2b2c3o"], "highest_card"))) == 1


def test_disparate_kickers_use_the_four_suited_cards_then_the_fifth():
    # five Batons: the four best are the category cards, the best other card is fifth
    five_batons, four_batons = strengths(["1b2b4b6bKb3c3o", "2b4b6bKb5c1o1s"], "kickers")
    assert five_batons < four_batons  # (K 6 4 2 | 3) < (K 6 4 2 | 5)
    assert [SKOEJARTH_CATEGORIES[c] for c in skoejarth_category(np.array([five_batons, four_batons]))] == [
        "Disparate",
        "Disparate",
    ]


def test_stairs_ties_on_the_top_of_the_run_and_never_wrap():
    low, high, top = strengths(["1b2c3o4s5b", "2b3c4o5s6b", "3b4c5o6sKb"], "highest_card")
    assert low < high < top
    wrap = strengths(["4b5c6oKs1b"], "highest_card")[0]  # 4-5-6-K-1 is no run
    assert SKOEJARTH_CATEGORIES[wrap >> 20] == "Orphan"


def test_category_order_of_the_rules():
    hands = [
        "1b2c4o5s6b",  # Orphan
        "1b1c4o5s6b",  # Eyes
        "1b1c4o4s6b",  # Twins
        "1b1c1o4s4b",  # Threefold (a full house counts as Threefold)
        "1b2b4b6b5c",  # Disparate
        "1b1c1o1s5c",  # Fourfold
        "1b2c3o4s5b",  # Stairs
        "1b2b3b4b5b",  # Perfect
        "KbKcKoKs1b",  # Four Kings
    ]
    for tiebreak in ("highest_card", "kickers"):
        values = strengths(hands, tiebreak)
        assert [SKOEJARTH_CATEGORIES[v >> 20] for v in values] == list(SKOEJARTH_CATEGORIES)
        assert values == sorted(values)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="unknown seven-rank tiebreak 'suits'"):
        evaluate_seven_rank(np.zeros((1, 5), dtype=np.int8), "suits")
    with pytest.raises(ValueError, match="rows hold 8 cards, expected 5 to 7"):
        evaluate_seven_rank(np.arange(8).reshape(1, 8))
    with pytest.raises(ValueError, match=r"row 0 \(\[0, 1, 2, 3, 28\]\) is not a valid hand"):
        evaluate_seven_rank(np.array([[0, 1, 2, 3, 28]]))
