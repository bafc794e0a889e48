"""Odds speed, whole process as a user runs it: `scooplab odds` on the situations of issue #14,
with PokerKit's ``calculate_equities`` (Monte Carlo) on the same situations in the same run.

Each command runs in a fresh process (numba's cache warm: one untimed run first); the time is
the process's wall time, start-up included, and the compute time is that less the start-up of
`scooplab odds` on a situation with a single runout. PokerKit has no Cry Me A River: beside it
runs PokerKit's six-way hold'em with six known hands, the nearest situation it deals (four
random hands, as ranges of every hand, exhaust its memory). Ratios are runouts per second,
ours over PokerKit's: PokerKit samples where we enumerate, and deals known hands where we
deal random ones, so a ratio compares the cost of a runout, not the same workload. Each
situation prints its target (issue #14: under 0.5 s and 2 s beyond start-up) and whether it
holds. Last, `scooplab hands` computes hold'em's starting-hand table (169 classes x 47,300
runouts) into a scratch warehouse, whole process, beside PokerKit's heads-up rate.

    python benchmarks/odds.py [--peer-samples 20000] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCOOPLAB = [sys.executable, "-m", "scooplab.cli"]
SITUATIONS = [  # label, our arguments, runouts, PokerKit hands and board dealt, target seconds
    ("hold'em heads-up preflop, every runout", ["--hand", "AdAc", "--hand", "KhKs"], 1_712_304,
     ["AdAc", "KhKs"], 0.5),
    ("Cry Me A River 6-way preflop, 1 M sampled",
     ["--variant", "cry-me-a-river", "--hand", "AsAh", "--hand", "KdKc", *["--hand", "random"] * 4,
      "--samples", "1000000"], 1_000_000, ["AsAh", "KdKc", "Qs9s", "7c6c", "Jd2h", "8h8d"], 2.0),
]  # fmt: skip
# `scooplab hands`: hold'em's 169 classes, 47,300 runouts each, computed (not read) into a scratch
# warehouse; PokerKit has no such table: its heads-up rate from the first situation is the peer
HANDS = ["hands", "--variant", "holdem", "--players", "2", "--recompute", "--format", "json"]
HANDS_RUNOUTS = 169 * 47_300
ONE_RUNOUT = ["--hand", "AdAc", "--hand", "KhKs", "--board", "2c7dTh8s9s"]

PEER = """
import sys, time
from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range
hands, samples = sys.argv[1].split(","), int(sys.argv[2])
ranges = [parse_range(h) for h in hands]
start = time.perf_counter()
calculate_equities(ranges, (), 2, 5, Deck.STANDARD, (StandardHighHand,), sample_count=samples)
print(time.perf_counter() - start)
"""


def wall(command: list[str]) -> float:
    """Seconds a process takes, start to exit; it must succeed."""
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-samples", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    odds = [*SCOOPLAB, "odds", "--format", "json"]
    wall([*odds, *ONE_RUNOUT])  # warm numba's cache
    startup = min(wall([*odds, *ONE_RUNOUT]) for _ in range(3))
    rows = []
    for label, ours, runouts, peer_hands, target in SITUATIONS:
        wall([*odds, *ours])
        seconds = wall([*odds, *ours])
        peer_process = time.perf_counter()
        peer = subprocess.run([sys.executable, "-c", PEER, ",".join(peer_hands), str(args.peer_samples)],
                              check=True, capture_output=True, text=True)  # fmt: skip
        peer_wall, peer_compute = time.perf_counter() - peer_process, float(peer.stdout)
        ours_rate, peer_rate = runouts / seconds, args.peer_samples / peer_wall
        rows.append({
            "situation": label, "runouts": runouts, "seconds": round(seconds, 3),
            "compute_seconds": round(seconds - startup, 3), "runouts_per_s": round(ours_rate),
            "pokerkit_samples": args.peer_samples, "pokerkit_seconds": round(peer_wall, 3),
            "pokerkit_compute_seconds": round(peer_compute, 3), "pokerkit_runouts_per_s": round(peer_rate),
            "ratio": round(ours_rate / peer_rate, 1), "target_seconds": target,
            "target_met": seconds - startup < target,
        })  # fmt: skip
    rows.append(_hands_row(startup, rows[0]["pokerkit_runouts_per_s"]))
    if args.json:
        print(json.dumps({"startup_seconds": round(startup, 3), "rows": rows}))
        return
    print(f"`scooplab odds` start-up (one runout, whole process): {startup:.2f} s")
    for row in rows:
        peer = (f"PokerKit {row['pokerkit_samples']:,} samples in {row['pokerkit_seconds']:.2f} s, "
                if row["pokerkit_samples"] else "PokerKit heads-up above, ")  # fmt: skip
        print(f"{row['situation']}: {row['runouts']:,} runouts in {row['seconds']:.2f} s whole process "
              f"({row['compute_seconds']:.2f} s beyond start-up), {row['runouts_per_s']:,}/s; {peer}"
              f"{row['pokerkit_runouts_per_s']:,}/s; ratio {row['ratio']:,}x")  # fmt: skip
        if row.get("target_seconds") is not None:
            met = "met" if row["target_met"] else "NOT met"
            print(f"  target: under {row['target_seconds']} s beyond start-up: {met}")


def _hands_row(startup: float, peer_rate: float) -> dict:
    """``scooplab hands`` for hold'em heads-up, computed into a scratch warehouse, whole process."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        command = [*SCOOPLAB, *HANDS, "--data", folder, "--samples", "47300"]
        wall(command)  # numba's cache warm
        seconds = wall(command)
    rate = HANDS_RUNOUTS / seconds
    return {"situation": "hold'em starting hands, 169 classes (scooplab hands)", "runouts": HANDS_RUNOUTS,
            "seconds": round(seconds, 3), "compute_seconds": round(seconds - startup, 3),
            "runouts_per_s": round(rate), "pokerkit_samples": 0, "pokerkit_seconds": 0.0,
            "pokerkit_runouts_per_s": round(peer_rate), "ratio": round(rate / peer_rate, 1),
            "target_seconds": None, "target_met": None}  # fmt: skip


if __name__ == "__main__":
    main()
