"""What every command shares: the console, the one-line error, output formats, the --variant option."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

if TYPE_CHECKING:
    from engine.rules.games.base import GameSpec

console = Console(width=None if sys.stdout.isatty() else 140)

VariantOption = Annotated[
    str,
    typer.Option(
        "--variant", "-v", help="A game: a built-in name (`scooplab variants`) or a description file (.toml)."
    ),
]


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


class TableFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


RuleFlag = Annotated[
    list[str] | None, typer.Option("--rule", help="A rule option KEY=VALUE (repeatable; see `variants`).")
]

DataOption = Annotated[
    str,
    typer.Option(
        "--data", "-d", help="The warehouse: a folder or an fsspec URL (s3://...).", envvar="SCOOPLAB_DATA"
    ),
]


def fail(message: str) -> None:
    """Print a one-line error on stderr and exit with code 2."""
    typer.echo(f"scooplab: error: {message}", err=True)
    raise typer.Exit(code=2)


def game_named(variant: str):
    """The game a ``--variant`` names (built-in or a description file); a clear error otherwise."""
    from engine.rules.games import get_game

    try:
        return get_game(variant)
    except ValueError as error:
        fail(str(error))


def rule_options(game: GameSpec, rule: list[str] | None) -> dict[str, Any]:
    """The rule options ``--rule KEY=VALUE`` names; an unknown one fails with the game's options."""
    options = {}
    for item in rule or []:
        key, equals, value = item.partition("=")
        option = next((o for o in game.options if o.name == key.strip()), None)
        if not equals or option is None:
            known = ", ".join(o.name for o in game.options) or "none"
            fail(f"--rule {item!r}: {game.title} rule options are {known} (as KEY=VALUE)")
        try:
            options[option.name] = option.parse(value)
        except ValueError as error:
            fail(f"--rule {item!r}: {error}")
    return options
