"""The replayer's hand-id box over millions of hands (#52, item 1): a replayed, a betting-mode and a
showdown-mode hand typed in a real browser are each shown, while the server's memory and its
DuckDB temporary files stay under the connection limits it was given; the temporary folder is gone
once the server stops. The figures (each look-up's time, the peak memory and spill) are printed
and kept in the JUnit properties; only the limits are held (a slower machine takes longer, never
more memory). ``make soak`` runs it.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

import scooplab
from analytics import resources
from tests.dashboard_server import dashboard_server, group_members, wait_for_script_run
from tests.patience import BROWSER_WAIT_MS
from tests.test_dashboard import CHROMIUM, CHROMIUM_FLAGS

SIMULATED = 3_000_000  # showdown-mode hold'em hands
BETTING = 100_000  # betting-mode hands, also ingested back from their PHH as replayed hands
MEMORY = 1_000_000_000  # the server's connections' memory limit (SCOOPLAB_DUCKDB_MEMORY)
TEMP = 2_000_000_000  # and their spill cap (SCOOPLAB_DUCKDB_TEMP)
HEADROOM = 2_000_000_000  # the server beyond one connection's limit: Python, Streamlit, Arrow, results
SHOWN = "id => new URLSearchParams(window.location.search).get('hand') === id"


@pytest.fixture(scope="module")
def big_warehouse(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("millions")
    phh = tmp_path_factory.mktemp("phh") / "betting.phhs"
    with scooplab.open(folder) as lab:
        lab.simulate("holdem", SIMULATED, players=6, seed=7, run_id="showdown")
        lab.simulate("holdem", BETTING, players=6, seed=7, mode="betting", run_id="betting",
                     policies=["tag", "random", "station"])  # fmt: skip
        lab.export(phh, "phh", variant="holdem", run="betting")
        lab.ingest(phh, run_id="replayed")
        return folder


def _ids(folder: Path) -> dict[str, str]:
    with scooplab.open(folder) as lab:
        return {run: lab.sql(f"SELECT max(hand_id) FROM hands_raw WHERE run_id = '{run}'").fetchall()[0][0]
                for run in ("replayed", "betting", "showdown")}  # fmt: skip


class Watch:
    """The peak resident memory of a process group and the peak size of a folder, sampled."""

    def __init__(self, pid: int, folder: Path) -> None:
        self.pid, self.folder = pid, folder
        self.memory = self.spilled = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.memory = max(self.memory, sum(_resident(p) for p in group_members(self.pid)))
            self.spilled = max(self.spilled, _size(self.folder))


def _resident(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0


def _size(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*") if folder.exists() else ():
        with suppress(OSError):
            total += path.stat().st_size if path.is_file() else 0
    return total


@pytest.mark.soak
@pytest.mark.skipif(
    not shutil.which(CHROMIUM), reason="Debian's chromium is not installed (make soak installs it)"
)
def test_a_hand_typed_into_the_replayer_comes_within_the_limits(big_warehouse, tmp_path, monkeypatch,
                                                                  record_property):  # fmt: skip
    from playwright.sync_api import sync_playwright

    spill = tmp_path / "duckdb"
    monkeypatch.setenv(resources.FOLDER_VARIABLE, str(spill))
    monkeypatch.setenv(resources.MEMORY_VARIABLE, str(MEMORY) + "B")
    monkeypatch.setenv(resources.TEMP_VARIABLE, str(TEMP) + "B")
    ids = _ids(big_warehouse)
    seconds = {}
    with dashboard_server(big_warehouse, log=tmp_path / "server.log") as server:
        with Watch(server.pid, spill) as watch, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                                 timeout=BROWSER_WAIT_MS)  # fmt: skip
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(BROWSER_WAIT_MS)
            page.goto(f"{server.url}/replayer", wait_until="networkidle")
            wait_for_script_run(page)
            for run, hand_id in ids.items():
                box = page.get_by_label("… or a hand id")
                box.fill(hand_id)
                start = time.monotonic()
                box.press("Enter")
                page.wait_for_function(SHOWN, arg=hand_id)  # (the page puts the id in its address)
                wait_for_script_run(page)
                page.get_by_text(f"run {run}").first.wait_for()
                seconds[run] = time.monotonic() - start
                assert page.locator("[data-testid='stException']").count() == 0, run
                assert page.get_by_text("No hand").count() == 0, run
            browser.close()
        peak_memory, peak_spill = watch.memory, watch.spilled
        assert spill.exists()
    print(
        f"hand look-ups (s): {seconds}; server peak {peak_memory / 1e9:.2f} GB, "
        f"spill {peak_spill / 1e9:.3f} GB"
    )
    for run, taken in seconds.items():
        record_property(f"lookup_{run}_seconds", round(taken, 3))
    record_property("server_peak_memory_bytes", peak_memory)
    record_property("server_peak_spill_bytes", peak_spill)
    assert peak_memory < MEMORY + HEADROOM
    assert peak_spill <= TEMP
    assert not group_members(server.pid)
    left = list(Path(spill, f"scooplab-duckdb-{os.getuid()}").iterdir())
    assert not left, f"the server's DuckDB temporary folder outlived it: {left}"
