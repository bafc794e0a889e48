"""Ingest: read PHH hands, replay and check each, store the good ones, reject the rest.

A bad hand never stops the batch: it goes to ``rejects`` with a one-line reason
naming its file and position, and is reported to ``on_reject``. A hand whose
content is already in the warehouse is counted as a duplicate and not stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from ingest.phh import RawHand, iter_hands
from ingest.replay import HandError, replay
from ingest.rows import Columns, HandRows, hand_id
from ingest.schema import REJECTS, RUNS
from ingest.warehouse import Warehouse, check_name

FLUSH_HANDS = 50_000  # hands per Parquet file


@dataclass
class IngestReport:
    """What an ingest did."""

    run_id: str
    hands: int = 0
    rejected: int = 0
    duplicates: int = 0
    notes: int = 0
    variants: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, int | str]:
        return {
            "run_id": self.run_id,
            "hands": self.hands,
            "rejected": self.rejected,
            "duplicates": self.duplicates,
        }


def new_run_id(kind: str) -> str:
    """A fresh run id such as ``ingest-20261129-141502-3fa2``."""
    import uuid

    return f"{kind}-{datetime.now(UTC):%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:4]}"


def describe_reject(raw: RawHand, error: str) -> str:
    """The one-line reason shown to the user."""
    return f"{raw.source_file} hand {raw.hand_index + 1}: {error}"


def ingest(
    paths: Iterable[str | Path],
    warehouse: Warehouse,
    run_id: str | None = None,
    on_reject: Callable[[str], None] | None = None,
    on_hand: Callable[[], None] | None = None,
) -> IngestReport:
    """Ingest every hand under ``paths`` into ``warehouse``."""
    paths = [str(p) for p in paths]
    report = IngestReport(check_name("run id", run_id or new_run_id("ingest")))
    taken = warehouse.read("runs", ["run_id", "kind"]).to_pylist()
    if any(r["run_id"] == report.run_id and r["kind"] != "ingest" for r in taken):
        raise ValueError(f"run {report.run_id} is a simulation run; give the ingest another --run-id")
    known = warehouse.hand_ids()
    rows: dict[str, HandRows] = {}
    rejects = Columns(REJECTS)
    for raw in iter_hands(paths):
        if on_hand:
            on_hand()
        if raw.error is not None:
            _reject(report, rejects, raw, raw.error, on_reject)
            continue
        assert raw.fields is not None
        try:
            replayed = replay(raw.fields)
        except HandError as error:
            _reject(report, rejects, raw, str(error), on_reject)
            continue
        except (ValueError, TypeError, OverflowError, ArithmeticError) as error:  # never lose the batch
            _reject(report, rejects, raw, f"cannot replay: {error}", on_reject)
            continue
        identity = hand_id(raw.fields)
        if identity in known:
            report.duplicates += 1
            continue
        known.add(identity)
        game = replayed.game.name
        batch = rows.setdefault(game, HandRows())
        batch.add(
            replayed,
            hand_id=identity,
            run_id=report.run_id,
            source="phh",
            source_file=raw.source_file,
            hand_index=raw.hand_index,
            phh_text=raw.text.strip() + "\n",
        )
        report.hands += 1
        report.notes += bool(replayed.notes)
        report.variants[game] = report.variants.get(game, 0) + 1
        if len(batch) >= FLUSH_HANDS:
            write_rows(warehouse, game, report.run_id, batch)
            rows[game] = HandRows()
    for game, batch in rows.items():
        if len(batch):
            write_rows(warehouse, game, report.run_id, batch)
    _write_rejects(warehouse, report.run_id, rejects)
    _write_runs(warehouse, report, paths)
    return report


def _variant_of(raw: RawHand) -> str:
    from engine.games import game_for_variant

    code = (raw.fields or {}).get("variant")
    try:
        return game_for_variant(code)[0].name if isinstance(code, str) else "unknown"
    except ValueError:
        return "unknown"


def _reject(report, rejects: Columns, raw: RawHand, error: str, on_reject) -> None:
    report.rejected += 1
    rejects.add(
        run_id=report.run_id,
        variant=_variant_of(raw),
        source_file=raw.source_file,
        hand_index=raw.hand_index,
        error=error,
        raw=raw.text,
    )
    if on_reject:
        on_reject(describe_reject(raw, error))


def write_rows(
    warehouse: Warehouse, game: str, run_id: str, batch: HandRows, name: str | None = None
) -> None:
    """Write a batch as three files of one name, the hands file last: the views read players
    and actions files only beside their hands file, so an interrupted write leaves nothing visible."""
    import uuid

    name = name or f"part-{uuid.uuid4().hex[:12]}"
    warehouse.write("players", game, run_id, batch.players.to_arrow(), name=name)
    warehouse.write("actions", game, run_id, batch.actions.to_arrow(), name=name)
    warehouse.write("hands", game, run_id, batch.hands.to_arrow(), name=name)


def _write_rejects(warehouse: Warehouse, run_id: str, rejects: Columns) -> None:
    if not len(rejects):
        return
    table = rejects.to_arrow()
    for variant in sorted(set(rejects.data["variant"])):
        mask = pa.compute.equal(table.column("variant"), variant)
        warehouse.write("rejects", variant, run_id, table.filter(mask))


def _write_runs(warehouse: Warehouse, report: IngestReport, paths: list[str]) -> None:
    from scooplab import __version__

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
            scooplab_version=__version__,
            details=json.dumps({"total_hands": report.hands}),
            status="complete",
        )
        warehouse.write("runs", variant, report.run_id, row)


def run_row(**fields) -> pa.Table:
    """One ``runs`` row; columns not given are null."""
    unknown = set(fields) - set(RUNS.names)
    if unknown:
        raise ValueError(f"runs has no columns {sorted(unknown)}")
    return pa.table({name: [fields.get(name)] for name in RUNS.names}, schema=RUNS)
