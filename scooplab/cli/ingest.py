"""Hand histories in and out: ``scooplab ingest`` (PHH files into the warehouse) and ``scooplab
export`` (stored hands as PHH, Open Hand History, a DuckDB database, Parquet files or CSV)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from scooplab.cli.common import existing_warehouse, fail, game_named
from scooplab.cli.options import DEFAULT_DATA, DataFolder, Format, OutputFormat, Runs
from scooplab.cli.output import console, progress_bar
from scooplab.cli.progress import compile_notices

MAX_REJECTS_SHOWN = 20
PROGRESS_EVERY = 10.0  # seconds between the progress lines written when standard error is no terminal
SAY_SIZE = 1 << 20  # a single file smaller than this is ingested without its size said first
Paths = Annotated[
    list[Path] | None, typer.Argument(help="PHH files (.phh, .phhs), folders or .tar.gz archives.")
]
RunId = Annotated[str | None, typer.Option("--run-id", help="Name of this run (default: new).")]
Described = Annotated[
    list[str] | None,
    typer.Option(
        "--variant", "-v", help="A game described in a file whose PHH codes the hands use (repeatable)."
    ),
]


IngestWorkers = Annotated[int, typer.Option(
    "--workers", "-w", min=1, help="Processes: this one and N-1 helpers, each the next files.")]  # fmt: skip
Watch = Annotated[Path | None, typer.Option(
    "--watch", help="A folder to watch: its hands now, then each new one as it is written, till Ctrl-C.",
    file_okay=False)]  # fmt: skip
Every = Annotated[float, typer.Option(
    "--every", min=0.01, help="--watch: seconds between two looks at the folder.")]  # fmt: skip


def ingest_command(
    paths: Paths = None, data: DataFolder = DEFAULT_DATA, run_id: RunId = None,
    output: Format = OutputFormat.table, variant: Described = None, workers: IngestWorkers = 1,
    watch: Watch = None, every: Every = 2.0,
) -> None:  # fmt: skip
    """Read hand histories (PokerStars, GGPoker, Winamax, iPoker, PartyPoker, 888, Full Tilt, Ongame,
    Absolute, Open Hand History, PHH), check them, store them.

    Every hand is replayed by the rules; a hand that breaks one is rejected with
    a one-line reason (file, hand, action) and the rest of the batch goes on.
    A hand already stored is recognised and not stored twice. The same --run-id again
    finishes an interrupted ingest (its earlier files are replaced) and does nothing
    after a complete one of the same files.

    It says first what it reads (files, bytes, hands when each file holds one; not for one small
    file), then the files and hands read as it goes: a bar on a terminal, a line every 10 s in a
    log. Its rate leaves out the time the replay kernels compile (a first run only, said as it starts).

    With --watch FOLDER it stores the hands there, then looks every --every seconds for
    hands a poker client has added (a hand half written waits for its end), each look's
    hands one run, a line each, until Ctrl-C or SIGTERM stops it between two looks (exit
    code 0; docs/warehouse.md, "Watching a folder").

    Exit codes: 0 hands were stored (or were already); 2 nothing to read (a missing
    path, a folder without hand histories), no run recorded; 3 every hand was rejected.

    Examples:

    * `scooplab ingest ../shared/data/phh/pluribus.tar.gz`
    * `scooplab ingest hands/ --data /tmp/warehouse --format json`
    * `scooplab ingest my-game.phhs --variant my-game.toml` (a game described in a file)
    * `scooplab ingest handhq/ --workers 2` (two processes, each ingesting the next files)
    * `scooplab ingest --watch ~/PokerStars/HandHistory` (as the client plays)
    """
    from scooplab.lab import Lab

    for described in variant or []:
        game_named(described, data)  # known by its PHH codes from now on
    if watch is not None:
        _watch(watch, paths, data, run_id, output, workers, every)
        return
    if not paths:
        fail("which hands? give files or folders, or --watch FOLDER")
    _check_paths(paths)
    shown = 0

    def on_reject(message: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= MAX_REJECTS_SHOWN:
            typer.echo(f"rejected: {message}", err=True)

    lab = Lab(data)
    files, hands = _say_size(paths)
    try:
        with compile_notices() as compiles, _progress(files, hands) as (on_hand, on_file):
            start = time.perf_counter()
            report = lab.ingest(*paths, run_id=run_id, on_reject=on_reject, on_hand=on_hand, workers=workers,
                                games=tuple(variant or ()), on_file=on_file)  # fmt: skip
            report["seconds"], report["compile_seconds"] = time.perf_counter() - start, compiles.seconds
    except (ValueError, OSError) as error:
        fail(str(error))
    if shown > MAX_REJECTS_SHOWN:
        typer.echo(f"... and {shown - MAX_REJECTS_SHOWN} more rejected (all are in the rejects table)",
                   err=True)  # fmt: skip
    _print_report(lab, report, output, paths)


def _watch(folder: Path, paths, data: str, run_id, output: OutputFormat, workers: int, every: float) -> None:
    """``--watch``: refuse what it cannot take with it, then watch (``scooplab.cli.watch``)."""
    from scooplab.cli.watch import watch_folder

    for given, option in ((paths, "files to ingest"), (run_id, "--run-id"), (workers > 1, "--workers")):
        if given:
            fail(f"--watch takes no {option} (each look's hands are a run named watch-<time>-<n>)")
    watch_folder(folder, data, every, output)


def _say_size(paths: list[Path]) -> tuple[int, int | None]:
    """Say on standard error how much there is to read (unless it is one small file): files, bytes,
    hands when known. The files and the hands (None: counted only as they are read)."""
    from ingest.histories.phh import input_size

    files, size, hands = input_size(paths)
    if files > 1 or size >= SAY_SIZE:
        known = f", {hands:,} hands" if hands is not None else ""
        typer.echo(f"ingesting {files:,} file{'s' * (files != 1)} ({_bytes(size)}{known})", err=True)
    return files, hands


def _bytes(size: int) -> str:
    """A size as people read it.

    >>> _bytes(999), _bytes(12_345), _bytes(13_100_000)
    ('999 bytes', '12 kB', '13.1 MB')
    """
    if size < 1000:
        return f"{size} bytes"
    return f"{size / 1000:,.0f} kB" if size < 1_000_000 else f"{size / 1_000_000:,.1f} MB"


@contextmanager
def _progress(files: int, hands: int | None) -> Iterator[tuple[Callable[[int], None], Callable[[int], None]]]:
    """The hands and the files read as they go: a bar on a terminal, else a plain line every
    ``PROGRESS_EVERY`` seconds (``output.progress_bar``). Its ``on_hand`` and ``on_file``."""
    read, shown = [0], [0.0]
    with progress_bar("ingesting", total=hands, plain_every=PROGRESS_EVERY) as advance:

        def on_file(count: int) -> None:
            read[0] += count
            if read[0] == files or time.monotonic() - shown[0] >= 0.1:  # an update costs more than a file
                shown[0] = time.monotonic()
                advance(0, note=f"{read[0]:,} of {files:,} files")

        yield advance, on_file


def _check_paths(paths: list[Path]) -> None:
    """Fail unless every path exists and holds hand histories."""
    from ingest.histories.phh import has_hand_histories

    for path in paths:
        if not path.exists():
            fail(f"no such file or folder: {path}")
        if not has_hand_histories(path):
            fail(f"no hand histories (PHH, a poker client's files; .zip or .tar.gz of them) in {path}")


def _stack_chain(lab, run: str, report: dict) -> str:
    """The line saying how many hands start with a stack other than the previous hand at their table
    left (a hand missing from the file, a top-up, a rebuy: a finding, not an error); counted in the
    report. Empty when no stored hand follows another at its table."""
    if not report["hands"] or report["complete_before"]:
        return ""
    differ, chained = lab.stack_chain(run)
    report["stack_chain"] = {"hands_after_another": chained, "stacks_differ": differ}
    if not chained:
        return ""
    return (f"  stacks: {chained - differ:,} of {chained:,} hands that follow another at their table start "
            f"as it ended; {differ:,} differ (a hand missing from the file, a top-up, a rebuy): scooplab "
            "query \"SELECT * FROM stack_chain WHERE NOT agrees\"")  # fmt: skip


def _print_report(lab, report: dict, output: OutputFormat, paths: list[Path]) -> None:
    """What an ingest did (its rejected hands were shown as they came), and its exit code."""
    report.pop("rejected_hands")
    run, read = report["run_id"], report["hands"] + report["rejected"] + report["duplicates"]
    working = max(report["seconds"] - report["compile_seconds"], 1e-9)
    report["hands_per_second"] = round(read / working) if read and not report["complete_before"] else 0
    if report["replaced_files"]:
        typer.echo(f"scooplab: run {run} was interrupted; its {report['replaced_files']} earlier files "
                   "were replaced", err=True)  # fmt: skip
    if report["complete_before"]:
        typer.echo(f"scooplab: run {run} is a complete ingest of these paths; nothing to do", err=True)
    chain = _stack_chain(lab, run, report)
    if output is OutputFormat.json:
        typer.echo(json.dumps(report))
    if read and read == report["duplicates"] and not report["complete_before"]:
        where = ", ".join(map(str, paths))
        line = f"{where}: every hand ({read:,}) was already stored; nothing new, no run recorded"
        typer.echo(line, err=output is OutputFormat.json)
        return
    if output is not OutputFormat.json:
        counts = f"{report['hands']:,} hands stored, {report['rejected']:,} rejected"
        console.print(f"run [bold]{run}[/]: {counts}, {report['duplicates']:,} already in {lab.data}"
                      f"{_timing(report)}")  # fmt: skip
    if chain:
        typer.echo(chain)
    if report["rejected"]:
        for reason, count in lab.reject_reasons(run):
            typer.echo(f"  {count:>7,}  {reason}", err=True)
        typer.echo(f'the reasons: scooplab query "SELECT reason, count(*) FROM rejects WHERE run_id = '
                   f"'{run}' GROUP BY 1 ORDER BY 2 DESC\"", err=True)  # fmt: skip
    if report["rejected"] and not report["hands"] and not report["duplicates"]:
        typer.echo("scooplab: every hand was rejected", err=True)
        raise typer.Exit(3)
    if not read:
        fail("no hands were found in the files given")


def _timing(report: dict) -> str:
    """How long the ingest took, and its rate without the time spent compiling kernels."""
    if report["complete_before"] or not report["hands_per_second"]:
        return ""
    compiled = f"{report['compile_seconds']:.1f} s compiling, " if report["compile_seconds"] >= 0.05 else ""
    return f", in {report['seconds']:.1f} s ({compiled}{report['hands_per_second']:,} hands/s)"


def _say_skipped(count: int, why: str | None = None) -> None:
    if why is not None:  # an OHH export: each kind of hand it leaves out
        typer.echo(f"scooplab: {count:,} hands left out: {why}", err=True)
        return
    typer.echo(f"scooplab: {count:,} showdown-mode hands left out: they are stored without a PHH history "
               "(everyone all in before the deal; `--run` picks runs)", err=True)  # fmt: skip


class ExportFormat(StrEnum):
    phh = "phh"
    ohh = "ohh"
    duckdb = "duckdb"
    parquet = "parquet"
    csv = "csv"


def export_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The file (phh, ohh, duckdb, csv) or the folder.")],
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="A game (phh: required; ohh, parquet, csv: only its hands).")] = None,
    written: Annotated[ExportFormat, typer.Option("--format", help="What to write.")] = ExportFormat.phh,
    data: DataFolder = DEFAULT_DATA,
    run: Runs = None,
    table: Annotated[str | None, typer.Option("--table", help="csv: which view (default hands).")] = None,
    relative: Annotated[bool, typer.Option(
        "--relative", help="duckdb: name the Parquet files relative to the database's folder.")] = False,
) -> None:  # fmt: skip
    """Write stored hands for other tools: PHH (ingesting it gives the same rows), Open Hand
    History for trackers (the hold'em and Omaha hands; ingesting it gives the same rows), a DuckDB
    database of the views, a copy of some runs' Parquet files, or one view as CSV.

    A DuckDB export lists today's files (export again after new runs); the DuckDB CLI, DBeaver
    or any DuckDB client opens it (docs/python-api.md).

    Examples:

    * `scooplab export --variant holdem --out holdem.phhs`
    * `scooplab export --variant scarney --run sim-1 --out scarney.phhs`
    * `scooplab export --format ohh --out hands.ohh` (the hold'em and Omaha hands, for trackers)
    * `scooplab export --format duckdb --out lab.duckdb` then `duckdb lab.duckdb`
    * `scooplab export --format parquet --run demo-scarney --out /tmp/scarney-lab`
    * `scooplab export --format csv --table players --variant holdem --out players.csv`
    """
    from scooplab.lab import Lab

    existing_warehouse(data)
    _check_export(written, data, variant, run, table, relative)
    name = game_named(variant, data).name if variant else None
    if written is ExportFormat.phh and name is None:
        fail("--variant: which game's hands? (PHH export is of one game)")
    if written is ExportFormat.parquet and not run:
        fail("--run: which runs to copy? (repeatable)")
    try:
        count = Lab(data).export(out, written.value, name, run, table, relative, on_skipped=_say_skipped)
    except (ValueError, OSError) as error:
        fail(" ".join(str(error).split()))
    games = "hold'em and Omaha"  # what an OHH export of every game writes
    said = {ExportFormat.phh: f"{count:,} {name} hands written to {out}",
            ExportFormat.ohh: f"{count:,} {name or games} hands written to {out} as OHH",
            ExportFormat.duckdb: f"{count} views over {data} in {out} (open it with any DuckDB client)",
            ExportFormat.parquet: f"{count:,} Parquet files of {', '.join(run or [])} copied to {out}",
            ExportFormat.csv: f"{count:,} rows of {table or 'hands'} written to {out}"}  # fmt: skip
    console.print(said[written])


def _check_export(written: ExportFormat, data: str, variant, run, table, relative: bool) -> None:
    """Fail on an option the format does not use, or a local warehouse that is not there."""
    meaningless = {"--variant": variant and written is ExportFormat.duckdb,
                   "--run": run and written is ExportFormat.duckdb,
                   "--table": table and written is not ExportFormat.csv,
                   "--relative": relative and written is not ExportFormat.duckdb}  # fmt: skip
    for option, given in meaningless.items():
        if given:
            fail(f"{option} means nothing for --format {written.value} (see `scooplab export --help`)")
    if written is not ExportFormat.phh and "://" not in str(data) and not Path(data).is_dir():
        fail(f"no warehouse at {data} (--data names the folder)")
