"""Push/fold equilibria in the warehouse: a game's matchups (class against class, or bucket
against bucket with the pool of hands that fixes the buckets), computed once for its
description, rule set and plan (the key), and each stack's solution, read when asked again.

``class_matchups/variant=<game>/run=<key>/table.parquet`` holds the equity matrix,
``bucket_pool/variant=<game>/run=<key>/table.parquet`` a bucketed game's pool,
``pushfold/variant=<game>/run=<key>/stack-<S>-ante-<A>-tol-<T>.parquet`` one solution.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa

from engine.hands.cards import format_cards
from engine.rules.games.base import GameSpec
from engine.solving.pushfold import TOLERANCE, Matchups, Plan, PushFold, called_equity, gains, solve
from ingest.storage.schema import BUCKET_POOL, CLASS_MATCHUPS, PUSHFOLD, scooplab_version
from ingest.storage.warehouse import Warehouse

BUCKETS = 20  # buckets of a game too big for classes, unless asked otherwise
METHOD_VERSION = 2  # raise when the way matchups or solutions are computed changes
METHOD = "CFR+ (regrets floored at zero, alternating updates, averages weighted by iteration)"
ProgressOf = Callable[[str, str], AbstractContextManager[Callable[[int, int], None] | None]]


def matchup_key(game: GameSpec, options: Mapping[str, Any], plan: Plan) -> str:
    """The partition of a game's matchups: a digest of its description, options and plan."""
    described = [METHOD_VERSION, repr(game.under(options)), dict(options), plan.fields()]
    text = json.dumps(described, sort_keys=True, default=str)
    return f"headsup-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def default_plan(game: GameSpec, options: Mapping[str, Any], seed: int = 0) -> Plan:
    """Classes where the game deals at most three hole cards, else 20 buckets of the default pool."""
    from engine.rules.hand_classes import CLASS_HOLE_CARDS, first_hole_cards

    if first_hole_cards(game, game.resolve_options(options)) > CLASS_HOLE_CARDS:
        return Plan.bucketed(BUCKETS, Plan.pool, Plan.runouts, seed)  # the plan's own defaults
    return Plan(seed=seed)


def solution_name(stack: float, ante: float, tolerance: float = TOLERANCE) -> str:
    """The file of one stack's solution (to 6 decimals, as stacks are read).

    >>> solution_name(10.5, 0.0), solution_name(123.4567, 0.125)
    ('stack-10.5-ante-0-tol-0.001', 'stack-123.4567-ante-0.125-tol-0.001')
    """

    def exact(x: float) -> str:
        return f"{x:.6f}".rstrip("0").rstrip(".")

    return f"stack-{exact(stack)}-ante-{exact(ante)}-tol-{exact(tolerance)}"


def _stamp(n: int) -> dict[str, list]:

    return {"created_at": [datetime.now(UTC)] * n, "scooplab_version": [scooplab_version()] * n}


