"""Simulation runs: shards, reproducible random streams, resuming, local or Dask workers.

A run is cut into shards of ``shard_size`` hands. Shard ``i`` draws every
random number from its own generator, ``PCG64(SeedSequence(seed, spawn_key=(i,)))``,
and writes its own files with fixed names (``shard-00007.parquet``), the hands
file last. So the same command gives the same rows whatever the number of
workers or the executor, and a run started again with the same ``--run-id``
only redoes the shards whose hands file is missing.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from engine.rules.games import get_game
from engine.rules.games.base import GameSpec
from engine.rules.games.description import budget_line, card_budget, not_simulated
from ingest.storage.schema import (
    SEAT_LAYOUT,
    new_run_id,
    run_big_blind,
    run_row,
    run_structure,
    scooplab_version,
    seat_policies,
)
from ingest.storage.warehouse import Warehouse, check_name

DEFAULT_SHARD_SIZE = 200_000
CHUNK = 50_000  # hands simulated and written at a time: memory stays bounded
BETTING_CHUNK = 5_000  # the same in betting mode, whose hands have many more rows
BIT_GENERATOR = "PCG64"
BETTING_BIT_GENERATOR = "PCG64 seeding xoshiro256**"  # betting mode: the compiled loop's own generator
MODES = ("showdown", "betting")


@dataclass(frozen=True)
class SimSpec:
    """Everything that decides a run's hands."""

    game: str
    hands: int
    players: int = 6
    seed: int = 0
    mode: str = "showdown"
    options: dict[str, Any] = field(default_factory=dict)
    stake: int = 100
    shard_size: int = DEFAULT_SHARD_SIZE
    policies: tuple[str, ...] = ("tag",)
    structure: str = ""  # betting mode's betting structure ("": the game's own)
    big_blind: int = 0  # betting mode's big blind (or starting bet) in chips (0: 2% of the stake)
    ante: str = ""  # betting mode's ante each seat posts, in big blinds ("0.25", "1/4"; "": the game's own)

    def check(self) -> SimSpec:
        """Validate, resolving the options; raises ValueError with a clear message."""
        game = get_game(self.game)
        refusal = not_simulated(game, self.mode)
        if refusal:
            raise ValueError(refusal)
        if not game.min_players <= self.players <= game.max_players:
            raise ValueError(f"{game.title} seats {game.min_players} to {game.max_players} players")
        if self.hands <= 0:
            raise ValueError("--hands must be positive")
        if self.mode not in MODES:
            raise ValueError(f"--mode must be one of {', '.join(MODES)}")
        if self.stake <= 0:
            raise ValueError(f"--stake must be positive (chips each player brings), not {self.stake}")
        if self.shard_size <= 0:
            raise ValueError(f"--shard-size must be positive, not {self.shard_size}")
        if self.seed < 0:
            raise ValueError("--seed must not be negative")
        structures = sorted(s.value for s in game.variant_codes.values())
        structure = self.structure or game.structure.value
        if structure not in structures:
            raise ValueError(f"--structure must be one of {', '.join(structures)} for {game.title}")
        if self.mode == "showdown" and structure != game.structure.value:
            raise ValueError("--structure is for betting mode: in showdown mode everyone is all in")
        if self.mode == "betting" and game.bring_in and structure != "fixed-limit":
            raise ValueError(f"betting mode plays {game.title}'s bring-in in fixed-limit only")
        big_blind = self._checked_play()
        ante = self._checked_ante(game)
        options = game.resolve_options(self.options)
        if not card_budget(game, options, self.players)[-1]:
            raise ValueError(budget_line(game, options, self.players))
        resolved = {"options": options, "policies": tuple(self.policies), "structure": structure,
                    "big_blind": big_blind, "ante": ante}  # fmt: skip
        return SimSpec(**(asdict(self) | resolved))

    def _checked_ante(self, game: GameSpec) -> str:
        """Betting mode's ante in big blinds as a fraction's text (``1/4``), "" for the game's own."""
        if self.ante in ("", None):
            return ""
        if self.mode != "betting":
            raise ValueError("--ante is for betting mode: in showdown mode everyone is all in")
        text = str(self.ante).strip()
        plain = re.fullmatch(r"\d{1,6}(\.\d{1,6})?(/[1-9]\d{0,5})?", text)  # (never 1e999999999)
        ante = Fraction(text) if plain else None
        if ante is None or not 0 <= ante <= 100:
            raise ValueError(f"--ante is big blinds each seat antes (0 to 100: 0.25, 1/4), not {self.ante!r}")
        from engine.rules.betting import ante_ratio, blinds_of

        if ante == ante_ratio(game, *blinds_of(self.stake, self.big_blind)):
            return ""  # (the game's own: the same run as without it)
        return str(ante)

    def played(self, game: GameSpec) -> GameSpec:
        """The game as betting mode plays it: with ``--ante``'s antes where given."""
        return replace(game, ante=Fraction(self.ante)) if self.ante else game

    def _checked_play(self) -> int:
        """Betting mode: check the policies and give the big blind in chips (showdown mode: 0)."""
        if self.mode != "betting":
            if self.big_blind:
                raise ValueError("--big-blind is for betting mode: in showdown mode everyone is all in")
            return 0
        from engine.rules.betting import blinds_of
        from engine.rules.policies import POLICIES

        unknown = [p for p in self.policies if p not in POLICIES]
        if unknown:
            raise ValueError(f"unknown policy {unknown[0]!r}; choose from {', '.join(POLICIES)}")
        given = self.big_blind and self.big_blind != blinds_of(self.stake)[1]  # checked runs keep the default
        if given and (self.big_blind < 2 or self.big_blind % 2 or self.big_blind > self.stake):
            raise ValueError(
                f"--big-blind must be an even number of chips from 2 to the stake "
                f"({self.stake}), not {self.big_blind}: the small blind is half of it"
            )
        return blinds_of(self.stake, self.big_blind)[1]

    @property
    def chunk(self) -> int:
        """Hands simulated and written at a time."""
        return CHUNK if self.mode == "showdown" else BETTING_CHUNK

    @property
    def bit_generator(self) -> str:
        """What draws the random numbers (betting mode: the compiled loop's own, seeded by PCG64)."""
        return BIT_GENERATOR if self.mode == "showdown" else BETTING_BIT_GENERATOR

    @property
    def depth(self) -> float:
        """Betting mode: each stack in big blinds (the stake over the big blind)."""
        from engine.rules.betting import blinds_of

        return self.stake / blinds_of(self.stake, self.big_blind)[1]

    @property
    def shards(self) -> int:
        return math.ceil(self.hands / self.shard_size)

    def shard_hands(self, shard: int) -> tuple[int, int]:
        """First hand (0-based, in the run) and number of hands of a shard."""
        first = shard * self.shard_size
        return first, min(self.shard_size, self.hands - first)

    def generator(self, shard: int) -> np.random.Generator:
        """The shard's own random generator."""
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(shard,))))


