"""Stud as concepts of the description language (RULINGS.md, "Every game the PHH standard names"):
up cards, a bring-in and its completion, openers by the up cards, small and big bets, a deck that
runs short, razz's ace-to-five low as a ranking; seven-card stud, stud hi-lo and razz as files.

The compiled core plays them all: showdown mode (``tests/test_simulate_agreement.py`` holds it
equal to the state machine hand by hand), betting mode (``tests/test_betting_kernel.py``) and the
compiled replay (``tests/test_fast_replay.py``, and the WSOP hands here); a replayed hand whose
deck runs short or whose up cards were never written goes to the state machine.
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


@pytest.mark.parametrize("name", STUD)
def test_stud_simulates_in_both_modes_and_its_bring_in_in_fixed_limit(name):
    game = GAMES[name]
    assert game.compiled_gaps == () and game.betting_gaps == ()
    assert SimSpec(game=name, hands=10, players=8).check().players == 8
    assert SimSpec(game=name, hands=10, players=8, mode="betting").check().structure == "fixed-limit"
    with pytest.raises(ValueError, match="--structure must be one of fixed-limit"):
        SimSpec(game=name, hands=10, players=2, mode="betting", structure="no-limit").check()


@pytest.mark.parametrize("name", STUD)
def test_the_example_hands_replay_to_their_stacks_in_the_state_machine_and_the_compiled_replay(name):
    from tests.test_fast_replay import assert_both_ways_agree

    (raw,) = iter_hands([EXAMPLES / f"{name}.phh"])
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"]
    assert prepare(raw, hand_id(raw.fields)) is not None
    hidden = "??" in raw.text  # cards nobody saw until the showdown: the state machine's to match
    assert assert_both_ways_agree([raw]) == ((0, 1) if hidden else (1, 0))  # taken: row for row the same


@pytest.mark.skipif(not WSOP.exists(), reason="../shared/data/phh is not here")
def test_the_compiled_replay_takes_the_wsop_stud_hands_whose_up_cards_were_written():
    """Row for row the state machine's; the hands that never wrote a player's up cards (``??``) are
    left to the state machine, which lets the record name the opener."""
    from tests.test_fast_replay import assert_both_ways_agree

    raws = [raw for path in sorted(WSOP.glob("*.phh")) for raw in iter_hands([path])
            if raw.fields and raw.fields.get("variant") in ("F7S", "F7S/8", "FR")]  # fmt: skip
    unwritten = sum("??" in raw.text for raw in raws)
    taken, back = assert_both_ways_agree(raws)
    assert (taken, back) == (len(raws) - unwritten, unwritten) and taken >= 20


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


def to_the_last_street(players: int):
    """Seven-card stud, every player in to the seventh street (bring-in, then calls); the deck left."""
    state = HandState(GAMES["seven-card-stud"], Structure.FIXED_LIMIT, [1_000] * players, antes=[1] * players,
                      bring_in=2, small_bet=5, big_bet=10)  # fmt: skip
    deck = iter(range(52))
    for _street in range(4):
        for seat in range(players):
            state.deal_hole(seat, [next(deck) for _ in range(state.hole_due(seat))])
        while state.phase == "bet":
            seat = state.next_seat
            state.post_bring_in(seat) if state.options_for(seat)["bring_in"] else state.check_or_call(seat)
    return state, deck


def test_with_eight_players_in_to_the_last_card_the_deck_gives_one_community_card():
    state, deck = to_the_last_street(8)
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
    # went to showdown out of hands that saw the second street (stud's fourth: hole cards, no board)
    wtsd = [player["wtsd"] for player in stats["players"]]
    assert sum(w["n"] for w in wtsd) > 0 and all(w["count"] <= w["n"] for w in wtsd)


FACE_UP = Path(__file__).parent / "fixtures" / "variants" / "face-up-holdem.toml"


def test_a_new_game_of_stud_concepts_simulates_replays_aggregates_and_shows_a_page(tmp_path):
    """Face-up Hold'em (a description no built-in game has: an up card and openers by the showing
    hand on a hold'em board): showdown mode agrees with the state machine hand by hand; hands with
    betting, played through the state machine, are written as PHH and ingested to their stacks; it
    aggregates and has a page; betting mode says what the compiled core does not play yet."""
    import json
    import os

    from typer.testing import CliRunner

    from engine.compiled.simulate import random_words, words_per_hand
    from engine.rules.dealer import Deck
    from engine.rules.games import get_game
    from ingest.histories.phh import write_hand
    from ingest.histories.record import hand_fields
    from ingest.storage.warehouse import Warehouse
    from scooplab.cli import app
    from tests.test_dashboard import game_page
    from tests.test_properties import new_state, play_randomly
    from tests.test_simulate_agreement import play_through_state_machine

    game = get_game(str(FACE_UP))
    assert game.compiled_gaps == () and game.betting_gaps == ()
    batch = simulate_chunk(
        game, 4, 100, {}, random_words(np.random.default_rng(3), 200, words_per_hand(game, 4, {}))
    )
    for h in range(len(batch)):
        state, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        assert [len(up) for up in state.up] == [1] * 4  # the second hole card, face up
    runner, data, path = CliRunner(), str(tmp_path / "w"), str(FACE_UP)
    result = runner.invoke(
        app, ["simulate", "--variant", path, "--hands", "2000", "--seed", "4", "--data", data]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, ["simulate", "--variant", path, "--mode", "betting", "--hands", "200", "--data", data]
    )
    assert result.exit_code == 0, result.output  # betting mode plays up cards and their openers too
    # hands with betting: random legal play through the state machine, written as PHH, ingested
    rnd, texts, finishing = random.Random(8), [], []
    for k in range(40):
        state = new_state(game, Structure.NO_LIMIT, [200] * 4, 0, {})
        play_randomly(state, Deck(52, np.random.default_rng(k)), rnd)
        texts.append(f"[{k}]\n{write_hand(hand_fields(state))}\n")
        finishing.append(state.stacks)
    (tmp_path / "fu.phhs").write_text("".join(texts))
    again = str(tmp_path / "again")
    result = runner.invoke(app, ["ingest", str(tmp_path / "fu.phhs"), "--variant", path, "--data", again,
                                 "--format", "json"])  # fmt: skip
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    stored = Warehouse(again).read("players", ["hand_id", "seat", "finishing_stack"]).to_pylist()
    assert sorted(r["finishing_stack"] for r in stored) == sorted(c for stacks in finishing for c in stacks)
    stats = json.loads(
        runner.invoke(app, ["stats", "--variant", path, "--data", data, "--format", "json"]).output
    )
    assert stats["hands"] == 2000 and stats["showdown_rate"]["rate"] == 1.0
    os.environ["SCOOPLAB_DATA"] = data
    page = game_page("face-up-holdem")
    assert not page.exception and page.title[0].value == "Face-up Hold'em"


def test_the_bring_in_may_not_fold_before_anything_is_bet():
    state = new_hand("seven-card-stud")
    for seat, dealt in enumerate(("AsKd4c", "QhQs9d", "7c7d2h")):
        state.deal_hole(seat, cards(dealt))
    with pytest.raises(IllegalAction, match="the bring-in is due"):
        state.fold(2)


def test_seven_players_in_to_the_last_card_are_each_dealt_one_without_its_burn():
    state, _ = to_the_last_street(7)
    assert [state.hole_due(s) for s in range(7)] == [1] * 7 and state.board_due == 0  # 52 - 42 - 3 burns = 7
    assert state.burned == 3


def test_a_fixed_limit_raise_may_stop_at_what_every_opponent_can_match():
    """WSOP razz hand 85: p2 raises to 750,000, all p1 can put in, not to 1,200,000; no-limit keeps
    its minimum raise."""
    for structure, sizes in ((Structure.FIXED_LIMIT, {"small_bet": 2, "big_bet": 4}),
                             (Structure.NO_LIMIT, {"min_bet": 2})):  # fmt: skip
        state = HandState(GAMES["holdem"], structure, [100, 5], blinds=[1, 2], **sizes)
        for seat, dealt in enumerate(("AsKd", "QhQs")):
            state.deal_hole(seat, cards(dealt))
        state.bet_or_raise(1, 4)  # heads-up the button (seat 1, 5 chips) acts first: raises to 4
        if structure is Structure.FIXED_LIMIT:
            state.bet_or_raise(0, 5)  # all seat 1 can match, short of a raise to 6
            assert state.bets == [5, 4]
        else:
            with pytest.raises(IllegalAction, match="below the minimum raise to 6"):
                state.bet_or_raise(0, 5)


@pytest.mark.parametrize(("players", "compiled"), [(6, True), (7, False), (8, False)])
def test_a_hand_whose_deck_runs_short_goes_to_the_state_machine(players, compiled):
    """Six players in to the seventh street: the compiled replay takes the hand. Seven (the burn
    skipped) and eight (one community card): the deck runs short, and the state machine replays it."""
    from ingest.histories.phh import parse_hand_text, write_hand
    from ingest.histories.record import hand_fields
    from tests.test_fast_replay import _deck_ran_short, assert_both_ways_agree

    state, deck = to_the_last_street(players)
    if state.board_due:
        state.deal_board([[next(deck)]])
    for seat in range(players):
        if state.hole_due(seat):
            state.deal_hole(seat, [next(deck)])
    while state.phase == "bet":
        state.check_or_call(state.next_seat)
    state.finish()
    assert _deck_ran_short(state) is not compiled
    raw = parse_hand_text(write_hand(hand_fields(state)), "short.phh", 0)
    assert assert_both_ways_agree([raw]) == ((1, 0) if compiled else (0, 1))


@pytest.mark.parametrize("name", ["razz", "seven-card-stud"])
def test_how_often_the_opener_by_the_up_cards_wins_counts_what_the_hands_did(tmp_path, name):
    """Random legal hands written as PHH and ingested: per street opened by the up cards, the
    hands with an action on it and those whose first actor won chips, counted from the state
    machine's own records."""
    import json

    from typer.testing import CliRunner

    from engine.rules.dealer import Deck
    from ingest.histories.phh import write_hand
    from ingest.histories.record import hand_fields
    from scooplab.cli import app
    from tests.test_properties import new_state, play_randomly

    game, rnd = GAMES[name], random.Random(5)
    expected: dict[str, list[int]] = {}
    texts = []
    for k in range(60):
        state = new_state(game, Structure.FIXED_LIMIT, [rnd.randint(20, 120) for _ in range(4)], 1, {})
        play_randomly(state, Deck(52, np.random.default_rng(k)), rnd)
        won = state.finish().won
        for street in [s.name for s in game.streets[1:]]:
            moves = ("fold", "check", "call", "bet", "raise")
            acted = [a.seat for a in state.actions if a.street == street and a.kind in moves]
            if acted:
                counted = expected.setdefault(street, [0, 0])
                counted[0] += 1
                counted[1] += won[acted[0]] > 0
        texts.append(f"[{k}]\n{write_hand(hand_fields(state))}\n")
    (tmp_path / "h.phhs").write_text("".join(texts))
    data = str(tmp_path / "w")
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(tmp_path / "h.phhs"), "--data", data]).exit_code == 0
    asked = ["stats", "--variant", name, "--data", data, "--format", "json"]
    stats = json.loads(runner.invoke(app, asked).output)
    found = {r["street"]: [r["n"], r["count"]] for r in stats["first_to_act_won_by_street"]}
    assert found == expected and sum(n for n, _ in found.values()) > 60
