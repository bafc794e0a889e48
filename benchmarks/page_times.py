"""Page times in a real browser: how long each dashboard page takes to be whole in Chromium.

Serves ``--data`` (default ``data/warehouse``, what ``make demo`` fills) with ``scooplab dashboard`` on
a free port of 127.0.0.1, opens Debian's Chromium (Playwright, 1400x1000) and times, for every page
of the browser test (tests/test_dashboard.py's BROWSER_PAGES): from the navigation to the moment the
page's heading is shown and its script run has finished (Streamlit's own ``data-test-script-state``),
the page's every element delivered and drawn by the browser. Each page is opened ``--rounds`` times
in one browser session: the first visit is a fresh server's (cold caches), the later ones are what a
user browsing meets. Then the replayer's "Another random hand" is clicked ``--draws`` times, each
timed from the click to the new hand shown, and a hand of each kind (replayed, showdown mode, betting
mode) is typed into its hand-id box, timed from Enter to the hand shown. The peer in the same run is
the page without a browser or a server: an AppTest render of it in this process (its Python and
every query, caches warm); the ratio is the browser's time (after the first visit) over the peer's.

    python benchmarks/page_times.py [--data data/warehouse] [--rounds 3] [--draws 5] [--json out.json]

Exit code 1 when a page shows an exception or the server's log holds a traceback.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: this folder's own scripts (ingest.py) must not hide the packages

from tests.dashboard_server import dashboard_server, wait_for_script_run  # noqa: E402
from tests.test_dashboard import BROWSER_PAGES, CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

PAGE_LIMIT_MS = 600_000  # a safety bound only: a page that never finishes is reported, not waited on


def open_page(page, url: str, title: str) -> float:
    """Seconds from asking for ``url`` to its heading shown and its script run finished."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.get_by_role("heading", name=title).first.wait_for()
    wait_for_script_run(page)
    return time.perf_counter() - start


def draw_hand(page) -> float:
    """Seconds from a click on "Another random hand" to the new hand's id in the address."""
    before = page.url
    start = time.perf_counter()
    page.get_by_role("button", name="Another random hand").click()
    page.wait_for_function("(before) => window.location.href !== before", arg=before)
    wait_for_script_run(page)
    return time.perf_counter() - start


def look_up(page, hand_id: str) -> float:
    """Seconds from typing a hand's id into the replayer's box (and Enter) to that hand shown."""
    box = page.get_by_label("… or a hand id")
    box.fill(hand_id)
    start = time.perf_counter()
    box.press("Enter")
    page.wait_for_function(
        "id => new URLSearchParams(window.location.search).get('hand') === id", arg=hand_id
    )
    wait_for_script_run(page)
    return time.perf_counter() - start


def ids_to_look_up(data: Path) -> dict[str, str]:
    """A replayed hand's id and a simulated hand's id of each mode (the largest of each kind), by kind."""
    import duckdb

    con = duckdb.connect()
    try:
        found = con.sql(
            f"SELECT CASE WHEN source <> 'simulation' THEN 'replayed' WHEN phh IS NULL THEN 'showdown mode' "
            f"ELSE 'betting mode' END AS kind, max(hand_id) FROM read_parquet('{data}/hands/**/*.parquet', "
            "union_by_name = true, hive_partitioning = false) GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    return dict(found)


def render_seconds(data: Path, path: str) -> float:
    """Seconds of an AppTest render of a page in this process (its Python and queries, no browser,
    no server), after one render that warms the caches."""
    from engine.rules.games import GAMES
    from tests.test_dashboard import app

    page, _, query = path.partition("?")
    params = dict(item.split("=", 1) for item in query.split("&")) if query else None
    name = page.replace("_", "-")
    target = None if not page else name if name in GAMES else f"screens/{page}.py"
    app(data, target, params)
    start = time.perf_counter()
    app(data, target, params)
    return time.perf_counter() - start


def measure(data: Path, rounds: int, draws: int) -> dict:
    """Every page's browser times, the replayer's draws, and the pages' AppTest render times."""
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {path or "overview": [] for path, _ in BROWSER_PAGES}
    exceptions: list[str] = []
    with (
        tempfile.TemporaryDirectory() as scratch,
        dashboard_server(data, log=Path(scratch) / "server.log") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(PAGE_LIMIT_MS)
        for _ in range(rounds):
            for path, title in BROWSER_PAGES:
                times[path or "overview"].append(open_page(page, f"{server.url}/{path}", title))
                if page.locator("[data-testid='stException']").count():
                    exceptions.append(path or "overview")
        open_page(page, f"{server.url}/replayer", "Hand replayer")
        drawn = [draw_hand(page) for _ in range(draws)]
        looked_up = {kind: look_up(page, hand_id) for kind, hand_id in ids_to_look_up(data).items()}
        if page.get_by_text("No hand").count():
            exceptions.append("replayer: a hand looked up by its id was not found")
        browser.close()
        log = server.log.read_text(errors="replace")
    report = {"pages": times, "draws": drawn, "lookups": looked_up, "exceptions": exceptions,
              "tracebacks": log.count("Traceback")}  # fmt: skip
    print(table(report | {"rendered": {}}), flush=True)  # the browser's figures first, then the peer's
    report["rendered"] = {path or "overview": render_seconds(data, path) for path, _ in BROWSER_PAGES}
    return report


def table(report: dict) -> str:
    """The figures as a text table: first visit, median of the later ones, AppTest render, ratio."""
    lines = [f"{'page':<48} {'first s':>8} {'then s':>8} {'render s':>9} {'ratio':>6}"]
    for page, seconds in report["pages"].items():
        then = statistics.median(seconds[1:]) if len(seconds) > 1 else seconds[0]
        render = report["rendered"].get(page)
        peer = f"{render:>9.2f} {then / render:>6.2f}" if render else f"{'':>9} {'':>6}"
        lines.append(f"{page:<48} {seconds[0]:>8.2f} {then:>8.2f} {peer}")
    if report["draws"]:
        draws = report["draws"]
        median = statistics.median(draws)
        lines.append(f"replayer: another random hand, {len(draws)} clicks: median {median:.2f} s, "
                     f"slowest {max(draws):.2f} s")  # fmt: skip
    for kind, seconds in report.get("lookups", {}).items():
        lines.append(f"replayer: a {kind} hand typed into the hand-id box: {seconds:.2f} s")
    slowest = max(max(seconds[1:] or seconds) for seconds in report["pages"].values())
    lines.append(f"slowest page after its first visit: {slowest:.2f} s")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT / "data" / "warehouse")
    parser.add_argument("--rounds", type=int, default=3, help="visits of each page (the first is cold)")
    parser.add_argument("--draws", type=int, default=5, help="clicks on the replayer's random hand")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"page_times: {CHROMIUM} is missing (`make browser` installs Debian's chromium)")
    if not (args.data / "hands").is_dir():
        sys.exit(f"page_times: no warehouse at {args.data} (`make demo` fills data/warehouse)")
    started = time.perf_counter()
    report = measure(args.data, max(1, args.rounds), args.draws)
    print(f"page times in Chromium over {args.data} ({time.perf_counter() - started:.0f} s in all)")
    print(table(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if report["exceptions"] or report["tracebacks"]:
        print(f"exceptions on {report['exceptions']}; {report['tracebacks']} tracebacks in the server's log")
        sys.exit(1)


if __name__ == "__main__":
    main()