def summary_table(counts, run_id: str, variant: str, shard: int):
    """The summaries rows of one shard."""
    import pyarrow as pa

    from ingest.storage.schema import SUMMARIES

    keys = sorted(counts)
    return pa.table(
        {
            "run_id": [run_id] * len(keys),
            "variant": [variant] * len(keys),
            "shard": [shard] * len(keys),
            "query": [k[0] for k in keys],
            "key": [k[1] for k in keys],
            "column": [k[2] for k in keys],
            "value": [counts[k] for k in keys],
        },
        schema=SUMMARIES,
    )


def shard_name(shard: int) -> str:
    return f"shard-{shard:05d}"


def run_shard(spec: SimSpec, run_id: str, data: str, shard: int) -> int:
    """Simulate one shard and write its files; returns its number of hands."""
    warehouse = Warehouse(data)
    game = get_game(spec.game)
    first, count = spec.shard_hands(shard)
    rng = spec.generator(shard)
    name = shard_name(shard)
    if spec.mode == "showdown":
        _showdown_shard(spec, game, warehouse, run_id, shard, rng)
        return count
    from ingest.generation.betting_sim import write_betting_shard

    write_betting_shard(spec, spec.played(game), warehouse, run_id, shard, rng, first, count, name)
    return count


def _showdown_shard(spec: SimSpec, game, warehouse: Warehouse, run_id: str, shard: int, rng) -> None:
    """A showdown-mode shard: chunks dealt by the kernel on this thread, each counted and encoded on a
    writer thread meanwhile (``BackgroundWrites``; counts and rows built by whichever is free); the
    summaries file is renamed into place just before the hands file, which marks the shard done."""
    from collections import Counter

    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from ingest.generation.sim_summary import summarize
    from ingest.storage.background import BackgroundWrites
    from ingest.storage.sim_rows import dictionary_columns, sim_hands

    first, count = spec.shard_hands(shard)
    name, words, counts = shard_name(shard), words_per_hand(game, spec.players, spec.options), Counter()

    def counted_and_rows(chunk):
        batch, start = chunk
        return summarize(batch), sim_hands(batch, run_id, shard, start, first + start)

    with warehouse.writer("hands", game.name, run_id, name, dictionary_columns(game, spec.options)) as writer:

        def written(counted_rows) -> None:  # (on the writer thread: the counts are added up there alone)
            counts.update(counted_rows[0])
            writer.write_table(counted_rows[1])

        with BackgroundWrites(written, counted_and_rows) as background:
            for start in range(0, count, CHUNK):
                u = random_words(rng, min(CHUNK, count - start), words)
                background.put((simulate_chunk(game, spec.players, spec.stake, spec.options, u), start))
        summaries = summary_table(counts, run_id, game.name, shard)
        warehouse.write("summaries", game.name, run_id, summaries, name=name)


