"""Cached access to the warehouse for the dashboard: one DuckDB connection, cached results.

Pages call these and nothing else, so every number on screen comes from ``analytics``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, suppress
from typing import Any

import polars as pl
import streamlit as st

from analytics import resources
from analytics import tracker as tracking
from analytics.compare import compare_runs, paired_runs
from analytics.db import connect, run_query, run_query_page
from analytics.hand_index import lookup
from analytics.sampling import rows_per_run, uniform_hand
from analytics.sandbox import QueryError, QueryLimits, size_text
from analytics.stats import game_stats, load_kernels
from scooplab.lab import Lab

NO_RUN = "(no run matches)"  # the run filter when the sidebar's filters match no run


def data_path() -> str:
    """The warehouse the dashboard shows (``scooplab dashboard --data`` sets it)."""
    return os.environ.get("SCOOPLAB_DATA", "data/warehouse")


_SEEN: dict[str, tuple] = {}  # the warehouse's last stamp each server process saw


def stamp(data: str) -> tuple:
    """What changes when a run or a saved game is added or removed: the runs' and saved games'
    folders, their count and newest change (a listing of two levels, milliseconds)."""
    found = []
    for table in ("runs", "games"):
        with suppress(FileNotFoundError, NotADirectoryError):  # (no such table yet, or a folder removed)
            for entry in os.scandir(os.path.join(data, table)):
                if entry.is_dir() and not entry.name.startswith("."):
                    found += [
                        _entry(table, entry, inner) for inner in os.scandir(entry) if inner.name[0] != "."
                    ]
    return tuple(sorted(f for f in found if f))


def _entry(table: str, folder: os.DirEntry, inner: os.DirEntry) -> tuple | None:
    try:
        return table, folder.name, inner.name, inner.stat().st_mtime_ns
    except FileNotFoundError:  # a temporary file renamed, or a file removed, meanwhile
        return None


def follow_changes() -> None:
    """Forget every cached result when the warehouse gained or lost a run or a saved game since the
    last page shown (a run a job or another process finished shows at once, without a restart)."""
    path = data_path()
    now = stamp(path)
    if _SEEN.get(path) not in (None, now):
        refresh()
    _SEEN[path] = now


def refresh() -> None:
    """Forget every cached result and connection (the warehouse changed)."""
    st.cache_data.clear()
    st.cache_resource.clear()


def games() -> dict[str, Any]:
    """The games to show: the built-in ones, then those described in files that runs of this
    warehouse were simulated from (a description that is gone or broken is left out)."""
    return _games(data_path())


@st.cache_resource(show_spinner=False, ttl=60)
def _games(data: str) -> dict[str, Any]:
    return _known_games(data)


def _known_games(data: str) -> dict[str, Any]:
    """The built-in games and those described in files that runs of ``data`` were simulated from."""
    from engine.rules.games import GAMES

    Lab(data).described_games()
    return dict(GAMES)


CONNECTION_SECONDS = 60  # how long views made over the files there were then may serve


@st.cache_resource(show_spinner=False, ttl=CONNECTION_SECONDS)
def connection(data: str):
    """The views over the files there are now: made again after a minute, so new runs show and a
    file another process removed (an interrupted ingest replaced) is no longer read."""
    _games(data)  # the games described in files first: the views' variants table lists them
    prepared = _PREPARED.pop(data, None)
    if prepared is not None:
        made_at, made_over, made = prepared
        if made_over == stamp(data) and time.monotonic() - made_at < CONNECTION_SECONDS:  # (still current)
            with suppress(Exception):
                return made.result()
    return connect(data)


# the views made as the server started, by warehouse: (when, the warehouse's stamp then, the views)
_PREPARED: dict[str, tuple[float, tuple, Future]] = {}


def prepare_connection(data: str) -> None:
    """As the server starts, before any page (dashboards/serve.py): make the views of ``data`` in the
    background, so that the first page finds them made (half a second over make demo's warehouse),
    then load the compiled kernels the statistics evaluate hands with (a third of a second each)."""
    made: Future = Future()

    def make() -> None:
        games: dict[str, Any] = {}
        try:
            games = _known_games(data)  # (the views' variants table lists them)
            made.set_result(connect(data))
        except Exception as error:  # the page makes them itself, and says what is wrong
            made.set_exception(error)
        with suppress(Exception):  # (a kernel not loaded now is loaded when a page asks)
            load_kernels(games.values())

    _PREPARED[data] = (time.monotonic(), stamp(data), made)
    thread = threading.Thread(target=make, name="scooplab-views", daemon=True)
    thread.start()
    _at_shutdown(lambda: thread.join(WARM_UP_STOP_SECONDS))  # (never abandoned inside DuckDB)


@st.cache_data(show_spinner=False, ttl=60)
def sql(data: str, text: str) -> pl.DataFrame:
    """A query over the views (trusted SQL written in this package)."""
    return connection(data).cursor().sql(text).pl()


@st.cache_data(show_spinner="Computing statistics…", ttl=60)
def stats(data: str, variant: str, runs: tuple[str, ...], population: str = "") -> dict[str, Any]:
    """``scooplab.Lab.stats``; ``population`` is a population's label, or "" for the largest. A run
    filter that matches nothing (``NO_RUN``) gives the statistics of no hands."""
    if NO_RUN in runs:
        return game_stats(data, variant, [NO_RUN])
    return Lab(data).stats(variant, list(runs), population=population or None)


@st.cache_data(show_spinner="Comparing…", ttl=60)
def compare(data: str, variant: str, run_a: str, run_b: str) -> dict[str, Any]:
    """``analytics.compare.compare_runs`` of two runs of ``variant``, over the cached statistics."""
    return compare_runs(data, variant, run_a, run_b, stats_of=lambda run: stats(data, variant, (run,)))


@st.cache_data(show_spinner="Counting players…", ttl=60)
def tracker(data: str, filters: tuple[tuple[str, Any], ...], min_hands: int = 0) -> pl.DataFrame:
    """One row per player under ``filters`` (``PlayerFilter``'s fields), as ``Lab.tracker``."""
    where = tracking.PlayerFilter(**dict(filters))
    return tracking.player_table(tracker_connection(data).cursor(), where, min_hands)


@st.cache_data(show_spinner=False, ttl=60)
def tracker_player(data: str, player: str, venue: str | None, filters: tuple[tuple[str, Any], ...]
                   ) -> dict[str, pl.DataFrame]:  # fmt: skip
    """One player's lines by position and net won over time, as ``Lab.tracker_player``."""
    con, where = tracker_connection(data).cursor(), tracking.PlayerFilter(**dict(filters))
    return {"lines": tracking.player_lines(con, venue, player, where),
            "net": tracking.net_over_time(con, venue, player, where)}  # fmt: skip


@st.cache_data(show_spinner=False, ttl=60)
def tracker_choices(data: str) -> dict[str, list[Any]]:
    """What the Players page's filters pick from."""
    return tracking.choices(tracker_connection(data).cursor())


@st.cache_resource(show_spinner="Indexing hands for the Players page…", ttl=60)
def tracker_connection(data: str):
    """The tracker's rows, one connection for every session (new runs counted once, when it is
    made again after a minute)."""
    return tracking.open_rows(data)


@st.cache_data(show_spinner=False, ttl=60)
def deal_pair(data: str, variant: str) -> tuple[str, str] | None:
    """Two runs of a game that dealt the same cards (the natural pair to compare), if any."""
    frame = sql(data, "SELECT * FROM runs ORDER BY created_at DESC")
    return paired_runs(frame.filter(pl.col("variant") == variant).to_dicts())


def user_query(data: str, text: str, limit: int = 10_000) -> tuple[pl.DataFrame | None, int, str | None]:
    """Untrusted SQL from the console: its first ``limit`` rows, how many there are, or one line
    (DuckDB's message, or the time or memory limit that stopped it). The query runs in a process
    of its own within the limits the server's environment sets now (``query_limits``)."""
    try:
        table, total = run_query_page(data, text, limit, QueryLimits.of(), tracking.console_views(data))
        return pl.from_arrow(table), total, None
    except QueryError as error:
        return None, 0, str(error)


def whole_query(data: str, text: str) -> tuple[bytes, int, str | None]:
    """Untrusted SQL's whole result as Parquet bytes and its row count, or one line saying why not
    (the query runs again in a process of its own, within the time and memory limits)."""
    import io

    import pyarrow.parquet as pq

    try:
        table = run_query(data, text, None, QueryLimits.of(), tracking.console_views(data))
    except QueryError as error:
        return b"", 0, str(error)
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue(), table.num_rows, None


def query_limits() -> str:
    """The console's limits in words: ``SCOOPLAB_QUERY_TIMEOUT`` and ``SCOOPLAB_QUERY_MEMORY`` of the
    server's environment, else the defaults (``analytics.sandbox.QueryLimits``)."""
    try:
        limits = QueryLimits.of()
    except QueryError as error:
        return str(error)
    return (f"A query is cancelled after {limits.seconds:g} s and stopped past {size_text(limits.memory)} of "
            "memory (the server's SCOOPLAB_QUERY_TIMEOUT and SCOOPLAB_QUERY_MEMORY set these).")  # fmt: skip


def flat_text(frame: pl.DataFrame) -> pl.DataFrame:
    """Lists and structs written out as text, so that CSV can hold every column."""
    nested = [name for name, kind in frame.schema.items() if isinstance(kind, pl.List | pl.Array | pl.Struct)]
    return frame.with_columns(pl.Series(n, _as_text(frame[n].to_list()), dtype=pl.String) for n in nested)


def _as_text(values: list) -> list[str | None]:
    return [None if v is None else json.dumps(v, default=str) for v in values]


def view_columns(data: str) -> pl.DataFrame:
    """Every view and its columns, for the console's browser."""
    return sql(data, "SELECT table_name AS view, column_name AS column, data_type AS type "
                     "FROM information_schema.columns WHERE table_name NOT LIKE '%_raw' "
                     "ORDER BY table_name, ordinal_position")  # fmt: skip


@st.cache_data(show_spinner=False, ttl=60, max_entries=64)
def hand(data: str, hand_id: str) -> tuple[dict | None, pl.DataFrame, pl.DataFrame]:
    """One hand, its players and its actions, read from its own file alone (``analytics.hand_index``:
    a simulated hand's id names its shard, a replayed hand's is looked up in the sorted id index)."""
    return lookup(data, hand_id)


# the replayer's random-hand filters: conditions on hands_raw (the wide showdown-mode columns too)
REPLAYER_FILTERS = {
    "any hand": "true",
    "everyone left died at once (a discard board)": "ending = 'everyone_dead'",
    "a dead player (a discard board)": "(list_bool_or(list_transform(seat_discard_street, "
    "lambda fate: list_bool_and(list_transform(fate, lambda f: f > 0)))) "
    "OR hand_id IN (SELECT hand_id FROM players_raw WHERE dead))",
    "two boards killed (a kill rule)": "variant IN (SELECT variant FROM variants "
    "WHERE kill AND n_boards = 3) AND len(surviving_boards) = 1",
    "a triple scoop (boards with shares)": "variant IN (SELECT variant FROM variants WHERE board_shares) "
    "AND (triple_scoop OR hand_id IN (SELECT hand_id FROM players_raw WHERE triple_scoop))",
    "a split pot": "split",
    "replayed hand histories": "source = 'phh'",
}


def random_hand(data: str, condition: str, variant: str | None = None, run: str | None = None) -> str | None:
    """A hand id drawn uniformly from every hand of the warehouse matching a condition on hands_raw
    (and of one game, one run, where given); None when none does."""
    if condition in (REPLAYER_FILTERS["any hand"], REPLAYER_FILTERS["replayed hand histories"]) and _local(
        data
    ):
        # no scan: a file by its row count, then a row of it (analytics.sampling); as uniform. Only
        # the runs the runs table lists (an older layout's runs, which no view reads, are not)
        listed = runs(data)
        if condition != "true":
            listed = listed.filter(pl.col("kind") == "ingest")
        chosen = [r for r in listed["run_id"].unique().to_list() if run in (None, r)]
        return uniform_hand(data, variant, chosen)
    where = [condition] + ["variant = $variant"] * bool(variant) + ["run_id = $run"] * bool(run)
    params = {k: v for k, v in (("variant", variant), ("run", run)) if v}
    found = (
        connection(data)
        .cursor()
        .sql(
            # (DuckDB's one-row reservoir sample favours the first files it reads: a random key is uniform)
            f"SELECT hand_id FROM hands_raw WHERE {' AND '.join(where)} ORDER BY random() LIMIT 1",
            params=params or None,
        )
        .pl()
    )
    return found["hand_id"][0] if found.height else None


def _local(data: str) -> bool:
    return "://" not in data and os.path.isdir(data)


def hand_sources(data: str) -> pl.DataFrame:
    """Each game and run with hands, for the replayer's choices."""
    return sql(data, "SELECT variant, run_id, sum(hands)::BIGINT AS hands FROM runs WHERE hands > 0 "
                     "GROUP BY ALL ORDER BY variant, run_id")  # fmt: skip


def hand_counts(data: str) -> pl.DataFrame:
    """Hands per game and source (``phh``: replayed, ``simulation``) of the runs listed: counted
    from the files' footers (analytics.sampling), no file read whole."""
    if not _local(data):
        return sql(data, "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL")
    kinds = {(r["variant"], r["run_id"]): r["kind"] for r in runs(data).iter_rows(named=True)}
    counted: dict[tuple[str, str], int] = {}
    for (variant, run), rows in rows_per_run(data).items():
        if (variant, run) in kinds and rows:
            where = (variant, "phh" if kinds[(variant, run)] == "ingest" else "simulation")
            counted[where] = counted.get(where, 0) + rows
    frame = pl.DataFrame(
        [{"variant": v, "source": s, "hands": n} for (v, s), n in counted.items()],
        schema={"variant": pl.String, "source": pl.String, "hands": pl.Int64},
    )
    return frame.sort("variant", "source")


def runs(data: str) -> pl.DataFrame:
    return sql(
        data,
        "SELECT run_id, variant, kind, mode, players, hands, status, created_at, options, seed "
        "FROM runs ORDER BY hands = 0, created_at DESC",  # (runs that stored no hand last)
    )


def empty(data: str) -> bool:
    return hand_counts(data).height == 0


@st.cache_data(show_spinner="Dealing every runout…", max_entries=64)
def odds(variant: str, hands: tuple[str, ...], boards: tuple[tuple[str, str], ...], dead: str
         ) -> tuple[dict[str, Any] | None, str | None]:  # fmt: skip
    """The odds of a situation as ``scooplab odds --format json`` gives them, or a one-line error."""
    from engine.odds.situations import OddsError

    games()  # the games described in files are known by name
    try:
        known = {name: cards for name, cards in boards if cards.strip()}
        return Lab().odds(variant, list(hands), known, dead), None
    except (OddsError, ValueError) as error:
        return None, str(error)


@st.cache_data(show_spinner=False, ttl=60)
def starting_hands(data: str, variant: str, players: int) -> pl.DataFrame:
    """The stored starting-hand tables of a game and table size (``scooplab hands``), every row.

    Read through a connection of its own, so a table computed meanwhile (here or by the
    command) shows within a minute, not only after the server restarts."""
    from analytics.db import view_sql

    con = connect(data, tables=("starting_hands",))
    query = (f"SELECT * FROM ({view_sql('starting_hands')}) WHERE variant = $variant AND players = $players "
             "ORDER BY samples DESC, created_at DESC, kind, rank")  # fmt: skip
    return con.sql(query, params={"variant": variant, "players": int(players)}).pl()


def compute_starting_hands(data: str, variant: str, players: int) -> str | None:
    """Compute and store a game's default starting-hand table, as ``scooplab hands``; None, or an error."""
    try:
        Lab(data).compute_starting_hands(games()[variant], players)
    except (OSError, ValueError) as error:
        return str(error)
    starting_hands.clear()
    return None


@st.cache_data(show_spinner=False, ttl=60)
def equilibrium_table(data: str) -> list[dict[str, Any]]:
    """The push/fold comparison table across games at 5, 10 and 15 bb (``analytics.equilibrium``)."""
    from analytics.equilibrium import comparison

    return comparison(data)


def pushfold(data: str, variant: str) -> pl.DataFrame:
    """A game's stored push/fold solutions (the plan with the most stored stacks), every stack:
    one row a class and stack, read through a connection of its own so new solutions show at once."""
    from analytics.equilibrium import solutions

    return solutions(data, variant)


def pushfold_chart(data: str, variant: str) -> pl.DataFrame:
    """Per class of a game the largest stored stack at which it is pushed and called."""
    from analytics.equilibrium import chart

    return chart(data, variant)


def buckets_of(data: str, variant: str, plan: str) -> list[dict[str, Any]]:
    """A bucketed game's buckets under a stored plan: share, scores, an example hand."""
    return Lab(data).pushfold_buckets(games()[variant], plan)


def solve_pushfold(data: str, variant: str, stacks: list[float], plan: str | None = None) -> str | None:
    """Solve and store a game's push/fold equilibria at ``stacks`` under a stored plan (JSON) or
    the game's default; None, or an error."""
    try:
        Lab(data).solve_pushfold(games()[variant], stacks, plan)
    except (OSError, ValueError, MemoryError) as error:
        return str(error)
    equilibrium_table.clear()
    return None


def limits():
    """What this server lets a browser start (``scooplab dashboard --max-hands`` and the like)."""
    from scooplab.jobs import Limits

    return Limits.from_environment()


def start_run(request: dict[str, Any]):
    """A simulation started in the background: (why not, None) or (None, its job)."""
    from scooplab.jobs import start_run as start

    return start(data_path(), request, limits())


def start_job(kind: str, request: dict[str, Any]):
    """A table computed in the background (``starting_hands``, ``pushfold``): (why not, None) or
    (None, its job)."""
    from scooplab import jobs

    try:
        return None, jobs.start(data_path(), kind, request, max_jobs=limits().max_jobs)
    except jobs.JobRefused as refused:
        return str(refused), None


def jobs(kind: str | None = None) -> list:
    """The warehouse's jobs, newest first (of one kind, if asked)."""
    from scooplab import jobs as background

    return [j for j in background.jobs(data_path()) if kind in (None, j.kind)]


def cancel_job(job_id: str):
    from scooplab import jobs as background

    return background.cancel(data_path(), job_id)


def resume_job(job_id: str) -> str | None:
    """Resume a job; why not (too many running, or it runs already), else None."""
    from scooplab import jobs as background

    try:
        background.resume(data_path(), job_id, limits().max_jobs)
    except background.JobRefused as refused:
        return str(refused)
    return None


def structures(game: Any) -> list[str]:
    """The betting structures a game is played in (its own first)."""
    played = [s.value for s in dict.fromkeys([game.structure, *game.variant_codes.values()])]
    return played + [s for s in ("no-limit", "pot-limit", "fixed-limit") if s not in played]


def policy_names() -> list[str]:
    from engine.rules.policies import POLICIES

    return list(POLICIES)


@st.cache_data(show_spinner="Comparing the two games…", ttl=60)
def compare_games(data: str, variant_a: str, run_a: str, variant_b: str, run_b: str) -> dict[str, Any]:
    """Two runs of two games compared as independent samples (their deals differ)."""
    from analytics.compare import compare_games as compared

    return compared(data, (variant_a, run_a), (variant_b, run_b),
                    lambda variant, run: stats(data, variant, (run,)))  # fmt: skip


def default_pair(data: str) -> tuple[str, str, str] | None:
    """The pair Compare opens on: the first game with two runs that dealt the same cards, else the
    first with two runs of one kind, mode and table (game, run A, run B); None without such a pair."""
    found = runs(data)
    for pick in (lambda variant: deal_pair(data, variant), lambda variant: alike_pair(found, variant)):
        for variant in games():
            pair = pick(variant)
            if pair:
                return variant, *pair
    return None


def alike_pair(found: pl.DataFrame, variant: str) -> tuple[str, str] | None:
    """Two runs of a game of one kind, mode and table size (newest first), if any: a pair to compare
    without warnings that they differ in more than a rule option."""
    rows = found.filter(pl.col("variant") == variant).unique("run_id", keep="first", maintain_order=True)
    seen: dict[tuple, str] = {}
    for row in rows.iter_rows(named=True):
        alike = (row["kind"], row["mode"], row["players"])
        if alike in seen:
            return seen[alike], row["run_id"]
        seen[alike] = row["run_id"]
    return None


_WARMED: set[str] = set()
_PAGES = {"running": 0}  # page scripts running now in this server (every session's)
_PAGES_LOCK = threading.Lock()
QUIET_POLL_SECONDS = 0.05


@contextmanager
def page_running() -> Iterator[None]:
    """Around a page's script: the warm-up waits while any page runs, so that it takes no CPU
    from a page being shown (two cores: a page and the warm-up at once each took twice as long)."""
    with _PAGES_LOCK:
        _PAGES["running"] += 1
    try:
        yield
    finally:
        with _PAGES_LOCK:
            _PAGES["running"] -= 1


def failure_line(error: Exception) -> str:
    """What a page that failed shows: one line, never a traceback (a query past its connection's
    limits names them and how to change them)."""
    import duckdb

    if isinstance(error, duckdb.OutOfMemoryException | MemoryError):
        limits = resources.Limits.of_machine()
        return (f"This page's query stopped at its connection's limits ({limits.text()}; set "
                f"{resources.MEMORY_VARIABLE} and {resources.TEMP_VARIABLE} to change them).")  # fmt: skip
    told = " ".join(str(error).split()) or type(error).__name__
    return f"This page stopped: {told[:500]}"


@contextmanager
def one_line_on_failure() -> Iterator[None]:
    """Around a page: an error ends it with one line on the page (the traceback goes to the server's
    log), and the server goes on. Streamlit's own stop and rerun pass through."""
    try:
        yield
    except Exception as error:
        traceback.print_exc(file=sys.stderr)
        st.error(failure_line(error))


def _when_quiet(stop: threading.Event) -> None:
    """Return once no page script runs (or the server stops)."""
    while _PAGES["running"] > 0 and not stop.is_set():
        time.sleep(QUIET_POLL_SECONDS)


def warm_up() -> None:
    """Once per server process: compute in the background what the pages ask for first (Compare's
    first pair, the replayer's choices, each game page's statistics), so that they come from the
    cache when asked. The work goes in short steps, each begun only while no page runs: a page
    shares the CPU with one step at the most. A failure here only leaves the cache cold (the page
    computes it)."""
    path = data_path()
    if path in _WARMED or empty(path):
        return
    _WARMED.add(path)

    stop = threading.Event()

    def warm() -> None:
        steps = deque([lambda: _compare_steps(path), lambda: hand_sources(path), lambda: _game_steps(path)])
        while steps:
            _when_quiet(stop)
            if stop.is_set():
                return
            more = None
            with suppress(Exception):  # (a step that fails leaves its result to the page; the rest go on)
                more = steps.popleft()()  # a step may name the steps that follow it
            if isinstance(more, list):
                steps.extendleft(reversed(more))

    thread = threading.Thread(target=warm, name="scooplab-warm-up", daemon=True)
    thread.start()
    _WARM_UPS.append((stop, thread))
    _at_shutdown(stop_warm_ups)


WARM_UP_STOP_SECONDS = 15  # at shutdown, the warm-up's step under way may end (a few seconds at most)
_WARM_UPS: list[tuple[threading.Event, threading.Thread]] = []  # this process's warm-ups


def stop_warm_ups() -> None:
    """Stop every warm-up this process started, each after its step under way (the server's end; a
    test session's, so that no thread a test started outlives it)."""
    for stop, _ in _WARM_UPS:
        stop.set()
    for _, thread in _WARM_UPS:
        thread.join(WARM_UP_STOP_SECONDS)
    _WARM_UPS[:] = [(stop, thread) for stop, thread in _WARM_UPS if thread.is_alive()]


def _at_shutdown(step: Callable[[], object]) -> None:
    """Run ``step`` as the server's process ends, before its background threads are abandoned: a
    thread abandoned inside DuckDB ends the process with a C++ "terminate called" message."""
    register = getattr(threading, "_register_atexit", None)  # (CPython: before threads are abandoned)
    if register is not None:
        with suppress(RuntimeError):  # (the process is ending already)
            register(step)


def _game_steps(path: str) -> list[Callable[[], object]]:
    """Each game page's statistics, one step a game, in the order the pages are listed."""
    return [lambda variant=variant: stats(path, variant, ()) for variant in games()]


def _compare_steps(path: str) -> list[Callable[[], object]]:
    """Compare's first pair in short steps (each run's statistics, then the paired counts)."""
    pair = default_pair(path)
    if not pair:
        return []
    variant, run_a, run_b = pair
    return [lambda: stats(path, variant, (run_a,)), lambda: stats(path, variant, (run_b,)),
            lambda: compare(path, variant, run_a, run_b)]  # fmt: skip
