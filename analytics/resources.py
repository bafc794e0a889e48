"""Every DuckDB connection scooplab opens is bounded: a memory limit and a temporary folder of its own
with a size cap, so no query, page or input can take the machine (docs/reliability.md, "Limits of
every connection").

The limits come from the machine unless the environment sets them: ``SCOOPLAB_DUCKDB_MEMORY``
(default an eighth of the physical memory, at least 512 MB) and ``SCOOPLAB_DUCKDB_TEMP`` (spilled
data, default the smaller of four times the memory limit and an eighth of the free disk).
A connection spills into ``<system temp>/scooplab-duckdb-<uid>/<host>-<pid>/<n>``: DuckDB removes its own
folder when the connection closes, this process's folder goes when it exits (the dashboard's server
stops that way on SIGTERM and Ctrl-C), and the folders of processes that died without a word
(kill -9, a crash, SIGTERM to a command) are removed by the next scooplab process that opens a
connection. No signal handler is installed: a handler would wait for a running query to end.

>>> limits = Limits(memory=2 * 10**9, temp=8 * 10**9)
>>> limits.settings("/tmp/t")[:2]
["SET memory_limit = '2000000000B'", "SET temp_directory = '/tmp/t'"]
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import socket
import tempfile
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import duckdb

from analytics.sandbox import QueryError, no_progress_bar, parse_size, quote, size_text
from ingest.storage.warehouse import holder_alive

MEMORY_VARIABLE = "SCOOPLAB_DUCKDB_MEMORY"
TEMP_VARIABLE = "SCOOPLAB_DUCKDB_TEMP"
FOLDER_VARIABLE = "SCOOPLAB_DUCKDB_FOLDER"  # where the process folders go (default: the system's temp)
MIN_MEMORY = 512 * 10**6
MIN_TEMP = 256 * 10**6


@dataclass(frozen=True)
class Limits:
    """The memory (bytes) a connection may use, and the bytes it may spill to its temporary folder."""

    memory: int
    temp: int

    @classmethod
    def of_machine(cls) -> Limits:
        """The environment's limits, else the machine's: an eighth of its memory, and the smaller of four
        times that and an eighth of the free disk under the temporary folders."""
        memory_text, temp_text = os.environ.get(MEMORY_VARIABLE), os.environ.get(TEMP_VARIABLE)
        memory = _parsed(memory_text, MEMORY_VARIABLE) if memory_text else max(MIN_MEMORY, physical() // 8)
        if temp_text:
            return cls(memory, _parsed(temp_text, TEMP_VARIABLE))
        free = shutil.disk_usage(_made_base()).free
        return cls(memory, max(MIN_TEMP, min(4 * memory, free // 8)))

    def settings(self, folder: str) -> list[str]:
        """The statements that bound a connection, spilling into ``folder``."""
        return [f"SET memory_limit = '{self.memory}B'", f"SET temp_directory = {quote(folder)}",
                f"SET max_temp_directory_size = '{self.temp}B'"]  # fmt: skip

    def text(self) -> str:
        """The limits as a person reads them.

        >>> Limits(3 * 2**30, 12 * 2**30).text()
        '3 GiB of memory, 12 GiB of spilled data'
        """
        return f"{size_text(self.memory)} of memory, {size_text(self.temp)} of spilled data"


def _parsed(text: str, variable: str) -> int:
    try:
        return parse_size(text)
    except QueryError:
        raise QueryError(f"{variable}={text!r}: give a size of at least 1MB, such as 2GB or 500MB") from None


def physical() -> int:
    """Bytes of physical memory (4 GiB where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def base_folder() -> Path:
    """The folder this user's scooplab processes keep their temporary DuckDB folders in (one a user:
    another user's processes neither share it nor are stopped by it)."""
    user = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return Path(os.environ.get(FOLDER_VARIABLE) or tempfile.gettempdir()) / f"scooplab-duckdb-{user}"


def _made_base() -> Path:
    """``base_folder``, made if need be (this user's alone: mode 0700); a folder of that name that is
    not this user's own folder is refused."""
    base = base_folder()
    base.mkdir(mode=0o700, parents=True, exist_ok=True)
    about = base.lstat()
    if not base.is_dir() or base.is_symlink() or (hasattr(os, "getuid") and about.st_uid != os.getuid()):
        raise QueryError(f"{base} is not this user's own folder: set {FOLDER_VARIABLE} to a folder of yours")
    return base


_LOCK = threading.Lock()
_FOLDER: dict[int, Path] = {}  # pid -> this process's folder (a forked child makes its own)
_COUNT = itertools.count()


def process_folder() -> Path:
    """This process's folder (made, and its removal at exit arranged, on first use; the folders of
    dead processes of this host removed then)."""
    pid = os.getpid()
    with _LOCK:
        if pid not in _FOLDER:
            folder = _made_base() / f"{socket.gethostname()}-{pid}"
            remove_orphans()
            folder.mkdir(exist_ok=True)
            _FOLDER[pid] = folder
            atexit.register(_remove, folder)
        return _FOLDER[pid]


def _remove(folder: Path) -> None:
    if os.getpid() == int(folder.name.rsplit("-", 1)[1]):
        shutil.rmtree(folder, ignore_errors=True)


def remove_orphans() -> list[Path]:
    """Remove the folders of this host's processes that are gone; the folders removed."""
    removed = []
    with suppress(OSError):
        for folder in base_folder().iterdir():
            host, _, pid = folder.name.rpartition("-")
            if pid.isdigit() and not holder_alive({"host": host, "pid": pid}):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


def bound(con: duckdb.DuckDBPyConnection, limits: Limits | None = None) -> duckdb.DuckDBPyConnection:
    """``con`` with its memory limit and a temporary folder of its own (under this process's folder,
    capped); no progress bar. The same connection, for chaining."""
    limits = limits or Limits.of_machine()
    folder = process_folder() / f"c{next(_COUNT)}"  # (DuckDB makes it when it spills, removes it at close)
    for statement in limits.settings(str(folder)):
        con.sql(statement)
    no_progress_bar(con)
    return con


def connect(
    path: str = ":memory:", read_only: bool = False, limits: Limits | None = None
) -> duckdb.DuckDBPyConnection:
    """A new bounded DuckDB connection (an in-memory database unless ``path`` names a file)."""
    con = duckdb.connect(path, read_only=read_only)
    try:
        return bound(con, limits)
    except BaseException:
        con.close()
        raise
