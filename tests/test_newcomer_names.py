"""What a newcomer met (issue #52, items 8, 12 and 13): names the code uses shown to people, values
accepted that mean nothing, and small things. Each test would have caught one of them."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from analytics.labels import p_text
from analytics.sandbox import QueryError, check_query
from ingest.generation.simulation import SimSpec, simulate
from scooplab.cli import app
from tests.test_dashboard import app as page
from tests.test_workbench import FIVE, five_hole_cards

runner = CliRunner()
PHH = Path(__file__).parent / "fixtures" / "phh"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    """Hold'em heads-up and nine-handed (their winning categories differ by far more than any test
    can tell from chance), and played with betting (players)."""
    root = tmp_path_factory.mktemp("names") / "wh"
    for players in (2, 9):
        simulate(SimSpec("holdem", 50_000, players=players, seed=1), str(root), run_id=f"h{players}")
    simulate(SimSpec("holdem", 300, players=6, seed=3, mode="betting", policies=("tag", "random")), str(root),
             run_id="bet")  # fmt: skip
    return root


# -- 8: names the code uses, shown to people --------------------------------------------------------


def test_stats_brief_opens_with_words_not_keys(warehouse):
    result = runner.invoke(app, ["stats", "-v", "holdem", "--run", "h2", "--brief", "--data", str(warehouse)])
    assert result.exit_code == 0, result.output
    head = " ".join(result.stdout.split("holdem statistics")[0].split())  # (the lines before the table)
    assert not re.search(r"showdown_hands|pot\.\w+|_", head), head
    assert "hands to a showdown" in head and "pots (chips): mean" in head and "10th percentile" in head


def test_a_p_value_too_small_to_hold_is_never_shown_as_zero(warehouse):
    assert p_text(0.0) == "< 0.0001" and p_text(0.5) == "0.5"
    data = str(warehouse)
    compared = json.loads(
        runner.invoke(app, ["compare", "h2", "h9", "--data", data, "--format", "json"]).stdout
    )
    assert any(row["p_adjusted"] == 0.0 for row in compared["rows"])  # (what the screens must not show as 0)
    table = runner.invoke(app, ["compare", "h2", "h9", "--data", data])
    assert table.exit_code == 0 and "< 0.0001" in table.stdout
    assert "p_adjusted" not in table.stdout and "Winning hands: high card" in table.stdout  # labels, not ids
    test = page(warehouse, "screens/compare.py")
    for box, run in zip(test.selectbox[1:3], ("h2", "h9"), strict=True):
        box.set_value(run).run()
    assert not test.exception
    shown = test.dataframe[0].value
    assert "< 0.0001" in set(shown["p adjusted"]) and not {"0", "0.0"} & set(shown["p adjusted"])


def test_the_rank_against_rarity_table_names_its_columns_in_words(warehouse):
    test = page(warehouse, "holdem")
    assert not test.exception
    rarity = next(d.value for d in test.dataframe if "category" in d.value.columns)
    assert {"never the best hand", "more common than"} <= set(rarity.columns)
    assert not [c for c in rarity.columns if "_" in c]


def test_overview_shows_game_titles_sources_in_words_and_no_column_ids(warehouse):
    test = page(warehouse, "screens/overview.py")
    assert not test.exception
    counts, runs = test.dataframe[0].value, test.dataframe[1].value
    assert list(counts.columns) == ["game", "simulated"] and counts["game"].tolist() == ["Hold'em"]
    assert not [c for c in runs.columns if "_" in c] and {"run", "game", "source", "created (UTC)"} <= set(
        runs.columns
    )
    assert set(runs["game"]) == {"Hold'em"} and set(runs["source"]) == {"simulated"}


def test_the_players_table_leaves_an_empty_cell_empty(warehouse):
    test = page(warehouse, "screens/players.py")
    assert not test.exception
    assert test.dataframe[0].proto.placeholder == "—"  # (Streamlit's own: "None")


def test_the_replayer_names_a_game_s_one_board_once(warehouse):
    test = page(warehouse)
    test.query_params["hand"] = "h2:0:3"
    test.switch_page("screens/replayer.py").run()
    assert not test.exception
    text = " ".join(m.value for m in test.markdown)
    assert "Board: <span" in text and "Board Board" not in text


# -- 12: values accepted that mean nothing ------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["players", "--min-hands", "-3"], "--min-hands"),
        (["players", "--limit", "-1"], "--limit"),
        (["players", "--table-size", "1"], "--table-size"),
        (["query", "SELECT 1", "--limit", "-1"], "--limit"),
        (["query", "SELECT 1", "--limit", "0"], "--limit"),
        (["simulate", "-v", "holdem", "--hands", "-5"], "--hands"),
        (["simulate", "-v", "holdem", "--hands", "10", "--players", "1"], "--players"),
        (["simulate", "-v", "holdem", "--hands", "10", "--workers", "-1"], "--workers"),
        (["simulate", "-v", "holdem", "--hands", "10", "--shard-size", "0"], "--shard-size"),
        (["simulate", "-v", "holdem", "--hands", "10", "--big-blind", "-2"], "--big-blind"),
        (["simulate", "-v", "holdem", "--hands", "10", "--seed", "-1"], "--seed"),
        (["stats", "-v", "holdem", "--players", "0"], "--players"),
        (["upgrade", "--workers", "0"], "--workers"),
        (["hands", "--seed", "-1"], "--seed"),
        (["odds", "--hand", "AhKh", "--hand", "random", "--seed", "-1"], "--seed"),
    ],
)
def test_a_number_that_means_nothing_is_refused(tmp_path, command, option):
    data = [] if command[0] == "odds" else ["--data", str(tmp_path)]  # (odds reads no warehouse)
    result = runner.invoke(app, [*command, *data])
    assert result.exit_code == 2, result.output
    said = (
        f"Invalid value for '{option}'",
        f"{option} must be positive",
    )  # Typer's range, or the run's check
    assert any(told in result.output for told in said) and "Traceback" not in result.output
    assert not any(tmp_path.iterdir())  # nothing was done


# -- 13: small things ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sql", ["INSTALL httpfs", "load httpfs", "FORCE INSTALL httpfs"])
def test_installing_or_loading_an_extension_is_refused_by_its_name(tmp_path, sql):
    with pytest.raises(QueryError) as refused:
        check_query(sql)
    message = str(refused.value)
    assert (
        message.startswith(f"{sql.upper().replace('HTTPFS', 'httpfs')} refused") and "extensions" in message
    )
    assert "LOAD statements" not in message
    result = runner.invoke(app, ["query", sql, "--data", str(tmp_path)])
    assert result.exit_code == 2 and f"scooplab: error: {message}" in result.output


def test_a_gzip_archive_named_phh_is_told_to_be_renamed(tmp_path):
    archive = tmp_path / "hands.phh"  # a .tar.gz, renamed
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(next(PHH.glob("*.phh")), arcname="one.phh")
    result = runner.invoke(app, ["ingest", str(archive), "--data", str(tmp_path / "w")])
    assert result.exit_code == 3, result.output
    assert "a gzip archive named .phh (rename it .tar.gz)" in result.output and "UTF-8" not in result.output
    renamed = archive.rename(tmp_path / "hands.tar.gz")
    assert runner.invoke(app, ["ingest", str(renamed), "--data", str(tmp_path / "w")]).exit_code == 0


def test_players_on_an_80_column_terminal_is_still_a_table(warehouse, monkeypatch):
    from scooplab.cli import output

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(output, "console", Console())  # as on a terminal of 80 columns
    assert output.console.width == 80
    result = runner.invoke(app, ["players", "--data", str(warehouse)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "-- row" not in result.stdout and max(map(len, lines)) <= 80
    header = next(line for line in lines if "VPIP" in line)
    assert "player" in header and "hands" in header and "bb/100" in header
    assert len(lines) < 6 * 3 + 10  # a row a player (six, each on a line or two), not a line a cell
    assert "narrow terminal:" in result.stderr and "left out" in result.stderr


def test_the_workbench_shows_the_game_it_saved(tmp_path):
    test = page(tmp_path, "screens/workbench.py", {"from": "scarney"})
    toml = test.text_area[-1]
    toml.set_value(five_hole_cards(tmp_path)).run()
    assert not test.exception and not test.error
    next(b for b in test.button if b.label.startswith("Save")).click().run()
    assert any(f"Saved {FIVE} version 1" in s.value for s in test.success)
    assert next(s for s in test.selectbox if s.label == "Start from").value == FIVE
