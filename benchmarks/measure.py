"""One fresh process, measured as a user runs it: its wall seconds, its own peak resident memory
(``wait4``'s, so neither this script's nor an earlier child's), and its standard output.

A user's Python keeps the bytecode of what it imports (``__pycache__``), so a run after the first
reads it instead of compiling every module: ``PYTHONDONTWRITEBYTECODE`` (set on some build machines)
is left out of the child's environment, for scooplab and its peer alike."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measured(command: list[str], cwd: Path = ROOT) -> tuple[float, float, str]:
    """Run ``command`` to its end: (wall seconds, peak resident MB, standard output). A failed
    command raises ``subprocess.CalledProcessError``."""
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if code := os.waitstatus_to_exitcode(status):
        raise subprocess.CalledProcessError(code, command)
    return seconds, usage.ru_maxrss / 1024, out
