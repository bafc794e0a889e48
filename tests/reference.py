"""Independent, slow reference evaluators written from the rules, for the tests.

They share nothing with ``engine``: no bit masks, no tables; they sort and
count, and return comparable integer keys.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

STANDARD_CATEGORY_COUNTS_5 = {  # every 5-card hand, by category (textbook combinatorics)
    0: 1_302_540,
    1: 1_098_240,
    2: 123_552,
    3: 54_912,
    4: 10_200,
    5: 5_108,
    6: 3_744,
    7: 624,
    8: 40,
}
STANDARD_CATEGORY_COUNTS_7 = {  # every 7-card set, by category of its best five
    0: 23_294_460,
    1: 58_627_800,
    2: 31_433_400,
    3: 6_461_620,
    4: 6_180_020,
    5: 4_047_644,
    6: 3_473_184,
    7: 224_848,
    8: 41_584,
}


def standard_five_keys(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Category and comparable key of (N, 5) standard hands, vectorised with numpy.

    Cards are ordered by (how many of their rank, rank), high first; the key is
    the category followed by those ranks in base 13 (a straight by its top card,
    the wheel's top being the five).
    """
    ranks = hands.astype(np.int64) // 4
    suits = hands.astype(np.int64) % 4
    same_rank = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    # sort by (count desc, rank desc): one composite number per card
    composite = same_rank * 16 + ranks
    ordered = np.take_along_axis(ranks, np.argsort(-composite, axis=1, kind="stable"), axis=1)
    pattern = np.sort(same_rank, axis=1)[:, ::-1]
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (pattern == 1).all(axis=1)
    sorted_ranks = np.sort(ranks, axis=1)
    straight = distinct & (sorted_ranks[:, 4] - sorted_ranks[:, 0] == 4)
    wheel = distinct & (sorted_ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight_top = np.where(wheel, 3, sorted_ranks[:, 4])
    straight |= wheel

    category = np.zeros(len(hands), dtype=np.int64)
    category[(pattern[:, 0] == 2) & (pattern[:, 2] == 1)] = 1
    category[(pattern[:, 0] == 2) & (pattern[:, 2] == 2)] = 2
    category[(pattern[:, 0] == 3) & (pattern[:, 3] == 1)] = 3
    category[straight & ~flush] = 4
    category[flush & ~straight] = 5
    category[(pattern[:, 0] == 3) & (pattern[:, 3] == 2)] = 6
    category[pattern[:, 0] == 4] = 7
    category[straight & flush] = 8

    key = np.zeros(len(hands), dtype=np.int64)
    for column in range(5):
        key = key * 13 + ordered[:, column]
    is_straight = np.isin(category, (4, 8))
    key = np.where(is_straight, straight_top * 13**4, key)
    return category, category * 13**5 + key


def assert_same_order(ours: np.ndarray, reference: np.ndarray) -> None:
    """Assert that two keys order the same items identically, ties included."""
    order = np.argsort(ours, kind="stable")
    ours_sorted, ref_sorted = ours[order], reference[order]
    assert (np.diff(ref_sorted) >= 0).all(), "the reference key decreases where ours increases"
    same_ours = np.diff(ours_sorted) == 0
    same_ref = np.diff(ref_sorted) == 0
    assert (same_ours == same_ref).all(), "ties differ between our key and the reference"


SKOEJARTH_RUNS = [set(range(low, low + 5)) for low in range(3)]  # 1-5, 2-6, 3-K (no wrap)


def skoejarth_five(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Category, highest_card key and kickers key of one 5-card Skœjarth hand, by the rules."""
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    count = Counter(ranks)
    shape = sorted(count.values(), reverse=True)
    by_suit = Counter(suits)
    top = max(ranks)
    desc = sorted(ranks, reverse=True)
    is_run = set(ranks) in SKOEJARTH_RUNS
    if count[6] == 4:
        other = next(r for r in ranks if r != 6)
        category, kick = 8, (6, other)
    elif is_run and len(by_suit) == 1:
        category, kick = 7, (top,)
    elif is_run:
        category, kick = 6, (top,)
    elif shape[0] == 4:
        quad = next(r for r, n in count.items() if n == 4)
        category, kick = 5, (quad, next(r for r in ranks if r != quad))
    elif max(by_suit.values()) >= 4:
        suit = by_suit.most_common(1)[0][0]
        suited = sorted((c // 4 for c in cards if c % 4 == suit), reverse=True)
        if len(suited) == 5:
            kick = tuple(suited)  # four highest as the category cards, the fifth last
        else:
            kick = (*suited, next(c // 4 for c in cards if c % 4 != suit))
        category = 4
    elif shape[0] == 3:
        trips = next(r for r, n in count.items() if n == 3)
        category, kick = 3, (trips, *sorted((r for r in ranks if r != trips), reverse=True))
    elif shape[:2] == [2, 2]:
        high, low = sorted((r for r, n in count.items() if n == 2), reverse=True)
        category, kick = 2, (high, low, next(r for r in ranks if count[r] == 1))
    elif shape[0] == 2:
        pair = next(r for r, n in count.items() if n == 2)
        category, kick = 1, (pair, *sorted((r for r in ranks if r != pair), reverse=True))
    else:
        category, kick = 0, tuple(desc)
    return category, (category, top), (category, *kick)


def pack_key(key: tuple[int, ...]) -> int:
    """A tuple of small numbers as one comparable integer (base 16, padded to six digits)."""
    value = 0
    for digit in (*key, *([0] * (6 - len(key)))):
        value = value * 16 + digit
    return value


def skoejarth_reference_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every 5-card Skœjarth hand (lexicographic) with its category and both packed keys."""
    hands = np.array(list(combinations(range(28), 5)), dtype=np.int8)
    categories, highest, kickers = [], [], []
    for hand in hands.tolist():
        category, high_key, kick_key = skoejarth_five(tuple(hand))
        categories.append(category)
        highest.append(pack_key(high_key))
        kickers.append(pack_key(kick_key))
    return hands, np.array(categories), np.array(highest), np.array(kickers)


def colex_index(sorted_cards: np.ndarray) -> np.ndarray:
    """Colexicographic index of each row of increasing card ids (combinatorial number system)."""
    from math import comb

    table = np.array([[comb(n, k) for k in range(8)] for n in range(64)], dtype=np.int64)
    index = np.zeros(len(sorted_cards), dtype=np.int64)
    for position in range(sorted_cards.shape[1]):
        index += table[sorted_cards[:, position].astype(np.int64), position + 1]
    return index
