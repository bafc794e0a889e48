"""Ace-to-five low hands, eight or better (RULINGS, "Ultimate Hi-Lo"): every 5-card set counted
against exact combinatorics, and 7-card and Omaha hands against a brute force over every
five cards written here from the rule."""

import itertools
from math import comb

import numpy as np
import pytest

from engine.hands.cards import parse_card_rows
from engine.hands.kernels import all_combinations
from engine.hands.low_hands import NO_LOW, describe_low, evaluate_low


def _low_of_five(cards) -> int:
    """By the rule: five different ranks, all eight or lower, aces low; the mask of ace-to-five ranks."""
    values = {1 if c >> 2 == 12 else (c >> 2) + 2 for c in cards}
    if len(values) < 5 or max(values) > 8:
        return NO_LOW
    return sum(1 << v for v in values)


def _brute_force(hole, board, exactly_two: bool) -> int:
    if exactly_two:
        fives = (
            pair + three
            for pair in itertools.combinations(hole, 2)
            for three in itertools.combinations(board, 3)
        )
    else:
        fives = itertools.combinations([*hole, *board], 5)
    lows = [v for v in map(_low_of_five, fives) if v != NO_LOW]
    return min(lows, default=NO_LOW)


def test_every_five_card_set_by_exact_count():
    sets = all_combinations(52, 5, comb(52, 5))
    values = evaluate_low(sets)
    qualifying = values[values != NO_LOW]
    assert qualifying.size == comb(8, 5) * 4**5  # 56 sets of ranks, any suits (flushes count as lows)
    counts = np.unique(qualifying, return_counts=True)[1]
    assert counts.size == 56 and (counts == 4**5).all()
    assert (
        describe_low(int(qualifying.min())) == "5-4-3-2-A"
        and describe_low(int(qualifying.max())) == "8-7-6-5-4"
    )


@pytest.mark.parametrize(
    ("hole_cards", "board_cards", "exactly_two"), [(2, 5, False), (4, 5, True), (5, 5, True)]
)
def test_random_hands_against_every_five_cards(hole_cards, board_cards, exactly_two):
    rng = np.random.default_rng(hole_cards)
    cards = np.array([rng.permutation(52)[: hole_cards + board_cards] for _ in range(4_000)], dtype=np.int8)
    # a third of the hands from the 32 cards A and 2 to 8 (ids 0..27 and the aces 48..51): many lows
    low_deck = np.array([*range(28), 48, 49, 50, 51])
    cards[::3] = np.array(
        [rng.permutation(low_deck)[: hole_cards + board_cards] for _ in range(len(cards[::3]))]
    )
    hole, board = cards[:, :hole_cards], cards[:, hole_cards:]
    ours = evaluate_low(hole, board, "exactly-2" if exactly_two else "any")
    expected = [_brute_force(h.tolist(), b.tolist(), exactly_two) for h, b in zip(hole, board, strict=True)]
    assert ours.tolist() == expected
    assert (ours != NO_LOW).mean() > 0.1  # lows are dealt: the check bites


@pytest.mark.parametrize(
    ("hole", "board", "low"),
    [
        ("As2dKcKd", "3h4c5sKhQh", "5-4-3-2-A"),
        ("AsAdKcKd", "2h3c4s5h6h", "no low"),  # one ace only: exactly two hole cards of two ranks
        ("As2d3c4d", "5h6c7sKhQh", "7-6-5-2-A"),  # two hole cards, three board cards: not the wheel
        ("8s7d2c2d", "6h5c4sKhQh", "7-6-5-4-2"),  # the best pair of hole cards, not the highest
        ("As2d3c4d", "9h9c7sKhQh", "no low"),  # the board has one qualifying rank
    ],
)
def test_known_omaha_lows(hole, board, low):
    value = int(evaluate_low(parse_card_rows([hole]), parse_card_rows([board]), "exactly-2")[0])
    assert describe_low(value) == low


def test_lows_compare_highest_card_first_and_bad_rows_are_refused():
    better, worse = evaluate_low(parse_card_rows(["8s5d4c3h2s", "8c6d3h2sAc"]))
    assert better < worse  # 8-5-4-3-2 beats 8-6-3-2-A
    assert int(evaluate_low(parse_card_rows(["9s5d4c3h2s"]), qualifier=9)[0]) != NO_LOW
    with pytest.raises(ValueError, match="a card twice"):
        evaluate_low(np.array([[0, 0, 4, 8, 12]], dtype=np.int8))
    with pytest.raises(ValueError, match="qualifier"):
        evaluate_low(parse_card_rows(["8s5d4c3h2s"]), qualifier=4)


def test_pokerkit_finds_the_same_omaha_lows_in_the_same_order():
    """PokerKit's eight-or-better Omaha lows, a peer: the same hands make a low, and lows order alike."""
    from pokerkit import OmahaEightOrBetterLowHand

    from engine.hands.cards import format_cards

    rng = np.random.default_rng(12)
    low_deck = np.array([*range(28), 48, 49, 50, 51, *range(28, 48)])  # the low cards first: lows are common
    cards = np.array(
        [rng.permutation(low_deck[: 32 if i % 2 else 52])[:9] for i in range(1_200)], dtype=np.int8
    )
    ours = evaluate_low(cards[:, :4], cards[:, 4:], "exactly-2")
    peer = []
    for row in cards:
        try:
            peer.append(OmahaEightOrBetterLowHand.from_game(format_cards(row[:4]), format_cards(row[4:])))
        except ValueError:  # PokerKit: no low
            peer.append(None)
    assert [p is not None for p in peer] == (ours != NO_LOW).tolist()
    lows = [i for i, p in enumerate(peer) if p is not None]
    assert len(lows) > 300
    for i, j in zip(lows[::2], lows[1::2], strict=False):
        assert (peer[i] > peer[j]) - (peer[i] < peer[j]) == np.sign(ours[j] - ours[i])  # smaller is better
