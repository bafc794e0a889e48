"""Warehouse rows of showdown-mode simulated hands: one wide row per hand, built with numpy.

A showdown-mode hand has no decisions, so scooplab stores it as one row of the
``hands`` table whose ``seat_*`` columns are lists with one item per seat (seat 0
first): hole cards as card text, strengths, chips won, and what the game adds
(forced discards, low points, chips per board). Every column is a standard Arrow
type (``docs/warehouse.md``): cards are written as in PHH (``"AhKd"``), so a
reader needs no decoder. The analytics views unnest the lists into the
documented ``players`` and ``actions`` rows, so SQL reads simulated and replayed
hands alike. Nothing here loops over hands in Python.
"""

from __future__ import annotations

import json
import math
from functools import cache, lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engine.compiled.simulate import ENDINGS, SimBatch
from engine.hands.cards import Deck
from engine.rules.games import variant_code
from engine.rules.games.base import GameSpec
from ingest.storage.schema import HANDS

ALL_IN = "all-in"  # the structure column of showdown-mode hands


@lru_cache(maxsize=8)
def constant(value: str, count: int) -> pa.Array:
    """A string column holding one value, built from buffers without a Python list (chunks reuse it).

    >>> constant("all-in", 2).to_pylist(), constant("", 2).to_pylist()
    (['all-in', 'all-in'], ['', ''])
    """
    text = value.encode()
    if len(text) * count >= 2**31:
        raise ValueError(
            f"{count:,} copies of {value!r} pass a string column's 32-bit offsets: write smaller chunks"
        )
    offsets = np.arange(count + 1, dtype=np.int64).astype(np.int32) * np.int32(len(text))
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(text * count))


@cache
def card_pairs(deck: Deck) -> np.ndarray:
    """(deck size,) uint16: the two text bytes of every card id (rank, suit) as one value, in memory order."""
    texts = "".join(rank + suit for rank in deck.ranks for suit in deck.suits).encode("ascii")
    return np.frombuffer(texts, dtype=np.uint16).copy()


def card_texts(cards: np.ndarray, deck: Deck) -> pa.Array:
    """One card text per row of an (M, k) card-id array (``"AhKd"``); negative ids are left out.

    >>> from engine.hands.cards import STANDARD
    >>> card_texts(np.array([[51, 0], [12, -1]]), STANDARD).to_pylist()
    ['As2c', '5c']
    """
    rows = cards.reshape(cards.shape[0], -1)
    m, k = rows.shape
    if rows.min(initial=0) >= 0:  # every row full: fixed offsets, one gather
        offsets = np.arange(m + 1, dtype=np.int32) * (2 * k)  # (k may be 0: an empty board)
        data = card_pairs(deck)[rows]
    else:
        valid = rows >= 0
        offsets = np.zeros(m + 1, dtype=np.int32)
        np.cumsum(2 * valid.sum(axis=1), out=offsets[1:])
        data = card_pairs(deck)[rows[valid]]
    return pa.StringArray.from_buffers(m, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(data)))


def lists(values: pa.Array, width: int) -> pa.Array:
    """``values`` cut into lists of ``width`` items each.

    >>> lists(pa.array([1, 2, 3, 4]), 2).to_pylist()
    [[1, 2], [3, 4]]
    """
    count = len(values) // width if width else 0
    offsets = pa.array(np.arange(0, count * width + 1, width, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values)


def per_seat(values: np.ndarray, value_type: pa.DataType) -> pa.Array:
    """An (N, seats) array as N lists of one value per seat; (N, seats, m): lists of lists of m values."""
    column = pa.array(np.ascontiguousarray(values).reshape(-1), type=value_type)
    for width in reversed(values.shape[1:]):
        column = lists(column, width)
    return column


def chosen(flags: np.ndarray) -> pa.Array:
    """For each row of an (N, m) bool array, the list of the indices set (int8).

    >>> chosen(np.array([[True, False, True], [False, False, False]])).to_pylist()
    [[0, 2], []]
    """
    offsets = np.zeros(flags.shape[0] + 1, dtype=np.int32)
    np.cumsum(flags.sum(axis=1), out=offsets[1:])
    indices = np.broadcast_to(np.arange(flags.shape[1], dtype=np.int8), flags.shape)[flags]
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(indices))


FEW_VALUES = 1 << 16  # a column with at most this many distinct values is dictionary-encoded


def dictionary_columns(game: GameSpec, options: dict | None = None) -> tuple[str, ...]:
    """Columns of a game's showdown-mode rows with few distinct values (hole-card sets of a small hand).

    >>> from engine.rules.games import get_game
    >>> dictionary_columns(get_game("holdem")), dictionary_columns(get_game("scarney"))
    (('seat_hole',), ())
    """
    n_hole = sum(street.hole_cards for street in game.streets_under(options))
    return ("seat_hole",) if math.comb(game.deck.size, n_hole) <= FEW_VALUES else ()


