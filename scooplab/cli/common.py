"""What every command shares besides its options: the one-line error, the game a ``--variant``
names, its ``--rule`` options read, and the notice that the kernels compile on a first run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from scooplab.cli.options import DEFAULT_DATA

if TYPE_CHECKING:
    from engine.rules.games.base import GameSpec


def fail(message: str) -> None:
    """Print a one-line error on stderr and exit with code 2."""
    typer.echo(f"scooplab: error: {message}", err=True)
    raise typer.Exit(code=2)


def existing_warehouse(data: str) -> None:
    """Fail with one line when ``--data`` names a local folder that does not exist (a command that
    reads would otherwise answer as if the warehouse were empty); URLs are checked by the read."""
    if "://" not in str(data) and not Path(data).is_dir():
        fail(f"--data {data}: no warehouse there (`scooplab simulate` or `scooplab ingest` writes one)")


def game_named(variant: str, data: str | None = DEFAULT_DATA):
    """The game a ``--variant`` names: a game saved in the warehouse ``data`` (its newest version),
    built-in, a description file, or one described in a file runs of that warehouse were made
    from; a clear error otherwise."""
    from engine.rules.games import get_game
    from scooplab.designs import known_game

    try:
        return known_game(data, variant)  # a game saved in the warehouse first, by its newest version
    except ValueError as error:
        if data is not None and "://" not in str(data) and Path(data).is_dir():
            from scooplab.lab import Lab

            if variant in Lab(data).described_games():
                return get_game(variant)
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


def compiling_notice(*modules: str) -> None:
    """Say so on standard error when numba has no cached machine code for these engine modules yet."""
    import os

    import engine  # noqa: F401  (points numba's cache at the folder of these sources)

    cache = Path(os.environ["NUMBA_CACHE_DIR"])  # numba keeps its cache there, in subfolders
    if not all(any(cache.glob(f"**/{module}.*.nbi")) for module in modules):
        typer.echo("compiling the kernels (first run only, about four minutes on 2 cores)…", err=True)
