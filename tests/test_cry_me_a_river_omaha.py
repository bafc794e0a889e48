"""Cry Me A River Omaha, a house variant of RULINGS.md written as data alone
(engine/variants/cry-me-a-river-omaha.toml): both hole-card counts, both modes, its own exported
PHH replayed to the same rows, the compiled core against the reference, statistics, the
dashboard page, and the documented example hand."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.games import GAMES
from engine.simulate import random_words, simulate_chunk, words_per_hand
from ingest.phh import iter_hands
from ingest.replay import replay
from scooplab.cli import app
from tests.test_betting_kernel import _assert_replays_to_the_same_rows
from tests.test_described_game import assert_board_shares_agree_with_the_state_machine

NAME = "cry-me-a-river-omaha"
GAME = GAMES[NAME]
EXAMPLE = Path(__file__).parent / "fixtures" / "examples" / "cry-me-a-river-omaha.phh"
runner = CliRunner()


def test_the_rulings_as_described():
    assert GAME.hole_use.value({}) == "exactly-2" and GAME.structure.value == "pot-limit"
    assert GAME.kill is not None and GAME.board_shares and len(GAME.boards) == 3
    assert GAME.streets_under({})[0].hole_cards == 4
    assert GAME.streets_under({"hole_cards": 5})[0].hole_cards == 5
    result = runner.invoke(app, ["variants", "check", GAME.source])
    assert "8 players x 4 hole cards + 15 board cards + 3 burns = 50: fits" in result.output
    assert "with hole_cards = 5: at most 6 players" in result.output  # RULINGS: 2 to 6 with five


@pytest.mark.parametrize(("options", "players"), [({}, 8), ({"hole_cards": 5}, 6), ({"hole_cards": 5}, 2)])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(options, players):
    u = random_words(np.random.default_rng(players), 300, words_per_hand(GAME, players, options))
    batch = simulate_chunk(GAME, players, 101, options, u)
    assert batch.hole.shape[2] == options.get("hole_cards", 4)
    assert_board_shares_agree_with_the_state_machine(batch)
    assert (batch.won.sum(axis=1) == 101 * players).all()


@pytest.mark.parametrize("options", [{}, {"hole_cards": 5}])
def test_betting_mode_replays_its_own_phh_to_the_same_rows(options):
    policies, resolved = ("tag", "random", "station"), GAME.resolve_options(options)
    hands, _ = _assert_replays_to_the_same_rows(GAME, 6, resolved, policies, 5, count=150, stake=1_000,
                                                structure=GAME.structure)  # fmt: skip
    assert "showdown" in set(hands.column("ending").to_pylist())
    assert set(hands.column("structure").to_pylist()) == {"pot-limit"}


def test_the_documented_example_is_decided_by_the_omaha_rule():
    (raw,) = iter_hands([EXAMPLE])
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"] == [109, 82, 109]
    outcomes = replayed.result.outcomes
    assert outcomes[2].board_won == (0, 27, 0)  # p3's two hearts: the middle board's flush
    assert outcomes[0].board_won == (0, 0, 27)  # p1's single heart makes no flush there


def test_simulate_export_ingest_stats_and_its_dashboard_page(tmp_path):
    data = str(tmp_path / "w")
    for extra in ([], ["--mode", "betting", "--policy", "tag", "--policy", "random"]):
        args = ["--hands", "2000", "--players", "6", "--rule", "hole_cards=5", "--seed", "4", "-w", "1"]
        result = runner.invoke(app, ["simulate", "--variant", NAME, *args, "--data", data, *extra])
        assert result.exit_code == 0, result.output
    out = tmp_path / "cmo.phhs"
    assert runner.invoke(app, ["export", "--variant", NAME, "--data", data, "--out", str(out)]).exit_code == 0
    result = runner.invoke(app, ["ingest", str(out), "--data", str(tmp_path / "again"), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    result = runner.invoke(
        app, ["stats", "--variant", "cry-me-a-river-omaha", "--data", data, "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["hands"] == 2000 and "triple_scoop_rate" in stats and "low_points_all" not in stats
    import os

    from tests.test_dashboard import game_page

    os.environ["SCOOPLAB_DATA"] = data
    page = game_page("cry-me-a-river-omaha")
    assert not page.exception and page.title[0].value == "Cry Me A River Omaha"
