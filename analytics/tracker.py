"""Players as a tracker shows them (docs/statistics.md, "Players"): per player, and per player and
position, each statistic as a count over its opportunities, over hands with betting.

The rows come from the ``tracker_seats`` view (one row per seat of a hand). Counting them means a
pass over every action, so ``seat_rows`` keeps them beside the warehouse, one Parquet file per
run (``derived/tracker_seats``), made again only when the run's files or this definition change:
a page over a million hands then reads a few columns of those files instead of replaying the
actions' windows each time. A player is one name at one venue; amounts add up in each currency.

>>> sorted(key for key, _, _ in TRACKER_STATS)[:3]
['cbet', 'fold_to_cbet', 'fold_to_three_bet']
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl
import pyarrow.parquet as pq

from analytics import derived, resources, tracker_kernel
from analytics.db import connect
from ingest.storage.warehouse import Warehouse

if TYPE_CHECKING:
    from collections.abc import Callable

TRACKER_VERSION = 2  # raise when tracker_seats.sql changes: every derived file is made again
DERIVED = "derived/tracker_seats"  # per run: every seat row, and the manifest
TOTALS = "derived/tracker_totals"  # per run: the counts added up by player, game, table size, stake, position
GROUPS = "run_id, variant, venue, player, currency, n_players, stake, position"

# (key, name on screen, the opportunities column): each count is over its opportunities
TRACKER_STATS = (
    ("vpip", "VPIP", "vpip_chances"),
    ("pfr", "PFR", "pfr_chances"),
    ("three_bet", "3-bet", "three_bet_chances"),
    ("fold_to_three_bet", "fold to 3-bet", "fold_to_three_bet_chances"),
    ("cbet", "c-bet", "cbet_chances"),
    ("fold_to_cbet", "fold to c-bet", "fold_to_cbet_chances"),
    ("wtsd", "WTSD", "saw_flop"),
    ("wsd", "W$SD", "wtsd"),
)
POSITIONS = ("early", "middle", "late", "button", "small blind", "big blind")
Z95 = 1.959964


@dataclass(frozen=True)
class PlayerFilter:
    """Which hands count: every field left empty lets every hand through."""

    variants: tuple[str, ...] = ()
    runs: tuple[str, ...] = ()
    venues: tuple[str, ...] = ()
    stakes: tuple[str, ...] = ()  # big blinds as the ``stake`` column writes them ("1 USD")
    table_sizes: tuple[int, ...] = ()
    first_day: date | None = None
    last_day: date | None = None

    def where(self) -> tuple[str, dict[str, Any]]:
        """The SQL condition on tracker seat rows, and its parameters."""
        params: dict[str, Any] = {
            "variants": list(self.variants), "runs": list(self.runs), "venues": list(self.venues),
            "stakes": list(self.stakes), "sizes": [int(n) for n in self.table_sizes],
        }  # fmt: skip
        condition = (
            "(len($variants) = 0 OR list_contains($variants, variant)) "
            "AND (len($runs) = 0 OR list_contains($runs, run_id)) "
            "AND (len($venues) = 0 OR list_contains($venues, coalesce(venue, ''))) "
            "AND (len($stakes) = 0 OR list_contains($stakes, stake)) "
            "AND (len($sizes) = 0 OR list_contains($sizes, n_players))"
        )
        if self.first_day is not None:  # only the seat rows know the day
            condition += " AND played_on >= $first_day"
            params["first_day"] = self.first_day
        if self.last_day is not None:
            condition += " AND played_on <= $last_day"
            params["last_day"] = self.last_day
        return condition, params


def open_rows(data: str | Path) -> duckdb.DuckDBPyConnection:
    """A connection with the tracker's relations over the warehouse at ``data``: ``tracker_rows``
    (every seat row: the ``tracker_seats`` view's columns), ``tracker_counts`` (each row's counts as
    numbers that add up) and ``tracker_totals`` (those added up by ``GROUPS``, with the first and
    last day).

    On a local warehouse the rows and totals are read from ``derived/`` (made here for each run
    whose files changed since); on object storage they are counted from the views each time.
    """
    files = prepare(data)
    if not files:  # object storage, or no hands: the views themselves (over nothing, or counted now)
        con = connect(data)
        con.sql("CREATE VIEW tracker_rows AS SELECT * FROM tracker_seats")
        con.sql(f"CREATE VIEW tracker_counts AS {_COUNTS.format(rows='tracker_rows')}")
        con.sql(f"CREATE VIEW tracker_totals AS {_TOTALS.format(counts='tracker_counts')}")
        return con
    con = resources.connect()
    con.sql(f"CREATE VIEW tracker_rows AS SELECT * FROM read_parquet({_listed(files)})")
    con.sql(f"CREATE VIEW tracker_counts AS {_COUNTS.format(rows='tracker_rows')}")
    totals = [f.replace(DERIVED, TOTALS) for f in files]
    con.sql(f"CREATE VIEW tracker_totals AS SELECT * FROM read_parquet({_listed(totals)})")
    return con


def console_views(data: str | Path) -> dict[str, str]:
    """The views the SQL console and ``scooplab query`` have beside the warehouse's: ``player_totals``
    (none when its counts cannot be made now: one line on stderr)."""
    try:
        return {"player_totals": totals_sql(data)}
    except Exception as error:  # (the console goes on without it)
        sys.stderr.write(
            f"scooplab: the view player_totals is missing now ({' '.join(str(error).split())})\n"
        )
        return {}


def totals_sql(data: str | Path) -> str:
    """The ``player_totals`` view of the SQL console and ``scooplab query``: the Players page's counts
    added up by ``GROUPS``, read from the stored totals (a few rows a player, counted as runs were
    written) where every run's are current; else counted from the views when queried (a pass over
    every action; nothing is counted before a query)."""
    warehouse = Warehouse(data)
    wanted = derived.runs_files(warehouse) if warehouse.local else {}
    folder = Path(warehouse.root) / DERIVED
    stored = {run: folder / f"run={run}.parquet" for run in sorted(wanted)}
    manifests = {run: {"version": TRACKER_VERSION, "sources": files} for run, files in wanted.items()}
    if stored and all(derived.is_current(path, manifests[run]) for run, path in stored.items()):
        totals = [str(path).replace(DERIVED, TOTALS) for path in stored.values()]
        return f"SELECT * FROM read_parquet({_listed(totals)})"
    return _TOTALS.format(counts=f"({_COUNTS.format(rows='tracker_seats')})")


def prepare(data: str | Path, on_run: Callable[[str], None] | None = None) -> list[str]:
    """Count the tracker rows of every run of a local warehouse whose files changed since they were
    counted (``simulate`` and ``ingest`` do it as they finish, so that the Players page opens at once);
    the derived files of every run. ``on_run(run_id)`` hears of each run counted now. On object
    storage nothing is kept (the rows are counted from the views each time): an empty list."""
    warehouse = Warehouse(data)
    return _derived_files(warehouse, on_run) if warehouse.local else []


def _listed(files: list[str]) -> str:
    return "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"


# each seat row's counts as numbers that add up, whatever the grouping (a hand is 1 hand)
_COUNTS = (
    f"SELECT {GROUPS}, played_on, 1 AS hands, CAST(counted AS INTEGER) AS results_hands, "
    + ", ".join(f"{key} AS {key}_n, {of} AS {key}_of" for key, _, of in TRACKER_STATS)
    + ", postflop_aggressive AS aggressive, postflop_calls AS calls, net_currency AS net, net_bb, "
    "net_bb * net_bb AS net_bb_squared FROM {rows}"
)
SUMMED = ("hands", "results_hands", *[f"{key}_{end}" for key, _, _ in TRACKER_STATS for end in ("n", "of")],
          "aggressive", "calls", "net", "net_bb", "net_bb_squared")  # fmt: skip
_TOTALS = (
    f"SELECT {GROUPS}, min(played_on) AS first_day, max(played_on) AS last_day, "
    + ", ".join(f"sum({c}) AS {c}" for c in SUMMED)
    + " FROM {counts} GROUP BY ALL"
)


def _derived_files(warehouse: Warehouse, on_run: Callable[[str], None] | None = None) -> list[str]:
    """The derived file of every run with hands, each made again when its run's files changed."""
    folder = Path(warehouse.root) / DERIVED
    wanted = derived.runs_files(warehouse)
    files = derived.refresh(folder, wanted, TRACKER_VERSION, partial(_derive, warehouse), on_run)
    for stale in derived.remove_stale(folder, set(wanted)):
        Path(str(stale).replace(DERIVED, TOTALS)).unlink(missing_ok=True)
    return files


