"""``scooplab players``: players as a tracker shows them (VPIP, PFR, 3-bet, c-bet, WTSD, W$SD,
aggression, net won and bb/100 with its interval), per player or per player and position, over
replayed hands and betting-mode simulations; filters by game, run, venue, stake, table size and day.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any

import typer

from scooplab.cli.common import existing_warehouse, fail
from scooplab.cli.options import DEFAULT_DATA, DataFolder, RowsFormat, Runs, TableFormat
from scooplab.cli.output import write_rows

Venues = Annotated[list[str] | None, typer.Option("--venue", help="Only hands of this venue (repeatable).")]
Stakes = Annotated[list[str] | None, typer.Option(
    "--stake", help="Only hands of this big blind: \"1 USD\", \"100 chips\" (repeatable).")]  # fmt: skip
Sizes = Annotated[
    list[int] | None, typer.Option("--table-size", min=2, help="Only tables of this many seats (repeatable).")
]
Games = Annotated[list[str] | None, typer.Option("--variant", "-v", help="Only this game (repeatable).")]
Day = Annotated[
    str | None, typer.Option(help="YYYY-MM-DD: hands played on or after (--since) / before (--until) it.")
]
MinHands = Annotated[
    int, typer.Option("--min-hands", min=0, help="Only players with at least this many hands.")
]
OnePlayer = Annotated[str | None, typer.Option(
    "--player", help="One player's statistics by position (--venue: at that venue).")]  # fmt: skip
ByPosition = Annotated[bool, typer.Option("--by-position", help="One row per player and position.")]
Limit = Annotated[int, typer.Option("--limit", min=0, help="At most this many rows in a table (0: all).")]

# a narrow terminal's table leaves these out, in this order, until it fits (every one is in csv and json)
NARROW = ("F3B", "FCB", "AF", "3B", "CB", "net", "W$SD", "venue")
SHOWN = (("vpip", "VPIP"), ("pfr", "PFR"), ("three_bet", "3B"), ("fold_to_three_bet", "F3B"), ("cbet", "CB"),
         ("fold_to_cbet", "FCB"), ("wtsd", "WTSD"), ("wsd", "W$SD"))  # fmt: skip


def _day(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        fail(f"{option} {text!r} is not a day (YYYY-MM-DD)")
    return None


def players_command(
    variant: Games = None, run: Runs = None, venue: Venues = None, stake: Stakes = None,
    table_size: Sizes = None, since: Day = None, until: Day = None, min_hands: MinHands = 0,
    player: OnePlayer = None, by_position: ByPosition = False, data: DataFolder = DEFAULT_DATA,
    output: RowsFormat = TableFormat.table, limit: Limit = 50,
) -> None:  # fmt: skip
    """Players as a tracker shows them, over hands with betting (replayed, or betting mode).

    Each statistic is a count over its opportunities (docs/statistics.md, "Players"): VPIP, PFR,
    3-bet, fold to 3-bet, c-bet, fold to c-bet, WTSD, W$SD, aggression factor; net won in the
    hands' currency and bb/100 with a 95% interval, over hands whose result was recorded. A
    player is one name at one venue. JSON and CSV give every count and opportunity.

    Examples:

    * `scooplab players --min-hands 1000`
    * `scooplab players --venue "Full Tilt" --stake "1 USD" --since 2010-01-01`
    * `scooplab players --player a1f3 --venue "Ultimate Bet"`
    """
    from scooplab.lab import Lab

    existing_warehouse(data)
    filters: dict[str, Any] = {
        "variants": variant, "runs": run, "venues": venue, "stakes": stake, "table_sizes": table_size,
        "first_day": _day(since, "--since"), "last_day": _day(until, "--until"),
    }  # fmt: skip
    try:
        with Lab(data) as lab:
            if player is not None:
                frame = lab.tracker_player(player, venue[0] if venue else None, **filters)["lines"]
                if frame.height == 0:
                    fail(f"no hands with betting of {player!r}" + (f" at {venue[0]!r}" if venue else ""))
            else:
                frame = lab.tracker(min_hands=min_hands, by_position=by_position, **filters)
    except (OSError, ValueError) as error:
        fail(" ".join(str(error).split()))
    rows = frame.to_dicts()
    if output is not TableFormat.table:
        if output is TableFormat.json:
            typer.echo(json.dumps(rows, default=str))
        else:
            write_rows(rows, output)
        return
    if not rows:
        typer.echo(
            "no hands with betting match: ingest hand histories, or `scooplab simulate --mode betting`"
        )
        return
    shown = rows if player is not None or limit <= 0 else rows[:limit]
    title = f"{player}: by position" if player is not None else f"{len(rows):,} players, most hands first"
    write_rows([_display(r) for r in shown], output, title, fit=NARROW)
    if len(shown) < len(rows):
        typer.echo(f"{len(rows) - len(shown):,} more: --limit 0 shows them all", err=True)


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}"


def _display(row: dict[str, Any]) -> dict[str, Any]:
    """A player row for the terminal: percentages, the net in its currency, bb/100 and its interval."""
    shown: dict[str, Any] = {}
    if "venue" in row:
        shown |= {"venue": row["venue"] or "", "player": row["player"]}
    if "position" in row:
        shown["position"] = row["position"]
    shown["hands"] = row["hands"]
    shown |= {name: _percent(row[key]) for key, name in SHOWN}
    shown["AF"] = "" if row["af"] is None else f"{row['af']:.2f}"
    net = row["net"]
    shown["net"] = "" if net is None else f"{net.normalize():f} {row['currency'] or ''}".strip()
    if row["bb_per_100"] is None:
        shown["bb/100"] = ""
    else:
        low, high = row["bb_per_100_low"], row["bb_per_100_high"]
        interval = "" if low is None or low != low else f" ({low:+.1f} to {high:+.1f})"
        shown["bb/100"] = f"{row['bb_per_100']:+.1f}{interval}"
    return shown
