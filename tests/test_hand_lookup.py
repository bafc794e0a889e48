"""A hand found by its id without a scan (#52, analytics/hand_index.py): a simulated hand in the shard
file its id names, a replayed hand through the sorted id index; the same rows as the views give."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

import scooplab
from analytics import hand_index
from analytics.db import connect
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse

FIXTURES = Path(__file__).parent / "fixtures"
REPLAYED = [FIXTURES / "phh", FIXTURES / "money" / "valid.phhs"]


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lookup")
    with scooplab.open(folder) as lab:
        lab.ingest(*REPLAYED, run_id="replayed")
        lab.simulate("holdem", 3000, players=3, seed=5, run_id="showdown", shard_size=1000)
        lab.simulate("holdem", 300, players=3, seed=5, mode="betting", run_id="betting", policies=["tag"])
    return folder


def _from_views(folder: Path, hand_id: str) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    con = connect(folder)
    try:
        params = {"id": hand_id}
        hand = con.sql("SELECT * FROM hands WHERE hand_id = $id", params=params).pl().row(0, named=True)
        players = con.sql("SELECT * FROM players WHERE hand_id = $id ORDER BY seat", params=params).pl()
        actions = con.sql(
            "SELECT street, seat, action, amount, cards, board, automatic, stack_after, pot_after "
            "FROM actions WHERE hand_id = $id ORDER BY seq",
            params=params,
        ).pl()
        return hand, players, actions
    finally:
        con.close()


def _some_ids(folder: Path) -> list[str]:
    con = connect(folder)
    try:
        return [row[0] for row in con.sql(
            "SELECT hand_id FROM (SELECT hand_id, run_id, row_number() OVER (PARTITION BY run_id ORDER BY "
            "hash(hand_id)) AS k FROM hands) WHERE k <= 4 ORDER BY run_id, hand_id").fetchall()]  # fmt: skip
    finally:
        con.close()


def test_every_kind_of_hand_is_found_with_the_rows_the_views_give(warehouse):
    ids = _some_ids(warehouse)
    assert {i.split(":")[0] for i in ids if ":" in i} == {"showdown", "betting"}
    assert sum(":" not in i for i in ids) == 4  # replayed: content hashes
    for hand_id in ids:
        hand, players, actions = hand_index.lookup(warehouse, hand_id)
        expected = _from_views(warehouse, hand_id)
        assert hand == expected[0]
        assert players.equals(expected[1]) and actions.equals(expected[2])
        assert actions.height > 0


def test_an_unknown_id_is_none_without_error(warehouse):
    for hand_id in ("0123456789abcdef0123", "showdown:9:5", "no such hand", "it's"):
        hand, players, actions = hand_index.lookup(warehouse, hand_id)
        assert hand is None and players.is_empty() and actions.is_empty()


def test_the_index_is_made_as_an_ingest_ends_sorted_in_row_groups_that_do_not_overlap(tmp_path):
    with scooplab.open(tmp_path) as lab:
        lab.ingest(*REPLAYED, run_id="cash")
    index = tmp_path / hand_index.INDEX / "run=cash.parquet"
    metadata = pq.ParquetFile(index).metadata
    ranges = [(metadata.row_group(g).column(0).statistics.min, metadata.row_group(g).column(0).statistics.max)
              for g in range(metadata.num_row_groups)]  # fmt: skip
    assert all(low <= high for low, high in ranges)
    assert all(ranges[g][1] < ranges[g + 1][0] for g in range(len(ranges) - 1))
    stored = set(Warehouse(tmp_path).read("hands", ["hand_id"]).column("hand_id").to_pylist())
    assert set(pq.read_table(index).column("hand_id").to_pylist()) == stored


def test_many_row_groups_each_id_found_in_its_file(tmp_path, monkeypatch):
    monkeypatch.setattr(hand_index, "ROW_GROUP", 7)  # many groups over a few dozen hands
    ingest([FIXTURES / "phh"], Warehouse(tmp_path), run_id="first")
    ingest([FIXTURES / "money" / "valid.phhs"], Warehouse(tmp_path), run_id="second")
    files = hand_index.prepare(tmp_path)  # (an engine ingest made none: made at the first look-up)
    assert len(files) == 2 and pq.ParquetFile(files[0]).metadata.num_row_groups >= 2
    hands = pl.from_arrow(Warehouse(tmp_path).read("hands", ["hand_id", "run_id", "source_file"]))
    for hand_id, run in hands.select("hand_id", "run_id").iter_rows():
        part = hand_index.locate(tmp_path, hand_id)
        assert part is not None and part.startswith(f"/run={run}/part-")


def test_the_index_is_made_again_when_its_run_changes_and_goes_with_its_run(tmp_path):
    ingest([FIXTURES / "phh"], Warehouse(tmp_path), run_id="cash")
    runs: list[str] = []
    hand_index.prepare(tmp_path, runs.append)
    assert runs == ["cash"]  # (an engine ingest made none: made at the first look-up)
    runs.clear()
    hand_index.prepare(tmp_path, runs.append)
    assert runs == []  # current: nothing made again
    hands_file = next(Path(tmp_path, "hands").rglob("part-*.parquet"))
    os.utime(hands_file, ns=(0, 0))  # the run's file written again (its time of change)
    hand_index.prepare(tmp_path, runs.append)
    assert runs == ["cash"]
    for table in ("hands", "players", "actions", "runs"):
        for file in Path(tmp_path, table).rglob("*.parquet"):
            file.unlink()
    assert hand_index.prepare(tmp_path) == []
    assert not list(Path(tmp_path, hand_index.INDEX).glob("run=*"))


def test_an_ingest_reads_only_the_ids_a_replayed_hand_could_share(warehouse):
    ids = Warehouse(warehouse).hand_ids()  # (a minute over make demo's 34 M simulated hands before)
    replayed = pl.from_arrow(Warehouse(warehouse).read("hands", ["hand_id", "run_id"])).filter(
        pl.col("run_id") == "replayed"
    )
    assert ids == set(replayed["hand_id"].to_list()) and ids
    with scooplab.open(warehouse) as lab:
        again = lab.ingest(FIXTURES / "phh", run_id="again")
    assert again["hands"] == 0 and again["duplicates"] > 0  # still known as stored


def test_the_same_look_up_from_scooplab_query(warehouse):
    import json

    from typer.testing import CliRunner

    from scooplab.cli import app

    runner = CliRunner()
    for hand_id in _some_ids(warehouse)[::4]:
        result = runner.invoke(
            app, ["query", "--hand", hand_id, "--data", str(warehouse), "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        shown = json.loads(result.stdout)
        hand, players, actions = hand_index.lookup(warehouse, hand_id)
        assert shown["hand"]["hand_id"] == hand_id == hand["hand_id"]
        assert len(shown["players"]) == players.height and len(shown["actions"]) == actions.height
    for args in (["--hand", "no-such-hand"], [], ["SELECT 1", "--hand", "x"]):
        result = runner.invoke(app, ["query", *args, "--data", str(warehouse)])
        assert result.exit_code == 2 and "scooplab: error:" in result.stderr
