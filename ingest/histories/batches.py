"""Hands on their way to the warehouse, for one process: the compiled replay in batches, the state
machine for the rest, rejects with their reasons, and Parquet files of the stored hands.

``ingest.histories.pipeline`` runs one ``Batches`` over every hand of a run;
``ingest.histories.parallel`` one per chunk of files, on several processes.
"""

from __future__ import annotations

import gc
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.histories.hand_ids import HandIds, keys_of
from ingest.histories.phh import NOT_TEXT, RawHand
from ingest.histories.rows import Columns, HandRows, hand_id
from ingest.storage.schema import REJECTS
from ingest.storage.warehouse import Warehouse

FLUSH_HANDS = 50_000  # hands per Parquet file (SCOOPLAB_INGEST_FILE_HANDS changes it: fewer, less memory)
FILE_HANDS_VARIABLE = "SCOOPLAB_INGEST_FILE_HANDS"
FAST_BATCH = 5_000  # hands replayed by the compiled kernel at a time (at most a file's)
# characters of a rejected hand's text kept in the rejects table (real hands: 1-5 KB; every reject
# of a run is held until its end, so this bounds what a run of bad hands costs)
MAX_REJECT_TEXT = 20_000
# what the compiled paths may raise on input they did not foresee: their hands go hand by hand instead
FAST_PATH_ERRORS = (ValueError, TypeError, LookupError, OverflowError, ArithmeticError, pa.ArrowException)


@dataclass
class IngestReport:
    """What an ingest did."""

    run_id: str
    hands: int = 0
    rejected: int = 0
    duplicates: int = 0
    notes: int = 0
    variants: dict[str, int] = field(default_factory=dict)
    complete_before: bool = False  # the run id was a complete ingest of the same files: nothing done
    replaced_files: int = 0  # files of an interrupted ingest of the same run id, replaced

    def summary(self) -> dict[str, int | str | bool]:
        return {
            "run_id": self.run_id,
            "hands": self.hands,
            "rejected": self.rejected,
            "duplicates": self.duplicates,
            "complete_before": self.complete_before,
            "replaced_files": self.replaced_files,
        }


def describe_reject(raw: RawHand, error: str) -> str:
    """The one-line reason shown to the user: the file, the hand (unless the whole file is), why.

    >>> describe_reject(RawHand("a.phhs", 2, "", None), "bad TOML")
    'a.phhs hand 3: bad TOML'
    >>> describe_reject(RawHand("b.tgz", 0, "", None, whole_file=True), "cannot read the archive")
    'b.tgz: cannot read the archive'
    >>> describe_reject(RawHand("c.txt", 4, "", None, label="#2345 (line 90)"), "the hand was cancelled")
    'c.txt hand #2345 (line 90): the hand was cancelled'
    """
    where = raw.source_file if raw.whole_file else f"{raw.source_file} hand {raw.label or raw.hand_index + 1}"
    return f"{where}: {error}"


