"""``scooplab odds``: each player's share of the pot in any situation of any game (engine.odds.situations)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from math import ceil
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from scooplab.cli.common import fail, game_named, rule_options
from scooplab.cli.options import Format, OutputFormat, RuleFlag, Variant
from scooplab.cli.output import console, progress_of
from scooplab.cli.progress import compile_notices

if TYPE_CHECKING:
    from engine.odds.pacing import Estimate

HAND_HELP = "A player's hole cards (`AhKh`, `Ah??`, `random`); once per player, in seat order."
LIMIT_HELP = ("Past this estimated time (timed on a first batch), sample fewer runouts; with --exact or "
              "--samples, stop and say so.")  # fmt: skip


def odds_command(
    hand: Annotated[list[str], typer.Option("--hand", help=HAND_HELP)],
    variant: Variant = "holdem",
    board: Annotated[
        list[str] | None, typer.Option("--board", help="Known cards of a board: NAME=CARDS (top=AhKd2c).")
    ] = None,
    dead: Annotated[str, typer.Option("--dead", help="Cards out of play (seen, folded, burned).")] = "",
    exact: Annotated[bool, typer.Option("--exact", help="Enumerate every runout, however many.")] = False,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Sample this many runouts.")] = None,
    seed: Annotated[int, typer.Option(min=0, help="The seed of sampled runouts.")] = 0,
    max_seconds: Annotated[float, typer.Option("--max-seconds", help=LIMIT_HELP)] = 60.0,
    rule: RuleFlag = None,
    output: Format = OutputFormat.table,
) -> None:
    """Each player's share of the pot (equity), of each part of it, and how often they win, tie,
    scoop (and die, with a discard board), all in from here to the showdown.

    Every runout is enumerated when there are at most 2,000,000 (or with --exact); otherwise
    200,000 are sampled (or --samples), with a 95% interval beside every figure. The work is
    said first and timed on a first batch: past --max-seconds, fewer runouts are sampled (said,
    with the interval that leaves), or with --exact or --samples the command stops and says why.

    Examples:

    * `scooplab odds --hand AhKh --hand QsQd`
    * `scooplab odds --variant cry-me-a-river --hand AsAh --hand random --hand random`
    * `scooplab odds --variant scarney --hand 2d3d4d5d6dAd --hand random --board top=AhKh2c
      --board bottom=7s8s9c`
    * `scooplab odds --variant deuce-to-seven-triple-draw --hand 2c3d4h7sKc --hand random
      --rule draw_policy=sampled --max-seconds 30`
    """
    from engine.odds.situations import OddsError, OverBudget
    from scooplab.lab import Lab

    if exact and samples is not None:
        fail("--exact and --samples exclude each other")
    if max_seconds <= 0:
        fail(f"--max-seconds {max_seconds:g}: give a time limit above 0")
    game = game_named(variant)
    options = game.resolve_options(rule_options(game, rule))
    boards = _boards(game, board or [])
    try:
        with compile_notices(), _bar_from_first_batch() as progress:
            result = Lab().odds(variant, hand, boards, dead, rule=options, exact=True if exact else None,
                                samples=samples, seed=seed, progress=progress, max_seconds=max_seconds,
                                on_estimate=_say)  # fmt: skip
    except OverBudget as error:
        fail(refusal(error.estimate, error.fits, bool(exact)))
    except (OddsError, ValueError) as error:
        fail(str(error))
    if output is OutputFormat.json:
        typer.echo(json.dumps(result))
        return
    _print(game, result)


@contextmanager
def _bar_from_first_batch() -> Iterator[Callable[[int, int], None]]:
    """``progress(done, total)`` drawing a bar begun at the first report (after the first batches
    that time the work), so that the lines said before it come out whole above it."""
    with ExitStack() as stack:
        bar: list[Callable[[int, int], None]] = []

        def progress(done: int, total: int) -> None:
            if not bar:
                bar.append(stack.enter_context(progress_of("odds", "runouts")))
            bar[0](done, total)

        yield progress


def _say(estimate: Estimate) -> None:
    line = estimate_line(estimate)
    if line:
        typer.echo(line, err=True)


def estimate_line(estimate: Estimate) -> str | None:
    """What standard error says of the work: its size before it starts, then (timed on a first
    batch) its time when that is a second or more, or the sample that replaces it past the limit.

    >>> from engine.odds.pacing import Estimate, fit
    >>> asked = Estimate(exact=False, runouts=200_000, max_seconds=60)
    >>> estimate_line(asked)
    'odds: 200,000 sampled runouts'
    >>> estimate_line(fit(asked, rate=50_000.0, max_seconds=60))
    'odds: about 4.0 s at 50,000 runouts a second'
    >>> print(estimate_line(fit(asked, rate=133.0, max_seconds=60)))
    odds: 200,000 sampled runouts would take about 25 min at 133 runouts a second, past --max-seconds 60:
    7,980 are sampled instead, each figure within ±1.10% (95% interval)
    """
    if estimate.rate is None:
        return f"odds: {estimate.size()}"
    if estimate.cut:
        return (f"odds: {estimate.asked()} would take {estimate.timing()}, past --max-seconds "
                f"{estimate.max_seconds:g}:\n{estimate.runouts:,} are sampled instead, each figure within "
                f"±{estimate.margin():.2%} (95% interval)")  # fmt: skip
    if (estimate.seconds or 0) >= 1:
        return f"odds: {estimate.timing()}"
    return None


def refusal(estimate: Estimate, fits: int, exact: bool) -> str:
    """The one line that says why every runout (``--exact``), or the samples asked for, are not
    settled: how long they would take, and what to do.

    >>> from engine.odds.pacing import Estimate
    >>> refusal(Estimate(False, 1_000_000, rate=133.0, max_seconds=60), 7_980, exact=False)
    '1,000,000 sampled runouts would take about 2 h 5 min at 133 runouts a second, past --max-seconds 60: \
give --max-seconds 9,023 to wait, or --samples 7,980 or fewer'
    """
    wait = ceil((estimate.seconds or 0) * 1.2)
    instead = f"or --samples {fits:,} or fewer"
    if exact:
        instead = f"or leave out --exact ({fits:,} sampled runouts fit)"
    return (f"{estimate.size()} would take {estimate.timing()}, past --max-seconds {estimate.max_seconds:g}: "
            f"give --max-seconds {wait:,} to wait, {instead}")  # fmt: skip


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
