"""Push/fold equilibria in the warehouse: the class matchups of a game (computed once for its
description, rule set, samples and seed: the key) and each stack's solution, read when asked
again.

``class_matchups/variant=<game>/run=<key>/table.parquet`` holds the equity matrix;
``pushfold/variant=<game>/run=<key>/stack-<S>-ante-<A>.parquet`` one solution.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from engine.games.base import GameSpec
from engine.pushfold import TOLERANCE, Matchups, PushFold, class_matchups, gains, solve
from ingest.schema import CLASS_MATCHUPS, PUSHFOLD
from ingest.warehouse import Warehouse

METHOD_VERSION = 1  # raise when the way matchups or solutions are computed changes
METHOD = "CFR+ (regrets floored at zero, alternating updates, averages weighted by iteration)"


def matchup_key(game: GameSpec, options: Mapping[str, Any], samples: int, seed: int) -> str:
    """The partition of a game's matchups: a digest of its description, options, samples and seed."""
    described = [METHOD_VERSION, repr(game.under(options)), dict(options), samples, seed]
    text = json.dumps(described, sort_keys=True, default=str)
    return f"headsup-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _read(warehouse: Warehouse, table: str, variant: str, key: str, name: str, schema: pa.Schema):
    if not warehouse.exists(table, variant, key, name):
        return None
    return pq.read_table(
        warehouse.path(table, variant, key, name), filesystem=warehouse.arrow_fs, schema=schema
    )


def matchups(warehouse: Warehouse, game: GameSpec, options: Mapping[str, Any], samples: int, seed: int = 0,
             progress: Callable[[int, int], None] | None = None) -> Matchups:  # fmt: skip
    """The stored matchups of this key, or computed (``engine.pushfold.class_matchups``) and stored."""
    from scooplab import __version__

    options = game.resolve_options(options)
    key = matchup_key(game, options, samples, seed)
    rows = _read(warehouse, "class_matchups", game.name, key, "table", CLASS_MATCHUPS)
    if rows is not None:
        names = tuple(dict.fromkeys(rows.column("hand_group").to_pylist()))
        n = len(names)
        equity = np.array(rows.column("equity").to_pylist()).reshape(n, n)
        pairs = np.array(rows.column("pairs").to_pylist(), dtype=np.float64).reshape(n, n)
        return Matchups(names, equity, pairs, samples, seed)
    found = class_matchups(game, options, samples=samples, seed=seed, progress=progress)
    n, now = len(found.names), datetime.now(UTC)
    table = pa.table({
        "variant": [game.name] * n * n, "options": [json.dumps(options, sort_keys=True)] * n * n,
        "hand_group": [a for a in found.names for _ in found.names], "against": list(found.names) * n,
        "equity": found.equity.ravel().tolist(),
        "pairs": found.weights.ravel().round().astype(np.int64).tolist(),
        "samples": [samples] * n * n, "seed": [seed] * n * n, "created_at": [now] * n * n,
        "scooplab_version": [__version__] * n * n,
    }, schema=CLASS_MATCHUPS)  # fmt: skip
    warehouse.write("class_matchups", game.name, key, table, "table")
    return found


def solution_name(stack: float, ante: float, tolerance: float = TOLERANCE) -> str:
    """The file of one stack's solution (to 6 decimals, as stacks are read).

    >>> solution_name(10.5, 0.0), solution_name(123.4567, 0.125)
    ('stack-10.5-ante-0-tol-0.001', 'stack-123.4567-ante-0.125-tol-0.001')
    """

    def exact(x: float) -> str:
        return f"{x:.6f}".rstrip("0").rstrip(".")

    return f"stack-{exact(stack)}-ante-{exact(ante)}-tol-{exact(tolerance)}"


def solution(warehouse: Warehouse, game: GameSpec, options: Mapping[str, Any], stack: float, ante: float,
             found: Callable[[], Matchups], samples: int, seed: int = 0) -> pa.Table:  # fmt: skip
    """The stored solution at ``stack`` and ``ante``, or solved on ``found()`` and stored."""
    from scooplab import __version__

    options = game.resolve_options(options)
    key, name = matchup_key(game, options, samples, seed), solution_name(stack, ante)
    rows = _read(warehouse, "pushfold", game.name, key, name, PUSHFOLD)
    if rows is not None:
        return rows
    table = found()
    solved: PushFold = solve(table.equity, table.weights, stack, ante, tolerance=TOLERANCE)
    push_gain, call_gain = gains(table, solved, stack, ante)
    n, now = len(table.names), datetime.now(UTC)
    reached = (f"to {TOLERANCE} bb" if solved.exploitability < TOLERANCE
               else f"stopped after {solved.iterations:,} iterations")  # fmt: skip
    method = f"{METHOD} {reached}; matchups of {samples:,} sampled runouts a pair of classes, seed {seed}"
    rows = pa.table({
        "variant": [game.name] * n, "options": [json.dumps(options, sort_keys=True)] * n,
        "stack": [stack] * n, "ante": [ante] * n, "hand_group": list(table.names),
        "push": solved.push.tolist(), "call": solved.call.tolist(),
        "push_gain": push_gain.tolist(), "call_gain": call_gain.tolist(),
        "value": [solved.value] * n, "exploitability": [solved.exploitability] * n,
        "iterations": [solved.iterations] * n, "method": [method] * n, "samples": [samples] * n,
        "seed": [seed] * n, "created_at": [now] * n, "scooplab_version": [__version__] * n,
    }, schema=PUSHFOLD)  # fmt: skip
    warehouse.write("pushfold", game.name, key, rows, name)
    return rows
