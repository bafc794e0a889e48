"""The suite's session-end check (tests/conftest.py) fails a run that leaves a process behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.patience import COMMAND_SECONDS

LEAKY_TEST = """
import os, pathlib, subprocess, sys

def test_starts_a_server_and_forgets_it():
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"],
                               start_new_session=True)
    pathlib.Path(os.environ["LEAKED_PID_FILE"]).write_text(str(sleeper.pid))
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_a_run_that_leaves_a_process_behind_fails_and_names_it(tmp_path, workers):
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_leaky.py").write_text(LEAKY_TEST)
    pid_file = tmp_path / "leaked.pid"
    env = os.environ | {
        "PYTHONDONTWRITEBYTECODE": "1",
        "SCOOPLAB_TEST_GRACE": "1",
        "LEAKED_PID_FILE": str(pid_file),
    }
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--basetemp", str(tmp_path / "t"), *workers, str(tmp_path / "test_leaky.py")]  # fmt: skip
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=COMMAND_SECONDS
        )
    finally:
        leaked = int(pid_file.read_text()) if pid_file.exists() else None
        if leaked:
            os.kill(leaked, signal.SIGKILL)
    # the sleeper lives an hour, far past the inner run (~5 s here) and its 1 s grace: still alive at its end
    assert leaked is not None, result.stdout + result.stderr
    assert result.returncode == 1, result.stdout
    assert "1 passed" in result.stdout and "outlived them" in result.stdout
    assert f"pid {leaked}:" in result.stdout
