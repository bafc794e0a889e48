"""Push/fold speed, whole process as a user runs it (issue #15): hold'em's chart from 1 to 20 big
blinds by 0.5 into an empty scratch warehouse (equities included: target under 10 minutes), the
same command again (read from the warehouse: target under a second), and each other game's first
solutions at 5, 10 and 15 bb in one process (target under an hour each).

Beside them, in the same run: PokerKit's heads-up Monte Carlo rate (``calculate_equities``, known
hands, one process) projected onto the runouts hold'em's matchups deal, and the compute-only
limit: the rules core settling the same kind of deals in-process with nothing written. Ratios are
our whole-process time over those. numba's cache is warmed by one untimed run on a throwaway
warehouse first.

    python benchmarks/pushfold.py [--games holdem,scarney,...] [--data DIR] [--peer-samples 20000] [--json]

``--data`` keeps the warehouse (else a temporary folder): ``scooplab stats --equilibrium --data DIR``
then prints the table across games.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.odds import wall  # noqa: E402  (run as a script: the project is not on the path)

SCOOPLAB = [sys.executable, "-m", "scooplab.cli"]
CHART = ["solve", "pushfold", "--stack", "1:20:0.5", "--format", "json"]
HOLDEM_RUNOUTS = 169 * 168 // 2 * 4_000  # class pairs i < j, 4,000 runouts each
OTHERS = ("short-deck", "cry-me-a-river", "skoejarth", "scarney", "scarney-hi-lo", "cry-me-a-river-omaha")
PEER = """
import sys, time
from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range
samples = int(sys.argv[1])
start = time.perf_counter()
calculate_equities([parse_range("AdAc"), parse_range("KhKs")], (), 2, 5, Deck.STANDARD, (StandardHighHand,),
                   sample_count=samples)
print(time.perf_counter() - start)
"""
LIMIT = """
import sys, time, numpy as np
from engine.rules.games import get_game
from engine.odds.equity import STAKE, outcomes
from engine.rules.sim_layout import layout
from engine.compiled.simulate import simulate_chunk
game = get_game("holdem"); options = game.resolve_options({}); n = 400_000
deals = np.argsort(np.random.default_rng(0).random((n, 52)), axis=1)[:, :layout(game, 2, options).n_cards]
deals = deals.astype(np.int8)
outcomes(simulate_chunk(game, 2, STAKE, options, None, dealt=deals[:1000]), 2)
start = time.perf_counter()
outcomes(simulate_chunk(game, 2, STAKE, options, None, dealt=deals), 2)
print(n / (time.perf_counter() - start))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="holdem," + ",".join(OTHERS))
    parser.add_argument("--peer-samples", type=int, default=20_000)
    parser.add_argument("--data", help="keep the warehouse here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = args.games.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        scratch = args.data or temporary
        warm = [*SCOOPLAB, "solve", "pushfold", "--variant", "short-deck", "--samples", "100"]
        wall([*warm, "--data", f"{scratch}/warm"])
        startup = min(wall([*SCOOPLAB, "--help"]) for _ in range(3))
        if "holdem" in games:
            first = wall([*SCOOPLAB, *CHART, "--data", f"{scratch}/games"])
            stored = min(wall([*SCOOPLAB, *CHART, "--data", f"{scratch}/games"]) for _ in range(3))
            peer = subprocess.run([sys.executable, "-c", PEER, str(args.peer_samples)], check=True,
                                  capture_output=True, text=True)  # fmt: skip
            peer_rate = args.peer_samples / float(peer.stdout)
            limit = float(subprocess.run([sys.executable, "-c", LIMIT], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)  # fmt: skip
            rows.append({"case": "hold'em chart 1-20 bb, first run", "seconds": round(first, 2),
                         "target": 600,
                         "runouts": HOLDEM_RUNOUTS, "pokerkit_projected_s": round(HOLDEM_RUNOUTS / peer_rate),
                         "vs_pokerkit": round(HOLDEM_RUNOUTS / peer_rate / first, 1),
                         "compute_only_s": round(HOLDEM_RUNOUTS / limit, 2),
                         "of_compute_limit": round(HOLDEM_RUNOUTS / limit / first, 2)})  # fmt: skip
            rows.append({"case": "hold'em chart 1-20 bb, stored", "seconds": round(stored, 3), "target": 1.0,
                         "startup_s": round(startup, 3)})  # fmt: skip
        for game in (g for g in games if g != "holdem"):
            seconds = wall([*SCOOPLAB, "solve", "pushfold", "--variant", game, "--stack", "5:15:5",
                            "--data", f"{scratch}/games"])  # fmt: skip
            rows.append({"case": f"{game} at 5, 10, 15 bb, first run", "seconds": round(seconds, 1),
                         "target": 3600})  # fmt: skip
    for row in rows:
        row["holds"] = row["seconds"] < row["target"]
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        shown = ("case", "seconds", "target", "holds")
        extra = "; ".join(f"{k} {v}" for k, v in row.items() if k not in shown)
        verdict = "holds" if row["holds"] else "MISSES"
        print(f"{row['case']}: {row['seconds']} s (target {row['target']} s: {verdict}) {extra}".rstrip())


if __name__ == "__main__":
    main()
