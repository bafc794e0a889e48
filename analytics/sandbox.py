"""Untrusted SQL, sandboxed: read-only views, time and memory limits, each query in a process of its own.

``analytics.db.run_query`` builds the views database and hands the checked query to
``in_own_process``, which starts ``query_process`` (this module only: DuckDB and Arrow, no
warehouse code, so the process starts quickly), watches it and kills it at the limits.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

TIMEOUT_VARIABLE = "SCOOPLAB_QUERY_TIMEOUT"  # seconds an untrusted query may run
MEMORY_VARIABLE = "SCOOPLAB_QUERY_MEMORY"  # memory it may use, such as 2GB or 500MB
DEFAULT_TIMEOUT = 60.0  # seconds: twice the slowest real console query measured (docs/reliability.md)
DEFAULT_MEMORY = 2 * 10**9  # bytes: twice the largest measured; several at once leave 24 GiB room
HEADROOM = 256 * 2**20  # the query's process beyond its limit: interpreter, libraries, the result sent
WATCH_SECONDS = 0.05  # how often the query's process is looked at
REFUSED = 3  # the query process's exit code when it wrote why the query failed instead of a result
QUERY_PROCESS = "from analytics.sandbox import query_process; query_process()"
UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
         "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}  # fmt: skip
SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([kmgt]i?b|b)\s*", re.IGNORECASE)


def quote(text: str) -> str:
    """A SQL string literal.

    >>> quote("it's")
    "'it''s'"
    """
    return "'" + text.replace("'", "''") + "'"


def no_progress_bar(con: duckdb.DuckDBPyConnection) -> None:
    """Turn DuckDB's progress bar off; in a Jupyter kernel without ipywidgets DuckDB refuses to
    change the setting at all, and there it has no bar to show anyway."""
    with suppress(duckdb.InvalidInputException):
        con.sql("SET enable_progress_bar = false")


class QueryError(ValueError):
    """A query that failed or was refused, with DuckDB's one-line message."""


def parse_size(text: str) -> int:
    """Bytes of a size such as ``2GB``, ``500MB`` or ``1.5GiB`` (GB is 10^9 bytes, GiB 2^30).

    >>> parse_size("2GB"), parse_size("100 MiB")
    (2000000000, 104857600)
    """
    match = SIZE.fullmatch(text)
    size = int(float(match[1]) * UNITS[match[2].lower()]) if match else 0
    if size < 2**20:
        raise QueryError(f"memory limit {text!r}: give a size of at least 1MB, such as 2GB or 500MB")
    return size


def size_text(size: int) -> str:
    """A size as people write it: ``2 GB``, ``100 MiB``, ``1.5 GB``.

    >>> size_text(2 * 10**9), size_text(2**30), size_text(1_500_000_000)
    ('2 GB', '1 GiB', '1.5 GB')
    """
    for unit in ("TiB", "GiB", "MiB"):
        if size % UNITS[unit.lower()] == 0:
            return f"{size // UNITS[unit.lower()]} {unit}"
    unit = next((u for u in ("TB", "GB") if size >= UNITS[u.lower()]), "MB")
    return f"{size / UNITS[unit.lower()]:.4g} {unit}"


