"""Per-variant statistics: counts, rates with 95% Wilson intervals, exact references beside them.

``game_stats(con, variant, runs)`` returns one JSON-ready dict whose keys are
documented in docs/statistics.md. A rate is always
``{"count": k, "n": n, "rate": k/n, "ci95": [lo, hi]}``, plus ``exact`` and
``z`` (the difference in standard errors) where combinatorics gives the value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from analytics.exact import cry_one_board_survives, scarney_flop, seven_card_categories, wilson, z_score
from engine.evaluate import HIGH_CATEGORIES, SKOEJARTH_CATEGORIES

QUERIES = Path(__file__).parent / "queries"
GAMES = ("holdem", "scarney", "cry-me-a-river", "skoejarth")


def query(
    con: duckdb.DuckDBPyConnection, name: str, variant: str, runs: list[str], wide: bool = True
) -> list[dict[str, Any]]:
    """Rows of a named query (``analytics/queries/<name>.sql``) as dicts.

    ``wide`` false leaves showdown-mode hands out of the queries that read them row by row.
    """
    sql = (QUERIES / f"{name}.sql").read_text()
    body = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    values = {"variant": variant, "runs": list(runs), "wide": wide}
    params = {key: value for key, value in values.items() if f"${key}" in body}
    relation = con.sql(sql, params=params)
    columns = relation.columns
    return [dict(zip(columns, row, strict=True)) for row in relation.fetchall()]


class Counts:
    """Statistic counts: showdown-mode hands from the stored summaries, the rest by SQL.

    With ``use_summaries`` false every hand is counted by SQL (slow on millions of hands;
    the tests use it to check the summaries).
    """

    def __init__(
        self, con: duckdb.DuckDBPyConnection, variant: str, runs: list[str], use_summaries: bool = True
    ):
        self.con, self.variant, self.runs, self.use_summaries = con, variant, runs, use_summaries
        self.stored: dict[tuple[str, str, str], int] = {}
        if use_summaries:
            for row in query(con, "summaries", variant, runs):
                self.stored[(row["query"], row["key"], row["column"])] = int(row["value"])

    def rows(self, name: str, key: str | None = None, sql: bool = True) -> list[dict[str, Any]]:
        """The query's rows, summed with the stored counts of the same query (by ``key`` column).

        ``sql`` false: stored counts only (statistics kept for simulated hands alone).
        """
        merged: dict[str, dict[str, Any]] = {}
        if sql:
            for row in query(self.con, name, self.variant, self.runs, wide=not self.use_summaries):
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


def _categories(counts: Counts, variant: str, all_showdown_mode: bool) -> dict[str, Any]:
    names = SKOEJARTH_CATEGORIES if variant == "skoejarth" else HIGH_CATEGORIES
    rows = {int(r["category"]): r for r in counts.rows("categories", key="category")}
    total = sum(r.get("showdown", 0) for r in rows.values())
    winners = sum(r.get("winning", 0) for r in rows.values())
    exact = None
    if all_showdown_mode and variant in ("holdem", "skoejarth"):
        exact = seven_card_categories(variant)
    showdown, winning = [], []
    for index, name in enumerate(names):
        row = rows.get(index, {})
        entry = {"category": name} | rate(row.get("showdown", 0), total, exact[index] if exact else None)
        showdown.append(entry)
        winning.append({"category": name} | rate(row.get("winning", 0), winners))
    return {"categories_showdown": showdown, "categories_winning": winning}


def game_stats(
    con: duckdb.DuckDBPyConnection, variant: str, runs: list[str] | None = None, use_summaries: bool = True
) -> dict[str, Any]:
    """Every statistic of one game over the chosen runs (all runs when none are given)."""
    if variant not in GAMES:
        raise ValueError(f"unknown game {variant!r}; choose from {', '.join(GAMES)}")
    runs = list(runs or [])
    counts = Counts(con, variant, runs, use_summaries)
    overview = {column: 0 for column in OVERVIEW_COLUMNS} | counts.one("overview")
    (pots,) = query(con, "pots", variant, runs)
    hands, showdowns = overview["hands"], overview["showdown_hands"]
    all_showdown_mode = hands > 0 and overview["showdown_mode_hands"] == hands
    quantiles = pots["pot_quantiles"] or [None] * 5
    stats: dict[str, Any] = {
        "variant": variant,
        "runs": runs or "all",
        "hands": hands,
        "showdown_hands": showdowns,
        "uncontested_hands": overview["uncontested_hands"],
        "showdown_mode_hands": overview["showdown_mode_hands"],
        "showdown_rate": rate(showdowns, hands),
        "pot": {
            "mean": pots["pot_mean"],
            "min": pots["pot_min"],
            "p10": quantiles[0],
            "p25": quantiles[1],
            "median": quantiles[2],
            "p75": quantiles[3],
            "p90": quantiles[4],
            "max": pots["pot_max"],
        },
        "scoop_rate": rate(overview["scoops"], showdowns),
        "split_rate": rate(overview["splits"], showdowns),
    }
    if hands == 0:
        return stats
    stats |= _categories(counts, variant, all_showdown_mode)
    if variant == "scarney":
        stats |= _scarney(counts, overview, all_showdown_mode)
    elif variant == "cry-me-a-river":
        stats |= _cry(counts, overview)
    elif variant == "skoejarth":
        stats |= _skoejarth(counts, stats)
    return stats


OVERVIEW_COLUMNS = (
    "hands", "showdown_hands", "uncontested_hands", "everyone_dead_hands", "scoops", "splits",
    "triple_scoops", "high_low_same", "one_board_survives", "two_boards_survive", "showdown_mode_hands",
)  # fmt: skip


def _histogram(rows: list[dict[str, Any]], key: str, column: str) -> list[dict[str, Any]]:
    total = sum(r.get(column, 0) for r in rows)
    ordered = sorted(rows, key=lambda r: int(r[key]))
    return [{key: int(r[key])} | rate(r[column], total) for r in ordered if r.get(column)]


def _scarney(counts: Counts, overview: dict[str, Any], all_showdown_mode: bool) -> dict[str, Any]:
    low = counts.rows("low_points", key="low_points")
    columns = ("seats", "flop_discards", "turn_discards", "river_discards", "dead_on_flop", "dead", "voided")
    seats = dict.fromkeys(columns, 0) | counts.one("scarney_seats")
    n = seats["seats"]
    flop_expected, dead_on_flop = scarney_flop()
    remaining = counts.rows("scarney_remaining", key="cards")
    showdowns = overview["showdown_hands"]
    per_street = {
        street: {
            "discards": int(seats[f"{street}_discards"]),
            "per_player": seats[f"{street}_discards"] / n if n else None,
        }
        for street in ("flop", "turn", "river")
    }
    if all_showdown_mode:
        per_street["flop"]["exact_per_player"] = flop_expected
    return {
        "low_points_all": _histogram(low, "low_points", "showdown"),
        "low_points_winning": _histogram(low, "low_points", "winning"),
        "remaining_hole_cards": _histogram(remaining, "cards", "seats"),
        "forced_discards": per_street,
        "dead_on_flop_rate": rate(seats["dead_on_flop"], n, dead_on_flop if all_showdown_mode else None),
        "dead_rate": rate(seats["dead"], n),
        "voided_rate": rate(seats["voided"], n),
        "high_low_same_player_rate": rate(overview["high_low_same"], showdowns),
        "high_low_different_players_rate": rate(showdowns - overview["high_low_same"], showdowns),
        "tips": _scarney_tips(counts),
    }


def _scarney_tips(counts: Counts) -> dict[str, Any]:
    """The seed's strategy tips against the data of simulated (showdown-mode) hands.

    - how often a held card of each rank is forced out ("low cards are less likely to appear
      on the Bottom Board");
    - the low half's win rate by the pairs among the six dealt cards ("avoid holding pairs");
    - the Ace's share of winning lows ("the Ace is uniquely powerful").
    """
    ranks = {r["rank"]: r for r in counts.rows("tips_rank", key="rank", sql=False)}
    pairs = counts.rows("tips_pairs", key="pairs", sql=False)
    ace = counts.one("tips_ace", sql=False)
    return {
        "forced_out_by_rank": [
            {"rank": rank} | rate(ranks[rank].get("forced", 0), ranks[rank]["held"])
            for rank in "23456789TJQKA"
            if rank in ranks
        ],
        "low_win_rate_by_pairs_held": [
            {"pairs_held": int(r["pairs"])} | rate(r.get("won_low", 0), r["n"])
            for r in sorted(pairs, key=lambda r: int(r["pairs"]))
        ],
        "ace_share_of_winning_lows": rate(ace.get("with_ace", 0), ace.get("low_winners", 0)),
    }


def _cry(counts: Counts, overview: dict[str, Any]) -> dict[str, Any]:
    showdowns = overview["showdown_hands"]
    kills = {r["rank"]: r for r in counts.rows("cry_kills", key="rank")}
    by_rank = [
        {"river_rank": rank} | rate(kills[rank].get("killed", 0), kills[rank]["boards"])
        for rank in "23456789TJQKA"
        if rank in kills
    ]
    return {
        "surviving_boards": {
            "one": rate(overview["one_board_survives"], showdowns, cry_one_board_survives()),
            "two": rate(overview["two_boards_survive"], showdowns, 1 - cry_one_board_survives()),
        },
        "kills_by_river_rank": by_rank,
        "triple_scoop_rate": rate(overview["triple_scoops"], showdowns),
    }


def _skoejarth(counts: Counts, stats: dict[str, Any]) -> dict[str, Any]:
    fan = sorted(
        counts.rows("skoejarth_fan", key="best_fan_card"), key=lambda r: "123456K".index(r["best_fan_card"])
    )
    exact = seven_card_categories("skoejarth")
    ranking = []
    for index, name in enumerate(SKOEJARTH_CATEGORIES):
        rarer_below = [SKOEJARTH_CATEGORIES[w] for w in range(index) if 0 < exact[w] < exact[index]]
        ranking.append(
            {
                "category": name,
                "exact": exact[index],
                "observed": stats["categories_showdown"][index]["rate"],
                "never_the_best_hand": exact[index] == 0,
                "more_common_than": rarer_below,
            }
        )
    return {
        "win_rate_by_best_fan_card": [
            {"best_fan_card": r["best_fan_card"]} | rate(r["won"], r["hands"]) for r in fan
        ],
        "rank_against_rarity": ranking,
    }
