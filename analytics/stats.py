"""Per-variant statistics: counts, rates with 95% Wilson intervals, exact references beside them.

``game_stats(con, variant, runs)`` returns one JSON-ready dict whose keys are
documented in docs/statistics.md. A rate is always
``{"count": k, "n": n, "rate": k/n, "ci95": [lo, hi]}``, plus ``exact`` and
``z`` (the difference in standard errors) where combinatorics gives the value.
"""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import numpy as np

from analytics.db import connect
from analytics.exact import (
    first_discards,
    kill_survivors,
    points_after_board,
    seven_card_categories,
    wilson,
    z_score,
)
from analytics.labels import labels_of
from analytics.population import ALL_IN, Population, choose, largest_first, play_of, populations
from analytics.report import flatten
from engine.hands.cards import Deck
from engine.hands.rankings import RANKINGS, categories_in_order
from engine.rules.games import GAMES
from engine.rules.games.base import GameSpec
from ingest.storage.schema import current_summary_count
from ingest.storage.warehouse import Warehouse

if TYPE_CHECKING:
    from collections.abc import Iterable

QUERIES = Path(__file__).parent / "queries"


def query(
    con: duckdb.DuckDBPyConnection,
    name: str,
    variant: str,
    runs: list[str],
    skip: list[str] | None = None,
    only: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Rows of a named query (``analytics/queries/<name>.sql``) as dicts.

    ``skip``: runs left out (counted from their summaries instead); ``only``: the runs whose
    summaries are read.
    """
    sql = (QUERIES / f"{name}.sql").read_text()
    body = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    values = {"variant": variant, "runs": list(runs), "skip": list(skip or []), "only": list(only or [])}
    params = {key: value for key, value in values.items() if f"${key}" in body}
    relation = con.sql(sql, params=params)
    columns = relation.columns
    return [dict(zip(columns, row, strict=True)) for row in relation.fetchall()]


def summarized_runs(data: str | Path, variant: str, runs: list[str]) -> list[str]:
    """Complete showdown-mode runs of a game: their statistics come from the summaries table."""
    rows = Warehouse(data).read("runs", ["run_id", "variant", "kind", "mode", "status"]).to_pylist()
    return sorted(
        {
            r["run_id"]
            for r in rows
            if r["variant"] == variant and r["kind"] == "simulation" and r["mode"] == "showdown"
            and r["status"] == "complete" and (not runs or r["run_id"] in runs)
        }
    )  # fmt: skip


class Counts:
    """Statistic counts: complete showdown-mode runs from their stored summaries, the rest by SQL."""

    def __init__(self, con: duckdb.DuckDBPyConnection, variant: str, runs: list[str], summarized: list[str],
                 by_sql: bool = True):  # fmt: skip
        """``by_sql`` false: no run outside the summarized ones can hold hands of the population."""
        self.con, self.variant, self.runs, self.summarized = con, variant, runs, summarized
        self.by_sql = by_sql and (not runs or not set(runs) <= set(summarized))  # else every count is stored
        self.stored: dict[tuple[str, str, str], int] = {}
        if summarized:
            for row in query(con, "summaries", variant, runs, only=summarized):
                where = current_summary_count(row["query"], row["key"], row["column"])
                self.stored[where] = self.stored.get(where, 0) + int(row["value"])

    def rows(self, name: str, key: str | None = None, sql: bool = True) -> list[dict[str, Any]]:
        """The query's rows, summed with the stored counts of the same query (by ``key`` column).

        ``sql`` false: stored counts only (statistics kept for simulated hands alone).
        """
        merged: dict[str, dict[str, Any]] = {}
        if sql and self.by_sql:
            for row in query(self.con, name, self.variant, self.runs, skip=self.summarized):
                label = "" if key is None else str(row[key])
                target = merged.setdefault(label, {} if key is None else {key: row[key]})
                for column, value in row.items():
                    if column != key and value is not None:
                        target[column] = target.get(column, 0) + value
        for (stored_query, label, column), value in self.stored.items():
            if stored_query != name:
                continue
            target = merged.setdefault(label, {} if key is None else {key: label})
            target[column] = target.get(column, 0) + value
        return list(merged.values())

    def one(self, name: str, sql: bool = True) -> dict[str, Any]:
        rows = self.rows(name, sql=sql)
        return rows[0] if rows else {}


def pot_distribution(histogram: dict[int, int]) -> dict[str, Any]:
    """Mean, extremes and quantiles (linear interpolation, as DuckDB's quantile_cont) of pots."""
    if not histogram:
        return dict.fromkeys(("mean", "min", "p10", "p25", "median", "p75", "p90", "max"))
    pots = sorted(histogram)
    counts = np.array([histogram[p] for p in pots], dtype=np.int64)
    values = np.array(pots, dtype=np.float64)
    ends = np.cumsum(counts)
    total = int(ends[-1])

    def nth(index: int) -> float:
        return float(values[np.searchsorted(ends, index + 1)])

    def quantile(q: float) -> float:
        position = q * (total - 1)
        low = int(np.floor(position))
        high = min(low + 1, total - 1)
        return nth(low) + (position - low) * (nth(high) - nth(low))

    return {
        "mean": float((values * counts).sum() / total),
        "min": pots[0],
        "p10": quantile(0.1),
        "p25": quantile(0.25),
        "median": quantile(0.5),
        "p75": quantile(0.75),
        "p90": quantile(0.9),
        "max": pots[-1],
    }


def pot_unit(unit: dict[str, Any]) -> str:
    """What the pot distribution counts in: chips, or 10^-d of the hands' currency (pots of hands
    in several currencies are not added up).

    >>> pot_unit({"decimals": 0, "currencies": 1, "currency": None})
    'chips'
    >>> pot_unit({"decimals": 2, "currencies": 1, "currency": "USD"})
    '0.01 USD'
    >>> pot_unit({"decimals": 2, "currencies": 2, "currency": "USD"})
    'several currencies: pots not added up'
    """
    decimals, currencies = int(unit.get("decimals") or 0), int(unit.get("currencies") or 0)
    if currencies > 1:
        return "several currencies: pots not added up"
    if not decimals and not unit.get("currency"):
        return "chips"
    step = format(Decimal(1).scaleb(-decimals), "f")
    return f"{step} {unit.get('currency') or 'money'}"


def rate(count: int, n: int, exact: float | None = None) -> dict[str, Any]:
    """A proportion with its count, 95% Wilson interval and, if known, the exact value."""
    low, high = wilson(int(count), int(n))
    result: dict[str, Any] = {
        "count": int(count),
        "n": int(n),
        "rate": count / n if n else None,
        "ci95": [low, high],
    }
    if exact is not None:
        result["exact"] = exact
        result["z"] = z_score(int(count), int(n), exact)
    return result


def clustered_rate(count: int, n: int, squares: int, by_seats: int, seats_squared: int,
                   exact: float | None = None) -> dict[str, Any]:  # fmt: skip
    """``rate`` of seats that share hands (a hand's seats share its board): the variance clustered
    by hand, from each hand's count y of the seats counted and m of all its seats,
    (sum y^2 - 2 p sum y m + p^2 sum m^2) / n^2; the Wilson interval on the effective sample size
    n / design_effect; ``z`` against the exact value with the variance at it. Without the sums
    (runs stored before they were kept): ``rate``.

    >>> r = clustered_rate(30, 100, squares=180, by_seats=300, seats_squared=1000)  # 10 hands of 10
    >>> round(r["design_effect"], 3), r["rate"]  # five hands hold six each, five hold none
    (4.286, 0.3)
    """
    if not seats_squared or not n:
        return rate(count, n, exact)
    p = count / n

    def variance(q: float) -> float:
        return max(squares - 2 * q * by_seats + q * q * seats_squared, 0) / (n * n)

    independent = p * (1 - p) / n
    effect = variance(p) / independent if independent > 0 else 1.0
    effective = n / effect if effect > 0 else float(n)
    low, high = wilson(p * effective, effective)  # type: ignore[arg-type]
    result = {"count": int(count), "n": int(n), "rate": p, "ci95": [low, high], "design_effect": effect}
    if exact is not None:
        result["exact"] = exact
        spread = variance(exact)
        result["z"] = (p - exact) / float(np.sqrt(spread)) if spread > 0 and 0 < exact < 1 else None
    return result


def exact_seven_cards(game: GameSpec, options: dict[str, Any] | None = None) -> tuple[float, ...] | None:
    """The exact category law of a showdown hand under ``options`` (default: the game's defaults),
    when every hand is the best five of a uniform 7-card set (one community board, no forced
    discards, no draws, any hole cards, 7 cards in all)."""
    options = game.resolve_options(options)
    cards = sum(s.hole_cards + s.board_cards for s in game.streets_under(options))
    if len(game.boards) != 1 or game.hole_use.value(options) != "any" or cards != 7 or game.draws:
        return None
    return seven_card_categories(
        game.ranking, game.tiebreak.value(options) or "highest_card", game.deck, game.category_places(options)
    )


def _categories(counts: Counts, game: GameSpec, options: dict[str, Any], all_showdown_mode: bool
                ) -> dict[str, Any]:  # fmt: skip
    names = RANKINGS[game.ranking].categories
    rows = {int(r["category"]): r for r in counts.rows("categories", key="category")}
    total = sum(r.get("showdown", 0) for r in rows.values())
    winners = sum(r.get("winning", 0) for r in rows.values())
    exact = exact_seven_cards(game, options) if all_showdown_mode else None
    showdown, winning = [], []
    clusters = counts.one("category_clusters")
    # runs stored before the sums were kept leave seats out: then seats count as independent
    seats_squared = clusters.get("seats_squared", 0) if clusters.get("seats") == total else 0
    for index in categories_in_order(game.category_places(options), len(names)):  # weakest first
        name, row = names[index], rows.get(index, {})
        sums = row.get("showdown", 0), total, row.get("showdown_squares", 0), row.get("showdown_by_seats", 0)
        entry = {"category": name} | clustered_rate(*sums, seats_squared, exact[index] if exact else None)
        showdown.append(entry)
        winning.append({"category": name} | rate(row.get("winning", 0), winners))
    return {"categories_showdown": showdown, "categories_winning": winning}


def game_stats(
    data: str | Path,
    variant: str,
    runs: list[str] | None = None,
    use_summaries: bool = True,
    population: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``_statistics``, with ``labels``: each statistic id's readable label and what it is out of."""
    stats = _statistics(data, variant, runs, use_summaries, population)
    stats["labels"] = labels_of(row["statistic"] for row in flatten(stats))
    return stats


def _newest_version(run_rows: list[dict[str, Any]], runs: list[str]) -> tuple[list[str], dict[str, Any]]:
    """With no runs chosen, a saved game whose runs played several versions of its description
    (docs/warehouse.md, "Saved games") is counted over the newest version's runs (and its runs of no
    saved version: replayed histories); the others are named. Returns the runs and
    ``{"shown": version, "others": [versions]}`` ({} for a game of one version)."""
    from ingest.storage.descriptions import version_of

    played = {r["run_id"]: max([version_of(s) or 0 for s in r["sources"] or []], default=0) for r in run_rows}
    numbered = sorted({v for v in played.values() if v})
    if runs or len(numbered) < 2:
        return runs, {}
    kept = [run for run, version in played.items() if version in (0, numbered[-1])]
    return kept, {"shown": numbered[-1], "others": numbered[:-1]}


def _may_hold(run: dict[str, Any], population: Population) -> bool:
    """Whether a run (a row of the runs table) can hold hands of a population: one of its mode (a
    replayed population: hand histories; a run of unknown mode: any)."""
    if run["kind"] not in ("simulation", "ingest"):
        return True
    if population.mode == "replayed":
        return run["kind"] == "ingest"
    return run["kind"] == "simulation" and run["mode"] in (population.mode, None)


def _statistics(
    data: str | Path,
    variant: str,
    runs: list[str] | None,
    use_summaries: bool,
    population: dict[str, Any] | None,
) -> dict[str, Any]:
    """Every statistic of one game over one population of the chosen runs (all runs when none).

    ``population`` may name a ``mode``, ``players``, ``structure``, rule ``options`` and betting
    mode's ``play`` (some of them); what it leaves out is the largest population that matches
    (``analytics.population``).
    Complete showdown-mode runs are counted from their stored summaries, and their files are not
    read at all; everything else by SQL over the views. With ``use_summaries`` false every hand
    is counted by SQL (slow on millions of hands; the tests check the two agree).
    """
    if variant not in GAMES:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {variant!r}; choose from {known} (or give its description file)")
    game = GAMES[variant]
    from ingest.storage.schema import run_ante, run_big_blind

    run_rows = [r for r in Warehouse(data).read("runs").to_pylist() if r["variant"] == variant]
    runs, versions = _newest_version(run_rows, list(runs or []))
    summarized = summarized_runs(data, variant, runs) if use_summaries else []
    sizes = {r["run_id"]: (r["players"], r["hands"], r["options"] or "") for r in run_rows}
    plays = {r["run_id"]: play_of(list(r["policies"] or ["tag"]), int(r["players"]), int(r["stake"]),
                                  run_big_blind(r), run_ante(r))
             for r in run_rows if r["mode"] == "betting"}  # fmt: skip
    probe = connect(data, [variant], skip_runs=summarized, tables=("hands",))
    found = populations(probe, variant, runs, {run: sizes[run] for run in summarized}, game.resolve_options(),
                        plays)  # fmt: skip
    chosen = choose(found, **(population or {}))
    listed = [p.as_dict(found[p]) for p in sorted(found, key=lambda p: largest_first(p, found))]
    if chosen is None and found:
        raise ValueError(f"no {variant} hands of that population; the game has: "
                         + "; ".join(f"{p['label']} ({p['hands']:,} hands)" for p in listed))  # fmt: skip
    chosen = chosen or Population("showdown", 0, ALL_IN)  # no hands at all
    skipped = summarized  # their files are never read; their counts come in if they are of the population
    summarized = [r for r in skipped if chosen.mode == "showdown" and sizes[r][0] == chosen.players
                  and sizes[r][2] == chosen.options]  # fmt: skip
    con = connect(data, [variant], skip_runs=skipped, population=chosen)
    read = [r for r in run_rows if r["run_id"] not in skipped and (not runs or r["run_id"] in runs)]
    counts = Counts(con, variant, runs, summarized, by_sql=any(_may_hold(r, chosen) for r in read))
    overview = {column: 0 for column in OVERVIEW_COLUMNS} | counts.one("overview")
    pot_rows = counts.rows("pots", key="pot")
    histogram = {int(r["pot"]): int(r["hands"]) for r in pot_rows if r["pot"] not in (None, "None")}
    unit = (query(con, "pot_unit", variant, runs, skip=summarized) or [{}])[0]  # not summed: a text
    run_count = sum(int(r.get("runs", 0)) for r in pot_rows if r["pot"] in (None, "None")) + len(summarized)
    hands, showdowns = overview["hands"], overview["showdown_hands"]
    all_showdown_mode = hands > 0 and overview["showdown_mode_hands"] == hands
    stats: dict[str, Any] = {
        "variant": variant,
        "runs": runs or "all",
        "description_versions": versions,
        "population": chosen.as_dict(found.get(chosen, 0)),
        "populations": listed,
        "hands": hands,
        "showdown_hands": showdowns,
        "uncontested_hands": overview["uncontested_hands"],
        "showdown_mode_hands": overview["showdown_mode_hands"],
        "showdown_rate": rate(showdowns, hands),
        "run_count": run_count,
        "pot": pot_distribution(histogram if (unit.get("currencies") or 0) <= 1 else {}),
        "pot_unit": pot_unit(unit),
        "scoop_rate": rate(overview["scoops"], showdowns),
        "split_rate": rate(overview["splits"], showdowns),
        "category_tie_rate": rate(overview["category_ties"], showdowns),
    }
    if hands == 0:
        return stats
    options = game.resolve_options(chosen.rule_options)
    game = game.under(options)  # the shares in force under the population's rule set
    stats |= _categories(counts, game, options, all_showdown_mode)
    stats["players"] = player_statistics(con, variant, runs, summarized)
    tips: dict[str, Any] = {}  # the seed's strategy tips, checked against the data
    discards = _discards(counts, game, options, all_showdown_mode) if game.discard_board is not None else {}
    for section in (discards, _low(counts, game, overview) if game.low_share else {}):
        tips |= section.pop("tips", {})
        stats |= section
    if tips:
        stats["tips"] = tips
    if game.kill is not None:
        stats |= _kills(counts, game, options, overview)
    if game.board_shares:
        stats[every_board_scoop(game)] = rate(overview["triple_scoops"], showdowns)
    if game.low_half:
        stats |= _halves(overview, showdowns, game.low_hands)
    if game.draws:
        stats["draws_by_street"] = _draws(counts, game)
        if improvement := _draw_improvement(counts, game):
            stats["draw_improvement"] = improvement
    if game.bring_in and not all_showdown_mode:  # (showdown mode posts no bring-in: everyone is all in)
        stats |= _bring_ins(counts)
    opened_by_cards = [s.name for s in game.streets[1:] if s.opener.value != "position"]
    if opened_by_cards and not all_showdown_mode:
        stats["first_to_act_won_by_street"] = _showing_order(counts, opened_by_cards)
    if exact_seven_cards(game, options) is not None:
        stats["rank_against_rarity"] = _rank_against_rarity(game, options, stats)
    if "highest_card" in RANKINGS[game.ranking].tiebreaks:  # the top card alone breaks ties
        stats |= _best_hole_card(counts, game)
    return stats


OVERVIEW_COLUMNS = (
    "hands", "showdown_hands", "uncontested_hands", "everyone_dead_hands", "scoops", "splits",
    "triple_scoops", "high_low_same", "low_paid", "low_alone", "one_board_survives", "two_boards_survive",
    "showdown_mode_hands", "category_ties",
)  # fmt: skip


def player_statistics(
    con: duckdb.DuckDBPyConnection, variant: str, runs: list[str], skip: list[str]
) -> list[dict[str, Any]]:
    """Per player (hands with betting): VPIP, PFR, 3-bet, WTSD, W$SD as rates, net and bb/100.

    The counts come from the ``player_stats`` view, summed over the chosen runs.
    """
    rows = con.sql(
        "SELECT player, sum(hands) AS hands, sum(vpip_chances), sum(vpip), sum(pfr_chances), sum(pfr), "
        "sum(three_bet) AS three_bet, sum(three_bet_chances) AS three_bet_chances, "
        "sum(saw_flop) AS saw_flop, sum(wtsd) AS wtsd, "
        "sum(wsd) AS wsd, sum(net) AS net, sum(bb_won) AS bb_won, sum(results_hands) FROM player_stats "
        "WHERE variant = $variant AND chosen_run(run_id, $runs, $skip) "
        "GROUP BY player ORDER BY hands DESC, player",
        params={"variant": variant, "runs": list(runs), "skip": list(skip)},
    ).fetchall()
    out = []
    for (
        player,
        hands,
        vpip_chances,
        vpip,
        pfr_chances,
        pfr,
        three,
        chances,
        flop,
        wtsd,
        wsd,
        net,
        bb,
        results,
    ) in rows:
        out.append(
            {
                "player": player,
                "hands": int(hands),
                "vpip": rate(int(vpip), int(vpip_chances)),
                "pfr": rate(int(pfr), int(pfr_chances)),
                "three_bet": rate(int(three), int(chances)),
                "wtsd": rate(int(wtsd), int(flop)),
                "wsd": rate(int(wsd), int(wtsd)),
                "net": _amount(net),
                "bb_per_100": 100 * float(bb) / int(results) if results else None,
            }
        )
    return out


def _amount(value: Decimal | None) -> int | str | None:
    """An exact sum of currency: a whole number as an int, else its decimal text (never a float).

    >>> _amount(Decimal("13.500000")), _amount(Decimal("-4.000000")), _amount(None)
    ('13.5', -4, None)
    """
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return format(value.normalize(), "f")


def _histogram(rows: list[dict[str, Any]], key: str, column: str) -> list[dict[str, Any]]:
    total = sum(r.get(column, 0) for r in rows)
    ordered = sorted(rows, key=lambda r: int(r[key]))
    return [{key: int(r[key])} | rate(r[column], total) for r in ordered if r.get(column)]


def _discards(counts: Counts, game: GameSpec, options: dict[str, Any], all_showdown_mode: bool
              ) -> dict[str, Any]:  # fmt: skip
    """Forced discards and dead hands: a game with a discard-trigger board."""
    columns = ("seats", "dead_on_first_street", "dead", "voided")
    seats = dict.fromkeys(columns, 0) | counts.one("discard_seats")
    n = seats["seats"]
    streets = game.streets_under(options)
    hole = sum(s.hole_cards for s in streets)
    first = next(i for i, s in enumerate(streets) if s.board_cards)
    first_expected, dead_on_first = first_discards(hole, streets[first].board_cards, len(game.deck.ranks))
    remaining = counts.rows("discard_remaining", key="cards")
    by_street = {
        int(r["street"]): int(r.get("discards", 0)) for r in counts.rows("discard_streets", key="street")
    }
    per_street = {
        street.name: {
            "discards": by_street.get(number, 0),
            "per_player": by_street.get(number, 0) / n if n else None,
        }
        for number, street in enumerate(streets)
        if number and street.board_cards
    }
    if all_showdown_mode:
        per_street[streets[first].name]["exact_per_player"] = first_expected
    ranks = {r["rank"]: r for r in counts.rows("tips_rank", key="rank", sql=False)}
    return {
        "remaining_hole_cards": _histogram(remaining, "cards", "seats"),
        "forced_discards": per_street,
        "dead_on_first_street_rate": rate(seats["dead_on_first_street"], n,
                                          dead_on_first if all_showdown_mode else None),
        "dead_rate": rate(seats["dead"], n),
        "voided_rate": rate(seats["voided"], n),
        "tips": {
            "forced_out_by_rank": [
                {"rank": rank} | rate(ranks[rank].get("forced", 0), ranks[rank]["held"])
                for rank in game.deck.ranks
                if rank in ranks
            ],
        },
    } | ({"low_points_after_full_board": _points_after_board(counts, game, options)} if game.low_share
         else {})  # fmt: skip


def _low(counts: Counts, game: GameSpec, overview: dict[str, Any]) -> dict[str, Any]:
    """Low points: a game with a low-points share."""
    low = counts.rows("low_points", key="low_points")
    pairs = counts.rows("tips_pairs", key="pairs", sql=False)
    ace = counts.one("tips_ace", sql=False)
    tips = {
        "low_win_rate_by_pairs_held": [
            {"pairs_held": int(r["pairs"])} | rate(r.get("won_low", 0), r["n"])
            for r in sorted(pairs, key=lambda r: int(r["pairs"]))
        ],
        "ace_share_of_winning_lows": rate(ace.get("with_ace", 0), ace.get("low_winners", 0)),
    }
    return {
        "low_points_all": _histogram(low, "low_points", "showdown"),
        "low_points_winning": _histogram(low, "low_points", "winning"),
        "tips": tips,
    }


def _bring_ins(counts: Counts) -> dict[str, Any]:
    """A game with a bring-in: how often it is posted, then completed, or completed at once."""
    row = dict.fromkeys(("hands", "brought_in", "completed_after", "completed_at_once"), 0)
    row |= {key: value for key, value in counts.one("bring_ins").items() if value is not None}
    return {
        "bring_in_posted_rate": rate(row["brought_in"], row["hands"]),
        "bring_in_completed_rate": rate(row["completed_after"], row["brought_in"]),
        "completed_at_once_rate": rate(row["completed_at_once"], row["hands"]),
    }


def _draws(counts: Counts, game: GameSpec) -> list[dict[str, Any]]:
    """A draw game, each draw street: the mean cards drawn a draw (95% interval over draws) and how
    often a seat stood pat (the draws are seats' draws, counted apart)."""
    found = {r["street"]: r for r in counts.rows("draws", key="street")}
    rows = []
    for street in (s.name for s in game.streets if s.draw):
        row = found.get(street)
        if not row or not row["draws"]:
            continue
        n, total, squares = int(row["draws"]), int(row["cards_drawn"]), int(row["cards_drawn_squares"])
        mean = total / n
        spread = 1.96 * math.sqrt(max(squares / n - mean * mean, 0.0) / n)
        drawn = {"mean": mean, "ci95": [mean - spread, mean + spread]}
        rows.append({"street": street, "draws": n, "cards_drawn": drawn,
                     "stand_pat_rate": rate(int(row["stood_pat"]), n)})  # fmt: skip
    return rows


def every_board_scoop(game: GameSpec) -> str:
    """The id of "one player alone best on every board": ``triple_scoop_rate`` where three boards
    take shares (Cry Me A River), ``every_board_scoop_rate`` for any other number.

    >>> from engine.rules.games import GAMES
    >>> every_board_scoop(GAMES["cry-me-a-river"])
    'triple_scoop_rate'
    """
    return "triple_scoop_rate" if len(game.community_boards) == 3 else "every_board_scoop_rate"


def _draw_improvement(counts: Counts, game: GameSpec) -> list[dict[str, Any]]:
    """A draw game of hole cards alone, showdown mode (summaries only): each draw street and number
    of cards drawn, how often the hand after the draw beat the hand before it."""
    found = {r["draw"]: r for r in counts.rows("draw_improvement", key="draw", sql=False)}
    rows = []
    for street in (s.name for s in game.streets if s.draw):
        for cards in range(1, 9):
            row = found.get(f"{street}|{cards}")
            if row and row.get("draws"):
                rows.append({"draw": f"{street}, {cards} drawn", "street": street, "cards_drawn": cards}
                            | rate(int(row.get("improved", 0)), int(row["draws"])))  # fmt: skip
    return rows


def _showing_order(counts: Counts, streets: list[str]) -> list[dict[str, Any]]:
    """Streets opened by the up cards (stud): how often the seat that acted first won chips."""
    found = {r["street"]: r for r in counts.rows("showing_order", key="street")}
    return [
        {"street": street} | rate(found[street].get("first_won", 0), found[street]["hands"])
        for street in streets
        if street in found
    ]


def _halves(overview: dict[str, int], showdowns: int, low_hands: bool) -> dict[str, Any]:
    """A game with a low half: how often one player won chips of both halves, how often high chips
    went to one player and low chips to another and, where a low hand must qualify, how often a low
    part was paid, over the hands that reached a showdown. (``low_alone``: hands whose low part was
    paid and no high part, as when a high share has a qualifier nobody reaches.)"""
    different = overview["low_paid"] - overview["high_low_same"] - overview["low_alone"]
    halves = {
        "high_low_same_player_rate": rate(overview["high_low_same"], showdowns),
        "high_low_different_players_rate": rate(different, showdowns),
    }
    return ({"low_paid_rate": rate(overview["low_paid"], showdowns)} if low_hands else {}) | halves


def _points_after_board(counts: Counts, game: GameSpec, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every dealt seat's points once the whole discard-trigger board is out (0: dead), beside the exact law.

    Counted for simulated (showdown-mode) hands, whose deals hold the whole board even when a
    hand ends early.
    """
    rows = counts.rows("low_points_full_board", key="points", sql=False)
    total = sum(r["seats"] for r in rows)
    points = next(s.points for s in game.shares if s.points)
    hole = sum(s.hole_cards for s in game.streets_under(options))
    board = sum(s.board_cards for s in game.streets_under(options))
    exact = points_after_board(points, hole, board)
    return [
        {"low_points": int(r["points"])} | rate(r["seats"], total, exact[int(r["points"])])
        for r in sorted(rows, key=lambda r: int(r["points"]))
    ]


def _kills(counts: Counts, game: GameSpec, options: dict[str, Any], overview: dict[str, Any]
           ) -> dict[str, Any]:  # fmt: skip
    """Boards killed: a game with a kill rule."""
    showdowns = overview["showdown_hands"]
    kills = {r["rank"]: r for r in counts.rows("kills", key="rank")}
    by_rank = [
        {"river_rank": rank} | rate(kills[rank].get("killed", 0), kills[rank]["boards"])
        for rank in game.deck.ranks
        if rank in kills
    ]
    exact = kill_survivors(len(game.community_boards), game.deck.size)
    sampled = killed_boards_sample(counts.con, game, counts.runs, counts.summarized, options)
    return {
        "killed_board_best_hand_of_a_loser_rate": sampled,
        "surviving_boards": {
            "one": rate(overview["one_board_survives"], showdowns, exact[1]),
            "two": rate(overview["two_boards_survive"], showdowns, exact[2] if len(exact) > 2 else None),
        },
        "kills_by_river_rank": by_rank,
    }


def _strengths(game: GameSpec, options: dict[str, Any], holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The strength of each row of hole cards with its row of board cards, under ``options`` (card ids)."""
    ranking, deck = RANKINGS[game.ranking], game.deck
    hole_use, tiebreak = game.hole_use.value(options), game.tiebreak.value(options)
    return ranking.evaluate(holes.astype(np.int8), boards.astype(np.int8), hole_use, tiebreak, deck,
                            game.category_places(options))  # fmt: skip


def load_kernels(games: Iterable[GameSpec]) -> None:
    """Load from numba's cache the compiled kernels the statistics of ``games`` evaluate hands with
    (the killed-board sample of a game with a kill rule), called as the statistics call them: a
    first page then does not wait for the load (a third of a second a kernel)."""
    for game in games:
        if game.kill is None:
            continue
        hole = sum(s.hole_cards for s in game.streets)
        cards = np.arange(hole + sum(s.board_cards for s in game.streets)).reshape(1, -1)
        _strengths(game, game.resolve_options(None), cards[:, :hole], cards[:, hole:])


def _rank_against_rarity(game: GameSpec, options: dict[str, Any], stats: dict[str, Any]
                         ) -> list[dict[str, Any]]:  # fmt: skip
    """Each category's exact 7-card chance beside what was seen, and which weaker ones are rarer."""
    names = RANKINGS[game.ranking].categories
    exact = exact_seven_cards(game, options) or ()
    order = categories_in_order(game.category_places(options), len(names))
    observed = {c["category"]: c["rate"] for c in stats["categories_showdown"]}
    return [
        {
            "category": names[index],
            "exact": exact[index],
            "observed": observed[names[index]],
            "never_the_best_hand": exact[index] == 0,
            "more_common_than": [names[w] for w in order[:place] if 0 < exact[w] < exact[index]],
        }
        for place, index in enumerate(order)
    ]


def _best_hole_card(counts: Counts, game: GameSpec) -> dict[str, Any]:
    ranks = game.deck.ranks
    rows = sorted(
        counts.rows("best_hole_card", key="best_fan_card"), key=lambda r: ranks.index(r["best_fan_card"])
    )
    return {
        "win_rate_by_best_fan_card": [
            {"best_fan_card": r["best_fan_card"]} | rate(r["won"], r["hands"]) for r in rows
        ],
    }


def card_ids(texts: list[str], deck: Deck) -> np.ndarray:
    """Card texts of equal length (``"AhKd"``) as an (N, cards) array of the deck's card ids.

    >>> from engine.hands.cards import STANDARD
    >>> card_ids(["As2c", "Kd3h"], STANDARD).tolist()
    [[51, 0], [45, 6]]
    """
    lookup = np.full(1 << 16, -1, dtype=np.int64)
    for rank_index, rank in enumerate(deck.ranks):
        for suit_index, suit in enumerate(deck.suits):
            lookup[ord(rank) << 8 | ord(suit)] = rank_index * len(deck.suits) + suit_index
    pairs = np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8).reshape(-1, 2).astype(np.int64)
    return lookup[pairs[:, 0] << 8 | pairs[:, 1]].reshape(len(texts), -1)


def killed_boards_sample(
    con: duckdb.DuckDBPyConnection,
    game: GameSpec,
    runs: list[str],
    summarized: list[str],
    options: dict[str, Any] | None = None,
    sample: int = 50_000,
) -> dict[str, Any]:
    """How often a killed board held the best hand of a player who won nothing.

    Estimated from a sample of showdown-mode hands of a game with a kill rule (their storage keeps the
    cards, not each killed board's result): each complete simulation run gives its share of
    the sample from its first hands (its hands are independent deals, so they are a uniform
    sample of it), other hands a reservoir sample; the cards are decoded and every seat
    evaluated on every killed board under ``options`` (the population's rule options). Counts
    showdown hands with a killed board whose best hand (alone or tied) belonged to a seat that
    collected no chips.
    """
    options = game.resolve_options(options)
    per_board, n_boards = sum(s.board_cards for s in game.streets), len(game.boards)
    columns = "seat_hole, boards, surviving_boards, seat_won, n_players"
    where = (
        "variant = $variant AND showdown AND seat_hole IS NOT NULL "
        "AND (len($runs) = 0 OR list_contains($runs, run_id))"
    )
    params = {"runs": list(runs), "variant": game.name}
    # summarized (complete showdown-mode) runs: their hands are independent deals, so the first
    # hands of each run are a uniform sample of it; take each run's share of the sample
    counts = con.sql(
        "SELECT run_id, hands FROM runs_raw WHERE variant = $variant AND kind = 'simulation' "
        "AND list_contains($summarized, run_id)",
        params={"summarized": list(summarized), "variant": game.name},
    ).fetchall()
    total_hands = sum(h for _, h in counts) or 1
    parts = [
        f"(SELECT {columns} FROM summarized_hands_raw WHERE {where} "
        f"AND run_id = '{run.replace(chr(39), '')}' LIMIT {max(1, round(sample * hands / total_hands))})"
        for run, hands in counts
    ]
    parts.append(
        f"(SELECT {columns} FROM hands_raw WHERE {where} USING SAMPLE {int(sample)} ROWS (reservoir, 11))"
    )
    frame = con.sql(" UNION ALL ".join(parts), params=params).pl()
    hits = total = 0
    for players in sorted(set(frame["n_players"].to_list())):
        part = frame.filter(frame["n_players"] == players)
        n = part.height
        holes = card_ids(part["seat_hole"].explode().to_list(), game.deck).reshape(n, players, -1)
        boards = card_ids(part["boards"].explode().to_list(), game.deck).reshape(n, n_boards, per_board)
        alive = np.zeros((n, n_boards), dtype=bool)
        survivors = part["surviving_boards"]
        alive[np.repeat(np.arange(n), survivors.list.len().to_numpy()), survivors.explode().to_numpy()] = True
        won = part["seat_won"].explode().to_numpy().reshape(n, players) > 0
        hit = np.zeros(n, dtype=bool)
        hole_rows = holes.reshape(n * players, -1)
        for b in game.community_boards:
            killed = ~alive[:, b]
            board_rows = np.repeat(boards[:, b, :], players, axis=0)
            strength = _strengths(game, options, hole_rows, board_rows).reshape(n, players)
            best = strength == strength.max(axis=1, keepdims=True)
            hit |= killed & (best & ~won).any(axis=1)
        hits += int(hit.sum())
        total += n
    return rate(hits, total) | {"sample_hands": total}
