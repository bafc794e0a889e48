"""The ``scooplab`` command line: one subcommand per job."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from scooplab import games_cli, hands_cli, odds_cli, solve_cli
from scooplab.common import (
    DataOption,
    OutputFormat,
    TableFormat,
    VariantOption,
    console,
    fail,
    game_named,
    rule_options,
)
from scooplab.output import cell, progress_bar, progress_of, write_rows

app = typer.Typer(
    name="scooplab",
    help="Hand-history analytics lab for new poker variants: Scarney, Cry Me A River "
    "Hold'em, Skœjarth, their house variants and any game described in a file (scooplab variants), "
    "with hold'em for reference.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)


def compiling_notice(*modules: str) -> None:
    """Say so on standard error when numba has no cached machine code for these engine modules yet."""
    import os

    import engine  # noqa: F401  (points numba's cache at the folder of these sources)

    cache = Path(os.environ["NUMBA_CACHE_DIR"])  # numba keeps its cache there, in subfolders
    if not all(any(cache.glob(f"**/{module}.*.nbi")) for module in modules):
        typer.echo("compiling the kernels (first run only, about a minute)…", err=True)


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


DEFAULT_DATA = "data/warehouse"
MAX_REJECTS_SHOWN = 20


def _reject_reasons(data: Path, run_id: str) -> None:
    """The commonest reasons an ingest rejected hands, with their counts, on standard error."""
    from analytics.db import connect

    rows = (
        connect(data, tables=None)
        .sql(
            "SELECT reason, count(*) FROM rejects WHERE run_id = $run GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5",
            params={"run": run_id},
        )
        .fetchall()
    )
    for reason, count in rows:
        typer.echo(f"  {count:>7,}  {reason}", err=True)


@app.command("ingest")
def ingest_command(
    paths: Annotated[
        list[Path], typer.Argument(help="PHH files (.phh, .phhs), folders or .tar.gz archives.")
    ],
    data: DataOption = DEFAULT_DATA,
    run_id: Annotated[str | None, typer.Option("--run-id", help="Name of this run (default: new).")] = None,
    output: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = OutputFormat.table,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", "-v", help="A game described in a file whose PHH codes the hands use (repeatable)."
        ),
    ] = None,
) -> None:
    """Replay and check PHH hand histories, and store them in the warehouse.

    Every hand is replayed by the rules; a hand that breaks one is rejected with
    a one-line reason (file, hand, action) and the rest of the batch goes on.
    A hand already stored is recognised and not stored twice. The same --run-id again
    finishes an interrupted ingest (its earlier files are replaced) and does nothing
    after a complete one of the same files.

    Exit codes: 0 hands were stored (or were already); 2 nothing to read (a missing
    path, a folder without hand histories), no run recorded; 3 every hand was rejected.

    Examples:

    * `scooplab ingest ../shared/data/phh/pluribus.tar.gz`
    * `scooplab ingest hands/ --data /tmp/warehouse --format json`
    * `scooplab ingest my-game.phhs --variant my-game.toml` (a game described in a file)
    """
    from ingest.histories.phh import has_hand_histories

    for described in variant or []:
        game_named(described)  # known by its PHH codes from now on
    from scooplab.lab import Lab

    for path in paths:
        if not path.exists():
            fail(f"no such file or folder: {path}")
        if not has_hand_histories(path):
            fail(f"no hand histories (.phh, .phhs, .tar.gz) in {path}")
    shown = 0

    def on_reject(message: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= MAX_REJECTS_SHOWN:
            typer.echo(f"rejected: {message}", err=True)

    try:
        compiling_notice("replay_kernel", "betting_showdown")
        with progress_bar("ingesting") as tick:
            report = Lab(data).ingest(*paths, run_id=run_id, on_reject=on_reject, on_hand=tick)
    except (ValueError, OSError) as error:
        fail(str(error))
    if shown > MAX_REJECTS_SHOWN:
        typer.echo(
            f"... and {shown - MAX_REJECTS_SHOWN} more rejected (all are in the rejects table)",
            err=True,
        )
    report.pop("rejected_hands")  # shown above as they came
    if report["replaced_files"]:
        typer.echo(f"scooplab: run {report['run_id']} was interrupted; its "
                   f"{report['replaced_files']} earlier files were replaced", err=True)  # fmt: skip
    if report["complete_before"]:
        typer.echo(f"scooplab: run {report['run_id']} is a complete ingest of these paths; nothing to do",
                   err=True)  # fmt: skip
    if output is OutputFormat.json:
        typer.echo(json.dumps(report))
    else:
        console.print(
            f"run [bold]{report['run_id']}[/]: {report['hands']:,} hands stored, "
            f"{report['rejected']:,} rejected, {report['duplicates']:,} already in {data}"
        )
    if report["rejected"]:
        _reject_reasons(data, report["run_id"])
        typer.echo(
            f'the reasons: scooplab query "SELECT reason, count(*) FROM rejects WHERE run_id = '
            f"'{report['run_id']}' GROUP BY 1 ORDER BY 2 DESC\"",
            err=True,
        )
    if report["rejected"] and not report["hands"] and not report["duplicates"]:
        typer.echo("scooplab: every hand was rejected", err=True)
        raise typer.Exit(3)
    if not report["rejected"] + report["hands"] + report["duplicates"]:
        fail("no hands were found in the files given")


class ExportFormat(StrEnum):
    phh = "phh"
    duckdb = "duckdb"
    parquet = "parquet"
    csv = "csv"


@app.command("export")
def export_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The file (phh, duckdb, csv) or the folder.")],
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="A game (phh: required; parquet, csv: only its hands).")] = None,
    written: Annotated[ExportFormat, typer.Option("--format", help="What to write.")] = ExportFormat.phh,
    data: DataOption = DEFAULT_DATA,
    run: Annotated[list[str] | None, typer.Option("--run", help="Only these runs (repeatable).")] = None,
    table: Annotated[str | None, typer.Option("--table", help="csv: which view (default hands).")] = None,
    relative: Annotated[bool, typer.Option(
        "--relative", help="duckdb: name the Parquet files relative to the database's folder.")] = False,
) -> None:  # fmt: skip
    """Write stored hands for other tools: PHH (ingesting it gives the same rows), a DuckDB
    database of the views, a copy of some runs' Parquet files, or one view as CSV.

    A DuckDB export lists today's files (export again after new runs); the DuckDB CLI, DBeaver
    or any DuckDB client opens it (docs/python-api.md).

    Examples:

    * `scooplab export --variant holdem --out holdem.phhs`
    * `scooplab export --variant scarney --run sim-1 --out scarney.phhs`
    * `scooplab export --format duckdb --out lab.duckdb` then `duckdb lab.duckdb`
    * `scooplab export --format parquet --run demo-scarney --out /tmp/scarney-lab`
    * `scooplab export --format csv --table players --variant holdem --out players.csv`
    """
    from analytics import export

    meaningless = {"--variant": variant and written is ExportFormat.duckdb,
                   "--run": run and written is ExportFormat.duckdb,
                   "--table": table and written is not ExportFormat.csv,
                   "--relative": relative and written is not ExportFormat.duckdb}  # fmt: skip
    for option, given in meaningless.items():
        if given:
            fail(f"{option} means nothing for --format {written.value} (see `scooplab export --help`)")
    if written is not ExportFormat.phh and "://" not in str(data) and not Path(data).is_dir():
        fail(f"no warehouse at {data} (--data names the folder)")
    name = game_named(variant).name if variant else None
    try:
        if written is ExportFormat.phh:
            from ingest.histories.export import export_hands
            from ingest.storage.warehouse import Warehouse

            if name is None:
                fail("--variant: which game's hands? (PHH export is of one game)")
            count = export_hands(Warehouse(data), name, out, runs=run)
            console.print(f"{count:,} {name} hands written to {out}")
        elif written is ExportFormat.duckdb:
            views = export.export_duckdb(data, out, relative=relative)
            console.print(f"{views} views over {data} in {out} (open it with any DuckDB client)")
        elif written is ExportFormat.parquet:
            if not run:
                fail("--run: which runs to copy? (repeatable)")
            files = export.export_parquet(data, out, run, name)
            console.print(f"{files:,} Parquet files of {', '.join(run)} copied to {out}")
        else:
            rows = export.export_csv(data, table or "hands", out, name, run)
            console.print(f"{rows:,} rows of {table or 'hands'} written to {out}")
    except (ValueError, OSError) as error:
        fail(" ".join(str(error).split()))


class Mode(StrEnum):
    showdown = "showdown"
    betting = "betting"


class Population(StrEnum):
    showdown = "showdown"
    betting = "betting"
    replayed = "replayed"


class Betting(StrEnum):
    no_limit = "no-limit"
    pot_limit = "pot-limit"
    fixed_limit = "fixed-limit"


class Executor(StrEnum):
    local = "local"
    dask = "dask"


@app.command("simulate")
def simulate_command(
    variant: VariantOption,
    hands: Annotated[int, typer.Option("--hands", "-n", help="How many hands.")] = 1_000_000,
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table.")] = 6,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (default: new, printed).")] = None,
    mode: Annotated[
        Mode, typer.Option("--mode", help="showdown: all in, compiled; betting: policies play.")
    ] = Mode.showdown,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", help="A rule option KEY=VALUE (repeatable).")
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option("--policy", help="Betting mode: policy per seat, repeated round the table."),
    ] = None,
    structure: Annotated[
        Betting | None,
        typer.Option("--structure", help="Betting mode: the betting structure (default: the game's own)."),
    ] = None,
    stake: Annotated[int, typer.Option("--stake", help="Chips each player brings.")] = 100,
    big_blind: Annotated[
        int,
        typer.Option("--big-blind", help="Betting mode: big blind in chips, even (default: 2% of stake)."),
    ] = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help="Processes (local: this one and N-1 helpers; default: all cores)."
        ),
    ] = 0,
    executor: Annotated[
        Executor, typer.Option("--executor", help="Run shards locally or on Dask.")
    ] = Executor.local,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")] = None,
    shard_size: Annotated[int, typer.Option("--shard-size", help="Hands per shard.")] = 200_000,
    data: DataOption = DEFAULT_DATA,
    run_id: Annotated[
        str | None, typer.Option("--run-id", help="Name the run; the same name resumes it.")
    ] = None,
    output: Annotated[OutputFormat, typer.Option("--format", help="Output format.")] = OutputFormat.table,
) -> None:
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
    * `scooplab simulate --variant cry-me-a-river --executor dask --scheduler tcp://10.0.0.5:8786`
    """
    import os
    import secrets

    from ingest.generation.simulation import SimSpec
    from scooplab.lab import Lab

    game = game_named(variant)
    try:
        options = rule_options(game, rule)
        spec = SimSpec(
            game=game.source if game.source and variant.endswith(".toml") else game.name,
            hands=hands,
            players=players,
            seed=seed if seed is not None else secrets.randbits(63),
            mode=mode.value,
            options=options,
            stake=stake,
            shard_size=shard_size,
            policies=tuple(policy or ("tag",)),
            structure=structure.value if structure else "",
            big_blind=big_blind,
        ).check()
    except ValueError as error:
        fail(str(error))
    if seed is None:
        typer.echo(f"seed {spec.seed}", err=True)
    count = workers if workers > 0 else (os.cpu_count() or 1)
    kernels = ("betting_kernel", "betting_showdown") if spec.mode == "betting" else ("sim_kernels",)
    compiling_notice(*kernels)
    try:
        if spec.mode == "betting" and "pushfold" in spec.policies:  # solved (or read) before the run's bar
            from ingest.generation.betting_sim import pushfold_chart
            from ingest.generation.simulation import check_resume
            from ingest.storage.warehouse import Warehouse

            if run_id:
                check_resume(spec, Warehouse(str(data)), run_id)
            typer.echo(pushfold_chart(spec, game, Warehouse(str(data)), progress_of)[1], err=True)
        with progress_bar("simulating", total=spec.hands) as advance:
            summary = Lab(data).simulate(
                variant, spec.hands, players=spec.players, seed=spec.seed, mode=spec.mode, rule=options,
                stake=spec.stake, policies=spec.policies, structure=spec.structure, big_blind=big_blind,
                shard_size=spec.shard_size, run_id=run_id, workers=count, executor=executor.value,
                scheduler=scheduler, progress=advance)  # fmt: skip
    except (ValueError, OSError) as error:
        fail(str(error))
    if output is OutputFormat.json:
        typer.echo(json.dumps(summary))
        return
    rate = f", {summary['hands_per_second']:,} hands/s" if summary["hands_per_second"] else ""
    done = summary["resumed_shards"]
    resumed = f" ({done} shards already done)" if done else ""
    console.print(
        f"run [bold]{summary['run_id']}[/]: {summary['hands']:,} {game.name} hands simulated in "
        f"{summary['seconds']:.1f} s{rate}, seed {spec.seed}{resumed}"
    )


