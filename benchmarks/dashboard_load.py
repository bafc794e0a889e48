"""The dashboard under load: N sessions at once browse its pages for S seconds, on loopback.

Each session is a websocket client of the server's own protocol, the one the browser speaks
(``/_stcore/stream``, Streamlit's protobuf messages): it asks for a page as the browser does on
navigation (a ``rerun_script`` BackMsg with the page's URL path and query string), reads the
ForwardMsgs until ``script_finished``, and asks for another. The sessions all start at once, each
on a page of its own, then draw pages at random (seeded), so pages come back within a session as
they do when someone browses. A page load is an error when it shows an exception element or an
``st.error``, the server says page not found, the page's heading is missing, the script does not
finish successfully, the connection drops, or it takes longer than ``--page-timeout``.

Page time: from the request to ``script_finished``, i.e. the server's whole run of the page with
every element delivered (the browser's drawing is not included). Before the load one session
visits each page once (the warm-up, cold caches, reported apart); after it a fresh session visits
each page once more (the server still answers). Server memory: the kernel's high-water mark of
the server process, and the largest sum of resident memory over its process group sampled every
0.25 s. The server's log is searched for tracebacks.

    python benchmarks/dashboard_load.py --data WAREHOUSE [--sessions 20] [--seconds 60] [--json out.json]
    python benchmarks/dashboard_load.py --url http://127.0.0.1:8501 ...   (a server already running)

Pages: those of tests/test_dashboard.py's BROWSER_PAGES (with their queries and headings), and any
other page the app's navigation lists (by its title). Traffic goes to the given address only.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import random
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: this folder's own scripts (ingest.py) must not hide the packages

from streamlit.proto.Alert_pb2 import Alert  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402

PAGE_TIMEOUT = 120.0  # seconds a page may take before it counts as an error
CONNECT_TIMEOUT = 30.0
SWEEP_BUDGET = 900.0  # seconds for one session to load every page once: ~30 s here, a safety bound


@dataclass(frozen=True)
class Page:
    """A page to load: its address below the server (URL path and query) and its heading."""

    address: str
    title: str

    @property
    def name(self) -> str:
        """The URL path: the page's ``url_pathname`` ("" is the default page)."""
        return self.address.partition("?")[0]

    @property
    def query(self) -> str:
        return self.address.partition("?")[2]

    @property
    def label(self) -> str:
        return self.name or "overview"


@dataclass(frozen=True)
class Visit:
    """One page load: which session, which page, when (seconds since the phase began), how long."""

    session: int
    page: str
    started: float
    seconds: float
    error: str | None = None


