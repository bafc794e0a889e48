"""Export stored hands back to PHH."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from ingest.storage.warehouse import Warehouse


def export_hands(warehouse: Warehouse, variant: str, out: str | Path, runs: list[str] | None = None,
                 on_skipped: Callable[[int], None] | None = None) -> int:  # fmt: skip
    """Write the stored hands of ``variant`` (optionally of some runs) to a ``.phhs`` file; how many.

    Showdown-mode hands are stored without a PHH history (everyone is all in before the deal):
    ``on_skipped(count)`` hears how many were left out. The file is written under a temporary
    name and renamed when complete.
    """
    condition = ds.field("variant") == variant
    if runs:
        condition = condition & pc.is_in(ds.field("run_id"), value_set=pa.array(runs))
    table = warehouse.read("hands", ["phh", "run_id", "hand_index"], condition)
    where = f" in runs {', '.join(runs)}" if runs else ""
    if table.num_rows == 0:
        raise ValueError(f"no {variant} hands{where} in {warehouse.root}")
    stored = table.num_rows
    table = table.filter(pc.is_valid(table.column("phh")))
    if on_skipped is not None and 0 < table.num_rows < stored:
        on_skipped(stored - table.num_rows)
    if table.num_rows == 0:
        raise ValueError(
            f"the {variant} hands{where} are showdown-mode simulations, stored without PHH "
            "(simulate in betting mode for hands with a full history)"
        )
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".tmp-{uuid.uuid4().hex}-{out.name}")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            for number, text in enumerate(table.column("phh").to_pylist(), start=1):
                handle.write(f"[{number}]\n{text.strip()}\n\n")
        os.replace(temporary, out)
    finally:
        if temporary.exists():
            temporary.unlink()
    return table.num_rows