class Batches:
    """Hands on their way to the warehouse: compiled replay in batches, the state machine for the rest.

    A hand whose content is already stored is a duplicate. A hand the compiled replay hands
    back, or cannot take, is replayed by ``ingest.histories.replay``, which stores it or rejects it with
    its reason. A later copy of a hand still waiting in a batch waits until the batch is done,
    so it counts as a duplicate exactly when the first copy was stored.
    """

    def __init__(self, warehouse: Warehouse, report: IngestReport, on_reject, known: set[str] | None = None,
                 written: list[tuple[str, str, list[str]]] | None = None) -> None:  # fmt: skip
        from ingest.histories import fast_replay, replay  # the rules load only when hands are ingested

        self.fast_replay, self.replay = fast_replay, replay
        self.warehouse, self.report, self.on_reject = warehouse, report, on_reject
        self.known = HandIds(warehouse.hand_ids() if known is None else known)  # 10 bytes an id
        self.written = written  # each file written: (game, name, its hand ids), when asked
        self.waiting: dict[tuple[str, str], list] = {}
        self.queued: set[str] = set()
        self.copies: list[tuple[RawHand, str]] = []
        self.slow: dict[str, HandRows] = {}
        self.fast: dict[str, list[tuple[pa.Table, pa.Table, pa.Table]]] = {}
        self.stored: dict[str, int] = {}
        self.rejects = Columns(REJECTS)
        self.order: dict[str, int] = {}  # reading order: files keep the hands in it
        self.flush = file_hands()
        self.batch = min(FAST_BATCH, self.flush)

    def add(self, raw: RawHand) -> None:
        if raw.error is not None:
            reject(self.report, self.rejects, raw, raw.error, self.on_reject)
            return
        assert raw.fields is not None
        identity = hand_id(raw.fields)
        if identity in self.known:
            self.report.duplicates += 1
            return
        if identity in self.queued:
            self.copies.append((raw, identity))
            return
        self.order.setdefault(identity, len(self.order))
        self._take(raw, identity)

    def _take(self, raw: RawHand, identity: str) -> None:
        """A new hand: into a batch of the compiled replay, or replayed by the state machine."""
        prepared = self.fast_replay.prepare(raw, identity)
        if prepared is None:
            self._replay(raw, identity)
            return
        self.queued.add(identity)
        batch = self.waiting.setdefault(prepared.key, [])
        batch.append(prepared)
        if len(batch) >= self.batch:
            self._run(prepared.key)

    def add_block(self, block) -> None:
        """The hands of a ``bulk_read.Block``, in order: its plain ones replayed together on arrays,
        each other one (not plain, a copy, or one the arrays do not take) as ``add`` takes it."""
        from ingest.histories import bulk_replay

        plain, chosen = block.plain.tolist(), np.zeros(block.hands, np.bool_)
        fresh = np.zeros(block.hands, np.bool_)
        fresh[block.plain] = ~self.known.contains_many([block.ids[h] for h in np.flatnonzero(block.plain)])
        added = False  # once a hand went by ``add``, it may have stored a later plain one's copy
        for h, identity in enumerate(block.ids):
            stored_since = added and identity in self.known
            if plain[h] and fresh[h] and identity not in self.queued and not stored_since:
                self.order.setdefault(identity, len(self.order))
                self.queued.add(identity)
                chosen[h] = True
            else:
                self.add(block.raw(h))  # in its place in reading order
                added = True
        try:
            units = bulk_replay.units_of(block)
            groups, back = bulk_replay.groups_of(block, units)
        except FAST_PATH_ERRORS:
            groups, back = [], np.ones(block.hands, np.bool_)  # never lose the block: hand by hand
        for group in groups:
            group = group.only(chosen)  # copies and queued hands left out, row for row
            if not len(group.hands):
                continue
            try:
                tables, returned = bulk_replay.replay_group(block, units, group, self.report.run_id)
            except FAST_PATH_ERRORS:
                tables, returned = None, group.hands
            back[returned] = True
            if tables is not None:
                self._stored_many(group.game.name, tables)
        chosen_ids = [block.ids[h] for h in np.flatnonzero(chosen).tolist()]
        self.queued.difference_update(chosen_ids)
        for h in np.flatnonzero(back & chosen).tolist():
            raw = block.raw(h)
            if raw.error is not None:  # the line reader refuses it (an empty section...)
                reject(self.report, self.rejects, raw, raw.error, self.on_reject)
            else:
                self._take(raw, block.ids[h])

    def _stored_many(self, game: str, tables: tuple[pa.Table, pa.Table, pa.Table]) -> None:
        """Hands the arrays stored: their rows wait to be written."""
        self.fast.setdefault(game, []).append(tables)
        stored = tables[0].column("hand_id").to_pylist()
        self.known.add_keys(keys_of(stored))
        count, noted = len(stored), pc.sum(pc.list_value_length(tables[0].column("notes"))).as_py() or 0
        report = self.report
        report.hands += count
        report.notes += noted
        report.variants[game] = report.variants.get(game, 0) + count
        self.stored[game] = self.stored.get(game, 0) + count
        if self.stored[game] >= self.flush:
            self._write(game)

    def _run(self, key: tuple[str, str]) -> None:
        batch = self.waiting.pop(key, [])
        if not batch:
            return
        try:
            tables, fallback = self.fast_replay.replay_batch(batch, self.report.run_id)
        except FAST_PATH_ERRORS:
            tables, fallback = None, batch  # never lose the batch: the state machine replays each hand
        back = {id(p) for p in fallback}
        if tables is not None:
            game = key[0]
            self.fast.setdefault(game, []).append(tables)
            for prepared in batch:
                if id(prepared) not in back:
                    self.known.add(prepared.identity)
                    self._stored(game, bool(prepared.notes))
        for prepared in fallback:
            self._replay(prepared.raw, prepared.identity)
        self.queued.difference_update(p.identity for p in batch)

    def _replay(self, raw: RawHand, identity: str) -> None:
        try:
            replayed = self.replay.replay(raw.fields)
        except self.replay.HandError as error:
            reject(self.report, self.rejects, raw, str(error), self.on_reject)
            return
        except (ValueError, TypeError, OverflowError, ArithmeticError) as error:  # never lose the batch
            reject(self.report, self.rejects, raw, f"cannot replay: {error}", self.on_reject)
            return
        self.known.add(identity)
        game = replayed.game.name
        self.slow.setdefault(game, HandRows()).add(
            replayed,
            hand_id=identity,
            run_id=self.report.run_id,
            source="phh",
            source_file=raw.source_file,
            hand_index=raw.hand_index,
            phh_text=raw.text.strip() + "\n",
        )
        self._stored(game, bool(replayed.notes))

    def _stored(self, game: str, noted: bool) -> None:
        report = self.report
        report.hands += 1
        report.notes += noted
        report.variants[game] = report.variants.get(game, 0) + 1
        self.stored[game] = self.stored.get(game, 0) + 1
        if self.stored[game] >= self.flush:
            self._write(game)

    def _write(self, game: str) -> None:
        parts = self.fast.pop(game, [])
        slow = self.slow.pop(game, None)
        if slow is not None and len(slow):
            parts.append((slow.hands.to_arrow(), slow.players.to_arrow(), slow.actions.to_arrow()))
        self.stored[game] = 0
        if parts:
            hands, players, actions = (pa.concat_tables(tables) for tables in zip(*parts, strict=True))
            if len(parts) > 1:  # several batches (or both replay paths): back to reading order
                seq = np.array([self.order[h] for h in hands.column("hand_id").to_pylist()])
                if not (np.diff(seq) > 0).all():
                    hands = hands.take(np.argsort(seq))
                    ids = hands.column("hand_id")
                    players, actions = (_in_hand_order(table, ids) for table in (players, actions))
            for part in _parts(hands, players, actions, self.flush):  # a block may hold more than a file's
                name = f"part-{uuid.uuid4().hex[:12]}"
                write_tables(self.warehouse, game, self.report.run_id, *part, name=name)
                ids = part[0].column("hand_id").to_pylist()
                for identity in ids:  # written: its place in reading order is no longer needed
                    self.order.pop(identity, None)
                if self.written is not None:
                    self.written.append((game, name, ids))

    def finish(self) -> None:
        for key in list(self.waiting):
            self._run(key)
        for raw, identity in self.copies:
            if identity in self.known:
                self.report.duplicates += 1
            else:
                self._replay(raw, identity)
        for game in sorted(set(self.fast) | set(self.slow)):
            self._write(game)


