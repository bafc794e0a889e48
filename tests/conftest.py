"""Suite-wide check: no process a test starts outlives the session (servers, clusters, kernels).

At the start every process the tests start is marked through an environment variable it
inherits (also a process that leaves its group, as a server started with a new session
does). At the end the suite waits a few seconds for marked processes to exit and fails,
naming each one, if any is left. Python's own multiprocessing helpers (the resource tracker
and the forkserver, which end with the interpreter that started them) are not counted.
Under pytest-xdist (``make test`` runs two workers) the workers keep the controller's mark and
the controller checks, once the workers are gone.
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests never fail on time: no per-example deadline and no "too slow" health check (#34),
# so a loaded or slow machine runs the same examples to the same verdicts.
settings.register_profile("scooplab", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("scooplab")


@pytest.fixture(autouse=True)
def _main_module_kept():
    """After every test, ``__main__`` is this process's own again: AppTest leaves the page script it
    ran there, and a process pool started later by spawn (a parallel ingest) would run that script
    in every worker and die (a game page's generated script fails there)."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(autouse=True, scope="session")
def _warm_ups_stopped():
    """At the session's end, the dashboard's background warm-ups that page tests started in this
    process are stopped and waited for (else one logs to the closed output as the process ends)."""
    yield
    data = sys.modules.get("dashboards.data")
    if data is not None:
        data.stop_warm_ups()


MARK = "SCOOPLAB_TEST_SESSION"
GRACE_SECONDS = float(os.environ.get("SCOOPLAB_TEST_GRACE", "60"))  # the end waits this long for exits:
# a server stopped by its test is gone within a second, so only a process nobody stops is still there
INTERPRETER_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # an xdist worker keeps its controller's mark
        os.environ[MARK] = uuid.uuid4().hex


def marked_processes(token: str) -> list[tuple[int, str]]:
    """Live processes (not this one, not zombies) started with ``MARK=token``: pid and command line."""
    found = []
    marker = f"{MARK}={token}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if "\nState:\tZ" in (entry / "status").read_text():
                continue  # exited, waiting for its parent to reap it
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if not any(helper in command for helper in INTERPRETER_HELPERS):
            found.append((int(entry.name), command[:160]))
    return found


@pytest.hookimpl(hookwrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int):
    """After every other finish (under xdist, after the workers are shut down): the check."""
    yield
    token = os.environ.get(MARK)
    if not token or not Path("/proc").is_dir() or hasattr(session.config, "workerinput"):
        return
    deadline = time.monotonic() + GRACE_SECONDS
    left = marked_processes(token)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = marked_processes(token)
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"{len(left)} process(es) started by the tests outlived them:"]
    lines += [f"  pid {pid}: {command}" for pid, command in left]
    if reporter:
        reporter.write_line("\n".join(lines), red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
