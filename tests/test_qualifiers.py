"""A qualifier on a best-high share (#55: Archie's pair of nines), and what happens to a pot nobody
qualifies for (``unqualified``): hand-worked showdowns, the threshold against an independent
classification of every kind of five-card hand, the compiled core against the readable reference
hand by hand (showdown mode and betting mode), and the descriptions refused with their reason.

Archie (engine/variants/archie.toml): five-card triple draw, half to the best high hand of a pair of
nines or better, half to the best eight-or-better low; a side nobody qualifies for goes to the other;
nobody qualifying for either, the players at the showdown split the pot (``unqualified = "split"``,
the rule most rooms write) or the best high hand takes it (``"best-high"``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import STANDARD, parse_cards
from engine.hands.rankings import RANKINGS
from engine.rules.games import get_game
from engine.rules.games.base import ShowdownInput
from engine.rules.games.description import DescriptionError, parse_description
from engine.rules.games.showdown import settle
from engine.rules.pots import Pot
from tests.reference import standard_five_keys
from tests.test_described_game import assert_betting_mode_replays_and_settles_as_the_reference
from tests.test_simulate_agreement import play_through_state_machine

ARCHIE = get_game("archie")
TEXT = Path(ARCHIE.source).read_text(encoding="utf-8")


def _archie(**changes: str):
    text = TEXT
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return parse_description(tomllib.loads(text), "archie-test.toml")


CATEGORIES = ["pair", "two pair", "three of a kind", "straight", "flush"]
NINES = 'category = "pair", rank = "9"'
BEST_HIGH = _archie(**{'unqualified = "split"': 'unqualified = "best-high"'})


def _showdown(game, holes: list[str], pot: int) -> tuple:
    hand = ShowdownInput(
        pots=(Pot(pot, tuple(range(len(holes)))),),
        hole_cards=tuple(tuple(parse_cards(h).tolist()) for h in holes),
        boards=((),),
        contenders=frozenset(range(len(holes))),
        options={},
    )
    return settle(game, hand)


def test_a_qualifying_high_and_a_qualifying_low_split_the_pot_odd_chip_high():
    result = _showdown(ARCHIE, ["TcTd2h5s9c", "7c5d4h3s2c", "8c8dKhQsJc"], 101)
    assert result.won == (51, 50, 0)  # tens take the high half; 7-5-4-3-2 the low; eights nothing
    assert [(o.won_high, o.won_low) for o in result.outcomes] == [(51, 0), (0, 50), (0, 0)]


def test_a_side_nobody_qualifies_for_goes_to_the_other():
    assert _showdown(ARCHIE, ["8c8dKhQsJc", "8h6d4h3s2c"], 100).won == (0, 100)  # eights too weak: low scoops
    assert _showdown(ARCHIE, ["9c9dKhQsJc", "9h6d4h3s2d"], 100).won == (100, 0)  # a nine high is no low
    assert _showdown(ARCHIE, ["9c9dKhQsJc", "KcKdQhJs3c"], 100).won == (0, 100)  # the better qualifier


@pytest.mark.parametrize(("game", "won"), [(ARCHIE, (50, 50, 0)), (BEST_HIGH, (100, 0, 0))])
def test_nobody_qualifying_the_rule_divides_the_pot(game, won):
    # eights and king high: no high of nines, no low of eight; a folded seat claims nothing
    hand = ShowdownInput(
        pots=(Pot(100, (0, 1)),),
        hole_cards=tuple(tuple(parse_cards(h).tolist()) for h in ["8c8dKhQsJc", "KdQd9h6s4c", "AcAdAhAs2c"]),
        boards=((),),
        contenders=frozenset({0, 1}),
        options={},
    )
    result = settle(game, hand)
    assert result.won == won
    assert [o.won_high for o in result.outcomes] == list(won)  # high chips, as a seat's chips add up


def test_an_odd_chip_of_a_pot_nobody_qualifies_for_goes_from_the_button():
    assert _showdown(ARCHIE, ["8c8dKhQsJc", "8h8sKdQhJd"], 101).won == (51, 50)


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(52)), st.sampled_from(CATEGORIES), st.sampled_from(list(STANDARD.ranks)))
def test_the_threshold_is_the_category_and_its_deciding_rank(deck, category, rank):
    high = RANKINGS["standard-high"]
    hands = np.array(deck[:50], np.int8).reshape(10, 5)
    least = high.least_strength(category, rank, STANDARD)
    ours = high.evaluate(hands, np.full((10, 0), -1, np.int8), "any", "kickers") >= least
    kinds, keys = standard_five_keys(hands)
    wanted = high.categories.index(category)
    deciding = (keys // 13**4) % 13  # the pair's, the trips', the straight's top card...
    reference = (kinds > wanted) | ((kinds == wanted) & (deciding >= STANDARD.ranks.index(rank)))
    assert ours.tolist() == reference.tolist()


@pytest.mark.parametrize("game", [ARCHIE, BEST_HIGH], ids=["split", "best-high"])
@pytest.mark.parametrize("players", [2, 3])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(game, players):
    u = random_words(np.random.default_rng(players), 300, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 100, {}, u)
    assert (batch.won.sum(axis=1) == players * 100).all()
    least = RANKINGS["standard-high"].least_strength("pair", "9", STANDARD)
    unqualified = 0
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        assert [o.won_low for o in result.outcomes] == batch.extra["won_low"][h].tolist(), h
        assert [o.won_high for o in result.outcomes] == batch.extra["won_high"][h].tolist(), h
        high_low = batch.extra["won_high"][h] + batch.extra["won_low"][h]
        assert result.won == high_low.tolist(), h
        paid = [o for o, won in zip(result.outcomes, result.won, strict=True) if won]
        unqualified += all(o.won_low == 0 and o.high_strength < least for o in paid)
    assert 0 < unqualified < len(batch)  # pots nobody qualified for happen, and pots someone did


def test_betting_mode_replays_and_settles_as_the_reference():
    compiled = assert_betting_mode_replays_and_settles_as_the_reference(ARCHIE, 7, 120)
    assert compiled.won_low.sum() > 0 and compiled.won_high.sum() > 0


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({NINES: 'category = "pairs", rank = "9"'}, "qualifier category 'pairs'"),
        ({NINES: 'category = "pair", rank = "1"'}, "qualifier rank '1' is not a rank"),
        ({f"qualifier = {{ {NINES} }}": "qualifier = 9"}, "the weakest hand that qualifies"),
        ({'ranking = "standard-high"': 'ranking = "deuce-to-seven-low"'}, "needs the standard-high ranking"),
        ({'unqualified = "split"': 'unqualified = "chop"'}, "unqualified 'chop' is not one of"),
    ],
)  # fmt: skip
def test_descriptions_a_qualifier_cannot_play_are_refused(change, problem):
    with pytest.raises(DescriptionError) as raised:
        _archie(**change)
    assert any(problem in p for p in raised.value.problems), raised.value.problems


def test_variants_check_says_the_qualifier_and_the_unqualified_rule(tmp_path):
    from typer.testing import CliRunner

    from scooplab.cli import app

    best_high = tmp_path / "archie-best-high.toml"
    renamed = TEXT.replace('name = "archie"', 'name = "archie-best-high"').replace("AR =", "AB =")
    best_high.write_text(renamed.replace('unqualified = "split"', 'unqualified = "best-high"'))
    said = [CliRunner().invoke(app, ["variants", "check", str(path)]) for path in (ARCHIE.source, best_high)]
    assert all(r.exit_code == 0 for r in said), [r.output for r in said]
    assert "best-high (pair, 9 or better, to qualify); best-low (8 or better)" in said[0].output
    assert "a pot nobody qualifies for: split among the players holding hands" in said[0].output
    assert "a pot nobody qualifies for: to the best high hand" in said[1].output


def test_high_and_low_to_different_players_counts_no_pot_without_high_chips(tmp_path):
    """A low half paid while nobody reached the high qualifier is neither "same" nor "different"."""
    import pyarrow.dataset as ds

    from analytics.stats import game_stats
    from ingest.generation.simulation import SimSpec, simulate

    simulate(SimSpec("archie", 3_000, players=3, seed=5), str(tmp_path))
    fast, slow = game_stats(tmp_path, "archie"), game_stats(tmp_path, "archie", use_summaries=False)
    summary_only = {"draw_improvement", "labels"}  # (counted from the simulated deals alone)
    assert {k: v for k, v in fast.items() if k not in summary_only} == {
        k: v for k, v in slow.items() if k not in summary_only
    }
    hands = ds.dataset(tmp_path / "hands", partitioning="hive").to_table(
        columns=["showdown", "seat_won", "seat_won_low"]).to_pylist()  # fmt: skip
    same = different = alone = 0
    for hand in (h for h in hands if h["showdown"]):
        high = [won - low for won, low in zip(hand["seat_won"], hand["seat_won_low"], strict=True)]
        low = hand["seat_won_low"]
        both = any(h > 0 and x > 0 for h, x in zip(high, low, strict=True))
        same += both
        different += not both and any(h > 0 for h in high) and any(x > 0 for x in low)
        alone += any(x > 0 for x in low) and not any(h > 0 for h in high)
    assert alone > 0  # pots whose high side nobody qualified for happen
    assert fast["high_low_same_player_rate"]["count"] == same
    assert fast["high_low_different_players_rate"]["count"] == different