def hand_ids(run_id: str, shard: int, first: int, count: int) -> pa.Array:
    """``<run>:<shard>:<index>`` ids, unique in the warehouse."""
    numbers = pc.cast(pa.array(np.arange(first, first + count, dtype=np.int64)), pa.string())
    return pc.binary_join_element_wise(f"{run_id}:{shard}:", numbers, "")


def _boards(batch: SimBatch) -> pa.Array:
    """Each hand's boards as card texts, cut to the streets dealt (forced discards can end a hand early)."""
    boards = batch.boards
    if batch.game.discard_board is not None:
        boards = boards.copy()
        undealt = batch.layout.board_street[None, :] > batch.extra["streets_dealt"][:, None]
        boards[np.broadcast_to(undealt[:, None, :], boards.shape)] = -1
    rows = boards.reshape(boards.shape[0] * boards.shape[1], boards.shape[2])  # (no -1: a board may be empty)
    return lists(card_texts(rows, batch.game.deck), boards.shape[1])


def _game_columns(batch: SimBatch) -> dict[str, pa.Array]:
    """The columns of what the game has: a discard board, a low share, boards that take shares."""
    game, extra, columns = batch.game, batch.extra, {}
    if game.discard_board is not None:  # per seat, per hole card: 0 kept, else the street it left on
        columns["seat_discard_street"] = per_seat(np.maximum(extra["discard_street"], 0), pa.int8())
    if game.low_share:
        columns["seat_low"] = per_seat(extra["low"], pa.int16())
    if game.low_half:
        columns["seat_won_low"] = per_seat(extra["won_low"], pa.int64())
    if game.board_shares:
        columns["seat_board_won"] = per_seat(extra["board_won"], pa.int64())
        columns["triple_scoop"] = pa.array(extra["triple_scoop"].any(axis=1))
    if game.draws:
        columns |= _draw_columns(batch)
    return columns


def _draw_columns(batch: SimBatch) -> dict[str, pa.Array]:
    """A draw game's seats: the cards held at the showdown, and each draw's cards thrown and drawn."""
    extra, deck = batch.extra, batch.game.deck
    n, p = len(batch), batch.n_players
    draw_streets = np.flatnonzero(batch.layout.draw_burns >= 0)
    columns = {"seat_final_hole": lists(card_texts(extra["final_hole"].reshape(n * p, -1), deck), p)}
    for name in ("thrown", "received"):
        cards = extra[name][:, draw_streets].transpose(0, 2, 1, 3)  # (hands, seats, draws, hole cards)
        texts = card_texts(cards.reshape(n * p * len(draw_streets), -1), deck)
        columns[f"seat_{name}"] = lists(lists(texts, len(draw_streets)), p)
    return columns


def simulated_columns(n: int) -> dict[str, pa.Array]:
    """The money columns of simulated hands: chips (no decimals), no rake, the rules' result.

    >>> simulated_columns(2)["record"].to_pylist()
    ['simulated', 'simulated']
    """
    return {
        "amount_decimals": pa.array(np.zeros(n, np.int8)),
        "rake": pa.array(np.zeros(n, np.int64)),
        "record": constant("simulated", n),
    }


def sim_hands(batch: SimBatch, run_id: str, shard: int, first: int, hand_no_base: int) -> pa.Table:
    """The ``hands`` rows of a simulated batch, seats included."""
    game = batch.game
    n, p = len(batch), batch.n_players
    ending, extra = batch.ending, batch.extra
    alive = extra["survivors"] | (ending != 0)[:, None]  # a hand that ended early kills no board
    hole = batch.hole
    columns = {
        "hand_id": hand_ids(run_id, shard, first, n),
        "run_id": constant(run_id, n),
        "variant": constant(game.name, n),
        "variant_code": constant(variant_code(game, game.structure), n),  # the game's own structure
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
        "split": pa.array(extra["outcome"] == 1),
        "scoop": pa.array((ending == 0) & (batch.won.max(axis=1) == p * batch.stake)),  # one seat took it all
        "boards": _boards(batch),
        "surviving_boards": chosen(alive),
        "options": constant(json.dumps(batch.options, sort_keys=True), n),
        "fractional_stacks": pa.array(np.zeros(n, dtype=bool)),
        **simulated_columns(n),
        "seat_hole": lists(card_texts(hole.reshape(n * p, -1), game.deck), p),
        "seat_strength": per_seat(batch.strength.astype(np.int32), pa.int32()),
        "seat_won": per_seat(batch.won, pa.int64()),
    } | _game_columns(batch)
    nulls = {name: pa.nulls(n, HANDS.field(name).type) for name in HANDS.names if name not in columns}
    return pa.table([columns.get(name, nulls.get(name)) for name in HANDS.names], schema=HANDS)
