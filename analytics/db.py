"""A DuckDB connection over the warehouse: raw tables, then the views in ``analytics/views``.

``connect(data)`` opens an in-memory DuckDB database whose ``<table>_raw`` views
read the warehouse's Parquet files (the finished ones: temporary files are
left out) and whose named views, one ``.sql`` file each, build on them.

>>> con = connect("/nonexistent-warehouse")
>>> con.sql("SELECT count(*) FROM players").fetchall()
[(0,)]
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from analytics import resources
from analytics.population import Population
from analytics.sandbox import (
    QueryError,
    QueryLimits,
    check_query,
    in_own_process,
    open_read_only,
)
from analytics.sandbox import quote as _quote
from ingest.storage.schema import SEAT_LAYOUT, TABLES, NewerSchemaError
from ingest.storage.warehouse import Warehouse

VIEWS_DIR = Path(__file__).parent / "views"
BESIDE_HANDS = ("players", "actions", "summaries")
# creation order: each view only reads raw tables and views created before it
VIEW_ORDER = (
    "hands", "seat_players", "players", "stack_chain", "cash_outs", "seat_actions", "actions", "runs",
    "rejects", "showdown_seats",
    "wide_hand_outcomes", "hand_outcomes", "player_stats", "tracker_lines",
    "tracker_reached", "tracker_seats", "discard_seat_fates",
    "starting_hands", "pushfold", "pushfold_summary", "pushfold_chart",
)  # fmt: skip


def variants_table() -> pa.Table:
    """What each game has, from its description: the ``variants`` view the other views join.

    ``deck_cards`` is the deck's card texts in id order (two characters a card), ``ranks``
    its ranks low to high, ``categories`` the ranking's category names weakest first,
    ``points`` the low points of each rank (a low-points share), ``draw_streets`` the streets with a
    draw (in order), and the concepts as flags
    (``low_half``: a share goes to a low, points or a low hand, so high and low chips are apart).
    """
    from engine.hands.rankings import RANKINGS
    from engine.rules.games import GAMES

    rows = []
    for game in GAMES.values():
        points = next((list(s.points) for s in game.shares if s.points), None)
        rows.append({
            "variant": game.name, "title": game.title,
            "deck_cards": "".join(game.deck.card_text(c) for c in range(game.deck.size)),
            "ranks": game.deck.ranks, "categories": list(RANKINGS[game.ranking].categories),
            "streets": [s.name for s in game.streets], "n_boards": len(game.boards),
            "n_hole": sum(s.hole_cards for s in game.streets),
            "discard_board": game.discard_board is not None, "low_share": game.low_share,
            "low_half": game.low_half,
            "board_shares": game.board_shares, "kill": game.kill is not None, "points": points,
            "first_bet_street": next((s.name for s in game.streets if s.betting), None),
            "first_raise_street": next((s.name for s in game.streets if s.betting and not s.call_only), None),
            "first_board_street": next((i for i, s in enumerate(game.streets) if s.board_cards), None),
            "draw_streets": [s.name for s in game.streets if s.draw],
        })  # fmt: skip
    schema = pa.schema([
        ("variant", pa.string()), ("title", pa.string()), ("deck_cards", pa.string()), ("ranks", pa.string()),
        ("categories", pa.list_(pa.string())), ("streets", pa.list_(pa.string())), ("n_boards", pa.int8()),
        ("n_hole", pa.int8()), ("discard_board", pa.bool_()), ("low_share", pa.bool_()),
        ("low_half", pa.bool_()),
        ("board_shares", pa.bool_()), ("kill", pa.bool_()), ("points", pa.list_(pa.int8())),
        ("first_bet_street", pa.string()), ("first_raise_street", pa.string()),
        ("first_board_street", pa.int8()),
        ("draw_streets", pa.list_(pa.string())),
    ])  # fmt: skip
    return pa.Table.from_pylist(rows, schema=schema)


def _create_variants(con: duckdb.DuckDBPyConnection) -> None:
    """The ``variants`` table, stored in the database (so a read-only copy keeps it)."""
    con.register("variants_arrow", variants_table())
    con.sql("CREATE TABLE variants AS SELECT * FROM variants_arrow")
    con.unregister("variants_arrow")


def view_sql(name: str) -> str:
    """The SQL of a named view."""
    return (VIEWS_DIR / f"{name}.sql").read_text()


def duckdb_type(arrow_type: pa.DataType) -> str:
    """The DuckDB type of an Arrow type used in the warehouse schemas."""
    if pa.types.is_list(arrow_type):
        return duckdb_type(arrow_type.value_type) + "[]"
    if pa.types.is_struct(arrow_type):
        return "STRUCT(" + ", ".join(f"{f.name} {duckdb_type(f.type)}" for f in arrow_type) + ")"
    if pa.types.is_timestamp(arrow_type):
        return "TIMESTAMPTZ" if arrow_type.tz else "TIMESTAMP"
    names = {
        pa.string(): "VARCHAR", pa.bool_(): "BOOLEAN", pa.int8(): "TINYINT", pa.int16(): "SMALLINT",
        pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.float64(): "DOUBLE", pa.date32(): "DATE",
        pa.time64("us"): "TIME",
    }  # fmt: skip
    return names[arrow_type]


def _empty_select(schema: pa.Schema) -> str:
    columns = ", ".join(f"CAST(NULL AS {duckdb_type(f.type)}) AS {f.name}" for f in schema)
    return f"SELECT {columns} WHERE false"


def _in(path: str, variants: list[str] | None) -> bool:
    return variants is None or any(f"/variant={v}/" in path for v in variants)


def _files_source(files: list[str], prefix: str, schema: pa.Schema | None = None,
                  relative_to: str | None = None) -> str:  # fmt: skip
    """The rows of Parquet files; with ``schema``, every column of it (files written before a column was
    added read it as null); with ``relative_to`` the (local) files named relative to that folder."""
    if relative_to is not None:
        files = [os.path.relpath(f, relative_to) for f in files]
    listed = ", ".join(_quote(f if "://" in f else prefix + f) for f in files)
    source = f"SELECT * FROM read_parquet([{listed}], union_by_name = true, hive_partitioning = false)"
    return source if schema is None else f"{source} UNION ALL BY NAME {_empty_select(schema)}"


def _of_population(source: str, table: str, population: Population | None) -> str:
    """A raw table's rows limited to one population's hands (hands first, the others by hand id)."""
    if population is None or table not in ("hands", "players", "actions"):
        return source
    if table == "hands":
        return f"SELECT * FROM ({source}) WHERE {population.hands_filter}"
    return f"SELECT * FROM ({source}) WHERE hand_id IN (SELECT hand_id FROM hands_raw)"


# each view is bound over its files as it is made: without this every view reads the footers of
# every file again (80 views, 0.85 s over make demo's 300 files; 0.33 s with it). A file written again
# is read again (DuckDB checks its time of change).
FOOTERS_READ_ONCE = "SET parquet_metadata_cache = true"

_TOLD: set[tuple[str, str]] = set()  # (warehouse, run) already named in a message


def older_layout_runs(con: duckdb.DuckDBPyConnection, runs_files: list[str], prefix: str) -> list[str]:
    """Showdown-mode simulation runs whose seat lists are of an older layout (card codes, bit masks)."""
    if not runs_files:
        return []
    source = _files_source(runs_files, prefix, TABLES["runs"])
    rows = con.sql(
        f"SELECT DISTINCT run_id FROM ({source}) WHERE kind = 'simulation' "
        f"AND mode = 'showdown' AND coalesce(TRY_CAST(json_extract(details, '$.seat_layout') AS INTEGER), 0) "
        f"<> {SEAT_LAYOUT} ORDER BY run_id"
    ).fetchall()
    return [run for (run,) in rows]


def _leave_out_older_layouts(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, prefix: str
) -> tuple[str, ...]:
    """Path parts of the runs the views leave out for their older layout; says so once per run."""
    warehouse.check_versions("runs")  # each run's files are of its runs row's version
    old = older_layout_runs(con, warehouse.files("runs"), prefix)
    new = [run for run in old if (warehouse.url, run) not in _TOLD]
    if new:
        _TOLD.update((warehouse.url, run) for run in new)
        sys.stderr.write(
            f"scooplab: left out {len(new)} showdown-mode run(s) stored in an older layout by an earlier "
            f"scooplab ({', '.join(new[:3])}{', ...' if len(new) > 3 else ''}): `scooplab upgrade` "
            "simulates them again from their seeds and settings\n"
        )
    return tuple(f"/run={run}/" for run in old)


def _protocol(warehouse: Warehouse) -> str:
    """The URL scheme of a warehouse on object storage (``s3``)."""
    protocol = warehouse.fs.protocol
    return protocol[0] if isinstance(protocol, tuple) else protocol


def create_views(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    variants: list[str] | None = None,
    skip_runs: list[str] | None = None,
    tables: tuple[str, ...] | None = None,
    only_paths: list[str] | None = None,
    population: Population | None = None,
    relative_to: str | None = None,
    only_hand: str | None = None,
) -> None:
    """Create the raw views over the warehouse files (of some games only, if given), then every named view.

    With ``population`` the hands (and their players and actions) are only those of that population.
    With ``relative_to`` (a local folder) the views name the files relative to it. With ``only_hand``
    the hands, players and actions are those of that one hand (every view then computes one hand).
    """
    skipped = tuple(f"/run={run}/" for run in skip_runs or ())
    wanted = tuple(only_paths) if only_paths is not None else None
    prefix = ""
    if not warehouse.local:
        con.register_filesystem(warehouse.fs)
        prefix = f"{_protocol(warehouse)}://"
    older = _leave_out_older_layouts(con, warehouse, prefix)
    listed = {table: warehouse.files(table) for table in TABLES if tables is None or table in tables}
    for table in listed:  # every table, runs included: statistics and comparisons never see them
        if older:
            listed[table] = [f for f in listed[table] if not any(part in f for part in older)]
    if "hands" not in listed and any(table in listed for table in BESIDE_HANDS):
        listed["hands"] = warehouse.files("hands")
    hands_files = set(listed.get("hands", ()))
    for table, schema in TABLES.items():
        if table not in listed or (tables is not None and table not in tables):
            continue
        files = listed[table]
        if table in BESIDE_HANDS:  # only files whose hands file was written (the last of a batch)
            files = [f for f in files if f.replace(f"/{table}/", "/hands/", 1) in hands_files]
        if skipped and table in ("hands", "players", "actions"):
            if table == "hands" and tables is None:  # the summarized runs' hands stay readable for sampling
                kept = [f for f in files if any(s in f for s in skipped) and _in(f, variants)]
                source = _files_source(kept, prefix, schema, relative_to) if kept else _empty_select(schema)
                con.sql(f"CREATE VIEW summarized_hands_raw AS {_of_population(source, table, population)}")
            files = [f for f in files if not any(s in f for s in skipped)]
        files = [f for f in files if _in(f, variants)]
        if wanted is not None and table != "runs":
            files = [f for f in files if any(w in f for w in wanted)]
        source = _files_source(files, prefix, schema, relative_to) if files else _empty_select(schema)
        if only_hand is not None and table in ("hands", "players", "actions"):
            quoted = "'" + only_hand.replace("'", "''") + "'"
            source = f"SELECT * FROM ({source}) WHERE hand_id = {quoted}"
        con.sql(f"CREATE VIEW {table}_raw AS {_of_population(source, table, population)}")
    if tables is not None:
        return
    if not skipped:
        con.sql(f"CREATE VIEW summarized_hands_raw AS {_empty_select(TABLES['hands'])}")
    _create_variants(con)
    con.sql(view_sql("macros"))
    for name in VIEW_ORDER:
        con.sql(f"CREATE VIEW {name} AS {view_sql(name)}")


def connect(
    data: str | Path,
    variants: list[str] | None = None,
    skip_runs: list[str] | None = None,
    tables: tuple[str, ...] | None = None,
    only_paths: list[str] | None = None,
    population: Population | None = None,
    only_hand: str | None = None,
) -> duckdb.DuckDBPyConnection:
    """A connection with every view of the warehouse at ``data`` (a folder or fsspec URL).

    With ``variants`` the views only read those games' partitions; ``skip_runs`` leaves those
    runs' hands, players and actions out (statistics count them from their summaries);
    ``tables`` creates only those raw views (no named views, no ``summarized_hands_raw``);
    ``only_paths`` reads only the files whose path contains one of these texts (looking one hand
    up in its file is quick);
    ``population`` keeps only that population's hands (``analytics.population``); ``only_hand``
    only that hand (with ``only_paths`` naming its file, the replayer's look-up of one hand).
    """
    con = resources.connect()  # a memory limit and a capped temporary folder of its own
    con.sql("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")
    con.sql(FOOTERS_READ_ONCE)
    create_views(
        con, Warehouse(data), variants, skip_runs, tables, only_paths, population, only_hand=only_hand
    )
    return con


@contextmanager
def read_only(data: str | Path, limits: QueryLimits | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection for untrusted SQL: the views, and nothing else.

    The views are saved in a temporary database file, which is opened again read-only;
    then external access is turned off except for the warehouse folder, DuckDB's memory is
    capped at the memory limit (``limits``, else ``QueryLimits.of()``: the environment or the
    defaults) with spilling to disk off, and the configuration is locked. So a query cannot
    write, attach a database, COPY out, read a file outside the warehouse, or raise its limit.
    """
    limits = limits or QueryLimits.of()
    with _views_database(data) as (path, root, url):
        con = open_read_only(path, root, limits, url)
        try:
            yield con
        finally:
            con.close()


@contextmanager
def _views_database(data: str | Path, views: dict[str, str] | None = None
                    ) -> Iterator[tuple[str, str, str | None]]:  # fmt: skip
    """A temporary database file holding the views (and ``views``: more, by name and SELECT), the
    warehouse folder they read (a URL's prefix on object storage) and, on object storage, the
    warehouse's URL (None for a local folder)."""
    warehouse = Warehouse(data)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "views.duckdb")
        builder = resources.connect(path)
        try:
            builder.sql("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")
            builder.sql(FOOTERS_READ_ONCE)
            create_views(builder, warehouse)
            for name, select in (views or {}).items():
                builder.sql(f"CREATE VIEW {name} AS {select}")
        finally:
            builder.close()
        if warehouse.local:
            yield path, str(Path(warehouse.root).resolve()), None
        else:
            yield path, f"{_protocol(warehouse)}://{warehouse.root}", warehouse.url


