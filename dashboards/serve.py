"""The dashboard's server process (``scooplab dashboard`` runs ``python dashboards/serve.py run
dashboards/app.py ...``): Streamlit's own command, after the modules every page needs are imported,
and with the warehouse's views made meanwhile: the first page of a fresh server waits for neither
(about a second over make demo's warehouse)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRELOADED = ("altair", "engine.rules.games", "dashboards.data", "dashboards.widgets",
             "dashboards.screens.game")  # fmt: skip


def main() -> None:
    """``streamlit`` with this process's arguments, once the modules of ``PRELOADED`` are imported and
    while the warehouse's views are made (``dashboards.data.prepare_connection``)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
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
