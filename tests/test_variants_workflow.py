"""A designer's workflow (issue #55): a copy of a game in one command, and every problem of a
description said at once, with the nearest known key for a misspelt one."""

from __future__ import annotations

import tomllib
from pathlib import Path

from typer.testing import CliRunner

from engine.rules.games import GAMES
from engine.rules.games.description import load_description
from scooplab.cli import app

runner = CliRunner()
HOLDEM = Path(__file__).parents[1] / "engine" / "variants" / "holdem.toml"


def test_variants_new_writes_a_copy_that_checks_at_once(tmp_path):
    new = ["variants", "new", "my-omaha", "--from", "omaha", "--to", str(tmp_path), "--data", str(tmp_path)]
    result = runner.invoke(app, new)
    assert result.exit_code == 0, result.output
    path = tmp_path / "my-omaha.toml"
    data = tomllib.loads(path.read_text())
    assert (data["name"], data["derived_from"]) == ("my-omaha", "omaha")
    taken = {code for game in GAMES.values() for code in game.variant_codes}
    assert set(data["phh_codes"]).isdisjoint(taken) and len(data["phh_codes"]) == 3
    spec = load_description(path)
    assert spec.streets == GAMES["omaha"].streets and spec.shares == GAMES["omaha"].shares
    checked = runner.invoke(app, ["variants", "check", str(path)])
    assert checked.exit_code == 0 and "ok, my-omaha" in checked.output
    again = runner.invoke(app, new)
    assert again.exit_code != 0 and "already exists" in again.output and "Traceback" not in again.output
    assert [p.name for p in tmp_path.iterdir()] == ["my-omaha.toml"]  # no temporary file left


def test_variants_new_from_an_unknown_game_is_one_line(tmp_path):
    result = runner.invoke(app, ["variants", "new", "x", "--from", "no-such-game", "--to", str(tmp_path),
                                 "--data", str(tmp_path)])  # fmt: skip
    assert result.exit_code != 0 and "unknown game 'no-such-game'" in result.output
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


def test_check_says_every_clash_and_problem_at_once(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(HOLDEM.read_text().replace("[[streets]]", "[[streets]]\nhole_card = 1", 1))
    result = runner.invoke(app, ["variants", "check", str(path)])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert any("unknown key 'hole_card' (did you mean 'hole_cards'?" in line for line in lines)
    assert any("the name 'holdem' is taken by the built-in Hold'em" in line for line in lines)
    assert sum("PHH variant code" in line for line in lines) == 3  # NT, PT and FT, beside the name


def test_a_renamed_copy_is_told_of_every_code_it_shares(tmp_path):
    path = tmp_path / "renamed.toml"
    path.write_text(HOLDEM.read_text().replace('name = "holdem"', 'name = "renamed"'))
    result = runner.invoke(app, ["variants", "check", str(path)])
    assert result.exit_code == 2
    assert sorted(line.split("code ")[1][:2] for line in result.output.splitlines()) == ["FT", "NT", "PT"]


def test_a_top_level_key_of_the_betting_table_is_pointed_there(tmp_path):
    path = tmp_path / "bomb.toml"
    path.write_text("everyone_antes = 1\n" + HOLDEM.read_text().replace('"holdem"', '"bomb"'))
    result = runner.invoke(app, ["variants", "check", str(path)])
    assert "did you mean 'ante'? under [betting]" in result.output
