"""The Python API (``scooplab.open``) and the warehouse read without scooplab (issue #17)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import scooplab
from analytics.compare import compare_runs
from analytics.db import QueryError
from analytics.stats import game_stats
from ingest.storage.schema import ACTIONS, HANDS, PLAYERS
from scooplab.cli import app

FIXTURES = Path(__file__).parent / "fixtures"
RUNS = {"sd-a": "showdown", "sd-b": "showdown", "bet": "betting"}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    """Two paired showdown-mode runs, a betting-mode run and the replayed fixtures, through the API."""
    data = tmp_path_factory.mktemp("api") / "wh"
    with scooplab.open(data) as lab:
        lab.simulate("holdem", 3_000, players=3, seed=4, run_id="sd-a")
        lab.simulate("holdem", 3_000, players=3, seed=4, run_id="sd-b")
        lab.simulate(
            "holdem", 300, players=3, seed=4, mode="betting", policies=["tag", "station"], run_id="bet"
        )
        report = lab.ingest(FIXTURES / "phh", run_id="replayed")
    assert report["hands"] > 0 and report["rejected"] == 0
    return data


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_sql_is_a_read_only_relation_over_the_views(warehouse):
    with scooplab.open(warehouse) as lab:
        relation = lab.sql("SELECT run_id, count(*) AS hands FROM hands GROUP BY 1 ORDER BY 1")
        counts = dict(relation.fetchall())
        assert counts["sd-a"] == counts["sd-b"] == 3_000 and counts["bet"] == 300
        assert relation.pl().height == relation.arrow().read_all().num_rows == len(counts)
        sources = lab.sql("SELECT DISTINCT sources FROM runs WHERE run_id LIKE 'sd-%'").fetchall()
        assert sources == [([],)]  # a built-in game, named as the command names it: no description file
        for refused in ("CREATE TABLE t AS SELECT 1", "SELECT 1; SELECT 2", "COPY hands TO '/tmp/x.csv'"):
            with pytest.raises(QueryError):
                lab.sql(refused)


def test_frames_read_only_the_game_and_runs_asked_for(warehouse):
    with scooplab.open(warehouse) as lab:
        assert lab.hands("holdem", run="sd-a").select(pl.len()).collect().item() == 3_000
        both = lab.hands(run=["sd-a", "bet"]).group_by("run_id").len().collect()
        assert dict(both.iter_rows()) == {"sd-a": 3_000, "bet": 300}
        seats = lab.players("holdem", run="sd-b").collect()
        assert seats.height == 9_000 and set(seats.columns) >= set(PLAYERS.names)
        actions = lab.actions(run="bet").collect()
        assert actions.height > 300 * 3 and set(actions.columns) >= set(ACTIONS.names)
        everything = lab.sql("SELECT count(*) FROM hands").fetchall()[0][0]
        assert lab.hands().select(pl.len()).collect().item() == everything
        assert lab.frame("runs", run="sd-a").collect()["run_id"].unique().to_list() == ["sd-a"]
        with pytest.raises(ValueError, match="no frame"):
            lab.frame("secrets")


def test_a_frame_reads_no_file_of_another_run(warehouse, tmp_path):
    shutil.copytree(warehouse, tmp_path / "wh")
    for path in (tmp_path / "wh" / "hands" / "variant=holdem" / "run=sd-b").glob("*.parquet"):
        path.write_bytes(b"not parquet")  # reading it would fail
    with scooplab.open(tmp_path / "wh") as lab:
        assert lab.hands("holdem", run="sd-a").select(pl.len()).collect().item() == 3_000
        with pytest.raises(Exception, match=r"(?i)parquet"):
            lab.hands("holdem").collect()
    result = CliRunner().invoke(app, ["export", "--format", "csv", "--out", str(tmp_path / "all.csv"),
                                      "--data", str(tmp_path / "wh")])  # fmt: skip
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "Traceback" not in result.output


def test_results_are_what_the_commands_print_as_json(warehouse):
    with scooplab.open(warehouse) as lab:
        stats = lab.stats("holdem", run="sd-a")
        compared = lab.compare("sd-a", "sd-b")
        odds = lab.odds("holdem", ["AsAh", "KdKc"], {"board": "2c7dTh"})
        with pytest.raises(ValueError, match="no holdem run 'nope'"):
            lab.stats("holdem", run="nope")
        with pytest.raises(ValueError, match="no run 'nope'"):
            lab.compare("sd-a", "nope")
    assert stats == cli_json("stats", "--variant", "holdem", "--run", "sd-a", "--data", str(warehouse))
    assert stats == json.loads(json.dumps(game_stats(str(warehouse), "holdem", ["sd-a"]), default=str))
    assert compared == json.loads(
        json.dumps(compare_runs(str(warehouse), "holdem", "sd-a", "sd-b"), default=str)
    )
    assert compared == cli_json("compare", "sd-a", "sd-b", "--data", str(warehouse))
    assert compared["paired"] and not any(row["significant"] for row in compared["rows"])  # the same deals
    assert odds == cli_json("odds", "--hand", "AsAh", "--hand", "KdKc", "--board", "2c7dTh")


def test_ingest_names_each_rejected_hand(tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nstarting_stacks = [100, 100]\nactions = ['p1 cc']\n")
    with scooplab.open(tmp_path / "wh") as lab:
        report = lab.ingest(bad)
    assert report["rejected"] == 1 and report["rejected_hands"][0].startswith(f"{bad} hand 1: ")


PLAIN_READER = """
import json, sys
import duckdb, polars as pl
root = sys.argv[1]
out = {}
for table in ("hands", "players", "actions"):
    frame = pl.scan_parquet(f"{root}/{table}/**/*.parquet", hive_partitioning=False)
    out[table] = {"columns": frame.collect_schema().names(),
                  "sources": sorted(frame.select("run_id").unique().collect()["run_id"].to_list())}
