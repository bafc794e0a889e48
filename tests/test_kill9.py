"""kill -9 at random moments of ``simulate`` (both modes) and ``ingest``, then the same command again
with the same run id: the final tables equal an uninterrupted run's (a digest of every documented
table's rows), and between the kills a reader sees only whole shards and whole batches, never a
temporary file. The default suite kills an ingest once; the soak test kills the three commands 24
times in all."""

from __future__ import annotations

import glob
import os
import random
import re
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from analytics.db import connect
from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.batches import FILE_HANDS_VARIABLE
from ingest.histories.export import export_hands
from ingest.storage.warehouse import Warehouse
from tests.patience import COMMAND_SECONDS, PROCESS_END_SECONDS, wait_until
from tests.scale_helpers import (
    SCOOPLAB,
    group_members,
    interpreter_helper,
    kill_group,
    run_digest,
    running,
    start,
    temporary_files,
)

SHARD = {"showdown": 20_000, "betting": 1_000}
COMMANDS = {
    "showdown": ["simulate", "--variant", "holdem", "--hands", "240000", "--shard-size",
                 str(SHARD["showdown"]), "--seed", "5", "--workers", "2"],
    "betting": ["simulate", "--variant", "scarney", "--mode", "betting", "--hands", "12000", "--shard-size",
                str(SHARD["betting"]), "--seed", "5", "--policy", "tag", "--policy", "station"],
    "ingest": ["ingest"],
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def ingest_files_of_500_hands():
    """An ingest writes a file every 500 hands here: kills land between files, not only before all."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FILE_HANDS_VARIABLE, "500")
        yield


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """PHH files of 24,000 hands of two games played with betting: 8,000 hands three times, each
    copy its own hands (an ``event`` field), in files of 250 hands, so that an ingest (which reads
    a file at a time) writes its files one after another over a few seconds."""
    root = tmp_path_factory.mktemp("corpus")
    for game in ("holdem", "cry-me-a-river"):
        simulate(
            SimSpec(game, 4_000, mode="betting", seed=3, shard_size=4_000), str(root / "wh"), run_id=game
        )
        export_hands(Warehouse(root / "wh"), game, root / "whole" / f"{game}.phhs")
        hands = re.split(r"(?m)^(?=\[)", (root / "whole" / f"{game}.phhs").read_text())
        hands = [hand for hand in hands if hand.startswith("[")]
        for copy in range(3):
            for first in range(0, len(hands), 250):
                part = [
                    h.replace("]\n", f']\nevent = "copy {copy}"\n', 1) for h in hands[first : first + 250]
                ]
                (root / "phh").mkdir(exist_ok=True)
                (root / "phh" / f"{game}-{copy}-{first:05d}.phhs").write_text("".join(part))
    return root / "phh"


def command(case: str, data: Path, corpus: Path) -> list[str]:
    extra = [str(corpus)] if case == "ingest" else []
    return [*SCOOPLAB, *COMMANDS[case], *extra, "--data", str(data), "--run-id", "r"]


def whole_process(args: list[str]) -> tuple[float, str]:
    """Run a command to its end: the CPU seconds it used (its own and its workers': a measure of its
    work that other load on the machine does not stretch, as it does the wall time) and what it
    wrote on standard error."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(args, capture_output=True, text=True, timeout=COMMAND_SECONDS)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert finished.returncode == 0, finished.stderr
    assert "Traceback" not in finished.stderr
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, finished.stderr


def reader_sees_whole_parts(data: Path, case: str) -> None:
    """What a reader counts after a kill: whole shards of a simulation, whole batches of an ingest."""
    con = connect(data)
    hands, seats = con.sql("SELECT count(*), coalesce(sum(n_players), 0) FROM hands").fetchall()[0]
    players = con.sql("SELECT count(*) FROM players").fetchall()[0][0]
    if case in SHARD:
        assert hands % SHARD[case] == 0, hands
    if case != "showdown":  # showdown-mode hands keep their seats in the hands rows
        assert players == seats


def hands_files(data: Path) -> int:
    """The run's finished hands files: its shards, or its ingest's batches. A folder an ingest removes
    while it is listed (replacing an interrupted run's files) is passed over, not an error."""
    return len(glob.glob(str(data / "hands" / "variant=*" / "run=r" / "*.parquet")))


def wait_for_a_moment(case: str, data: Path, process, reference: tuple[float, int], rng: random.Random,
                      after_files: int = 0, latest: float = 1.0) -> None:  # fmt: skip
    """Wait for a random moment of the command's work: once a random number of the hands files it
    still has to write are written (at least ``after_files``, at most ``latest`` of them all), and a
    random part of the next. ``reference``: the CPU seconds and hands files of a whole run. An
    ingest starts again from nothing: first the files of the run it replaces go."""
    seconds, total = reference
    if case == "ingest":
        wait_until(lambda: hands_files(data) == 0, unless=lambda: process.poll() is not None)
    low = min(max(hands_files(data), after_files), total - 1)
    target = rng.randint(low, max(low, min(total - 1, int(latest * total))))
    wait_until(lambda: hands_files(data) >= target, unless=lambda: process.poll() is not None)
    time.sleep(rng.uniform(0, seconds / total / 2))


def kill_and_finish(case: str, data: Path, corpus: Path, kills: int, reference: tuple[float, int],
                    rng: random.Random, after_files: int = 0,
                    latest: float = 1.0) -> tuple[int, str]:  # fmt: skip
    """Kill the command ``kills`` times at random moments (each rerun under the same run id), then let it
    finish: how many kills landed while it ran, and what the last run said on standard error."""
    landed = 0
    for _ in range(kills):
        process = start(command(case, data, corpus))
        wait_for_a_moment(case, data, process, reference, rng, after_files, latest)
        landed += process.poll() is None
        kill_group(process)
        reader_sees_whole_parts(data, case)
    return landed, whole_process(command(case, data, corpus))[1]


def check_case(case: str, tmp_path: Path, corpus: Path, kills: int, seed: int,
               after_files: int = 0, latest: float = 1.0) -> tuple[int, str]:  # fmt: skip
    """Kill a command and run it again: equal to an uninterrupted run (``kill_and_finish``'s answer)."""
    reference = tmp_path / f"{case}-reference"
    seconds = whole_process(command(case, reference, corpus))[0]
    killed = tmp_path / f"{case}-killed"
    whole = (seconds, hands_files(reference))
    answer = kill_and_finish(case, killed, corpus, kills, whole, random.Random(seed), after_files, latest)
    assert run_digest(killed, "r") == run_digest(reference, "r")
    assert set(run_digest(reference, "r")) >= {"hands", "runs"}
    assert not temporary_files(killed) and not list(killed.glob(".leases/*"))
    return answer


def test_a_killed_ingest_run_again_ends_as_if_never_killed(tmp_path, corpus):
    """The default suite's kill (simulations: test_simulation.py, and 16 more here in soak): after a
    batch is written, so the rerun has files to replace, and in the first half of the 16, so that
    the kill lands with half the ingest's work (~1 s here) still to do, hundreds of polls away."""
    landed, said = check_case("ingest", tmp_path, corpus, kills=1, seed=1, after_files=1, latest=0.5)
    assert landed == 1 and "was interrupted; its" in said and "earlier files were replaced" in said


def test_workers_end_with_a_simulation_killed_alone(tmp_path):
    """kill -9 of the command alone (not its process group): its worker processes end with it."""
    # 120 shards: at the first of them, over 3 s of work is left here, hundreds of polls
    args = command("showdown", tmp_path, tmp_path)
    args[args.index("--hands") + 1] = "2400000"
    process = start(args)
    with running(process):
        wait_until(lambda: hands_files(tmp_path) > 0, unless=lambda: process.poll() is not None)
        workers = set(group_members(process.pid)) - {process.pid}
        helpers = [pid for pid in workers if not interpreter_helper(pid)]
        assert helpers and process.poll() is None  # a spawned helper (the command works too), still at work
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        wait_until(lambda: not set(group_members(process.pid)) & workers, PROCESS_END_SECONDS)  # at once
        assert not set(group_members(process.pid)) & workers


@pytest.mark.soak
def test_twenty_four_random_kills(tmp_path, corpus):
    # moments drawn up to 90% of the files: two files or more are left at each (a second or so), so
    # a kill lands unless a rerun resumed with less than that to do
    landed = {case: check_case(case, tmp_path, corpus, kills=8, seed=index, latest=0.9)[0]
              for index, case in enumerate(COMMANDS)}  # fmt: skip
    print(f"kills that landed while the command ran: {landed}")
    assert sum(landed.values()) >= 20, landed  # a kill may land after a rerun that had little left
