"""``scooplab ingest --watch FOLDER``: the hands a poker client writes, stored as they come
(``Lab.watch``); a line for each batch, one for each rejected hand, and Ctrl-C (or SIGTERM) stops
it between batches, with everything stored before kept."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from types import FrameType

import typer

from scooplab.cli.common import fail
from scooplab.cli.options import OutputFormat
from scooplab.cli.progress import compile_notices

MAX_REJECTS_SHOWN = 20  # a batch's rejected hands shown one line each; the rest counted
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopAsked:
    """Ctrl-C and SIGTERM, while the block runs, ask the watch to stop instead of interrupting it:
    the batch at work is finished and stored."""

    def __init__(self) -> None:
        self.asked = False
        self._before: dict[int, object] = {}

    def __call__(self) -> bool:
        return self.asked

    def _ask(self, number: int, frame: FrameType | None) -> None:
        self.asked = True  # (nothing written here: a write may be half done where the signal came)

    def __enter__(self) -> StopAsked:
        self._before = {number: signal.signal(number, self._ask) for number in STOP_SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._before.items():
            signal.signal(number, handler)


def batch_line(batch: dict) -> str:
    """What one batch stored, as a line.

    >>> batch_line({"run_id": "watch-1", "hands": 3, "duplicates": 0, "rejected": 1, "files": 2})[9:]
    'watch-1: 3 hands stored, 0 already stored, 1 rejected, from 2 files'
    >>> batch_line({"run_id": "watch-2", "hands": 0, "duplicates": 4, "rejected": 0, "files": 1})[9:]
    'no run: 0 hands stored, 4 already stored, 0 rejected, from 1 file'
    """
    run = batch["run_id"] if batch["hands"] + batch["rejected"] else "no run"
    files = f"{batch['files']:,} file{'s' * (batch['files'] != 1)}"
    counts = f"{batch['hands']:,} hands stored, {batch['duplicates']:,} already stored"
    return f"{time.strftime('%H:%M:%S')} {run}: {counts}, {batch['rejected']:,} rejected, from {files}"


def watch_folder(folder: Path, data: str, every: float, output: OutputFormat) -> None:
    """Watch ``folder`` until Ctrl-C or SIGTERM: a line per batch (JSON with ``--format json``) on
    standard output, rejected hands and the totals at the end on standard error; exit code 0."""
    from scooplab.lab import Lab

    if not folder.is_dir():
        fail(f"--watch {folder}: no such folder")
    shown = 0

    def on_reject(message: str) -> None:
        nonlocal shown
        shown += 1
        if shown <= MAX_REJECTS_SHOWN:
            typer.echo(f"rejected: {message}", err=True)

    def on_batch(batch: dict) -> None:
        nonlocal shown
        if shown > MAX_REJECTS_SHOWN:
            typer.echo(f"... and {shown - MAX_REJECTS_SHOWN} more rejected (all are in the rejects table)",
                       err=True)  # fmt: skip
        shown = 0
        typer.echo(json.dumps(batch) if output is OutputFormat.json else batch_line(batch))

    try:
        with compile_notices(), StopAsked() as stop:
            typer.echo(f"watching {folder} for hands, a look every {every:g} s (Ctrl-C stops)", err=True)
            totals = Lab(data).watch(folder, every, stop, on_batch=on_batch, on_reject=on_reject)
    except (ValueError, OSError) as error:
        fail(str(error))
    stored = f"{totals['hands']:,} hands stored in {totals['runs']:,} runs"
    typer.echo(f"stopped: {stored}, {totals['duplicates']:,} already stored, {totals['rejected']:,} rejected",
               err=True)  # fmt: skip