seats = pl.read_parquet(f"{root}/hands/variant=holdem/run=sd-a/*.parquet", columns=["seat_hole", "seat_won"])
out["seat_hole"] = seats["seat_hole"][0].to_list()
out["chips"] = duckdb.sql(f"SELECT sum(list_sum(seat_won)) FROM read_parquet('{root}/hands/**/*.parquet') "
                          "WHERE run_id = 'sd-a'").fetchall()[0][0]
out["loaded"] = sorted(m for m in ("scooplab", "engine", "ingest", "analytics") if m in sys.modules)
print(json.dumps(out))
"""


def test_plain_polars_and_duckdb_read_the_documented_columns(warehouse):
    """No scooplab import: the stored files alone give every documented column, in standard types."""
    result = subprocess.run([sys.executable, "-c", PLAIN_READER, str(warehouse)], capture_output=True,
                            text=True, check=True, cwd="/")  # fmt: skip
    out = json.loads(result.stdout)
    assert out["loaded"] == []
    for table, schema in (("hands", HANDS), ("players", PLAYERS), ("actions", ACTIONS)):
        assert out[table]["columns"] == schema.names
    assert out["hands"]["sources"] == ["bet", "replayed", "sd-a", "sd-b"]  # replayed, betting, showdown
    assert out["players"]["sources"] == ["bet", "replayed"]  # showdown-mode seats live in the hand rows
    assert len(out["seat_hole"]) == 3 and all(len(cards) == 4 for cards in out["seat_hole"])  # "AhKd"
    assert out["chips"] == 3_000 * 3 * 100  # every stake is won back by someone


PLAIN_DUCKDB = """
import json, sys
import duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(json.dumps({view: con.sql(f"SELECT count(*) FROM {view}").fetchall()[0][0]
                  for view in ("hands", "players", "actions", "runs", "hand_outcomes")}
                 | {"loaded": "scooplab" in sys.modules}))
