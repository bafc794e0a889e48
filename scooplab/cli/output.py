"""How the commands write: the console, rows as a table, JSON lines or CSV on standard output, and
progress bars on standard error (on a terminal only)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scooplab.cli.options import TableFormat

console = Console(width=None if sys.stdout.isatty() else 140)


def write_rows(rows: list[dict], output: TableFormat, title: str = "") -> None:
    """Rows as a rich table, JSON lines or CSV on standard output."""
    if output is TableFormat.json:
        typer.echo(json.dumps(rows, default=str))
        return
    if output is TableFormat.csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)
        return
    cells = [[cell(v) for v in row.values()] for row in rows]
    columns = list(rows[0]) if rows else []
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    if sum(w + 3 for w in widths) > console.width:
        _write_records(columns, cells, title)
        return
    table = Table(title=title or None, expand=False)
    for column in columns:
        table.add_column(column, justify="left" if column == "statistic" else "right")
    for row in cells:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)


def _write_records(columns: list[str], cells: list[list[str]], title: str) -> None:
    """A result too wide for the terminal: one row at a time, a column a line."""
    if title:
        console.print(f"[bold]{escape(title)}[/]")
    width = max(map(len, columns))
    for number, row in enumerate(cells, 1):
        console.print(f"[dim]-- row {number} --[/]")
        for column, cell in zip(columns, row, strict=True):
            console.print(f"{column:<{width}}  {escape(cell)}", soft_wrap=True)
    typer.echo("(too wide for the terminal: one row at a time; --format csv or json for files)", err=True)


def cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


@contextmanager
def progress_bar(label: str, total: int | None = None, unit: str = "hands",
                 known_later: bool = False) -> Iterator[Callable[..., None]]:  # fmt: skip
    """A progress bar (``unit``, per second, time left) on a terminal; nothing when not a terminal.

    ``known_later``: the total comes with the first ``advance(count, total=...)``.
    """
    if not sys.stderr.isatty():
        yield lambda count=1, total=None: None
        return
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: list = [SpinnerColumn(), TextColumn(f"{{task.description}} {{task.completed:,}} {unit}")]
    if total is not None or known_later:
        columns += [BarColumn(), TaskProgressColumn(), TimeRemainingColumn()]
    columns += [TextColumn("[cyan]{task.fields[rate]}"), TimeElapsedColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total, rate="")

        def advance(count: int = 1, total: int | None = None) -> None:
            if total is not None:
                progress.update(task, total=total)
            progress.advance(task, count)
            speed = progress.tasks[task].speed
            if speed:
                progress.update(task, rate=f"{speed:,.0f} {unit}/s")

        yield advance


@contextmanager
def progress_of(label: str, unit: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar fed as the engine reports its work: ``progress(done so far, total)``."""
    done = [0]
    with progress_bar(label, unit=unit, known_later=True) as advance:

        def progress(count: int, total: int) -> None:
            advance(count - done[0], total=total)
            done[0] = count

        yield progress
