"""Worker processes that end with the process that started them.

A process killed with SIGKILL cannot stop its children; on Linux each child asks the kernel to
kill it when its parent dies, so a killed ``scooplab simulate`` (or a dashboard running a query)
leaves no process behind.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from contextlib import suppress

PR_SET_PDEATHSIG = 1  # prctl option: the signal this process gets when its parent dies


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) dies: Linux sends it SIGKILL; if
    the parent is gone already, end now. Elsewhere only the second check is made."""
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