"""


@pytest.mark.parametrize("where", ["absolute", "beside", "inside"])
def test_a_duckdb_export_opens_in_plain_duckdb(warehouse, tmp_path, where):
    here = tmp_path / "moved"
    relative = where != "absolute"
    if relative:  # the database and the warehouse move together: relative paths still find the files
        shutil.copytree(warehouse, here / "wh")
        source = here / "wh"
        database = here / "lab.duckdb" if where == "beside" else source / "lab.duckdb"
    else:
        database, source = tmp_path / "lab.duckdb", warehouse
    args = ["export", "--format", "duckdb", "--out", str(database), "--data", str(source)]
    result = CliRunner().invoke(app, args + (["--relative"] if relative else []))
    assert result.exit_code == 0, result.output
    if relative:
        shutil.move(here, tmp_path / "elsewhere")
        database = tmp_path / "elsewhere" / database.relative_to(here)
    counts = subprocess.run([sys.executable, "-c", PLAIN_DUCKDB, str(database)], capture_output=True,
                            text=True, check=True, cwd=database.parent)  # fmt: skip
    found = json.loads(counts.stdout)
    with scooplab.open(warehouse) as lab:
        for view in ("hands", "players", "actions", "runs", "hand_outcomes"):
            assert found[view] == lab.sql(f"SELECT count(*) FROM {view}").fetchall()[0][0] > 0
    assert not found["loaded"] and not list(database.parent.glob(".tmp-*"))


def test_parquet_and_csv_exports(warehouse, tmp_path):
    copy = tmp_path / "copy"
    result = CliRunner().invoke(app, ["export", "--format", "parquet", "--run", "sd-a", "--run", "bet",
                                      "--out", str(copy), "--data", str(warehouse)])  # fmt: skip
    assert result.exit_code == 0, result.output
    with scooplab.open(copy) as lab, scooplab.open(warehouse) as whole:
        assert lab.stats("holdem", run="sd-a") == whole.stats("holdem", run="sd-a")
        copied = dict(lab.sql("SELECT run_id, count(*) FROM hands GROUP BY 1").fetchall())
        assert copied == {"sd-a": 3_000, "bet": 300}
        players = whole.sql("SELECT count(*) FROM players WHERE run_id = 'bet'").fetchall()[0][0]
        columns = whole.sql("SELECT * FROM players LIMIT 0").columns
    out = tmp_path / "players.csv"
    result = CliRunner().invoke(app, ["export", "--format", "csv", "--table", "players", "--run", "bet",
                                      "--out", str(out), "--data", str(warehouse)])  # fmt: skip
    assert result.exit_code == 0, result.output
    frame = pl.read_csv(out)
    assert frame.height == players and frame.columns == columns
    refusals = {
        "--table must be one of": ["--format", "csv", "--table", "secrets"],
        "no run nope": ["--format", "parquet", "--run", "sd-a", "--run", "nope"],
        "--run means nothing for --format duckdb": ["--format", "duckdb", "--run", "sd-a"],
        "--relative means nothing for --format csv": ["--format", "csv", "--relative"],
    }
    for message, args in refusals.items():
        refused = CliRunner().invoke(
            app, ["export", *args, "--out", str(tmp_path / "x"), "--data", str(warehouse)]
        )
        assert refused.exit_code == 2 and message in refused.output, refused.output


def test_the_api_loads_nothing_until_asked():
    code = textwrap.dedent("""
        import sys, scooplab
        lab = scooplab.open("/nonexistent")
        print(sorted(m for m in ("duckdb", "polars", "numba", "analytics.db") if m in sys.modules))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_import_finds_the_package_from_the_folder_above_a_clone_named_scooplab(tmp_path):
    """``git clone`` names the clone's folder scooplab: from the folder above it, that folder (no
    ``__init__.py``) must not be taken for an empty namespace package ahead of the installed one (#52)."""
    (tmp_path / "scooplab").mkdir()
    code = "import scooplab; print(callable(scooplab.open))"  # (an empty namespace package: AttributeError)
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "True", result.stderr


def test_a_described_game_is_recorded_by_its_file_however_it_is_named(tmp_path):
    description = Path(__file__).parent / "fixtures" / "variants" / "double-board-holdem.toml"
    with scooplab.open(tmp_path / "wh") as lab:
        by_file = lab.simulate(str(description), 200, players=2, seed=1, run_id="by-file")
        lab.simulate(by_file["variant"], 200, players=2, seed=1, run_id="by-name", workers=2)
        rows = lab.sql("SELECT run_id, sources FROM runs ORDER BY run_id").fetchall()
    assert [run for run, _ in rows] == ["by-file", "by-name"]
    assert all(len(sources) == 1 and sources[0].endswith("double-board-holdem.toml") for _, sources in rows)


def test_the_dashboard_shows_no_hands_for_a_run_filter_that_matches_nothing(warehouse):
    from dashboards import data

    assert data.stats(str(warehouse), "holdem", ("(no run matches)",))["hands"] == 0