def _derive(warehouse: Warehouse, run: str, path: Path, manifest: dict[str, Any]) -> None:
    """Count one run's tracker seat rows into ``path``, atomically (temporary file, then rename)."""
    totals = Path(str(path).replace(DERIVED, TOTALS))
    for folder in (path.parent, totals.parent):
        folder.mkdir(parents=True, exist_ok=True)
        derived.remove_left_behind(folder)
    temporary = derived.temporary(path.parent, ".parquet.partial")
    counted = [derived.temporary(path.parent, f".{name}.partial") for name in ("lines", "reached")]
    con = connect(warehouse.url, only_paths=[f"/run={run}/"])
    try:
        _compiled_lines(con, *counted)
        target = str(temporary).replace("'", "''")
        con.sql(f"COPY (SELECT * FROM tracker_seats) TO '{target}' (FORMAT parquet)")
        con.sql(f"CREATE VIEW tracker_rows AS SELECT * FROM read_parquet('{target}')")
        counts = _COUNTS.format(rows="tracker_rows")
        summed = str(temporary).replace(".parquet.partial", ".totals.partial").replace("'", "''")
        con.sql(f"COPY ({_TOTALS.format(counts=f'({counts})')}) TO '{summed}' (FORMAT parquet)")
        os.replace(summed, totals)
        os.replace(temporary, path)
        derived.write_manifest(path, manifest)
    finally:
        con.close()
        for left in (
            temporary,
            Path(str(temporary).replace(".parquet.partial", ".totals.partial")),
            *counted,
        ):
            left.unlink(missing_ok=True)