class Solver:
    """One game's push/fold solutions in a warehouse under one plan: matchups (and a bucketed
    game's pool and real-hands check) read or computed once, solutions read or solved and stored.
    ``progress_of(label, unit)`` gives a context manager yielding a progress callback."""

    def __init__(self, warehouse: Warehouse, game: GameSpec, options: Mapping[str, Any], plan: Plan,
                 progress_of: ProgressOf | None = None) -> None:  # fmt: skip
        self.warehouse, self.game, self.plan = warehouse, game, plan
        self.options = game.resolve_options(options)
        self.key = matchup_key(game, self.options, plan)
        self._progress_of = progress_of or (lambda label, unit: nullcontext(None))
        self._found: dict[str, Any] = {}

    def _once(self, name: str, make: Callable[[], Any]) -> Any:
        if name not in self._found:
            self._found[name] = make()
        return self._found[name]

    def matchups(self) -> Matchups:
        """The stored matchups of this key, or computed and stored."""
        return self._once("matchups", self._matchups)

    def _matchups(self) -> Matchups:
        rows = self.warehouse.read_one("class_matchups", self.game.name, self.key, "table")
        if rows is not None:
            names = tuple(dict.fromkeys(rows.column("hand_group").to_pylist()))
            n = len(names)
            equity = np.array(rows.column("equity").to_pylist()).reshape(n, n)
            pairs = np.array(rows.column("pairs").to_pylist(), dtype=np.float64).reshape(n, n)
            return Matchups(names, equity, pairs, self.plan.samples, self.plan.seed)
        if self.plan.buckets:
            from engine.solving.buckets import bucket_matchups

            with self._progress_of("bucket matchups", "pairs") as progress:
                found = bucket_matchups(self.game, self.options, self.bucketing(), self.plan.pairs, progress)
        else:
            from engine.solving.matchups import class_matchups  # compiled: loaded only to compute

            with self._progress_of("class matchups", "runouts") as progress:
                found = class_matchups(self.game, self.options, samples=self.plan.samples,
                                       seed=self.plan.seed, progress=progress)  # fmt: skip
        n, options = len(found.names), json.dumps(self.options, sort_keys=True)
        table = pa.table({
            "variant": [self.game.name] * n * n, "options": [options] * n * n,
            "hand_group": [a for a in found.names for _ in found.names], "against": list(found.names) * n,
            "equity": found.equity.ravel().tolist(),
            "pairs": found.weights.ravel().round().astype(np.int64).tolist(),
            "samples": [found.samples] * n * n, "seed": [self.plan.seed] * n * n, **_stamp(n * n),
        }, schema=CLASS_MATCHUPS)  # fmt: skip
        self.warehouse.write("class_matchups", self.game.name, self.key, table, "table")
        return found

    def bucketing(self):
        """A bucketed game's pool and edges (``engine.solving.buckets.Bucketing``), stored or computed."""
        return self._once("bucketing", self._bucketing)

    def _bucketing(self):
        from engine.hands.cards import parse_cards
        from engine.solving.buckets import from_pool, pool_buckets

        plan, deck = self.plan, self.game.deck
        rows = self.warehouse.read_one("bucket_pool", self.game.name, self.key, "table")
        if rows is not None:
            hands = np.array([parse_cards("".join(h), deck) for h in rows.column("hand").to_pylist()])
            scores = np.array(rows.column("score").to_pylist())
            return from_pool(hands.astype(np.int8), scores, plan.buckets, plan.runouts, plan.seed)
        with self._progress_of("scoring the pool of hands", "runouts") as progress:
            found = pool_buckets(self.game, self.options, buckets=plan.buckets, pool=plan.pool,
                                 runouts=plan.runouts, seed=plan.seed, progress=progress)  # fmt: skip
        n, names = len(found.pool), found.names
        texts = [format_cards(hand, deck) for hand in found.pool]
        table = pa.table({
            "variant": [self.game.name] * n, "options": [json.dumps(self.options, sort_keys=True)] * n,
            "hand": [[t[i : i + 2] for i in range(0, len(t), 2)] for t in texts],
            "score": found.scores.tolist(), "bucket": [names[b] for b in found.bucket(found.scores)],
            "runouts": [plan.runouts] * n, "seed": [plan.seed] * n, **_stamp(n),
        }, schema=BUCKET_POOL)  # fmt: skip
        self.warehouse.write("bucket_pool", self.game.name, self.key, table, "table")
        return found

    def bucket_summary(self) -> list[dict[str, Any]]:
        """Per bucket its share of the pool, its range of scores and the pool hand of its median
        score (read from the stored pool, without dealing)."""
        rows = self.warehouse.read_one("bucket_pool", self.game.name, self.key, "table")
        if rows is None:
            self.bucketing()
            rows = self.warehouse.read_one("bucket_pool", self.game.name, self.key, "table")
        buckets = np.array(rows.column("bucket").to_pylist())
        scores, hands = np.array(rows.column("score").to_pylist()), rows.column("hand").to_pylist()
        found = []
        for name in sorted(set(buckets.tolist())):
            mine = np.flatnonzero(buckets == name)
            middle = mine[np.argsort(scores[mine])[len(mine) // 2]]
            found.append({
                "bucket": name, "share": len(mine) / len(buckets), "score_low": float(scores[mine].min()),
                "score_high": float(scores[mine].max()), "example": "".join(hands[middle]),
            })  # fmt: skip
        return found

    def check(self):
        """Fresh hands against pool hands for the real-hands best responses (computed, not stored)."""

        def make():
            from engine.solving.buckets import check_hands

            with self._progress_of("checking on real hands", "runouts") as progress:
                return check_hands(self.game, self.options, self.bucketing(), self.plan.check_hands,
                                   self.plan.check_opponents, progress)  # fmt: skip

        return self._once("check", make)

    def solution(self, stack: float, ante: float = 0.0) -> pa.Table:
        """The stored solution at ``stack`` and ``ante``, or solved and stored."""
        name = solution_name(stack, ante)
        rows = self.warehouse.read_one("pushfold", self.game.name, self.key, name)
        if rows is not None:
            return rows
        table = self.matchups()
        solved: PushFold = solve(table.equity, table.weights, stack, ante, tolerance=TOLERANCE)
        rows = self._rows(table, solved, stack, ante)
        self.warehouse.write("pushfold", self.game.name, self.key, rows, name)
        return rows

    def _rows(self, table: Matchups, solved: PushFold, stack: float, ante: float) -> pa.Table:
        push_gain, call_gain = gains(table, solved, stack, ante)
        joint = table.weights / table.weights.sum()
        share = joint.sum(axis=1)
        n = len(table.names)
        full = [None, None, None]
        if self.plan.buckets:
            from engine.solving.buckets import full_exploitability

            found = full_exploitability(self.check(), solved.push, solved.call, stack, ante)
            full = [found.lower, found.upper, found.lower_error]
        reached = (f"to {TOLERANCE} bb" if solved.exploitability < TOLERANCE
                   else f"stopped after {solved.iterations:,} iterations")  # fmt: skip
        method = f"{METHOD} {reached}; {self.plan.described()}"
        return pa.table({
            "variant": [self.game.name] * n, "options": [json.dumps(self.options, sort_keys=True)] * n,
            "stack": [stack] * n, "ante": [ante] * n, "hand_group": list(table.names),
            "push": solved.push.tolist(), "call": solved.call.tolist(),
            "push_gain": push_gain.tolist(), "call_gain": call_gain.tolist(),
            "value": [solved.value] * n, "exploitability": [solved.exploitability] * n,
            "share": share.tolist(), "equity": ((joint * table.equity).sum(axis=1) / share).tolist(),
            "called_equity": [None if np.isnan(e) else float(e) for e in called_equity(table, solved.call)],
            "abstraction": [self.plan.columns()["abstraction"]] * n,
            "plan": [json.dumps(self.plan.fields(), sort_keys=True)] * n,
            "full_exploitability_low": [full[0]] * n, "full_exploitability_high": [full[1]] * n,
            "full_exploitability_error": [full[2]] * n,
            "iterations": [solved.iterations] * n, "method": [method] * n,
            "samples": [self.plan.columns()["samples"]] * n, "seed": [self.plan.seed] * n, **_stamp(n),
        }, schema=PUSHFOLD)  # fmt: skip
