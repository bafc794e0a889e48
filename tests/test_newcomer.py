"""What a newcomer met on a fresh clone (the issue "Everything a newcomer met on a fresh `make
demo`"): each test would have caught one thing seen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scooplab.cli import app

runner = CliRunner()
VARIANTS = Path(__file__).parents[1] / "engine" / "variants"


def _described(tmp_path: Path, name: str, codes: str) -> Path:
    """Single draw, renamed and with other PHH codes."""
    text = (VARIANTS / "deuce-to-seven-single-draw.toml").read_text()
    text = text.replace('name = "deuce-to-seven-single-draw"', f'name = "{name}"', 1)
    text = text.replace('phh_codes = { N2L1D = "no-limit" }', f"phh_codes = {{ {codes} }}")
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("name", "codes", "problem"),
    [
        ("holdem", 'XQ = "no-limit"', "the name 'holdem' is taken by the built-in Hold'em"),
        ("my-draw", 'NT = "no-limit"', "PHH variant code NT is Hold'em's"),
    ],
)
def test_check_refuses_what_every_command_refuses(tmp_path, name, codes, problem):
    path = _described(tmp_path, name, codes)
    checked = runner.invoke(app, ["variants", "check", str(path)])
    assert checked.exit_code == 2 and problem in checked.output, checked.output
    simulated = runner.invoke(app, ["simulate", "--variant", str(path), "--hands", "10", "--data",
                                    str(tmp_path / "w")])  # fmt: skip
    assert simulated.exit_code == 2 and problem in simulated.output, simulated.output


def test_check_accepts_a_built_in_description_by_any_path(monkeypatch):
    monkeypatch.chdir(VARIANTS.parent.parent)
    result = runner.invoke(app, ["variants", "check", "engine/variants/razz.toml"])
    assert result.exit_code == 0 and "ok, razz" in result.output, result.output


@pytest.mark.parametrize(
    "command",
    [
        ["query", "SELECT count(*) FROM hands"],
        ["stats", "--variant", "holdem"],
        ["players"],
        ["compare", "a", "b"],
        ["export", "--variant", "holdem", "--out", "x.phhs"],
    ],
)
def test_a_read_of_a_warehouse_that_is_not_there_says_so(tmp_path, command):
    missing = str(tmp_path / "no" / "such" / "folder")
    result = runner.invoke(app, [*command, "--data", missing])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"scooplab: error: --data {missing}: no warehouse there (`scooplab simulate` or `scooplab ingest` "
        "writes one)"
    ]


def test_a_described_game_is_found_by_name_in_the_warehouse_it_was_simulated_into(tmp_path, monkeypatch):
    from engine.rules.games import GAMES

    path = Path(__file__).parent / "fixtures" / "variants" / "double-board-holdem.toml"
    data = str(tmp_path / "w")
    result = runner.invoke(app, ["simulate", "--variant", str(path), "--hands", "2000", "--seed", "1",
                                 "--workers", "1", "--data", data])  # fmt: skip
    assert result.exit_code == 0, result.output
    monkeypatch.delitem(GAMES, "double-board-holdem")  # as a new process knows it: not at all
    result = runner.invoke(app, ["stats", "--variant", "double-board-holdem", "--data", data,
                                 "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["hands"] == 2000
    assert "every_board_scoop_rate" in stats and "triple_scoop_rate" not in stats  # two boards, not three
    monkeypatch.delitem(GAMES, "double-board-holdem")
    result = runner.invoke(app, ["stats", "--variant", "double-board-holdem", "--data", str(tmp_path)])
    assert result.exit_code == 2 and "unknown game 'double-board-holdem'" in result.output


def test_a_file_that_is_not_a_hand_history_is_refused_and_records_no_run(tmp_path):
    data = tmp_path / "w"
    readme = Path(__file__).parents[1] / "README.md"
    result = runner.invoke(app, ["ingest", str(readme), "--data", str(data)])
    assert result.exit_code == 2
    expected = f"no hand histories (PHH, a poker client's files; .zip or .tar.gz of them) in {readme}"
    assert result.output.strip() == f"scooplab: error: {expected}"
    assert not data.exists()


def test_ingesting_the_same_hands_again_says_so_in_one_line_and_records_no_empty_run(tmp_path):
    data = str(tmp_path / "w")
    source = str(Path(__file__).parent / "fixtures" / "phh")
    first = runner.invoke(app, ["ingest", source, "--data", data, "--format", "json"])
    assert first.exit_code == 0, first.output
    stored = json.loads(first.stdout)["hands"]
    said = f"{source}: every hand ({stored:,}) was already stored; nothing new, no run recorded"
    again = runner.invoke(app, ["ingest", source, "--data", data, "--format", "json"])
    report = json.loads(again.stdout)
    assert again.exit_code == 0 and report["hands"] == 0 and report["duplicates"] == stored > 0
    assert said in again.stderr.splitlines()
    table = runner.invoke(app, ["ingest", source, "--data", data])
    assert table.exit_code == 0 and table.stdout.splitlines() == [said]  # not a "run ...: 0 hands stored" too
    assert "no run recorded" not in table.stderr
    runs = runner.invoke(
        app,
        ["query", "--data", data, "--format", "json", "SELECT DISTINCT run_id FROM runs"],
        catch_exceptions=False,
    )
    assert len(json.loads(runs.output)) == 1, runs.output


def test_every_command_s_game_defaults_to_hold_em_and_help_says_no_false_default():
    import typer.main

    command = typer.main.get_command(app)
    for name, sub in command.commands.items():  # (typer's groups: variants)
        for param in getattr(sub, "params", []):
            if param.name in ("game", "variant") and param.default is not None:
                assert param.default == "holdem", name
    shown = runner.invoke(app, ["simulate", "--help"]).output
    assert "[default: 0]" not in shown and "default: all cores" in shown and "2% of stake" in shown
    assert "<bool>" not in shown and "<int>" in shown  # a flag takes no value: no type beside it


def test_the_licence_is_an_spdx_expression_setuptools_reads_without_a_warning():
    import tomllib

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT" and project["project"]["license-files"] == ["LICENSE"]
    assert "setuptools>=77" in project["build-system"]["requires"]  # (the first to read PEP 639)


def test_a_phh_export_says_which_hands_it_leaves_out(tmp_path):
    data, out = str(tmp_path / "w"), tmp_path / "holdem.phhs"
    for mode, hands in (("showdown", "300"), ("betting", "40")):
        result = runner.invoke(app, ["simulate", "--variant", "holdem", "--mode", mode, "--hands", hands,
                                     "--players", "3", "--workers", "1", "--data", data])  # fmt: skip
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["export", "--variant", "holdem", "--out", str(out), "--data", data])
    assert result.exit_code == 0, result.output
    assert "300 showdown-mode hands left out" in result.output and "40 holdem hands written" in result.output
    assert out.read_text().count("\n[") + 1 == 40
