"""The warehouse for other tools: a DuckDB database of its views, a copy of chosen runs, a CSV table.

Every output is written under a temporary name beside it and renamed when complete
(``docs/python-api.md``, "Without scooplab").
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from analytics import resources
from analytics.db import connect, create_views
from ingest.storage.schema import TABLES
from ingest.storage.warehouse import Warehouse

CSV_TABLES = ("hands", "players", "actions", "runs", "rejects")


def export_duckdb(data: str | Path, out: str | Path, relative: bool = False) -> int:
    """A DuckDB database file whose views read the local warehouse's Parquet files: every view
    ``scooplab query`` has. Files are named by absolute path, or with ``relative`` relative to
    the database file's folder (start DuckDB there). It lists the files of today: export again
    after new runs. Returns the number of views.
    """
    warehouse = Warehouse(data)
    if not warehouse.local:
        raise ValueError("a DuckDB export needs a local warehouse folder (copy runs with --format parquet)")
    out = Path(out).resolve()
    with _written(out) as temporary, resources.connect(str(temporary)) as con:
        con.sql("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")
        if relative:  # the views are checked as they are made: find the files from the database's folder
            folder = str(out.parent).replace("'", "''")
            con.sql(f"SET file_search_path = '{folder}'")
        create_views(con, warehouse, relative_to=str(out.parent) if relative else None)
        views = con.sql("SELECT count(*) FROM duckdb_views() WHERE NOT internal").fetchall()[0][0]
    return views


def export_parquet(data: str | Path, out: str | Path, runs: list[str], variant: str | None = None) -> int:
    """Copy the files of some runs (of every table, in the same layout) into the local warehouse
    folder ``out``, which scooplab and any Parquet reader then read as a warehouse: each file
    atomically, a hands file after its players and actions, the runs rows last. Returns files copied."""
    if "://" in str(out):
        raise ValueError(f"--out {out}: a local folder (copy to object storage with its own tools)")
    source, target = Warehouse(data), Path(out)
    wanted = [f"/run={run}/" for run in runs]
    found = {run for run in runs for table in ("runs", "hands") for path in source.files(table)
             if f"/run={run}/" in path and (not variant or f"/variant={variant}/" in path)}  # fmt: skip
    missing = [run for run in runs if run not in found]
    if missing:
        raise ValueError(f"no run {', '.join(missing)}{f' of {variant}' if variant else ''} in {data}")
    copied = 0
    for table in [t for t in TABLES if t not in ("hands", "runs")] + ["hands", "runs"]:
        for path in source.files(table):
            if not any(w in path for w in wanted) or (variant and f"/variant={variant}/" not in path):
                continue
            destination = target / _after(path, table)
            with _written(destination) as temporary, source.fs.open(path, "rb") as reader, \
                    open(temporary, "wb") as writer:  # fmt: skip
                shutil.copyfileobj(reader, writer, 1 << 20)
            copied += 1
    return copied


def export_csv(data: str | Path, table: str, out: str | Path, variant: str | None = None,
               runs: list[str] | None = None) -> int:  # fmt: skip
    """One view (``hands``, ``players``, ``actions``, ``runs``, ``rejects``) as CSV with a header,
    of a game and runs if given; lists are written as DuckDB writes them (``[a, b]``). Returns rows."""
    if table not in CSV_TABLES:
        raise ValueError(f"--table must be one of {', '.join(CSV_TABLES)}, not {table!r}")
    paths = [f"/run={run}/" for run in runs] if runs else None
    listed = ", ".join("'" + run.replace("'", "''") + "'" for run in runs or ())
    where = f" WHERE run_id IN ({listed})" if runs and table == "runs" else ""  # runs: read whole
    with _written(Path(out).resolve()) as temporary, \
            connect(data, [variant] if variant else None, only_paths=paths) as con:  # fmt: skip
        quoted = str(temporary).replace("'", "''")
        query = f"COPY (SELECT * FROM {table}{where}) TO '{quoted}' (FORMAT csv, HEADER)"
        rows = con.sql(query).fetchall()[0][0]
    return rows


@contextmanager
def _written(out: Path) -> Iterator[Path]:
    """A temporary path beside ``out`` (hidden, not ``*.parquet``) to write, renamed to ``out`` when
    the block succeeds and removed (with a DuckDB write-ahead log) whatever happens; a DuckDB
    error becomes a ValueError of one line."""
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".tmp-{uuid.uuid4().hex}-{out.name}.partial")
    try:
        yield temporary
        os.replace(temporary, out)
    except duckdb.Error as error:
        raise ValueError(" ".join(str(error).split())) from None
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + ".wal")):
            leftover.unlink(missing_ok=True)


def _after(path: str, table: str) -> str:
    """A file's path from its table folder on (``hands/variant=x/run=y/part.parquet``)."""
    return path[path.rindex(f"/{table}/") + 1 :]
