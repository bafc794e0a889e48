"""Arrow schemas of the warehouse tables (documented in docs/warehouse.md), a runs row and how to
read its settings back (every reader of run metadata asks here), the version rows record, and the
names of summary counts older versions wrote."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

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
        ("split", pa.bool_()),  # a pot or share was divided among tied hands
        ("scoop", pa.bool_()),  # showdown mode: one seat alone collected every chip (others: null)
        ("triple_scoop", pa.bool_()),  # showdown mode, boards with shares: one seat alone best on every board
        ("boards", pa.list_(pa.string())),
        ("surviving_boards", pa.list_(pa.int8())),
        ("options", pa.string()),
        ("fractional_stacks", pa.bool_()),
        ("notes", pa.list_(pa.string())),
        ("extra_fields", pa.string()),
        ("phh", pa.string()),
        # money (RULINGS, "Real-money hand histories"): every amount of the hand (stacks, bets, pot,
        # won, rake) is a whole number of 10^-amount_decimals of its currency; 0 for chips
        ("amount_decimals", pa.int8()),
        ("currency", pa.string()),  # the file's currency (USD, EUR...; null: chips or not named)
        ("rake", pa.int64()),  # the pot less what the record has collected (units)
        ("record", pa.string()),  # checked, decided by the record, unchecked, or simulated
        ("venue", pa.string()),
        ("table_name", pa.string()),
        ("played_on", pa.date32()),  # the file's day, month and year
        ("played_time", pa.time64("us")),  # the file's time, in its time_zone
        ("time_zone", pa.string()),
        # showdown-mode simulation keeps its seats in the hand row, one list item per seat (seat 0
        # first); the players and actions views unnest them. Other hands: null.
        ("seat_hole", pa.list_(pa.string())),  # hole cards as dealt, as in PHH ("AhKd")
        ("seat_strength", pa.list_(pa.int32())),  # showdown strength (-1: no hand at the showdown)
        ("seat_won", pa.list_(pa.int64())),  # chips won
        # a discard board: per hole card, 0 kept, else the street (1: flop) it was forced out on
        ("seat_discard_street", pa.list_(pa.list_(pa.int8()))),
        ("seat_low", pa.list_(pa.int16())),  # low share: low points at the showdown (-1: none)
        ("seat_won_low", pa.list_(pa.int64())),  # a low half: chips won from it
        ("seat_board_won", pa.list_(pa.list_(pa.int64()))),  # boards with shares: chips won on each board
        # a draw game: the cards held at the showdown, and per draw (in street order) the cards thrown
        # and the cards drawn ("" where the seat stood pat)
        ("seat_final_hole", pa.list_(pa.string())),
        ("seat_thrown", pa.list_(pa.list_(pa.string()))),
        ("seat_received", pa.list_(pa.list_(pa.string()))),
    ]
)

# The layout of showdown-mode rows' seat lists (recorded in a simulation run's details): rows of
# older layouts (card codes, bit masks) are left out by the views, with a message.
SEAT_LAYOUT = 2

# The warehouse's schema version, recorded in every file's key-value metadata under
# VERSION_KEY (docs/warehouse.md, "Schema versions"). Files without it were written before
# versions were recorded: version 2, or 1 for showdown-mode runs of an older seat layout.
SCHEMA_VERSION = 3
VERSION_KEY = b"scooplab.schema_version"


class NewerSchemaError(ValueError):
    """A file written by a newer scooplab than this one, which would misread it."""


def versioned(schema: pa.Schema) -> pa.Schema:
    """A table's schema carrying this version in its metadata (as each written file does).

    >>> versioned(pa.schema([("a", pa.int8())])).metadata
    {b'scooplab.schema_version': b'3'}
    """
    return schema.with_metadata({VERSION_KEY: str(SCHEMA_VERSION).encode()})


def check_version(metadata: dict[bytes, bytes] | None, where: str) -> None:
    """Raise NewerSchemaError if a file's metadata names a version this scooplab cannot read.

    >>> check_version({VERSION_KEY: b"4"}, "runs/x.parquet")
    Traceback (most recent call last):
    ...
    ingest.storage.schema.NewerSchemaError: runs/x.parquet was written by a newer scooplab \