def parse_seconds(text: str | float) -> float:
    """A time limit in seconds, from a number or its text."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < 10**6:
        raise QueryError(f"time limit {text!r}: give a number of seconds, such as 30")
    return seconds


@dataclass(frozen=True)
class QueryLimits:
    """How long an untrusted query may run (``seconds``) and how much memory it may use (``memory``,
    bytes): DuckDB's working memory and the result each, its whole process that plus ``HEADROOM``."""

    seconds: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY

    @classmethod
    def of(cls, seconds: float | None = None, memory: str | None = None) -> QueryLimits:
        """The limits given; those not given from ``SCOOPLAB_QUERY_TIMEOUT`` and ``SCOOPLAB_QUERY_MEMORY``,
        else the defaults (60 s, 2 GB). A value that is not a time or a size raises ``QueryError``."""
        seconds = seconds if seconds is not None else os.environ.get(TIMEOUT_VARIABLE) or DEFAULT_TIMEOUT
        memory = memory or os.environ.get(MEMORY_VARIABLE)
        return cls(parse_seconds(seconds), parse_size(memory) if memory else DEFAULT_MEMORY)

    def time_message(self) -> str:
        """The line a query stopped at the time limit gets."""
        change = f"set {TIMEOUT_VARIABLE} or scooplab query --timeout to change it"
        return f"query cancelled after {self.seconds:g} s (the time limit; {change})"

    def memory_message(self) -> str:
        """The line a query stopped at the memory limit gets."""
        return f"query stopped at the memory limit of {size_text(self.memory)} ({self._change_memory})"

    def result_message(self) -> str:
        """The line a query whose result would not fit in the memory limit gets."""
        limit = f"the memory limit of {size_text(self.memory)}"
        return f"the result is larger than {limit}: add a LIMIT or aggregate ({self._change_memory})"

    @property
    def _change_memory(self) -> str:
        return f"set {MEMORY_VARIABLE} or scooplab query --memory-limit to change it"


