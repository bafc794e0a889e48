"""Compile the engine once, at install time: a tiny run of everything a user runs (every built-in
game simulated in both modes, the betting hands replayed from their PHH text, odds exact and
sampled, push/fold matchups), so that numba's on-disk cache holds the compiled kernels before
the first `make demo` or `make test` (minutes on a fresh machine, seconds once cached).

    python -m scooplab.warm
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def warm() -> float:
    """Run the small workloads; the seconds it took."""
    from engine.odds.situations import odds, situation
    from engine.rules.games import GAMES
    from ingest.generation.simulation import SimSpec, simulate
    from ingest.histories.pipeline import ingest
    from ingest.storage.warehouse import Warehouse

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for name, game in GAMES.items():
            if game.compiled_gaps:  # replayed by the state machine alone: nothing compiled to warm
                continue
            players = min(4, game.max_players)
            simulate(SimSpec(name, 200, players=players, seed=1), scratch, run_id=f"warm-{name}")
            betting = SimSpec(name, 50, players=players, seed=1, mode="betting", policies=("tag", "random"))
            if not game.betting_gaps:
                simulate(betting, scratch, run_id=f"warm-bet-{name}")
            spot = situation(game, ["random", "random"])
            odds(game, spot, samples=1_000)
        hands = Warehouse(scratch).read("hands", ["phh"]).column("phh").to_pylist()
        folder = Path(scratch, "phh")
        folder.mkdir()
        for k, text in enumerate(t for t in hands if t):
            (folder / f"{k}.phh").write_text(text)
        ingest([folder], Warehouse(Path(scratch, "replayed")), run_id="warm-replay")
        holdem = GAMES["holdem"]
        odds(holdem, situation(holdem, ["AsAh", "KdKc"], {holdem.board_names[0]: "2c7dTh"}), exact=True)
    return time.perf_counter() - start


def main() -> None:
    """Say what it does (it takes minutes the first time), do it, say how long it took."""
    print(
        "scooplab: compiling the engine once into numba's cache (minutes on a fresh machine)...", flush=True
    )
    try:
        seconds = warm()
    except Exception as error:  # warming is an optimization: never fail an install over it
        print(
            f"scooplab: warming the cache stopped ({error}); kernels will compile on first use",
            file=sys.stderr,
        )
        return
    print(f"scooplab: engine compiled and cached ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