@dataclass
class LoadReport:
    """What a load run measured (``summary`` and ``table`` tell it)."""

    url: str
    sessions: int
    seconds: float
    pages: list[Page]
    warmup: list[Visit] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    after: list[Visit] = field(default_factory=list)
    wall_seconds: float = 0.0  # of the load phase: until the last page load in flight finished
    server_cpu_seconds: float | None = None  # during the load phase
    client_cpu_seconds: float = 0.0  # this process, during the load phase
    peak_rss: int | None = None  # bytes: the server process's high-water mark
    peak_group_rss: int | None = None  # bytes: the largest sampled sum over its process group
    load_average: tuple[float, float] = (0.0, 0.0)  # the machine's 1-minute load, before and after
    server_tracebacks: list[str] = field(default_factory=list)  # from the server's log, if it has one

    def errors(self) -> list[Visit]:
        """Every failed page load: warm-up, load and the check after."""
        return [v for v in (*self.warmup, *self.visits, *self.after) if v.error]

    def per_session(self) -> dict[int, int]:
        """Successful page loads of each session under load (every session, even with none)."""
        counts = dict.fromkeys(range(self.sessions), 0)
        for visit in self.visits:
            if visit.session in counts:
                counts[visit.session] += visit.error is None
        return counts

    def stats(self) -> dict[str, dict[str, float]]:
        """Per page and ``all``: loads, errors, p50, p95 and max page time (s) under load."""
        groups: dict[str, list[Visit]] = defaultdict(list)
        for visit in self.visits:
            groups[visit.page].append(visit)
        order = [p.label for p in self.pages]
        table = {page: _figures(groups[page]) for page in order if page in groups}
        table["all"] = _figures(self.visits)
        return table

    def summary(self) -> dict[str, Any]:
        """The figures as plain data (for ``--json`` and the test's record)."""
        sessions = self.per_session()
        return {
            "url": self.url, "sessions": self.sessions, "seconds": self.seconds,
            "wall_seconds": round(self.wall_seconds, 2), "stats": self.stats(),
            "warmup": {v.page: round(v.seconds, 3) for v in self.warmup},
            "loads_per_session": [min(sessions.values(), default=0), max(sessions.values(), default=0)],
            "errors": [asdict(v) for v in self.errors()],
            "server_cpu_seconds": self.server_cpu_seconds, "client_cpu_seconds": self.client_cpu_seconds,
            "peak_rss_mb": _mb(self.peak_rss), "peak_group_rss_mb": _mb(self.peak_group_rss),
            "load_average": self.load_average, "cores": os.cpu_count(),
            "server_tracebacks": self.server_tracebacks,
            "visits": [[v.session, v.page, round(v.started, 3), round(v.seconds, 3), v.error]
                       for v in self.visits],  # session, page, start and page time (s), error
        }  # fmt: skip

    def table(self) -> str:
        """The report as text."""
        lines = [f"dashboard load: {self.sessions} sessions for {self.seconds:.0f} s at {self.url} "
                 f"({os.cpu_count()} cores; load average {self.load_average[0]:.1f} before, "
                 f"{self.load_average[1]:.1f} after)"]  # fmt: skip
        if self.warmup:
            cold = ", ".join(f"{v.page} {v.seconds:.1f}" for v in self.warmup)
            lines.append(f"warm-up, one session, each page once (s): {cold}")
        lines.append(f"  {'page':<20} {'loads':>6} {'errors':>6} {'p50 s':>7} {'p95 s':>7} {'max s':>7}")
        for page, f in self.stats().items():
            lines.append(f"  {page:<20} {f['loads']:>6.0f} {f['errors']:>6.0f} {f['p50']:>7.2f} "
                         f"{f['p95']:>7.2f} {f['max']:>7.2f}")  # fmt: skip
        sessions = self.per_session()
        lines.append(f"load phase {self.wall_seconds:.1f} s; page loads per session "
                     f"{min(sessions.values())} to {max(sessions.values())}")  # fmt: skip
        if self.server_cpu_seconds is not None:
            server, client = (
                cpu / self.wall_seconds for cpu in (self.server_cpu_seconds, self.client_cpu_seconds)
            )
            lines.append(f"server CPU {server:.2f} cores, load client CPU {client:.2f} cores")
        if self.peak_rss is not None:
            lines.append(f"server peak RSS {_mb(self.peak_rss):.0f} MB (high-water mark of the server "
                         f"process; {_mb(self.peak_group_rss):.0f} MB sampled over its group)")  # fmt: skip
        after = [v for v in self.after if v.error is None]
        lines.append(f"after the load: a fresh session loaded {len(after)} of {len(self.pages)} pages")
        errors = self.errors()
        lines.append(f"errors: {len(errors)}")
        lines += [f"  session {v.session} {v.page} at {v.started:.1f} s: {v.error}" for v in errors[:10]]
        if self.server_tracebacks:
            lines.append(f"tracebacks in the server's log: {len(self.server_tracebacks)}")
            lines += [f"  {t.splitlines()[-1]}" for t in self.server_tracebacks[:5]]
        return "\n".join(lines)


def _mb(size: int | None) -> float | None:
    return None if size is None else round(size / 2**20, 1)


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile by nearest rank (0 for no values).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile(list(range(1, 101)), 95)
    (2.0, 95)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def _figures(visits: list[Visit]) -> dict[str, float]:
    times = [v.seconds for v in visits if v.error is None]
    errors = sum(v.error is not None for v in visits)
    return {"loads": len(visits), "errors": errors, "p50": percentile(times, 50),
            "p95": percentile(times, 95), "max": max(times, default=0.0)}  # fmt: skip


def _stream(url: str) -> str:
    return url.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/") + "/_stcore/stream"


def _session(url: str) -> Any:
    """A new websocket session (no pings from this side: browsers send none either)."""
    return connect(_stream(url), subprotocols=["streamlit"], max_size=None, ping_interval=None,
                   open_timeout=CONNECT_TIMEOUT, close_timeout=5)  # fmt: skip


class PageError(Exception):
    """A page load that leaves the session unusable (a timeout, a dropped connection)."""


