"""``scooplab upgrade``: bring runs stored by an older scooplab to today's schema (docs/warehouse.md).

Files that lack a newer column are read as they are (the column reads as null). The one older
layout that cannot be read is schema version 1: showdown-mode runs whose seat lists were
private codes (card codes, bit masks). A showdown-mode run is fixed by its settings and seed,
so an upgrade simulates each such run again with today's engine under the same run id: into a
staging folder first (``<warehouse>/.upgrade/<run>/``, which readers never list), then its
files replace the old ones table by table, the runs row last. An interrupted upgrade leaves the
run old (its runs row is replaced last) and the staged run complete: upgrading again finishes it.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from typing import Any

from ingest.storage.schema import SEAT_LAYOUT, TABLES
from ingest.storage.warehouse import Warehouse

STAGING = ".upgrade"


def older_runs(warehouse: Warehouse) -> list[dict[str, Any]]:
    """The runs rows of showdown-mode simulations stored in an older seat layout (schema version 1)."""
    rows = warehouse.read("runs").to_pylist()
    return [r for r in rows if r["kind"] == "simulation" and r["mode"] == "showdown"
            and json.loads(r["details"] or "{}").get("seat_layout") != SEAT_LAYOUT]  # fmt: skip


def spec_of(row: dict[str, Any]):
    """The settings a runs row records, as the simulation that wrote it was asked."""
    from ingest.generation.simulation import SimSpec

    game = row["sources"][0] if row["sources"] else row["variant"]
    return SimSpec(game=game, hands=int(row["hands"]), players=int(row["players"]), seed=int(row["seed"]),
                   options=json.loads(row["options"] or "{}"), stake=int(row["stake"]),
                   shard_size=int(row["shard_size"])).check()  # fmt: skip


def upgrade(data: str, workers: int = 1, on_run: Callable[[str], None] | None = None,
            on_failure: Callable[[str], None] | None = None) -> list[str]:  # fmt: skip
    """Simulate every older-layout run again under its id; the ids upgraded. A run that cannot be
    (its description file is gone or now describes another game) is told to ``on_failure`` with
    the reason, and the others go on."""
    warehouse = Warehouse(data)
    done = []
    for row in older_runs(warehouse):
        if on_run:
            on_run(row["run_id"])
        try:
            _upgrade_run(warehouse, row, workers)
        except (ValueError, OSError) as error:
            if on_failure is None:
                raise
            on_failure(f"run {row['run_id']}: {' '.join(str(error).split())}")
            continue
        done.append(row["run_id"])
    if not older_runs(warehouse):
        _remove(warehouse, posixpath.join(warehouse.url, STAGING))  # nothing staged is still needed
    return done


def _upgrade_run(warehouse: Warehouse, row: dict[str, Any], workers: int) -> None:
    from engine.rules.games import get_game
    from ingest.generation.simulation import simulate

    run, variant = row["run_id"], row["variant"]
    spec = spec_of(row)
    if get_game(spec.game).name != variant:
        found = get_game(spec.game).name
        raise ValueError(f"its description {spec.game} now describes {found}, not {variant}")
    stage = Warehouse(posixpath.join(warehouse.url, STAGING, run))
    staged = [r for r in stage.read("runs").to_pylist() if r["run_id"] == run]
    if not staged or staged[0]["status"] != "complete":  # none yet, or cut short: start it again
        _remove(stage, stage.url)
        simulate(spec, stage.url, run, workers)
    for table in [t for t in TABLES if t not in ("hands", "runs")] + ["hands", "runs"]:
        _replace(warehouse, stage, table, variant, run)
    _remove(stage, stage.url)


def _replace(warehouse: Warehouse, stage: Warehouse, table: str, variant: str, run: str) -> None:
    """The run's files of one table replaced by the staged ones: each copied in under a temporary
    name and renamed over the old file of its name; then the old files no staged one replaced go."""
    folder = warehouse.partition(table, variant, run)
    warehouse.fs.makedirs(folder, exist_ok=True)
    kept = set()
    for path in stage.files(table):
        name = posixpath.basename(path)
        temporary = posixpath.join(folder, f".tmp-{name}.partial")
        with stage.fs.open(path, "rb") as source, warehouse.fs.open(temporary, "wb") as copy:
            copy.write(source.read())
        warehouse.fs.mv(temporary, posixpath.join(folder, name))
        kept.add(name)
    for path in warehouse.fs.ls(folder, detail=False):
        if posixpath.basename(path) not in kept:
            warehouse.fs.rm(path)


def _remove(warehouse: Warehouse, folder: str) -> None:
    if warehouse.fs.exists(folder):
        warehouse.fs.rm(folder, recursive=True)