(schema version 4; this one reads versions 1 to 3): upgrade scooplab to read it
    """
    found = (metadata or {}).get(VERSION_KEY)
    if found is not None and not found.isdigit():
        raise NewerSchemaError(f"{where} names an unknown schema version {found.decode(errors='replace')!r}")
    version = int(found) if found is not None else None
    if version is not None and version > SCHEMA_VERSION:
        readable = f"this one reads versions 1 to {SCHEMA_VERSION}"
        raise NewerSchemaError(f"{where} was written by a newer scooplab (schema version {version}; "
                               f"{readable}): upgrade scooplab to read it")  # fmt: skip


# where and when a hand was played (ingest.histories.metadata reads them from the file)
METADATA_COLUMNS = ("currency", "venue", "table_name", "played_on", "played_time", "time_zone")

SEAT_ARRAYS = (
    "scoop",
    "triple_scoop",
    "seat_hole",
    "seat_strength",
    "seat_won",
    "seat_discard_street",
    "seat_low",
    "seat_won_low",
    "seat_board_won",
    "seat_final_hole",
    "seat_thrown",
    "seat_received",
)  # fmt: skip  (columns only showdown-mode rows fill)

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
        ("table_seat", pa.int16()),  # the seat's number at the table (PHH ``seats``; null: not given)
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
        # once the action (and the uncalled bet it returns, if it closes a round or the hand) is
        # applied: the seat's stack (null for a board deal) and every chip put in; never winnings.
        # Null in files written before the columns (docs/warehouse.md)
        ("stack_after", pa.int64()),
        ("pot_after", pa.int64()),
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


# Names of summary counts (``summaries``: query, key, column) that older scooplab versions wrote,
# read under today's names: queries named for the game they were first written for before they were
# named for what they count, and forced-discard counts kept for three streets only (before any number
# of streets was counted). Stored runs keep the old names; readers ask ``current_summary_count``.
LEGACY_QUERY_NAMES = {"scarney_seats": "discard_seats", "scarney_remaining": "discard_remaining",
                      "cry_kills": "kills", "skoejarth_fan": "best_hole_card"}  # fmt: skip
LEGACY_COUNT_NAMES = {
    ("discard_seats", "", "dead_on_flop"): ("discard_seats", "", "dead_on_first_street")
} | {
    ("discard_seats", "", f"{name}_discards"): ("discard_streets", str(number), "discards")
    for number, name in enumerate(("flop", "turn", "river"), start=1)
}


def current_summary_count(query: str, key: str, column: str) -> tuple[str, str, str]:
    """A stored summary count's (query, key, column) under today's names, whichever version wrote it.

    >>> current_summary_count("scarney_seats", "", "turn_discards")
    ('discard_streets', '2', 'discards')
    >>> current_summary_count("kills", "2", "boards")
    ('kills', '2', 'boards')
    """
    where = (LEGACY_QUERY_NAMES.get(query, query), key, column)
    return LEGACY_COUNT_NAMES.get(where, where)


def _figure(name: str) -> list[tuple[str, pa.DataType]]:
    return [(name, pa.float64()), (f"{name}_low", pa.float64()), (f"{name}_high", pa.float64())]


SHARE = pa.struct([("part", pa.string()), ("share", pa.float64()), ("low", pa.float64()),
                   ("high", pa.float64())])  # fmt: skip

# Starting-hand tables (scooplab hands): one row per class, or per value of a feature, of one
# game, table size and rule set; partitioned variant=<game>/run=<table key>/ (one file a key).
STARTING_HANDS = pa.schema(
    [
        ("variant", pa.string()),
        ("options", pa.string()),  # the rule options in force, JSON
        ("players", pa.int8()),
        ("kind", pa.string()),  # "class", or a feature's name (pairs, suited, low_points...)
        ("hand_group", pa.string()),  # the class (AKs, KaKb6a) or the feature's value as text
        ("value", pa.int32()),  # a feature's value (null for a class)
        ("rank", pa.int32()),  # by equity among the rows of its kind, 1 the best
        ("combos", pa.int64()),  # a class: its combinations in the deck; a feature: seats counted
        ("frequency", pa.float64()),  # share of all starting hands (a feature: sampled)
        ("runouts", pa.int64()),  # runouts behind the row's figures
        *_figure("equity"), *_figure("win"), *_figure("tie"), *_figure("scoop"),
        *_figure("dead"),  # a discard board: lost every hole card (else null)
        ("shares", pa.list_(SHARE)),  # each part of the pot (high/low halves, boards), if several
        ("method", pa.string()),
        ("samples", pa.int64()),  # runouts a class, or deals of a feature table
        ("seed", pa.int64()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("scooplab_version", pa.string()),
    ]
)  # fmt: skip

# Heads-up all-in equity of class against class (scooplab solve pushfold), one file a game, rule
# set, samples and seed: class_matchups/variant=<game>/run=<key>/table.parquet
CLASS_MATCHUPS = pa.schema(
    [
        ("variant", pa.string()),
        ("options", pa.string()),
        ("hand_group", pa.string()),  # the small blind's class
        ("against", pa.string()),  # the big blind's class
        ("equity", pa.float64()),  # the small blind's all-in equity, heads-up
        ("pairs", pa.int64()),  # pairs of combinations the cards allow
        ("samples", pa.int64()),  # runouts sampled a pair of classes
        ("seed", pa.int64()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("scooplab_version", pa.string()),
    ]
)

# Heads-up push/fold equilibria, one row a class and stack: pushfold/variant=<game>/run=<key>/
# stack-<S>-ante-<A>.parquet (the key that of the matchups it was solved on)
PUSHFOLD = pa.schema(
    [
        ("variant", pa.string()),
        ("options", pa.string()),
        ("stack", pa.float64()),  # each player's stack in big blinds before posting
        ("ante", pa.float64()),  # each player's ante in big blinds
        ("hand_group", pa.string()),
        ("push", pa.float64()),  # the small blind's probability of going all in
        ("call", pa.float64()),  # the big blind's probability of calling an all-in
        ("push_gain", pa.float64()),  # big blinds a hand pushing gains over folding (against the calls)
        ("call_gain", pa.float64()),  # big blinds a hand calling gains over folding (against the pushes)
        ("value", pa.float64()),  # the small blind's expected result in big blinds
        ("exploitability", pa.float64()),  # what best responses gain, both sides together
        ("share", pa.float64()),  # the class's (bucket's) share of all starting hands
        ("equity", pa.float64()),  # its all-in equity against a random hand, heads-up
        ("called_equity", pa.float64()),  # its equity against the calling range (null: never called)
        (
            "abstraction",
            pa.string(),
        ),  # "classes" (suit symmetry: exact) or "buckets" (engine.solving.buckets)
        ("plan", pa.string()),  # JSON: what the matchups were computed from (engine.solving.pushfold.Plan)
        ("full_exploitability_low", pa.float64()),  # buckets: best responses on real hands, cross-fitted
        ("full_exploitability_high", pa.float64()),  # buckets: the same, in-sample (biased up)
        ("full_exploitability_error", pa.float64()),  # buckets: standard error of the low figure
        ("iterations", pa.int32()),
        ("method", pa.string()),
        ("samples", pa.int64()),
        ("seed", pa.int64()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("scooplab_version", pa.string()),
    ]
)

# The pool of sampled starting hands that fixes the buckets of a game too big for classes, one
# row a hand: bucket_pool/variant=<game>/run=<key>/table.parquet (the key of its matchups)
BUCKET_POOL = pa.schema(
    [
        ("variant", pa.string()),
        ("options", pa.string()),
        ("hand", pa.list_(pa.string())),  # the hole cards, as in PHH ("As", "Td")
        ("score", pa.float64()),  # estimated all-in equity against a random hand, heads-up
        ("bucket", pa.string()),  # B01 the strongest
        ("runouts", pa.int64()),  # runouts the score was estimated on
        ("seed", pa.int64()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("scooplab_version", pa.string()),
    ]
)

TABLES = {
    "hands": HANDS, "players": PLAYERS, "actions": ACTIONS, "runs": RUNS, "rejects": REJECTS,
    "summaries": SUMMARIES, "starting_hands": STARTING_HANDS, "class_matchups": CLASS_MATCHUPS,
    "pushfold": PUSHFOLD, "bucket_pool": BUCKET_POOL,
}  # fmt: skip


def new_run_id(kind: str) -> str:
    """A fresh run id such as ``ingest-20261129-141502-3fa2``."""
    import uuid

    return f"{kind}-{datetime.now(UTC):%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:4]}"


def run_row(**fields) -> pa.Table:
    """One ``runs`` row; columns not given are null."""
    unknown = set(fields) - set(RUNS.names)
    if unknown:
        raise ValueError(f"runs has no columns {sorted(unknown)}")
    return pa.table({name: [fields.get(name)] for name in RUNS.names}, schema=RUNS)


def scooplab_version() -> str:
    """The installed scooplab's version, from the package metadata (a source tree: ``0.0.0+source``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scooplab")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0+source"


