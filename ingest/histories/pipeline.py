"""Ingest: read PHH hands, replay and check each, store the good ones, reject the rest.

A bad hand never stops the batch: it goes to ``rejects`` with a one-line reason
naming its file and position, and is reported to ``on_reject``. A hand whose
content is already in the warehouse is counted as a duplicate and not stored.

A run's runs rows are written last, naming every game the run stored: a run id without
them all was interrupted, and ingesting under it again replaces its files, so a run
killed at any moment and started again ends as if it had never stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from ingest.histories.batches import Batches, IngestReport, few_collections
from ingest.histories.hand_ids import HandIds
from ingest.histories.parallel import run_chunks
from ingest.histories.phh import RawHand, iter_hands
from ingest.storage.schema import new_run_id, run_row, scooplab_version
from ingest.storage.warehouse import Warehouse, check_name


def ingest(
    paths: Iterable[str | Path],
    warehouse: Warehouse,
    run_id: str | None = None,
    on_reject: Callable[[str], None] | None = None,
    on_hand: Callable[[int], None] | None = None,
    workers: int = 1,
    games: tuple[str, ...] = (),
    on_file: Callable[[int], None] | None = None,
) -> IngestReport:
    """Ingest every hand under ``paths`` into ``warehouse`` as one run, on ``workers`` processes
    (``ingest.histories.parallel``: each reject is then reported when its chunk is done; ``games``
    names the description files of described games, for the other processes to read).
    ``on_hand(count)`` is told of the hands read, ``on_file(count)`` of the input files, as they go.

    The run id of an interrupted ingest starts it again from nothing (its files replaced); that
    of a complete ingest of the same paths does nothing; a ValueError refuses the id of a
    simulation, of a complete ingest of other paths, or of an ingest still at work.
    """
    paths = [str(Path(p).resolve()) for p in paths]
    report = IngestReport(check_name("run id", run_id or new_run_id("ingest")))
    with warehouse.lease(report.run_id):
        earlier = _earlier_run(warehouse, report.run_id, paths)
        if earlier is not None:
            return earlier
        report.replaced_files = warehouse.remove_run(report.run_id)  # an interrupted ingest of this id
        told = (on_hand, on_file)
        if workers > 1:
            return _ingest_in_parallel(paths, warehouse, report, on_reject, told, workers, games)
        return _ingest_run(paths, warehouse, report, on_reject, *told)


def _ingest_in_parallel(paths: list[str], warehouse: Warehouse, report: IngestReport, on_reject, told,
                        workers: int, games: tuple[str, ...]) -> IngestReport:  # fmt: skip
    """``_ingest_run`` on ``workers`` processes, chunk by chunk (``ingest.histories.parallel``);
    ``told``: the ``on_hand`` and ``on_file`` callbacks (or None), told as each chunk is done."""
    rejects = []
    for chunk in run_chunks(paths, warehouse, report, workers, *told, games=games):
        rejects += [chunk.rejects] if chunk.rejects is not None else []
        for line in chunk.lines if on_reject else ():
            on_reject(line)
    return _record_run(warehouse, report, paths, pa.concat_tables(rejects) if rejects else None)


def _ingest_run(
    paths: list[str], warehouse: Warehouse, report: IngestReport, on_reject, on_hand, on_file
) -> IngestReport:
    """Read, replay and store every hand of ``paths`` under the report's run id."""
    from ingest.histories.bulk_read import Block, read_block  # compiled: loads only to ingest

    batches = Batches(warehouse, report, on_reject)
    with few_collections():
        for raw in iter_hands(paths, blocks=read_block, on_file=on_file):
            if isinstance(raw, Block):
                batches.add_block(raw)  # (replayed: told once done, a block can take seconds)
            else:
                batches.add(raw)
            if on_hand:
                on_hand(raw.hands if isinstance(raw, Block) else 1)
        batches.finish()
    rejects = batches.rejects.to_arrow() if len(batches.rejects) else None
    return _record_run(warehouse, report, paths, rejects)