async def load_page(ws: ClientConnection, page: Page, timeout: float = PAGE_TIMEOUT
                    ) -> tuple[float, str | None, list[tuple[str, str]]]:  # fmt: skip
    """Load ``page`` in the session ``ws``: its time, what went wrong on it (or None), and the
    pages the app's navigation lists (URL path, title). Raises ``PageError`` when the session is
    left in an unknown state."""
    request = BackMsg()
    request.rerun_script.page_name = page.name
    request.rerun_script.query_string = page.query
    problems: list[str] = []
    headings: list[str] = []
    navigation: list[tuple[str, str]] = []
    start = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            await ws.send(request.SerializeToString())
            while True:
                message = ForwardMsg.FromString(await ws.recv())
                kind = message.WhichOneof("type")
                if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                    element = message.delta.new_element
                    shown = element.WhichOneof("type")
                    if shown == "exception":
                        trace = "".join(element.exception.stack_trace[-3:])
                        problems.append(f"exception {element.exception.type}: {element.exception.message} "
                                        f"{trace}".strip())  # fmt: skip
                    elif shown == "alert" and element.alert.format == Alert.ERROR:
                        problems.append(f"st.error: {element.alert.body}")
                    elif shown == "heading":
                        headings.append(element.heading.body)
                elif kind == "navigation":
                    navigation = [(p.url_pathname, p.page_name) for p in message.navigation.app_pages]
                elif kind == "page_not_found":
                    problems.append("page not found")
                elif kind == "session_event" and message.session_event.HasField(
                    "script_compilation_exception"
                ):
                    problems.append(
                        f"script did not compile: {message.session_event.script_compilation_exception}"
                    )
                elif kind == "script_finished":
                    if message.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                        problems.append(f"script finished with status {message.script_finished}")
                    break
    except TimeoutError:
        raise PageError(f"no script_finished within {timeout:.0f} s") from None
    except (OSError, WebSocketException) as error:
        raise PageError(f"connection lost: {type(error).__name__}: {error}") from None
    seconds = time.perf_counter() - start
    if page.title not in headings:
        problems.append(f"no heading {page.title!r} (headings: {headings[:3]})")
    return seconds, "; ".join(problems) or None, navigation


async def sweep(url: str, pages: list[Page], timeout: float = PAGE_TIMEOUT, budget: float = SWEEP_BUDGET
                ) -> list[Visit]:  # fmt: skip
    """One fresh session loads each page once, in order (session number -1), within ``budget`` s."""
    visits: list[Visit] = []
    start = time.perf_counter()
    try:
        async with asyncio.timeout(budget), _session(url) as ws:
            for page in pages:
                began = time.perf_counter() - start
                try:
                    seconds, error, _ = await load_page(ws, page, timeout)
                except PageError as failure:
                    visits.append(
                        Visit(-1, page.label, began, time.perf_counter() - start - began, str(failure))
                    )
                    break
                visits.append(Visit(-1, page.label, began, seconds, error))
    except TimeoutError:
        visits.append(
            Visit(-1, "(sweep)", 0.0, time.perf_counter() - start, f"not done within {budget:.0f} s")
        )
    except (OSError, WebSocketException) as error:
        visits.append(Visit(-1, "(connect)", 0.0, time.perf_counter() - start, f"cannot connect: {error!r}"))
    return visits


async def navigation_pages(url: str) -> list[tuple[str, str]]:
    """The pages the app's navigation lists: (URL path, title); none if the server does not say
    (the sweeps that follow count the failure)."""
    try:
        async with _session(url) as ws:
            return (await load_page(ws, Page("", ""), PAGE_TIMEOUT))[2]
    except (PageError, OSError, WebSocketException, TimeoutError):
        return []


def every_page(listed: list[tuple[str, str]], navigation: list[tuple[str, str]]) -> list[Page]:
    """The ``listed`` pages (address, heading), then the navigation's pages not among them."""
    pages = [Page(address, title) for address, title in listed]
    known = {p.name for p in pages}
    return pages + [Page(name, title) for name, title in navigation if name not in known]


async def _one_session(url: str, index: int, pages: list[Page], start: float, deadline: float,
                       timeout: float, visits: list[Visit]) -> None:  # fmt: skip
    """Session ``index``: page ``index`` first (sessions start apart), then pages drawn at random
    (seeded by ``index``: pages come back, as when someone browses) until ``deadline`` (monotonic);
    a timeout or a dropped connection is counted and the session reconnects."""
    draw = random.Random(index)
    order = (pages[index % len(pages)] if k == 0 else draw.choice(pages) for k in itertools.count())
    while time.monotonic() < deadline:
        began = time.monotonic()
        try:
            async with _session(url) as ws:
                while time.monotonic() < deadline:
                    page = next(order)
                    began = time.monotonic()
                    try:
                        seconds, error, _ = await load_page(ws, page, timeout)
                    except PageError as failure:
                        visits.append(Visit(index, page.label, began - start, time.monotonic() - began,
                                            str(failure)))  # fmt: skip
                        break
                    visits.append(Visit(index, page.label, began - start, seconds, error))
        except (OSError, WebSocketException, TimeoutError) as error:
            visits.append(Visit(index, "(connect)", began - start, time.monotonic() - began,
                                f"cannot connect: {error!r}"))  # fmt: skip
            await asyncio.sleep(1.0)


