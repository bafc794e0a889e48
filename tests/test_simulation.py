"""Simulation runs: reproducible on any executor, resumable after kill -9, betting mode, bad options."""

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pyarrow.compute as pc
import pytest
from typer.testing import CliRunner

from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.export import export_hands
from ingest.histories.phh import iter_hands
from ingest.histories.replay import replay
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app
from tests.patience import wait_until


def shard_bytes(root: Path) -> dict[str, bytes]:
    """Every data file of a warehouse by its path below the root (runs manifests left out, and the
    Players page's derived rows, which the command makes as a run finishes)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*.parquet"))
        if p.relative_to(root).parts[0] not in ("runs", "derived")
    }


@pytest.mark.parametrize(("game", "mode"), [("scarney", "showdown"), ("cry-me-a-river", "showdown"),
                                           ("skoejarth", "betting")])  # fmt: skip
def test_same_seed_same_bytes_on_one_or_two_workers_and_dask(tmp_path, game, mode):
    policies = ("tag", "random", "station")
    spec = SimSpec(game, 6_000, players=4, seed=42, shard_size=1_500, mode=mode, policies=policies)
    simulate(spec, str(tmp_path / "one"), run_id="r", workers=1)
    simulate(spec, str(tmp_path / "two"), run_id="r", workers=2)
    one, two = shard_bytes(tmp_path / "one"), shard_bytes(tmp_path / "two")
    # four shards: hands and summaries (showdown mode), or hands, players and actions (betting)
    assert len(one) == (8 if mode == "showdown" else 12) and one == two
    if game == "scarney":
        simulate(spec, str(tmp_path / "dask"), run_id="r", workers=2, executor="dask")
        assert shard_bytes(tmp_path / "dask") == one
    other = SimSpec(game, 6_000, players=4, seed=43, shard_size=1_500, mode=mode, policies=policies)
    simulate(other, str(tmp_path / "other"), run_id="r", workers=1)
    assert shard_bytes(tmp_path / "other") != one


def test_runs_record_the_settings(tmp_path):
    spec = SimSpec("skoejarth", 3_000, players=3, seed=5, shard_size=1_000, options={"tiebreak": "kickers"})
    simulate(spec, str(tmp_path), run_id="k")
    (run,) = Warehouse(tmp_path).read("runs").to_pylist()
    assert run["status"] == "complete" and run["shard_status"] == ["done"] * 3
    assert (run["seed"], run["players"], run["mode"], run["bit_generator"]) == ("5", 3, "showdown", "PCG64")
    assert json.loads(run["options"]) == {"raises_per_round": 1, "tiebreak": "kickers"}
    assert run["numpy_version"] and run["scooplab_version"]
    hands = Warehouse(tmp_path).read("hands")
    assert hands.num_rows == 3_000
    assert len(set(hands.column("hand_id").to_pylist())) == 3_000
    assert pc.all(pc.equal(hands.column("source"), "simulation")).as_py()


def test_a_run_killed_midway_resumes_to_the_same_rows(tmp_path):
    args = ["-m", "scooplab.cli", "simulate", "--variant", "holdem", "--hands", "600000", "--seed", "9",
            "--shard-size", "20000", "--workers", "1", "--run-id", "k9"]  # fmt: skip
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, *args, "--data", str(killed)], stderr=subprocess.DEVNULL)
    hands_folder = killed / "hands" / "variant=holdem" / "run=k9"
    # killed once 3 of 30 shards are written: 27 shards (~1.3 s here) are left, hundreds of polls
    wait_until(lambda: len(list(hands_folder.glob("shard-*.parquet"))) >= 3,
               unless=lambda: process.poll() is not None)  # fmt: skip
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(list(hands_folder.glob("shard-*.parquet")))
    assert 3 <= done_before < 30
    result = subprocess.run([sys.executable, *args, "--data", str(killed), "--format", "json"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    summary = json.loads(result.stdout)
    assert summary["resumed_shards"] == done_before
    assert summary["hands"] == 600_000 - 20_000 * done_before
    assert not list(killed.rglob(".tmp-*"))
    whole = tmp_path / "whole"
    simulate(SimSpec("holdem", 600_000, seed=9, shard_size=20_000), str(whole), run_id="k9")
    assert shard_bytes(killed) == shard_bytes(whole)


def test_a_resumed_run_must_keep_its_settings(tmp_path):
    simulate(SimSpec("holdem", 1_000, seed=1), str(tmp_path), run_id="x")
    with pytest.raises(ValueError, match="different settings: seed '1'"):
        simulate(SimSpec("holdem", 1_000, seed=2), str(tmp_path), run_id="x")


def test_betting_mode_plays_full_hands_that_export_and_replay(tmp_path):
    spec = SimSpec("holdem", 400, players=4, seed=3, mode="betting", policies=("tag", "random"))
    simulate(spec, str(tmp_path), run_id="b")
    warehouse = Warehouse(tmp_path)
    players = warehouse.read("players").to_pandas()
    assert (players.groupby("hand_id")["net"].sum() == 0).all()
    actions = warehouse.read("actions").column("action").to_pylist()
    assert {"fold", "call", "check", "raise", "bet"} <= set(actions)
    hands = warehouse.read("hands")
    assert 0 < pc.sum(hands.column("showdown")).as_py() < 400
    out = tmp_path / "b.phhs"
    export_hands(warehouse, "holdem", out)
    replayed = [replay(raw.fields) for raw in iter_hands([out])]
    assert len(replayed) == 400
    stacks = {r.fields["hand"]: r.state.stacks for r in replayed}
    by_hand = players.sort_values(["hand_id", "seat"]).groupby("hand_id")["finishing_stack"].apply(list)
    assert sorted(stacks.values()) == sorted(by_hand.tolist())


def test_fsspec_url_as_data(tmp_path):
    spec = SimSpec("skoejarth", 2_000, seed=1, shard_size=1_000)
    simulate(spec, "memory://scooplab-test", run_id="m")
    assert Warehouse("memory://scooplab-test").read("hands").num_rows == 2_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "scarney", "--players", "9"], "Scarney seats 2 to 6 players"),
        (["--variant", "holdem", "--rule", "burns=on"], "Hold'em rule options are none"),
        (
            ["--variant", "scarney", "--rule", "burns=perhaps"],
            "option burns: 'perhaps' is not one of false, true",
        ),
        (["--variant", "holdem", "--hands", "0"], "--hands must be positive"),
        (["--variant", "holdem", "--mode", "betting", "--policy", "shark"], "unknown policy 'shark'"),
    ],
)
def test_bad_options_get_a_clear_error(tmp_path, args, message):
    result = CliRunner().invoke(app, ["simulate", *args, "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_command_line_takes_an_fsspec_url():
    data = "memory://scooplab-cli-test"
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "--variant",
            "skoejarth",
            "--hands",
            "2000",
            "--seed",
            "1",
            "--data",
            data,
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert Warehouse(data).read("hands").num_rows == 2000
    assert not Path("memory:").exists()


def test_a_betting_run_is_not_resumed_with_another_generator(tmp_path, monkeypatch):
    import ingest.generation.simulation as simulation

    spec = SimSpec("holdem", 300, players=3, seed=4, mode="betting", policies=("random",))
    simulate(spec, str(tmp_path), run_id="g")
    simulate(spec, str(tmp_path), run_id="g")  # the same settings: nothing left to do
    monkeypatch.setattr(simulation, "BETTING_BIT_GENERATOR", "an older generator")
    with pytest.raises(ValueError, match="different settings: bit_generator"):
        simulate(spec, str(tmp_path), run_id="g")


def test_a_betting_run_keeps_its_structure(tmp_path):
    spec = SimSpec("cry-me-a-river", 300, players=4, seed=4, mode="betting", policies=("random",),
                   structure="fixed-limit")  # fmt: skip
    simulate(spec, str(tmp_path), run_id="f")
    hands = Warehouse(str(tmp_path)).read("hands", ["structure", "variant_code"]).to_pylist()
    assert {(h["structure"], h["variant_code"]) for h in hands} == {("fixed-limit", "FCMR")}
    with pytest.raises(ValueError, match="different settings: structure 'fixed-limit'"):
        simulate(SimSpec(**(asdict(spec) | {"structure": "pot-limit"})), str(tmp_path), run_id="f")
    with pytest.raises(ValueError, match="must be one of no-limit for"):
        SimSpec("skoejarth", 10, mode="betting", structure="fixed-limit").check()
