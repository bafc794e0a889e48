"""``scooplab dashboard``: the Streamlit dashboard (``dashboards/``) served over a warehouse."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from scooplab.cli.options import DEFAULT_DATA, DataFolder


def dashboard_command(
    data: DataFolder = DEFAULT_DATA,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to serve on.")] = 8501,
    host: Annotated[str, typer.Option("--host", help="Address to serve on.")] = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help="Open a browser tab.")] = False,
    max_hands: Annotated[
        int, typer.Option("--max-hands", min=1, help="Hands per run started from a page.")
    ] = 20_000_000,
    max_jobs: Annotated[int, typer.Option("--max-jobs", min=1, help="Runs started from pages at once.")] = 2,
    max_minutes: Annotated[
        int,
        typer.Option(
            "--max-minutes",
            min=1,
            help="Minutes of work per run started from a page (at a cautious rate; more is refused).",
        ),
    ] = 60,
) -> None:
    """Serve the Streamlit dashboard over a warehouse (on 127.0.0.1 unless told otherwise). Runs
    and tables started from its pages go on in processes of their own, within the limits set here.

    Examples:

    * `scooplab dashboard`
    * `scooplab dashboard --data /tmp/warehouse --port 8600`
    """
    import os

    dashboards = Path(__file__).resolve().parents[2] / "dashboards"
    app_file = dashboards / "app.py"
    environment = dict(os.environ, SCOOPLAB_DATA=str(data), SCOOPLAB_MAX_HANDS=str(max_hands),
                       SCOOPLAB_MAX_JOBS=str(max_jobs), SCOOPLAB_MAX_MINUTES=str(max_minutes))  # fmt: skip
    typer.echo(f"scooplab dashboard: http://{host}:{port} (warehouse {data}); Ctrl-C stops it", err=True)
    command = [  # `streamlit run`, once the pages' modules are loaded (dashboards/serve.py)
        sys.executable, str(dashboards / "serve.py"), "run", str(app_file), "--server.port", str(port),
        "--server.address", host, "--server.headless", "true" if not open_browser else "false",
        "--browser.gatherUsageStats", "false", "--theme.base", "light", "--client.toolbarMode", "viewer",
        # under many sessions (docs/reliability.md): no scan of every module for each new session, no
        # full garbage collection holding the lock of every session after each page
        "--server.fileWatcherType", "none", "--runner.postScriptGC", "false",
    ]  # fmt: skip
    # the server replaces this process: one process to stop, and nothing left behind when it is
    os.execve(sys.executable, command, environment)
