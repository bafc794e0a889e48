"""A DuckDB connection over the warehouse: raw tables, then the views in ``analytics/views``.

``connect(data)`` opens an in-memory DuckDB database whose ``<table>_raw`` views
read the warehouse's Parquet files (the finished ones: temporary files are
left out) and whose named views, one ``.sql`` file each, build on them.

>>> con = connect("/nonexistent-warehouse")
>>> con.sql("SELECT count(*) FROM players").fetchall()
[(0,)]
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from ingest.schema import TABLES
from ingest.warehouse import Warehouse

VIEWS_DIR = Path(__file__).parent / "views"
# creation order: each view only reads raw tables and views created before it
VIEW_ORDER = (
    "hands", "seat_players", "players", "seat_actions", "actions", "runs", "rejects", "showdown_seats",
    "hand_outcomes",
)  # fmt: skip


def view_sql(name: str) -> str:
    """The SQL of a named view."""
    return (VIEWS_DIR / f"{name}.sql").read_text()


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def connect(data: str | Path) -> duckdb.DuckDBPyConnection:
    """A connection with every view of the warehouse at ``data`` (a folder or fsspec URL)."""
    warehouse = Warehouse(data)
    con = duckdb.connect()
    con.sql("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")
    prefix = ""
    if not warehouse.local:
        con.register_filesystem(warehouse.fs)
        prefix = f"{warehouse.fs.protocol[0] if isinstance(warehouse.fs.protocol, tuple) else warehouse.fs.protocol}://"
    for table, schema in TABLES.items():
        files = warehouse.files(table)
        if files:
            listed = ", ".join(_quote(prefix + f if prefix and "://" not in f else f) for f in files)
            source = f"read_parquet([{listed}], union_by_name = true, hive_partitioning = false)"
        else:
            con.register(f"{table}_empty", schema.empty_table())
            source = f"{table}_empty"
        con.sql(f"CREATE VIEW {table}_raw AS SELECT * FROM {source}")
    for name in VIEW_ORDER:
        con.sql(f"CREATE VIEW {name} AS {view_sql(name)}")
    return con
