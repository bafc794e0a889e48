"""Comparing runs: the paired test for runs that share deals, FDR control, warnings."""

from __future__ import annotations

import json
from dataclasses import asdict
from math import comb

import pytest
from typer.testing import CliRunner

from analytics.compare import benjamini_hochberg, compare, compare_runs, mcnemar_p, normal_p
from analytics.db import connect
from analytics.stats import game_stats
from ingest.generation.simulation import SimSpec, simulate
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("cmp"))
    # several shards: hand i of shard s pairs with hand i of shard s (hand_index restarts each shard)
    plain = SimSpec("scarney", 20_000, players=5, seed=9, shard_size=5_000)
    simulate(plain, root, run_id="plain")
    simulate(SimSpec(**(asdict(plain) | {"options": {"must_use_hole_card": True}})), root, run_id="must-use")
    simulate(SimSpec(**(asdict(plain) | {"options": {"burns": True}})), root, run_id="burns")  # other cards
    simulate(SimSpec(**(asdict(plain) | {"hands": 10_000})), root, run_id="shorter")
    simulate(SimSpec("scarney", 20_000, players=5, seed=10, options={"must_use_hole_card": True}), root,
             run_id="other-seed")  # fmt: skip
    simulate(SimSpec("scarney", 5_000, players=4, seed=9), root, run_id="four")
    return root


def test_mcnemar_is_the_exact_binomial_test_of_the_discordant_pairs():
    # 9 pairs only in A, 1 only in B: P(X <= 1 | n = 10, 1/2) = 11/1024, doubled
    assert mcnemar_p(9, 1) == pytest.approx(22 / 1024)
    assert mcnemar_p(1, 9) == mcnemar_p(9, 1) and mcnemar_p(5, 5) == 1.0 and mcnemar_p(0, 0) == 1.0
    # past 1,000 pairs the normal approximation: z = (600 - 500) / sqrt(1100)
    assert mcnemar_p(600, 500) == pytest.approx(normal_p(100 / 1100**0.5))
    exact = 2 * sum(comb(1000, k) for k in range(481)) / 2**1000  # P(X <= 480), doubled
    assert mcnemar_p(520, 480) == pytest.approx(exact)


def test_benjamini_hochberg_adjusts_in_rank_order_and_stays_monotone():
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216]
    adjusted = benjamini_hochberg(p)
    assert adjusted[0] == pytest.approx(0.01) and adjusted[1] == pytest.approx(0.04)
    assert adjusted[2:5] == pytest.approx([0.084] * 3)  # 0.042 * 10 / 5 carried down
    assert adjusted == sorted(adjusted) and adjusted[-1] == pytest.approx(0.216)


def test_runs_of_one_seed_deal_the_same_cards(runs):
    con = connect(runs, ["scarney"])
    rows = con.sql("SELECT run_id, substr(hand_id, length(run_id) + 2), seat_hole FROM hands_raw "
                   "WHERE run_id IN ('plain', 'must-use') AND hand_index < 50").fetchall()  # fmt: skip
    by_run = {run: {deal: hole for r, deal, hole in rows if r == run} for run in ("plain", "must-use")}
    assert by_run["plain"] == by_run["must-use"] and len(by_run["plain"]) == 4 * 50  # 4 shards


def test_same_seed_runs_are_compared_hand_by_hand_and_find_more(runs):
    result = compare_runs(runs, "scarney", "plain", "must-use")
    assert result["paired"] and result["warnings"] == []
    rows = {r["statistic"]: r for r in result["rows"]}
    paired = [r for r in result["rows"] if r["test"].startswith("McNemar")]
    assert "scoop_rate" in {r["statistic"] for r in paired} and len(paired) >= 10
    # the same statistics as independent samples find fewer differences (or none)
    independent = compare(game_stats(runs, "scarney", ["plain"]), game_stats(runs, "scarney", ["must-use"]))
    assert sum(r["significant"] for r in paired) > sum(
        r["significant"] for r in independent if rows[r["statistic"]]["test"].startswith("McNemar")
    )
    # discordant pairs are consistent with the two rates: (only B - only A) / n is the difference
    for name in ("scoop_rate", "categories_showdown[category=flush]", "split_rate",
                 "high_low_same_player_rate", "high_low_different_players_rate"):  # fmt: skip
        row = rows[name]  # the discordant pairs account for the difference of the two rates exactly
        assert (row["only_b"] - row["only_a"]) / row["n_a"] == pytest.approx(row["difference"])
        assert row["only_a"] + row["only_b"] <= (row["rate_a"] + row["rate_b"]) * row["n_a"] + 1e-6
    assert all(r["significant"] == (r["p_adjusted"] < 0.05) and r["p_adjusted"] >= r["p_value"]
               for r in result["rows"])  # fmt: skip


