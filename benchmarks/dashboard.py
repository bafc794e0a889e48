"""Dashboard speed: how long each page takes to render over a large warehouse.

Renders every page with Streamlit's AppTest (the page's Python and every query it runs,
without a browser) against ``--data`` (default: simulate 10 M hands of every game into a
temporary warehouse first), twice: a first render and one with warm caches.

    python benchmarks/dashboard.py [--hands 10000000] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAGES = [
    "overview",
    "scarney",
    "cry_me_a_river",
    "skoejarth",
    "holdem",
    "players",
    "replayer",
    "compare",
    "sql",
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or Path(scratch)
        if args.data is None:
            for game in ("scarney", "cry-me-a-river", "skoejarth", "holdem"):
                command = [sys.executable, "-m", "scooplab.cli", "simulate", "--variant", game,
                           "--hands", str(args.hands), "--seed", "1", "--data", str(data),
                           "--run-id", f"bench-{game}"]  # fmt: skip
                subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
        os.environ["SCOOPLAB_DATA"] = str(data)
        from streamlit.testing.v1 import AppTest

        test = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=600)
        test.run()
        for page in PAGES:
            times = []
            for _ in range(2):
                start = time.perf_counter()
                test.switch_page(f"screens/{page}.py").run()
                times.append(time.perf_counter() - start)
            failed = " (exception!)" if test.exception else ""
            print(f"  {page:<15} first {times[0]:.2f} s, cached {times[1]:.2f} s{failed}")


if __name__ == "__main__":
    main()
