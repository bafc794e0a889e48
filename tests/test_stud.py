"""Stud as concepts of the description language (RULINGS.md, "Every game the PHH standard names"):
up cards, a bring-in and its completion, openers by the up cards, small and big bets, a deck that
runs short, razz's ace-to-five low as a ranking; seven-card stud, stud hi-lo and razz as files.

The compiled core does not play these concepts yet: such a game is described, replayed by the
state machine (PHH ingest), and refused by simulation with the reason (``compiled_gaps``).
"""

from __future__ import annotations

import itertools
import random
import tomllib
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compiled.simulate import simulate_chunk
from engine.hands.ace_to_five import category_counts, evaluate_ace_to_five
from engine.hands.cards import parse_cards
from engine.hands.strengths import ACE_TO_FIVE_CATEGORIES, category_of
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.state import HandState, IllegalAction
from ingest.generation.simulation import SimSpec
from ingest.histories.fast_replay import prepare
from ingest.histories.phh import iter_hands
from ingest.histories.replay import replay
from ingest.histories.rows import hand_id

STUD = ("seven-card-stud", "stud-hi-lo", "razz")
EXAMPLES = Path(__file__).parent / "fixtures" / "examples"
WSOP = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "wsop-2023-43-5"


def cards(text: str) -> list[int]:
    return parse_cards(text).tolist()


def new_hand(name: str, n: int = 3, stack: int = 100, **options) -> HandState:
    return HandState(GAMES[name], Structure.FIXED_LIMIT, [stack] * n, antes=[1] * n, bring_in=2, small_bet=5,
                     big_bet=10, options=options)  # fmt: skip


@pytest.mark.parametrize("name", sorted(n for n, g in GAMES.items() if g.compiled_gaps))
def test_a_game_the_compiled_core_cannot_play_is_refused_by_simulation_with_the_reason(name):
    game = GAMES[name]
    with pytest.raises(ValueError, match=f"{game.title} cannot be simulated yet") as raised:
        simulate_chunk(game, 2, 100, {}, None)
    assert all(gap in str(raised.value) for gap in game.compiled_gaps)
    with pytest.raises(ValueError, match="cannot be simulated yet"):
        SimSpec(game=name, hands=10, players=2).check()


@pytest.mark.parametrize("name", STUD)
def test_the_example_hands_replay_through_the_state_machine_to_their_stacks(name):
    (raw,) = iter_hands([EXAMPLES / f"{name}.phh"])
    assert prepare(raw, hand_id(raw.fields)) is None  # not the compiled replay's
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"]


@pytest.mark.skipif(not WSOP.exists(), reason="../shared/data/phh is not here")
def test_every_wsop_stud_hand_replays_to_its_recorded_stacks():
    replayed = Counter()
    for path in sorted(WSOP.glob("*.phh")):
        fields = tomllib.loads(path.read_text())
        if fields["variant"] in ("F7S", "F7S/8", "FR"):
            assert replay(fields).state.stacks == fields["finishing_stacks"], path.name
            replayed[fields["variant"]] += 1
    assert replayed == {"F7S": 13, "F7S/8": 7, "FR": 10}


def test_the_lowest_up_card_brings_in_and_ties_go_by_suit():
    state = new_hand("seven-card-stud")
    for seat, dealt in enumerate(("AsKd4d", "QhQs4c", "7c7d9h")):
        state.deal_hole(seat, cards(dealt))
    assert state.next_seat == 1  # 4c below 4d: clubs are the lowest suit
    assert state.options_for(1)["bring_in"]
    with pytest.raises(IllegalAction, match="the bring-in is due"):
        state.check_or_call(1)
    with pytest.raises(IllegalAction, match="above the maximum bet to 5"):
        state.bet_or_raise(1, 6)  # a completion is to the small bet exactly
    state.post_bring_in(1)
    assert (state.bets[1], state.next_seat) == (2, 2)
    state.bet_or_raise(2, 5)  # completes: a bet, not a raise
    assert state.actions[-1].kind == "bet" and state.raise_count == 1
    state.bet_or_raise(0, 10)  # a raise of a whole small bet over the completion
    assert state.options_for(1)["call"] == 8


def test_razz_brings_in_with_the_highest_up_card_aces_low_and_opens_with_the_lowest_showing_hand():
    state = new_hand("razz")
    for seat, dealt in enumerate(("2c3dKh", "9sTsAs", "4c5dKs")):
        state.deal_hole(seat, cards(dealt))
    assert state.next_seat == 2  # two kings: spades the highest suit; the ace is low
    state.post_bring_in(2)
    state.check_or_call(0)
    state.check_or_call(1)  # the bring-in called round: third street is over
    for seat, dealt in enumerate(("4h", "6d", "Qc")):
        state.deal_hole(seat, cards(dealt))
    assert state.next_seat == 1  # 6-A is the lowest showing hand (K-4, Q-K after it)
    assert state.options_for(1)["min_to"] == 5  # fourth street: the small bet


def to_fourth_street(fourth: tuple[str, str, str], **options) -> HandState:
    """Three players of seven-card stud, the deuce brought in and called, fourth street dealt."""
    state = new_hand("seven-card-stud", **options)
    for seat, dealt in enumerate(("AsKd4c", "QhQs9d", "7c7d2h")):
        state.deal_hole(seat, cards(dealt))
    state.post_bring_in(2)
    for seat in (0, 1):
        state.check_or_call(seat)
    for seat, dealt in enumerate(fourth):
        state.deal_hole(seat, cards(dealt))
    return state


