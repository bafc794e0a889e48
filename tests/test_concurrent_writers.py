"""Two simulations and an ingest write to one warehouse at once while ``stats`` and ``query`` read
it: every writer finishes, nothing is lost or stored twice, and no read fails."""

from __future__ import annotations

import json
import subprocess
import time

from ingest.phh import iter_hands
from ingest.simulation import SimSpec, simulate
from ingest.warehouse import Warehouse
from tests.scale_helpers import SCOOPLAB, running, start
from tests.test_ingest import FIXTURES

WRITERS = {
    "sim-a": ["simulate", "--variant", "holdem", "--hands", "200000", "--shard-size", "20000", "--seed", "1"],
    "sim-b": ["simulate", "--variant", "scarney", "--mode", "betting", "--hands", "6000",
              "--shard-size", "1000", "--seed", "2"],
    "phh": ["ingest", str(FIXTURES / "phh"), str(FIXTURES / "examples")],
}  # fmt: skip
READS = (
    ["stats", "--variant", "holdem", "--format", "json"],
    ["query", "SELECT run_id, count(*) AS hands, count(DISTINCT hand_id) AS ids FROM hands GROUP BY 1",
     "--format", "json"],
)  # fmt: skip


def read(args: list[str], data) -> None:
    done = subprocess.run(
        [*SCOOPLAB, *args, "--data", str(data)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    json.loads(done.stdout)


def test_writers_and_readers_at_once(tmp_path):
    simulate(
        SimSpec("holdem", 1_000, seed=9), str(tmp_path), run_id="before"
    )  # readers have hands from the start
    writers = [start([*SCOOPLAB, *args, "--data", str(tmp_path), "--run-id", run], stderr=subprocess.PIPE)
               for run, args in WRITERS.items()]  # fmt: skip
    reads = 0
    with running(*writers):
        while any(writer.poll() is None for writer in writers) or reads < 2:
            for args in READS:
                read(args, tmp_path)
                reads += 1
            time.sleep(0.1)
        for writer in writers:
            assert writer.wait() == 0, writer.stderr.read().decode()
    expected = {"before": 1_000, "sim-a": 200_000, "sim-b": 6_000,
                "phh": len(list(iter_hands([FIXTURES / "phh", FIXTURES / "examples"])))}  # fmt: skip
    hands = Warehouse(tmp_path).read("hands", ["run_id", "hand_id"]).to_pylist()
    assert {run: sum(h["run_id"] == run for h in hands) for run in expected} == expected
    assert len({h["hand_id"] for h in hands}) == len(hands)  # nothing stored twice
    runs = {r["run_id"]: r["status"] for r in Warehouse(tmp_path).read("runs").to_pylist()}
    assert runs == dict.fromkeys(expected, "complete")
    assert reads >= 4
