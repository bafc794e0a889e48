"""A real dashboard server for tests and benchmarks: ``scooplab dashboard`` on a free loopback port,
in a process group of its own, waited for until it answers, and stopped with everything it started.

    with dashboard_server(warehouse, log=tmp_path / "server.log") as server:
        ...  # server.url, server.pid
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.patience import (
    BROWSER_WAIT_MS,
    GRACEFUL_STOP_SECONDS,
    POLL_SECONDS,
    PROCESS_END_SECONDS,
    SERVER_START_SECONDS,
)
from tests.scale_helpers import free_port, group_members

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Server:
    """A running dashboard: its address and the id of its process (and process group)."""

    url: str
    pid: int
    log: Path | None


def answers(url: str, timeout: float = 30.0) -> bool:
    """Whether the dashboard at ``url`` says ``ok`` on its health endpoint."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except OSError:
        return False


@contextmanager
def dashboard_server(
    data: Path | str,
    log: Path | None = None,
    ready_seconds: float = SERVER_START_SECONDS,
    flags: tuple[str, ...] = (),
) -> Iterator[Server]:
    """``scooplab dashboard --data data [flags]`` on a free port of 127.0.0.1, once its health
    endpoint answers; on leaving, its whole process group gets SIGTERM (SIGKILL after 20 s) and is
    reaped. Its output goes to ``log`` (else nowhere)."""
    port = free_port()
    command = [sys.executable, "-m", "scooplab.cli", "dashboard", "--data", str(data), "--port", str(port),
               *flags]  # fmt: skip
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 - closed in finally
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )  # the server replaces the command's process (execve): its pid leads the group
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + ready_seconds
        while not answers(url):  # a health request on loopback takes milliseconds
            if process.poll() is not None:
                raise RuntimeError(f"the dashboard exited with {process.returncode} before answering ({log})")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the dashboard did not answer within {ready_seconds:.0f} s ({log})")
            time.sleep(POLL_SECONDS)
        yield Server(url, process.pid, log)
    finally:
        stop_group(process)
        if log:
            out.close()


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process group ``process`` leads, SIGKILL to what is left of it after 20 s;
    returns once the leader is reaped and no member is alive (each killed member ends at once)."""
    with suppress(ProcessLookupError):  # the whole group is gone already
        os.killpg(process.pid, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=GRACEFUL_STOP_SECONDS)
    deadline = time.monotonic() + PROCESS_END_SECONDS
    while group_members(process.pid) and time.monotonic() < deadline:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        time.sleep(POLL_SECONDS)
    process.wait(timeout=PROCESS_END_SECONDS)


def wait_for_script_run(page: Any) -> None:
    """Wait until the Streamlit page shown in a Playwright ``page`` has finished its script run (the
    app's own ``data-test-script-state``), instead of sleeping for a guess of how long it takes."""
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(
        state="attached", timeout=BROWSER_WAIT_MS
    )
