"""What storing a showdown-mode chunk costs in Parquet, by layout of its seats, beside its kernel.

For each game, one chunk of hands (as a shard writes them: 50,000 hands, 6 players) is dealt and
settled by the compiled kernel, made into the documented ``hands`` rows, and encoded into
memory with the warehouse's writer options in four layouts of the same values:

- ``lists``: the documented layout, one list per seat column in the hand's row (seat 0 first);
- ``wide``: one column per seat and value (``seat3_won``), lists of lists becoming lists;
- ``long``: the hand rows without seats, and a seats table of one row per seat keyed by the
  hand's position (int32) and the seat (int8);
- ``no seats``: the hand rows without seats, the floor of any layout that keeps them.

Beside them, the kernel's own time for the chunk and what #16's target (end to end at least 0.6
of the compute-only kernel) leaves for all the work after it: kernel x (1/0.6 - 1). Best of
``--repeat`` in one process (each figure is a stage, not a whole run: ``against_kernel.py`` times the
whole process).

    python benchmarks/parquet_layouts.py [--games holdem scarney] [--repeat 5]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand  # noqa: E402
from engine.rules.games import get_game  # noqa: E402
from ingest.generation.simulation import CHUNK, SimSpec  # noqa: E402
from ingest.storage.schema import SEAT_ARRAYS  # noqa: E402
from ingest.storage.sim_rows import dictionary_columns, sim_hands  # noqa: E402
from ingest.storage.warehouse import parquet_options  # noqa: E402

GAMES = tuple(sorted(path.stem for path in (ROOT / "engine" / "variants").glob("*.toml")))
PLAYERS = 6
T = TypeVar("T")


def best(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    """The least seconds of ``repeat`` runs of ``work``, and what its last run gave."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def seat_columns(table: pa.Table) -> list[str]:
    """The seat list columns a chunk fills (the others are null in every row)."""
    filled = [name for name in SEAT_ARRAYS if table[name].null_count == 0]
    return [name for name in filled if pa.types.is_list(table.schema.field(name).type)]


def wide(table: pa.Table) -> pa.Table:
    """One column per seat and value; the seat lists dropped."""
    out = table.drop_columns(seat_columns(table))
    for name in seat_columns(table):
        column = table[name].combine_chunks()
        for seat in range(PLAYERS):
            out = out.append_column(f"seat{seat}_{name[5:]}", pc.list_element(column, seat))
    return out


def long(table: pa.Table) -> tuple[pa.Table, pa.Table]:
    """The hand rows without seats, and one row per seat keyed by the hand's position and the seat."""
    names = seat_columns(table)
    lengths = pc.list_value_length(table[names[0]]).to_numpy()
    seats = {
        "hand": np.repeat(np.arange(len(table), dtype=np.int32), lengths),
        "seat": np.concatenate([np.arange(n, dtype=np.int8) for n in lengths]),
    }
    for name in names:
        seats[name[5:]] = pc.list_flatten(table[name].combine_chunks())
    return table.drop_columns(names), pa.table(seats)


def encode(tables: list[pa.Table], options: dict, dictionary: list[str]) -> int:
    """Encode tables into memory as Parquet files with the warehouse's options (those naming a column
    a table has), ``dictionary`` columns dictionary-encoded too; their bytes."""
    size = 0
    for table in tables:
        sink = io.BytesIO()
        ours = set(table.column_names)
        keep = dict(options)
        few = [*options["use_dictionary"], *dictionary]
        keep["use_dictionary"] = [c for c in few if c.split(".")[0] in ours]
        encodings = options["column_encoding"].items()
        keep["column_encoding"] = {c: e for c, e in encodings if c.split(".")[0] in ours}
        pq.write_table(table, sink, **keep)
        size += sink.tell()
    return size


def measure(game_name: str, repeat: int) -> None:
    spec = SimSpec(game_name, CHUNK, PLAYERS, seed=1).check()
    game = get_game(spec.game)
    u = random_words(spec.generator(0), CHUNK, words_per_hand(game, PLAYERS, spec.options))
    simulate_chunk(game, PLAYERS, spec.stake, spec.options, u[:100])  # the kernel from numba's cache
    kernel, _ = best(repeat, lambda: simulate_chunk(game, PLAYERS, spec.stake, spec.options, u))
    table = sim_hands(simulate_chunk(game, PLAYERS, spec.stake, spec.options, u), "bench", 0, 0, 0)
    few = dictionary_columns(game, spec.options)  # seat columns of few values: dictionary-encoded
    options = parquet_options("hands", few)
    layouts = {
        "lists": ([table], []),
        "wide": ([wide(table)], [f"seat{seat}_{name[5:]}" for name in few for seat in range(PLAYERS)]),
        "long": (list(long(table)), [name[5:] for name in few]),
        "no seats": ([table.drop_columns(seat_columns(table))], []),
    }
    budget = kernel * (1 / 0.6 - 1)
    print(f"  {game_name}: kernel {1000 * kernel:.1f} ms a chunk of {CHUNK:,} hands; "
          f"ratio 0.6 leaves {1000 * budget:.1f} ms for rows, encoding and writing")  # fmt: skip
    for name, (tables, dictionary) in layouts.items():
        seconds, size = best(repeat, partial(encode, tables, options, dictionary))
        print(f"    {name:<9} encoding {1000 * seconds:6.1f} ms ({seconds / budget:4.2f}x the budget), "
              f"{size / 1e6:5.2f} MB")  # fmt: skip


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"showdown mode, {PLAYERS} players, one chunk a game, best of {args.repeat}")
    for game in args.games:
        measure(game, args.repeat)


if __name__ == "__main__":
    main()