def warm_up(spec: SimSpec) -> None:
    """Load what a shard of ``spec`` runs (modules, the compiled kernels from numba's cache, compiled
    into it on a first run), on a few hands written nowhere: a helper process does this before it
    takes a shard, and the run's own process before its clock starts."""
    game = get_game(spec.game)
    if spec.mode == "showdown":
        from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
        from ingest.generation.sim_summary import summarize
        from ingest.storage.sim_rows import sim_hands

        u = random_words(spec.generator(0), 10, words_per_hand(game, spec.players, spec.options))
        batch = simulate_chunk(game, spec.players, spec.stake, spec.options, u)
        sim_hands(batch, "warm-up", 0, 0, 0)
        summarize(batch)
        return
    from engine.rules.games.base import Structure
    from ingest.generation.betting_sim import batch_tables, play_batch

    game = spec.played(game)
    structure, policies = Structure(spec.structure), list(spec.policies)
    words = spec.generator(0).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, spec.players, spec.stake, spec.options, policies, words, 10, structure=structure,
                       big_blind=spec.big_blind)  # fmt: skip
    batch_tables(game, batch, run_id="warm-up", shard=0, first=0, stake=spec.stake, options=spec.options,
                 policies=policies, structure=structure)  # fmt: skip


@dataclass
class SimReport:
    """A run's summary: ``seconds`` dealing and writing its hands, after ``warm_up_seconds`` loading
    the kernels (compiling them on a first run), which the rate leaves out."""

    run_id: str
    hands: int
    shards: int
    shards_done_before: int
    seconds: float
    warm_up_seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "hands": self.hands,
            "shards": self.shards,
            "resumed_shards": self.shards_done_before,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds) if self.seconds else None,
            "warm_up_seconds": round(self.warm_up_seconds, 3),
        }


def _details(spec: SimSpec) -> str:
    """The runs table's ``details``: the chunk size, and betting mode's structure and big blind."""
    by_mode = ({"structure": spec.structure, "big_blind": spec.big_blind} if spec.mode == "betting"
               else {"seat_layout": SEAT_LAYOUT})  # fmt: skip
    by_mode |= {"ante": spec.ante} if spec.ante else {}  # (in big blinds; none: the game's own)
    chart = _pushfold_details(spec)
    return json.dumps({"chunk": spec.chunk} | by_mode | ({"pushfold": chart} if chart else {}))