@contextmanager
def few_collections() -> Iterator[None]:
    """Garbage collection for an ingest: hands make many small objects and no cycles, so the
    collector runs seldom and never walks the objects made before (modules, compiled code)."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(200_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def file_hands() -> int:
    """Hands per Parquet file of an ingest: ``SCOOPLAB_INGEST_FILE_HANDS``, else 50,000."""
    text = os.environ.get(FILE_HANDS_VARIABLE, "")
    if not text.strip():
        return FLUSH_HANDS
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{FILE_HANDS_VARIABLE} must be a whole number of hands, at least 1, not {text!r}")
    return int(text)


def _parts(hands: pa.Table, players: pa.Table, actions: pa.Table, most: int
           ) -> Iterator[tuple[pa.Table, pa.Table, pa.Table]]:  # fmt: skip
    """The rows of hands in order cut into parts of at most ``most`` hands, each with the players
    and actions rows of its hands (those come in the hands' order)."""
    if hands.num_rows <= most:
        yield hands, players, actions
        return
    seats = np.zeros(hands.num_rows + 1, np.int64)
    np.cumsum(hands.column("n_players").to_numpy(), out=seats[1:])
    owner = pc.index_in(actions.column("hand_id"), value_set=hands.column("hand_id")).to_numpy()
    rows = np.zeros(hands.num_rows + 1, np.int64)
    np.cumsum(np.bincount(owner, minlength=hands.num_rows), out=rows[1:])
    for first in range(0, hands.num_rows, most):
        last = min(first + most, hands.num_rows)
        yield (hands.slice(first, last - first), players.slice(seats[first], seats[last] - seats[first]),
               actions.slice(rows[first], rows[last] - rows[first]))  # fmt: skip


def _in_hand_order(table: pa.Table, hand_ids: pa.ChunkedArray) -> pa.Table:
    """Rows reordered so their hands come in the order of ``hand_ids`` (order within a hand kept)."""
    position = pc.index_in(table.column("hand_id"), value_set=hand_ids).to_numpy()
    return table.take(np.argsort(position, kind="stable"))


def _variant_of(raw: RawHand) -> str:
    from engine.rules.games import game_for_variant

    code = (raw.fields or {}).get("variant")
    try:
        return game_for_variant(code)[0].name if isinstance(code, str) else "unknown"
    except ValueError:
        return "unknown"


def reject(report, rejects: Columns, raw: RawHand, error: str, on_reject) -> None:
    report.rejected += 1
    rejects.add(
        run_id=report.run_id,
        variant=_variant_of(raw),
        source_file=raw.source_file,
        hand_index=raw.hand_index,
        error=error,
        raw=None if error.startswith(NOT_TEXT) else raw.text[:MAX_REJECT_TEXT],  # text only, capped
    )
    if on_reject:
        on_reject(describe_reject(raw, error))


def write_tables(warehouse: Warehouse, game: str, run_id: str, hands: pa.Table, players: pa.Table,
                 actions: pa.Table, name: str | None = None) -> None:  # fmt: skip
    """Write three files of one name, the hands file last: the views read players and actions
    files only beside their hands file, so an interrupted write leaves nothing visible."""
    name = name or f"part-{uuid.uuid4().hex[:12]}"
    warehouse.write("players", game, run_id, players, name=name)
    warehouse.write("actions", game, run_id, actions, name=name)
    warehouse.write("hands", game, run_id, hands, name=name)
