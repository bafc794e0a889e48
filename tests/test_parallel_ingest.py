"""Ingest on several processes (ingest/histories/parallel.py) ends as the serial ingest does: the same
rows, counts, duplicates (a hand in two files of two chunks is stored once) and reject lines."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pyarrow as pa

from ingest.histories.parallel import chunks
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse

FIXTURES = Path(__file__).parent / "fixtures"


def _corpus(folder: Path) -> Path:
    """Real-format hands, the rejects of the invalid ones, chip hands, and one file twice, far apart."""
    corpus = folder / "corpus"
    shutil.copytree(FIXTURES / "phh", corpus / "b-phh")
    for name in ("valid.phhs", "invalid.phhs", "tracker.phhs"):
        shutil.copy(FIXTURES / "money" / name, corpus / f"a-{name}")
    shutil.copy(FIXTURES / "money" / "valid.phhs", corpus / "z-valid-again.phhs")
    with tarfile.open(corpus / "c-archive.tar.gz", "w:gz") as archive:  # an archive among the files
        for path in sorted((FIXTURES / "phh").rglob("*.phh"))[:3]:
            archive.add(path, arcname=f"archived/{path.name}")
    return corpus


def _rows(root: Path, table: str) -> list[tuple]:
    found = Warehouse(root).read(table)
    columns = [c for c in found.column_names if c != "run_id"]
    return sorted(tuple(str(v) for v in row.values()) for row in found.select(columns).to_pylist())


def test_two_processes_store_what_one_stores(tmp_path):
    corpus = _corpus(tmp_path)
    assert len(chunks([str(corpus)], 2)) > 2  # the files are cut into several chunks
    lines: dict[int, list[str]] = {1: [], 2: []}
    reports = {
        workers: ingest(
            [corpus],
            Warehouse(tmp_path / f"w{workers}"),
            run_id="same",
            on_reject=lines[workers].append,
            workers=workers,
        )
        for workers in (1, 2)
    }
    one, two = reports[1].summary(), reports[2].summary()
    assert one == two
    assert one["duplicates"] >= 6 + 3 and one["rejected"] >= 7  # the second copies; the invalid hands
    assert reports[1].variants == reports[2].variants
    assert sorted(lines[1]) == sorted(lines[2]) and len(lines[1]) == one["rejected"]
    for table in ("hands", "players", "actions", "rejects"):
        assert _rows(tmp_path / "w1", table) == _rows(tmp_path / "w2", table), table
    runs = Warehouse(tmp_path / "w2").read("runs").to_pylist()
    assert {r["status"] for r in runs} == {"complete"} and sum(r["hands"] for r in runs) == one["hands"]


def test_a_second_parallel_ingest_finds_every_hand_stored(tmp_path):
    corpus = _corpus(tmp_path)
    warehouse = Warehouse(tmp_path / "w")
    first = ingest([corpus], warehouse, run_id="first", workers=2)
    again = ingest([corpus], warehouse, run_id="again", workers=2)
    assert again.hands == 0 and again.duplicates == first.hands + first.duplicates
    ids = warehouse.read("hands").column("hand_id")
    assert len(ids) == len(pa.compute.unique(ids)) == first.hands  # no hand stored twice
