"""Warehouse rows of showdown-mode simulated hands: one wide row per hand, built with numpy.

A showdown-mode hand has no decisions, so scooplab stores it as one row of the
``hands`` table whose ``seat_*`` columns hold every seat's cards and results
(seat after seat). The analytics views unnest them into the documented
``players`` and ``actions`` columns, so SQL reads simulated and replayed hands
alike; the layout writes about six times fewer Parquet values than a row per
seat. Nothing here loops over hands in Python.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engine.games import variant_code
from engine.games.base import Structure
from engine.simulate import ENDINGS, SimBatch
from ingest.schema import HANDS

ALL_IN = "all-in"  # the structure column of showdown-mode hands


def constant(value: str, count: int) -> pa.Array:
    """A string column holding one value, built without a Python list (and built once)."""
    indices = pa.array(np.zeros(count, dtype=np.int8))
    return pa.DictionaryArray.from_arrays(indices, pa.array([value])).cast(pa.string())


CODE_BASE = 48  # a card's code is chr(48 + id): '0' is the deck's first card


def card_codes(cards: np.ndarray) -> pa.Array:
    """One string of one-character card codes per row of an (M, k) card array; padding skipped.

    >>> card_codes(np.array([[0, 51], [12, -1]])).to_pylist()
    ['0c', '<']
    """
    rows = cards.reshape(cards.shape[0], -1)
    if rows.size and rows.min() >= 0:
        width = rows.shape[1]
        offsets = np.arange(0, rows.shape[0] * width + 1, width, dtype=np.int32)
        data = (rows.astype(np.uint8) + CODE_BASE).reshape(-1)
    else:
        valid = rows >= 0
        offsets = np.zeros(rows.shape[0] + 1, dtype=np.int32)
        np.cumsum(valid.sum(axis=1), out=offsets[1:])
        data = rows[valid].astype(np.uint8) + CODE_BASE
    return pa.StringArray.from_buffers(rows.shape[0], pa.py_buffer(offsets), pa.py_buffer(data))


def _board_text(boards: np.ndarray) -> pa.Array:
    """Each hand's boards as one text of card codes, "/" between boards."""
    n, n_boards = boards.shape[:2]
    if boards.min() < 0:  # boards cut short: join per-board texts
        per_board = [card_codes(boards[:, b, :]) for b in range(n_boards)]
        return per_board[0] if n_boards == 1 else pc.binary_join_element_wise(*per_board, "/")
    chars = boards.astype(np.uint8) + CODE_BASE
    if n_boards > 1:
        slash = np.full((n, n_boards, 1), ord("/"), dtype=np.uint8)
        chars = np.concatenate([chars, slash], axis=2).reshape(n, -1)[:, :-1]
    chars = chars.reshape(n, -1)
    row = chars.shape[1]
    offsets = np.arange(0, n * row + 1, row, dtype=np.int32)
    return pa.StringArray.from_buffers(
        n, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(chars).reshape(-1))
    )


def hand_ids(run_id: str, shard: int, first: int, count: int) -> pa.Array:
    """``<run>:<shard>:<index>`` ids, unique in the warehouse."""
    numbers = pc.cast(pa.array(np.arange(first, first + count, dtype=np.int64)), pa.string())
    return pc.binary_join_element_wise(f"{run_id}:{shard}:", numbers, "")


def _per_hand(values: np.ndarray, value_type: pa.DataType) -> pa.Array:
    """An (N, m) array as a list column of N lists of m values."""
    n, width = values.shape[0], int(np.prod(values.shape[1:]))
    offsets = pa.array(np.arange(0, n * width + 1, width, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(values.reshape(-1), type=value_type))


def sim_hands(batch: SimBatch, run_id: str, shard: int, first: int, hand_no_base: int) -> pa.Table:
    """The ``hands`` rows of a simulated batch, seats included."""
    game = batch.game
    n, p = len(batch), batch.n_players
    ending = batch.ending
    extra = batch.extra
    discards = game.discard_board is not None
    # boards, cut to the streets dealt (a hand with forced discards can end early)
    boards = batch.boards.copy()
    if discards:
        undealt = batch.layout.board_street[None, :] > extra["streets_dealt"][:, None]
        boards[np.broadcast_to(undealt[:, None, :], boards.shape)] = -1
    n_boards = boards.shape[1]
    board_text = _board_text(boards)
    alive = extra["survivors"] | (ending != 0)[:, None]
    surviving = (alive * (1 << np.arange(n_boards))).sum(axis=1).astype(np.int8)
    nulls = {name: pa.nulls(n, HANDS.field(name).type) for name in HANDS.names}
    columns = {
        "hand_id": hand_ids(run_id, shard, first, n),
        "run_id": constant(run_id, n),
        "variant": constant(game.name, n),
        "variant_code": constant(variant_code(game, Structure.NO_LIMIT), n),
        "structure": constant(ALL_IN, n),
        "source": constant("simulation", n),
        "hand_index": pa.array(np.arange(first, first + n, dtype=np.int32)),
        "hand_no": pa.array(np.arange(hand_no_base + 1, hand_no_base + n + 1, dtype=np.int64)),
        "n_players": pa.array(np.full(n, p, dtype=np.int8)),
        "button": pa.array(np.full(n, p - 1, dtype=np.int8)),
        "big_blind": pa.array(np.full(n, batch.stake, dtype=np.int64)),
        "pot": pa.array(np.full(n, p * batch.stake, dtype=np.int64)),
        "showdown": pa.array(ending == 0),
        "ending": pa.DictionaryArray.from_arrays(pa.array(ending), pa.array(ENDINGS)).cast(pa.string()),
        "options": constant(json.dumps(batch.options, sort_keys=True), n),
        "fractional_stacks": pa.array(np.zeros(n, dtype=bool)),
        "seat_hole": card_codes(batch.hole.reshape(n, -1)),
        "seat_strength": _per_hand(batch.strength.astype(np.int32), pa.int32()),
        "board_text": board_text,
        "surviving_mask": pa.array(surviving),
    }
    columns["seat_winners"] = pa.array(extra["winners_mask"].astype(np.int32))
    if discards or game.low_share:  # chips per seat: the mask alone does not say them
        columns["seat_won"] = _per_hand(batch.won, pa.int64())
    if game.low_share:
        columns["seat_low"] = _per_hand(extra["low"], pa.int16())
    if discards:
        streets = extra["discard_street"].reshape(n, -1)
        digits = (np.maximum(streets, 0) + ord("0")).astype(np.uint8)  # 0 kept, else the street
        width = digits.shape[1]
        offsets = np.arange(0, n * width + 1, width, dtype=np.int32)
        columns["seat_discards"] = pa.StringArray.from_buffers(
            n, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(digits).ravel())
        )
    return pa.table([columns.get(name, nulls[name]) for name in HANDS.names], schema=HANDS)
