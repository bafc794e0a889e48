"""``scooplab query``: one read-only SQL query over the warehouse views, in a sandbox of its own."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from scooplab.cli.common import existing_warehouse, fail
from scooplab.cli.options import DEFAULT_DATA, DataFolder, RowsFormat, TableFormat
from scooplab.cli.output import write_rows


def query_command(
    sql: Annotated[str, typer.Argument(help="One read-only SQL query over the views.")],
    data: DataFolder = DEFAULT_DATA,
    output: RowsFormat = TableFormat.table,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many rows in a table.")] = 200,
    timeout: Annotated[float | None, typer.Option(
        "--timeout", help="Cancel the query after this many seconds [default: $SCOOPLAB_QUERY_TIMEOUT or 60]",
        show_default=False)] = None,
    memory_limit: Annotated[str | None, typer.Option(
        "--memory-limit", help="Stop the query past this much memory, such as 500MB "
        "[default: $SCOOPLAB_QUERY_MEMORY or 2GB]", show_default=False)] = None,
) -> None:  # fmt: skip
    """Read-only SQL over the warehouse views (hands, players, actions, runs, rejects, ...).

    The connection cannot write, attach databases, COPY out or read files outside the
    warehouse: such a query gets a one-line error and exit code 2. So does a query stopped
    at its time limit (60 s) or memory limit (2 GB): it runs in a process of its own.

    Examples:

    * `scooplab query "SELECT variant, count(*) FROM hands GROUP BY variant"`
    * `scooplab query "SELECT high_category, count(*) FROM players WHERE showdown GROUP BY 1" --format csv`
    * `scooplab query "SELECT * FROM players" --format csv --timeout 300 --memory-limit 8GB > players.csv`
    """
    from analytics.db import run_query
    from analytics.sandbox import QueryError, QueryLimits
    from analytics.tracker import console_views

    existing_warehouse(data)

    try:
        limits = QueryLimits.of(timeout, memory_limit)
        table = run_query(data, sql, limit=limit if output is TableFormat.table else None, limits=limits,
                          views=console_views(data))  # fmt: skip
    except QueryError as error:
        fail(str(error))
    if output is TableFormat.table:
        write_rows(table.to_pylist(), output)
        return
    batches = (batch.to_pylist() for batch in table.to_batches(max_chunksize=10_000))
    _write_query_rows(table.column_names, batches, output)


def _write_query_rows(columns: list[str], batches: Iterator[list[dict]], output: TableFormat) -> None:
    """A query's rows as JSON or CSV as ``write_rows`` writes them (a CSV header even without rows),
    a batch at a time: a large result is never all Python objects at once."""
    import csv

    if output is TableFormat.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=columns)
        writer.writeheader()
        for rows in batches:
            writer.writerows(rows)
        return
    sys.stdout.write("[")
    for number, rows in enumerate(r for r in batches if r):
        sys.stdout.write((", " if number else "") + json.dumps(rows, default=str)[1:-1])
    sys.stdout.write("]\n")
