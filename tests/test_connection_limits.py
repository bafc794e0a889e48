"""Every DuckDB connection scooplab opens is bounded (#52): a memory limit and a capped temporary
folder of its own, removed when its process exits and, after a kill -9, by the next process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from analytics import resources
from analytics.db import connect
from analytics.sandbox import QueryError
from tests.patience import COMMAND_SECONDS, PROCESS_END_SECONDS

ROOT = Path(__file__).resolve().parents[1]
BIG = "SELECT count(DISTINCT i::VARCHAR || 'a long enough text to hold') FROM range(20000000) t(i)"


@pytest.fixture
def temp_root(tmp_path, monkeypatch):
    monkeypatch.setenv(resources.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setattr(resources, "_FOLDER", {})
    return resources.base_folder()  # (under tmp_path)


def _setting(con: duckdb.DuckDBPyConnection, name: str) -> str:
    return con.sql(f"SELECT current_setting('{name}')").fetchall()[0][0]


def test_the_views_connection_has_a_memory_limit_and_a_temporary_folder_of_its_own(temp_root, monkeypatch):
    monkeypatch.setenv(resources.MEMORY_VARIABLE, "300MB")
    monkeypatch.setenv(resources.TEMP_VARIABLE, "700MB")
    first, second = connect("/nonexistent-warehouse"), connect("/nonexistent-warehouse")
    try:
        assert _setting(first, "memory_limit") == "286.1 MiB"  # 300 MB
        assert _setting(first, "max_temp_directory_size") == "667.5 MiB"  # 700 MB
        folders = {Path(_setting(con, "temp_directory")) for con in (first, second)}
        assert len(folders) == 2
        assert {f.parent for f in folders} == {temp_root / f"{socket.gethostname()}-{os.getpid()}"}
    finally:
        first.close()
        second.close()


def test_the_default_limits_come_from_the_machine(temp_root, monkeypatch):
    monkeypatch.delenv(resources.MEMORY_VARIABLE, raising=False)
    monkeypatch.delenv(resources.TEMP_VARIABLE, raising=False)
    limits = resources.Limits.of_machine()
    assert limits.memory == max(resources.MIN_MEMORY, resources.physical() // 8)
    assert resources.MIN_TEMP <= limits.temp <= 4 * limits.memory


def test_a_query_past_both_limits_stops_with_duckdbs_error_and_spills_no_more_than_the_cap(temp_root):
    con = resources.connect(limits=resources.Limits(memory=64 * 10**6, temp=32 * 10**6))
    con.sql("SET threads = 1")
    folder = Path(_setting(con, "temp_directory"))
    with pytest.raises(duckdb.OutOfMemoryException):
        con.sql(BIG).fetchall()
    spilled = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) if folder.exists() else 0
    assert spilled <= 32 * 10**6
    con.close()
    assert not folder.exists()  # DuckDB removes a connection's own folder as it closes


def test_a_size_that_is_not_one_is_one_line(monkeypatch):
    monkeypatch.setenv(resources.MEMORY_VARIABLE, "lots")
    with pytest.raises(QueryError, match=resources.MEMORY_VARIABLE):
        resources.Limits.of_machine()


SPILL_THEN = """
import os, sys, time
from analytics import resources
con = resources.connect(limits=resources.Limits(memory=64 * 10**6, temp=4 * 10**9))
con.sql("SET threads = 1")
con.sql("CREATE TABLE t AS SELECT i::VARCHAR || 'some more text to spill' AS s FROM range(3000000) t(i)")
con.sql("CREATE TABLE u AS SELECT DISTINCT s FROM t ORDER BY s")
print(resources.process_folder(), flush=True)
if sys.argv[1] == "wait":
    time.sleep(60)
"""


def _spiller(temp_root: Path, how: str) -> tuple[subprocess.Popen, Path]:
    env = dict(os.environ, **{resources.FOLDER_VARIABLE: str(temp_root.parent)}, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-c", SPILL_THEN, how], stdout=subprocess.PIPE, text=True, env=env
    )
    return process, Path(process.stdout.readline().strip())


def test_a_process_s_folder_goes_when_it_exits(temp_root):
    process, folder = _spiller(temp_root, "exit")
    assert folder.parent == temp_root
    assert process.wait(timeout=COMMAND_SECONDS) == 0
    assert not folder.exists()


def test_a_killed_process_s_folder_is_removed_by_the_next_connection(temp_root):
    process, folder = _spiller(temp_root, "wait")
    try:
        assert folder.exists()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=PROCESS_END_SECONDS)
    finally:
        process.kill()
        process.stdout.close()
    assert folder.exists()  # nothing ran at the kill
    another_host = temp_root / f"another-machine-{process.pid}"
    another_host.mkdir()
    con = resources.connect()  # the next process (here: this one) opens a connection
    con.close()
    assert not folder.exists()
    assert another_host.exists()  # a process of another machine may be alive: kept


def test_a_folder_not_made_yet_is_made_and_one_not_the_user_s_own_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "_FOLDER", {})
    monkeypatch.delenv(resources.TEMP_VARIABLE, raising=False)
    monkeypatch.setenv(resources.FOLDER_VARIABLE, str(tmp_path / "not" / "made" / "yet"))
    resources.connect().close()
    assert resources.base_folder().is_dir() and resources.base_folder().stat().st_mode & 0o777 == 0o700
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv(resources.FOLDER_VARIABLE, str(tmp_path / "linked"))
    (tmp_path / "linked").mkdir()
    resources.base_folder().symlink_to(elsewhere)  # another's trap: a link where the folder goes
    monkeypatch.setattr(resources, "_FOLDER", {})
    with pytest.raises(QueryError, match="not this user's own folder"):
        resources.connect()
