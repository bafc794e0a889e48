"""Cry Me A River Omaha, a house variant of RULINGS.md written as data alone
(engine/variants/cry-me-a-river-omaha.toml): both hole-card counts and both showdowns (a share
per board, Ultimate Hi-Lo), both modes, its own exported PHH replayed to the same rows, the
compiled core against the reference, statistics, the dashboard page, and the documented
example hands."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.games import GAMES
from ingest.histories.phh import iter_hands
from ingest.histories.replay import replay
from scooplab.cli import app
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_described_game import assert_board_shares_agree_with_the_state_machine
from tests.test_simulate_agreement import play_through_state_machine

NAME = "cry-me-a-river-omaha"
GAME = GAMES[NAME]
EXAMPLE = Path(__file__).parent / "fixtures" / "examples" / "cry-me-a-river-omaha.phh"
ULTIMATE_EXAMPLE = EXAMPLE.with_name("cry-me-a-river-omaha-ultimate.phh")
ULTIMATE = {"showdown": "ultimate_hi_lo"}
DOCS = Path(__file__).parents[1] / "docs"
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


def test_ultimate_hi_lo_is_an_option_of_the_same_game():
    assert GAME.resolve_options({})["showdown"] == "per_board"
    ultimate = GAME.under(ULTIMATE)
    assert (
        ultimate.low_half and ultimate.low_hands and not ultimate.board_shares and ultimate.kill is not None
    )
    assert [s.kind.value for s in ultimate.shares] == ["best-high", "best-low"]
    assert all(s.across_surviving_boards for s in ultimate.shares) and ultimate.shares[1].qualifier == 8


@pytest.mark.parametrize(
    ("options", "players"), [(ULTIMATE, 8), (ULTIMATE | {"hole_cards": 5}, 6), (ULTIMATE, 2)]
)
def test_ultimate_hi_lo_agrees_with_the_state_machine_hand_by_hand(options, players):
    u = random_words(np.random.default_rng(players), 300, words_per_hand(GAME, players, options))
    batch = simulate_chunk(GAME, players, 101, options, u)
    per_board = simulate_chunk(GAME, players, 101, {k: v for k, v in options.items() if k != "showdown"}, u)
    assert (batch.cards == per_board.cards).all()  # the same words deal the same cards: paired runs
    assert (batch.extra["survivors"] == per_board.extra["survivors"]).all()  # the same kill
    assert (batch.strength == per_board.strength).all()  # each seat's best hand on a surviving board
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        assert [o.won_low for o in result.outcomes] == batch.extra["won_low"][h].tolist(), h
        assert [o.low_hand for o in result.outcomes] == batch.extra["low"][h].tolist(), h
    assert (batch.won.sum(axis=1) == 101 * players).all()
    no_low = batch.extra["won_low"].sum(axis=1) == 0
    assert no_low.any() and (~no_low).any()
    assert (batch.extra["won_high"][no_low] == batch.won[no_low]).all()  # no low: the high half is the pot


@pytest.mark.parametrize("options", [{}, {"hole_cards": 5}, ULTIMATE])
def test_betting_mode_replays_its_own_phh_to_the_same_rows(options):
    policies, resolved = ("tag", "random", "station"), GAME.resolve_options(options)
    hands, _ = assert_replays_to_the_same_rows(GAME, 6, resolved, policies, 5, count=150, stake=1_000,
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


def test_the_documented_ultimate_example_splits_high_and_low():
    (raw,) = iter_hands([ULTIMATE_EXAMPLE])
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"] == [109, 109, 82]
    outcomes = replayed.result.outcomes
    assert (outcomes[0].won_high, outcomes[1].won_low) == (27, 27)  # p1's full house; p2's 7-6-3-2-A
    assert ULTIMATE_EXAMPLE.read_text() in (DOCS / "phh-extensions.md").read_text()


def test_ultimate_hi_lo_simulates_exports_ingests_and_shows_its_statistics(tmp_path):
    data = str(tmp_path / "w")
    for extra in ([], ["--mode", "betting", "--policy", "tag", "--policy", "random"]):
        args = [
            "--hands",
            "2000",
            "--players",
            "6",
            "--rule",
            "showdown=ultimate_hi_lo",
            "--seed",
            "4",
            "-w",
            "1",
        ]
        result = runner.invoke(app, ["simulate", "--variant", NAME, *args, "--data", data, *extra])
        assert result.exit_code == 0, result.output
    out = tmp_path / "cmo.phhs"
    assert runner.invoke(app, ["export", "--variant", NAME, "--data", data, "--out", str(out)]).exit_code == 0
    again = str(tmp_path / "again")
    result = runner.invoke(app, ["ingest", str(out), "--data", again, "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    for mode in ("showdown", "betting"):
        result = runner.invoke(
            app, ["stats", "--variant", NAME, "--data", data, "--mode", mode, "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        stats = json.loads(result.output)
        assert stats["population"]["changed"] == "showdown=ultimate_hi_lo"
        assert "low_paid_rate" in stats and "triple_scoop_rate" not in stats
        assert 0.2 < stats["low_paid_rate"]["rate"] < 0.95, stats["low_paid_rate"]
    import os

    from tests.test_dashboard import game_page

    os.environ["SCOOPLAB_DATA"] = data
    page = game_page(NAME)
    assert not page.exception
    assert any("A low half paid" in m.label for m in page.metric)


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