def run_query(
    data: str | Path,
    sql: str,
    limit: int | None = None,
    limits: QueryLimits | None = None,
    views: dict[str, str] | None = None,
) -> pa.Table:
    """Run untrusted read-only SQL over the views; errors become ``QueryError`` (one line).

    Only one SELECT (or EXPLAIN) statement is accepted: nothing that copies, creates,
    attaches or sets anything, even inside the warehouse folder. The query runs in a process
    of its own, stopped at the time and memory limits (``limits``, else ``QueryLimits.of()``).
    ``views``: more views beside the warehouse's, by name and SELECT (the console's
    ``player_totals``: ``analytics.tracker.console_views``).
    """
    return _run(data, sql, limit, False, limits, views)[0]


def run_query_page(
    data: str | Path,
    sql: str,
    limit: int,
    limits: QueryLimits | None = None,
    views: dict[str, str] | None = None,
) -> tuple[pa.Table, int]:
    """``run_query`` cut at ``limit`` rows, and how many rows the whole result has."""
    return _run(data, sql, limit, True, limits, views)


def _run(
    data: str | Path,
    sql: str,
    limit: int | None,
    count: bool,
    limits: QueryLimits | None,
    views: dict[str, str] | None = None,
) -> tuple[pa.Table, int]:
    """Build the views here, run the checked query over them in a process of its own
    (``analytics.sandbox.query_process``)."""
    check_query(sql)
    limits = limits or QueryLimits.of()
    try:
        with _views_database(data, views) as (path, root, url):
            if url is not None and url.startswith("memory://"):
                raise QueryError("a memory:// warehouse lives in this process alone, not in the query's own: "
                                 "use scooplab.open(...).sql for it")  # fmt: skip
            request = {"path": path, "root": root, "url": url, "sql": sql, "limit": limit, "count": count,
                       "parent": os.getpid(), "seconds": limits.seconds, "memory": limits.memory}  # fmt: skip
            output = in_own_process(request, limits)
    except (duckdb.Error, OSError, NewerSchemaError) as error:
        raise QueryError(" ".join(str(error).split())) from None
    try:
        table = pa.ipc.open_stream(pa.py_buffer(output)).read_all()
        return table.replace_schema_metadata(None), int(table.schema.metadata[b"total"])
    except (pa.ArrowException, KeyError, TypeError, ValueError):
        raise QueryError("the query's process sent back a result that cannot be read") from None
