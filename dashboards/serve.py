"""The dashboard's server process (``scooplab dashboard`` runs ``python dashboards/serve.py run
dashboards/app.py ...``): Streamlit's own command, after the modules every page needs are imported,
and with the warehouse's views made meanwhile: the first page of a fresh server waits for neither
(about a second over make demo's warehouse)."""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRELOADED = ("altair", "engine.rules.games", "dashboards.data", "dashboards.widgets",
             "dashboards.screens.game")  # fmt: skip


CACHE_LOGGER = "streamlit.runtime.caching.cache_data_api"
CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"
BACKGROUND = "scooplab-"  # the names of the threads dashboards.data starts (the views, the warm-up)


class _OwnThreads(logging.Filter):
    """Drops Streamlit's "missing ScriptRunContext" warnings of this process's own background threads:
    they call the cached functions outside any page's script run on purpose (to fill the cache)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.threadName or not record.threadName.startswith(BACKGROUND)


class _NoRuntimeYet(logging.Filter):
    """Drops "No runtime found, using MemoryCacheStorageManager": each ``st.cache_data`` function
    defined before the server runs has its parameters checked against a stand-in storage (its cache
    is made in the server's own storage when first called)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("No runtime found")


@contextmanager
def _before_the_runtime() -> Iterator[None]:
    """While the modules of ``PRELOADED`` are imported: no "No runtime found" warning (a real one later,
    of a runtime gone missing, still shows)."""
    quiet = _NoRuntimeYet()
    logger = logging.getLogger(CACHE_LOGGER)  # (Streamlit's loggers are these: filters stay on them)
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


def main() -> None:
    """``streamlit`` with this process's arguments, once the modules of ``PRELOADED`` are imported and
    while the warehouse's views are made (``dashboards.data.prepare_connection``)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    logging.getLogger(CONTEXT_LOGGER).addFilter(_OwnThreads())  # (this server's process only)
    with _before_the_runtime():
        for name in PRELOADED:
            importlib.import_module(name)
    from dashboards import data

    if os.path.isdir(data.data_path()):
        data.prepare_connection(data.data_path())
    from streamlit.web import cli

    sys.argv = ["streamlit", *sys.argv[1:]]
    cli.main()


if __name__ == "__main__":
    main()
