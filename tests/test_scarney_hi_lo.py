"""Scarney Hi-Lo, a house variant of RULINGS.md written as data alone
(engine/variants/scarney-hi-lo.toml): five hole cards, both boards turned one card at a time
with six betting rounds; both modes against the reference, its own exported PHH replayed to
the same rows, statistics per turn, the dashboard page, and the documented example hand."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analytics.db import connect
from analytics.exact import first_discards
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from ingest.histories.phh import iter_hands
from ingest.histories.replay import replay
from scooplab.cli import app
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_discard_streets import assert_discards_agree_with_the_state_machine

NAME = "scarney-hi-lo"
GAME = GAMES[NAME]
TURNS = ("first", "second", "third", "fourth", "fifth")
EXAMPLE = Path(__file__).parent / "fixtures" / "examples" / "scarney-hi-lo.phh"
DOCS = Path(__file__).parents[1] / "docs"
runner = CliRunner()


def test_the_rulings_as_described():
    streets = GAME.streets_under({})
    assert [s.name for s in streets] == ["deal", *TURNS] and all(s.betting for s in streets)  # six rounds
    assert streets[0].hole_cards == 5 and all(s.board_cards == 1 and not s.burns for s in streets[1:])
    assert (GAME.min_players, GAME.max_players) == (2, 8) and GAME.structure == Structure.NO_LIMIT
    assert GAME.board_names == ("top", "bottom") and GAME.discard_board == 1 and GAME.community_boards == (0,)
    assert GAME.low_share and [s.kind.value for s in GAME.shares] == ["best-high", "lowest-points"]
    assert GAME.shares[1].points == GAMES["scarney"].shares[1].points  # Scarney's points
    assert {o.name for o in GAME.options} == {"must_use_hole_card"}
    result = runner.invoke(app, ["variants", "check", GAME.source])
    assert "8 players x 5 hole cards + 10 board cards = 50: fits the 52-card deck" in result.output


@pytest.mark.parametrize(("options", "players"), [({}, 8), ({"must_use_hole_card": True}, 5), ({}, 2)])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(options, players):
    u = random_words(np.random.default_rng(players), 300, words_per_hand(GAME, players, options))
    batch = simulate_chunk(GAME, players, 101, options, u)
    assert batch.hole.shape[2] == 5
    assert_discards_agree_with_the_state_machine(batch)
    fates = batch.extra["discard_street"]
    assert all((fates == turn).any() for turn in range(1, 6))  # every turn forces cards out
    assert (batch.won.sum(axis=1) == 101 * players).all()
    showdown = batch.ending == 0
    halves = batch.extra["won_high"][showdown].sum(axis=1), batch.extra["won_low"][showdown].sum(axis=1)
    assert (halves[0] == (101 * players + 1) // 2).all() and (halves[1] == 101 * players // 2).all()


@pytest.mark.parametrize(
    ("players", "structure", "policies"),
    [(8, Structure.NO_LIMIT, ("tag", "random", "station")), (4, Structure.FIXED_LIMIT, ("random", "station")),
     (2, Structure.POT_LIMIT, ("random", "tag"))],
)  # fmt: skip
def test_betting_mode_replays_its_own_phh_to_the_same_rows(players, structure, policies):
    hands, _ = assert_replays_to_the_same_rows(GAME, players, {}, policies, players, count=150, stake=1_000,
                                                structure=structure)  # fmt: skip
    assert "showdown" in set(hands.column("ending").to_pylist())
    assert set(hands.column("structure").to_pylist()) == {structure.value}


def test_the_documented_example_splits_high_and_low():
    (raw,) = iter_hands([EXAMPLE])
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"] == [205, 190, 205]
    outcomes = replayed.result.outcomes
    assert replayed.state.dead == [False, True, False]  # p2 lost five cards over two turns
    assert (outcomes[2].won_high, outcomes[0].won_low) == (35, 35)
    assert EXAMPLE.read_text() in (DOCS / "phh-extensions.md").read_text()


def test_simulate_export_ingest_stats_and_its_dashboard_page(tmp_path, monkeypatch):
    data = str(tmp_path / "w")
    for extra in ([], ["--mode", "betting", "--policy", "tag", "--policy", "station"]):
        args = ["--hands", "3000", "--players", "6", "--seed", "4", "-w", "1", "--data", data]
        result = runner.invoke(app, ["simulate", "--variant", NAME, *args, *extra])
        assert result.exit_code == 0, result.output
    out = tmp_path / "shl.phhs"
    assert runner.invoke(app, ["export", "--variant", NAME, "--data", data, "--out", str(out)]).exit_code == 0
    result = runner.invoke(app, ["ingest", str(out), "--data", str(tmp_path / "again"), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    seats = (
        "SELECT p.hole_cards, final_hole_cards, discarded_cards, dead, p.won, won_low, net FROM players AS p"
        " JOIN hands AS h USING (hand_id) WHERE h.phh IS NOT NULL ORDER BY ALL"
    )
    simulated, replayed = (connect(Path(where)).sql(seats).fetchall() for where in (data, tmp_path / "again"))
    assert len(simulated) == 6 * 3000 and simulated == replayed  # betting-mode seats: the same rows again
    result = runner.invoke(app, ["stats", "--variant", NAME, "--data", data, "--format", "json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["hands"] == 3000 and tuple(stats["forced_discards"]) == TURNS
    expected, _ = first_discards(5, 1)  # one Bottom Board card on the first turn
    first = stats["forced_discards"]["first"]
    assert first["exact_per_player"] == pytest.approx(expected)
    assert abs(first["per_player"] - expected) < 0.03  # 18,000 seats: about 8 standard errors
    assert "low_points_all" in stats and "high_low_same_player_rate" in stats
    from tests.test_dashboard import game_page

    monkeypatch.setenv("SCOOPLAB_DATA", data)
    page = game_page(NAME)
    assert not page.exception and page.title[0].value == "Scarney Hi-Lo"
