"""This tree against an earlier commit, whole processes in one run: simulation (both modes) and ingest.

Each measurement is a fresh ``python -m scooplab.cli ...`` process timed from start to
exit (start-up, compile cache load, work, Parquet written), run alternately in the two
trees; the median of ``--repeat`` runs is printed for both, with the ratio (above 1: this
tree is faster). The earlier tree is exported with ``git archive`` into a temporary
folder and runs with the same interpreter; each tree keeps its own numba cache, warmed by
a first untimed run.

    python benchmarks/against_baseline.py --rev 4981a99 [--hands 2000000] [--betting-hands 100000]
        [--games holdem,omaha,razz]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("holdem", "cry-me-a-river", "scarney", "skoejarth")
PLURIBUS = ROOT.parent / "shared" / "data" / "phh" / "pluribus.tar.gz"


def timed(tree: Path, args: list[str]) -> float:
    """Wall-clock seconds of one scooplab process run in ``tree`` into a fresh warehouse."""
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, "-m", "scooplab.cli", *args, "--data", data]
        start = time.perf_counter()
        subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True)
        return time.perf_counter() - start


def compare(label: str, trees: dict[str, Path], args: list[str], repeat: int, hands: int) -> None:
    """Time ``args`` alternately in both trees; print medians, hands per second and the ratio."""
    for tree in trees.values():
        timed(tree, args)  # compile or load the cache, untimed
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(repeat):
        for name, tree in trees.items():
            times[name].append(timed(tree, args))
    median = {name: statistics.median(values) for name, values in times.items()}
    rates = "  ".join(
        f"{name} {hands / median[name]:>11,.0f} hands/s ({median[name]:.2f} s)" for name in trees
    )
    names = list(trees)
    print(f"  {label:<34} {rates}  ratio {median[names[1]] / median[names[0]]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rev", required=True, help="the earlier commit, e.g. the last one before a change")
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--betting-hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("showdown", "betting", "ingest"), help="measure one thing only")
    parser.add_argument("--games", default=",".join(GAMES), help="the games, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        baseline = Path(folder)
        archive = subprocess.run(
            ["git", "archive", args.rev], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        trees = {"this tree": ROOT, args.rev: baseline}
        print(f"whole processes, median of {args.repeat}; ratio = {args.rev} time / this tree's time")
        for game in args.games.split(","):
            common = ["--variant", game, "--seed", "1", "--workers", "1"]
            if args.only in (None, "showdown"):
                compare(f"{game} showdown mode", trees, ["simulate", *common, "--hands", str(args.hands)],
                        args.repeat, args.hands)  # fmt: skip
            betting = ["simulate", *common, "--mode", "betting", "--hands", str(args.betting_hands),
                       "--policy", "tag", "--policy", "random", "--policy", "station"]  # fmt: skip
            if args.only in (None, "betting"):
                compare(f"{game} betting mode", trees, betting, args.repeat, args.betting_hands)
        if args.only not in (None, "ingest"):
            pass
        elif PLURIBUS.exists():
            compare("ingest 10,000 Pluribus hands", trees, ["ingest", str(PLURIBUS)], args.repeat, 10_000)
        else:
            print(f"  (no {PLURIBUS}: ingest not measured)")


if __name__ == "__main__":
    main()
