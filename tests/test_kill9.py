"""kill -9 at random moments of ``simulate`` (both modes) and ``ingest``, then the same command again
with the same run id: the final tables equal an uninterrupted run's (a digest of every documented
table's rows), and between the kills a reader sees only whole shards and whole batches, never a
temporary file. The default suite kills an ingest once; the soak test kills the three commands 24
times in all."""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from analytics.db import connect
from ingest.export import export_hands
from ingest.simulation import SimSpec, simulate
from ingest.warehouse import Warehouse
from tests.dashboard_server import group_members
from tests.scale_helpers import SCOOPLAB, kill_group, run_digest, running, start, temporary_files

SHARD = {"showdown": 20_000, "betting": 1_000}
COMMANDS = {
    "showdown": ["simulate", "--variant", "holdem", "--hands", "240000", "--shard-size",
                 str(SHARD["showdown"]), "--seed", "5", "--workers", "2"],
    "betting": ["simulate", "--variant", "scarney", "--mode", "betting", "--hands", "12000", "--shard-size",
                str(SHARD["betting"]), "--seed", "5", "--policy", "tag", "--policy", "station"],
    "ingest": ["ingest"],
}  # fmt: skip


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """PHH files of 8,000 hands of two games played with betting (an ingest of a few seconds)."""
    root = tmp_path_factory.mktemp("corpus")
    for game in ("holdem", "cry-me-a-river"):
        simulate(
            SimSpec(game, 4_000, mode="betting", seed=3, shard_size=4_000), str(root / "wh"), run_id=game
        )
        export_hands(Warehouse(root / "wh"), game, root / "phh" / f"{game}.phhs")
    return root / "phh"


def command(case: str, data: Path, corpus: Path) -> list[str]:
    extra = [str(corpus)] if case == "ingest" else []
    return [*SCOOPLAB, *COMMANDS[case], *extra, "--data", str(data), "--run-id", "r"]


def whole_process(args: list[str]) -> float:
    """Run a command to its end; the CPU seconds it used (its own and its workers'): a measure of its
    work that other load on the machine does not stretch, as it does the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(args, capture_output=True, text=True, timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert finished.returncode == 0, finished.stderr
    assert "Traceback" not in finished.stderr
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cpu_seconds(pid: int) -> float:
    """CPU seconds a live process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def reader_sees_whole_parts(data: Path, case: str) -> None:
    """What a reader counts after a kill: whole shards of a simulation, whole batches of an ingest."""
    con = connect(data)
    hands, seats = con.sql("SELECT count(*), coalesce(sum(n_players), 0) FROM hands").fetchall()[0]
    players = con.sql("SELECT count(*) FROM players").fetchall()[0][0]
    if case in SHARD:
        assert hands % SHARD[case] == 0, hands
    if case != "showdown":  # showdown-mode hands keep their seats in the hands rows
        assert players == seats


def shards_done(data: Path) -> int:
    return len(list((data / "hands").rglob("shard-*.parquet")))


def wait_for_a_moment(case: str, data: Path, process, seconds: float, rng: random.Random) -> None:
    """Wait for a random moment of the command's work: a simulation, after a random number of the
    shards it still has to write (and a random part of the next); an ingest (which starts again from
    nothing, in one process), once it has used a random part of the CPU time the whole took
    (``seconds``)."""
    if case not in SHARD:
        spent = rng.uniform(0.2, 0.9) * seconds
        deadline = time.monotonic() + 120
        while cpu_seconds(process.pid) < spent and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return
    total = int(COMMANDS[case][COMMANDS[case].index("--hands") + 1]) // SHARD[case]
    target = rng.randint(min(shards_done(data), total - 1), total - 1)
    deadline = time.monotonic() + 120
    while shards_done(data) < target and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(rng.uniform(0, seconds / total))


def kill_and_finish(
    case: str, data: Path, corpus: Path, kills: int, seconds: float, rng: random.Random
) -> int:
    """Kill the command ``kills`` times at random moments (each rerun under the same run id), then let it
    finish; returns how many kills landed while it ran."""
    landed = 0
    for _ in range(kills):
        process = start(command(case, data, corpus))
        wait_for_a_moment(case, data, process, seconds, rng)
        landed += process.poll() is None
        kill_group(process)
        reader_sees_whole_parts(data, case)
    whole_process(command(case, data, corpus))
    return landed


def check_case(case: str, tmp_path: Path, corpus: Path, kills: int, seed: int) -> int:
    reference = tmp_path / f"{case}-reference"
    seconds = whole_process(command(case, reference, corpus))
    killed = tmp_path / f"{case}-killed"
    landed = kill_and_finish(case, killed, corpus, kills, seconds, random.Random(seed))
    assert run_digest(killed, "r") == run_digest(reference, "r")
    assert set(run_digest(reference, "r")) >= {"hands", "runs"}
    assert not temporary_files(killed)
    return landed


def test_a_killed_ingest_run_again_ends_as_if_never_killed(tmp_path, corpus):
    """The default suite's kill (simulations: test_simulation.py, and 16 more here in soak)."""
    assert check_case("ingest", tmp_path, corpus, kills=1, seed=1) == 1  # killed while it ran


def test_workers_end_with_a_simulation_killed_alone(tmp_path):
    """kill -9 of the command alone (not its process group): its worker processes end with it."""
    process = start(command("showdown", tmp_path, tmp_path))
    with running(process):
        deadline = time.monotonic() + 120
        while not shards_done(tmp_path) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        workers = set(group_members(process.pid)) - {process.pid}
        assert len(workers) >= 2 and process.poll() is None  # spawned workers, still at work
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 10
        while set(group_members(process.pid)) & workers and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not set(group_members(process.pid)) & workers


@pytest.mark.soak
def test_twenty_four_random_kills(tmp_path, corpus):
    landed = {case: check_case(case, tmp_path, corpus, kills=8, seed=index)
              for index, case in enumerate(COMMANDS)}  # fmt: skip
    print(f"kills that landed while the command ran: {landed}")
    assert sum(landed.values()) >= 20, landed  # a kill may land after a rerun that had little left
