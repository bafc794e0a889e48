"""The paired counts of two runs that dealt the same cards, stored beside the warehouse
(``derived/paired/``): counting them hand by hand reads both runs whole (seconds over two 2 M-hand
runs), so ``simulate`` counts them as a run is written, against every stored run it deals like, and
Compare reads a few hundred bytes. A stored count is taken only while both runs' files are the ones
it was counted from (``analytics.derived``); otherwise it is counted again, and stored.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analytics import derived
from ingest.storage.warehouse import Warehouse

PAIRED = "derived/paired"
PAIRED_VERSION = 2  # raise when paired_hands.sql, paired_categories.sql or compare's use of them change
Run = tuple[str, str]  # (game, run id)
Counts = dict[str, tuple[int, int]]


def _path(warehouse: Warehouse, first: Run, second: Run) -> Path:
    name = "~".join(f"{variant}={run}" for variant, run in (first, second))
    return Path(warehouse.root) / PAIRED / f"{name}.json"


def _manifest(warehouse: Warehouse, first: Run, second: Run) -> dict[str, Any]:
    files = derived.runs_files(warehouse)
    return {"version": PAIRED_VERSION,
            "sources": [sorted(f for f in files.get(run, ()) if f.startswith(f"variant={variant}/"))
                        for variant, run in (first, second)]}  # fmt: skip


def stored(data: str | Path, first: Run, second: Run) -> Counts | None:
    """The stored paired counts of ``first`` against ``second`` (only in A, only in B), if current;
    None when none is stored, or the runs changed since (or the warehouse is not local)."""
    warehouse = Warehouse(data)
    if not warehouse.local:
        return None
    for a, b, flipped in ((first, second, False), (second, first, True)):
        path = _path(warehouse, a, b)
        try:
            kept = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if kept.get("manifest") == _manifest(warehouse, a, b):
            counts = {key: (int(x), int(y)) for key, (x, y) in kept["counts"].items()}
            return {key: (y, x) for key, (x, y) in counts.items()} if flipped else counts
    return None


def store(data: str | Path, first: Run, second: Run, counts: Counts, manifest: dict[str, Any]) -> None:
    """Keep the paired counts of ``first`` against ``second``, counted from the files ``manifest``
    names (atomically; nothing on object storage, nor where the warehouse cannot be written: the
    counts are then counted again when asked)."""
    warehouse = Warehouse(data)
    if not warehouse.local:
        return
    path = _path(warehouse, first, second)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        derived.remove_left_behind(path.parent)
        temporary = derived.temporary(path.parent, ".json.partial")
        try:
            temporary.write_text(json.dumps({"manifest": manifest, "counts": counts}))
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError:  # a read-only warehouse: nothing kept
        return


def counted(data: str | Path, first: Run, second: Run, count: Callable[[], Counts | None]) -> Counts | None:
    """The stored counts if current, else ``count()`` (None: the runs did not deal alike), stored with
    the files as they were before counting (a run written meanwhile is counted again next time)."""
    kept = stored(data, first, second)
    if kept is not None:
        return kept
    warehouse = Warehouse(data)
    manifest = _manifest(warehouse, first, second) if warehouse.local else {}
    counts = count()
    if counts is not None:
        store(data, first, second, counts, manifest)
    return counts
