"""The standard drawing policy of a high draw game (issue #55): pairs are kept, four of a suit and
open-ended straights are drawn to, the compiled policy chooses as the reference does, and a four-card
flush draw comes in at the rate combinatorics gives (9 of the 47 cards a player has not seen)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.compiled.draw_kernel import discard_mask
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import STANDARD, Deck
from engine.hands.rankings import RANKINGS
from engine.rules.draw_policy import standard_discards
from engine.rules.games.description import parse_description

HIGH = RANKINGS["standard-high"]
FIVE_CARD_DRAW = {
    "name": "five-card-draw-test", "title": "Five-card draw", "deck": "standard", "ranking": "standard-high",
    "players": [2, 6], "phh_codes": {"NFCDT": "no-limit"}, "boards": [{"name": "board"}],
    "streets": [{"name": "deal", "hole_cards": 5}, {"name": "draw", "draw": True}],
    "shares": [{"wins": "best-high"}],
}  # fmt: skip


def test_the_compiled_policy_throws_what_the_reference_throws():
    rng = np.random.default_rng(3)
    tables, order = HIGH.tables(STANDARD), np.zeros(8, np.int64)
    flush_draws = straight_draws = 0
    for _ in range(20_000):
        hand = rng.choice(52, 5, replace=False).astype(np.int8)
        mask = discard_mask(hand, 5, HIGH.code, True, tables, order)
        compiled = sorted(int(hand[i]) for i in range(5) if mask >> i & 1)
        reference = standard_discards(HIGH, [int(c) for c in hand])
        assert compiled == reference, hand
        thrown_suits = len(reference) == 1 and len({c & 3 for c in hand if c not in reference}) == 1
        flush_draws += thrown_suits
        straight_draws += len(reference) == 1 and not thrown_suits
    assert flush_draws > 500 and straight_draws > 100  # both kinds of draw were met


@pytest.mark.parametrize("ranks", ["789TJQKA", "6789TJQKA"])
def test_on_a_stripped_deck_both_policies_count_its_own_straights(ranks):
    deck = Deck(f"{ranks}-test", ranks, "cdhs", ())
    rng = np.random.default_rng(4)
    tables, order = HIGH.tables(deck), np.zeros(8, np.int64)
    for _ in range(5_000):
        hand = rng.choice(deck.size, 5, replace=False).astype(np.int8)
        mask = discard_mask(hand, 5, HIGH.code, True, tables, order)
        compiled = sorted(int(hand[i]) for i in range(5) if mask >> i & 1)
        assert compiled == standard_discards(HIGH, [int(c) for c in hand], deck), hand
    ace_low = [
        deck.card_id(c) for c in ("Ac", ranks[0] + "d", ranks[1] + "h", ranks[2] + "s", ranks[3] + "c")
    ]
    assert standard_discards(HIGH, ace_low, deck) == []  # A-7-8-9-T (A-6-7-8-9) is a straight: pat


def test_a_four_flush_comes_in_nine_times_in_forty_seven():
    game = parse_description(FIVE_CARD_DRAW)
    u = random_words(np.random.default_rng(8), 60_000, words_per_hand(game, 2, {}))
    batch = simulate_chunk(game, 2, 100, {}, u)
    dealt, final = batch.hole[:, 0], batch.final_hole[:, 0]
    draws = flushes = 0
    for h in range(dealt.shape[0]):
        cards = [int(c) for c in dealt[h]]
        ranks, suits = {c >> 2 for c in cards}, np.bincount([c & 3 for c in cards], minlength=4)
        if len(ranks) == 5 and suits.max() == 4 and not _straight(ranks):
            draws += 1
            flushes += np.bincount([int(c) & 3 for c in final[h]], minlength=4).max() == 5
    p = 9 / 47  # the player's own 47 unseen cards, whatever the other seat holds or throws
    assert draws > 1_500
    assert abs(flushes / draws - p) <= 5 * np.sqrt(p * (1 - p) / draws)


def _straight(ranks: set[int]) -> bool:
    low = sorted(-1 if r == 12 and {0, 1, 2, 3} <= ranks else r for r in ranks)
    return low[-1] - low[0] == 4


def test_a_high_low_draw_goes_high_low_or_pat_as_the_reference_says():
    """A high game with a low half (Archie): the compiled split policy throws what the reference
    throws, hand for hand, and every branch is met: pat, high on a made pair, low on three low cards."""
    from engine.compiled.draw_kernel import SPLIT, DrawPolicy, choose_discards, draw_scratch

    rng = np.random.default_rng(5)
    tables = HIGH.tables(STANDARD)
    work = draw_scratch(52, 1)
    policy = DrawPolicy(SPLIT, 0, np.zeros(1, np.int64), np.zeros(1, np.float64))
    kinds = {"pat": 0, "high": 0, "low": 0}
    for _ in range(20_000):
        hand = rng.choice(52, 5, replace=False).astype(np.int8)
        mask = choose_discards(hand, 5, policy, HIGH.code, True, tables, work, np.uint64(0), 1)
        compiled = sorted(int(hand[i]) for i in range(5) if mask >> i & 1)
        reference = standard_discards(HIGH, [int(c) for c in hand], low_half=True)
        assert compiled == reference, hand
        kept = [int(c) for c in hand if int(c) not in reference]
        if not reference:
            kinds["pat"] += 1
        elif any(((c >> 2) + 1) % 13 > 7 for c in kept):  # a card above the eight kept: high
            kinds["high"] += 1
        else:
            kinds["low"] += 1
    assert all(count > 200 for count in kinds.values()), kinds
