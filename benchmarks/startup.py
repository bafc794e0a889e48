"""Start-up: whole-process seconds of the commands a user types first, in fresh processes.

Each command runs ``--repeat`` times as a new process (median and fastest printed), beside the
floor of the same interpreter doing nothing (``python -c pass``) and PokerKit's import, in the
same run. #16's targets: ``scooplab --help`` under 0.3 s, ``scooplab eval`` under 1 s, ingest
of one PHH file under 0.8 s.

    python benchmarks/startup.py [--repeat 7] [--phh FILE]
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
FIXTURE = ROOT / "tests" / "fixtures" / "phh"
TARGETS = {"scooplab --help": 0.3, "scooplab eval": 1.0, "scooplab ingest (one file)": 0.8}


def one_file() -> Path:
    """A small hold'em hand of the test fixtures."""
    return FIXTURE / "dwan-ivey-2009.phh"


def commands(phh: Path, data: str) -> dict[str, list[str]]:
    """The commands timed, by name; the scooplab ones run its console entry point."""
    scooplab = [sys.executable, "-m", "scooplab.cli"]
    return {
        "python -c pass (floor)": [sys.executable, "-c", "pass"],
        "import pokerkit (peer)": [sys.executable, "-c", "import pokerkit"],
        "scooplab --help": [*scooplab, "--help"],
        "scooplab eval": [*scooplab, "eval", "--game", "holdem", "AhKhQhJhTh2c3d"],
        "scooplab ingest (one file)": [*scooplab, "ingest", str(phh), "--data", data],
    }


def seconds_of(command: list[str], repeat: int) -> list[float]:
    """Wall seconds of ``repeat`` fresh runs (the command must succeed)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--phh", type=Path, default=None, help="the file to ingest (default: a test fixture)")
    args = parser.parse_args()
    phh = args.phh or one_file()
    with tempfile.TemporaryDirectory() as data:
        subprocess.run([sys.executable, "-m", "scooplab.cli", "ingest", str(phh), "--data", data],
                       cwd=ROOT, capture_output=True, check=True)  # fmt: skip  # compile caches warm
        floor = None
        print(f"whole process, {args.repeat} fresh runs each (median, fastest); ingest of {phh.name}")
        for name, command in commands(phh, data).items():
            times = seconds_of(command, args.repeat)
            median = statistics.median(times)
            floor = floor if floor is not None else median
            target = TARGETS.get(name)
            met = target is None or median < target
            verdict = "" if target is None else f"  target < {target} s: {'met' if met else 'NOT met'}"
            print(f"  {name:<28} {median:6.3f} s ({min(times):.3f}) {median / floor:4.1f}x floor{verdict}")


if __name__ == "__main__":
    main()
