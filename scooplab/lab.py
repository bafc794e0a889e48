"""The Python API: a warehouse opened for notebooks and scripts (``docs/python-api.md``).

``scooplab.open(data)`` gives a ``Lab``: read-only SQL over the views (a DuckDB relation),
Polars LazyFrames of the documented tables (only the files of the games and runs asked for
are read), and the commands' results as plain Python objects: ``stats``, ``compare``,
``simulate``, ``ingest``, ``odds`` return what ``--format json`` prints.

>>> import tempfile, scooplab
>>> with tempfile.TemporaryDirectory() as folder, scooplab.open(folder) as lab:
...     run = lab.simulate("holdem", hands=2_000, players=3, seed=1, run_id="tiny")
...     hands = lab.sql("SELECT count(*) FROM hands WHERE run_id = 'tiny'").fetchall()[0][0]
...     seats = lab.players("holdem", run="tiny").collect().height
...     run["hands"], hands, seats, lab.stats("holdem")["hands"]
(2000, 2000, 6000, 2000)
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import duckdb
    import polars as pl

    from engine.rules.games.base import GameSpec

    Runs = str | Iterable[str] | None  # one run id, several, or (None) every run

FRAMES = ("hands", "players", "actions", "runs", "rejects")  # views ``frame`` serves by name


class Lab:
    """One warehouse (a folder or an fsspec URL) opened for analysis; use one per thread.

    Relations and frames read the files there were when they were made: after ``simulate`` or
    ``ingest`` ask again to see the new ones. ``close`` (or leaving a ``with`` block) releases
    every connection, and the relations and frames made from them.
    """

    def __init__(self, data: str | Path = "data/warehouse") -> None:
        self.data = str(data)
        self._opened = ExitStack()  # every connection made, closed by ``close``
        self._sql: duckdb.DuckDBPyConnection | None = None
        self._frames: dict[tuple, duckdb.DuckDBPyConnection] = {}

    def __enter__(self) -> Lab:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"scooplab.open({self.data!r})"

    def close(self) -> None:
        """Close every connection this lab opened."""
        self._changed()
        self._opened.close()

    # -- reading -------------------------------------------------------------------------------
    def sql(self, query: str, params: dict[str, Any] | None = None) -> duckdb.DuckDBPyRelation:
        """One read-only query over the views (as ``scooplab query``): ``.pl()``, ``.arrow()``,
        ``.fetchall()``. Anything but one SELECT, or a query DuckDB cannot bind, raises
        ``analytics.sandbox.QueryError`` with DuckDB's message on one line.

        DuckDB's memory is capped at the query memory limit (``SCOOPLAB_QUERY_MEMORY`` when the
        first query is made, else 2 GB; nothing spills to disk): past it a result method raises
        ``duckdb.OutOfMemoryException``. There is no time limit: the query runs in this process,
        and an interrupt (Ctrl-C, a notebook's stop button) cancels it."""
        import duckdb

        from analytics.sandbox import MEMORY_VARIABLE, QueryError, check_query

        check_query(query)
        try:
            return self._connection().sql(query, params=params)
        except duckdb.OutOfMemoryException:
            raise QueryError(
                f"query stopped at the memory limit (set {MEMORY_VARIABLE} to change it)"
            ) from None
        except duckdb.Error as error:
            raise QueryError(" ".join(str(error).split())) from None

    def frame(self, view: str, variant: str | None = None, run: Runs = None) -> pl.LazyFrame:
        """A view's documented columns as a Polars LazyFrame, reading only the files of one game
        (``variant``) and some runs (``run``: one id or several)."""
        if view not in FRAMES:
            raise ValueError(f"no frame {view!r}; choose from {', '.join(FRAMES)} (or use sql)")
        runs = (run,) if isinstance(run, str) else tuple(run or ())
        game = _game(variant).name if variant else None
        key = (game, runs)
        if key not in self._frames:
            from analytics.db import connect

            paths = [f"/run={r}/" for r in runs] or None
            self._frames[key] = connect(self.data, [game] if game else None, only_paths=paths)
            self._opened.callback(self._frames[key].close)
        if runs and view == "runs":  # the runs files are read whole: keep the runs asked for
            query, params = "SELECT * FROM runs WHERE list_contains($runs, run_id)", {"runs": list(runs)}
        else:
            query, params = f"SELECT * FROM {view}", None
        return self._frames[key].sql(query, params=params).pl(lazy=True)

    def hands(self, variant: str | None = None, run: Runs = None) -> pl.LazyFrame:
        """Every stored hand (``docs/warehouse.md``, table ``hands``), of a game and runs if given."""
        return self.frame("hands", variant, run)

    def players(self, variant: str | None = None, run: Runs = None) -> pl.LazyFrame:
        """One row per seat per hand (showdown-mode seats unnested), of a game and runs if given."""
        return self.frame("players", variant, run)

    def actions(self, variant: str | None = None, run: Runs = None) -> pl.LazyFrame:
        """Every action of every hand, of a game and runs if given."""
        return self.frame("actions", variant, run)

    # -- the commands' results -----------------------------------------------------------------
    def stats(self, variant: str, run: Runs = None, *, mode: str | None = None,
              players: int | None = None, structure: str | None = None, rule: dict[str, Any] | None = None,
              play: str | None = None, population: str | None = None) -> dict[str, Any]:  # fmt: skip
        """``scooplab stats --format json``: every statistic of one game over one population, the
        largest that matches ``mode``, ``players``, ``structure``, ``rule`` and ``play``, or the
        one whose ``label`` is ``population`` (as ``populations`` lists them)."""
        from analytics.stats import game_stats

        game = _game(variant)
        runs = [run] if isinstance(run, str) else list(run or [])
        self._check_runs(game.name, runs)
        asked = {"mode": mode, "players": players, "structure": structure,
                 "options": _rules(game, rule), "play": play}  # fmt: skip
        if population:
            asked = {"label": population}
        return json.loads(json.dumps(game_stats(self.data, game.name, runs, population=asked), default=str))

    def compare(self, run_a: str, run_b: str) -> dict[str, Any]:
        """``scooplab compare --format json``: two runs of one game, statistic by statistic."""
        from analytics.compare import compare_runs

        variant = self.run_variant(run_a)
        if self.run_variant(run_b) != variant:
            raise ValueError(f"runs are of different games: {variant} and {self.run_variant(run_b)}")
        return json.loads(json.dumps(compare_runs(self.data, variant, run_a, run_b), default=str))

    def run_variant(self, run_id: str) -> str:
        """The one game whose hands a run holds (from its files' folders); ValueError otherwise."""
        part = f"/run={run_id}/"
        found = sorted({path.split("/variant=")[-1].split("/")[0]
                        for path in _warehouse(self.data).files("hands") if part in path})  # fmt: skip
        where = f"in {self.data}"
        if not found:
            raise ValueError(f'no run {run_id!r} {where} (scooplab query "SELECT * FROM runs" lists them)')
        if len(found) != 1:
            raise ValueError(f"run {run_id!r} has hands of {len(found)} games {where} (needs exactly one)")
        return found[0]

    def simulate(self, variant: str, hands: int, *, players: int = 6, seed: int = 0, mode: str = "showdown",
                 rule: dict[str, Any] | None = None, stake: int = 100, policies: Iterable[str] = ("tag",),
                 structure: str = "", big_blind: int = 0, shard_size: int | None = None,
                 run_id: str | None = None, workers: int = 1, executor: str = "local",
                 scheduler: str | None = None, progress: Callable[[int], None] | None = None,
                 ) -> dict[str, Any]:  # fmt: skip
        """``scooplab simulate --format json``: simulate (or resume) a run into the warehouse;
        ``progress(hands)`` hears of each finished shard."""
        from ingest.generation.simulation import DEFAULT_SHARD_SIZE, SimSpec, simulate

        game = _game(variant)
        named = game.name if _built_in(game) else game.source  # a described game: its file, for workers
        spec = SimSpec(game=named, hands=hands, players=players, seed=seed, mode=mode,
                       options=_rules(game, rule), stake=stake, shard_size=shard_size or DEFAULT_SHARD_SIZE,
                       policies=tuple(policies), structure=structure,
                       big_blind=big_blind).check()  # fmt: skip
        report = simulate(spec, self.data, run_id, workers, executor, scheduler, on_progress=progress)
        self._changed()
        return report.summary() | {"seed": spec.seed, "variant": game.name}

    def ingest(self, *paths: str | Path, run_id: str | None = None,
               on_reject: Callable[[str], None] | None = None,
               on_hand: Callable[[], None] | None = None) -> dict[str, Any]:  # fmt: skip
        """``scooplab ingest --format json``, with ``rejected_hands``: one line per rejected hand
        (each also told to ``on_reject`` as it comes; ``on_hand`` is called for every hand read)."""
        from ingest.histories.pipeline import ingest

        rejected: list[str] = []

        def reject(line: str) -> None:
            rejected.append(line)
            if on_reject:
                on_reject(line)

        report = ingest(list(paths), _warehouse(self.data), run_id=run_id, on_reject=reject, on_hand=on_hand)
        self._changed()
        return report.summary() | {"rejected_hands": rejected}

    def odds(self, variant: str, hands: list[str], board: dict[str, str] | None = None, dead: str = "", *,
             rule: dict[str, Any] | None = None, exact: bool | None = None, samples: int | None = None,
             seed: int = 0, progress: Callable[[int, int], None] | None = None,
             ) -> dict[str, Any]:  # fmt: skip
        """``scooplab odds --format json``: each hand's equity all in from here (needs no warehouse);
        ``progress(done, total)`` hears of each chunk of runouts."""
        from engine.odds.situations import odds, situation

        game = _game(variant)
        options = game.resolve_options(_rules(game, rule))
        spot = situation(game, hands, board or {}, dead, options)
        return odds(game, spot, options, exact=exact, samples=samples, seed=seed, progress=progress).as_json()

    def compute_starting_hands(self, variant: str | GameSpec, players: int) -> None:
        """``scooplab hands``: compute a game's default starting-hand table and store it."""
        from ingest.generation.starting_hands import compute_and_store

        compute_and_store(_warehouse(self.data), _game(variant), players, {})
        self._changed()

    def solve_pushfold(
        self, variant: str | GameSpec, stacks: Iterable[float], plan: str | None = None
    ) -> None:
        """``scooplab solve pushfold``: solve and store a game's heads-up push/fold equilibria at
        ``stacks`` (big blinds), under a stored plan (its ``plan`` column, JSON) or the game's default."""
        solver = self._pushfold_solver(variant, plan)
        for stack in stacks:
            solver.solution(float(stack), 0.0)
        self._changed()

    def pushfold_buckets(self, variant: str | GameSpec, plan: str | None = None) -> list[dict[str, Any]]:
        """A bucketed game's buckets under a stored plan (JSON) or its default: share, scores, an
        example hand each."""
        return self._pushfold_solver(variant, plan).bucket_summary()

    # -- inside --------------------------------------------------------------------------------
    def _pushfold_solver(self, variant: str | GameSpec, plan: str | None):
        from engine.solving.pushfold import Plan
        from ingest.generation.pushfold import Solver, default_plan

        game = _game(variant)
        chosen = Plan.from_fields(json.loads(plan)) if plan else default_plan(game, {})
        return Solver(_warehouse(self.data), game, {}, chosen)

    def _connection(self) -> duckdb.DuckDBPyConnection:
        if self._sql is None:
            from analytics.db import read_only

            self._sql = self._opened.enter_context(read_only(self.data))
        return self._sql

    def _changed(self) -> None:
        """New files were written: later relations and frames see them (earlier ones still read
        the files they listed, until ``close``)."""
        self._sql = None
        self._frames = {}

    def _check_runs(self, variant: str, runs: list[str]) -> None:
        if not runs:
            return
        rows = _warehouse(self.data).read("runs", ["run_id", "variant"]).to_pylist()
        known = {r["run_id"] for r in rows if r["variant"] == variant}
        for name in runs:
            if name not in known:
                listed = ", ".join(sorted(known)[:8]) or "none"
                raise ValueError(f"no {variant} run {name!r} in {self.data} (its runs: {listed})")


def open(data: str | Path = "data/warehouse") -> Lab:
    """Open a warehouse (a folder or an fsspec URL such as ``s3://bucket/lab``)."""
    return Lab(data)


def _game(variant: str | Path | GameSpec) -> GameSpec:
    """A game by name, by its description file, or as given."""
    from engine.rules.games import get_game
    from engine.rules.games.base import GameSpec

    return variant if isinstance(variant, GameSpec) else get_game(str(variant))


def _built_in(game: GameSpec) -> bool:
    """Whether a game is one of the built-in descriptions (``engine/variants/``)."""
    from engine.rules.games.description import VARIANTS_DIR

    return not game.source or Path(game.source).resolve().parent == VARIANTS_DIR.resolve()


def _warehouse(data: str):
    from ingest.storage.warehouse import Warehouse

    return Warehouse(data)


def _rules(game: GameSpec, rule: dict[str, Any] | None) -> dict[str, Any]:
    """Rule options by name; a text value is parsed as ``--rule KEY=VALUE`` parses it."""
    options = {}
    for name, value in (rule or {}).items():
        option = next((o for o in game.options if o.name == name), None)
        if option is None:
            known = ", ".join(o.name for o in game.options) or "none"
            raise ValueError(f"rule {name!r}: {game.title} rule options are {known}")
        options[name] = option.parse(value) if isinstance(value, str) else value
    return options
