"""``scooplab solve pushfold``: heads-up push/fold equilibria of a game, stored in the warehouse."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.table import Table

from engine.solving.pushfold_plan import Plan
from scooplab.cli.common import fail, game_named, rule_options
from scooplab.cli.options import DEFAULT_DATA, DataFolder, Format, OutputFormat, RuleFlag, Variant
from scooplab.cli.output import console, progress_of

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


Stack = Annotated[str, typer.Option(help="Big blinds each (10), or a sweep FROM:TO:STEP (1:20:0.5).")]
Ante = Annotated[float, typer.Option(min=0, help="Each player's ante, in big blinds.")]
HeadsUp = Annotated[int, typer.Option(help="Players: push/fold is heads-up (2).")]
Samples = Annotated[int, typer.Option(min=100, help="Sampled runouts a pair of classes.")]
Buckets = Annotated[
    int,
    typer.Option(
        min=0, max=99, help="Buckets of hands by equity (0: classes where the game allows, else 20)."
    ),
]
Pool = Annotated[int, typer.Option(min=500, max=200_000, help="Bucketed: sampled hands fixing the buckets.")]
Runouts = Annotated[int, typer.Option(min=20, max=10_000, help="Bucketed: runouts a hand is scored on.")]
Seed = Annotated[int, typer.Option(min=0, help="The seed of the sampled runouts.")]


@solve_app.command("pushfold")
def pushfold_command(
    variant: Variant = "holdem", stack: Stack = "10", ante: Ante = 0.0, players: HeadsUp = 2,
    samples: Samples = 4_000, buckets: Buckets = 0, pool: Pool = Plan.pool, runouts: Runouts = Plan.runouts,
    seed: Seed = 0, rule: RuleFlag = None, data: DataFolder = DEFAULT_DATA,
    output: Format = OutputFormat.table,
) -> None:  # fmt: skip
    """The heads-up push/fold equilibrium: the small blind goes all in or folds, the big blind
    calls or folds. Per starting-hand class the probability of each, the small blind's value in
    big blinds, and the exploitability (what best responses gain, both sides together), solved by
    CFR+ to below 0.001 big blinds on a matrix of class-against-class all-in equities (sampled
    runouts, stored in the warehouse with every solution and read when asked again).

    Games of more than three hole cards (Scarney, the Omaha games) are solved over buckets of
    hands by their equity against a random hand; the full game's exploitability is estimated on
    real hands (between a cross-fitted and an in-sample best response).

    A sweep (`--stack 1:20:0.5`) gives the usual chart: per class the largest stack at which it
    is pushed and called (probability at least one half).

    Examples:

    * `scooplab solve pushfold --stack 10`
    * `scooplab solve pushfold --variant cry-me-a-river --stack 1:20:0.5`
    * `scooplab solve pushfold --variant scarney --stack 10 --buckets 20`
    """
    from scooplab.lab import Lab

    game = game_named(variant, data)
    options = game.resolve_options(rule_options(game, rule))
    if players != 2:
        fail(f"--players {players}: push/fold is solved heads-up (--players 2)")
    lab = Lab(data)
    try:
        plan = lab.pushfold_plan(game, options, buckets=buckets, samples=samples, pool=pool, runouts=runouts,
                                 seed=seed)  # fmt: skip
        stacks = _stacks(stack, ante)
        solved = lab.pushfold(game, stacks, ante, rule=options, plan=plan, progress_of=progress_of)
    except (OSError, ValueError, MemoryError) as error:
        fail(str(error))
    if ":" not in stack:
        _one(game, solved["solutions"][0], solved["buckets"], output)
    else:
        _sweep(game, stacks, solved["solutions"], solved["buckets"], output)


def _stacks(stack: str, ante: float) -> list[float]:
    """The stacks ``--stack`` names, each covering the big blind and ``--ante``."""
    stacks = parse_stacks(stack)
    if not math.isfinite(ante) or min(stacks) < 1 + ante:
        raise ValueError(
            f"--ante {ante:g}: each stack must cover the big blind and the ante ({1 + ante:g} bb)"
        )
    return stacks


def _full(first: dict) -> dict | None:
    if first["full_exploitability_low"] is None:
        return None
    return {side: first[f"full_exploitability_{side}"] for side in ("low", "high", "error")}


def _one(game, rows, summary, output) -> None:
    first = rows[0]
    pushed = [r["hand_group"] for r in rows if r["push"] >= 0.5]
    called = [r["hand_group"] for r in rows if r["call"] >= 0.5]
    mixed = {side: {r["hand_group"]: round(r[side], 4) for r in rows if 0.01 < r[side] < 0.99}
             for side in ("push", "call")}  # fmt: skip
    answer = {"variant": game.name, "options": json.loads(first["options"]), "players": 2,
              "stack": first["stack"], "ante": first["ante"], "push": pushed, "call": called, "mixed": mixed,
              "value": first["value"], "exploitability": first["exploitability"],
              "abstraction": first["abstraction"], "full_exploitability": _full(first),
              "shares": {r["hand_group"]: r["share"] for r in rows},
              "method": first["method"]}  # fmt: skip
    if summary is not None:
        answer["buckets"] = summary
    if output is OutputFormat.json:
        typer.echo(json.dumps(answer))
        return
    console.print(
        f"[bold]{game.title}[/], {first['stack']:g} bb each, ante {first['ante']:g}: small blind's value "
        f"{first['value']:+.4f} bb, exploitability {first['exploitability']:.5f} bb"
        + _full_text(first)
        + f"; pushes {_share(rows, 'push')}, calls {_share(rows, 'call')} of hands",
        highlight=False,
    )
    console.print(f"[dim]{first['method']}[/]", highlight=False)
    if summary is not None:
        _bucket_table(summary, {r["hand_group"]: r for r in rows})
        return
    _grid(game, {r["hand_group"]: f"{100 * r['push']:.0f}" for r in rows}, "push %")
    _grid(game, {r["hand_group"]: f"{100 * r['call']:.0f}" for r in rows}, "call %")


def _share(rows, side: str) -> str:
    return f"{100 * sum(r['share'] * r[side] for r in rows):.1f}%"


def _full_text(first: dict) -> str:
    full = _full(first)
    if full is None:
        return ""
    return (f" (the buckets' game; on real hands best responses gain {full['low']:.4f} ± "
            f"{1.96 * full['error']:.4f} to {full['high']:.4f} bb)")  # fmt: skip


def _bucket_table(
    summary: list[dict], solved: dict[str, dict] | None = None, chart: dict | None = None
) -> None:
    table = Table(title="buckets (B01 the strongest)")
    for column in ("bucket", "share", "equity vs random", "example"):
        table.add_column(column, justify="left" if column in ("bucket", "example") else "right")
    extra = ("push %", "call %") if solved else ("pushed up to", "called up to")
    for column in extra:
        table.add_column(column, justify="right")
    for b in summary:
        row = [
            b["bucket"],
            f"{100 * b['share']:.1f}%",
            f"{b['score_low']:.3f}-{b['score_high']:.3f}",
            b["example"],
        ]
        if solved:
            row += [f"{100 * solved[b['bucket']]['push']:.0f}", f"{100 * solved[b['bucket']]['call']:.0f}"]
        else:
            row += [chart[b["bucket"]]["push_max"], chart[b["bucket"]]["call_max"]]
        table.add_row(*row)
    console.print(table)


def _sweep(game, stacks, rows, summary, output) -> None:
    import numpy as np

    from engine.solving.pushfold import chart as chart_of

    top = max(stacks)
    names = [r["hand_group"] for r in rows[0]]
    push = np.array([[r["push"] for r in solved] for solved in rows])
    call = np.array([[r["call"] for r in solved] for solved in rows])
    chart = chart_of(names, stacks, push, call)
    worst = max(solved[0]["exploitability"] for solved in rows)
    if output is OutputFormat.json:
        first = rows[0][0]
        answer = {"variant": game.name, "options": json.loads(first["options"]), "players": 2,
                  "ante": first["ante"], "stacks": stacks, "chart": chart, "exploitability": worst,
                  "abstraction": first["abstraction"], "method": first["method"]}  # fmt: skip
        if summary is not None:
            answer["buckets"] = summary
            full = [{"stack": solved[0]["stack"], **_full(solved[0])} for solved in rows]
            answer["full_exploitability"] = full
        typer.echo(json.dumps(answer))
        return
    console.print(
        f"[bold]{game.title}[/]: the largest stack (bb) at which each class is played, stacks "
        f"{min(stacks):g} to {top:g}; exploitability at most {worst:.5f} bb",
        highlight=False,
    )

    def shown(value: float) -> str:
        return f"{top:g}+" if value >= top else ("-" if value == 0 else f"{value:g}")

    if summary is not None:
        shown_chart = {n: {side: shown(c[side]) for side in c} for n, c in chart.items()}
        _bucket_table(summary, chart=shown_chart)
        return
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
