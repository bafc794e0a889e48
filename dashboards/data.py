"""Cached access to the warehouse for the dashboard: one DuckDB connection, cached results.

Pages call these and nothing else, so every number on screen comes from ``analytics``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import polars as pl
import streamlit as st

from analytics import tracker as tracking
from analytics.compare import compare_runs, paired_runs
from analytics.db import connect, run_query, run_query_page
from analytics.sandbox import QueryError, QueryLimits, size_text
from analytics.stats import game_stats
from scooplab.lab import Lab

NO_RUN = "(no run matches)"  # the run filter when the sidebar's filters match no run


def data_path() -> str:
    """The warehouse the dashboard shows (``scooplab dashboard --data`` sets it)."""
    return os.environ.get("SCOOPLAB_DATA", "data/warehouse")


def games() -> dict[str, Any]:
    """The games to show: the built-in ones, then those described in files that runs of this
    warehouse were simulated from (a description that is gone or broken is left out)."""
    return _games(data_path())


@st.cache_resource(show_spinner=False, ttl=60)
def _games(data: str) -> dict[str, Any]:
    from engine.rules.games import GAMES
    from scooplab.lab import Lab

    Lab(data).described_games()
    return dict(GAMES)


@st.cache_resource(show_spinner=False, ttl=60)
def connection(data: str):
    """The views over the files there are now: made again after a minute, so new runs show and a
    file another process removed (an interrupted ingest replaced) is no longer read."""
    _games(data)  # the games described in files first: the views' variants table lists them
    return connect(data)


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
        table, total = run_query_page(data, text, limit, QueryLimits.of())
        return pl.from_arrow(table), total, None
    except QueryError as error:
        return None, 0, str(error)


def whole_query(data: str, text: str) -> tuple[bytes, int, str | None]:
    """Untrusted SQL's whole result as Parquet bytes and its row count, or one line saying why not
    (the query runs again in a process of its own, within the time and memory limits)."""
    import io

    import pyarrow.parquet as pq

    try:
        table = run_query(data, text, None, QueryLimits.of())
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


SIMULATED_ID = re.compile(r"^(?P<run>[A-Za-z0-9._-]+):(?P<shard>\d+):\d+$")


@st.cache_resource(show_spinner=False, max_entries=8)
def shard_connection(data: str, run_id: str, shard: int):
    return connect(data, only_paths=[f"/run={run_id}/shard-{shard:05d}."])


@st.cache_data(show_spinner=False, ttl=60, max_entries=64)
def hand(data: str, hand_id: str) -> tuple[dict | None, pl.DataFrame, pl.DataFrame]:
    """One hand, its players and its actions (a simulated hand is looked up in its shard's file)."""
    match = SIMULATED_ID.match(hand_id)
    con = shard_connection(data, match["run"], int(match["shard"])) if match else connection(data)
    cursor = con.cursor()
    params = {"id": hand_id}
    hands = cursor.sql("SELECT * FROM hands WHERE hand_id = $id", params=params).pl()
    if hands.height == 0:
        return None, pl.DataFrame(), pl.DataFrame()
    players = cursor.sql("SELECT * FROM players WHERE hand_id = $id ORDER BY seat", params=params).pl()
    actions = cursor.sql(
        "SELECT street, seat, action, amount, cards, board, automatic, stack_after, pot_after FROM actions "
        "WHERE hand_id = $id ORDER BY seq",
        params=params,
    ).pl()
    return hands.row(0, named=True), players, actions


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


def hand_sources(data: str) -> pl.DataFrame:
    """Each game and run with hands, for the replayer's choices."""
    return sql(data, "SELECT variant, run_id, sum(hands)::BIGINT AS hands FROM runs WHERE hands > 0 "
                     "GROUP BY ALL ORDER BY variant, run_id")  # fmt: skip


def hand_counts(data: str) -> pl.DataFrame:
    return sql(data, "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL")


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
