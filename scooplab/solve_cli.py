"""``scooplab solve pushfold``: heads-up push/fold equilibria of a game, stored in the warehouse."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.table import Table

from scooplab.common import (
    DataOption,
    OutputFormat,
    RuleFlag,
    VariantOption,
    console,
    fail,
    game_named,
    rule_options,
)

solve_app = typer.Typer(help="Solve a game: equilibrium strategies.", no_args_is_help=True)
MAX_STACKS = 400


def parse_stacks(text: str) -> list[float]:
    """``10`` or a sweep ``FROM:TO:STEP`` in big blinds (each at least 1).

    >>> parse_stacks("1:2:0.5"), parse_stacks("7.5"), parse_stacks("1:2.3:0.5")
    ([1.0, 1.5, 2.0], [7.5], [1.0, 1.5, 2.0])
    """
    parts = text.split(":")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise ValueError(
            f"--stack {text!r}: give big blinds (10) or a sweep FROM:TO:STEP (1:20:0.5)"
        ) from None
    if not all(math.isfinite(x) and x < 1e6 for x in numbers):
        raise ValueError(f"--stack {text!r}: stacks are finite numbers of big blinds, under a million")
    if len(numbers) == 1:
        stacks = numbers
    elif len(numbers) == 3 and numbers[2] > 0 and numbers[1] >= numbers[0]:
        count = math.floor((numbers[1] - numbers[0]) / numbers[2] + 1e-9) + 1  # never past TO
        stacks = [round(numbers[0] + k * numbers[2], 6) for k in range(min(count, MAX_STACKS + 1))]
    else:
        raise ValueError(f"--stack {text!r}: a sweep is FROM:TO:STEP with TO >= FROM and STEP > 0")
    if min(stacks) < 1:
        raise ValueError(f"--stack {text!r}: stacks are at least 1 big blind")
    if len(stacks) > MAX_STACKS:
        raise ValueError(f"--stack {text!r}: at most {MAX_STACKS} stacks a sweep")
    return stacks


@solve_app.command("pushfold")
def pushfold_command(
    variant: VariantOption = "holdem",
    stack: Annotated[
        str, typer.Option(help="Big blinds each (10), or a sweep FROM:TO:STEP (1:20:0.5).")
    ] = "10",
    ante: Annotated[float, typer.Option(min=0, help="Each player's ante, in big blinds.")] = 0.0,
    players: Annotated[int, typer.Option(help="Players: push/fold is heads-up (2).")] = 2,
    samples: Annotated[int, typer.Option(min=100, help="Sampled runouts a pair of classes.")] = 4_000,
    seed: Annotated[int, typer.Option(help="The seed of the sampled runouts.")] = 0,
    rule: RuleFlag = None,
    data: DataOption = "data/warehouse",
    output: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = OutputFormat.table,
) -> None:
    """The heads-up push/fold equilibrium: the small blind goes all in or folds, the big blind
    calls or folds. Per starting-hand class the probability of each, the small blind's value in
    big blinds, and the exploitability (what best responses gain, both sides together), solved by
    CFR+ to below 0.001 big blinds on a matrix of class-against-class all-in equities (sampled
    runouts, stored in the warehouse with every solution and read when asked again).

    A sweep (`--stack 1:20:0.5`) gives the usual chart: per class the largest stack at which it
    is pushed and called (probability at least one half). Games of up to three hole cards.

    Examples:

    * `scooplab solve pushfold --stack 10`
    * `scooplab solve pushfold --variant cry-me-a-river --stack 1:20:0.5`
    """
    from engine.starting_hands import first_hole_cards, hand_classes

    game = game_named(variant)
    options = game.resolve_options(rule_options(game, rule))
    if players != 2:
        fail(f"--players {players}: push/fold is solved heads-up (--players 2)")
    if hand_classes(game, options) is None:
        held = first_hole_cards(game, options)
        fail(f"{game.title} deals {held} hole cards: push/fold over buckets of hands is not built yet "
             "(games of up to 3 hole cards are solved)")  # fmt: skip
    try:
        stacks = parse_stacks(stack)
        if not math.isfinite(ante) or min(stacks) < 1 + ante:
            raise ValueError(
                f"--ante {ante:g}: each stack must cover the big blind and the ante ({1 + ante:g} bb)"
            )
        rows = _solutions(game, options, stacks, ante, samples, seed, data)
    except (OSError, ValueError, MemoryError) as error:
        fail(str(error))
    if ":" not in stack:
        _one(game, rows[0], output)
    else:
        _sweep(game, stacks, rows, output)


def _solutions(game, options, stacks, ante, samples, seed, data):
    from ingest.pushfold import matchups, solution
    from ingest.warehouse import Warehouse
    from scooplab.cli import progress_of

    warehouse, found = Warehouse(data), []

    def computed():
        if not found:
            with progress_of("class matchups", "runouts") as progress:
                found.append(matchups(warehouse, game, options, samples, seed, progress))
        return found[0]

    return [solution(warehouse, game, options, s, ante, computed, samples, seed).to_pylist() for s in stacks]


def _one(game, rows, output) -> None:
    first = rows[0]
    pushed = [r["hand_group"] for r in rows if r["push"] >= 0.5]
    called = [r["hand_group"] for r in rows if r["call"] >= 0.5]
    mixed = {side: {r["hand_group"]: round(r[side], 4) for r in rows if 0.01 < r[side] < 0.99}
             for side in ("push", "call")}  # fmt: skip
    answer = {"variant": game.name, "options": json.loads(first["options"]), "players": 2,
              "stack": first["stack"], "ante": first["ante"], "push": pushed, "call": called, "mixed": mixed,
              "value": first["value"], "exploitability": first["exploitability"],
              "method": first["method"]}  # fmt: skip
    if output is OutputFormat.json:
        typer.echo(json.dumps(answer))
        return
    console.print(
        f"[bold]{game.title}[/], {first['stack']:g} bb each, ante {first['ante']:g}: small blind's value "
        f"{first['value']:+.4f} bb, exploitability {first['exploitability']:.5f} bb",
        highlight=False,
    )
    console.print(f"[dim]{first['method']}[/]", highlight=False)
    _grid(game, {r["hand_group"]: f"{100 * r['push']:.0f}" for r in rows}, "push %")
    _grid(game, {r["hand_group"]: f"{100 * r['call']:.0f}" for r in rows}, "call %")


def _sweep(game, stacks, rows, output) -> None:
    import numpy as np

    from engine.pushfold import chart as chart_of

    top = max(stacks)
    names = [r["hand_group"] for r in rows[0]]
    push = np.array([[r["push"] for r in solved] for solved in rows])
    call = np.array([[r["call"] for r in solved] for solved in rows])
    chart = chart_of(names, stacks, push, call)
    worst = max(solved[0]["exploitability"] for solved in rows)
    if output is OutputFormat.json:
        first = rows[0][0]
        typer.echo(json.dumps({"variant": game.name, "options": json.loads(first["options"]), "players": 2,
                               "ante": first["ante"], "stacks": stacks, "chart": chart,
                               "exploitability": worst, "method": first["method"]}))  # fmt: skip
        return
    console.print(
        f"[bold]{game.title}[/]: the largest stack (bb) at which each class is played, stacks "
        f"{min(stacks):g} to {top:g}; exploitability at most {worst:.5f} bb",
        highlight=False,
    )

    def shown(value: float) -> str:
        return f"{top:g}+" if value >= top else ("-" if value == 0 else f"{value:g}")

    _grid(game, {name: shown(c["push_max"]) for name, c in chart.items()}, "pusher")
    _grid(game, {name: shown(c["call_max"]) for name, c in chart.items()}, "caller")


def _grid(game, cells: dict[str, str], title: str) -> None:
    """A two-card game's classes as the usual grid (suited above the diagonal); others as a list."""
    ranks = game.deck.ranks[::-1]
    if not all(len(name) <= 3 for name in cells):
        table = Table(title=title)
        table.add_column("hand")
        table.add_column(title, justify="right")
        for name, value in cells.items():
            table.add_row(name, value)
        console.print(table)
        return
    table = Table(title=title, show_lines=False)
    table.add_column("")
    for rank in ranks:
        table.add_column(rank, justify="right")
    for r, row_rank in enumerate(ranks):
        row = []
        for c, column_rank in enumerate(ranks):
            name = (row_rank * 2 if r == c else row_rank + column_rank + "s" if r < c
                    else column_rank + row_rank + "o")  # fmt: skip
            row.append(cells.get(name, ""))
        table.add_row(row_rank, *row)
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the command line."""
    app.add_typer(solve_app, name="solve")
