"""Two simulations and an ingest write to one warehouse at once while ``stats`` and ``query`` read
it: every writer finishes, nothing is lost or stored twice, and no read fails."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor

from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.phh import iter_hands
from ingest.storage.warehouse import Warehouse
from tests.patience import COMMAND_SECONDS, wait_until
from tests.scale_helpers import SCOOPLAB, running, start
from tests.test_ingest import FIXTURES

WRITERS = {
    "sim-a": ["simulate", "--variant", "holdem", "--hands", "400000", "--shard-size", "20000", "--seed", "1"],
    "sim-b": ["simulate", "--variant", "scarney", "--mode", "betting", "--hands", "6000",
              "--shard-size", "1000", "--seed", "2"],
    "phh": ["ingest", str(FIXTURES / "phh"), str(FIXTURES / "examples")],
}  # fmt: skip
READS = (
    ["stats", "--variant", "holdem", "--format", "json"],
    ["query", "SELECT run_id, count(*) AS hands, count(DISTINCT hand_id) AS ids FROM hands GROUP BY 1",
     "--format", "json", "--timeout", str(COMMAND_SECONDS)],  # the machine is busy with three writers
)  # fmt: skip


def read(args: list[str], data) -> None:
    command = [*SCOOPLAB, *args, "--data", str(data)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    json.loads(done.stdout)


def keep_reading(args: list[str], data, writers: list[subprocess.Popen]) -> int:
    """Read again and again while a writer is at work (and once more after): how many reads began
    while one was."""
    during = 0
    while any(writer.poll() is None for writer in writers):
        during += 1
        read(args, data)
    read(args, data)
    return during


def test_writers_and_readers_at_once(tmp_path):
    simulate(SimSpec("holdem", 1_000, seed=9), str(tmp_path), run_id="before")  # hands from the start
    writers = [start([*SCOOPLAB, *args, "--data", str(tmp_path), "--run-id", run], stderr=subprocess.PIPE)
               for run, args in WRITERS.items()]  # fmt: skip
    with running(*writers), ThreadPoolExecutor(len(READS)) as pool:
        readers = [pool.submit(keep_reading, args, tmp_path, writers) for args in READS]
        for writer in writers:
            assert writer.wait(timeout=COMMAND_SECONDS) == 0, writer.stderr.read().decode()
        during = [reader.result(timeout=COMMAND_SECONDS) for reader in readers]  # a failed read fails here
    expected = {"before": 1_000, "sim-a": 400_000, "sim-b": 6_000,
                "phh": len(list(iter_hands([FIXTURES / "phh", FIXTURES / "examples"])))}  # fmt: skip
    hands = Warehouse(tmp_path).read("hands", ["run_id", "hand_id"]).to_pylist()
    assert {run: sum(h["run_id"] == run for h in hands) for run in expected} == expected
    assert len({h["hand_id"] for h in hands}) == len(hands)  # nothing stored twice
    runs = {r["run_id"]: r["status"] for r in Warehouse(tmp_path).read("runs").to_pylist()}
    assert runs == dict.fromkeys(expected, "complete")
    # each kind of read overlapped the writes: a reader's thread starts within milliseconds, a
    # writer's start-up alone takes over a second here
    assert min(during) >= 1


def lease_holder(path) -> int | None:
    """The process a lease file names, once it is written (None before)."""
    try:
        return json.loads(path.read_text()).get("pid")
    except (OSError, ValueError):
        return None


def test_a_second_writer_of_a_run_is_refused_while_the_first_works(tmp_path):
    hands = ["--hands", "1000000", "--shard-size", "200000", "--workers", "1"]
    args = [*SCOOPLAB, "simulate", "--variant", "holdem", *hands, "--data", str(tmp_path), "--run-id", "same"]
    first = start(args, stderr=subprocess.PIPE)
    with running(first):
        # the file exists before its holder is written into it
        wait_until(lambda: lease_holder(tmp_path / ".leases" / "same.json") == first.pid)
        # the first writer is stopped (alive, holding its lease) while the second tries: it cannot
        # finish first, however fast it is and however slowly the second starts
        os.killpg(first.pid, signal.SIGSTOP)
        try:
            second = subprocess.run(args, capture_output=True, text=True, timeout=COMMAND_SECONDS)
        finally:
            os.killpg(first.pid, signal.SIGCONT)
        assert second.returncode == 2 and "Traceback" not in second.stderr, second.stderr
        assert f"run same is being written by process {first.pid}" in second.stderr
        assert first.wait(timeout=COMMAND_SECONDS) == 0, first.stderr.read().decode()
    hands = Warehouse(tmp_path).read("hands", ["hand_id"]).column("hand_id").to_pylist()
    assert len(hands) == len(set(hands)) == 1_000_000 and not (tmp_path / ".leases" / "same.json").exists()
