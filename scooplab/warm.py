"""Compile the engine once, at install time: a tiny run of everything a user runs (every built-in
game simulated in both modes, its betting hands replayed from their PHH text, odds exact and
sampled), so that numba's on-disk cache holds the compiled kernels before the first `make demo` or
`make test` (minutes on a fresh machine, seconds once cached).

The games are compiled side by side, one process a core, by families (games with the same shape:
boards, a discard board, up cards, draws, the hole cards used) so that a family's kernels are
compiled once, in one process, the costliest families first; each game says when it is done:

    python -m scooplab.warm [--workers N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

# the games that compile longest first (measured on 2 cores), so the last one to finish is short
FIRST = ("cry-me-a-river-omaha", "scarney-hi-lo", "holdem", "razz", "seven-card-stud", "stud-hi-lo",
         "omaha-hi-lo", "scarney", "cry-me-a-river", "deuce-to-seven-triple-draw", "skoejarth")  # fmt: skip


def warm_family(names: list[str]) -> list[tuple[str, float, str | None]]:
    """``warm_game`` of each game of a family, in order, in one process (its kernels found in memory)."""
    return [warm_game(name) for name in names]


def warm_game(name: str) -> tuple[str, float, str | None]:
    """Simulate ``name`` a little in both modes, replay its betting hands, take its odds; the game,
    the seconds it took and what stopped it (None when nothing did: warming never fails an install)."""
    start = time.perf_counter()
    try:
        _warm(name)
    except Exception as error:
        return name, time.perf_counter() - start, " ".join(str(error).split()) or type(error).__name__
    return name, time.perf_counter() - start, None


def _warm(name: str) -> None:
    from engine.odds.situations import odds, situation
    from engine.rules.games import GAMES
    from ingest.generation.simulation import SimSpec, simulate
    from ingest.histories.pipeline import ingest
    from ingest.storage.warehouse import Warehouse

    game = GAMES[name]
    players = min(4, game.max_players)
    with tempfile.TemporaryDirectory() as scratch:
        simulate(SimSpec(name, 200, players=players, seed=1), scratch, run_id=f"warm-{name}")
        if not game.betting_gaps:
            betting = SimSpec(name, 50, players=players, seed=1, mode="betting", policies=("tag", "random"))
            simulate(betting, scratch, run_id=f"warm-bet-{name}")
            texts = Warehouse(scratch).read("hands", ["phh"]).column("phh").to_pylist()
            folder = Path(scratch, "phh")
            folder.mkdir()
            for k, text in enumerate(t for t in texts if t):
                (folder / f"{k}.phh").write_text(text)
            ingest([folder], Warehouse(Path(scratch, "replayed")), run_id="warm-replay")
        odds(game, situation(game, ["random", "random"]), samples=1_000)
        if name == "holdem":
            spot = situation(game, ["AsAh", "KdKc"], {game.board_names[0]: "2c7dTh"})
            odds(game, spot, exact=True)


def games_to_warm() -> list[str]:
    """Every built-in game the compiled core plays, the costliest first."""
    from engine.rules.games import GAMES

    names = [name for name, game in GAMES.items() if not game.compiled_gaps]
    return sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n))


def families(names: list[str]) -> list[list[str]]:
    """The games by shape (what their kernels are compiled for), in the order of their first game."""
    from engine.rules.games import GAMES

    def shape(name: str) -> tuple:
        game = GAMES[name]
        return (len(game.boards), game.discard_board is not None, any(s.up_cards for s in game.streets),
                any(s.draw for s in game.streets), str(game.hole_use.fixed), game.ranking)  # fmt: skip

    grouped: dict[tuple, list[str]] = {}
    for name in names:
        grouped.setdefault(shape(name), []).append(name)
    return list(grouped.values())


def warm(workers: int | None = None) -> float:
    """Warm every game, ``workers`` processes at once (default: one a core); the seconds it took."""
    start = time.perf_counter()
    names = games_to_warm()
    units = families(names)
    workers = max(1, min(workers or os.cpu_count() or 1, len(units)))
    print(f"scooplab: {len(names)} games in {len(units)} families on {workers} process(es)", flush=True)
    done = 0
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for future in as_completed([pool.submit(warm_family, unit) for unit in units]):
            for name, seconds, stopped in future.result():
                done += 1
                told = f"stopped ({stopped}): compiled on first use" if stopped else f"{seconds:.0f} s"
                print(f"scooplab: [{done}/{len(names)}] {name} {told}", flush=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Say what it does (it takes minutes the first time), do it, say how long it took."""
    parser = argparse.ArgumentParser(prog="python -m scooplab.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None, help="processes at once (default: one a core)")
    workers = parser.parse_args(argv).workers
    print("scooplab: compiling the engine once into numba's cache (a few minutes on a fresh machine; "
          "seconds once cached)...", flush=True)  # fmt: skip
    try:
        seconds = warm(workers)
    except Exception as error:  # warming is an optimization: never fail an install over it
        print(
            f"scooplab: warming the cache stopped ({error}); kernels will compile on first use",
            file=sys.stderr,
        )
        return
    print(f"scooplab: engine compiled and cached ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
