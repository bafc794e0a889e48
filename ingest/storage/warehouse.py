"""The Parquet warehouse: one folder per table, partitioned ``variant=<game>/run=<run_id>/``.

The root is a local folder or any fsspec URL (``s3://bucket/warehouse``,
``memory://wh``), so workers on many machines can write to shared storage.
Every file is written under a temporary name in its final folder and then
renamed, so a reader never sees a half-written file and an interrupted run
leaves at most a ``.tmp-*`` file that readers ignore.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem

from ingest.storage.schema import TABLES, check_version, versioned

DEFAULT_DATA = Path("data/warehouse")
_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")
PARQUET_OPTIONS = {"compression": "zstd", "write_statistics": False}
# columns that are (nearly) unique per row: no dictionary; list columns (showdown-mode seats): plain
# unless a batch names them (its values are few); increasing integers: delta-encoded
UNIQUE_COLUMNS = {"hands": ("hand_id", "hand_index", "hand_no", "phh")}
DELTA_COLUMNS = {"hands": ("hand_index", "hand_no")}


def leaf_path(field: pa.Field) -> str:
    """The Parquet path of a column's values (``seat_hole.list.element`` for a list of strings).

    >>> leaf_path(pa.field("seat_board_won", pa.list_(pa.list_(pa.int64()))))
    'seat_board_won.list.element.list.element'
    """
    path, kind = field.name, field.type
    while pa.types.is_list(kind):
        path, kind = f"{path}.list.element", kind.value_type
    return path


def parquet_options(table: str, dictionary: tuple[str, ...] = ()) -> dict:
    """Writer options of a table: zstd, and encodings that suit its columns.

    ``dictionary`` names list columns to dictionary-encode (a batch whose values are few).

    >>> parquet_options("hands", ("seat_hole",))["use_dictionary"][-1]
    'seat_hole.list.element'
    """
    options = dict(PARQUET_OPTIONS)
    if table in UNIQUE_COLUMNS:
        unique = UNIQUE_COLUMNS[table]
        options["use_dictionary"] = [
            leaf_path(field) for field in TABLES[table]
            if (field.name not in unique and not pa.types.is_list(field.type)) or field.name in dictionary
        ]  # fmt: skip
        options["column_encoding"] = dict.fromkeys(DELTA_COLUMNS.get(table, ()), "DELTA_BINARY_PACKED")
    return options


def check_name(kind: str, value: str) -> str:
    """A partition value safe in a path: letters, digits, dot, dash, underscore."""
    if not _SAFE.match(value) or value in (".", ".."):
        raise ValueError(f"{kind} {value!r} may only use letters, digits, '.', '-' and '_'")
    return value


class Warehouse:
    """A warehouse root: write partitions atomically, list and read what is there."""

    def __init__(self, root: str | Path = DEFAULT_DATA) -> None:
        self.url = str(root)
        self.fs, self.root = fsspec.core.url_to_fs(self.url)
        self.local = isinstance(self.fs, LocalFileSystem)
        self.arrow_fs = (
            pafs.LocalFileSystem() if self.local else pafs.PyFileSystem(pafs.FSSpecHandler(self.fs))
        )

    def __repr__(self) -> str:
        return f"Warehouse({self.url!r})"

    def partition(self, table: str, variant: str, run_id: str) -> str:
        return posixpath.join(
            self.root,
            table,
            f"variant={check_name('variant', variant)}",
            f"run={check_name('run id', run_id)}",
        )

    def path(self, table: str, variant: str, run_id: str, name: str) -> str:
        return posixpath.join(self.partition(table, variant, run_id), f"{name}.parquet")

    def exists(self, table: str, variant: str, run_id: str, name: str) -> bool:
        self._forget_listings()
        return self.fs.exists(self.path(table, variant, run_id, name))

    @contextmanager
    def writer(
        self, table: str, variant: str, run_id: str, name: str | None = None, dictionary: tuple[str, ...] = ()
    ) -> Iterator[pq.ParquetWriter]:
        """A Parquet writer for one file, renamed into place if the block succeeds (``parquet_options``)."""
        folder = self.partition(table, variant, run_id)
        self.fs.makedirs(folder, exist_ok=True)
        final = posixpath.join(folder, f"{name or 'part-' + uuid.uuid4().hex[:12]}.parquet")
        # not ending in .parquet: a reader's glob (``**/*.parquet``) never matches an unfinished file
        temporary = posixpath.join(folder, f".tmp-{uuid.uuid4().hex}.parquet.partial")
        try:
            with pq.ParquetWriter(
                temporary,
                versioned(TABLES[table]),
                filesystem=self.arrow_fs,
                **parquet_options(table, dictionary),
            ) as parquet_writer:
                yield parquet_writer
            self.fs.mv(temporary, final)
        finally:
            if self.fs.exists(temporary):
                self.fs.rm(temporary)

    def write(self, table: str, variant: str, run_id: str, data: pa.Table, name: str | None = None) -> str:
        """Write one Parquet file into a partition: temporary name, then rename."""
        if data.schema != TABLES[table]:
            data = data.cast(TABLES[table])
        with self.writer(table, variant, run_id, name) as parquet_writer:
            parquet_writer.write_table(data)
        return self.path(table, variant, run_id, name) if name else ""

    def remove_temporary(self, variant: str, run_id: str) -> int:
        """Delete the ``.tmp-*`` files an interrupted writer left in a run's partitions."""
        removed = 0
        self._forget_listings()
        for table in TABLES:
            folder = self.partition(table, variant, run_id)
            if not self.fs.exists(folder):
                continue
            for path in self.fs.ls(folder, detail=False):
                if posixpath.basename(path).startswith(".tmp-"):
                    self.fs.rm(path)
                    removed += 1
        return removed

    @contextmanager
    def lease(self, run_id: str) -> Iterator[None]:
        """Hold the run while a writer works on it: ``.leases/<run>.json`` names this host and process.

        A second writer of the same run is refused (a ValueError naming the holder) while the holder
        lives; a lease whose process died on this machine (killed) is taken over. A holder on another
        machine cannot be seen to be alive, so it is refused too: the message names the file to
        remove once that process is known to be gone. On a local folder two writers starting at the
        same moment cannot both take it (the file is created exclusively); on object storage they can.
        """
        path = posixpath.join(self.root, ".leases", f"{check_name('run id', run_id)}.json")
        held = self._lease_of(path)
        if held is not None and holder_alive(held):
            raise ValueError(
                f"run {run_id} is being written by process {held.get('pid')} on {held.get('host')}; "
                f"wait for it to end (or, if that process is gone, remove {path})"
            )
        mine = {"host": socket.gethostname(), "pid": os.getpid(), "since": time.time()}
        self.fs.makedirs(posixpath.dirname(path), exist_ok=True)
        if held is not None:
            self.fs.rm(path)
        try:
            with self.fs.open(path, "xb" if self.local else "wb") as lease:
                lease.write(json.dumps(mine).encode())
        except FileExistsError:
            raise ValueError(
                f"run {run_id} is being written by another process that has just started"
            ) from None
        try:
            yield
        finally:
            if self._lease_of(path) == mine:
                self.fs.rm(path)

    def _lease_of(self, path: str) -> dict | None:
        """A lease's holder, or None if there is none (or it cannot be read: taken over)."""
        try:
            self._forget_listings()
            with self.fs.open(path, "rb") as lease:
                return json.loads(lease.read())
        except (FileNotFoundError, ValueError):
            return None

    def run_partitions(self, run_id: str) -> list[str]:
        """Every partition folder of a run, in any table and game."""
        pattern = f"run={check_name('run id', run_id)}"
        found: list[str] = []
        self._forget_listings()
        for table in TABLES:
            found += self.fs.glob(posixpath.join(self.root, table, "variant=*", pattern))
        return sorted(found)

    def remove_run(self, run_id: str) -> int:
        """Delete every file of a run (an interrupted ingest started again), its hands files first (a
        reader takes a batch's players and actions only beside them); returns how many."""
        removed = 0
        hands = posixpath.join(self.root, "hands") + "/"
        for folder in sorted(self.run_partitions(run_id), key=lambda f: not f.startswith(hands)):
            removed += len(self.fs.find(folder))
            self.fs.rm(folder, recursive=True)
        return removed

    def _forget_listings(self) -> None:
        """Forget what the filesystem remembers of listings: on object storage another process may have
        written since (a stale listing hides its files, or names a file it replaced as missing). All
        of it: forgetting one folder forgets its parents' listings, not its children's."""
        if not self.local:
            self.fs.invalidate_cache()

    def files(self, table: str) -> list[str]:
        """The finished Parquet files of a table (temporary files left out)."""
        self._forget_listings()
        folder = posixpath.join(self.root, table)
        if not self.fs.exists(folder):
            return []
        found = self.fs.find(folder)
        return sorted(
            f for f in found if f.endswith(".parquet") and not posixpath.basename(f).startswith(".")
        )

    def read_one(self, table: str, variant: str, run_id: str, name: str) -> pa.Table | None:
        """One stored file of a table in its documented schema, or None if there is none.

        Reads the file itself (no dataset scan, which would load pandas): for the small tables a
        command reads back, such as a stored solution.
        """
        path = self.path(table, variant, run_id, name)
        self._forget_listings()
        if not self.fs.exists(path):
            return None
        with self.arrow_fs.open_input_file(path) as source:
            file = pq.ParquetFile(source)
            check_version(file.schema_arrow.metadata, path)
            found = file.read().replace_schema_metadata()
        return found if found.schema == TABLES[table] else found.cast(TABLES[table])

    def read(self, table: str, columns: list[str] | None = None, filter_expr=None) -> pa.Table:
        """A table's rows (optionally some columns, or a pyarrow filter), in its documented schema:
        files written before a column was added give it as nulls."""
        files = self.files(table)
        schema = TABLES[table]
        wanted = pa.schema([schema.field(name) for name in (columns or schema.names)])
        if filter_expr is None:  # file by file: no dataset, which would load pandas
            parts = [self._read_file(path, wanted) for path in files]
            empty = pa.table([pa.nulls(0, f.type) for f in wanted], schema=wanted)  # not empty_table: pandas
            return pa.concat_tables(parts) if parts else empty
        import pyarrow.dataset as ds  # loads pandas

        self.check_versions(table)
        dataset = ds.dataset(files, schema=schema, format="parquet", filesystem=self.arrow_fs)
        return dataset.to_table(columns=columns, filter=filter_expr)

    def _read_file(self, path: str, wanted: pa.Schema) -> pa.Table:
        """The ``wanted`` columns of one file, missing ones as nulls, cast to their documented types."""
        with self.arrow_fs.open_input_file(path) as source:
            found = pq.ParquetFile(source)
            check_version(found.schema_arrow.metadata, path)
            present = set(found.schema_arrow.names)
            table = found.read(columns=[name for name in wanted.names if name in present])
        columns = [table.column(f.name).cast(f.type) if f.name in present else pa.nulls(len(table), f.type)
                   for f in wanted]  # fmt: skip
        return pa.table(columns, schema=wanted)

    def check_versions(self, table: str) -> None:
        """Raise NewerSchemaError if a file of the table was written by a newer scooplab."""
        for path in self.files(table):
            with self.arrow_fs.open_input_file(path) as source:
                check_version(pq.read_schema(source).metadata, path)

    def hand_ids(self) -> set[str]:
        """Every hand id a hand read from a file could share (an ingest's duplicates): the ids of every
        hands file but a simulation's shards, whose ids (``<run>:<shard>:<index>``) no content id can
        equal. (Reading those too took a minute and gigabytes over make demo's 34 M hands.)"""
        wanted = pa.schema([TABLES["hands"].field("hand_id")])
        files = [f for f in self.files("hands") if not posixpath.basename(f).startswith("shard-")]
        return {hand_id for path in files for hand_id in self._read_file(path, wanted).column(0).to_pylist()}


def holder_alive(holder: dict) -> bool:
    """Whether the writer ``holder`` names (its ``host`` and ``pid``: a lease's, a temporary file's)
    may still be at work: alive on this machine, or on another."""
    if holder.get("host") != socket.gethostname():
        return True
    try:
        pid = int(holder.get("pid") or 0)
        if pid <= 0:
            return False  # a lease that names no process: taken over
        os.kill(pid, 0)
    except (ProcessLookupError, ValueError, TypeError, OverflowError):
        return False
    except PermissionError:  # alive, another user's
        return True
    return True
