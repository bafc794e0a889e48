"""``scooplab odds``: each player's share of the pot in any situation of any game (engine.odds.situations)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from scooplab.cli.common import compiling_notice, fail, game_named, rule_options
from scooplab.cli.options import Format, OutputFormat, RuleFlag, Variant
from scooplab.cli.output import console, progress_of

HAND_HELP = "A player's hole cards (`AhKh`, `Ah??`, `random`); once per player, in seat order."


def odds_command(
    hand: Annotated[list[str], typer.Option("--hand", help=HAND_HELP)],
    variant: Variant = "holdem",
    board: Annotated[
        list[str] | None, typer.Option("--board", help="Known cards of a board: NAME=CARDS (top=AhKd2c).")
    ] = None,
    dead: Annotated[str, typer.Option("--dead", help="Cards out of play (seen, folded, burned).")] = "",
    exact: Annotated[bool, typer.Option("--exact", help="Enumerate every runout, however many.")] = False,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Sample this many runouts.")] = None,
    seed: Annotated[int, typer.Option(help="The seed of sampled runouts.")] = 0,
    rule: RuleFlag = None,
    output: Format = OutputFormat.table,
) -> None:
    """Each player's share of the pot (equity), of each part of it, and how often they win, tie,
    scoop (and die, with a discard board), all in from here to the showdown.

    Every runout is enumerated when there are at most 2,000,000 (or with --exact); otherwise
    200,000 are sampled (or --samples), with a 95% interval beside every figure.

    Examples:

    * `scooplab odds --hand AhKh --hand QsQd`
    * `scooplab odds --variant cry-me-a-river --hand AsAh --hand random --hand random`
    * `scooplab odds --variant scarney --hand 2d3d4d5d6dAd --hand random --board top=AhKh2c
      --board bottom=7s8s9c`
    """
    from engine.odds.situations import OddsError
    from scooplab.lab import Lab

    if exact and samples is not None:
        fail("--exact and --samples exclude each other")
    game = game_named(variant)
    options = game.resolve_options(rule_options(game, rule))
    boards = _boards(game, board or [])
    compiling_notice("runouts", "sim_kernels")
    try:
        with progress_of("odds", "runouts") as progress:
            result = Lab().odds(variant, hand, boards, dead, rule=options, exact=True if exact else None,
                                samples=samples, seed=seed, progress=progress)  # fmt: skip
    except (OddsError, ValueError) as error:
        fail(str(error))
    if output is OutputFormat.json:
        typer.echo(json.dumps(result))
        return
    _print(game, result)


def _boards(game, given: list[str]) -> dict[str, str]:
    """The known cards of each board, from ``--board NAME=CARDS`` (the name may be left out of a
    game with one board)."""
    boards = {}
    for item in given:
        name, equals, cards = item.partition("=")
        if not equals and len(game.boards) == 1:  # one board: its name may be left out
            name, cards = game.board_names[0], item
        elif not equals:
            names = ", ".join(game.board_names)
            fail(f"--board {item!r}: write NAME=CARDS; the boards of {game.title}: {names}")
        if name.strip() in boards:
            fail(f"--board {item!r}: board {name.strip()} is given twice (give its known cards once)")
        boards[name.strip()] = cards
    return boards


def _print(game, result: dict) -> None:
    """The odds as a table (``result`` as ``--format json`` gives it)."""
    how = f"every runout ({result['runouts']:,})"
    if not result["exact"]:
        how = f"{result['runouts']:,} sampled runouts, ± half a 95% interval"
    table = Table(title=f"{game.title}: {how}")
    players = result["players"]
    parts = list(players[0]["shares"])
    columns = ["hand", "equity", "win", "tie", "scoop", *(f"{p} share" for p in parts if len(parts) > 1)]
    if "dead" in players[0]:
        columns.append("dead")
    for column in columns:
        table.add_column(column, justify="left" if column == "hand" else "right")
    for player in players:
        figures = {name: player[name] for name in ("equity", "win", "tie", "scoop")}
        figures |= {f"{p} share": player["shares"][p] for p in parts if len(parts) > 1}
        if "dead" in player:
            figures["dead"] = player["dead"]
        cells = [player["hand"]]
        for name, value in figures.items():
            key = f"shares.{name.removesuffix(' share')}" if name.endswith(" share") else name
            interval = (player["ci95"] or {}).get(key)
            margin = f" [dim]±{(interval[1] - interval[0]) / 2:.2%}[/]" if interval else ""
            cells.append(f"{value:.2%}{margin}")
        table.add_row(*cells)
    console.print(table)
    if game.draws:
        policy = result.get("options", {}).get("draw_policy", "standard")
        console.print(f"every player draws by the {policy} drawing policy (rule option draw_policy; "
                      "docs/variants.md)", highlight=False)  # fmt: skip
    if result.get("boards_survive"):
        survive = ", ".join(f"{name} {rate:.2%}" for name, rate in result["boards_survive"].items())
        console.print(f"boards surviving the kill: {survive}", highlight=False)
