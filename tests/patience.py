"""How long the tests wait, so that neither a faster nor a slower machine turns a pass into a failure.

Every wait in the suite is one of three kinds, each at least 20 times away from what it waits for
on the 2-core machine of CI (measured there, also with both cores busy):

- **a safety bound** on what must happen (a server answers, a page's script finishes, a killed
  process is gone, a query is cancelled): at least 20 times what it takes. It only ends a test that
  would otherwise hang; the test waits for the event itself, so it costs nothing when it happens;
- **what must not happen in time** (a query that would run for hours, a warm-up that sleeps an
  hour): at least 20 times longer than any bound the test sets;
- **a moment in a command's work** (a kill after the first shard): the test reacts within one poll
  (``POLL_SECONDS``), and the command has at least 20 polls of work left at that moment.

No test asserts that something took less than a duration, and no test sleeps to give something
else time to happen: it waits for the thing itself (a file, a marker, a page's script state).
"""

from __future__ import annotations

import time
from collections.abc import Callable

POLL_SECONDS = 0.005  # how often a test looks for a file, a process or a port
SERVER_START_SECONDS = 300.0  # a dashboard server, moto or a Dask cluster answers in 2-6 s here
PAGE_RUN_SECONDS = 600.0  # AppTest's limit for one script run: the slowest page here takes ~12 s
BROWSER_WAIT_MS = 300_000  # Playwright's limit for a page, heading or chart: each comes within ~10 s
GRACEFUL_STOP_SECONDS = 20.0  # a server told to stop (SIGTERM) is gone in ~1 s here; then SIGKILL
PROCESS_END_SECONDS = 60.0  # a process killed, or dying with its parent, is gone within milliseconds
COMMAND_SECONDS = 600.0  # a command the tests run to its end takes at most ~25 s here


def wait_until(done: Callable[[], object], seconds: float = COMMAND_SECONDS, *,
               unless: Callable[[], object] | None = None) -> bool:  # fmt: skip
    """Look every ``POLL_SECONDS`` until ``done()`` is true (True), or until ``unless()`` is true or
    ``seconds`` have passed (False): the one waiting loop of the suite."""
    deadline = time.monotonic() + seconds
    while not done():
        if (unless is not None and unless()) or time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True
