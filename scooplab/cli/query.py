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
    sql: Annotated[str | None, typer.Argument(help="One read-only SQL query over the views.")] = None,
    data: DataFolder = DEFAULT_DATA,
    hand: Annotated[str | None, typer.Option(
        "--hand", help="Instead of SQL: one hand by its id, its seats and its actions, found at once "
        "(the hand-id index; the replayer's look-up)", show_default=False)] = None,
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
    * `scooplab query --hand demo-holdem:3:1234 --format json`
    """
    from analytics.db import run_query
    from analytics.sandbox import QueryError, QueryLimits
    from analytics.tracker import console_views

    existing_warehouse(data)
    if (sql is None) == (hand is None):
        fail("give one SQL query, or --hand and a hand's id")
    if hand is not None:
        _show_hand(data, hand, output)
        return

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


def _show_hand(data: str, hand_id: str, output: TableFormat) -> None:
    """One hand found by its id (``Lab.hand``): as JSON, its row, seats and actions in one object;
    as a table or CSV, the three in turn (CSV: the actions, each with the hand's id)."""
    from scooplab.lab import Lab

    hand, seats, actions = Lab(data).hand(hand_id)
    if hand is None:
        fail(f"no hand {hand_id!r} in {data} (ids are in the hands table: hand_id)")
    if output is TableFormat.json:
        typer.echo(json.dumps({"hand": hand, "players": seats.to_dicts(), "actions": actions.to_dicts()},
                              default=str))  # fmt: skip
        return
    if output is TableFormat.csv:
        write_rows([{"hand_id": hand_id} | row for row in actions.to_dicts()], output)
        return
    shown = {key: value for key, value in hand.items() if value is not None and not key.startswith("seat_")}
    write_rows([{"column": key, "value": str(value)} for key, value in shown.items()], output, title="hand")
    write_rows(seats.to_dicts(), output, title="players", fit=tuple(seats.columns[6:]))
    write_rows(actions.to_dicts(), output, title="actions")


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
