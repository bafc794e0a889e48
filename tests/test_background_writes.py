"""Writes on a second thread (#57): order kept, an error on either side ends both, a failed
simulation leaves no partial file, and the rows a shard writes are those the kernel's chunks make
one after another in line (the same bytes as before the writer moved off the dealing thread)."""

from __future__ import annotations

import threading

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ingest.generation.simulation import CHUNK, SimSpec, shard_name, simulate
from ingest.storage.background import BackgroundWrites
from ingest.storage.warehouse import Warehouse


def test_batches_are_written_in_order_on_another_thread():
    written, threads = [], set()

    def write(batch):
        threads.add(threading.get_ident())
        written.append(batch)

    with BackgroundWrites(write, depth=1) as background:
        for n in range(50):
            background.put(n)
    assert written == list(range(50)) and threads and threading.get_ident() not in threads


def test_a_failed_write_is_raised_in_the_caller_and_nothing_after_it_is_written():
    written = []

    def write(batch):
        if batch == 3:
            raise OSError("disk full")
        written.append(batch)

    with pytest.raises(OSError, match="disk full"), BackgroundWrites(write, depth=1) as background:
        for n in range(1_000):
            background.put(n)
    assert written == [0, 1, 2]


def test_a_failed_caller_stops_the_writer_and_its_error_is_the_one_raised():
    written = []
    with pytest.raises(ValueError, match="kernel"), BackgroundWrites(written.append) as background:
        background.put(1)
        raise ValueError("kernel")
    assert written in ([], [1])
    assert not [t for t in threading.enumerate() if t.name == "scooplab-writer"]  # no thread outlives it


def test_a_simulation_whose_writes_fail_says_why_and_leaves_no_file(tmp_path, monkeypatch):
    original = pq.ParquetWriter.write_table
    calls = []

    def failing(self, table, *args, **kwargs):
        calls.append(table.num_rows)
        if len(calls) == 2:
            raise OSError("no space left on device")
        return original(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", failing)
    with pytest.raises(OSError, match="no space left"):
        simulate(SimSpec("holdem", 3 * CHUNK, players=3, seed=4), str(tmp_path), run_id="r")
    assert not list(tmp_path.rglob(".tmp-*")) and not list((tmp_path / "hands").rglob("*.parquet"))


def test_a_shard_holds_the_rows_its_chunks_make_in_line(tmp_path):
    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from engine.rules.games import get_game
    from ingest.storage.sim_rows import sim_hands

    spec = SimSpec("cry-me-a-river", 2 * CHUNK + 1_000, players=4, seed=11).check()
    simulate(spec, str(tmp_path), run_id="r")
    stored = Warehouse(tmp_path).read("hands").sort_by("hand_index")
    game = get_game(spec.game)
    rng, words = spec.generator(0), words_per_hand(game, 4, spec.options)
    expected = []
    for start in range(0, spec.hands, CHUNK):
        u = random_words(rng, min(CHUNK, spec.hands - start), words)
        expected.append(sim_hands(simulate_chunk(game, 4, spec.stake, spec.options, u), "r", 0, start, start))
    inline = pa.concat_tables(expected).sort_by("hand_index")
    assert spec.shards == 1 and shard_name(0)
    for column in inline.column_names:
        wanted = inline.column(column).cast(stored.schema.field(column).type)
        assert stored.column(column).equals(wanted), column
    assert np.unique(stored.column("hand_id").to_numpy(zero_copy_only=False)).size == spec.hands


def test_a_betting_shard_holds_the_rows_its_chunks_make_in_line(tmp_path):
    from engine.rules.games import get_game
    from engine.rules.games.base import Structure
    from ingest.generation.betting_sim import batch_tables, play_batch

    policies = ("tag", "station", "random")
    spec = SimSpec("cry-me-a-river", 12_000, players=3, seed=8, mode="betting", policies=policies).check()
    assert spec.chunk < spec.hands  # several chunks, written while the next is played
    simulate(spec, str(tmp_path), run_id="r")
    game = spec.played(get_game(spec.game))
    seed_words = spec.generator(0).integers(0, 2**64, size=4, dtype=np.uint64)
    parts = []
    for start in range(0, spec.hands, spec.chunk):
        batch = play_batch(game, 3, spec.stake, spec.options, list(policies), seed_words,
                           min(spec.chunk, spec.hands - start), structure=Structure(spec.structure),
                           big_blind=spec.big_blind)  # fmt: skip
        parts.append(batch_tables(game, batch, run_id="r", shard=0, first=start, stake=spec.stake,
                                  options=spec.options, policies=list(policies),
                                  structure=Structure(spec.structure)))  # fmt: skip
    for index, table in enumerate(("hands", "players", "actions")):
        inline = pa.concat_tables([part[index] for part in parts])
        stored = Warehouse(tmp_path).read(table)
        assert stored.num_rows == inline.num_rows > 0, table
        for column in inline.column_names:  # every column, as it was written in line
            wanted = inline.column(column).cast(stored.schema.field(column).type)
            assert stored.column(column).equals(wanted), (table, column)


def test_when_both_sides_fail_the_callers_error_names_the_writers():
    def write(batch):
        raise OSError("disk full")

    with pytest.raises(ValueError, match="kernel") as raised, BackgroundWrites(write) as background:
        background.put(1)
        while background._thread.is_alive():  # the writer has failed
            pass
        raise ValueError("kernel")
    assert "the writer failed too: disk full" in getattr(raised.value, "__notes__", [])
