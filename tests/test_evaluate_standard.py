"""Standard (hold'em and Scarney) evaluators: exhaustive, brute force and cross-checked."""

from itertools import combinations

import numpy as np
import pytest

from engine.hands import evaluate
from engine.hands.cards import NO_CARD, parse_card_rows
from engine.hands.evaluate import (
    HIGH_CATEGORIES,
    count_categories,
    evaluate_high,
    evaluate_high_using_hole,
    high_category,
)
from engine.hands.kernels import all_combinations
from engine.rules.games import get_game
from tests.reference import (
    STANDARD_CATEGORY_COUNTS_5,
    STANDARD_CATEGORY_COUNTS_7,
    assert_same_order,
    standard_five_keys,
)

# the points Scarney's description gives its lowest-points share
SCARNEY_POINTS = next(share.points for share in get_game("scarney").shares if share.points)


def low_points(cards: np.ndarray) -> np.ndarray:
    """``evaluate.low_points`` under Scarney's points."""
    return evaluate.low_points(cards, SCARNEY_POINTS)


@pytest.fixture(scope="module")
def all_five_card_hands() -> np.ndarray:
    return all_combinations(52, 5, 2_598_960)


def test_every_five_card_hand_has_the_known_category_count(all_five_card_hands):
    categories = high_category(evaluate_high(all_five_card_hands))
    counts = np.bincount(categories, minlength=9)
    assert dict(enumerate(counts.tolist())) == STANDARD_CATEGORY_COUNTS_5


def test_every_five_card_hand_orders_like_the_reference(all_five_card_hands):
    ours = evaluate_high(all_five_card_hands)
    ref_category, ref_key = standard_five_keys(all_five_card_hands)
    assert (high_category(ours) == ref_category).all()
    assert_same_order(ours, ref_key)
    assert len(np.unique(ours)) == 7462  # distinct five-card hand values


def test_the_combination_enumerator_is_complete():
    hands = all_combinations(10, 4, 210)
    assert {tuple(row) for row in hands.tolist()} == set(combinations(range(10), 4))


def brute_force_best(rows: np.ndarray) -> np.ndarray:
    """Best of every five-card subset of the real cards of each row."""
    best = np.empty(len(rows), dtype=np.int64)
    for i, row in enumerate(rows):
        real = [int(c) for c in row if c != NO_CARD]
        subsets = np.array(list(combinations(real, 5)), dtype=np.int8)
        best[i] = evaluate_high(subsets).max()
    return best


def random_rows(rng: np.random.Generator, n: int, k: int, padded: bool) -> np.ndarray:
    rows = np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)
    if padded:
        for row in rows:
            n_pad = rng.integers(0, k - 4)  # keep at least five real cards
            row[rng.choice(k, size=n_pad, replace=False)] = NO_CARD
    return rows


@pytest.mark.parametrize("k", range(6, 12))
@pytest.mark.parametrize("padded", [False, True])
def test_best_of_k_equals_brute_force(k, padded):
    rng = np.random.default_rng(1000 + k + 100 * padded)
    rows = random_rows(rng, 1500, k, padded)
    assert (evaluate_high(rows) == brute_force_best(rows)).all()


def test_rare_categories_with_many_cards_equal_brute_force():
    """Eleven-card rows built to hold two flushes, two trips, two quads or three pairs."""
    rows = parse_card_rows(
        [
            "2h5h7h9hJh3s6s8sTsQsAc",  # two five-card flushes
            "AhAdAcKhKdKc2s3s4s6s8d",  # two trips
            "AhAdAcAsKhKdKcKs2s3s4s",  # two quads
            "AhAdKhKdQhQd2c3s4c6s8d",  # three pairs
            "Ah2h3h4h5h6c7c8c9cTcJd",  # steel wheel against a club straight flush
            "As2d3h4c5s",  # the wheel
        ]
    )
    assert (evaluate_high(rows) == brute_force_best(rows)).all()
    assert [HIGH_CATEGORIES[c] for c in high_category(evaluate_high(rows))] == [
        "flush",
        "full house",
        "four of a kind",
        "two pair",
        "straight flush",
        "straight",
    ]


def test_strength_does_not_depend_on_card_order():
    rng = np.random.default_rng(7)
    rows = random_rows(rng, 2000, 9, padded=True)
    shuffled = np.array([rng.permutation(row) for row in rows])
    assert (evaluate_high(rows) == evaluate_high(shuffled)).all()


def test_the_wheel_is_the_lowest_straight():
    wheel, six_high, ace_high = evaluate_high(parse_card_rows(["As2d3h4c5s", "2d3h4c5s6d", "TdJhQcKsAd"]))
    assert high_category(wheel) == high_category(six_high) == 4
    assert wheel < six_high < ace_high
    assert high_category(evaluate_high(parse_card_rows(["Qs Kd Ah 2c 3d"]))[0]) == 0  # no wrap