async def load(url: str, pages: list[Page], sessions: int, seconds: float,
               timeout: float = PAGE_TIMEOUT) -> tuple[list[Visit], float]:  # fmt: skip
    """``sessions`` sessions at once, each cycling through ``pages`` for ``seconds`` (no page is
    asked for after that; those in flight finish, within ``timeout``): every page load, and the
    wall time until the last one finished."""
    visits: list[Visit] = []
    start = time.monotonic()
    deadline = start + seconds
    try:
        async with asyncio.timeout(
            seconds + timeout + CONNECT_TIMEOUT + 30
        ):  # a hard bound, whatever happens
            await asyncio.gather(
                *(_one_session(url, i, pages, start, deadline, timeout, visits) for i in range(sessions))
            )
    except TimeoutError:
        visits.append(
            Visit(-1, "(load)", seconds, time.monotonic() - start, "the load outlived its hard bound")
        )
    return visits, time.monotonic() - start


class MemoryWatch:
    """Samples the resident memory of a process group every ``interval`` seconds, in a thread."""

    def __init__(self, pgid: int, interval: float = 0.25) -> None:
        self.pgid, self.interval, self.peak = pgid, interval, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, sum(status_kb(pid, "VmRSS") for pid in _group(self.pgid)) * 1024)
            self._stop.wait(self.interval)


def _group(pgid: int) -> list[int]:
    from tests.dashboard_server import group_members

    return group_members(pgid)


def status_kb(pid: int, key: str) -> int:
    """A ``kB`` figure of /proc/PID/status (``VmRSS``, ``VmHWM``), 0 if the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (its threads included)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tracebacks(log: Path) -> list[str]:
    """Every Python traceback in a log: from ``Traceback`` to its first unindented line."""
    found, current = [], None
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("Traceback (most recent call last)"):
            current = [line]
        elif current is not None:
            current.append(line)
            if line and not line.startswith(" "):
                found.append("\n".join(current))
                current = None
    return found + (["\n".join(current)] if current else [])


def run(url: str, listed: list[tuple[str, str]], sessions: int = 20, seconds: float = 60.0,
        pid: int | None = None, log: Path | None = None, warmup: bool = True,
        timeout: float = PAGE_TIMEOUT) -> LoadReport:  # fmt: skip
    """Warm-up, load and the check after against the server at ``url`` (``pid``: its process, for
    memory and CPU; ``log``: its output, searched for tracebacks)."""
    pages = every_page(listed, asyncio.run(navigation_pages(url)))
    report = LoadReport(url, sessions, seconds, pages)
    before = os.getloadavg()[0]
    with MemoryWatch(pid) if pid else nullcontext() as watch:
        if warmup:
            report.warmup = asyncio.run(sweep(url, pages, timeout))
        server_cpu = cpu_seconds(pid) if pid else 0.0
        client_cpu = time.process_time()
        report.visits, report.wall_seconds = asyncio.run(load(url, pages, sessions, seconds, timeout))
        report.client_cpu_seconds = time.process_time() - client_cpu
        if pid:
            report.server_cpu_seconds = cpu_seconds(pid) - server_cpu
        report.after = asyncio.run(sweep(url, pages, timeout))
        if pid:
            report.peak_rss = status_kb(pid, "VmHWM") * 1024
    if watch:
        report.peak_group_rss = watch.peak
    report.load_average = (before, os.getloadavg()[0])
    if log and log.exists():
        report.server_tracebacks = tracebacks(log)
    return report


def listed_pages() -> list[tuple[str, str]]:
    """The pages tests/test_dashboard.py drives a browser through: (address, heading)."""
    import streamlit.logger

    streamlit.logger.set_log_level("error")  # importing the dashboard's data module outside a server warns
    from tests.test_dashboard import BROWSER_PAGES

    return list(BROWSER_PAGES)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--data", type=Path, help="a warehouse: serve it on a free port of 127.0.0.1")
    where.add_argument(
        "--url", help="a dashboard already running on this machine, e.g. http://127.0.0.1:8501"
    )
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--page-timeout", type=float, default=PAGE_TIMEOUT)
    parser.add_argument("--no-warmup", action="store_true", help="start the load on cold caches")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--url: a dashboard on this machine (http://127.0.0.1:PORT)")
    from tests.dashboard_server import dashboard_server

    listed = listed_pages()
    options = {"sessions": args.sessions, "seconds": args.seconds, "warmup": not args.no_warmup,
               "timeout": args.page_timeout}  # fmt: skip
    if args.url:
        report = run(args.url, listed, **options)
    else:
        with (
            tempfile.TemporaryDirectory() as scratch,
            dashboard_server(args.data, Path(scratch) / "log") as s,
        ):
            report = run(s.url, listed, pid=s.pid, log=s.log, **options)
    print(report.table())
    if args.json:
        args.json.write_text(json.dumps(report.summary(), indent=2))
    sys.exit(1 if report.errors() or report.server_tracebacks else 0)


if __name__ == "__main__":
    main()
