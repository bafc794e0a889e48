"""Cross-checks against independent published evaluators (phevaluator, eval7) when installed."""

import numpy as np
import pytest

from engine.hands.cards import STANDARD, format_cards
from engine.hands.evaluate import evaluate_high
from tests.reference import assert_same_order


@pytest.fixture(scope="module")
def seven_card_hands() -> np.ndarray:
    rng = np.random.default_rng(2024)
    return np.argsort(rng.random((20_000, 52)), axis=1)[:, :7].astype(np.int8)


def card_texts(hands: np.ndarray) -> list[list[str]]:
    return [[format_cards([c], STANDARD) for c in row] for row in hands.tolist()]


def test_order_agrees_with_phevaluator(seven_card_hands):
    phevaluator = pytest.importorskip("phevaluator")
    theirs = np.array([phevaluator.evaluate_cards(*cards) for cards in card_texts(seven_card_hands)])
    assert_same_order(evaluate_high(seven_card_hands), -theirs)  # phevaluator: lower is stronger


def test_order_agrees_with_eval7(seven_card_hands):
    eval7 = pytest.importorskip("eval7")
    theirs = np.array(
        [eval7.evaluate([eval7.Card(c) for c in cards]) for cards in card_texts(seven_card_hands)]
    )
    assert_same_order(evaluate_high(seven_card_hands), theirs)
