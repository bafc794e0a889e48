"""Compile the engine once, at install time: a tiny run of everything a user runs (every built-in
game simulated in both modes, its betting hands replayed from their PHH text, odds exact and
sampled, a PokerStars hand read by the compiled reader of clients' files), so that numba's on-disk
cache holds the compiled kernels before the first `make demo` or `make test` (minutes on a fresh
machine, seconds once cached).

The kernels are compiled once for each type of ranking tables they are handed (the usual
rankings', ace-to-five's, a category order's: ``engine.hands.kernels.key_strength``), whatever the
game, so the work is cut by that type and by phase (showdown mode and odds; betting mode and
replay), and the units go to one process a core, the longest first (177 s and 325 s of CPU on a
fresh cache here, where game by game on two cores took 310 s and 546 s). Each unit says when it
is done:

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

SHOWDOWN, BETTING = "showdown mode and odds", "betting mode and replay"
Unit = tuple[tuple[str, ...], tuple[str, ...]]  # (games, phases)


def warm_unit(unit: Unit) -> list[tuple[str, float, str | None]]:
    """``warm_game`` of each game of a unit, in order, in one process (its kernels found in memory)."""
    names, phases = unit
    return [warm_game(name, phases) for name in names]


def warm_game(name: str, phases: tuple[str, ...] = (SHOWDOWN, BETTING)) -> tuple[str, float, str | None]:
    """Run ``name`` a little in each phase (``SHOWDOWN``: simulated all in, odds; ``BETTING``: simulated
    with betting, those hands replayed from their PHH text); the game, the seconds it took and what
    stopped it (None when nothing did: warming never fails an install)."""
    start = time.perf_counter()
    try:
        _warm(name, phases)
    except Exception as error:
        return name, time.perf_counter() - start, " ".join(str(error).split()) or type(error).__name__
    return name, time.perf_counter() - start, None


def _warm(name: str, phases: tuple[str, ...]) -> None:
    from engine.odds.situations import odds, situation
    from engine.rules.games import GAMES
    from ingest.generation.simulation import SimSpec, simulate
    from ingest.histories.pipeline import ingest
    from ingest.storage.warehouse import Warehouse

    game = GAMES[name]
    players = min(4, game.max_players)
    with tempfile.TemporaryDirectory() as scratch:
        if SHOWDOWN in phases:
            simulate(SimSpec(name, 200, players=players, seed=1), scratch, run_id=f"warm-{name}")
            odds(game, situation(game, ["random", "random"]), samples=1_000)
            if name == "holdem":
                spot = situation(game, ["AsAh", "KdKc"], {game.board_names[0]: "2c7dTh"})
                odds(game, spot, exact=True)
        if BETTING in phases and not game.betting_gaps:
            betting = SimSpec(name, 50, players=players, seed=1, mode="betting", policies=("tag", "random"))
            simulate(betting, scratch, run_id=f"warm-bet-{name}")
            texts = Warehouse(scratch).read("hands", ["phh"]).column("phh").to_pylist()
            folder = Path(scratch, "phh")
            folder.mkdir()
            for k, text in enumerate(t for t in texts if t):
                (folder / f"{k}.phh").write_text(text)
            ingest([folder], Warehouse(Path(scratch, "replayed")), run_id="warm-replay")
            if name == "holdem":  # and the compiled reader of poker clients' files
                Path(scratch, "site.txt").write_text(SITE_HAND)
                ingest([Path(scratch, "site.txt")], Warehouse(Path(scratch, "site")), run_id="warm-site")


SITE_HAND = """PokerStars Hand #1:  Hold'em No Limit ($0.25/$0.50 USD) - 2025/06/01 12:00:00 ET
Table 'Warm' 2-max Seat #2 is the button
Seat 1: a ($50 in chips)
Seat 2: b ($40 in chips)
b: posts small blind $0.25
a: posts big blind $0.50
*** HOLE CARDS ***
b: raises $1 to $1.50
a: calls $1
*** FLOP *** [2c 7d 9s]
a: checks
b: bets $2
a: folds
Uncalled bet ($2) returned to b
b collected $2.85 from pot
*** SUMMARY ***
Total pot $3 | Rake $0.15

"""  # a PokerStars hand: ingesting it compiles the reader of poker clients' files


def games_to_warm() -> list[str]:
    """Every built-in game the compiled core plays."""
    from engine.rules.games import GAMES

    return sorted(name for name, game in GAMES.items() if not game.compiled_gaps)


def tables_type(name: str) -> int:
    """How many tables the kernels get for a game (its ranking's, under its default options): the
    type the compiled kernels are specialized for."""
    from engine.hands.rankings import RANKINGS
    from engine.rules.games import GAMES

    game = GAMES[name]
    return len(RANKINGS[game.ranking].tables(game.deck, game.category_places()))


def units(names: list[str]) -> list[Unit]:
    """The work in units of one tables type and one phase, the longest first (measured: betting mode
    and replay compile about twice as long as showdown mode and odds; the commonest type's first)."""
    by_type: dict[int, list[str]] = {}
    for name in names:
        by_type.setdefault(tables_type(name), []).append(name)
    ordered = [tuple(games) for games in sorted(by_type.values(), key=len, reverse=True)]
    return [(games, (phase,)) for phase in (BETTING, SHOWDOWN) for games in ordered]


def warm(workers: int | None = None) -> float:
    """Warm every game, ``workers`` processes at once (default: one a core); the seconds it took."""
    start = time.perf_counter()
    names = games_to_warm()
    work = units(names)
    workers = max(1, min(workers or os.cpu_count() or 1, len(work)))
    print(f"scooplab: {len(names)} games in {len(work)} parts on {workers} process(es)", flush=True)
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(warm_unit, unit): unit for unit in work}
        for done, future in enumerate(as_completed(futures), 1):
            seconds = sum(taken for _, taken, _ in future.result())
            stopped = [f"{name} ({why})" for name, _, why in future.result() if why]
            told = f"; stopped, compiled on first use: {', '.join(stopped)}" if stopped else ""
            games, phases = futures[future]
            print(f"scooplab: [{done}/{len(work)}] {len(games)} game(s), {' + '.join(phases)}: "
                  f"{seconds:.0f} s{told}", flush=True)  # fmt: skip
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
