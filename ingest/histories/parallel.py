"""Ingest on several processes: the input files in chunks, each chunk ingested into the run by
whichever process is free (``ingest.processes.share_out``), one run at the end.

Each chunk is read, replayed and written as a serial ingest would (``ingest.histories.batches``), its
files under the run's partitions; its rejects and counts come back here. A hand whose content
another run stored is a duplicate in every chunk. A hand stored by two chunks
(the same content in two files given to different processes) is kept where it comes first in
reading order and removed from the later chunk's files, which are written again (atomically,
hands file last), so the run ends as a serial ingest would, only its files cut differently.
The rejects and runs rows are written by the calling process, last.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ingest.histories.batches import Batches, IngestReport, few_collections, write_tables
from ingest.histories.hand_ids import HandIds, ids_of, keys_of
from ingest.histories.phh import input_files, iter_hands
from ingest.storage.warehouse import Warehouse

CHUNKS_PER_WORKER = 32  # chunks a process takes on average: small enough to share the work evenly


@dataclass
class ChunkResult:
    """What one chunk stored (per file written: game, name and hand ids in order) and rejected."""

    written: list = field(default_factory=list)  # (game, name, ids); ids as ``hand_ids.keys_of`` once sent
    rejects: pa.Table | None = None
    lines: list[str] = field(default_factory=list)  # each reject's line, as the serial ingest says it
    rejected: int = 0
    duplicates: int = 0
    notes: int = 0
    read: int = 0


def chunks(paths: list[str], workers: int) -> list[list[str]]:
    """The input files in reading order, cut into consecutive chunks of about equal bytes.

    >>> chunks([], 2)
    []
    """
    files = [str(f) for p in paths for f in input_files(Path(p))]
    if not files:
        return []
    sizes = [max(Path(f).stat().st_size, 1) if Path(f).exists() else 1 for f in files]
    target = sum(sizes) / max(1, workers * CHUNKS_PER_WORKER)
    out: list[list[str]] = [[]]
    total = 0.0
    for name, size in zip(files, sizes, strict=True):
        if out[-1] and total + size > target:
            out.append([])
            total = 0.0
        out[-1].append(name)
        total += size
    return out


@functools.lru_cache(maxsize=1)
def _known(root: str, run_id: str, call: str) -> frozenset[str]:
    """The hand ids stored by other runs (this run's were all written by this ingest): read once a
    process and call of ``run_chunks``, the same whenever a process starts."""
    stored = Warehouse(root).read("hands", ["hand_id", "run_id"])
    return frozenset(
        stored.filter(pc.not_equal(stored.column("run_id"), run_id)).column("hand_id").to_pylist()
    )


def ingest_chunk(chunk: tuple[int, list[str]], root: str, run_id: str, call: str,
                 games: tuple[str, ...] = ()) -> ChunkResult:  # fmt: skip
    """Read, replay and store one chunk's hands (its number, its files) into run ``run_id`` (a
    ``share_out`` task); ``games``: description files of described games, read first."""
    from engine.rules.games import get_game

    for path in games:
        get_game(path)
    files = chunk[1]
    warehouse = Warehouse(root)
    report = IngestReport(run_id)
    result = ChunkResult()
    batches = Batches(warehouse, report, result.lines.append, known=set(_known(root, run_id, call)),
                       written=result.written)  # fmt: skip
    from ingest.histories.bulk_read import Block, read_block  # compiled: loads only to ingest

    with few_collections():
        for raw in iter_hands(files, blocks=read_block):
            if isinstance(raw, Block):
                result.read += raw.hands
                batches.add_block(raw)
                continue
            result.read += 1
            batches.add(raw)
        batches.finish()
    result.rejects = batches.rejects.to_arrow() if len(batches.rejects) else None
    result.written = [(game, name, keys_of(ids)) for game, name, ids in result.written]  # 10 bytes an id
    result.rejected, result.duplicates, result.notes = report.rejected, report.duplicates, report.notes
    return result


def run_chunks(paths: list[str], warehouse: Warehouse, report, workers: int,
               on_hands: Callable[[int], None] | None = None, on_files: Callable[[int], None] | None = None,
               games: tuple[str, ...] = ()) -> list[ChunkResult]:  # fmt: skip
    """Ingest ``paths`` on ``workers`` processes into the report's run (its counts added up); returns
    each chunk's result in reading order (``on_hands`` and ``on_files`` told of each chunk's hands
    and files as it is done)."""
    from ingest.processes import share_out

    parts = chunks(paths, workers)
    call = uuid.uuid4().hex  # the ids stored before this call: read once a process, never reused
    task = functools.partial(ingest_chunk, root=warehouse.url, run_id=report.run_id, call=call, games=games)
    results: dict[int, ChunkResult] = {}
    for (number, _), result in share_out(task, list(enumerate(parts)), workers, warm_up=_warm_up):
        results[number] = result
        if on_hands:
            on_hands(result.read)
        if on_files:
            on_files(len(parts[number]))
    ordered = [results[i] for i in range(len(parts))]
    _merge(warehouse, report, ordered)
    return ordered


def _warm_up() -> None:
    from ingest.histories import fast_replay, replay  # noqa: F401  (the rules and the compiled kernels)


def _merge(warehouse: Warehouse, report, results: list[ChunkResult]) -> None:
    """Add the chunks' counts to ``report``; a hand two chunks stored stays with the first."""
    seen = HandIds()
    for result in results:
        report.rejected += result.rejected
        report.duplicates += result.duplicates
        report.notes += result.notes
        for game, name, keys in result.written:
            again = ids_of(keys[seen.contains_keys(keys)])
            seen.add_keys(keys)
            if again:
                _drop(warehouse, game, report.run_id, name, again)
                report.duplicates += len(again)
            kept = len(keys) - len(again)
            report.hands += kept
            if kept:
                report.variants[game] = report.variants.get(game, 0) + kept


def _drop(warehouse: Warehouse, game: str, run_id: str, name: str, ids: list[str]) -> None:
    """Remove these hands from one written file of each table (written again; hands file last)."""
    drop = pa.array(ids, pa.string())
    tables = {}
    for table in ("players", "actions", "hands"):
        found = warehouse.read_one(table, game, run_id, name)
        assert found is not None
        tables[table] = found.filter(pc.invert(pc.is_in(found.column("hand_id"), value_set=drop)))
    if tables["hands"].num_rows == 0:
        for table in ("hands", "players", "actions"):  # the hands file first: nothing half visible
            warehouse.fs.rm(warehouse.path(table, game, run_id, name))
        return
    write_tables(warehouse, game, run_id, tables["hands"], tables["players"], tables["actions"], name=name)
