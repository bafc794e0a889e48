"""Simulation speed and memory, end to end into Parquet (every table written).

Runs ``scooplab simulate`` as a fresh process for each game in showdown mode
(6 players) with 1 and with 2 workers, then betting mode, into a temporary
warehouse, and prints hands per second of the whole process (start-up included, the
wall time around it), the rate the command reports for its own run, the ratio of two
workers to one, and each process's own peak resident memory. The compute-only limit
is in ``benchmarks/against_kernel.py``.

    python benchmarks/simulate.py [--hands 4000000] [--betting-hands 200000] [--memory-hands 0]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = tuple(
    sorted(path.stem for path in (ROOT / "engine" / "variants").glob("*.toml"))
)  # every built-in game
sys.path.insert(0, str(ROOT))
from engine.rules.games import GAMES as GAMES_SPECS  # noqa: E402


def run(args: list[str]) -> tuple[dict, float, float]:
    """Run one simulation in a new process: its summary, its wall seconds, and the peak RSS (MB)
    of the largest of its processes (itself, or a worker it waited for)."""
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
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"failed: {' '.join(command)}")
    return json.loads(out), seconds, usage.ru_maxrss / 1024


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
    betting = [game for game in args.games if not GAMES_SPECS[game].betting_gaps]
    for game in args.games:  # warm the numba cache so compile time is not measured
        run(["--variant", game, "--hands", "1000", "--workers", "1", "--seed", "1"])
        if game in betting:
            run(["--variant", game, "--mode", "betting", "--hands", "200", "--workers", "1", "--seed", "1"])
    print(f"showdown mode, 6 players, {args.hands:,} hands, end to end into Parquet")
    for game in args.games:
        whole = {}
        for workers in (1, 2):
            summary, seconds, peak = run(
                ["--variant", game, "--hands", str(args.hands), "--workers", str(workers), "--seed", "1"]
            )
            whole[workers] = args.hands / seconds
            ratio = f", {whole[2] / whole[1]:.2f}x one worker" if workers == 2 else ""
            print(
                f"  {game:<21} {workers} worker(s): {whole[workers]:>12,.0f} hands/s whole process "
                f"({seconds:.2f} s; the run itself {summary['hands_per_second']:,}/s){ratio}; "
                f"peak RSS {peak:,.0f} MB"
            )
    print(f"betting mode, 6 players (tag, random, station), {args.betting_hands:,} hands, 1 worker")
    for game in sorted(set(args.games) - set(betting)):
        print(f"  {game:<21} not simulated in betting mode yet: {', '.join(GAMES_SPECS[game].betting_gaps)}")
    for game in betting:
        summary, seconds, _ = run(
            ["--variant", game, "--mode", "betting", "--hands", str(args.betting_hands), "--workers", "1",
             "--seed", "1", "--policy", "tag", "--policy", "random", "--policy", "station"]
        )  # fmt: skip
        print(f"  {game:<21} {args.betting_hands / seconds:>12,.0f} hands/s whole process "
              f"(the run itself {summary['hands_per_second']:,}/s)")  # fmt: skip
    if args.memory_hands:
        summary, _, peak = run(
            ["--variant", "scarney", "--hands", str(args.memory_hands), "--workers", "2", "--seed", "1"]
        )
        print(
            f"memory: {args.memory_hands:,} Scarney hands, 2 workers: "
            f"{summary['hands_per_second']:,} hands/s, "
            f"peak RSS of the largest process {peak:,.0f} MB"
        )


if __name__ == "__main__":
    main()
