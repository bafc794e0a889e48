"""Statistics of stored hands: ``scooplab stats`` (one game's, or with ``--equilibrium`` the push/fold
table across games) and ``scooplab compare`` (two runs side by side)."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from scooplab.cli.common import existing_warehouse, fail, game_named, rule_options
from scooplab.cli.options import DEFAULT_DATA, DataFolder, RowsFormat, Runs, TableFormat
from scooplab.cli.output import cell, console, progress_of, write_rows


class Population(StrEnum):
    showdown = "showdown"
    betting = "betting"
    replayed = "replayed"


StatsVariant = Annotated[str | None, typer.Option(
    "--variant", "-v", help="A game: a built-in name or a description file (.toml); with "
    "--equilibrium optional (every game by default).")]  # fmt: skip
ModeOption = Annotated[
    Population | None, typer.Option("--mode", help="Which hands: showdown mode, betting mode, replayed.")
]
TableSize = Annotated[int | None, typer.Option("--players", "-p", min=2, help="Which table size.")]
Structure = Annotated[
    str | None, typer.Option("--structure", help="Which betting structure (all-in: showdown mode).")
]
RuleSet = Annotated[
    list[str] | None, typer.Option("--rule", help="Only hands played under rule option KEY=VALUE.")
]
Play = Annotated[str | None, typer.Option(
    "--play", help="Betting mode: which policies and stacks, as listed (\"pushfold, 10 bb\").")]  # fmt: skip
Brief = Annotated[bool, typer.Option("--brief", help="Only the headline rates (table format).")]
Equilibrium = Annotated[bool, typer.Option(
    "--equilibrium", help="Instead: the heads-up push/fold table across games at 5, 10, 15 bb.")]  # fmt: skip
Compute = Annotated[bool, typer.Option(
    "--compute", help="With --equilibrium: solve what is missing first (minutes a game).")]  # fmt: skip


def stats_command(
    variant: StatsVariant = None, run: Runs = None, mode: ModeOption = None, players: TableSize = None,
    structure: Structure = None, rule: RuleSet = None, play: Play = None, data: DataFolder = DEFAULT_DATA,
    output: RowsFormat = TableFormat.table, brief: Brief = False, equilibrium: Equilibrium = False,
    compute: Compute = False,
) -> None:  # fmt: skip
    """Per-game statistics with 95% intervals and exact values where combinatorics gives them.

    A statistic is taken over one population: one mode, one table size, one betting structure,
    one rule set (betting mode: one play, the policies and stacks). By default the largest among
    the chosen runs; --mode, --players, --structure, --rule and --play pick another (what they
    leave out is again the largest that matches). The output names the population and lists
    the others. Every rate comes with its count, denominator and Wilson interval; definitions
    and the JSON keys are in docs/statistics.md.

    Examples:

    * `scooplab stats --variant scarney`
    * `scooplab stats --variant holdem --mode betting --players 6`
    * `scooplab stats --variant cry-me-a-river --run demo-cry-me-a-river --format json`
    * `scooplab stats --equilibrium --compute`: how each game plays when both play well, heads-up
      all in or fold (docs/equilibrium.md)
    """
    existing_warehouse(data)
    if equilibrium:
        equilibrium_table(str(data), variant, compute, output)
        return
    if variant is None:
        fail("--variant: which game? (`scooplab variants` lists them)")
    from scooplab.lab import Lab

    game = game_named(variant, data)
    options = rule_options(game, rule)
    try:
        stats = Lab(data).stats(game.name, run, mode=mode.value if mode else None, players=players,
                                structure=structure, rule=options, play=play)  # fmt: skip
    except Exception as error:
        fail(" ".join(str(error).split()))
    if output is TableFormat.json:
        typer.echo(json.dumps(stats, default=str))
        return
    if stats["hands"] == 0:
        fail(f"no {game.name} hands in {data}: run `scooplab simulate --variant {game.name}` first")
    _print_stats(game.name, stats, output, brief)


def _print_stats(variant: str, stats: dict, output: TableFormat, brief: bool) -> None:
    """The statistics as a table (the headline first, the other populations on standard error) or
    CSV (each id with its label and what it is out of)."""
    from analytics.labels import label, out_of
    from analytics.report import flatten

    rows = flatten(stats)
    if output is TableFormat.table:
        console.print(_headline(stats), highlight=False)
        if brief:  # the game-wide rates, not each category, card or player
            rows = [row for row in rows if "[" not in row["statistic"] and "." not in row["statistic"]]
        rows = [_display(row) for row in rows]
        shown = stats["population"]["label"]
        others = [f"{p['label']} ({p['hands']:,})" for p in stats["populations"] if p["label"] != shown]
        if others:
            typer.echo(f"other populations (--mode, --players, --structure, --rule, --play): "
                       f"{'; '.join(others)}", err=True)  # fmt: skip
    else:
        rows = [{"statistic": (s := r["statistic"]), "label": label(s), "out_of": out_of(s)}
                | {k: v for k, v in r.items() if k != "statistic"} for r in rows]  # fmt: skip
    write_rows(rows, output, f"{variant} statistics: {stats['population']['label']}")


def _headline(stats: dict) -> str:
    """The plain numbers (hands, pots) in words, the pots' unit said once.

    >>> _headline({"hands": 2000, "showdown_hands": 1500, "pot": {"mean": 12.5, "max": 20},
    ...            "pot_unit": "chips"})
    'hands 2,000; hands to a showdown 1,500; pots (chips): mean 12.5, largest 20'
    """
    from analytics.labels import field_label
    from analytics.report import scalars

    numbers = {k: v for k, v in scalars(stats).items() if v is not None}
    shown = [f"{field_label(k)} {cell(v)}" for k, v in numbers.items() if not k.startswith("pot.")]
    pots = [f"{field_label(k)} {cell(v)}" for k, v in numbers.items() if k.startswith("pot.")]
    if pots:
        shown.append(f"{field_label('pot')} ({stats.get('pot_unit') or 'chips'}): {', '.join(pots)}")
    return "; ".join(shown)


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.3f}"


def _display(row: dict) -> dict:
    """A statistics row for the terminal: the statistic's label and what it is out of (ids are in the
    JSON and CSV), percentages and a compact interval."""
    from analytics.labels import label, out_of

    return {
        "statistic": label(row["statistic"]),
        "out of": out_of(row["statistic"]),
        "count": row["count"],
        "n": row["n"],
        "%": _percent(row["rate"]),
        "95% interval": f"{_percent(row['ci95_low'])}–{_percent(row['ci95_high'])}",
        "exact %": _percent(row["exact"]),
        "z": "" if row["z"] is None else f"{row['z']:+.2f}",
    }


def equilibrium_table(data: str, variant: str | None, compute: bool, output: TableFormat) -> None:
    """``scooplab stats --equilibrium``: the push/fold comparison table across games and stacks."""
    import duckdb

    from engine.rules.games import GAMES
    from engine.solving.pushfold_plan import no_pushfold_game
    from scooplab.lab import Lab

    games = {game.name: game for game in [game_named(variant, data)]} if variant else {
        name: game for name, game in GAMES.items() if not no_pushfold_game(game.title, game.bring_in)
    }  # fmt: skip
    try:
        table = Lab(data).pushfold_comparison(list(games.values()), compute, progress_of)
    except (OSError, ValueError, MemoryError, duckdb.Error) as error:
        fail(" ".join(str(error).split()))
    if output is TableFormat.json:
        typer.echo(json.dumps(table, default=str))
        return
    if output is TableFormat.csv:
        write_rows(table["rows"], output)
        return
    _print_equilibria(games, table["rows"])
    if table["missing"]:
        todo = ", ".join(f"{v} {s:g}" for v, s in table["missing"])
        console.print(
            f"not solved yet: {todo}; `scooplab stats --equilibrium --compute` solves them", highlight=False
        )


def _print_equilibria(games: dict, rows: list[dict]) -> None:
    table = Table(title="Heads-up push/fold equilibria (small blind all in or fold, big blind call or fold)")
    for column in ("game", "bb", "pushed", "called", "SB value (bb)", "exploitability (bb)", "best hand",
                   "its equity when called"):  # fmt: skip
        table.add_column(column, justify="left" if column in ("game", "best hand") else "right")
    for r in rows:
        exploit = f"{r['exploitability']:.4f}"
        if r["abstraction"] == "buckets":
            exploit += f" (real hands {r['full_exploitability_low']:.3f}-{r['full_exploitability_high']:.3f})"
        called = "" if r["best_called_equity"] is None else f"{100 * r['best_called_equity']:.1f}%"
        table.add_row(games[r["variant"]].title, f"{r['stack']:g}",
                      f"{100 * r['pushed']:.1f}%", f"{100 * r['called']:.1f}%", f"{r['value']:+.3f}", exploit,
                      r["best_hand"], called)  # fmt: skip
    console.print(table)


def compare_command(
    run_a: Annotated[str, typer.Argument(help="The first run id.")],
    run_b: Annotated[str, typer.Argument(help="The second run id.")],
    data: DataFolder = DEFAULT_DATA,
    output: RowsFormat = TableFormat.table,
    all_rows: Annotated[
        bool, typer.Option("--all", help="Show every statistic, not only the differences.")
    ] = False,
) -> None:
    """Two runs side by side: every rate, the difference, a test and its FDR-adjusted p-value.

    Runs simulated with the same seed (and shard size and table) deal the same cards, so they
    are compared hand by hand (McNemar's test on the hands where they differ); other runs as
    independent samples. The p-values are adjusted for the ~200 statistics tested at once
    (Benjamini-Hochberg, 5% false discoveries). The way to see what a rule option does:
    simulate the same game with and without it, with one seed, then compare the runs.

    Examples:

    * `scooplab compare demo-scarney demo-scarney-must-use`
    * `scooplab compare sk-highest sk-kickers --all --format csv`
    """
    from scooplab.lab import Lab

    existing_warehouse(data)
    try:
        result = Lab(data).compare(run_a, run_b)
    except Exception as error:  # one line, whatever failed (a bad file, a run of another game)
        fail(" ".join(str(error).split()))
    variant = result["variant"]
    for warning in result["warnings"]:
        typer.echo(f"warning: {warning}", err=True)
    if output is TableFormat.json:  # the design and the warnings with the rows
        typer.echo(json.dumps(result, default=str))
        return
    rows = result["rows"]
    if output is TableFormat.table:
        rows = [_compared(r) for r in (rows if all_rows else [r for r in rows if r["significant"]] or rows)]
    design = "paired: the same deals, hand by hand" if result["paired"] else "independent samples"
    write_rows(rows, output, f"{variant}: {run_a} (a) against {run_b} (b), {design}")


def _compared(row: dict) -> dict:
    """A compared statistic for the terminal: its label, the rates in percent, the p-values in words
    (never a bare 0); ids and raw numbers are in the JSON and CSV."""
    from analytics.labels import field_label, p_text

    shown = {"statistic": row["label"], "A %": _percent(row["rate_a"]), "B %": _percent(row["rate_b"]),
             "difference %": f"{100 * row['difference']:+.3f}", "test": row["test"]}  # fmt: skip
    return (
        shown
        | {field_label(k): p_text(row[k]) for k in ("p_value", "p_adjusted")}
        | {"significant": "yes" if row["significant"] else "no"}
    )