@app.command("stats")
def stats_command(
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="A game: a built-in name or a description file (.toml); with "
        "--equilibrium optional (every game by default).")] = None,
    run: Annotated[list[str] | None, typer.Option("--run", help="Only these runs (repeatable).")] = None,
    mode: Annotated[
        Population | None, typer.Option("--mode", help="Which hands: showdown mode, betting mode, replayed.")
    ] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="Which table size.")] = None,
    structure: Annotated[
        str | None, typer.Option("--structure", help="Which betting structure (all-in: showdown mode).")
    ] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", help="Only hands played under rule option KEY=VALUE.")
    ] = None,
    play: Annotated[str | None, typer.Option(
        "--play", help="Betting mode: which policies and stacks, as listed (\"pushfold, 10 bb\").")] = None,
    data: DataOption = DEFAULT_DATA,
    output: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
    brief: Annotated[bool, typer.Option("--brief", help="Only the headline rates (table format).")] = False,
    equilibrium: Annotated[bool, typer.Option(
        "--equilibrium", help="Instead: the heads-up push/fold table across games at 5, 10, 15 bb.")] = False,
    compute: Annotated[bool, typer.Option(
        "--compute", help="With --equilibrium: solve what is missing first (minutes a game).")] = False,
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
    if equilibrium:
        from scooplab.solve_cli import equilibrium_table

        equilibrium_table(str(data), variant, compute, output)
        return
    if variant is None:
        fail("--variant: which game? (`scooplab variants` lists them)")
    from analytics.report import flatten, scalars
    from scooplab.lab import Lab

    game = game_named(variant)
    variant = game.name
    options = rule_options(game, rule)
    try:
        stats = Lab(data).stats(variant, run, mode=mode.value if mode else None, players=players,
                                structure=structure, rule=options, play=play)  # fmt: skip
    except Exception as error:
        fail(" ".join(str(error).split()))
    if output is TableFormat.json:
        typer.echo(json.dumps(stats, default=str))
        return
    if stats["hands"] == 0:
        fail(f"no {variant} hands in {data}: run `scooplab simulate --variant {variant}` first")
    rows = flatten(stats)
    if output is TableFormat.table:
        console.print(
            ", ".join(f"{k} {cell(v)}" for k, v in scalars(stats).items() if v is not None),
            highlight=False,
        )
        if brief:  # the game-wide rates, not each category, card or player
            rows = [row for row in rows if "[" not in row["statistic"] and "." not in row["statistic"]]
        rows = [_display(row) for row in rows]
        shown = stats["population"]["label"]
        others = [f"{p['label']} ({p['hands']:,})" for p in stats["populations"] if p["label"] != shown]
        if others:
            typer.echo(f"other populations (--mode, --players, --structure, --rule, --play): "
                       f"{'; '.join(others)}", err=True)  # fmt: skip
    write_rows(rows, output, f"{variant} statistics: {stats['population']['label']}")


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.3f}"