def _pushfold_details(spec: SimSpec) -> dict[str, Any] | None:
    """Betting mode with ``pushfold`` seats: the solution they play (its matchups' key and stack),
    None where the policy plays tag or no seat plays it."""
    if spec.mode != "betting" or "pushfold" not in spec.policies:
        return None
    from engine.rules.games.base import Structure
    from engine.rules.pushfold_play import why_not_played
    from ingest.generation.pushfold import default_plan, matchup_key

    game = spec.played(get_game(spec.game))
    if why_not_played(game, spec.options, spec.players, Structure(spec.structure), spec.depth):
        return None
    key = matchup_key(game, spec.options, default_plan(game, spec.options))
    return {"matchups": key, "stack": spec.depth}


def _manifest(spec: SimSpec, run_id: str, status: str, shard_status: list[str]) -> Any:

    return run_row(
        run_id=run_id,
        variant=get_game(spec.game).name,
        kind="simulation",
        created_at=datetime.now(UTC),
        sources=[spec.game] if spec.game.endswith(".toml") else [],  # a game described in a file
        hands=spec.hands,
        rejected=0,
        duplicates=0,
        scooplab_version=scooplab_version(),
        details=_details(spec),
        mode=spec.mode,
        players=spec.players,
        seed=str(spec.seed),
        options=json.dumps(spec.options, sort_keys=True),
        stake=spec.stake,
        policies=list(spec.policies) if spec.mode == "betting" else [],
        shards=spec.shards,
        shard_size=spec.shard_size,
        shard_status=shard_status,
        status=status,
        numpy_version=np.__version__,
        bit_generator=spec.bit_generator,
    )


def _saved_versions(sources: list[str]) -> list[tuple[str, int]]:
    """The saved games' versions among a run's description files: (name, version) each."""
    from ingest.storage.descriptions import version_of

    return [(Path(s).parent.name, version_of(s)) for s in sources if version_of(s)]


def _same_run(existing: dict[str, Any], spec: SimSpec) -> str | None:
    checks = {
        "mode": spec.mode,
        "players": spec.players,
        "seed": str(spec.seed),
        "options": json.dumps(spec.options, sort_keys=True),
        "stake": spec.stake,
        "hands": spec.hands,
        "shard_size": spec.shard_size,
        # betting runs of older scooplab versions drew from another generator: no mixed runs
        "bit_generator": spec.bit_generator,
    }
    for key, value in checks.items():
        if existing.get(key) != value:
            return f"{key} {existing.get(key)!r} (asked: {value!r})"
    had, asked = (_saved_versions(sources) for sources in (existing.get("sources") or [], [spec.game]))
    if had and had != asked:  # a saved game's run goes on under the version it began with
        return f"saved version {had} (asked: {asked})"
    layout = json.loads(existing.get("details") or "{}").get("seat_layout")
    if spec.mode == "showdown" and layout != SEAT_LAYOUT:
        return f"seat layout {layout!r} of an older scooplab (asked: {SEAT_LAYOUT!r})"
    structure = run_structure(existing)
    if spec.mode == "betting" and structure != spec.structure:
        return f"structure {structure!r} (asked: {spec.structure!r})"
    if spec.mode == "betting" and run_big_blind(existing) != spec.big_blind:
        return f"big blind {run_big_blind(existing)} (asked: {spec.big_blind})"
    ante = json.loads(existing.get("details") or "{}").get("ante", "")
    if spec.mode == "betting" and ante != spec.ante:
        own = "the game's own"
        return f"ante {ante or own} (asked: {spec.ante or own})"
    if spec.mode == "betting":
        had, asked = (seat_policies(list(policies or ["tag"]), spec.players)
                      for policies in (existing.get("policies"), spec.policies))  # fmt: skip
        if had != asked:
            return f"policies {had} (asked: {asked})"
        chart = json.loads(existing.get("details") or "{}").get("pushfold")
        if chart != _pushfold_details(spec):
            return f"pushfold chart {chart} (asked: {_pushfold_details(spec)})"
    return None


