"""Showdown-mode simulation against its own kernel (#57), with the time split of a shard.

For each game, in the same run, fresh processes:

- ``scooplab simulate`` end to end into Parquet with one worker (and with ``--workers 2``, two),
  whole process, after an untimed run that loads numba's cache;
- the compute-only kernel: the same deal and showdown (``engine.compiled.simulate.simulate_chunk``
  on the same random words), writing nothing, timed around its loop, in process;
- the stages of one shard timed one after another on the same chunks: random words, deal and
  showdown, statistic counts, building the Arrow rows, Parquet encoding (into memory), writing
  the bytes. (A shard encodes on a second thread while the next chunk is dealt, so end to end can
  take less than their sum.)

It prints hands per second, the ratio of end to end to the kernel beside #57's target (at least
0.65 for Scarney, Cry Me A River, Omaha and the draw games, 0.5 for hold'em and Skœjarth), the
split, and with ``--workers 2`` two workers against one (target 1.8x) beside the machine's own
ceiling: two compute-only kernels at once, each in its own process, against one.

    python benchmarks/against_kernel.py [--hands 4000000] [--games holdem cry-me-a-river] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GAMES = tuple(sorted(path.stem for path in (ROOT / "engine" / "variants").glob("*.toml")))
PLAYERS = 6
TARGETS = {"holdem": 0.5, "skoejarth": 0.5, "scarney": 0.65, "cry-me-a-river": 0.65, "omaha": 0.65}
DRAW_TARGET, TWO_WORKERS_TARGET = 0.65, 1.8


def ratio_target(game: str) -> float | None:
    """#57's ratio for a game: named, or the draw games', else none.

    >>> ratio_target("holdem"), ratio_target("badugi"), ratio_target("razz")
    (0.5, 0.65, None)
    """
    from engine.rules.games import get_game

    return TARGETS.get(game, DRAW_TARGET if get_game(game).draws else None)


def end_to_end(game: str, hands: int, workers: int) -> tuple[float, float]:
    """Hands a second of ``scooplab simulate``, and the whole process's seconds."""
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, "-m", "scooplab.cli", "simulate", "--variant", game, "--hands", str(hands),
                   "--players", str(PLAYERS), "--workers", str(workers), "--seed", "1", "--data", data,
                   "--format", "json"]  # fmt: skip
        start = time.perf_counter()
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        whole = time.perf_counter() - start
    return hands / whole, json.loads(out.stdout)["seconds"]


def inner_command(stage: str, game: str, hands: int) -> list[str]:
    """The command that runs ``stages`` of this file in a new process and prints its timings."""
    return [sys.executable, __file__, "--inner", stage, "--games", game, "--hands", str(hands)]


def in_fresh_process(stage: str, game: str, hands: int) -> dict[str, float]:
    """Run ``stages`` of this file in a new process; its timings."""
    out = subprocess.run(
        inner_command(stage, game, hands), cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def side_by_side(game: str, hands: int, copies: int) -> float:
    """Speed-up of ``copies`` compute-only kernels run at once, each in its own process, over one:
    the most this machine gives any program of independent workers (1.0 for no gain)."""
    command = inner_command("compute", game, hands)
    running = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in range(copies)]
    seconds = [json.loads(proc.communicate()[0].strip().splitlines()[-1])["compute"] for proc in running]
    alone = min(in_fresh_process("compute", game, hands)["compute"] for _ in range(2))
    return copies * alone / max(seconds)


def budget_line(split: dict[str, float], target: float = 0.6) -> str:
    """What the target ratio leaves for the stages after the kernel, beside what they take.

    >>> print(budget_line({"random words": 1.0, "deal and showdown": 2.0, "counts": 0.5, "rows": 0.5,
    ...                    "parquet encoding": 4.0, "writing": 0.1}).strip())
    ratio 0.6 leaves 2.00 s after the kernel; it takes 5.10 s, Parquet encoding alone 4.00 s (2.0x the budget)
    """
    kernel = split["random words"] + split["deal and showdown"]
    after = sum(split.values()) - kernel
    allowed = kernel * (1 / target - 1)
    return (f"    ratio {target} leaves {allowed:.2f} s after the kernel; it takes {after:.2f} s, "
            f"Parquet encoding alone {split['parquet encoding']:.2f} s "
            f"({split['parquet encoding'] / allowed:.1f}x the budget)")  # fmt: skip