def ingest_hands(
    hands: Iterable[RawHand],
    warehouse: Warehouse,
    sources: list[str],
    run_id: str | None = None,
    on_reject: Callable[[str], None] | None = None,
    known: HandIds | None = None,
) -> IngestReport:
    """Ingest hands already read (``RawHand``s: ``phh.hands_of_bytes`` reads a file's bytes) as one new
    run naming ``sources``, the files they came from. ``known``: the hand ids already stored, kept
    up to date by the run (given again to the next, it saves reading them from the warehouse)."""
    report = IngestReport(check_name("run id", run_id or new_run_id("ingest")))
    with warehouse.lease(report.run_id):
        batches = Batches(warehouse, report, on_reject, known=None if known is None else set())
        if known is not None:
            batches.known = known  # (the ids are added to as the hands are stored)
        with few_collections():
            for raw in hands:
                batches.add(raw)
            batches.finish()
        rejects = batches.rejects.to_arrow() if len(batches.rejects) else None
        return _record_run(warehouse, report, sources, rejects)


def _record_run(warehouse: Warehouse, report: IngestReport, paths: list[str], rejects: pa.Table | None
                ) -> IngestReport:  # fmt: skip
    """The run's rejects, then its runs rows (the last files: the run is complete); nothing when
    nothing new was read (no hand, or only hands already stored)."""
    if not report.hands + report.rejected:
        return report  # nothing new: no run to record
    if rejects is not None:
        _write_rejects(warehouse, report.run_id, rejects)
    _write_runs(warehouse, report, paths)
    return report


def _earlier_run(warehouse: Warehouse, run_id: str, paths: list[str]) -> IngestReport | None:
    """What an ingest under ``run_id`` finds: None to ingest (a new id, or an interrupted ingest of it,
    whose files are then replaced), the stored report of a complete ingest of the same sources
    (nothing to do); a ValueError for a simulation's id or a complete ingest of other sources."""
    rows = [r for r in warehouse.read("runs").to_pylist() if r["run_id"] == run_id]
    if any(r["kind"] != "ingest" for r in rows):
        raise ValueError(f"run {run_id} is a simulation run; give the ingest another --run-id")
    listed = [json.loads(r["details"] or "{}").get("variants") for r in rows]
    if not rows or any(v is not None and sorted(v) != sorted(r["variant"] for r in rows) for v in listed):
        return None  # never started, or killed before its last runs row
    if sorted(rows[0]["sources"] or []) != sorted(paths):
        raise ValueError(
            f"run {run_id} holds a complete ingest of other paths ({', '.join(rows[0]['sources'] or [])}); "
            "give another --run-id"
        )
    stored = {r["variant"]: r["hands"] for r in rows if r["variant"] != "unknown"}
    first = rows[0]
    return IngestReport(run_id, sum(stored.values()), first["rejected"], first["duplicates"],
                        variants=stored, complete_before=True)  # fmt: skip


def _write_rejects(warehouse: Warehouse, run_id: str, rejects: pa.Table) -> None:
    """One rejects file per game the rejected hands name."""
    for variant in sorted(set(rejects.column("variant").to_pylist())):
        mask = pa.compute.equal(rejects.column("variant"), variant)
        warehouse.write("rejects", variant, run_id, rejects.filter(mask))


def _write_runs(warehouse: Warehouse, report: IngestReport, paths: list[str]) -> None:

    now = datetime.now(UTC)
    variants = sorted(report.variants) or ["unknown"]
    for variant in variants:
        row = run_row(
            run_id=report.run_id,
            variant=variant,
            kind="ingest",
            created_at=now,
            sources=paths,
            hands=report.variants.get(variant, 0),
            rejected=report.rejected,
            duplicates=report.duplicates,
            scooplab_version=scooplab_version(),
            details=json.dumps({"total_hands": report.hands, "variants": variants}),
            status="complete",
        )
        warehouse.write("runs", variant, report.run_id, row, name="run")  # the last file: the run is done
