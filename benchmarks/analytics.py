"""Statistics speed: ``scooplab stats`` for one game over 10 M simulated hands, and its memory.

Simulates the hands into a temporary warehouse unless ``--data`` names one that has
them, then runs ``scooplab stats`` as a fresh process (start-up included) a few
times and prints the best wall time and the peak resident memory.

    python benchmarks/analytics.py [--hands 10000000] [--games scarney holdem] [--data DIR]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "scooplab.cli", *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--games", nargs="+", default=["scarney", "cry-me-a-river", "skoejarth", "holdem"])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or Path(scratch)
        for game in args.games:
            if args.data is None:
                cli("simulate", "--variant", game, "--hands", str(args.hands), "--seed", "1",
                    "--data", str(data), "--run-id", f"bench-{game}")  # fmt: skip
            cli("stats", "--variant", game, "--data", str(data))  # warm the caches
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                cli("stats", "--variant", game, "--data", str(data), "--format", "json")
                best = min(best, time.perf_counter() - start)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print(f"scooplab stats --variant {game:<15} {args.hands:,} hands: {best:.2f} s "
                  f"(best of {args.repeat}, start-up included); peak RSS so far {peak:,.0f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
