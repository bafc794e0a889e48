"""The ``scooplab`` command line: thin commands over the Python API (``scooplab.lab``), which
parse their options, call it and print what it gives. One module a group of commands (``ingest``
and ``export``; ``simulate`` and ``upgrade``; ``stats`` and ``compare``; ``players``; ``query``;
``dashboard``; the games: ``variants``, ``eval``, ``rankings``; ``odds``; ``hands``; ``solve``), the options
several commands take declared once (``options``), how they print (``output``) and fail
(``common``); this module makes the app of them, in the order ``scooplab --help`` lists them."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from scooplab.cli import dashboard, games, hands, ingest, odds, players, query, simulate, solve, stats


def _flags_show_no_type() -> None:
    """Typer writes ``<bool>`` beside every flag in ``--help``: a flag takes no value, so none is shown."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_show_no_type()
app = typer.Typer(
    name="scooplab",
    help="Hand-history analytics lab for new poker variants: Scarney, Cry Me A River "
    "Hold'em, Skœjarth, their house variants and any game described in a file (scooplab variants), "
    "with hold'em for reference.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)


def version_callback(value: bool) -> None:
    if value:
        from scooplab import __version__

        typer.echo(f"scooplab {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Hand-history analytics lab for new poker variants."""


app.command("ingest")(ingest.ingest_command)
app.command("export")(ingest.export_command)
app.command("simulate")(simulate.simulate_command)
app.command("stats")(stats.stats_command)
app.command("compare")(stats.compare_command)
app.command("players")(players.players_command)
app.command("upgrade")(simulate.upgrade_command)
app.command("query")(query.query_command)
app.command("dashboard")(dashboard.dashboard_command)
app.add_typer(games.variants_app, name="variants")
app.command("eval")(games.eval_command)
app.command("rankings")(games.rankings_command)
app.command("odds")(odds.odds_command)
app.command("hands")(hands.hands_command)
app.add_typer(solve.solve_app, name="solve")


class _WithoutPandas:
    """An import finder that says pandas is not installed.

    No command uses pandas, but pyarrow imports it (0.2 s) on the first array it builds when it
    can; the console entry point installs this so commands start without it. The dashboard runs
    in its own process, and code that imports scooplab (tests, notebooks) is not affected.
    """

    def find_spec(self, name: str, path=None, target=None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("pandas is not loaded by the scooplab command", name=name)


def run() -> None:  # pragma: no cover - console entry point
    """The ``scooplab`` command."""
    if "pandas" not in sys.modules:
        sys.meta_path.insert(0, _WithoutPandas())
    app()