def test_the_best_showing_hand_acts_first_from_fourth_street():
    state = to_fourth_street(("Ah", "9s", "2d"))
    assert state.next_seat == 1  # nines over deuces (a pair each), both over ace-four


def test_an_open_pair_on_fourth_street_allows_the_big_bet_only_with_the_option():
    for option, allowed in ((False, False), (True, True)):
        state = to_fourth_street(("Ah", "9s", "3d"), open_pair_big_bet=option)
        if not allowed:
            with pytest.raises(IllegalAction, match="above the maximum bet to 5"):
                state.bet_or_raise(1, 10)
            continue
        state.bet_or_raise(1, 10)  # the big bet; then raises are big bets too
        assert state.options_for(2)["min_to"] == state.options_for(2)["max_to"] == 20


def test_with_eight_players_in_to_the_last_card_the_deck_gives_one_community_card():
    state = HandState(GAMES["seven-card-stud"], Structure.FIXED_LIMIT, [1_000] * 8, antes=[1] * 8, bring_in=2,
                      small_bet=5, big_bet=10)  # fmt: skip
    deck = iter(range(52))
    for _street in range(4):
        for seat in range(8):
            state.deal_hole(seat, [next(deck) for _ in range(state.hole_due(seat))])
        while state.phase == "bet":
            seat = state.next_seat
            state.post_bring_in(seat) if state.options_for(seat)["bring_in"] else state.check_or_call(seat)
    assert state.street.name == "seventh"
    assert [state.hole_due(s) for s in range(8)] == [0] * 8 and state.board_due == 1  # 52 - 48 - 3 burns
    state.deal_board([[next(deck)]])
    assert state.phase == "bet"


def reference_low(five: tuple[int, ...]) -> tuple:
    """An ace-to-five five-card low by its definition, for sorting (smaller is better): rank-count
    shape first (no pair, one pair, two pair, trips, full house, quads), then the ranks from the
    largest group and highest card down."""
    ranks = [((card >> 2) + 1) % 13 for card in five]  # the ace lowest
    counts = Counter(ranks)
    shape = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    return shape[tuple(sorted(counts.values(), reverse=True))], tuple(ordered)


def test_ace_to_five_category_counts_of_five_cards_are_the_closed_forms():
    counts = category_counts(5)
    no_pair = [comb(top, 4) * 4**5 for top in range(12, 3, -1)]  # king low ... five low
    expected = [13 * 12 * 4, 13 * 12 * 4 * 6, 13 * comb(12, 2) * 4 * 4**2, comb(13, 2) * 11 * 6 * 6 * 4,
                13 * comb(12, 3) * 6 * 4**3, *no_pair]  # fmt: skip
    assert list(counts) == expected and sum(counts) == comb(52, 5)
    assert sum(category_counts(7)) == comb(52, 7)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=8, unique=True))
def test_the_best_low_of_more_cards_is_the_best_of_every_five(dealt):
    best = min(itertools.combinations(dealt, 5), key=reference_low)
    strengths = evaluate_ace_to_five(np.array([dealt, list(best) + [-1] * (len(dealt) - 5)]))
    assert strengths[0] == strengths[1]


def test_ace_to_five_strengths_order_lows_as_razz_does():
    hands = ["As2d3c4h5s", "As2d3c4h6s", "2c3d4h5s6c", "As2d3c4h8s", "8c5d4h3s2c", "8c6d3h2sAc",
             "KcQdJhTs8c", "AcAd2h3s4c", "2c2d3h3s4c", "2c2d2h3s4c", "2c2d2h3s3c", "2c2d2h2s3c"]  # fmt: skip
    strengths = evaluate_ace_to_five(np.array([cards(h) for h in hands]))
    assert list(strengths) == sorted(strengths, reverse=True)  # listed best first
    assert [ACE_TO_FIVE_CATEGORIES[category_of(int(s))] for s in strengths[:2]] == ["five low", "six low"]


def test_bring_in_statistics_count_what_the_hands_did(tmp_path):
    """Random stud hands through the state machine, written as PHH, ingested: the posted and
    completed bring-ins the statistics count are those of the hands."""
    from analytics.stats import game_stats
    from engine.rules.dealer import Deck
    from ingest.histories.phh import write_hand
    from ingest.histories.pipeline import ingest
    from ingest.histories.record import hand_fields
    from ingest.storage.warehouse import Warehouse
    from tests.test_properties import new_state, play_randomly

    rnd, posted, completed, at_once = random.Random(5), 0, 0, 0
    texts = []
    for k in range(60):
        state = new_state(GAMES["razz"], Structure.FIXED_LIMIT, [300] * 4, 1, {})
        play_randomly(state, Deck(52, np.random.default_rng(k)), rnd)
        first = [a.kind for a in state.actions if a.street == "third" and a.seat is not None]
        posted += "bring_in" in first
        completed += "bring_in" in first and "bet" in first
        at_once += "bet" in first and "bring_in" not in first
        texts.append(f"[{k}]\n{write_hand(hand_fields(state))}\n")
    (tmp_path / "razz.phhs").write_text("".join(texts))
    ingest([tmp_path / "razz.phhs"], Warehouse(tmp_path / "wh"), run_id="r")
    stats = game_stats(tmp_path / "wh", "razz")
    assert (stats["bring_in_posted_rate"]["count"], stats["bring_in_posted_rate"]["n"]) == (posted, 60)
    assert stats["bring_in_completed_rate"]["count"] == completed and 0 < completed < posted
    assert stats["completed_at_once_rate"]["count"] == at_once > 0
