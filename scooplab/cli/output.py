"""How the commands write: the console, rows as a table, JSON lines or CSV on standard output, and
progress bars on standard error (on a terminal only)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scooplab.cli.options import TableFormat

console = Console(width=None if sys.stdout.isatty() else 140)


def write_rows(rows: list[dict], output: TableFormat, title: str = "", fit: tuple[str, ...] = ()) -> None:
    """Rows as a rich table, JSON lines or CSV on standard output.

    A table wider than the terminal is shown one row at a time; with ``fit``, it stays a table:
    the columns ``fit`` names are left out, in its order, until it fits (said on standard error),
    and rich folds what still does not.
    """
    if output is TableFormat.json:
        typer.echo(json.dumps(rows, default=str))
        return
    if output is TableFormat.csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)
        return
    left_out = _left_out(rows, fit)
    columns = [c for c in (rows[0] if rows else []) if c not in left_out]
    cells = [[cell(row[c]) for c in columns] for row in rows]
    if not fit and _width(columns, cells) > console.width:
        _write_records(columns, cells, title)
        return
    table = Table(title=title or None, expand=False)
    for column in columns:
        table.add_column(column, justify="left" if column == "statistic" else "right")
    for row in cells:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)


def _width(columns: list[str], cells: list[list[str]]) -> int:
    """The characters a table of these cells takes (each column its widest cell and a border)."""
    return sum(max([len(c)] + [len(r[i]) for r in cells]) + 3 for i, c in enumerate(columns))


def _left_out(rows: list[dict], fit: tuple[str, ...]) -> list[str]:
    """The columns of ``fit`` left out, in its order, until the others fit the terminal (said)."""
    columns, left_out = list(rows[0]) if rows else [], []
    for name in (f for f in fit if f in columns):
        if _width(columns, [[cell(row[c]) for c in columns] for row in rows]) <= console.width:
            break
        columns.remove(name)
        left_out.append(name)
    if left_out:
        typer.echo(f"(narrow terminal: {', '.join(left_out)} left out; --format csv or json has every "
                   "column)", err=True)  # fmt: skip
    return left_out


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
def progress_bar(label: str, total: int | None = None, unit: str = "hands", known_later: bool = False,
                 plain_every: float | None = None) -> Iterator[Callable[..., None]]:  # fmt: skip
    """A progress bar (``unit``, per second, time left) on a terminal; nothing when not a terminal,
    or with ``plain_every``, a plain line on standard error that many seconds apart (``plain_lines``).

    ``known_later``: the total comes with the first ``advance(count, total=...)``; ``advance(...,
    note=...)`` shows a note beside the count (files read, say).
    """
    if not sys.stderr.isatty():
        if plain_every is None:
            yield lambda count=1, total=None, note=None: None
        else:
            with plain_lines(label, unit, plain_every, total) as advance:
                yield advance
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
    columns += [TextColumn("{task.fields[note]}"), TextColumn("[cyan]{task.fields[rate]}")]
    columns += [TimeElapsedColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total, rate="", note="")

        def advance(count: int = 1, total: int | None = None, note: str | None = None) -> None:
            if total is not None:
                progress.update(task, total=total)
            if note is not None:
                progress.update(task, note=note)
            progress.advance(task, count)
            speed = progress.tasks[task].speed
            if speed:
                progress.update(task, rate=f"{speed:,.0f} {unit}/s")

        yield advance


@contextmanager
def plain_lines(label: str, unit: str, every: float, total: int | None = None
                ) -> Iterator[Callable[..., None]]:  # fmt: skip
    """Progress as plain lines on standard error (for logs, not a terminal): ``label: count [of
    total] unit, note``, at most one every ``every`` seconds as ``advance`` is called, and the last
    at the end when any was written (unless it said that already)."""
    state = {"done": 0, "total": total, "note": "", "said": "", "last": time.monotonic()}

    def line() -> str:
        of = f" of {state['total']:,}" if state["total"] is not None else ""
        note = f", {state['note']}" if state["note"] else ""
        return f"{label}: {state['done']:,}{of} {unit}{note}"

    def advance(count: int = 1, total: int | None = None, note: str | None = None) -> None:
        state["done"] += count
        state["total"] = state["total"] if total is None else total
        state["note"] = state["note"] if note is None else note
        if time.monotonic() - state["last"] >= every:
            state["said"], state["last"] = line(), time.monotonic()
            typer.echo(state["said"], err=True)

    yield advance
    if state["said"] and state["said"] != line():
        typer.echo(line(), err=True)


@contextmanager
def progress_of(label: str, unit: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar fed as the engine reports its work: ``progress(done so far, total)``."""
    done = [0]
    with progress_bar(label, unit=unit, known_later=True) as advance:

        def progress(count: int, total: int) -> None:
            advance(count - done[0], total=total)
            done[0] = count

        yield progress