def test_one_seed_is_not_enough_the_cards_and_the_length_must_match(runs):
    burns = compare_runs(runs, "scarney", "plain", "burns")  # burn cards: the deals part ways
    assert not burns["paired"] and any("share a seed but not their cards" in w for w in burns["warnings"])
    assert not compare_runs(runs, "scarney", "plain", "shorter")["paired"]


def test_runs_of_different_seeds_are_independent_samples(runs):
    result = compare_runs(runs, "scarney", "plain", "other-seed")
    assert not result["paired"] and {r["test"] for r in result["rows"]} == {"two-proportion z"}


def test_warnings_for_another_table_size_and_for_a_run_against_itself(runs):
    assert any("table sizes 5 and 4" in w for w in compare_runs(runs, "scarney", "plain", "four")["warnings"])
    itself = compare_runs(runs, "scarney", "plain", "plain")
    assert not itself["paired"] and "compared with itself" in itself["warnings"][0]
    assert not any(r["significant"] for r in itself["rows"])


def test_a_replayed_run_against_a_simulation_is_one_warning_without_unrecorded_settings():
    from analytics.compare import warnings_for

    replayed = {"run_id": "phh", "kind": "ingest", "mode": None, "players": None, "stake": None}
    simulated = {"run_id": "s", "kind": "simulation", "mode": "showdown", "players": 4, "stake": 100}
    assert warnings_for(replayed, simulated) == [
        "the runs differ in more than a rule option: replayed hand histories and a simulation"
    ]
    assert warnings_for(simulated, simulated | {"run_id": "t", "players": None}) == []  # not recorded: unsaid


def test_compare_command_says_the_design_and_names_an_unknown_run(runs):
    result = runner.invoke(app, ["compare", "plain", "must-use", "--data", runs])
    assert result.exit_code == 0 and "paired" in result.output
    result = runner.invoke(app, ["compare", "plain", "must-use", "--data", runs, "--format", "json"])
    parsed = json.loads(result.stdout)
    assert parsed["paired"] and parsed["warnings"] == [] and len(parsed["rows"]) > 100
    result = runner.invoke(app, ["compare", "plain", "nosuch", "--data", runs])
    assert result.exit_code != 0 and "no run 'nosuch'" in result.output
    assert Warehouse(runs).read("runs").num_rows == 6


def test_paired_counts_are_stored_as_a_run_is_written_and_read_while_its_files_are_unchanged(tmp_path):
    import os
    from pathlib import Path

    import scooplab
    from analytics import pairs
    from analytics.compare import paired_counts

    with scooplab.open(tmp_path) as lab:
        lab.simulate("scarney", 4_000, players=4, seed=3, shard_size=1_000, run_id="plain")
        assert not list(Path(tmp_path, pairs.PAIRED).glob("*.json"))  # nothing to pair with yet
        lab.simulate("scarney", 4_000, players=4, seed=3, shard_size=1_000, run_id="must-use",
                     rule={"must_use_hole_card": True})  # fmt: skip
        lab.simulate("scarney", 4_000, players=4, seed=4, shard_size=1_000, run_id="other-seed")
    first, second = ("scarney", "plain"), ("scarney", "must-use")
    kept = pairs.stored(tmp_path, first, second)
    assert kept is not None and len(list(Path(tmp_path, pairs.PAIRED).glob("*.json"))) == 1
    assert pairs.stored(tmp_path, second, first) == {k: (b, a) for k, (a, b) in kept.items()}
    assert any(a or b for a, b in kept.values())  # the option changed some hands' outcomes
    for stored_file in Path(tmp_path, pairs.PAIRED).glob("*.json"):
        stored_file.unlink()
    assert paired_counts(tmp_path, first, second) == kept  # counted again from the files: the same
    assert compare_runs(tmp_path, "scarney", "plain", "must-use")["paired"]
    hands_file = next(Path(tmp_path, "hands", "variant=scarney", "run=must-use").glob("*.parquet"))
    os.utime(hands_file, ns=(0, 0))  # the run's file written again: the stored counts no longer hold
    assert pairs.stored(tmp_path, first, second) is None