def test_accepts_every_integer_dtype():
    rows = parse_card_rows(["AhKhQhJhTh2c3d"])
    expected = (8 << 20) | (12 << 16)  # straight flush, ace high
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        assert int(evaluate_high(rows.astype(dtype))[0]) == expected
    with pytest.raises(ValueError, match="card ids must be"):
        evaluate_high(np.array([[2**64 - 1, 0, 4, 8, 12, 21]], dtype=np.uint64))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (np.array([[0, 1, 2, 3]]), "rows hold 4 cards, expected 5 to 11"),
        (
            np.array([[0, 1, 2, 3, NO_CARD, NO_CARD]]),
            r"row 0 \(2c2d2h2s\) is not a valid hand: at least 5 cards",
        ),
        (np.array([[0, 1, 2, 3, 3]]), r"row 0 \(2c2d2h2s2s\) is not a valid hand"),
        (
            np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]]),
            r"row 1 \(\[0, 1, 2, 3, 52\]\) is not a valid hand",
        ),
        (np.array([[0.0, 1, 2, 3, 4]]), "expected an \\(N, k\\) integer array"),
    ],
)
def test_bad_rows_are_named(rows, message):
    with pytest.raises(ValueError, match=message):
        evaluate_high(rows)


@pytest.mark.slow
def test_every_seven_card_set_has_the_known_category_count():
    counts = count_categories("standard-high", 7)
    assert dict(enumerate(counts.tolist())) == STANDARD_CATEGORY_COUNTS_7


def test_enumerated_five_card_counts_agree_with_batch_evaluation():
    counts = count_categories("standard-high", 5)
    assert dict(enumerate(counts.tolist())) == STANDARD_CATEGORY_COUNTS_5


def brute_force_using_hole(hole: list[int], board: list[int]) -> int:
    cards = hole + board
    subsets = [s for s in combinations(cards, 5) if set(s) & set(hole)]
    return int(evaluate_high(np.array(subsets, dtype=np.int8)).max())


def test_must_use_hole_card_equals_brute_force():
    rng = np.random.default_rng(11)
    holes, boards, expected = [], [], []
    for _ in range(1500):
        deal = rng.permutation(52)[:11].tolist()
        n_board = int(rng.integers(0, 6))
        n_hole = int(rng.integers(max(1, 5 - min(n_board, 4)), 7))
        hole, board = deal[:n_hole], deal[6 : 6 + n_board]
        holes.append(list(rng.permutation(hole + [NO_CARD] * (6 - n_hole))))
        boards.append(list(rng.permutation(board + [NO_CARD] * (5 - n_board))))
        expected.append(brute_force_using_hole(hole, board))
    ours = evaluate_high_using_hole(np.array(holes, dtype=np.int8), np.array(boards, dtype=np.int8))
    assert ours.tolist() == expected


def test_must_use_hole_card_never_plays_the_board_alone():
    hole, board = parse_card_rows(["2c3d"], width=6), parse_card_rows(["AhKhQhJhTh"])
    free = evaluate_high(np.hstack([hole, board]))[0]
    forced = evaluate_high_using_hole(hole, board)[0]
    assert HIGH_CATEGORIES[high_category(free)] == "straight flush"
    # no heart in the hole: the best hand with a hole card is A-K-Q-J with the 3
    assert forced == evaluate_high(parse_card_rows(["AhKhQhJh3d"]))[0]
    assert forced < free


def test_must_use_hole_card_with_a_short_board_uses_every_card():
    hole, board = parse_card_rows(["AcAd"]), parse_card_rows(["AhAsKc"])
    assert evaluate_high_using_hole(hole, board)[0] == evaluate_high(parse_card_rows(["AcAdAhAsKc"]))[0]


def test_must_use_hole_card_rejects_a_dead_hand_and_overlaps():
    board = parse_card_rows(["AhKhQhJhTh"])
    with pytest.raises(ValueError, match="at least 1 hole card"):
        evaluate_high_using_hole(np.full((1, 6), NO_CARD, dtype=np.int8), board)
    with pytest.raises(ValueError, match="is not a valid hand"):
        evaluate_high_using_hole(parse_card_rows(["Ah"]), board)


def test_low_points_of_every_card():
    expected = {
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
        "A": 1,
    }
    cards = np.arange(52, dtype=np.int8).reshape(52, 1)
    points = low_points(cards)
    for card, value in zip(range(52), points.tolist(), strict=True):
        assert value == expected["23456789TJQKA"[card // 4]]


def test_low_points_ignore_padding_and_sum_rows():
    rng = np.random.default_rng(3)
    rows = random_rows(rng, 500, 6, padded=True)
    per_card = low_points(np.arange(52, dtype=np.int8).reshape(52, 1))
    expected = [sum(int(per_card[c]) for c in row if c != NO_CARD) for row in rows]
    assert low_points(rows).tolist() == expected
    assert low_points(np.full((2, 6), NO_CARD, dtype=np.int8)).tolist() == [0, 0]
    with pytest.raises(ValueError, match="row 0 holds an id"):
        low_points(np.array([[60]]))


def test_count_categories_rejects_unknown_rankings_and_tiebreaks():
    with pytest.raises(ValueError, match="unknown ranking 'omaha'"):
        count_categories("omaha", 5)
    with pytest.raises(ValueError, match="unknown tiebreak 'kicker'"):
        count_categories("seven-rank", 5, "kicker")
