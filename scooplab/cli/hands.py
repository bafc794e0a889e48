"""``scooplab hands``: a game's starting-hand table, computed once and stored in the warehouse."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from scooplab.cli.common import fail, game_named, rule_options
from scooplab.cli.options import DEFAULT_DATA, DataFolder, Format, OutputFormat, RuleFlag, Variant
from scooplab.cli.output import console, progress_of

FIGURES = ("equity", "win", "tie", "scoop", "dead")


Players = Annotated[int, typer.Option("--players", "-n", help="Players all in: a hand, N-1 random.")]
Samples = Annotated[
    int | None,
    typer.Option("--samples", min=100, help="Runouts a class (games of up to 3 hole cards), or deals."),
]
Seed = Annotated[int, typer.Option(min=0, help="The seed of the sampled runouts.")]
Feature = Annotated[str | None, typer.Option(help="Show one feature's table (pairs, aces...).")]
Top = Annotated[int | None, typer.Option(min=1, help="Show the best TOP rows of each table.")]
Recompute = Annotated[bool, typer.Option("--recompute", help="Compute again even if stored.")]


def hands_command(
    variant: Variant = "holdem", players: Players = 2, samples: Samples = None, seed: Seed = 0,
    rule: RuleFlag = None, data: DataFolder = DEFAULT_DATA, feature: Feature = None, top: Top = None,
    recompute: Recompute = False, output: Format = OutputFormat.table,
) -> None:  # fmt: skip
    """Every starting hand ranked by its all-in equity against N-1 random hands, with how often it
    wins, ties and scoops, its share of each part of the pot (high and low halves, each board)
    and, with a discard board, how often it dies; 95% intervals beside every figure.

    Games of up to three hole cards list their classes up to suit symmetry (hold'em's 169: AA,
    AKs, AKo; Skœjarth's fans: KaKb6a, letters naming suits by first appearance). Games of more
    are summarized by features a player sees (pairs held, suitedness, connectedness, aces, ranks
    exposed to a discard board, low points). The table is stored in the warehouse
    (`starting_hands`, readable by `scooplab query` and the dashboard) and read the next time.

    Examples:

    * `scooplab hands`
    * `scooplab hands --variant cry-me-a-river --players 6`
    * `scooplab hands --variant scarney --feature aces`
    """
    from engine.odds.starting_hands import FEATURES
    from scooplab.lab import Lab

    game = game_named(variant, data)
    options = game.resolve_options(rule_options(game, rule))
    if not game.min_players <= players <= game.max_players:
        fail(f"--players {players}: {game.title} seats {game.min_players} to {game.max_players} players")
    if feature is not None and feature not in FEATURES:
        fail(f"--feature {feature!r}: the features are {', '.join(FEATURES)}")
    try:
        rows = Lab(data).starting_hands(game, players, rule=options, samples=samples, seed=seed,
                                        recompute=recompute, progress_of=progress_of)  # fmt: skip
    except (OSError, ValueError) as error:
        fail(str(error))
    records = rows.to_pylist()
    if feature is not None:
        records = [r for r in records if r["kind"] == feature]
    if output is OutputFormat.json:
        typer.echo(json.dumps(_as_json(game, players, options, records, rows), default=str))
        return
    _print(game, records, top)


TABLE_FIELDS = ("variant", "options", "players", "method", "samples", "seed")


def _as_json(game, players, options, records, rows) -> dict:
    """The documented JSON (docs/odds.md): the table's fields once, then its rows."""
    first = rows.slice(0, 1).to_pylist()[0] if len(rows) else {}
    return {"variant": game.name, "players": players, "options": options, "method": first.get("method"),
            "samples": first.get("samples"), "seed": first.get("seed"),
            "rows": [{k: v for k, v in r.items() if k not in TABLE_FIELDS} for r in records]}  # fmt: skip


def _print(game, records, top) -> None:
    if not records:
        fail("no rows: that feature is not one this game has")
    first = records[0]
    console.print(f"[bold]{game.title}[/], {first['players']} players: {first['method']}", highlight=False)
    for kind in dict.fromkeys(r["kind"] for r in records):
        rows = [r for r in records if r["kind"] == kind]
        if kind != "class":
            rows.sort(key=lambda r: r["value"])
        _print_kind(kind, rows[:top] if top else rows)


def _print_kind(kind: str, rows: list[dict]) -> None:
    from engine.odds.starting_hands import FEATURES

    parts = [s["part"] for s in rows[0]["shares"]]
    figures = [f for f in FIGURES if rows[0][f] is not None]
    title = "every class, best first" if kind == "class" else f"{kind}: {FEATURES[kind]}"
    table = Table(title=title)
    heads = ["rank", "hand"] if kind == "class" else [kind, "rank"]
    for column in [*heads, "combos" if kind == "class" else "seats", "of hands", *figures,
                   *(f"{p} share" for p in parts)]:  # fmt: skip
        table.add_column(column, justify="left" if column == "hand" else "right")
    for r in rows:
        cells = [str(r["rank"]), r["hand_group"]] if kind == "class" else [r["hand_group"], str(r["rank"])]
        cells += [f"{r['combos']:,}", f"{r['frequency']:.2%}"]
        cells += [_figure(r[f], r[f"{f}_low"], r[f"{f}_high"]) for f in figures]
        cells += [_figure(s["share"], s["low"], s["high"]) for s in r["shares"]]
        table.add_row(*cells)
    console.print(table)


def _figure(value: float, low: float, high: float) -> str:
    margin = (high - low) / 2
    return f"{value:.2%}" + (f" [dim]±{margin:.2%}[/]" if margin > 0 else "")
