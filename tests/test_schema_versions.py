"""Schema versions (issue #17): every file records its version; a warehouse of today's version,
kept as a fixture, reads as it was written; newer files are refused by name; older-layout runs
are upgraded (docs/warehouse.md, "Schema versions")."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import scooplab
from analytics.db import QueryError, connect, run_query
from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.pipeline import ingest
from ingest.storage.schema import SCHEMA_VERSION, VERSION_KEY, NewerSchemaError
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

FIXTURE = Path(__file__).parent / "fixtures" / "warehouse-v2"


def test_every_written_file_records_the_schema_version(tmp_path):
    simulate(SimSpec("holdem", 200, players=2, seed=1), str(tmp_path), run_id="sd")
    simulate(SimSpec("holdem", 20, players=2, seed=1, mode="betting"), str(tmp_path), run_id="bet")
    bad = tmp_path / "in" / "bad.phh"
    bad.parent.mkdir()
    bad.write_text("variant = 'NT'\n")
    ingest(
        [Path(__file__).parent / "fixtures" / "phh" / "dwan-ivey-2009.phh", bad], Warehouse(tmp_path / "wh")
    )
    files = list(tmp_path.rglob("*.parquet"))
    tables = {f.relative_to(tmp_path).parts[-4] for f in files}
    assert tables == {"hands", "players", "actions", "runs", "summaries", "rejects"}
    assert {pq.read_schema(f).metadata[VERSION_KEY] for f in files} == {str(SCHEMA_VERSION).encode()}


def test_the_version_2_fixture_reads_as_it_was_written():
    """Written by `simulate` (showdown 300 hands, betting 20) and `ingest` (dwan-ivey-2009.phh) of v2."""
    versions = {pq.read_schema(f).metadata.get(VERSION_KEY) for f in FIXTURE.rglob("*.parquet")}
    assert versions == {b"2"}
    with scooplab.open(FIXTURE) as lab:
        counts = dict(lab.sql("SELECT run_id, count(*) FROM hands GROUP BY 1").fetchall())
        assert counts == {"sd": 300, "bet": 20, "replayed": 1}
        seats = lab.players("holdem", run="sd").collect()
        assert seats.height == 900 and seats["won"].sum() == 300 * 3 * 100  # every stake won back
        assert all(len(cards) == 4 for cards in seats["hole_cards"])  # "AhKd", as in PHH
        assert lab.stats("holdem", run="sd")["hands"] == 300
        replayed = lab.hands(run="replayed").collect().row(0, named=True)
        fields = tomllib.loads(replayed["phh"])
        players = lab.players(run="replayed").sort("seat").collect()
        assert players["starting_stack"].to_list() == fields["starting_stacks"]
        assert players["net"].sum() == 0 and players["player"].to_list() == fields["players"]
        typed = lab.actions(run="replayed").filter(~pl.col("automatic")).collect()  # not the blinds posted
        assert typed.height == len(fields["actions"])
        betting = lab.sql("SELECT sum(net) FROM players WHERE run_id = 'bet'").fetchall()[0][0]
        assert betting == 0  # chips conserved in betting mode


def _stamp(path: Path, version: bytes) -> None:
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({VERSION_KEY: version}), path)


def test_a_file_of_a_newer_version_is_refused_by_name(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "wh")
    (manifest,) = (tmp_path / "wh" / "runs" / "variant=holdem" / "run=sd").glob("*.parquet")
    _stamp(manifest, str(SCHEMA_VERSION + 1).encode())
    expected = f"{manifest} was written by a newer scooplab (schema version {SCHEMA_VERSION + 1}"
    with pytest.raises(NewerSchemaError, match="written by a newer scooplab"):
        Warehouse(tmp_path / "wh").read("runs")
    with pytest.raises(NewerSchemaError, match="upgrade scooplab to read it"):
        connect(tmp_path / "wh")
    with pytest.raises(QueryError) as refused:
        run_query(tmp_path / "wh", "SELECT count(*) FROM hands")
    assert expected in str(refused.value)
    result = CliRunner().invoke(app, ["stats", "--variant", "holdem", "--data", str(tmp_path / "wh")])
    assert result.exit_code == 2 and "written by a newer scooplab" in result.output
    assert "Traceback" not in result.output


def _make_older_layout(warehouse: Warehouse, run: str) -> None:
    """Rewrite a showdown-mode run as an earlier scooplab stored it: no seat layout, card codes."""
    (manifest,) = [f for f in warehouse.files("runs") if f"/run={run}/" in f]
    runs = pq.read_table(manifest)
    details = json.loads(runs["details"][0].as_py())
    details.pop("seat_layout")
    runs = runs.set_column(runs.schema.get_field_index("details"), "details", pa.array([json.dumps(details)]))
    pq.write_table(runs.replace_schema_metadata(), manifest)  # and no version: written before versions
    for path in [f for f in warehouse.files("hands") if f"/run={run}/" in f]:
        pq.write_table(pa.table({"hand_id": ["old:0:0"], "seat_hole": ["0c<4"]}), path)


def test_upgrade_simulates_older_layout_runs_again_under_their_ids(tmp_path):
    spec = SimSpec("holdem", 600, players=3, seed=5, shard_size=200)
    simulate(spec, str(tmp_path / "reference"), run_id="old")
    simulate(spec, str(tmp_path / "wh"), run_id="old")
    simulate(SimSpec("holdem", 100, players=2, seed=9), str(tmp_path / "wh"), run_id="new")
    warehouse = Warehouse(tmp_path / "wh")
    _make_older_layout(warehouse, "old")
    assert connect(tmp_path / "wh").sql("SELECT count(*) FROM hands").fetchall() == [(100,)]  # left out
    result = CliRunner().invoke(app, ["upgrade", "--data", str(tmp_path / "wh")])
    assert result.exit_code == 0, result.output
    assert "1 run(s) simulated again" in result.output and "old" in result.output
    query = "SELECT * FROM hands WHERE run_id = 'old' ORDER BY hand_id"
    upgraded = connect(tmp_path / "wh").sql(query).arrow().read_all()
    reference = connect(tmp_path / "reference").sql(query).arrow().read_all()
    assert upgraded.num_rows == 600 and upgraded.equals(reference)  # the same deals, today's layout
    assert not (tmp_path / "wh" / ".upgrade").exists()
    again = CliRunner().invoke(app, ["upgrade", "--data", str(tmp_path / "wh")])
    assert again.exit_code == 0 and "nothing to upgrade" in again.output


def test_an_interrupted_upgrade_is_finished_by_the_next(tmp_path, monkeypatch):
    from ingest.generation import upgrade

    simulate(SimSpec("holdem", 300, players=2, seed=3, shard_size=100), str(tmp_path), run_id="old")
    warehouse = Warehouse(tmp_path)
    _make_older_layout(warehouse, "old")
    original = upgrade._replace

    def cut_at_players(warehouse, stage, table, variant, run):
        if table == "players":
            raise OSError("disk unplugged")
        original(warehouse, stage, table, variant, run)

    monkeypatch.setattr(upgrade, "_replace", cut_at_players)
    with pytest.raises(OSError):
        upgrade.upgrade(str(tmp_path))
    assert upgrade.older_runs(warehouse)  # still old: its runs row is replaced last
    monkeypatch.setattr(upgrade, "_replace", original)
    assert upgrade.upgrade(str(tmp_path)) == ["old"]
    con = connect(tmp_path)
    assert con.sql("SELECT count(*) FROM hands WHERE run_id = 'old'").fetchall() == [(300,)]
    assert con.sql("SELECT count(*) FROM players WHERE run_id = 'old'").fetchall() == [(600,)]


def test_a_run_that_cannot_be_upgraded_is_named_and_the_others_go_on(tmp_path):
    description = tmp_path / "my-board.toml"
    text = (Path(__file__).parent / "fixtures" / "variants" / "double-board-holdem.toml").read_text()
    text = text.replace('name = "double-board-holdem"', 'name = "upgrade-board"').replace("DBH =", "UPB =")
    description.write_text(text)  # a game of its own: names and PHH codes are unique in a process
    data = tmp_path / "wh"
    simulate(SimSpec(str(description), 100, players=2, seed=1), str(data), run_id="described")
    simulate(SimSpec("holdem", 100, players=2, seed=1), str(data), run_id="built-in")
    warehouse = Warehouse(data)
    for run in ("described", "built-in"):
        _make_older_layout(warehouse, run)
    description.unlink()  # the description is gone: that run cannot be simulated again
    result = CliRunner().invoke(app, ["upgrade", "--data", str(data)])
    assert result.exit_code == 1 and "could not upgrade run described:" in result.output
    assert "1 run(s) simulated again in today's layout: built-in" in result.output
    assert connect(data).sql("SELECT count(*) FROM hands WHERE run_id = 'built-in'").fetchall() == [(100,)]
