"""Simulation speed and memory, end to end into Parquet (every table written).

Runs ``scooplab simulate`` as a fresh process for each game in showdown mode
(6 players) with 1 and with 2 workers, then betting mode, into a temporary
warehouse, and prints hands per second and the peak resident memory of the
largest process (the main process or one worker).

    python benchmarks/simulate.py [--hands 4000000] [--betting-hands 200000] [--memory-hands 0]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = tuple(
    sorted(path.stem for path in (ROOT / "engine" / "variants").glob("*.toml"))
)  # every built-in game


def run(args: list[str]) -> tuple[dict, float]:
    """Run one simulation in a new process; its summary and the peak RSS of its processes (MB)."""
    with tempfile.TemporaryDirectory() as data:
        command = [
            sys.executable,
            "-m",
            "scooplab.cli",
            "simulate",
            *args,
            "--data",
            data,
            "--format",
            "json",
        ]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return json.loads(result.stdout), peak_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--betting-hands", type=int, default=200_000)
    parser.add_argument(
        "--memory-hands", type=int, default=0, help="also run this many hold'em hands for memory"
    )
    parser.add_argument("--games", nargs="+", default=list(GAMES), help="the games (default: every built-in)")
    args = parser.parse_args()
    for game in args.games:  # warm the numba cache so compile time is not measured
        run(["--variant", game, "--hands", "1000", "--workers", "1", "--seed", "1"])
        run(["--variant", game, "--mode", "betting", "--hands", "200", "--workers", "1", "--seed", "1"])
    print(f"showdown mode, 6 players, {args.hands:,} hands, end to end into Parquet")
    for game in args.games:
        for workers in (1, 2):
            summary, peak = run(
                ["--variant", game, "--hands", str(args.hands), "--workers", str(workers), "--seed", "1"]
            )
            print(
                f"  {game:<21} {workers} worker(s): {summary['hands_per_second']:>12,} hands/s"
                f"   ({summary['seconds']:.2f} s, peak RSS so far {peak:,.0f} MB)"
            )
    print(f"betting mode, 6 players (tag, random, station), {args.betting_hands:,} hands, 1 worker")
    for game in args.games:
        summary, _ = run(
            ["--variant", game, "--mode", "betting", "--hands", str(args.betting_hands), "--workers", "1",
             "--seed", "1", "--policy", "tag", "--policy", "random", "--policy", "station"]
        )  # fmt: skip
        print(f"  {game:<21} {summary['hands_per_second']:>12,} hands/s")
    if args.memory_hands:
        summary, peak = run(
            ["--variant", "scarney", "--hands", str(args.memory_hands), "--workers", "2", "--seed", "1"]
        )
        print(
            f"memory: {args.memory_hands:,} Scarney hands, 2 workers: "
            f"{summary['hands_per_second']:,} hands/s, "
            f"peak RSS of the largest process {peak:,.0f} MB"
        )


if __name__ == "__main__":
    main()
