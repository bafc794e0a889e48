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
import numpy as np

from analytics.exact import cry_one_board_survives, scarney_flop, seven_card_categories, wilson, z_score
from engine.evaluate import HIGH_CATEGORIES, SKOEJARTH_CATEGORIES

QUERIES = Path(__file__).parent / "queries"
GAMES = ("holdem", "scarney", "cry-me-a-river", "skoejarth")


def query(con: duckdb.DuckDBPyConnection, name: str, variant: str, runs: list[str]) -> list[dict[str, Any]]:
    """Rows of a named query (``analytics/queries/<name>.sql``) as dicts."""
    sql = (QUERIES / f"{name}.sql").read_text()
    relation = con.sql(sql, params={"variant": variant, "runs": list(runs)})
    columns = relation.columns
    return [dict(zip(columns, row, strict=True)) for row in relation.fetchall()]


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


def _categories(con, variant: str, runs: list[str], all_showdown_mode: bool) -> dict[str, Any]:
    names = SKOEJARTH_CATEGORIES if variant == "skoejarth" else HIGH_CATEGORIES
    rows = {r["category"]: r for r in query(con, "categories", variant, runs)}
    total = sum(r["showdown"] for r in rows.values())
    winners = sum(r["winning"] for r in rows.values())
    exact = None
    if all_showdown_mode and variant in ("holdem", "skoejarth"):
        exact = seven_card_categories(variant)
    showdown, winning = [], []
    for index, name in enumerate(names):
        row = rows.get(index, {"showdown": 0, "winning": 0})
        entry = {"category": name} | rate(row["showdown"], total, exact[index] if exact else None)
        showdown.append(entry)
        winning.append({"category": name} | rate(row["winning"], winners))
    return {"categories_showdown": showdown, "categories_winning": winning}


def game_stats(con: duckdb.DuckDBPyConnection, variant: str, runs: list[str] | None = None) -> dict[str, Any]:
    """Every statistic of one game over the chosen runs (all runs when none are given)."""
    if variant not in GAMES:
        raise ValueError(f"unknown game {variant!r}; choose from {', '.join(GAMES)}")
    runs = list(runs or [])
    (overview,) = query(con, "overview", variant, runs)
    hands, showdowns = overview["hands"], overview["showdown_hands"]
    all_showdown_mode = hands > 0 and overview["showdown_mode_hands"] == hands
    quantiles = overview["pot_quantiles"] or [None] * 5
    stats: dict[str, Any] = {
        "variant": variant,
        "runs": runs or "all",
        "hands": hands,
        "showdown_hands": showdowns,
        "uncontested_hands": overview["uncontested_hands"],
        "showdown_mode_hands": overview["showdown_mode_hands"],
        "showdown_rate": rate(showdowns, hands),
        "pot": {
            "mean": overview["pot_mean"],
            "min": overview["pot_min"],
            "p10": quantiles[0],
            "p25": quantiles[1],
            "median": quantiles[2],
            "p75": quantiles[3],
            "p90": quantiles[4],
            "max": overview["pot_max"],
        },
        "scoop_rate": rate(overview["scoops"], showdowns),
        "split_rate": rate(overview["splits"], showdowns),
    }
    if hands == 0:
        return stats
    stats |= _categories(con, variant, runs, all_showdown_mode)
    if variant == "scarney":
        stats |= _scarney(con, runs, overview, all_showdown_mode)
    elif variant == "cry-me-a-river":
        stats |= _cry(con, runs, overview)
    elif variant == "skoejarth":
        stats |= _skoejarth(con, runs, stats)
    return stats


def _histogram(rows: list[dict[str, Any]], key: str, column: str) -> list[dict[str, Any]]:
    total = sum(r[column] for r in rows)
    return [{key: r[key]} | rate(r[column], total) for r in rows if r[column]]


