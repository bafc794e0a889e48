"""Runs simulated into the warehouse: ``scooplab simulate``, and ``scooplab upgrade`` (runs an older
scooplab stored, simulated again in today's layout)."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from scooplab.cli.common import compiling_notice, fail, game_named, rule_options
from scooplab.cli.options import DEFAULT_DATA, DataFolder, Format, OutputFormat, Variant
from scooplab.cli.output import console, progress_bar, progress_of
from scooplab.cli.progress import Compiles, compile_note, compile_notices


class Mode(StrEnum):
    showdown = "showdown"
    betting = "betting"


class Betting(StrEnum):
    no_limit = "no-limit"
    pot_limit = "pot-limit"
    fixed_limit = "fixed-limit"


class Executor(StrEnum):
    local = "local"
    dask = "dask"


Hands = Annotated[int, typer.Option("--hands", "-n", help="How many hands.")]
Players = Annotated[int, typer.Option("--players", "-p", min=2, help="Players at the table.")]
Seed = Annotated[int | None, typer.Option("--seed", min=0, help="Random seed (default: new, printed).")]
RunMode = Annotated[Mode, typer.Option("--mode", help="showdown: all in, compiled; betting: policies play.")]
Rule = Annotated[list[str] | None, typer.Option("--rule", help="A rule option KEY=VALUE (repeatable).")]
Policy = Annotated[
    list[str] | None,
    typer.Option("--policy", help="Betting mode: policy per seat, repeated round the table."),
]
Structure = Annotated[Betting | None, typer.Option(
    "--structure", help="Betting mode: the betting structure (default: the game's own).")]  # fmt: skip
Stake = Annotated[int, typer.Option("--stake", help="Chips each player brings.")]
BigBlind = Annotated[int, typer.Option(
    "--big-blind", min=0, help="Betting mode: big blind in chips, even (default: 2% of stake).",
    show_default=False)]  # fmt: skip
Ante = Annotated[str, typer.Option(
    "--ante", help="Betting mode: the ante each seat posts, in big blinds (0.25 or 1/4; default: the "
    "game's own, none in hold'em).", show_default=False)]  # fmt: skip
Workers = Annotated[int, typer.Option(
    "--workers", "-w", min=0, help="Processes (local: this one and N-1 helpers; default: all cores).",
    show_default=False)]  # fmt: skip
Executing = Annotated[Executor, typer.Option("--executor", help="Run shards locally or on Dask.")]
Scheduler = Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")]
ShardSize = Annotated[int, typer.Option("--shard-size", help="Hands per shard.")]
RunId = Annotated[str | None, typer.Option("--run-id", help="Name the run; the same name resumes it.")]


def simulate_command(
    variant: Variant, hands: Hands = 1_000_000, players: Players = 6, seed: Seed = None,
    mode: RunMode = Mode.showdown, rule: Rule = None, policy: Policy = None, structure: Structure = None,
    stake: Stake = 100, big_blind: BigBlind = 0, ante: Ante = "", workers: Workers = 0,
    executor: Executing = Executor.local,
    scheduler: Scheduler = None, shard_size: ShardSize = 200_000, data: DataFolder = DEFAULT_DATA,
    run_id: RunId = None, output: Format = OutputFormat.table,
) -> None:  # fmt: skip
    """Simulate hands of a game into the warehouse: reproducible, resumable, parallel.

    Showdown mode deals every hand to a showdown with everyone all in (compiled,
    millions of hands a minute); betting mode plays hands through the rules with
    built-in policies (station, random, tag, pushfold: the heads-up push/fold equilibrium
    at stacks up to 20 big blinds, tag elsewhere). The same seed gives the same hands
    whatever the workers; the same --run-id finishes an interrupted run.

    Examples:

    * `scooplab simulate --variant scarney --hands 1000000 --players 5 --seed 7`
    * `scooplab simulate --variant skoejarth --rule tiebreak=kickers --hands 500000`
    * `scooplab simulate --variant holdem --mode betting --policy tag --policy station --hands 20000`
    * `scooplab simulate --variant cry-me-a-river --mode betting --structure fixed-limit --policy random`
    * `scooplab simulate --variant holdem --mode betting --players 2 --big-blind 10 --policy pushfold`
    * `scooplab simulate --variant holdem --mode betting --ante 1/8 --hands 20000` (antes for all)
    * `scooplab simulate --variant cry-me-a-river --executor dask --scheduler tcp://10.0.0.5:8786`
    """
    import os
    import secrets

    from scooplab.lab import Lab

    game, lab = game_named(variant, data), Lab(data)
    settings = {"players": players, "seed": seed if seed is not None else secrets.randbits(63),
                "mode": mode.value, "rule": rule_options(game, rule), "stake": stake,
                "policies": tuple(policy or ("tag",)), "structure": structure.value if structure else "",
                "big_blind": big_blind, "ante": ante, "shard_size": shard_size}  # fmt: skip
    running = {"run_id": run_id, "workers": workers if workers > 0 else (os.cpu_count() or 1),
               "executor": executor.value, "scheduler": scheduler}  # fmt: skip
    try:
        spec = lab.simulation_spec(game, hands, **settings)
    except ValueError as error:
        fail(str(error))
    if seed is None:
        typer.echo(f"seed {spec.seed}", err=True)
    with compile_notices() as compiles:
        summary = _simulate(lab, variant, spec, settings, running)
    if output is OutputFormat.json:
        typer.echo(json.dumps(summary))
        return
    console.print(
        f"run [bold]{summary['run_id']}[/]: {done_line(summary, game.name, spec.seed, compiles)}",
        soft_wrap=True,
    )  # one line, however narrow the terminal (a log reads it whole)


def done_line(summary: dict, game: str, seed: int, compiles: Compiles) -> str:
    """What a finished run says: its hands, the time dealing them and the rate, which leave the
    kernels' compile out (said apart), the seed, and the shards an earlier run had done.

    >>> summary = {"hands": 20_000, "seconds": 2.2, "hands_per_second": 9_091, "resumed_shards": 0}
    >>> compiles = Compiles()
    >>> done_line(summary, "holdem", 7, compiles)
    '20,000 holdem hands simulated in 2.2 s, 9,091 hands/s, seed 7'
    >>> compiles.count, compiles.seconds = 12, 217.7
    >>> done_line(summary, "holdem", 7, compiles).split("hands/s")[1]
    ' (after 217.7 s compiling the kernels, not counted), seed 7'
    """
    rate = f", {summary['hands_per_second']:,} hands/s" if summary["hands_per_second"] else ""
    done = summary["resumed_shards"]
    resumed = f" ({done} shards already done)" if done else ""
    return (f"{summary['hands']:,} {game} hands simulated in {summary['seconds']:.1f} s{rate}"
            f"{compile_note(compiles)}, seed {seed}{resumed}")  # fmt: skip


def _simulate(lab, variant: str, spec, settings: dict, running: dict) -> dict:
    """The run simulated under a progress bar (the push/fold chart its pushfold seats play said
    first, solved if need be under a bar of its own); its summary. This process compiles the
    kernels, if need be, before the clock starts (``compile_notices`` says so as it starts);
    Dask's workers compile their own."""
    if running["executor"] == Executor.dask.value:
        kernels = ("betting_kernel", "betting_showdown") if spec.mode == "betting" else ("sim_kernels",)
        compiling_notice(*kernels)
    try:
        chart = lab.pushfold_chart(spec, running["run_id"], progress_of)
        if chart:
            typer.echo(chart, err=True)
        with progress_bar("simulating", total=spec.hands) as advance:
            return lab.simulate(variant, spec.hands, **settings, **running, progress=advance)
    except (ValueError, OSError) as error:
        fail(str(error))
    except RuntimeError as error:  # a helper process died (killed, out of memory): the shards done are kept
        fail(f"{error}; the shards finished are kept: the same command with the same --run-id goes on")


