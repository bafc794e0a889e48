"""Arrow schemas of the warehouse tables (documented in docs/warehouse.md)."""

from __future__ import annotations

import pyarrow as pa

HANDS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("variant_code", pa.string()),
        ("structure", pa.string()),
        ("source", pa.string()),
        ("source_file", pa.string()),
        ("hand_index", pa.int32()),
        ("hand_no", pa.int64()),
        ("n_players", pa.int8()),
        ("button", pa.int8()),
        ("big_blind", pa.int64()),
        ("pot", pa.int64()),
        ("showdown", pa.bool_()),
        ("ending", pa.string()),
        ("split", pa.bool_()),  # a pot or share was divided among tied hands (wide rows: null)
        ("boards", pa.list_(pa.string())),
        ("surviving_boards", pa.list_(pa.int8())),
        ("options", pa.string()),
        ("fractional_stacks", pa.bool_()),
        ("notes", pa.list_(pa.string())),
        ("extra_fields", pa.string()),
        ("phh", pa.string()),
        # showdown-mode simulation keeps its seats in the hand row (the players view unnests them)
        ("seat_hole", pa.string()),  # every seat's hole cards as dealt, seat after seat
        ("seat_discards", pa.string()),  # discard board: per hole card 0 kept, or the street (1-3) it left
        ("seat_won", pa.list_(pa.int64())),  # a low share: chips won per seat (others: from seat_winners)
        ("seat_strength", pa.list_(pa.int32())),  # -1: no showdown hand (dead)
        ("seat_low", pa.list_(pa.int16())),  # a low share: low points per seat at the showdown (-1: none)
        # winners as bit masks (bit = seat): one share the pot; a low share high | low << 10;
        # boards that take shares the best hand on board 0 | board 1 << 10 | board 2 << 20
        ("seat_winners", pa.int32()),
        ("board_text", pa.string()),  # the boards as one text, "/" between boards
        ("surviving_mask", pa.int8()),  # bit b: board b survived
    ]
)

SEAT_ARRAYS = (
    "seat_hole", "seat_discards", "seat_won", "seat_strength", "seat_low", "seat_winners", "board_text",
    "surviving_mask",
)  # fmt: skip

PLAYERS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("seat", pa.int8()),
        ("player", pa.string()),
        ("hole_cards", pa.string()),
        ("final_hole_cards", pa.string()),
        ("discarded", pa.int8()),
        ("discarded_cards", pa.string()),
        ("dead", pa.bool_()),
        ("voided", pa.bool_()),
        ("folded", pa.bool_()),
        ("mucked", pa.bool_()),
        ("showdown", pa.bool_()),
        ("starting_stack", pa.int64()),
        ("finishing_stack", pa.int64()),
        ("net", pa.int64()),
        ("won", pa.int64()),
        ("high_category", pa.string()),
        ("high_strength", pa.int64()),
        ("low_points", pa.int16()),
        ("won_high", pa.int64()),
        ("won_low", pa.int64()),
        ("board_won", pa.list_(pa.int64())),
        ("scoop", pa.bool_()),
        ("triple_scoop", pa.bool_()),
    ]
)

ACTIONS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("seq", pa.int16()),
        ("street", pa.string()),
        ("seat", pa.int8()),
        ("action", pa.string()),
        ("amount", pa.int64()),
        ("cards", pa.string()),
        ("board", pa.int8()),
        ("automatic", pa.bool_()),
    ]
)

RUNS = pa.schema(
    [
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("kind", pa.string()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("sources", pa.list_(pa.string())),
        ("hands", pa.int64()),
        ("rejected", pa.int64()),
        ("duplicates", pa.int64()),
        ("scooplab_version", pa.string()),
        ("details", pa.string()),
        # simulation runs
        ("mode", pa.string()),
        ("players", pa.int8()),
        ("seed", pa.string()),
        ("options", pa.string()),
        ("stake", pa.int64()),
        ("policies", pa.list_(pa.string())),
        ("shards", pa.int32()),
        ("shard_size", pa.int64()),
        ("shard_status", pa.list_(pa.string())),
        ("status", pa.string()),
        ("numpy_version", pa.string()),
        ("bit_generator", pa.string()),
    ]
)

REJECTS = pa.schema(
    [
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("source_file", pa.string()),
        ("hand_index", pa.int32()),
        ("error", pa.string()),
        ("raw", pa.string()),
    ]
)

SUMMARIES = pa.schema(
    [
        ("run_id", pa.string()),
        ("variant", pa.string()),
        ("shard", pa.int32()),
        ("query", pa.string()),
        ("key", pa.string()),
        ("column", pa.string()),
        ("value", pa.int64()),
    ]
)

TABLES = {
    "hands": HANDS, "players": PLAYERS, "actions": ACTIONS, "runs": RUNS, "rejects": REJECTS,
    "summaries": SUMMARIES,
}  # fmt: skip
