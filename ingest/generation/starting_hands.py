"""Starting-hand tables in the warehouse (``starting_hands``): computed once for a game, table
size, rule set, number of samples and seed (the table's key), then read.

The table of one key is one file, ``starting_hands/variant=<game>/run=<key>/table.parquet``,
written atomically; the key changes with the game's description, so an edited description
never reads a table of the old one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from engine.odds.starting_hands import HandTable, default_samples, starting_hands
from engine.rules.games.base import GameSpec
from ingest.storage.schema import STARTING_HANDS, scooplab_version
from ingest.storage.warehouse import Warehouse

METHOD_VERSION = 2  # raise when the way a table is computed changes: old tables are then recomputed
FILE = "table"


def table_key(game: GameSpec, players: int, options: Mapping[str, Any], samples: int, seed: int) -> str:
    """The partition of one table: ``players2-`` and a digest of everything that decides it.

    >>> from engine.rules.games import get_game
    >>> table_key(get_game("holdem"), 2, {}, 47300, 0)[:9]
    'players2-'
    """
    described = repr(game.under(options))
    text = json.dumps([METHOD_VERSION, described, players, dict(options), samples, seed], sort_keys=True,
                      default=str)  # fmt: skip
    return f"players{players}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def to_arrow(table: HandTable, created_at: datetime | None = None) -> pa.Table:
    """The rows of a table in the ``starting_hands`` schema (docs/warehouse.md)."""

    created_at = created_at or datetime.now(UTC)
    columns: dict[str, list] = {field.name: [] for field in STARTING_HANDS}
    for row in table.rows:
        values = {"variant": table.variant, "options": json.dumps(table.options, sort_keys=True),
                  "players": table.players, "kind": row.kind, "hand_group": row.group, "value": row.value,
                  "rank": row.rank, "combos": row.combos, "frequency": row.frequency, "runouts": row.runouts,
                  "method": table.method, "samples": table.samples, "seed": table.seed,
                  "created_at": created_at, "scooplab_version": scooplab_version()}  # fmt: skip
        for name in ("equity", "win", "tie", "scoop", "dead"):
            figure = row.figures.get(name, (None, None, None))
            values |= {name: figure[0], f"{name}_low": figure[1], f"{name}_high": figure[2]}
        values["shares"] = [
            {"part": name.removeprefix("share."), "share": v[0], "low": v[1], "high": v[2]}
            for name, v in row.figures.items() if name.startswith("share.")
        ]  # fmt: skip
        for name, value in values.items():
            columns[name].append(value)
    return pa.table(columns, schema=STARTING_HANDS)


def stored(warehouse: Warehouse, game: GameSpec, players: int, options: Mapping[str, Any],
           samples: int | None = None, seed: int = 0) -> pa.Table | None:  # fmt: skip
    """The stored table of this key, or None."""
    options = game.resolve_options(options)
    key = table_key(game, players, options, samples or default_samples(game, options), seed)
    return warehouse.read_one("starting_hands", game.name, key, FILE)


def compute_and_store(warehouse: Warehouse, game: GameSpec, players: int, options: Mapping[str, Any],
                      samples: int | None = None, seed: int = 0,
                      progress: Callable[[int, int], None] | None = None) -> pa.Table:  # fmt: skip
    """Compute a table and write it (replacing one of the same key); its rows."""
    options = game.resolve_options(options)
    samples = samples or default_samples(game, options)
    table = starting_hands(game, players, options, samples=samples, seed=seed, progress=progress)
    rows = to_arrow(table)
    warehouse.write("starting_hands", game.name, table_key(game, players, options, samples, seed), rows, FILE)
    return rows