def _scarney(con, runs: list[str], overview: dict[str, Any], all_showdown_mode: bool) -> dict[str, Any]:
    low = query(con, "low_points", "scarney", runs)
    (seats,) = query(con, "scarney_seats", "scarney", runs)
    n = seats["seats"]
    flop_expected, dead_on_flop = scarney_flop()
    remaining = seats["remaining_at_showdown"] or {}
    remaining_total = sum(remaining.values())
    showdowns = overview["showdown_hands"]
    per_street = {
        street: {
            "discards": int(seats[f"{street}_discards"] or 0),
            "per_player": (seats[f"{street}_discards"] or 0) / n if n else None,
        }
        for street in ("flop", "turn", "river")
    }
    if all_showdown_mode:
        per_street["flop"]["exact_per_player"] = flop_expected
    return {
        "low_points_all": _histogram(low, "low_points", "showdown"),
        "low_points_winning": _histogram(low, "low_points", "winning"),
        "remaining_hole_cards": [
            {"cards": int(k)} | rate(v, remaining_total) for k, v in sorted(remaining.items())
        ],
        "forced_discards": per_street,
        "dead_on_flop_rate": rate(seats["dead_on_flop"], n, dead_on_flop if all_showdown_mode else None),
        "dead_rate": rate(seats["dead"], n),
        "voided_rate": rate(seats["voided"], n),
        "high_low_same_player_rate": rate(overview["high_low_same"], showdowns),
        "high_low_different_players_rate": rate(showdowns - overview["high_low_same"], showdowns),
        "tips": scarney_tips(con, runs),
    }


def _cry(con, runs: list[str], overview: dict[str, Any]) -> dict[str, Any]:
    showdowns = overview["showdown_hands"]
    kills = {r["rank"]: r for r in query(con, "cry_kills", "cry-me-a-river", runs)}
    by_rank = [
        {"river_rank": rank} | rate(kills[rank]["killed"], kills[rank]["boards"])
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


def _skoejarth(con, runs: list[str], stats: dict[str, Any]) -> dict[str, Any]:
    fan = query(con, "skoejarth_fan", "skoejarth", runs)
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


def scarney_tips(con, runs: list[str], sample: int = 200_000) -> dict[str, Any]:
    """The seed's strategy tips against the data, from a random sample of showdown-mode hands.

    - how often a held card of each rank is forced out (the seed: "low cards are less likely
      to appear on the Bottom Board");
    - the low half's win rate by the pairs held among the six dealt cards ("avoid holding pairs");
    - the Ace's share of winning lows ("the Ace is uniquely powerful").
    """
    relation = con.sql(
        "SELECT seat_hole, seat_discards, seat_winners, n_players, showdown FROM hands_raw "
        "WHERE variant = 'scarney' AND seat_discards IS NOT NULL "
        "AND (len($runs) = 0 OR list_contains($runs, run_id)) "
        f"USING SAMPLE {int(sample)} ROWS (reservoir, 7)",
        params={"runs": list(runs)},
    )
    frame = relation.pl()
    if frame.height == 0:
        return {"sample_hands": 0}
    holes = np.frombuffer("".join(frame["seat_hole"].to_list()).encode(), dtype=np.uint8)
    fates = np.frombuffer("".join(frame["seat_discards"].to_list()).encode(), dtype=np.uint8) - ord("0")
    players = frame["n_players"].to_numpy()
    if not (players == players[0]).all():
        return {"sample_hands": 0, "note": "tips need one table size per run"}
    n = int(players[0])
    order = "23456789TJQKA"
    rank_of = np.full(256, -1)
    for index, char in enumerate(order):
        rank_of[ord(char)] = index
    ranks = rank_of[holes[0::2]].reshape(frame.height, n, 6)
    gone = (fates > 0).reshape(frame.height, n, 6)
    forced = [
        {"rank": order[r]} | rate(int(gone[ranks == r].sum()), int((ranks == r).sum())) for r in range(13)
    ]
    winners = frame["seat_winners"].to_numpy()
    showdown = frame["showdown"].to_numpy()
    low_won = ((winners[:, None] >> (10 + np.arange(n))) & 1).astype(bool) & showdown[:, None]
    pairs = np.zeros((frame.height, n), dtype=np.int64)
    for r in range(13):
        pairs += (ranks == r).sum(axis=2) >= 2
    alive = ~gone.all(axis=2) & showdown[:, None]
    by_pairs = [
        {"pairs_held": k} | rate(int(low_won[(pairs == k) & alive].sum()), int(((pairs == k) & alive).sum()))
        for k in range(4)
        if ((pairs == k) & alive).any()
    ]
    kept_ace = ((ranks == 12) & ~gone).any(axis=2)
    ace_share = rate(int((low_won & kept_ace).sum()), int(low_won.sum()))
    return {
        "sample_hands": frame.height,
        "forced_out_by_rank": forced,
        "low_win_rate_by_pairs_held": by_pairs,
        "ace_share_of_winning_lows": ace_share,
    }
