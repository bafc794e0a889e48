"""What a fresh dashboard does so that its first pages come at once (#40, benchmarks/page_times.py):
the Players page's rows are counted as runs are written (not on the page's first visit), the views
are made as the server starts (and left unused when a run came since), the background warm-up waits
while a page runs, and a connection reads each file's footer once yet reads a file written again."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import scooplab
from analytics import derived, tracker
from analytics.db import FOOTERS_READ_ONCE
from dashboards import data
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse
from tests.patience import wait_until

HANDS = Path(__file__).parent / "fixtures" / "money" / "tracker.phhs"
VALID = Path(__file__).parent / "fixtures" / "money" / "valid.phhs"
A_MOMENT = 0.2  # seconds a waiting thread is given to (wrongly) go on: a slow machine only hides a bug


def _counted_now(folder: Path) -> list[str]:
    """The runs whose tracker rows a Players page opened now would have to count first."""
    counted: list[str] = []
    tracker.prepare(folder, counted.append)
    return counted


def test_ingest_and_simulate_count_the_players_rows_as_they_finish(tmp_path):
    with scooplab.open(tmp_path) as lab:
        lab.ingest(HANDS, run_id="cash")
        assert (tmp_path / tracker.DERIVED / "run=cash.parquet").exists()
        lab.simulate("holdem", 300, players=3, seed=1, mode="betting", policies=("tag", "random"),
                     run_id="bet")  # fmt: skip
        assert (tmp_path / tracker.TOTALS / "run=bet.parquet").exists()
        assert _counted_now(tmp_path) == []  # nothing is left for the page to count
        assert lab.tracker()["hands"].sum() == lab.sql("SELECT count(*) FROM tracker_seats").fetchall()[0][0]


def test_rows_not_counted_as_a_run_finishes_are_one_line_and_counted_when_asked(tmp_path, capsys):
    (tmp_path / "derived").write_text("not a folder")  # the derived rows cannot be written
    with scooplab.open(tmp_path) as lab:
        report = lab.ingest(HANDS, run_id="cash")
        assert report["hands"] == 5
    lines = [line for line in capsys.readouterr().err.splitlines() if "Players page" in line]
    assert len(lines) == 1 and "counted when the page or `scooplab players` first asks" in lines[0]
    (tmp_path / "derived").unlink()
    assert _counted_now(tmp_path) == ["cash"]


def test_counting_removes_what_a_killed_counter_left_and_keeps_a_live_one_s_files(tmp_path):
    ingest([HANDS], Warehouse(tmp_path), run_id="cash")  # (the engine's ingest: nothing counted yet)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                           text=True, check=True).stdout.strip()  # fmt: skip
    here = socket.gethostname()
    folder = tmp_path / tracker.DERIVED
    folder.mkdir(parents=True)
    killed = folder / f".tmp-{ended}@{here}-0f0f.parquet.partial"
    working = folder / f".tmp-{os.getpid()}@{here}-0e0e.parquet.partial"
    elsewhere = folder / f".tmp-{ended}@another-machine-0d0d.parquet.partial"  # a pid of another machine
    forgotten = folder / ".tmp-0c0c.parquet.partial"  # an older scooplab's, two hours old
    for path in (killed, working, elsewhere, forgotten):
        path.write_bytes(b"half a file")
    two_hours_ago = forgotten.stat().st_mtime - 2 * derived.LEFT_BEHIND_SECONDS
    os.utime(forgotten, (two_hours_ago, two_hours_ago))
    assert _counted_now(tmp_path) == ["cash"]
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == sorted([working.name, elsewhere.name, "run=cash.json", "run=cash.parquet"])


def test_the_views_made_as_the_server_starts_serve_the_first_page_unless_a_run_came_since(tmp_path):
    folder = str(tmp_path)
    with scooplab.open(tmp_path) as lab:
        lab.ingest(HANDS, run_id="cash")
    data.connection.clear()
    data.prepare_connection(folder)
    made = data._PREPARED[folder][2].result()
    assert data.connection(folder) is made
    data.connection.clear()
    data.prepare_connection(folder)
    unused = data._PREPARED[folder][2].result()
    with scooplab.open(tmp_path) as lab:
        lab.ingest(VALID, run_id="later")  # a run written after the views were made
    fresh = data.connection(folder)
    assert fresh is not unused
    runs = {run for (run,) in fresh.cursor().sql("SELECT DISTINCT run_id FROM hands").fetchall()}
    assert runs == {"cash", "later"}
    data.connection.clear()
    data.prepare_connection(folder)
    made_at, stamp, old = data._PREPARED[folder]
    data._PREPARED[folder] = (made_at - data.CONNECTION_SECONDS, stamp, old)  # made a minute ago
    aged = data.connection(folder)
    assert aged is not old.result()  # views live a minute, whoever made them
    data.connection.clear()
    for con in (made, unused, fresh, old.result(), aged):
        con.close()


@pytest.fixture
def no_page_running():
    """The count of pages running in this process starts at none (AppTest runs share it)."""
    data._PAGES["running"] = 0
    yield
    assert data._PAGES["running"] == 0  # every page that began ended


def test_a_page_that_stops_or_fails_is_no_longer_counted(no_page_running):
    for ending in (RuntimeError("a page's error"), KeyboardInterrupt()):
        with contextlib.suppress(type(ending)), data.page_running():
            assert data._PAGES["running"] == 1
            raise ending
    assert data._PAGES["running"] == 0


def test_the_app_s_runs_end_uncounted_even_one_that_stops(tmp_path, no_page_running):
    from tests.test_dashboard import app

    test = app(tmp_path, "screens/overview.py")  # an empty warehouse: the page says so and stops
    assert any("scooplab simulate" in info.value for info in test.info)
    assert data._PAGES["running"] == 0


def test_the_warm_up_waits_while_a_page_runs_and_stops_with_the_server(no_page_running):
    stop = threading.Event()
    with data.page_running():
        waiting = threading.Thread(target=data._when_quiet, args=(stop,))
        waiting.start()
        waiting.join(A_MOMENT)
        assert waiting.is_alive()  # a page runs: the warm-up's next step waits
    assert wait_until(lambda: not waiting.is_alive())
    with data.page_running():
        stopped = threading.Thread(target=data._when_quiet, args=(stop,))
        stopped.start()
        stop.set()  # the server stops while a page runs: the warm-up ends without waiting for it
        assert wait_until(lambda: not stopped.is_alive())


def test_a_file_written_again_under_its_name_is_read_again_by_a_connection_that_read_it(tmp_path):
    """The dashboard keeps a connection; its footers are read once, yet a file written again (an
    interrupted run's shard redone) is read as it is now, within the same second."""
    path = tmp_path / "part.parquet"
    pq.write_table(pa.table({"hand": [1, 2, 3]}), path)
    con = duckdb.connect()
    con.sql(FOOTERS_READ_ONCE)
    con.sql(f"CREATE VIEW hands AS SELECT * FROM read_parquet('{path}')")
    assert con.sql("SELECT count(*) FROM hands").fetchall() == [(3,)]
    pq.write_table(pa.table({"hand": [1, 2, 3, 4, 5]}), tmp_path / "next.parquet")
    (tmp_path / "next.parquet").replace(path)
    assert con.sql("SELECT count(*) FROM hands").fetchall() == [(5,)]
    pq.write_table(pa.table({"hand": [7]}), path)  # written in place
    assert con.sql("SELECT sum(hand) FROM hands").fetchall() == [(7,)]


def test_stopping_the_warm_ups_ends_their_threads(tmp_path, monkeypatch, no_page_running):
    monkeypatch.setattr(data, "data_path", lambda: str(tmp_path / "somewhere"))
    monkeypatch.setattr(data, "empty", lambda path: False)
    with data.page_running():  # (its first step waits while a page runs)
        data.warm_up()
        assert [t for t in threading.enumerate() if t.name == "scooplab-warm-up" and t.is_alive()]
        data.stop_warm_ups()
    assert not [t for t in threading.enumerate() if t.name == "scooplab-warm-up" and t.is_alive()]
