"""The Parquet warehouse: one folder per table, partitioned ``variant=<game>/run=<run_id>/``.

Every file is written under a temporary name in its final folder and then
renamed, so a reader never sees a half-written file and an interrupted run
leaves at most a ``.tmp-*`` file that readers ignore.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from ingest.schema import TABLES

DEFAULT_DATA = Path("data/warehouse")
_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def check_name(kind: str, value: str) -> str:
    """A partition value safe in a path: letters, digits, dot, dash, underscore."""
    if not _SAFE.match(value) or value in (".", ".."):
        raise ValueError(f"{kind} {value!r} may only use letters, digits, '.', '-' and '_'")
    return value


class Warehouse:
    """A warehouse folder: write partitions atomically, read what is there."""

    def __init__(self, root: str | Path = DEFAULT_DATA) -> None:
        self.root = Path(root)

    def partition(self, table: str, variant: str, run_id: str) -> Path:
        return (
            self.root
            / table
            / f"variant={check_name('variant', variant)}"
            / f"run={check_name('run id', run_id)}"
        )

    def write(self, table: str, variant: str, run_id: str, data: pa.Table, name: str | None = None) -> Path:
        """Write one Parquet file into a partition: temporary name, then rename."""
        if data.schema != TABLES[table]:
            data = data.cast(TABLES[table])
        folder = self.partition(table, variant, run_id)
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / f"{name or 'part-' + uuid.uuid4().hex[:12]}.parquet"
        temporary = folder / f".tmp-{uuid.uuid4().hex}.parquet"
        try:
            pq.write_table(data, temporary, compression="zstd")
            os.replace(temporary, final)
        finally:
            if temporary.exists():
                temporary.unlink()
        return final

    def files(self, table: str) -> list[Path]:
        """The finished Parquet files of a table (temporary files left out)."""
        folder = self.root / table
        if not folder.exists():
            return []
        return sorted(p for p in folder.rglob("*.parquet") if not p.name.startswith("."))

    def read(self, table: str, columns: list[str] | None = None, filter_expr=None) -> pa.Table:
        """A table's rows (optionally some columns, or a pyarrow filter)."""
        files = self.files(table)
        if not files:
            return TABLES[table].empty_table().select(columns) if columns else TABLES[table].empty_table()
        dataset = ds.dataset(files, schema=TABLES[table], format="parquet")
        return dataset.to_table(columns=columns, filter=filter_expr)

    def hand_ids(self) -> set[str]:
        """Every hand id already stored."""
        return set(self.read("hands", ["hand_id"]).column("hand_id").to_pylist())