def _compiled_lines(con: duckdb.DuckDBPyConnection, lines: Path, reached: Path) -> None:
    """Count the views ``tracker_lines`` and ``tracker_reached`` with the compiled pass
    (``analytics.tracker_kernel``) into the files ``lines`` and ``reached``, and let the connection's
    views read them; the SQL views stay where the actions are not stored hand by hand."""
    writers: list[pq.ParquetWriter] = []
    try:
        for parts in tracker_kernel.streamed(con):
            for path, part in zip((lines, reached)[len(writers) :], parts[len(writers) :], strict=True):
                writers.append(pq.ParquetWriter(path, part.schema))  # each closed below, opened or not
            for writer, part in zip(writers, parts, strict=True):
                writer.write_table(part)
    except tracker_kernel.NotInOrder:
        return
    finally:
        for writer in writers:
            writer.close()
    if writers:
        for name, path in (("tracker_lines", lines), ("tracker_reached", reached)):
            con.sql(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_parquet('{_quoted(path)}')")


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def _aggregates() -> str:
    """The sums of every count (whole numbers as BIGINT), over tracker_counts or tracker_totals."""
    exact = ("net", "net_bb", "net_bb_squared")
    return ", ".join(f"sum({c}) AS {c}" if c in exact else f"CAST(sum({c}) AS BIGINT) AS {c}" for c in SUMMED)


def _ratio(count: str, out_of: str) -> pl.Expr:
    """``count / out_of``, null where there was no opportunity."""
    return pl.when(pl.col(out_of) > 0).then(pl.col(count) / pl.col(out_of))


def _rates(frame: pl.DataFrame) -> pl.DataFrame:
    """Rates beside their counts, aggression factor, bb/100 with its 95% interval."""
    n = pl.col("results_hands").cast(pl.Float64)
    mean = pl.col("net_bb") / n
    variance = (pl.col("net_bb_squared") - n * mean * mean) / (n - 1)
    half = Z95 * (variance.clip(lower_bound=0) / n).sqrt()
    return frame.with_columns(
        *[_ratio(f"{key}_n", f"{key}_of").alias(key) for key, _, _ in TRACKER_STATS],
        _ratio("aggressive", "calls").alias("af"),
        (100 * mean).alias("bb_per_100"),
        (100 * (mean - half)).alias("bb_per_100_low"),
        (100 * (mean + half)).alias("bb_per_100_high"),
    ).drop("net_bb_squared")


def _source(where: PlayerFilter) -> str:
    """The totals when no day is asked for (a few rows a player), else every seat's counts."""
    return "tracker_totals" if where.first_day is None and where.last_day is None else "tracker_counts"


def player_table(con: duckdb.DuckDBPyConnection, where: PlayerFilter | None = None, min_hands: int = 0,
                 by_position: bool = False) -> pl.DataFrame:  # fmt: skip
    """One row per player (venue, name, currency), or per player and position: hands, each
    statistic's count, opportunities and rate, aggression factor, net in currency, bb/100."""
    where = where or PlayerFilter()
    condition, params = where.where()
    keys = "venue, player, currency" + (", position" if by_position else "")
    query = (
        f"SELECT {keys}, {_aggregates()} FROM {_source(where)} WHERE {condition} "
        f"GROUP BY {keys} HAVING sum(hands) >= $min_hands ORDER BY hands DESC, {keys}"
    )
    frame = con.sql(query, params=params | {"min_hands": int(min_hands)}).pl()
    return _rates(frame)


def player_lines(con: duckdb.DuckDBPyConnection, venue: str | None, player: str,
                 where: PlayerFilter | None = None) -> pl.DataFrame:  # fmt: skip
    """One player's statistics by position (and ``all``), positions in table order."""
    where = where or PlayerFilter()
    condition, params = where.where()
    mine = f"{condition} AND player = $player AND coalesce(venue, '') = $venue"
    params |= {"player": player, "venue": venue or ""}
    grouped = con.sql(
        f"SELECT coalesce(position, 'all') AS position, currency, {_aggregates()} FROM {_source(where)} "
        f"WHERE {mine} GROUP BY GROUPING SETS ((position, currency), (currency))",
        params=params,
    ).pl()
    order = {p: i for i, p in enumerate((*POSITIONS, "all"))}
    return _rates(grouped).sort(pl.col("position").replace_strict(order, default=99))


def net_over_time(con: duckdb.DuckDBPyConnection, venue: str | None, player: str,
                  where: PlayerFilter | None = None, points: int = 1_000) -> pl.DataFrame:  # fmt: skip
    """One player's cumulative net won (currency, and big blinds) hand by hand in the order played
    (day, time, hand number), thinned to about ``points`` rows per currency."""
    condition, params = (where or PlayerFilter()).where()
    params |= {"player": player, "venue": venue or "", "points": int(points)}
    query = f"""
        WITH mine AS (
            SELECT currency, played_on, played_time, net_currency, net_bb,
                   row_number() OVER (
                       PARTITION BY currency ORDER BY played_on, played_time, hand_no, source_file, hand_index
                   ) AS hand
            FROM tracker_rows
            WHERE {condition} AND counted AND player = $player AND coalesce(venue, '') = $venue
        ),
        running AS (
            SELECT currency, hand, played_on,
                   sum(net_currency) OVER (PARTITION BY currency ORDER BY hand) AS net,
                   sum(net_bb) OVER (PARTITION BY currency ORDER BY hand) AS net_bb,
                   count(*) OVER (PARTITION BY currency) AS n
            FROM mine
        )
        SELECT currency, hand, played_on, net, net_bb FROM running
        WHERE hand = 1 OR hand = n OR hand % greatest(1, n // $points) = 0
        ORDER BY currency, hand
    """
    return con.sql(query, params=params).pl()


def choices(con: duckdb.DuckDBPyConnection) -> dict[str, list[Any]]:
    """What the filters can pick: venues, stakes, table sizes, games, and the first and last day."""
    found = con.sql(
        "SELECT list(DISTINCT coalesce(venue, '') ORDER BY coalesce(venue, '')), "
        "list(DISTINCT stake ORDER BY stake), list(DISTINCT n_players ORDER BY n_players), "
        "list(DISTINCT variant ORDER BY variant), "
        "min(first_day), max(last_day) FROM tracker_totals"
    ).fetchall()[0]
    venues, stakes, sizes, variants, first, last = found
    return {"venues": venues or [], "stakes": stakes or [], "table_sizes": sizes or [],
            "variants": variants or [], "days": [first, last]}  # fmt: skip
