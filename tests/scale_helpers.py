"""Helpers of the reliability tests: real processes on loopback, torn down whatever happens, and a
digest of a run's rows in every documented table (equal digests: equal tables, whatever the files)."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from ingest.storage.schema import TABLES
from ingest.storage.warehouse import Warehouse
from tests.conftest import INTERPRETER_HELPERS
from tests.patience import PROCESS_END_SECONDS, SERVER_START_SECONDS, wait_until

BIN = Path(sys.executable).parent
SCOOPLAB = [sys.executable, "-m", "scooplab.cli"]
VOLATILE = {"runs": ("created_at",)}  # when a run row was written: the only column two runs may differ in


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def listens(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_for_port(port: int, seconds: float = SERVER_START_SECONDS) -> None:
    if not wait_until(lambda: listens(port), seconds):
        raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def start(args: Sequence[str], env: dict[str, str] | None = None, **kwargs) -> subprocess.Popen:
    """A process in a session of its own (``kill_group`` ends it and everything it started)."""
    return subprocess.Popen(
        list(args), env={**os.environ, **(env or {})}, start_new_session=True,
        stdout=kwargs.pop("stdout", subprocess.DEVNULL), stderr=kwargs.pop("stderr", subprocess.DEVNULL),
        **kwargs,
    )  # fmt: skip


def kill_group(process: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Signal a process's whole session and reap the process."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=PROCESS_END_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=PROCESS_END_SECONDS)


@contextmanager
def running(*processes: subprocess.Popen) -> Iterator[tuple[subprocess.Popen, ...]]:
    """The processes, each killed with its session when the block ends, however it ends."""
    try:
        yield processes
    finally:
        for process in processes:
            kill_group(process)


def run_digest(data: str | Path, run_id: str) -> dict[str, str]:
    """A SHA-256 of each documented table's rows of one run (the sorted hashes of its rows, as
    Polars hashes them in this process), volatile columns left out; tables without the run's rows
    are left out. Equal digests: the same rows, however the files cut them."""
    import numpy as np
    import polars as pl

    warehouse = Warehouse(data)
    digests = {}
    for table, schema in TABLES.items():
        if "run_id" not in schema.names:
            continue
        rows = pl.from_arrow(warehouse.read(table)).filter(pl.col("run_id") == run_id)
        if not len(rows):
            continue
        hashes = np.sort(rows.drop(VOLATILE.get(table, ())).hash_rows(seed=7).to_numpy())
        digests[table] = f"{len(rows)} rows " + hashlib.sha256(hashes.tobytes()).hexdigest()[:16]
    return digests


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a live process has used so far (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command_line(pid: int) -> str:
    """A live process's command line, its arguments joined by spaces ("" once it has ended)."""
    try:
        return (
            (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def live_processes() -> Iterator[tuple[int, list[str]]]:
    """Each live process (not a zombie) from /proc: its pid and the fields of its ``stat`` after the
    command name (state, parent, process group, ...)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
        if fields[0] != "Z":
            yield int(entry.name), fields


def group_members(pgid: int) -> list[int]:
    """Live processes of a process group."""
    return [pid for pid, fields in live_processes() if int(fields[2]) == pgid]


def children_of(parent: int) -> list[int]:
    """Live processes a process started."""
    return [pid for pid, fields in live_processes() if int(fields[1]) == parent]


def interpreter_helper(pid: int) -> bool:
    """Whether a process is Python's own multiprocessing helper, which ends with its interpreter."""
    return any(helper in command_line(pid) for helper in INTERPRETER_HELPERS)


def temporary_files(data: str | Path) -> list[Path]:
    """Files a killed writer left (named ``.tmp-*``)."""
    return sorted(Path(data).rglob(".tmp-*"))


def finished_files(data: str | Path, table: str) -> dict[str, bytes]:
    """Every finished file of a table, by its path in the warehouse, with its bytes."""
    root = Path(data)
    return {
        str(path.relative_to(root)): path.read_bytes() for path in sorted((root / table).rglob("*.parquet"))
    }
