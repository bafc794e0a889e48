"""Files derived from a local warehouse's runs (``derived/``), kept beside it and made again only
when a run's files change: the tracker's seat rows (``analytics.tracker``) and the hand-id index
(``analytics.hand_index``). Each derived file has a manifest (JSON) naming the version of its
definition and the run's files it was made from (name, size and time of change), and is written
atomically: a temporary file naming its process and machine, then a rename.
"""

from __future__ import annotations

import json
import os
import posixpath
import socket
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from ingest.storage.warehouse import Warehouse, holder_alive

LEFT_BEHIND_SECONDS = 3600  # a temporary file this old is no writer's at work (a count takes seconds)


def runs_files(warehouse: Warehouse, keep: Callable[[str], bool] | None = None) -> dict[str, list[str]]:
    """Each run's finished hands files (those ``keep`` accepts), each as ``variant/name:size:mtime``:
    a file written again under its name is a change."""
    runs: dict[str, list[str]] = {}
    for path in warehouse.files("hands"):
        run = next((p[4:] for p in path.split("/") if p.startswith("run=")), None)
        if run is not None and (keep is None or keep(path)):
            about = os.stat(path)
            variant = posixpath.basename(posixpath.dirname(posixpath.dirname(path)))
            name = f"{variant}/{posixpath.basename(path)}:{about.st_size}:{about.st_mtime_ns}"
            runs.setdefault(run, []).append(name)
    return runs


def refresh(folder: Path, wanted: dict[str, list[str]], version: int,
            make: Callable[[str, Path, dict[str, Any]], None], on_run: Callable[[str], None] | None = None,
            current: Callable[[Path, dict[str, Any]], bool] | None = None) -> list[str]:  # fmt: skip
    """The derived file of each run of ``wanted`` (run -> its files, ``runs_files``) in ``folder``,
    ``make(run, path, manifest)`` called for each one missing or made from other files (or by another
    ``version``) than the run has now; ``on_run(run)`` hears of each made now. ``current(path,
    manifest)`` tells whether a file is current (default ``is_current``: its JSON manifest)."""
    current = current or is_current
    files = []
    for run, sources in sorted(wanted.items()):
        path = folder / f"run={run}.parquet"
        manifest = {"version": version, "sources": sources}
        if not current(path, manifest):
            make(run, path, manifest)
            if on_run:
                on_run(run)
        files.append(str(path))
    return files


def is_current(path: Path, manifest: dict[str, Any]) -> bool:
    """Whether ``path`` exists and was made from what ``manifest`` names."""
    try:
        return json.loads(path.with_suffix(".json").read_text()) == manifest and path.exists()
    except (OSError, ValueError):
        return False


def write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    """The manifest of ``path`` (``path`` with ``.json``), written atomically."""
    written = temporary(path.parent, ".json.partial")
    try:
        written.write_text(json.dumps(manifest))
        os.replace(written, path.with_suffix(".json"))
    finally:
        written.unlink(missing_ok=True)


def remove_stale(folder: Path, runs: set[str]) -> list[Path]:
    """Remove the derived files (and manifests) of runs no longer in the warehouse; those removed."""
    removed = []
    for stale in folder.glob("run=*.parquet") if folder.exists() else ():
        if stale.stem[4:] not in runs:
            stale.unlink(missing_ok=True)
            stale.with_suffix(".json").unlink(missing_ok=True)
            removed.append(stale)
    return removed


def temporary(folder: Path, suffix: str) -> Path:
    """A temporary file's name in ``folder``, naming this process and machine (``remove_left_behind``)."""
    return folder / f".tmp-{os.getpid()}@{socket.gethostname()}-{uuid.uuid4().hex}{suffix}"


def remove_left_behind(folder: Path) -> None:
    """Remove the temporary files of writers that ended before renaming them (killed while counting):
    those of an ended process of this machine, and any an hour old (another machine's, or an older
    scooplab's). A writer still at work (the dashboard and a finishing run may count at once) keeps
    its own."""
    for left in folder.glob(".tmp-*"):
        pid, _, host = left.name[len(".tmp-") : left.name.rfind("-")].partition("@")
        with suppress(FileNotFoundError):
            if (
                not holder_alive({"host": host, "pid": pid})
                or time.time() - left.stat().st_mtime > LEFT_BEHIND_SECONDS
            ):
                left.unlink()
