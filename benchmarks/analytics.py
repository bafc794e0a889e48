"""Statistics speed: ``scooplab stats`` for one game over many simulated hands, cold and warm, and its memory.

Simulates the hands into a temporary warehouse unless ``--data`` names one that has them, then
runs ``scooplab stats`` as fresh processes (start-up included): once cold (the operating
system's file cache dropped first when this user may, which the line says) and ``--repeat``
times warm, printing the median, and each process's own peak resident memory. The peer in the
same run: a fresh process of plain DuckDB counting the same hands files. #16's target over
100 M hands of one game: under 1 s warm, under 2 s cold.

    python benchmarks/analytics.py [--hands 10000000] [--games scarney holdem] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import measure  # beside this script

ROOT = Path(__file__).resolve().parents[1]
DUCKDB_COUNT = """
import sys, duckdb
files = f"{sys.argv[1]}/hands/variant={sys.argv[2]}/**/*.parquet"
print(duckdb.sql(f"select count(*) from read_parquet('{files}')").fetchall()[0][0])
"""


def measured(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one fresh process (it must succeed)."""
    try:
        seconds, peak, _ = measure.measured(command)
    except subprocess.CalledProcessError:
        raise SystemExit(f"failed: {' '.join(command)}") from None
    return seconds, peak


def drop_file_cache() -> bool:
    """Drop the operating system's file cache, when this user may."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
    except OSError:
        return False
    return True


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "scooplab.cli", *args]


def bench(game: str, data: Path, hands: int, repeat: int) -> None:
    stats = cli("stats", "--variant", game, "--data", str(data), "--format", "json")
    dropped = drop_file_cache()
    cold, cold_mb = measured(stats)
    warm = [measured(stats) for _ in range(repeat)]
    seconds = statistics.median(s for s, _ in warm)
    count = [sys.executable, "-c", DUCKDB_COUNT, str(data), game]
    peer = statistics.median(measured(count)[0] for _ in range(repeat))
    print(f"scooplab stats --variant {game} over {hands:,} hands, whole process:")
    cache = "file cache dropped" if dropped else "file cache NOT dropped: not allowed"
    print(f"  cold {cold:.2f} s ({cache}), "
          f"peak {cold_mb:,.0f} MB  (target < 2 s: {'met' if cold < 2 else 'NOT met'})")  # fmt: skip
    print(f"  warm {seconds:.2f} s (median of {repeat}), peak {max(mb for _, mb in warm):,.0f} MB  "
          f"(target < 1 s: {'met' if seconds < 1 else 'NOT met'})")  # fmt: skip
    print(f"  peer, plain DuckDB counting the hands files (fresh process): {peer:.2f} s; "
          f"stats takes {seconds / peer:.1f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--games", nargs="+", default=["scarney", "cry-me-a-river", "skoejarth", "holdem"])
    parser.add_argument("--data", type=Path, help="a warehouse that already holds the games' hands")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or Path(scratch)
        for game in args.games:
            if args.data is None:
                subprocess.run(cli("simulate", "--variant", game, "--hands", str(args.hands), "--seed", "1",
                                   "--data", str(data), "--run-id", f"bench-{game}"),
                               cwd=ROOT, check=True, stdout=subprocess.DEVNULL)  # fmt: skip
            bench(game, data, args.hands, args.repeat)


if __name__ == "__main__":
    main()
