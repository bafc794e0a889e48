"""Where a hand is stored, from its id, without a scan of the warehouse.

A simulated hand's id says where it is: ``<run>:<shard>:<index>`` is in its run's
``shard-<shard>`` file. A replayed hand's id is a hash of its content, which says nothing, so each
run whose hands files are not shard files gets an index beside the warehouse
(``derived/hand_ids/run=<run>.parquet``): every hand id of the run with the name of its file,
**sorted by id in row groups of 2,048 ids**. A look-up reads only the footers of the index files
and, in each, the one row group whose smallest and largest ids (the Parquet statistics) enclose the
id: a few kilobytes, however many hands the warehouse holds. An index is made when an ingest ends
(``scooplab.Lab.ingest``) and, for a run without one (an older scooplab's), at the first look-up;
it is made again when its run's files change (``analytics.derived``).

>>> simulated_file("demo-holdem:3:1234")
'/run=demo-holdem/shard-00003.'
>>> simulated_file("0f3a9c21b4d7e8a65c10") is None
True
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from functools import partial
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analytics import derived, resources
from analytics.db import connect
from analytics.sandbox import quote
from ingest.storage.warehouse import Warehouse

INDEX = "derived/hand_ids"
INDEX_VERSION = 1
MANIFEST_KEY = b"scooplab.manifest"  # the run's files the index was made from, in its footer
ROW_GROUP = 2048  # ids per row group: a look-up reads one group of each index file
SIMULATED_ID = re.compile(r"^(?P<run>[A-Za-z0-9._-]+):(?P<shard>\d+):\d+$")


def simulated_file(hand_id: str) -> str | None:
    """The path part naming a simulated hand's shard file (as ``analytics.db.connect``'s
    ``only_paths`` takes it), or None for an id of another layout."""
    match = SIMULATED_ID.match(hand_id)
    return f"/run={match['run']}/shard-{int(match['shard']):05d}." if match else None


def _indexed(path: str) -> bool:
    """Whether a hands file's ids need the index (not a simulation's shard file)."""
    return not posixpath.basename(path).startswith("shard-")


def prepare(data: str | Path, on_run=None) -> list[str]:
    """Make the index of every run of a local warehouse whose hands files changed since it was made;
    the index files (none on object storage). ``on_run(run_id)`` hears of each run indexed now."""
    warehouse = Warehouse(data)
    if not warehouse.local:
        return []
    folder = Path(warehouse.root) / INDEX
    wanted = derived.runs_files(warehouse, _indexed)
    files = derived.refresh(folder, wanted, INDEX_VERSION, partial(_write, warehouse), on_run, _current)
    derived.remove_stale(folder, set(wanted))
    return files


def _current(path: Path, manifest: dict) -> bool:
    """Whether the index at ``path`` was made from what ``manifest`` names (kept in its footer)."""
    try:
        kept = (pq.read_schema(path).metadata or {}).get(MANIFEST_KEY)
        return kept is not None and json.loads(kept) == manifest
    except (OSError, ValueError, pa.ArrowException):
        return False


def _write(warehouse: Warehouse, run: str, path: Path, manifest: dict) -> None:
    """One run's index, sorted by id, atomically (temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    derived.remove_left_behind(path.parent)
    sources = [f for f in warehouse.files("hands") if f"/run={run}/" in f and _indexed(f)]
    temporary = derived.temporary(path.parent, ".parquet.partial")
    con = resources.connect()
    try:
        listed = ", ".join(quote(f) for f in sources)
        ids = con.sql(
            f"SELECT hand_id, parse_filename(filename) AS file FROM read_parquet([{listed}], "
            "filename = true, hive_partitioning = false) ORDER BY hand_id"
        ).arrow()
        table = pa.table(ids).replace_schema_metadata({MANIFEST_KEY: json.dumps(manifest)})
        pq.write_table(table, temporary, row_group_size=ROW_GROUP, compression="zstd")
        os.replace(temporary, path)  # (its manifest inside: two writers at once never mix two runs' states)
    finally:
        con.close()
        temporary.unlink(missing_ok=True)


def locate(data: str | Path, hand_id: str) -> str | None:
    """The path part of the file holding the hand (``/run=<run>/<file>``, as ``analytics.db.connect``'s
    ``only_paths`` takes it); None when no stored hand has this id. Raises LookupError on object
    storage, or where the warehouse cannot be written, for a replayed hand's id (no index is kept
    there: the caller reads the views)."""
    shard = simulated_file(hand_id)
    if shard is not None:
        return shard
    try:
        files = prepare(data)
    except OSError as error:  # a warehouse this process cannot write: the caller reads the views
        raise LookupError(f"no hand-id index can be made here ({error})") from None
    if not files:
        if Warehouse(data).local:
            return None
        raise LookupError("no hand-id index on object storage")
    con = resources.connect()
    try:
        listed = ", ".join(quote(f) for f in files)
        found = con.sql(
            f"SELECT parse_filename(filename, true) AS run_file, file FROM read_parquet([{listed}], "
            f"filename = true) WHERE hand_id = {quote(hand_id)} LIMIT 1"  # (a literal: pruned by statistics)
        ).fetchall()
    finally:
        con.close()
    if not found:
        return None
    run = found[0][0][len("run=") :]
    return f"/run={run}/{found[0][1]}"


def lookup(data: str | Path, hand_id: str) -> tuple[dict | None, pl.DataFrame, pl.DataFrame]:
    """One hand's row, its players (by seat) and its actions (in order), read from its own file alone
    (``locate``); ``(None, empty, empty)`` when no stored hand has this id."""
    try:
        part = locate(data, hand_id)
    except LookupError:  # object storage: every file, filtered by the id as it is read
        part = ""
    if part is None:
        return None, pl.DataFrame(), pl.DataFrame()
    con = connect(data, only_paths=[part] if part else None, only_hand=hand_id)
    try:
        hands = con.sql("SELECT * FROM hands").pl()
        if hands.height == 0:
            return None, pl.DataFrame(), pl.DataFrame()
        players = con.sql("SELECT * FROM players ORDER BY seat").pl()
        actions = con.sql(
            "SELECT street, seat, action, amount, cards, board, automatic, stack_after, pot_after "
            "FROM actions ORDER BY seq"
        ).pl()
        return hands.row(0, named=True), players, actions
    finally:
        con.close()
