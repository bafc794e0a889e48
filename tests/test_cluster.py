"""A real Dask cluster: ``dask scheduler`` and two ``dask worker --nthreads 1`` processes on
127.0.0.1, one worker killed with SIGKILL while ``scooplab simulate --executor dask`` runs; the
finished files equal a local run's byte for byte. The cluster is torn down whatever happens."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from tests.patience import (
    COMMAND_SECONDS,
    PROCESS_END_SECONDS,
    SERVER_START_SECONDS,
    wait_until,
)
from tests.scale_helpers import (
    BIN,
    SCOOPLAB,
    finished_files,
    free_port,
    running,
    start,
    temporary_files,
    wait_for_port,
)

SIMULATE = ["simulate", "--variant", "cry-me-a-river", "--hands", "400000", "--shard-size", "5000",
            "--seed", "11", "--run-id", "c"]  # fmt: skip
SHARDS = 80  # a worker is killed after 2: 78 shards (seconds of work here) are left, hundreds of polls


def dask_cluster(port: int) -> tuple[subprocess.Popen, ...]:
    """A scheduler and two single-threaded workers without nannies (a killed worker stays dead)."""
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                       "--no-dashboard"])  # fmt: skip
    wait_for_port(port, SERVER_START_SECONDS)
    command = [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
               "--host", "127.0.0.1"]  # fmt: skip
    workers = tuple(start([*command, "--name", f"w{index}"]) for index in range(2))
    from dask.distributed import Client

    with Client(address, timeout=SERVER_START_SECONDS) as client:  # workers join within ~5 s here
        client.wait_for_workers(2, timeout=SERVER_START_SECONDS)
    return (scheduler, *workers)


def shards_written(data: Path) -> int:
    return len(list((data / "hands").rglob("shard-*.parquet")))


@pytest.mark.soak
def test_a_worker_killed_mid_run_changes_no_byte(tmp_path):
    local = tmp_path / "local"
    done = subprocess.run([*SCOOPLAB, *SIMULATE, "--data", str(local)], capture_output=True, text=True,
                          timeout=COMMAND_SECONDS)  # fmt: skip
    assert done.returncode == 0, done.stderr
    port = free_port()
    with running(*dask_cluster(port)) as (scheduler, first, second):
        cluster = tmp_path / "cluster"
        client = start([*SCOOPLAB, *SIMULATE, "--data", str(cluster), "--executor", "dask",
                        "--scheduler", f"tcp://127.0.0.1:{port}"], stderr=subprocess.PIPE)  # fmt: skip
        with running(client):
            wait_until(lambda: shards_written(cluster) >= 2, unless=lambda: client.poll() is not None)
            before = shards_written(cluster)
            first.send_signal(signal.SIGKILL)  # a worker dies with shards still to do
            first.wait(timeout=PROCESS_END_SECONDS)
            assert 0 < before < SHARDS and client.poll() is None
            _, errors = client.communicate(timeout=COMMAND_SECONDS)
            assert client.returncode == 0, errors.decode()
        assert second.poll() is None and scheduler.poll() is None  # the rest of the cluster went on
    for table in ("hands", "summaries"):
        assert finished_files(cluster, table) == finished_files(local, table)
    assert len(finished_files(cluster, "hands")) == SHARDS
    assert not temporary_files(cluster)
    print(f"worker killed after {before} of {SHARDS} shards")
