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
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from contextlib import AbstractContextManager

    import duckdb
    import polars as pl
    import pyarrow as pa

    from engine.odds.pacing import Estimate
    from engine.rules.games.base import GameSpec
    from engine.solving.pushfold_plan import Plan
    from ingest.generation.simulation import SimSpec

    Runs = str | Iterable[str] | None  # one run id, several, or (None) every run
    # ``progress_of(label, unit)``: a context manager giving ``progress(done so far, total)`` (or None)
    ProgressOf = Callable[[str, str], AbstractContextManager[Callable[[int, int], None] | None]]

FRAMES = ("hands", "players", "actions", "runs", "rejects")  # views ``frame`` serves by name


def _best_effort(work: Callable[[Callable[[str], None]], object], what: str, later: str) -> list[str]:
    """``work(told)``, which tells of each run it handled: those runs. Work a finished run does for
    the pages (counts, indexes) never fails the run: a failure is one line on stderr, saying when
    the work is done instead (``later``)."""
    done: list[str] = []
    try:
        work(done.append)
    except Exception as error:  # (the run is written whatever happens here)
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        sys.stderr.write(f"scooplab: {what} now ({first}); {later}\n")
    return done


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
        self._tracker_rows: duckdb.DuckDBPyConnection | None = None
        self.saved_games()  # the warehouse's saved games known by name (a notebook asks for them so)

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

    def tracker(self, *, min_hands: int = 0, by_position: bool = False, **filters: Any) -> pl.DataFrame:
        """Players as a tracker shows them (``analytics.tracker``, docs/statistics.md "Players"): one
        row per player (venue, name, currency), or per player and position, over hands with betting.
        ``filters`` are ``PlayerFilter``'s fields: ``variants``, ``runs``, ``venues``, ``stakes``
        ("1 USD": the big blind), ``table_sizes``, ``first_day``, ``last_day``."""
        from analytics.tracker import PlayerFilter, player_table

        return player_table(self._tracker(), PlayerFilter(**_tuples(filters)), min_hands, by_position)

    def tracker_player(self, player: str, venue: str | None = None, *, points: int = 1_000,
                       **filters: Any) -> dict[str, pl.DataFrame]:  # fmt: skip
        """One player's ``lines`` (statistics by position, and ``all``) and ``net`` (cumulative net
        won hand by hand in the order played), under the same filters as ``tracker``."""
        from analytics.tracker import PlayerFilter, net_over_time, player_lines

        con, where = self._tracker(), PlayerFilter(**_tuples(filters))
        return {
            "lines": player_lines(con, venue, player, where),
            "net": net_over_time(con, venue, player, where, points),
        }

    def tracker_choices(self) -> dict[str, list[Any]]:
        """The venues, stakes, table sizes, games and first and last day the tracker's filters pick from."""
        from analytics.tracker import choices

        return choices(self._tracker())

    def compare(self, run_a: str, run_b: str) -> dict[str, Any]:
        """``scooplab compare --format json``: two runs of one game, statistic by statistic."""
        from analytics.compare import compare_runs

        variant = self.run_variant(run_a)
        if self.run_variant(run_b) != variant:
            raise ValueError(f"runs are of different games: {variant} and {self.run_variant(run_b)}")
        return json.loads(json.dumps(compare_runs(self.data, variant, run_a, run_b), default=str))

    def described_games(self) -> list[str]:
        """Make known by name the games described in files this warehouse's runs were made from and
        the games saved in it, and return their names (a file that is gone or broken, or clashes
        with a known game, is left out)."""
        from analytics.db import connect
        from engine.rules.games import get_game

        with connect(self.data, tables=("runs",)) as runs:
            frame = runs.sql("SELECT DISTINCT unnest(sources) AS source FROM runs_raw").pl()
        names = []
        for source in sorted(s for s in frame["source"].to_list() if s and s.endswith(".toml")):
            try:
                names.append(get_game(source).name)
            except ValueError:
                continue
        return list(dict.fromkeys(names + self.saved_games()))

    def saved_games(self) -> list[str]:
        """The games saved in this warehouse's ``games/`` folder (the Workbench's), each made known by
        name at its newest version (a version that is gone or broken is left out)."""
        from scooplab.designs import known_game, saved_games

        names = []
        for name in saved_games(self.data):
            try:
                names.append(known_game(self.data, name).name)
            except ValueError:
                continue
        return names

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

    def simulation_spec(self, variant: str | GameSpec, hands: int, *, players: int = 6, seed: int = 0,
                        mode: str = "showdown", rule: dict[str, Any] | None = None, stake: int = 100,
                        policies: Iterable[str] = ("tag",), structure: str = "", big_blind: int = 0,
                        shard_size: int | None = None, ante: str = "") -> SimSpec:  # fmt: skip
        """The checked settings of the run ``simulate`` makes of these arguments (a ValueError says
        what is wrong with them), before anything is simulated."""
        from ingest.generation.simulation import DEFAULT_SHARD_SIZE, SimSpec

        game = _game(variant)
        named = game.name if _built_in(game) else game.source  # a described game: its file, for workers
        shard_size = DEFAULT_SHARD_SIZE if shard_size is None else shard_size
        return SimSpec(game=named, hands=hands, players=players, seed=seed, mode=mode,
                       options=_rules(game, rule), stake=stake, shard_size=shard_size,
                       policies=tuple(policies), structure=structure,
                       big_blind=big_blind, ante=ante).check()  # fmt: skip

    def simulate(self, variant: str, hands: int, *, players: int = 6, seed: int = 0, mode: str = "showdown",
                 rule: dict[str, Any] | None = None, stake: int = 100, policies: Iterable[str] = ("tag",),
                 structure: str = "", big_blind: int = 0, shard_size: int | None = None, ante: str = "",
                 run_id: str | None = None, workers: int = 1, executor: str = "local",
                 scheduler: str | None = None, progress: Callable[[int], None] | None = None,
                 on_phase: Callable[[str], None] | None = None,
                 ) -> dict[str, Any]:  # fmt: skip
        """``scooplab simulate --format json``: simulate (or resume) a run into the warehouse;
        ``progress(hands)`` hears of each finished shard, ``on_phase(name)`` of each step of the work
        after the run is written: ``counting players`` (``index_players``), ``counting pairs``
        (``count_pairs``)."""
        from ingest.generation.simulation import simulate

        game = _game(variant)
        spec = self.simulation_spec(game, hands, players=players, seed=seed, mode=mode, rule=rule,
                                    stake=stake, policies=policies, structure=structure,
                                    big_blind=big_blind, shard_size=shard_size, ante=ante)  # fmt: skip
        report = simulate(spec, self.data, run_id, workers, executor, scheduler, on_progress=progress)
        self._changed()
        if on_phase:
            on_phase("counting players")
        self.index_players()
        if on_phase:
            on_phase("counting pairs")
        self.count_pairs(game.name, report.run_id)
        return report.summary() | {"seed": spec.seed, "variant": game.name}

    def pushfold_chart(self, spec: SimSpec, run_id: str | None = None,
                       progress_of: ProgressOf | None = None) -> str | None:  # fmt: skip
        """What a betting-mode run's ``pushfold`` seats play, in one line (None when no seat plays
        ``pushfold``): the heads-up equilibrium at the run's stack, solved and stored first when it
        is not stored yet (``simulate`` would do it inside its first shard). A ``run_id`` already
        stored with other settings raises ValueError before anything is solved."""
        if spec.mode != "betting" or "pushfold" not in spec.policies:
            return None
        from ingest.generation.betting_sim import pushfold_chart
        from ingest.generation.simulation import check_resume

        warehouse = _warehouse(self.data)
        if run_id:
            check_resume(spec, warehouse, run_id)
        line = pushfold_chart(spec, spec.played(_game(spec.game)), warehouse, progress_of)[1]
        self._changed()
        return line

    def upgrade(self, workers: int = 1, on_run: Callable[[str], None] | None = None,
                on_failure: Callable[[str], None] | None = None) -> list[str]:  # fmt: skip
        """``scooplab upgrade``: simulate the runs an older scooplab stored (``older_runs``) again
        under their ids; the ids upgraded. ``on_run(run_id)`` hears of each before it starts, and
        ``on_failure(line)`` of each that cannot be, with the reason (the others go on)."""
        from ingest.generation.upgrade import upgrade

        upgraded = upgrade(self.data, workers, on_run=on_run, on_failure=on_failure)
        self._changed()
        return upgraded

    def older_runs(self) -> list[str]:
        """The ids of the runs stored in an older layout, which ``upgrade`` simulates again."""
        from ingest.generation.upgrade import older_runs

        return [row["run_id"] for row in older_runs(_warehouse(self.data))]

    def ingest(self, *paths: str | Path, run_id: str | None = None,
               on_reject: Callable[[str], None] | None = None, on_hand: Callable[[int], None] | None = None,
               workers: int = 1, games: tuple[str, ...] = (),
               on_file: Callable[[int], None] | None = None) -> dict[str, Any]:  # fmt: skip
        """``scooplab ingest --format json``, with ``rejected_hands``: one line per rejected hand
        (each also told to ``on_reject`` as it comes; ``on_hand`` is told how many hands were read, as
        they are, ``on_file`` how many input files);
        ``workers`` processes; ``games``: description files of games the hands may be of."""
        from ingest.histories.pipeline import ingest

        rejected: list[str] = []

        def reject(line: str) -> None:
            rejected.append(line)
            if on_reject:
                on_reject(line)

        for path in games:
            _game(path)  # known by its PHH codes from now on (and to every worker)
        report = ingest(list(paths), _warehouse(self.data), run_id=run_id, on_reject=reject, on_hand=on_hand,
                        workers=workers, games=games, on_file=on_file)  # fmt: skip
        self._changed()
        self.index_players()
        self.index_hands()
        return report.summary() | {"rejected_hands": rejected}

    def watch(self, folder: str | Path, every: float = 2.0, stopped: Callable[[], bool] = lambda: False,
              on_batch: Callable[[dict[str, Any]], None] | None = None,
              on_reject: Callable[[str], None] | None = None) -> dict[str, int]:  # fmt: skip
        """``scooplab ingest --watch``: store the hands of ``folder`` as they are written (every hand
        there first), a look every ``every`` seconds, until ``stopped()`` (asked between batches);
        ``on_batch`` is told each batch's summary and its ``files``. The totals: runs, hands,
        duplicates, rejected (``ingest.histories.watch``)."""
        from dataclasses import asdict

        from ingest.histories.watch import watch

        def batch_done(report, files: int) -> None:
            self._changed()
            if report.hands:
                self.index_players()
                self.index_hands()
            if on_batch:
                on_batch(report.summary() | {"files": files})

        totals = watch(folder, _warehouse(self.data), every, stopped, batch_done, on_reject)
        return asdict(totals)

    def index_players(self) -> list[str]:
        """Count the Players page's rows (``analytics.tracker.prepare``) of every run written since they
        were last counted: ``simulate`` and ``ingest`` do it as they finish, so that the page and
        ``tracker`` open at once. The runs counted now. A failure is one line on stderr, never an
        error: the rows are then counted when first asked for."""
        from analytics.tracker import prepare

        return _best_effort(lambda told: prepare(self.data, told), "the Players page's rows were not counted",
                            "they are counted when the page or `scooplab players` first asks")  # fmt: skip

    def count_pairs(self, variant: str, run_id: str) -> list[str]:
        """Count Compare's paired counts of a run against every run of its game that dealt the same
        cards (``analytics.compare.count_pairs``): ``simulate`` does it as it finishes, so that Compare
        opens at once. The runs paired. A failure is one line on stderr: they are counted when asked."""
        from analytics.compare import count_pairs

        def count(told: Callable[[str], None]) -> None:
            for run in count_pairs(self.data, variant, run_id):
                told(run)

        return _best_effort(count, "Compare's paired counts were not counted",
                            "they are counted when Compare first asks")  # fmt: skip

    def index_hands(self) -> list[str]:
        """Sort the ids of every replayed run written since into the hand-id index
        (``analytics.hand_index``), so that ``hand`` finds any hand at once; the runs indexed now. A
        failure is one line on stderr, never an error: the index is then made at the first look-up."""
        from analytics.hand_index import prepare

        return _best_effort(lambda told: prepare(self.data, told), "the hand-id index was not made",
                            "it is made at the first look-up of a hand")  # fmt: skip

    def hand(self, hand_id: str) -> tuple[dict | None, pl.DataFrame, pl.DataFrame]:
        """One hand by its id: its row, its players (by seat) and its actions (in order), read from its
        own file alone (``analytics.hand_index``: under a second however large the warehouse);
        ``(None, empty, empty)`` when no stored hand has this id."""
        from analytics.hand_index import lookup

        return lookup(self.data, hand_id)

    def reject_reasons(self, run_id: str, limit: int = 5) -> list[tuple[str, int]]:
        """The commonest reasons an ingest rejected hands, with how many each, commonest first."""
        from analytics.db import connect

        connection = connect(self.data, tables=None)
        try:
            return connection.sql(
                f"SELECT reason, count(*) FROM rejects WHERE run_id = $run GROUP BY 1 ORDER BY 2 DESC, 1 "
                f"LIMIT {int(limit)}",
                params={"run": run_id},
            ).fetchall()
        finally:
            connection.close()

    def stack_chain(self, run_id: str) -> tuple[int, int]:
        """Of a run's hands that follow another at their table, how many start with some player's
        stack other than the previous hand left it (the ``stack_chain`` view), and how many there are."""
        from analytics.db import connect

        connection = connect(self.data, tables=None)
        try:  # only the run's tables are chained: a filter on the window's partition, pushed below it
            tables = connection.sql(
                "SELECT DISTINCT venue || chr(0) || table_name FROM hands_raw WHERE run_id = $run "
                "AND venue IS NOT NULL AND table_name IS NOT NULL", params={"run": run_id}
            ).fetchall()  # fmt: skip
            (row,) = connection.sql(
                "SELECT count(DISTINCT hand_id) FILTER (WHERE NOT agrees), count(DISTINCT hand_id) "
                "FROM stack_chain WHERE run_id = $run "
                "AND list_contains($tables, venue || chr(0) || table_name)",
                params={"run": run_id, "tables": [t for (t,) in tables]},
            ).fetchall()
        finally:
            connection.close()
        return int(row[0]), int(row[1])

    def export(self, out: str | Path, written: str = "phh", variant: str | GameSpec | None = None,
               run: Runs = None, table: str | None = None, relative: bool = False,
               on_skipped: Callable[..., None] | None = None) -> int:  # fmt: skip
        """``scooplab export``: stored hands written for other tools (``written``: ``phh``, one game's
        hands; ``ohh``, Open Hand History of the hold'em and Omaha hands, of one game or all;
        ``duckdb``, a database of the views; ``parquet``, a copy of some runs' files; ``csv``, one
        view, ``table``, ``hands`` by default). How many were written: hands, views, files or rows
        (``on_skipped(count)``: the showdown-mode hands a PHH export leaves out; for OHH
        ``on_skipped(count, why)``, each kind of hand left out)."""
        from analytics import export

        runs = [run] if isinstance(run, str) else run
        name = _game(variant).name if variant else None
        if written == "phh":
            from ingest.histories.export import export_hands

            if name is None:
                raise ValueError("a PHH export is of one game: give its variant")
            return export_hands(_warehouse(self.data), name, out, runs=runs, on_skipped=on_skipped)
        if written == "ohh":
            from ingest.histories.export import export_ohh

            return export_ohh(_warehouse(self.data), out, name, runs=runs, on_skipped=on_skipped)
        if written == "duckdb":
            return export.export_duckdb(self.data, out, relative=relative)
        if written == "parquet":
            if not runs:
                raise ValueError("a Parquet export copies some runs: give them")
            return export.export_parquet(self.data, out, runs, name)
        if written == "csv":
            return export.export_csv(self.data, table or "hands", out, name, runs)
        raise ValueError(f"no export format {written!r}: phh, ohh, duckdb, parquet or csv")

    def odds(self, variant: str, hands: list[str], board: dict[str, str] | None = None, dead: str = "", *,
             rule: dict[str, Any] | None = None, exact: bool | None = None, samples: int | None = None,
             seed: int = 0, progress: Callable[[int, int], None] | None = None,
             max_seconds: float | None = None, on_estimate: Callable[[Estimate], None] | None = None,
             ) -> dict[str, Any]:  # fmt: skip
        """``scooplab odds --format json``: each hand's equity all in from here (needs no warehouse);
        ``progress(done, total)`` hears of each batch of runouts. ``max_seconds``: past this estimated
        time a sample of what fits, or (with ``exact`` or ``samples``) ``OverBudget``;
        ``on_estimate`` hears the work and its estimate (``engine.odds.pacing``)."""
        from engine.odds.situations import odds, situation

        game = _game(variant)
        options = game.resolve_options(_rules(game, rule))
        spot = situation(game, hands, board or {}, dead, options)
        return odds(game, spot, options, exact=exact, samples=samples, seed=seed, progress=progress,
                    max_seconds=max_seconds, on_estimate=on_estimate).as_json()  # fmt: skip

    def evaluate(self, variant: str | GameSpec, cards: list[str], rule: dict[str, Any] | None = None
                 ) -> dict[str, Any]:  # fmt: skip
        """``scooplab eval --format json``: one hand's category, description and strength (and its
        low points and low hand where the game has them). ``cards`` is one list of cards, or for a
        game whose hole cards play apart from the board (a low share, a hole-card rule) two: the
        hole cards, then the board. Needs no warehouse."""
        game = _game(variant)
        options = game.resolve_options(_rules(game, rule))
        return {"game": game.name, "cards": "".join(cards)} | _evaluation(game, cards, options)

    def rankings(self, variant: str | GameSpec, cards: int = 7, rule: dict[str, Any] | None = None
                 ) -> dict[str, Any]:  # fmt: skip
        """``scooplab rankings --format json``: how many of every ``cards``-card set of the game's deck
        make each category (its best five cards), weakest first in the game's order, and the weaker
        categories each is more common than. Needs no warehouse."""
        from math import comb

        from engine.hands.evaluate import count_ranking_categories
        from engine.hands.rankings import RANKINGS, categories_in_order

        game = _game(variant)
        options = game.resolve_options(_rules(game, rule))
        ranking = RANKINGS[game.ranking]
        places = game.category_places(options)
        tie_rule = game.tiebreak.value(options) or "highest_card"
        counts = count_ranking_categories(ranking.code, cards, tie_rule, game.deck, places)
        total = comb(game.deck.size, cards)
        if int(counts.sum()) != total:
            raise RuntimeError(f"internal error: {int(counts.sum())} sets counted, expected {total}")
        rows = []
        order = categories_in_order(places, len(ranking.categories))
        for place, category in enumerate(order):
            count = int(counts[category])
            rarer = [ranking.categories[w] for w in order[:place] if 0 < int(counts[w]) < count]
            rows.append({"category": ranking.categories[category], "rank": place, "count": count,
                         "probability": count / total, "more_common_than": rarer})  # fmt: skip
        return {"game": game.name, "cards": cards, "total": total, "categories": rows}

    def starting_hands(self, variant: str | GameSpec, players: int = 2, *, rule: dict[str, Any] | None = None,
                       samples: int | None = None, seed: int = 0, recompute: bool = False,
                       progress_of: ProgressOf | None = None) -> pa.Table:  # fmt: skip
        """``scooplab hands``: a game's starting-hand table against ``players`` - 1 random hands
        (``docs/odds.md``), the one stored for these settings, or computed and stored (always with
        ``recompute``); ``samples`` by default as many as the game needs."""
        from engine.odds.starting_hands import default_samples
        from engine.rules.hand_classes import hand_classes
        from ingest.generation.starting_hands import compute_and_store, stored

        game = _game(variant)
        options = game.resolve_options(_rules(game, rule))
        warehouse = _warehouse(self.data)
        rows = None if recompute else stored(warehouse, game, players, options, samples, seed)
        if rows is not None:
            return rows
        unit = "runouts" if hand_classes(game, options) is not None else "deals"
        with (progress_of or _no_progress)("starting hands", unit) as progress:
            rows = compute_and_store(warehouse, game, players, options,
                                     samples or default_samples(game, options), seed, progress)  # fmt: skip
        self._changed()
        return rows

    def compute_starting_hands(self, variant: str | GameSpec, players: int) -> None:
        """``scooplab hands --recompute``: compute a game's default starting-hand table and store it."""
        self.starting_hands(variant, players, recompute=True)

    def pushfold_plan(self, variant: str | GameSpec, rule: dict[str, Any] | None = None, *, buckets: int = 0,
                      samples: int | None = None, pool: int | None = None, runouts: int | None = None,
                      seed: int = 0) -> Plan:  # fmt: skip
        """How push/fold is solved (``engine.solving.pushfold_plan.Plan``): over starting-hand
        classes, ``samples`` runouts a pair of them, or over ``buckets`` of hands by equity, fixed
        by a ``pool`` of sampled hands scored on ``runouts`` runouts each. ``buckets`` 0: classes
        where the game allows, else its default number of buckets."""
        from engine.solving.pushfold_plan import Plan, no_pushfold_game
        from ingest.generation.pushfold import default_plan

        game = _game(variant)
        refusal = no_pushfold_game(game.title, game.bring_in)
        if refusal:
            raise ValueError(refusal)
        buckets = buckets or default_plan(game, _rules(game, rule)).buckets
        pool = Plan.pool if pool is None else pool
        most = min(99, pool // 10)  # a bucket holds ten pool hands at least
        if buckets and not 2 <= buckets <= most:
            raise ValueError(f"--buckets {buckets}: between 2 and {most} for a pool of {pool:,} hands")
        if buckets:
            return Plan.bucketed(buckets, pool, Plan.runouts if runouts is None else runouts, seed)
        return Plan(Plan.samples if samples is None else samples, seed)

    def pushfold(self, variant: str | GameSpec, stacks: Iterable[float], ante: float = 0.0, *,
                 rule: dict[str, Any] | None = None, plan: Plan | str | None = None,
                 progress_of: ProgressOf | None = None) -> dict[str, Any]:  # fmt: skip
        """``scooplab solve pushfold``: the heads-up push/fold equilibria at ``stacks`` (big blinds
        each, ``ante`` too), read or solved and stored, under ``plan`` (``pushfold_plan``, a stored
        plan's JSON, or the game's default): ``solutions``, per stack one row a class or bucket, and
        ``buckets``, a bucketed plan's buckets (else None)."""
        solver = self._pushfold_solver(variant, plan, rule, progress_of)
        # created_at left out: turning zoned timestamps into Python objects loads pandas (0.3 s)
        solutions = [solver.solution(float(s), ante).drop_columns(["created_at"]).to_pylist() for s in stacks]
        self._changed()
        return {"solutions": solutions, "buckets": solver.bucket_summary() if solver.plan.buckets else None}

    def solve_pushfold(self, variant: str | GameSpec, stacks: Iterable[float], plan: str | None = None,
                       progress_of: ProgressOf | None = None) -> None:  # fmt: skip
        """``scooplab solve pushfold``: solve and store a game's heads-up push/fold equilibria at
        ``stacks`` (big blinds), under a stored plan (its ``plan`` column, JSON) or the game's default."""
        solver = self._pushfold_solver(variant, plan, progress_of=progress_of)
        for stack in stacks:
            solver.solution(float(stack), 0.0)
        self._changed()

    def pushfold_buckets(self, variant: str | GameSpec, plan: str | None = None) -> list[dict[str, Any]]:
        """A bucketed game's buckets under a stored plan (JSON) or its default: share, scores, an
        example hand each."""
        return self._pushfold_solver(variant, plan).bucket_summary()

    def pushfold_comparison(self, variants: Iterable[str | GameSpec] | None = None, compute: bool = False,
                            progress_of: ProgressOf | None = None) -> dict[str, Any]:  # fmt: skip
        """``scooplab stats --equilibrium --format json``: the stored heads-up push/fold equilibria of
        some games (every built-in game by default) at 5, 10 and 15 big blinds, a row a game and
        stack (``docs/equilibrium.md``), and the ``missing`` ones; ``compute`` solves those first."""
        from analytics.equilibrium import STACKS, comparison, missing
        from engine.rules.games import GAMES
        from engine.solving.pushfold_plan import no_pushfold_game

        chosen = [variants] if isinstance(variants, str) else list(variants or [])
        games = {game.name: game for game in map(_game, chosen)} if chosen else dict(GAMES)
        for game in list(games.values()):
            refusal = no_pushfold_game(game.title, game.bring_in)
            if refusal and chosen:
                raise ValueError(refusal)
            if refusal:  # (every game that has a push/fold game)
                del games[game.name]
        names = list(games)
        rows = comparison(self.data, names)
        if compute and missing(rows, names):
            absent = missing(rows, names)
            for name in dict.fromkeys(v for v, _ in absent):
                self.solve_pushfold(games[name], [s for v, s in absent if v == name], progress_of=progress_of)
            rows = comparison(self.data, names)
        return {"stacks": list(STACKS), "rows": rows, "missing": missing(rows, names)}

    # -- inside --------------------------------------------------------------------------------
    def _pushfold_solver(self, variant: str | GameSpec, plan: Plan | str | None,
                         rule: dict[str, Any] | None = None,
                         progress_of: ProgressOf | None = None):  # fmt: skip
        from engine.solving.pushfold import Plan
        from engine.solving.pushfold_plan import no_pushfold_game
        from ingest.generation.pushfold import Solver, default_plan

        game = _game(variant)
        refusal = no_pushfold_game(game.title, game.bring_in)
        if refusal:
            raise ValueError(refusal)
        options = game.resolve_options(_rules(game, rule))
        if isinstance(plan, str):
            plan = Plan.from_fields(json.loads(plan))
        return Solver(_warehouse(self.data), game, options, plan or default_plan(game, options), progress_of)

    def _connection(self) -> duckdb.DuckDBPyConnection:
        if self._sql is None:
            from analytics.db import read_only

            self._sql = self._opened.enter_context(read_only(self.data))
        return self._sql

    def _tracker(self) -> duckdb.DuckDBPyConnection:
        """A connection to the tracker's rows (counted again only for runs that changed)."""
        if self._tracker_rows is None:
            from analytics.tracker import open_rows

            self._tracker_rows = open_rows(self.data)
            self._opened.callback(self._tracker_rows.close)
        return self._tracker_rows

    def _changed(self) -> None:
        """New files were written: later relations and frames see them (earlier ones still read
        the files they listed, until ``close``)."""
        self._sql = None
        self._frames = {}
        self._tracker_rows = None

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


def _tuples(filters: dict[str, Any]) -> dict[str, Any]:
    """Filter values as tuples (a list, or one value, given for a field of several)."""
    days = ("first_day", "last_day")
    return {
        k: v if k in days or isinstance(v, tuple) else tuple(v) if isinstance(v, list | set) else (v,)
        for k, v in filters.items()
        if v is not None
    }


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


def _no_progress(label: str, unit: str) -> AbstractContextManager[None]:
    """A ``progress_of`` that shows nothing."""
    from contextlib import nullcontext

    return nullcontext(None)


def _evaluation(game: GameSpec, cards: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """``Lab.evaluate`` of resolved options: the hand read (one card list, or hole cards and a
    board where they play apart) and evaluated under the game's ranking and rule set."""
    import numpy as np

    from engine.hands.describe import describe
    from engine.hands.rankings import RANKINGS

    game = game.under(options)  # the shares of the rule set asked for
    ranking = RANKINGS[game.ranking]
    hole_use = game.hole_use.value(options)
    if game.low_half or game.hole_use.option is not None or hole_use != "any":
        hole, board = _hole_and_board(game, cards)
    else:
        hole, board = _one_hand(game, ranking, cards), np.zeros((1, 0), np.int8)
    tiebreak = game.tiebreak.value(options)
    places = game.category_places(options)
    strength = int(ranking.evaluate(hole, board, hole_use, tiebreak, game.deck, places)[0])
    result: dict[str, Any] = {
        "category": ranking.category_name(strength),
        "description": describe(ranking, strength, tiebreak, game.deck),
        "strength": strength,
    }
    if game.tiebreak.option:
        result["tiebreak"] = tiebreak
    if game.hole_use.option:
        result[game.hole_use.option] = options[game.hole_use.option]
    if game.low_share:
        points = next(s.points for s in game.shares if s.points)
        result["low_points"] = int(sum(points[c >> 2] for c in hole[0] if c >= 0))
    if game.low_hands:
        from engine.hands.low_hands import describe_low, evaluate_low

        qualifier = next(s.qualifier for s in game.shares if s.qualifier)
        result["low"] = describe_low(int(evaluate_low(hole, board, hole_use, qualifier)[0]))
    return result


def _hole_and_board(game: GameSpec, cards: list[str]):
    """The hole cards and the board of a game whose hole cards play apart, as one row each."""
    import numpy as np

    from engine.hands.cards import parse_card_rows

    board_name = game.boards[game.community_boards[0]].name.title()
    if len(cards) == 1 and not any(s.board_cards for s in game.streets):
        cards = [*cards, ""]  # no board (stud): the hand is the hole cards
    if len(cards) != 2:
        raise ValueError(f"{game.title} takes two card lists: the remaining hole cards, then the "
                         f"{board_name} Board")  # fmt: skip
    n_hole = sum(s.hole_cards for s in game.streets)
    n_board = sum(s.board_cards for s in game.streets)
    hole = parse_card_rows(cards[:1], game.deck, width=n_hole)
    board = parse_card_rows(cards[1:], game.deck)
    if not (hole >= 0).any():
        raise ValueError(f"a {game.title} hand with no hole cards left is dead: it cannot win")
    if board.shape[1] != n_board:
        raise ValueError(f"the {game.title} {board_name} Board holds {n_board} cards at showdown, "
                         f"{cards[1]!r} has {board.shape[1]}")  # fmt: skip
    every = np.hstack([hole, board])[0]
    if len(set(every[every >= 0].tolist())) != int((every >= 0).sum()):
        raise ValueError("a card appears twice")
    return hole, board


def _one_hand(game: GameSpec, ranking, cards: list[str]):
    """The cards of a game whose hand is any five of them, as one row."""
    from engine.hands.cards import parse_cards

    every = parse_cards("".join(cards), game.deck)
    if not 5 <= len(every) <= ranking.max_cards:
        raise ValueError(f"{''.join(cards)!r} has {len(every)} cards; a {game.name} hand is evaluated "
                         f"from 5 to {ranking.max_cards} cards")  # fmt: skip
    return every[None, :]
