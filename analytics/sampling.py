"""Hands counted and drawn without reading the warehouse: counts per run from the Parquet footers;
one hand drawn uniformly: a file chosen with weight its
row count (from the Parquet footers, kept while the file is unchanged), then a row of that file
chosen uniformly (only the row group holding it is read, one column). Every hand is equally likely:
P(file) x P(row | file) = rows / total x 1 / rows.

>>> import random, tempfile, pyarrow as pa, pyarrow.parquet as pq
>>> root = Path(tempfile.mkdtemp())
>>> for run, ids in (("a", ["a:0"]), ("b", ["b:0", "b:1", "b:2"])):
...     folder = root / "hands" / "variant=holdem" / f"run={run}"
...     folder.mkdir(parents=True)
...     pq.write_table(pa.table({"hand_id": ids}), folder / "part-0.parquet")
>>> draws = [uniform_hand(root, rng=random.Random(seed)) for seed in range(400)]
>>> sorted(set(draws)), 60 < draws.count("a:0") < 140  # each of 4 hands: about 100 of 400
(['a:0', 'b:0', 'b:1', 'b:2'], True)
>>> uniform_hand(root, runs=["b"], rng=random.Random(1)) in {"b:0", "b:1", "b:2"}, uniform_hand(root, "razz")
(True, None)
"""

from __future__ import annotations

import bisect
import random
from pathlib import Path

import pyarrow.parquet as pq

_ROWS: dict[tuple[str, int, int], list[int]] = {}  # (file, size, mtime) -> rows of each row group


def _row_groups(path: Path) -> list[int]:
    """The rows of each row group of a Parquet file (its footer, read once while it is unchanged)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _ROWS:
        meta = pq.read_metadata(path)
        _ROWS[key] = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    return _ROWS[key]


def hand_files(data: str | Path, variant: str | None = None, runs: list[str] | None = None) -> list[Path]:
    """The hands table's files (of one game, of some runs), finished ones only."""
    root = Path(data) / "hands"
    folders = root.glob(f"variant={variant}" if variant else "variant=*")
    wanted = None if runs is None else {f"run={run}" for run in runs}
    return sorted(
        path
        for folder in folders
        for run in folder.iterdir()
        if wanted is None or run.name in wanted
        for path in run.glob("*.parquet")
        if not path.name.startswith(".")
    )


def uniform_hand(
    data: str | Path,
    variant: str | None = None,
    runs: list[str] | None = None,
    rng: random.Random | None = None,
) -> str | None:
    """The id of a hand drawn uniformly from the warehouse's hands (of one game, of some runs);
    None when there is none."""
    rng = rng or random.SystemRandom()
    files = hand_files(data, variant, runs)
    groups = [_row_groups(path) for path in files]
    ends, total = [], 0
    for sizes in groups:
        total += sum(sizes)
        ends.append(total)
    if total == 0:
        return None
    pick = rng.randrange(total)
    index = bisect.bisect_right(ends, pick)
    row = pick - (ends[index - 1] if index else 0)
    for group, size in enumerate(groups[index]):
        if row < size:
            column = pq.ParquetFile(files[index]).read_row_group(group, columns=["hand_id"]).column(0)
            return column[row].as_py()
        row -= size
    raise AssertionError("a row past its file's end")  # the row counts add up: never


def rows_per_run(data: str | Path) -> dict[tuple[str, str], int]:
    """How many hands each (game, run) has in the hands table, from the files' footers (no scan)."""
    out: dict[tuple[str, str], int] = {}
    for path in hand_files(data):
        where = (path.parent.parent.name.removeprefix("variant="), path.parent.name.removeprefix("run="))
        out[where] = out.get(where, 0) + sum(_row_groups(path))
    return out