def run_structure(run: dict[str, Any]) -> str | None:
    """A runs-table row's betting structure: betting mode's from its details, ``all-in`` in
    showdown mode, None for an ingest (its hands may have several)."""
    if run.get("mode") == "showdown":
        return "all-in"
    if run.get("mode") == "betting":
        return json.loads(run.get("details") or "{}").get("structure", "no-limit")  # older runs: no-limit
    return None


def run_ante(run: dict[str, Any]) -> str:
    """A betting-mode run's ``simulate --ante`` in big blinds (``1/8``), "" for the game's own."""
    return str(json.loads(run.get("details") or "{}").get("ante") or "")


def run_big_blind(run: dict[str, Any]) -> int | None:
    """A betting-mode run's big blind from its runs-table row (older runs: 2% of the stake)."""
    found = json.loads(run.get("details") or "{}").get("big_blind")
    if found:
        return int(found)
    from engine.rules.betting import blinds_of  # the games' descriptions load with it: not at start-up

    return blinds_of(int(run.get("stake") or 100))[1]


def seat_policies(policies: list[str], players: int) -> list[str]:
    """The shortest list of policies that, repeated round the table, seats what ``policies`` does.

    >>> seat_policies(["tag", "random", "tag", "random"], 6), seat_policies(["tag", "station", "tag"], 2)
    (['tag', 'random'], ['tag', 'station'])
    """
    seats = [policies[s % len(policies)] for s in range(players)]
    period = next(p for p in range(1, players + 1) if all(seats[s] == seats[s % p] for s in range(players)))
    return seats[:period]