def open_read_only(
    path: str, root: str, limits: QueryLimits, url: str | None = None
) -> duckdb.DuckDBPyConnection:
    """The views database opened read-only, reading only below ``root``, within the limits, locked;
    ``url``: a warehouse on object storage, read through its fsspec filesystem."""
    con = duckdb.connect(path, read_only=True)
    try:
        if url is not None:
            import fsspec

            con.register_filesystem(fsspec.core.url_to_fs(url)[0])
        con.sql("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")
        no_progress_bar(con)
        con.sql(f"SET allowed_directories = [{quote(root + '/')}]")
        con.sql(f"SET memory_limit = '{limits.memory}B'")
        con.sql("SET temp_directory = ''")  # no spilling: over the limit a query stops, not fills the disk
        con.sql("SET enable_external_access = false")
        con.sql("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def check_query(sql: str) -> None:
    """Raise ``QueryError`` unless ``sql`` is one SELECT (or EXPLAIN) statement.

    >>> check_query("SELECT 1; SELECT 2")
    Traceback (most recent call last):
    ...
    analytics.sandbox.QueryError: one query at a time, please (2 statements given)
    >>> check_query("install httpfs")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analytics.sandbox.QueryError: INSTALL httpfs refused: DuckDB extensions cannot be installed ...
    """
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryError(" ".join(str(error).split())) from None
    if len(statements) != 1:
        raise QueryError(f"one query at a time, please ({len(statements)} statements given)")
    kind = statements[0].type
    if kind is duckdb.StatementType.LOAD:  # INSTALL and LOAD alike: named as written
        words = statements[0].query.split()
        verbs = [word.upper() for word in words[:2] if word.upper() in ("FORCE", "INSTALL", "LOAD")]
        written = " ".join([*verbs, *words[len(verbs) : len(verbs) + 1]])  # INSTALL httpfs, FORCE INSTALL x
        raise QueryError(f"{written} refused: DuckDB extensions cannot be installed or loaded here "
                         "(the console is read-only: queries only)")  # fmt: skip
    if kind not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
        raise QueryError(f"only queries are allowed, not {kind.name} statements (the console is read-only)")


def in_own_process(request: dict, limits: QueryLimits) -> bytes:
    """What the query's process wrote: its result. It is killed at the time limit, or when it grows
    past the memory limit plus ``HEADROOM`` (DuckDB stops most queries itself, at its own memory
    limit): so a query DuckDB cannot interrupt, or whose memory it does not count, stops too."""
    root = str(Path(__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    # its own session: Ctrl-C on a terminal reaches only the parent, which kills it; what it would
    # print besides its answer (a crash's traceback) is not the user's to see
    process = subprocess.Popen([sys.executable, "-c", QUERY_PROCESS], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                               env=dict(os.environ, PYTHONPATH=path))  # fmt: skip
    try:
        output, stopped = _watch(process, json.dumps(request).encode(), limits)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if stopped:
        raise QueryError(stopped)
    if process.returncode == REFUSED:  # it said why, on one line
        raise QueryError(output.decode(errors="replace").strip() or "the query failed")
    if process.returncode != 0:  # killed from outside (out of memory) or crashed: its output is not a line
        raise QueryError(f"the query's process ended unexpectedly (exit code {process.returncode})")
    return output


def _watch(process: subprocess.Popen, request: bytes, limits: QueryLimits) -> tuple[bytes, str | None]:
    """The process's standard output once it ends, or why it was killed: the time or the memory limit."""
    deadline = time.monotonic() + limits.seconds
    stopped, sending = None, request
    while True:
        try:
            return process.communicate(sending, timeout=WATCH_SECONDS)[0], stopped
        except subprocess.TimeoutExpired:
            sending = None
        if time.monotonic() >= deadline:
            stopped = limits.time_message()
        elif _resident(process.pid) > limits.memory + HEADROOM:
            stopped = limits.memory_message()
        if stopped:
            process.kill()


def _resident(pid: int) -> int:
    """Bytes of memory a (Linux) process has resident; 0 where ``/proc`` cannot tell."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def query_process() -> None:
    """The query's own process: a request as JSON on standard input; the result as an Arrow IPC
    stream (its row count in the schema's metadata) on standard output, or one line and exit code 3."""
    result = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to standard error, not into the result
    request = json.loads(sys.stdin.buffer.read())
    _die_with(request["parent"], request["seconds"])
    limits = QueryLimits(request["seconds"], request["memory"])
    try:
        table, total = _execute(request, limits)
    except Exception as error:  # one line for the user, never a traceback
        told = str(error) if isinstance(error, QueryError) else f"the query failed: {error!r}"
        result.write(" ".join(told.split()).encode())
        result.close()
        os._exit(REFUSED)
    with pa.ipc.new_stream(result, table.schema.with_metadata({"total": str(total)})) as writer:
        writer.write_table(table)
    result.close()


def _die_with(parent: int, seconds: float) -> None:
    """End this process with its parent (Linux), and in any case a while after the time limit."""
    from ingest.processes import die_with_parent

    die_with_parent(parent)
    signal.alarm(math.ceil(seconds) + 30)  # SIGALRM's default action ends the process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills this
    with suppress(OSError):
        os.nice(5)  # the server (a dashboard) that started it comes first


def _execute(request: dict, limits: QueryLimits) -> tuple[pa.Table, int]:
    """The query's rows (its first ``limit``) and, with ``count``, how many there are in all."""
    limit = request["limit"]
    con = open_read_only(request["path"], request["root"], limits, request.get("url"))
    try:
        relation = con.sql(request["sql"])
        if relation is None:
            raise QueryError("the statement returned no rows (only queries are allowed)")
        table = _fetch(relation if limit is None else relation.limit(limit), limits)
        total = table.num_rows
        if request["count"] and limit is not None and total == limit:
            total = relation.aggregate("count(*)").fetchall()[0][0]
        return table, total
    except (duckdb.OutOfMemoryException, MemoryError):
        raise QueryError(limits.memory_message()) from None
    except duckdb.Error as error:
        raise QueryError(" ".join(str(error).split())) from None
    finally:
        con.close()


def _fetch(relation: duckdb.DuckDBPyRelation, limits: QueryLimits) -> pa.Table:
    """The relation's rows, refused once they hold more bytes than the memory limit."""
    reader = relation.to_arrow_reader(batch_size=10_000)
    batches, size = [], 0
    for batch in reader:
        size += batch.nbytes
        if size > limits.memory:
            raise QueryError(limits.result_message())
        batches.append(batch)
    return pa.Table.from_batches(batches, reader.schema)