def stages(game_name: str, hands: int, split: bool) -> dict[str, float]:
    """Seconds of each stage over ``hands`` hands in chunks as a shard takes them (compute only
    unless ``split``)."""
    import io

    import pyarrow.parquet as pq

    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from engine.rules.games import get_game
    from ingest.generation.sim_summary import summarize
    from ingest.generation.simulation import CHUNK, SimSpec
    from ingest.storage.sim_rows import dictionary_columns, sim_hands
    from ingest.storage.warehouse import TABLES, parquet_options

    spec = SimSpec(game_name, hands, PLAYERS, seed=1).check()
    game = get_game(spec.game)
    words = words_per_hand(game, PLAYERS, spec.options)
    warm_up = random_words(spec.generator(9), 100, words)
    simulate_chunk(game, PLAYERS, spec.stake, spec.options, warm_up)  # loads the kernel from the cache
    rng = spec.generator(0)
    names = ["random words", "deal and showdown", "counts", "rows", "parquet encoding", "writing"]
    took = dict.fromkeys(names, 0.0)
    options = parquet_options("hands", dictionary_columns(game, spec.options))
    sink = io.BytesIO()
    writer = pq.ParquetWriter(sink, TABLES["hands"], **options) if split else None
    for start in range(0, hands, CHUNK):
        size = min(CHUNK, hands - start)
        t0 = time.perf_counter()
        u = random_words(rng, size, words)
        t1 = time.perf_counter()
        batch = simulate_chunk(game, PLAYERS, spec.stake, spec.options, u)
        t2 = time.perf_counter()
        took["random words"] += t1 - t0
        took["deal and showdown"] += t2 - t1
        if not split:
            continue
        summarize(batch)
        t3 = time.perf_counter()
        table = sim_hands(batch, "bench", 0, start, start)
        t4 = time.perf_counter()
        writer.write_table(table)
        t5 = time.perf_counter()
        took["counts"] += t3 - t2
        took["rows"] += t4 - t3
        took["parquet encoding"] += t5 - t4
    if split:
        writer.close()
        with tempfile.TemporaryDirectory() as folder:
            t0 = time.perf_counter()
            (Path(folder) / "shard.parquet").write_bytes(sink.getvalue())
            took["writing"] = time.perf_counter() - t0
    return took if split else {"compute": took["random words"] + took["deal and showdown"]}


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--hands", type=int, default=4_000_000)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--workers", type=int, default=1, help="also time this many workers end to end")
    parser.add_argument("--inner", choices=["compute", "split"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        print(json.dumps(stages(args.games[0], args.hands, args.inner == "split")))
        return
    print(f"showdown mode, {PLAYERS} players, {args.hands:,} hands a game; end to end is the whole "
          f"`scooplab simulate` process")  # fmt: skip
    for game in args.games:
        end_to_end(game, 10_000, 1)  # the numba cache is warm: compile time is not measured
        rate, _ = end_to_end(game, args.hands, 1)
        limit = args.hands / in_fresh_process("compute", game, args.hands)["compute"]
        line = (f"  {game:<21} end to end {rate / 1e6:5.2f} M/s, compute-only kernel "
                f"{limit / 1e6:5.2f} M/s, ratio {rate / limit:4.2f}")  # fmt: skip
        if (wanted := ratio_target(game)) is not None:
            line += f" ({'met' if rate / limit >= wanted else 'unmet'}: {wanted})"
        if args.workers > 1:
            two, _ = end_to_end(game, args.hands, args.workers)
            ceiling = side_by_side(game, args.hands // args.workers, args.workers)
            line += (f"; {args.workers} workers {two / 1e6:5.2f} M/s ({two / rate:4.2f}x, target "
                     f"{TWO_WORKERS_TARGET}x; "
                     f"{args.workers} compute-only kernels at once {ceiling:4.2f}x one)")  # fmt: skip
        print(line)
        split = in_fresh_process("split", game, args.hands)
        total = sum(split.values())
        print("    split: " + ", ".join(f"{k} {v:.2f} s ({100 * v / total:.0f}%)" for k, v in split.items()))
        print(budget_line(split, ratio_target(game) or 0.5))


if __name__ == "__main__":
    main()