def _display(row: dict) -> dict:
    """A statistics row for the terminal: percentages and a compact interval."""
    return {
        "statistic": row["statistic"],
        "count": row["count"],
        "n": row["n"],
        "%": _percent(row["rate"]),
        "95% interval": f"{_percent(row['ci95_low'])}–{_percent(row['ci95_high'])}",
        "exact %": _percent(row["exact"]),
        "z": "" if row["z"] is None else f"{row['z']:+.2f}",
    }


@app.command("compare")
def compare_command(
    run_a: Annotated[str, typer.Argument(help="The first run id.")],
    run_b: Annotated[str, typer.Argument(help="The second run id.")],
    data: DataOption = DEFAULT_DATA,
    output: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
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
    if not all_rows and output is TableFormat.table:
        rows = [r for r in rows if r["significant"]] or rows
    design = "paired: the same deals, hand by hand" if result["paired"] else "independent samples"
    write_rows(rows, output, f"{variant}: {run_a} (a) against {run_b} (b), {design}")


@app.command("upgrade")
def upgrade_command(
    data: DataOption = DEFAULT_DATA,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes for the simulations.")] = 1,
) -> None:
    """Bring runs stored by an older scooplab to today's schema (docs/warehouse.md, "Schema versions").

    Showdown-mode runs of schema version 1 (seat lists as private codes) are simulated again
    from their seeds and settings, under the same run ids; everything else is read as it is.
    An interrupted upgrade is finished by running it again.

    Examples:

    * `scooplab upgrade`
    * `scooplab upgrade --data /tmp/warehouse --workers 2`
    """
    from ingest.generation.upgrade import older_runs, upgrade
    from ingest.storage.warehouse import Warehouse

    try:
        waiting = older_runs(Warehouse(data))
        if not waiting:
            console.print(f"nothing to upgrade: every run in {data} is of today's schema")
            return
        compiling_notice("sim_kernels")
        failed: list[str] = []
        upgraded = upgrade(str(data), workers, on_run=lambda run: typer.echo(f"upgrading {run}", err=True),
                           on_failure=failed.append)  # fmt: skip
    except (ValueError, OSError) as error:
        fail(str(error))
    if upgraded:
        console.print(f"{len(upgraded)} run(s) simulated again in today's layout: {', '.join(upgraded)}")
    for line in failed:
        typer.echo(f"scooplab: could not upgrade {line}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command("query")
def query_command(
    sql: Annotated[str, typer.Argument(help="One read-only SQL query over the views.")],
    data: DataOption = DEFAULT_DATA,
    output: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
    limit: Annotated[int, typer.Option("--limit", help="At most this many rows (table format).")] = 200,
    timeout: Annotated[float | None, typer.Option(
        "--timeout", help="Cancel the query after this many seconds [default: $SCOOPLAB_QUERY_TIMEOUT or 60]",
        show_default=False)] = None,
    memory_limit: Annotated[str | None, typer.Option(
        "--memory-limit", help="Stop the query past this much memory, such as 500MB "
        "[default: $SCOOPLAB_QUERY_MEMORY or 2GB]", show_default=False)] = None,
) -> None:  # fmt: skip
    """Read-only SQL over the warehouse views (hands, players, actions, runs, rejects, ...).

    The connection cannot write, attach databases, COPY out or read files outside the
    warehouse: such a query gets a one-line error and exit code 2. So does a query stopped
    at its time limit (60 s) or memory limit (2 GB): it runs in a process of its own.

    Examples:

    * `scooplab query "SELECT variant, count(*) FROM hands GROUP BY variant"`
    * `scooplab query "SELECT high_category, count(*) FROM players WHERE showdown GROUP BY 1" --format csv`
    * `scooplab query "SELECT * FROM players" --format csv --timeout 300 --memory-limit 8GB > players.csv`
    """
    from analytics.db import run_query
    from analytics.sandbox import QueryError, QueryLimits

    try:
        limits = QueryLimits.of(timeout, memory_limit)
        table = run_query(data, sql, limit=limit if output is TableFormat.table else None, limits=limits)
    except QueryError as error:
        fail(str(error))
    if output is TableFormat.table:
        write_rows(table.to_pylist(), output)
        return
    batches = (batch.to_pylist() for batch in table.to_batches(max_chunksize=10_000))
    _write_query_rows(table.column_names, batches, output)


def _write_query_rows(columns: list[str], batches: Iterator[list[dict]], output: TableFormat) -> None:
    """A query's rows as JSON or CSV as ``write_rows`` writes them (a CSV header even without rows),
    a batch at a time: a large result is never all Python objects at once."""
    import csv

    if output is TableFormat.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=columns)
        writer.writeheader()
        for rows in batches:
            writer.writerows(rows)
        return
    sys.stdout.write("[")
    for number, rows in enumerate(r for r in batches if r):
        sys.stdout.write((", " if number else "") + json.dumps(rows, default=str)[1:-1])
    sys.stdout.write("]\n")


@app.command("dashboard")
def dashboard_command(
    data: DataOption = DEFAULT_DATA,
    port: Annotated[int, typer.Option("--port", help="Port to serve on.")] = 8501,
    host: Annotated[str, typer.Option("--host", help="Address to serve on.")] = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help="Open a browser tab.")] = False,
) -> None:
    """Serve the Streamlit dashboard over a warehouse (on 127.0.0.1 unless told otherwise).

    Examples:

    * `scooplab dashboard`
    * `scooplab dashboard --data /tmp/warehouse --port 8600`
    """
    import os

    app_file = Path(__file__).resolve().parents[1] / "dashboards" / "app.py"
    environment = dict(os.environ, SCOOPLAB_DATA=str(data))
    typer.echo(f"scooplab dashboard: http://{host}:{port} (warehouse {data}); Ctrl-C stops it", err=True)
    command = [
        sys.executable, "-m", "streamlit", "run", str(app_file), "--server.port", str(port),
        "--server.address", host, "--server.headless", "true" if not open_browser else "false",
        "--browser.gatherUsageStats", "false", "--theme.base", "light", "--client.toolbarMode", "viewer",
        # under many sessions (docs/reliability.md): no scan of every module for each new session, no
        # full garbage collection holding the lock of every session after each page
        "--server.fileWatcherType", "none", "--runner.postScriptGC", "false",
    ]  # fmt: skip
    # the server replaces this process: one process to stop, and nothing left behind when it is
    os.execve(sys.executable, command, environment)


games_cli.register(app)
odds_cli.register(app)
hands_cli.register(app)
solve_cli.register(app)


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


if __name__ == "__main__":  # pragma: no cover
    run()
