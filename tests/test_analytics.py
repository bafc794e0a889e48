"""Statistics, comparisons and the read-only SQL console over a small warehouse."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from analytics import labels
from analytics.compare import compare
from analytics.db import QueryError, connect, run_query
from analytics.exact import kill_survivors, wilson
from analytics.report import flatten
from analytics.stats import game_stats
from engine.hands.evaluate import HIGH_CATEGORIES
from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app
from tests.test_ingest import FIXTURES

runner = CliRunner()


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    root = tmp_path_factory.mktemp("wh")
    for game in ("holdem", "scarney", "cry-me-a-river", "skoejarth"):
        simulate(SimSpec(game, 30_000, players=4, seed=1), str(root), run_id=f"s-{game}")
    simulate(
        SimSpec("skoejarth", 30_000, players=4, seed=2, options={"tiebreak": "kickers"}),
        str(root),
        run_id="k",
    )
    simulate(SimSpec("holdem", 300, players=4, seed=3, mode="betting", policies=("tag", "random")), str(root),
             run_id="bet")  # fmt: skip
    ingest([FIXTURES / "phh"], Warehouse(root), run_id="phh")
    return root


def test_wilson_interval_is_right_on_known_values():
    low, high = wilson(0, 10)
    assert low == 0 and 0.27 < high < 0.28  # the rule of three's neighbourhood
    assert wilson(5, 0) == (None, None)


def test_every_rate_is_consistent(warehouse):
    for game in ("holdem", "scarney", "cry-me-a-river", "skoejarth"):
        stats = game_stats(warehouse, game, [f"s-{game}"])
        assert stats["hands"] == 30_000
        for row in flatten(stats):
            assert 0 <= row["count"] <= row["n"]
            assert row["ci95_low"] <= row["rate"] <= row["ci95_high"]
        shares = [c["rate"] for c in stats["categories_showdown"] if c["n"]]
        assert abs(sum(shares) - 1) < 1e-9


def test_exact_references_sit_within_reach(warehouse):
    cry = game_stats(warehouse, "cry-me-a-river", ["s-cry-me-a-river"])
    assert cry["surviving_boards"]["one"]["exact"] == kill_survivors(3)[1]
    assert abs(cry["surviving_boards"]["one"]["z"]) < 4
    skoejarth = game_stats(warehouse, "skoejarth", ["s-skoejarth"])
    orphan = skoejarth["categories_showdown"][0]
    assert (orphan["count"], orphan["exact"]) == (0, 0.0)
    assert all(abs(c["z"]) < 4.5 for c in skoejarth["categories_showdown"] if c.get("z") is not None)
    stairs = next(r for r in skoejarth["rank_against_rarity"] if r["category"] == "Stairs")
    assert "Fourfold" in stairs["more_common_than"]
    scarney = game_stats(warehouse, "scarney", ["s-scarney"])
    assert (
        abs(
            scarney["forced_discards"]["flop"]["per_player"]
            - scarney["forced_discards"]["flop"]["exact_per_player"]
        )
        < 0.02
    )
    held = sum(r["n"] for r in scarney["tips"]["forced_out_by_rank"])
    assert held == 30_000 * 4 * 6  # every dealt hole card of every simulated hand


@pytest.mark.parametrize("game", ["holdem", "scarney", "cry-me-a-river", "skoejarth"])
def test_stored_summaries_give_what_sql_over_every_hand_gives(warehouse, game):
    fast = game_stats(warehouse, game)
    slow = game_stats(warehouse, game, use_summaries=False)
    for summary_only in ("tips", "low_points_after_full_board", "labels"):  # kept for simulated hands alone
        fast.pop(summary_only, None)
        slow.pop(summary_only, None)
    assert fast == slow


@pytest.mark.parametrize("game", ["cry-me-a-river", "scarney"])
def test_summaries_and_sql_agree_when_a_part_is_worth_no_chip(tmp_path, game):
    """A stake of 1: three boards of a 2-chip pot, or a tied low half, leave parts of 0 or 1 chip."""
    simulate(SimSpec(game, 3_000, players=2 if game != "scarney" else 3, seed=7, stake=1), str(tmp_path))
    fast, slow = game_stats(tmp_path, game), game_stats(tmp_path, game, use_summaries=False)
    for summary_only in ("tips", "low_points_after_full_board", "labels"):  # (labels: of those too)
        fast.pop(summary_only, None)
        slow.pop(summary_only, None)
    assert fast == slow


def test_statistics_are_taken_over_one_population_the_largest_by_default(warehouse):
    stats = game_stats(warehouse, "holdem")  # showdown-mode, betting-mode and replayed hands are stored
    assert stats["population"] | {"label": None} == {"mode": "showdown", "players": 4, "structure": "all-in",
                                                     "options": {}, "changed": "", "play": "",
                                                     "hands": 30_000, "label": None}  # fmt: skip
    assert stats["hands"] == 30_000 and all("exact" in c for c in stats["categories_showdown"])
    found = stats["populations"]
    assert {p["mode"] for p in found} == {"showdown", "betting", "replayed"}
    assert sum(p["hands"] for p in found) == 30_000 + 300 + len(list((FIXTURES / "phh").rglob("*.phh")))
    betting = game_stats(warehouse, "holdem", population={"mode": "betting"})
    assert betting["hands"] == 300 and betting["population"]["structure"] == "no-limit"
    assert all("exact" not in c for c in betting["categories_showdown"])  # no exact law for betting hands
    replayed = game_stats(warehouse, "holdem", population={"mode": "replayed"})
    assert replayed["hands"] == max(p["hands"] for p in found if p["mode"] == "replayed")
    with pytest.raises(ValueError, match="no holdem hands of that population; the game has: showdown"):
        game_stats(warehouse, "holdem", population={"mode": "betting", "players": 9})


def test_hands_of_two_rule_sets_are_two_populations(warehouse):
    """Skœjarth at the default tiebreak and with kickers: same mode and table size, never blended."""
    default = game_stats(warehouse, "skoejarth")
    kickers = game_stats(warehouse, "skoejarth", population={"options": {"tiebreak": "kickers"}})
    labels = [p["label"] for p in default["populations"]]
    assert "showdown mode (all in), 4 players, tiebreak=kickers" in labels
    assert "showdown mode (all in), 4 players" in labels
    assert default["hands"] == kickers["hands"] == 30_000
    assert default["population"]["options"]["tiebreak"] == "highest_card"
    assert kickers["population"]["options"]["tiebreak"] == "kickers"
    # the same deals (seeds differ, so compare rates): kickers break more ties
    assert kickers["split_rate"]["rate"] < default["split_rate"]["rate"]
    by_sql = game_stats(warehouse, "skoejarth", use_summaries=False,
                        population={"options": {"tiebreak": "kickers"}})  # fmt: skip
    assert by_sql["split_rate"] == kickers["split_rate"]
    with pytest.raises(ValueError, match="no skoejarth hands of that population"):
        game_stats(warehouse, "skoejarth", population={"options": {"raises_per_round": 3}})


def test_compare_finds_what_the_tiebreak_option_does(warehouse):
    rows = {r["statistic"]: r for r in compare(game_stats(warehouse, "skoejarth", ["s-skoejarth"]),
                                                 game_stats(warehouse, "skoejarth", ["k"]))}  # fmt: skip
    assert rows["split_rate"]["significant"] and rows["split_rate"]["difference"] < 0
    assert not rows["categories_showdown[category=Eyes]"]["significant"]


def test_player_statistics_add_up(warehouse):
    rows = connect(warehouse).sql("SELECT * FROM player_stats WHERE run_id = 'bet'").pl().to_dicts()
    assert len(rows) == 4 and all(r["hands"] == 300 for r in rows)
    assert sum(r["net"] for r in rows) == 0
    for r in rows:
        assert r["pfr"] <= r["vpip"] <= r["vpip_chances"] <= r["hands"]
        assert r["pfr_chances"] == r["vpip_chances"]  # hold'em: both are the preflop round
        assert r["wsd"] <= r["wtsd"] <= r["hands"]
        assert r["three_bet"] <= r["three_bet_chances"]


def test_skoejarth_vpip_counts_calls_of_the_starting_bet_and_pfr_the_trunk(tmp_path):
    spec = SimSpec("skoejarth", 400, players=4, seed=5, mode="betting", policies=("random",))
    simulate(spec, str(tmp_path), run_id="sk")
    rows = {r["player"]: r for r in connect(tmp_path).sql("SELECT * FROM player_stats").pl().to_dicts()}
    assert rows["random-1"]["vpip_chances"] == 0  # seat 1 posts the starting bet and is not asked
    assert all(rows[f"random-{s}"]["vpip_chances"] == 400 for s in (2, 3, 4))  # asked to call it or fold
    assert all(0 < r["vpip"] < r["vpip_chances"] for p, r in rows.items() if p != "random-1")
    assert sum(r["pfr"] for r in rows.values()) > 0  # trunk bets and raises (the fan round has none)
    stats = game_stats(tmp_path, "skoejarth", population={"mode": "betting"})
    assert {p["player"]: p["vpip"]["n"] for p in stats["players"]}["random-1"] == 0


@pytest.mark.parametrize("name", ["courchevel", "double-board-bomb-pot-omaha"])
def test_vpip_and_the_flop_count_from_the_first_betting_round(tmp_path, name):
    """Courchevel bets first after its first board card, a bomb pot on the flop: VPIP is asked there,
    and a seat "saw the flop" when the hand went past that round."""
    spec = SimSpec(name, 300, players=3, seed=4, mode="betting", policies=("random",))
    simulate(spec, str(tmp_path), run_id="first-round")
    con = connect(tmp_path)
    rows = con.sql("SELECT * FROM player_stats").pl().to_dicts()
    assert all(0 < r["vpip"] < r["vpip_chances"] <= 300 for r in rows)
    assert all(r["saw_flop"] < r["hands"] for r in rows)  # some hands end in the first betting round
    seats = con.sql("SELECT sum(vpip_chances) AS chances FROM tracker_seats").pl().to_dicts()[0]
    assert seats["chances"] == sum(r["vpip_chances"] for r in rows)


def test_stats_command_json_and_csv(warehouse):
    result = runner.invoke(
        app, ["stats", "--variant", "scarney", "--data", str(warehouse), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert {"low_points_all", "low_points_winning", "scoop_rate", "dead_rate"} <= set(stats)
    flat = [row["statistic"] for row in flatten(stats)]
    assert set(stats["labels"]) == set(flat)  # a label beside every id
    unlabelled = [s for s in flat if not labels.known(s)]
    assert not unlabelled and stats["labels"]["dead_rate"]["out_of"] == "seats dealt"
    csv = runner.invoke(app, ["stats", "--variant", "scarney", "--data", str(warehouse), "--format", "csv"])
    assert csv.stdout.splitlines()[0] == "statistic,label,out_of,count,n,rate,ci95_low,ci95_high,exact,z"
    assert "scoop_rate,Scoops: one player took every chip,showdown hands," in csv.stdout


def test_stats_on_an_empty_warehouse_says_what_to_do(tmp_path):
    result = runner.invoke(app, ["stats", "--variant", "holdem", "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert "scooplab simulate --variant holdem" in result.stderr


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("CREATE TABLE x AS SELECT 1", "not CREATE statements"),
        ("CREATE TEMP TABLE x AS SELECT 1", "not CREATE statements"),
        ("INSERT INTO hands_raw SELECT * FROM hands_raw", "not INSERT statements"),
        ("ATTACH '/tmp/other.duckdb' AS other", "not ATTACH statements"),
        ("COPY (SELECT 1) TO '/tmp/out.csv'", "not COPY statements"),
        ("SELECT * FROM read_csv('/etc/passwd')", "file system operations are disabled"),
        ("SELECT * FROM read_parquet('/tmp/**/*.parquet')", "file system operations are disabled"),
        ("SET enable_external_access = true", "not SET statements"),
        ("SELECT 1; SELECT 2", "one query at a time"),
        ("SELECT nonsense FROM hands", "Referenced column"),
    ],
)
def test_query_refuses_writes_attach_copy_and_outside_files(warehouse, sql, message):
    with pytest.raises(QueryError, match=message):
        run_query(warehouse, sql)
    result = runner.invoke(app, ["query", sql, "--data", str(warehouse)])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_query_cannot_write_into_the_warehouse(warehouse):
    target = next(warehouse.rglob("shard-00000.parquet"))
    before = target.read_bytes()
    with pytest.raises(QueryError, match="not COPY statements"):
        run_query(warehouse, f"COPY (SELECT 42 AS x) TO '{target}' (FORMAT parquet)")
    with pytest.raises(QueryError, match="not COPY statements"):
        run_query(warehouse, f"COPY (SELECT 42 AS x) TO '{target.parent}/extra.parquet' (FORMAT parquet)")
    assert target.read_bytes() == before
    assert not (target.parent / "extra.parquet").exists()


def test_query_reads_the_views(warehouse):
    table = run_query(
        warehouse, "SELECT variant, count(*) AS n FROM players WHERE showdown GROUP BY 1 ORDER BY 1"
    )
    assert table.column("variant").to_pylist() == ["cry-me-a-river", "holdem", "scarney", "skoejarth"]
    result = runner.invoke(
        app, ["query", "SELECT count(*) AS n FROM hands", "--data", str(warehouse), "--format", "json"]
    )
    assert json.loads(result.stdout)[0]["n"] > 120_000


def test_killed_board_statistic_matches_a_direct_count(tmp_path):
    import numpy as np

    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from engine.hands.evaluate import evaluate_high
    from engine.rules.games import GAMES

    spec = SimSpec("cry-me-a-river", 3_000, players=3, seed=8, shard_size=3_000)
    simulate(spec, str(tmp_path), run_id="c")
    measured = game_stats(tmp_path, "cry-me-a-river")["killed_board_best_hand_of_a_loser_rate"]
    game = GAMES["cry-me-a-river"]
    batch = simulate_chunk(
        game, 3, 100, {}, random_words(spec.check().generator(0), 3_000, words_per_hand(game, 3, {}))
    )
    hits = 0
    for h in range(len(batch)):
        losers = batch.won[h] == 0
        for b in np.flatnonzero(~batch.extra["survivors"][h]):
            rows = np.hstack([batch.hole[h], np.tile(batch.boards[h, b], (3, 1))]).astype(np.int8)
            strength = evaluate_high(rows)
            if (losers & (strength == strength.max())).any():
                hits += 1
                break
    assert (measured["count"], measured["n"]) == (hits, 3_000)


def test_stats_carry_player_statistics_as_rates(warehouse):
    stats = game_stats(warehouse, "holdem", ["bet"])
    players = {p["player"]: p for p in stats["players"]}
    assert len(players) == 4 and all(p["hands"] == 300 for p in players.values())
    assert sum(p["net"] for p in players.values()) == 0
    for player in players.values():
        assert 0 <= player["pfr"]["rate"] <= player["vpip"]["rate"] <= 1
    names = {row["statistic"] for row in flatten(stats)}
    assert any(name.startswith("players[player=") and name.endswith(".vpip") for name in names)


def test_summaries_stored_under_the_old_query_names_are_still_read(tmp_path):
    import pyarrow.parquet as pq

    from ingest.generation.simulation import SimSpec, simulate

    simulate(SimSpec("scarney", 3_000, players=4, seed=8), str(tmp_path), run_id="s")
    new = game_stats(tmp_path, "scarney")
    old_names = {"discard_seats": "scarney_seats", "discard_remaining": "scarney_remaining"}
    old_streets = {"1": "flop_discards", "2": "turn_discards", "3": "river_discards"}
    for path in tmp_path.rglob("summaries/**/*.parquet"):  # as earlier versions wrote them
        table = pq.read_table(path)
        rows = table.to_pylist()
        for row in rows:
            if row["query"] == "discard_streets":  # per street, before any number of streets was counted
                row["query"], row["column"], row["key"] = "discard_seats", old_streets[row["key"]], ""
            if row["column"] == "dead_on_first_street":
                row["column"] = "dead_on_flop"
            row["query"] = old_names.get(row["query"], row["query"])
        assert {r["query"] for r in rows} >= set(old_names.values())
        assert {r["column"] for r in rows} >= set(old_streets.values())  # (counts of 0 are not stored)
        pq.write_table(table.from_pylist(rows, schema=table.schema), path)
    assert game_stats(tmp_path, "scarney") == new


def test_hands_that_stored_no_rule_options_are_a_population_of_their_own():
    from analytics.population import Population, choose

    unknown = Population("replayed", 6, "no-limit", "", "rule options unknown")
    known = Population("replayed", 6, "no-limit", '{"burns": false}', "")
    assert (
        unknown.hands_filter.endswith("AND options IS NULL") and "options IS NULL" not in known.hands_filter
    )
    assert unknown.label == "replayed hands, no-limit, 6 players, rule options unknown"
    found = {unknown: 10, known: 5}
    assert choose(found) == unknown and choose(found, options={"burns": False}) == known
    assert choose(found, label=known.label) == known and choose(found, label="nothing") is None


def test_category_rates_carry_the_variance_of_seats_that_share_a_board(tmp_path):
    """Six seats of a hand share its board, so their categories are not independent draws: the
    design effect (variance clustered by hand over the independent one) matches a count from the
    stored rows, and the interval widens by its square root."""
    import duckdb

    simulate(SimSpec("holdem", 20_000, players=6, seed=9), str(tmp_path), run_id="c")
    stats = game_stats(tmp_path, "holdem")
    files = f"{tmp_path}/hands/**/*.parquet"
    column = duckdb.sql(f"SELECT seat_strength FROM read_parquet('{files}')").pl()["seat_strength"]
    strengths = np.array(column.to_list())
    categories = (strengths >> 20) & 15
    for row in stats["categories_showdown"]:
        index = HIGH_CATEGORIES.index(row["category"])
        per_hand = (categories == index).sum(axis=1)
        p = per_hand.sum() / categories.size
        expected = per_hand.var() * len(per_hand) / (categories.size * p * (1 - p))
        assert row["design_effect"] == pytest.approx(expected, rel=1e-9)
        width = row["ci95"][1] - row["ci95"][0]
        assert width == pytest.approx(2 * 1.96 * np.sqrt(expected * p * (1 - p) / categories.size), rel=0.02)
    assert max(r["design_effect"] for r in stats["categories_showdown"]) > 1.5  # the board is shared


def test_runs_stored_without_the_clustered_sums_get_the_independent_interval(tmp_path):
    import duckdb
    import pyarrow.parquet as pq

    simulate(SimSpec("holdem", 3_000, players=6, seed=9), str(tmp_path), run_id="new")
    simulate(SimSpec("holdem", 3_000, players=6, seed=10), str(tmp_path), run_id="old")
    assert all("design_effect" in c for c in game_stats(tmp_path, "holdem")["categories_showdown"])
    for path in (tmp_path / "summaries").rglob("*old*/*.parquet"):  # as an older scooplab stored it
        kept = duckdb.sql(f"SELECT * FROM read_parquet('{path}') WHERE query <> 'category_clusters'").arrow()
        pq.write_table(kept.read_all() if hasattr(kept, "read_all") else kept, path)
    mixed = game_stats(tmp_path, "holdem")["categories_showdown"]
    assert mixed[0]["n"] == 36_000 and all("design_effect" not in c for c in mixed)