def upgrade_command(
    data: DataFolder = DEFAULT_DATA,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Processes for the simulations.")
    ] = 1,
) -> None:
    """Bring runs stored by an older scooplab to today's schema (docs/warehouse.md, "Schema versions").

    Showdown-mode runs of schema version 1 (seat lists as private codes) are simulated again
    from their seeds and settings, under the same run ids; everything else is read as it is.
    An interrupted upgrade is finished by running it again.

    Examples:

    * `scooplab upgrade`
    * `scooplab upgrade --data /tmp/warehouse --workers 2`
    """
    from scooplab.lab import Lab

    lab = Lab(data)
    failed: list[str] = []
    try:
        if not lab.older_runs():
            console.print(f"nothing to upgrade: every run in {data} is of today's schema")
            return
        compiling_notice("sim_kernels")
        upgraded = lab.upgrade(workers, on_run=lambda run: typer.echo(f"upgrading {run}", err=True),
                               on_failure=failed.append)  # fmt: skip
    except (ValueError, OSError) as error:
        fail(str(error))
    if upgraded:
        console.print(f"{len(upgraded)} run(s) simulated again in today's layout: {', '.join(upgraded)}")
    for line in failed:
        typer.echo(f"scooplab: could not upgrade {line}", err=True)
    if failed:
        raise typer.Exit(1)