def check_resume(spec: SimSpec, warehouse: Warehouse, run_id: str) -> None:
    """Raise ValueError if ``run_id`` exists as anything but a run of these settings."""
    game = get_game(spec.game)
    previous = [r for r in warehouse.read("runs").to_pylist() if r["run_id"] == run_id]
    if previous:
        if any(r["variant"] != game.name or r["kind"] != "simulation" for r in previous):
            raise ValueError(f"run {run_id} exists and is not a {game.name} simulation")
        difference = _same_run(previous[0], spec)
        if difference:
            raise ValueError(f"run {run_id} exists with different settings: {difference}")


def simulate(
    spec: SimSpec,
    data: str,
    run_id: str | None = None,
    workers: int = 1,
    executor: str = "local",
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SimReport:
    """Run (or resume) a simulation; ``on_progress`` is told of each finished shard's hands.

    The chart of ``pushfold`` seats is solved (or read) once here, before the shards.
    """
    spec = spec.check()
    run_id = check_name("run id", run_id or new_run_id("sim"))
    warehouse = Warehouse(data)
    with warehouse.lease(run_id):  # one writer a run: a second one would remove the first's files
        check_resume(spec, warehouse, run_id)
        return _run_shards(spec, warehouse, run_id, workers, executor, scheduler, on_progress)


def _run_shards(spec: SimSpec, warehouse: Warehouse, run_id: str, workers: int, executor: str,
                scheduler: str | None, on_progress: Callable[[int], None] | None) -> SimReport:  # fmt: skip
    """Simulate the shards of a run not written yet, between its runs rows ``running`` and ``complete``."""
    import time

    game = get_game(spec.game)
    if spec.mode == "betting" and "pushfold" in spec.policies:
        from ingest.generation.betting_sim import pushfold_chart

        pushfold_chart(spec, spec.played(game), warehouse)
    warehouse.remove_temporary(game.name, run_id)  # left by an interrupted run of this id
    done = [warehouse.exists("hands", game.name, run_id, shard_name(s)) for s in range(spec.shards)]
    todo = [s for s in range(spec.shards) if not done[s]]
    status = ["done" if d else "pending" for d in done]
    warehouse.write("runs", game.name, run_id, _manifest(spec, run_id, "running", status), name="run")
    if on_progress:
        on_progress(sum(spec.shard_hands(s)[1] for s in range(spec.shards) if done[s]))
    warming = time.perf_counter()
    if todo and executor == "local":  # the kernels loaded (or compiled, once) before the clock starts,
        warm_up(spec)  # and before helpers start: they find them in numba's cache
    start = time.perf_counter()
    hands = 0
    for shard, count in _execute(spec, run_id, warehouse.url, todo, workers, executor, scheduler):
        status[shard] = "done"
        hands += count
        if on_progress:
            on_progress(count)
    seconds = time.perf_counter() - start
    warehouse.remove_temporary(game.name, run_id)  # left by a worker killed mid-shard (its shard was redone)
    warehouse.write("runs", game.name, run_id, _manifest(spec, run_id, "complete", status), name="run")
    return SimReport(run_id, hands, spec.shards, spec.shards - len(todo), seconds, start - warming)


def _execute(spec, run_id, data, shards, workers, executor, scheduler):
    """Yield (shard, hands) as shards finish, on the chosen executor."""
    if executor == "dask":
        yield from _execute_dask(spec, run_id, data, shards, workers, scheduler)
        return
    if executor != "local":
        raise ValueError("--executor must be local or dask")
    from ingest.processes import share_out

    # this process simulates shards too, beside workers - 1 helpers that end with it, even killed with -9
    yield from share_out(partial(run_shard, spec, run_id, data), shards, workers, partial(warm_up, spec))


def _execute_dask(spec, run_id, data, shards, workers, scheduler):
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(
            n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        futures = client.map(
            run_shard, [spec] * len(shards), [run_id] * len(shards), [data] * len(shards), shards,
            retries=2, pure=False,
        )  # fmt: skip
        shard_of = {future.key: shard for future, shard in zip(futures, shards, strict=True)}
        for future in as_completed(futures):
            yield shard_of[future.key], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
