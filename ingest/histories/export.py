"""Export stored hands back to PHH, or as Open Hand History (``ingest.histories.sites.ohh_write``)."""

from __future__ import annotations

import os
import tomllib
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from ingest.histories.phh import fast_loads
from ingest.histories.sites.ohh_write import GAMES, Unwritable, ohh_text
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


def export_ohh(warehouse: Warehouse, out: str | Path, variant: str | None = None,
               runs: list[str] | None = None, on_skipped: Callable[[int, str], None] | None = None,
               ) -> int:  # fmt: skip
    """Write the stored hands (of ``variant``, of some runs, or all) to an Open Hand History file, one
    object a hand with a blank line after it; how many. The hands of games OHH has no name for, the
    showdown-mode ones (stored without a history) and any OHH cannot hold exactly are left out:
    ``on_skipped(count, why)`` hears each kind. Written under a temporary name, renamed when complete.
    """
    if variant is not None and variant not in GAMES:
        raise ValueError(f"OHH names no game for {variant}: only hold'em, Omaha and Omaha hi/lo")
    condition = None if variant is None else ds.field("variant") == variant
    if runs:
        chosen = pc.is_in(ds.field("run_id"), value_set=pa.array(runs))
        condition = chosen if condition is None else condition & chosen
    games = warehouse.read("hands", ["variant"], condition).column("variant").to_pylist()
    where = f" in runs {', '.join(runs)}" if runs else ""
    if not games:
        raise ValueError(f"no {variant + ' ' if variant else ''}hands{where} in {warehouse.root}")
    skipped: Counter[str] = Counter()
    other = Counter(g for g in games if g not in GAMES)
    if other:
        named = ", ".join(f"{game} {count:,}" for game, count in sorted(other.items()))
        skipped[f"OHH names only hold'em, Omaha and Omaha hi/lo ({named})"] = sum(other.values())
    written = 0
    if len(other) < len(set(games)):
        nameable = pc.is_in(ds.field("variant"), value_set=pa.array(sorted(GAMES)))
        table = warehouse.read(
            "hands", ["phh", "variant"], nameable if condition is None else condition & nameable
        )
        texts = _ohh_texts(table.column("phh").to_pylist(), table.column("variant").to_pylist(), skipped)
        written = _write_atomically(Path(out), texts)
    if written == 0:
        reasons = "; ".join(f"{count:,} {why}" for why, count in skipped.items())
        raise ValueError(f"none of the {len(games):,} hands{where} can be written as OHH: {reasons}")
    for why, count in skipped.items():
        if on_skipped is not None:
            on_skipped(count, why)
    return written


def _ohh_texts(histories: list[str | None], games: list[str], skipped: Counter[str]) -> Iterator[str]:
    """Each stored history as OHH text; what is left out is counted in ``skipped`` (the hands OHH
    cannot hold exactly under one reason: the first hand's)."""
    first: str | None = None
    for text, game in zip(histories, games, strict=True):
        if text is None:
            skipped["showdown-mode hands stored without a history (everyone all in before the deal)"] += 1
            continue
        try:
            yield ohh_text(fast_loads(text) or tomllib.loads(text), game)
        except Unwritable as error:
            first = first or f"OHH cannot hold them exactly (the first, {error})"
            skipped[first] += 1


def _write_atomically(out: Path, texts: Iterator[str]) -> int:
    """The texts to ``out``, each with a blank line after it, through a temporary file; how many."""
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".tmp-{uuid.uuid4().hex}-{out.name}")
    written = 0
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            for text in texts:
                handle.write(f"{text}\n\n")
                written += 1
        if written:
            os.replace(temporary, out)
    finally:
        if temporary.exists():
            temporary.unlink()
    return written
