"""Two runs compared statistic by statistic, with the test that fits how they were drawn.

Runs simulated with the same seed and shard size deal the same cards (hand i of one is hand i
of the other), so their samples are paired: hand-level rates and the showdown categories are
tested with McNemar's test on the discordant pairs, which sees differences an independent test
hides. Every other rate, and every rate of runs that share no deals, gets the two-proportion z
test (for paired runs it is conservative: shared deals make the two rates move together).
Across the ~200 statistics the false-discovery rate is held at 5% (Benjamini-Hochberg): each
row has its raw and adjusted p-value, and ``significant`` means adjusted p below 0.05.

>>> round(mcnemar_p(30, 10), 5)
0.00222
>>> [round(p, 4) for p in benjamini_hochberg([0.01, 0.04, 0.03, 0.5])]
[0.04, 0.0533, 0.0533, 0.5]
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb, erfc, sqrt
from pathlib import Path
from typing import Any

from analytics import pairs
from analytics.labels import label
from analytics.report import flatten
from engine.hands.rankings import RANKINGS
from engine.rules.games import GAMES

QUERIES = Path(__file__).parent / "queries"
ALPHA = 0.05
# hand-level rates: (statistic in game_stats, column prefix in paired_hands.sql, is the complement)
PAIRED_HAND_RATES = (
    ("showdown_rate", "showdown", False),
    ("scoop_rate", "scoop", False),
    ("split_rate", "split", False),
    ("category_tie_rate", "category_tie", False),
    ("triple_scoop_rate", "triple_scoop", False),
    ("every_board_scoop_rate", "triple_scoop", False),  # (other than three boards: stats.every_board_scoop)
    ("high_low_same_player_rate", "high_low_same", False),
    ("high_low_different_players_rate", "high_low_different", False),
    ("surviving_boards.one", "one_board", False),
    ("surviving_boards.two", "one_board", True),  # one board or two: the complement
)
# what must match for two runs to deal the same cards (showdown mode: one PCG64 per shard), before
# the dealt cards themselves are compared (an option may change how many random numbers a hand uses)
DEAL_SETTINGS = ("kind", "seed", "shard_size", "players", "mode", "hands")
DEALS_CHECKED = 200  # hands of each shard whose hole cards must be equal in both runs


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return erfc(abs(z) / sqrt(2))


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's test on the discordant pairs: exact binomial up to 1,000 of them, else normal."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    if n > 1_000:
        return normal_p((only_a - only_b) / sqrt(n))
    tail = sum(comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = running
    return adjusted


def _two_proportion(row_a: dict[str, Any], row_b: dict[str, Any]) -> float:
    pooled = (row_a["count"] + row_b["count"]) / (row_a["n"] + row_b["n"])
    se = sqrt(pooled * (1 - pooled) * (1 / row_a["n"] + 1 / row_b["n"]))
    if se == 0:
        return 1.0
    return normal_p((row_b["rate"] - row_a["rate"]) / se)


def compare(a: dict[str, Any], b: dict[str, Any], discordant: dict[str, tuple[int, int]] | None = None
            ) -> list[dict[str, Any]]:  # fmt: skip
    """Each rate of two statistics dicts side by side, tested, with BH-adjusted p-values.

    ``discordant`` maps a statistic to its paired counts (only in A, only in B), for runs that
    dealt the same cards; the other statistics are tested as independent samples.
    """
    discordant = discordant or {}
    rows_b = {row["statistic"]: row for row in flatten(b)}
    out = []
    for row_a in flatten(a):
        row_b = rows_b.get(row_a["statistic"])
        if row_b is None or not row_a["n"] or not row_b["n"]:
            continue
        pair = discordant.get(row_a["statistic"])
        row = {
            "statistic": row_a["statistic"],
            "label": label(row_a["statistic"]),
            "rate_a": row_a["rate"],
            "n_a": row_a["n"],
            "rate_b": row_b["rate"],
            "n_b": row_b["n"],
            "difference": row_b["rate"] - row_a["rate"],
            "test": "McNemar (paired)" if pair else "two-proportion z",
            "only_a": pair[0] if pair else None,
            "only_b": pair[1] if pair else None,
            "p_value": mcnemar_p(*pair) if pair else _two_proportion(row_a, row_b),
        }
        out.append(row)
    for row, adjusted in zip(out, benjamini_hochberg([r["p_value"] for r in out]), strict=True):
        row["p_adjusted"] = adjusted
        row["significant"] = adjusted < ALPHA
    return out


def _paired_query(con, name: str, first: tuple[str, str], second: tuple[str, str]) -> list[dict[str, Any]]:
    params = {"variant_a": first[0], "run_a": first[1], "variant_b": second[0], "run_b": second[1]}
    relation = con.sql((QUERIES / f"{name}.sql").read_text(), params=params)
    return [dict(zip(relation.columns, row, strict=True)) for row in relation.fetchall()]


def _dealt_alike(con, run_a: str, run_b: str) -> bool:
    """Whether the first hands of every shard got the same hole cards in both runs."""
    different = con.sql(
        "SELECT count(*) FROM (SELECT hand_id, run_id, seat_hole FROM hands_raw WHERE hand_index < $k) AS a "
        "JOIN (SELECT hand_id, run_id, seat_hole FROM hands_raw WHERE hand_index < $k) AS b "
        "ON substr(a.hand_id, length(a.run_id) + 2) = substr(b.hand_id, length(b.run_id) + 2) "
        "WHERE a.run_id = $a AND b.run_id = $b AND a.seat_hole IS DISTINCT FROM b.seat_hole",
        params={"k": DEALS_CHECKED, "a": run_a, "b": run_b},
    ).fetchall()[0][0]
    return different == 0


def discordant_pairs(con, variant: str, run_a: str, run_b: str, variant_b: str | None = None
                     ) -> dict[str, tuple[int, int]]:  # fmt: skip
    """Paired counts (only in A, only in B) of every statistic that can be tested hand by hand (run B
    of ``variant_b``, a game that deals alike, if given: the categories when the rankings agree)."""
    first, second = (variant, run_a), (variant_b or variant, run_b)
    hands = _paired_query(con, "paired_hands", first, second)[0]
    out: dict[str, tuple[int, int]] = {}
    for statistic, column, complement in PAIRED_HAND_RATES:
        only_a, only_b = int(hands[f"{column}_a"] or 0), int(hands[f"{column}_b"] or 0)
        out[statistic] = (only_b, only_a) if complement else (only_a, only_b)
    names = RANKINGS[GAMES[variant].ranking].categories
    if RANKINGS[GAMES[second[0]].ranking].categories != names:
        return out
    seats = _paired_query(con, "paired_categories", first, second)
    for index, name in enumerate(names):
        only_a = sum(r["seats"] for r in seats if r["category_a"] == index and r["category_b"] != index)
        only_b = sum(r["seats"] for r in seats if r["category_b"] == index and r["category_a"] != index)
        out[f"categories_showdown[category={name}]"] = (only_a, only_b)
    return out


def paired_counts(data: str | Path, first: tuple[str, str], second: tuple[str, str]
                  ) -> dict[str, tuple[int, int]] | None:  # fmt: skip
    """The paired counts of two runs (game, run id) that deal alike by their settings: stored ones
    (``analytics.pairs``), else counted from the two runs' files and stored; None when their first
    hands of a shard got different cards after all (an option changes how cards are drawn)."""
    from analytics.db import connect

    def count() -> dict[str, tuple[int, int]] | None:
        paths = [f"/variant={variant}/run={run}/" for variant, run in (first, second)]
        con = connect(data, sorted({first[0], second[0]}), only_paths=paths)
        try:
            if not _dealt_alike(con, first[1], second[1]):
                return None
            return discordant_pairs(con, first[0], first[1], second[1], second[0])
        finally:
            con.close()

    return pairs.counted(data, first, second, count)


def count_pairs(data: str | Path, variant: str, run_id: str) -> list[str]:
    """Count and store the paired counts of a run just written against every run of its game that
    deals like it (``simulate`` calls it as a run ends), so that Compare reads them; the runs paired."""
    from ingest.storage.warehouse import Warehouse

    warehouse = Warehouse(data)
    if not warehouse.local:  # nothing is stored there: Compare counts them when asked
        return []
    runs = [r for r in warehouse.read("runs").to_pylist() if r["variant"] == variant]
    new = next((r for r in runs if r["run_id"] == run_id), None)
    paired = []
    for other in runs if new is not None else ():
        if same_deals(other, new) and paired_counts(data, (variant, other["run_id"]), (variant, run_id)):
            paired.append(other["run_id"])
    return paired


def _settings(run: dict[str, Any]) -> dict[str, Any]:
    from ingest.storage.schema import run_ante, run_big_blind, run_structure

    betting = run.get("mode") == "betting"
    big_blind, ante = (run_big_blind(run), run_ante(run) or "the game's own") if betting else (None, None)
    return run | {"structure": run_structure(run), "big_blind": big_blind, "ante": ante}


KIND_NAMES = {"ingest": "replayed hand histories", "simulation": "a simulation"}


def warnings_for(run_a: dict[str, Any], run_b: dict[str, Any]) -> list[str]:
    """What makes the comparison mean less than a user may think (runs rows of the runs table)."""
    if run_a["run_id"] == run_b["run_id"]:
        return [f"run {run_a['run_id']} is compared with itself: every difference is 0"]
    a, b = _settings(run_a), _settings(run_b)
    if a.get("kind") != b.get("kind"):  # one replays hand histories: its settings are not recorded
        kinds = " and ".join(KIND_NAMES.get(run.get("kind"), str(run.get("kind"))) for run in (a, b))
        return [f"the runs differ in more than a rule option: {kinds}"]
    out = []
    for key, what in (("mode", "modes"), ("players", "table sizes"), ("structure", "betting structures"),
                      ("stake", "stakes"), ("big_blind", "big blinds"), ("ante", "antes")):  # fmt: skip
        if key == "structure" and a.get("mode") != b.get("mode"):
            continue  # said already: showdown mode is all in
        if a.get(key) != b.get(key) and None not in (a.get(key), b.get(key)):
            out.append(f"the runs differ in more than a rule option: {what} {a.get(key)} and {b.get(key)}")
    return out


def same_deals(run_a: dict[str, Any], run_b: dict[str, Any]) -> bool:
    """Whether two runs dealt the same cards: showdown-mode runs of one seed, shard size and table.

    (Betting runs of one seed part ways at the first decision their policies make differently.)
    """
    return (
        run_a["run_id"] != run_b["run_id"]
        and run_a.get("kind") == "simulation"
        and run_a.get("mode") == "showdown"
        and all(run_a.get(key) == run_b.get(key) for key in DEAL_SETTINGS)
    )


def paired_runs(runs: list[dict[str, Any]]) -> tuple[str, str] | None:
    """The first two runs (runs-table rows, newest first) that dealt the same cards, if any."""
    for i, a in enumerate(runs):
        for b in runs[i + 1 :]:
            if same_deals(a, b):
                return b["run_id"], a["run_id"]
    return None


def compare_runs(data: str | Path, variant: str, run_a: str, run_b: str,
                 stats_of: Callable[[str], dict[str, Any]] | None = None) -> dict[str, Any]:  # fmt: skip
    """Two runs of one game compared: ``{"variant", "paired", "warnings", "rows"}``.

    ``stats_of(run_id)`` gives a run's statistics (default ``game_stats``; the dashboard passes
    its cached ones). Raises ValueError naming a run the warehouse does not have.
    """
    from analytics.stats import game_stats
    from ingest.storage.warehouse import Warehouse

    runs = {r["run_id"]: r for r in Warehouse(data).read("runs").to_pylist() if r["variant"] == variant}
    for run_id in (run_a, run_b):
        if run_id not in runs:
            raise ValueError(f"no {variant} run {run_id!r} in {data}")
    paired = same_deals(runs[run_a], runs[run_b])
    discordant = None
    warnings = warnings_for(runs[run_a], runs[run_b])
    if paired:  # stored as the later run was written (analytics.pairs), else read from the two runs' files
        discordant = paired_counts(data, (variant, run_a), (variant, run_b))
        paired = discordant is not None
        if not paired:
            warnings.append("the runs share a seed but not their cards (a rule option changes how they "
                            "are drawn): compared as independent samples")  # fmt: skip
    stats_of = stats_of or (lambda run: game_stats(data, variant, [run]))
    a, b = stats_of(run_a), stats_of(run_b)
    kind = ("mode", "players", "structure", "play")  # the rule sets may differ: that is what is compared
    if [a["population"][k] for k in kind] != [b["population"][k] for k in kind] and run_a != run_b:
        warnings.append(f"the runs' hands are of different populations: {a['population']['label']} "
                        f"and {b['population']['label']}")  # fmt: skip
    return {"variant": variant, "paired": paired, "warnings": warnings, "rows": compare(a, b, discordant)}


def compare_games(
    data: str | Path,
    first: tuple[str, str],
    second: tuple[str, str],
    stats_of: Callable[[str, str], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A run of one game against a run of another (a game against the one it was derived from):
    ``first`` and ``second`` are (game, run). When the two dealt the same cards (showdown-mode runs
    of one seed whose first hands of every shard got the same hole cards: a derived game that
    changes what wins, not what is dealt) the hand-level rates are tested hand by hand, as
    ``compare_runs`` does; otherwise every statistic both have as independent samples. The rows
    come most significant first (adjusted p-value, then the size of the difference).
    ``stats_of(game, run)`` gives a run's statistics."""
    from analytics.stats import game_stats
    from ingest.storage.warehouse import Warehouse

    runs = {(r["variant"], r["run_id"]): r for r in Warehouse(data).read("runs").to_pylist()}
    for variant, run_id in (first, second):
        if (variant, run_id) not in runs:
            raise ValueError(f"no {variant} run {run_id!r} in {data}")
    stats_of = stats_of or (lambda variant, run: game_stats(data, variant, [run]))
    a, b = stats_of(*first), stats_of(*second)
    warnings = [w for w in warnings_for(runs[first], runs[second]) if "itself" not in w]
    discordant = None
    if same_deals(runs[first] | {"run_id": "a"}, runs[second] | {"run_id": "b"}) and first[1] != second[1]:
        discordant = paired_counts(data, first, second)
    if a["population"]["label"] != b["population"]["label"]:
        warnings.append(f"the runs' hands are of different populations: {a['population']['label']} "
                        f"and {b['population']['label']}")  # fmt: skip
    rows = sorted(compare(a, b, discordant), key=lambda r: (r["p_adjusted"], -abs(r["difference"])))
    return {
        "games": [first[0], second[0]],
        "paired": discordant is not None,
        "warnings": warnings,
        "rows": rows,
    }
