"""Plain ``.phhs`` files read a block at a time by compiled code (``ingest.histories.scan_kernel``).

A ``Block`` is the hands of one file: where each hand's fields are, their numbers, their content
ids, and their fields as JSON (what ``rows.hand_id`` hashes and ``extra_fields`` stores). A hand
that is not written plainly keeps its text and is read as before (``Block.raw``: ``tomllib``
and the state machine, with every reject message). Whether a hand is plain never changes what
is stored, only how fast: tests hold the rows of both ways equal.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa

from ingest.histories import scan_kernel as sk
from ingest.histories.phh import MAX_KEY_PARTS, RawHand, parse_hand_text, section_hand
from ingest.histories.rows import REQUIRED_FIELDS

# the fields a plain hand may have, with the kind of their value (others: read as before)
FIELD_KINDS = {
    "variant": sk.STRING, "antes": sk.NUMBERS, "blinds_or_straddles": sk.NUMBERS, "min_bet": sk.NUMBER,
    "small_bet": sk.NUMBER, "big_bet": sk.NUMBER, "starting_stacks": sk.NUMBERS, "actions": sk.STRINGS,
    "finishing_stacks": sk.NUMBERS, "winnings": sk.NUMBERS, "players": sk.STRINGS, "seats": sk.INTEGERS,
    "seat_count": sk.INTEGER, "venue": sk.STRING, "table": sk.STRING, "currency": sk.STRING,
    "currency_symbol": sk.STRING, "time_zone": sk.STRING, "time_zone_abbreviation": sk.STRING,
    "author": sk.STRING, "event": sk.STRING, "url": sk.STRING, "address": sk.STRING, "city": sk.STRING,
    "region": sk.STRING, "postal_code": sk.STRING, "country": sk.STRING, "day": sk.INTEGER,
    "month": sk.INTEGER, "year": sk.INTEGER, "hand": sk.INTEGER, "level": sk.INTEGER, "time": sk.TIME,
    "ante_trimming_status": sk.BOOLEAN,
    # a site file's facts PHH has no field for (``sites.to_phh``; ``_notes`` is not: its hands go slowly)
    "_tournament": sk.STRING, "_buy_in": sk.STRING, "_fee": sk.STRING, "_bounty": sk.STRING,
    "_buy_in_currency": sk.STRING, "_buy_in_text": sk.STRING, "_level": sk.INTEGER, "_chips": sk.STRING,
    "_bounties": sk.STRINGS, "_hand_id": sk.STRING, "_fees": sk.STRING, "_home_game": sk.STRING,
}  # fmt: skip
KEY = {name: k for k, name in enumerate(FIELD_KINDS)}


@cache
def vocabulary() -> tuple[sk.Vocabulary, np.ndarray, np.ndarray]:
    """The scanner's vocabulary, the keys in ``json``'s sorted order, and those ``extra_fields`` keeps."""
    names = list(FIELD_KINDS)
    table = np.zeros((len(names), max(map(len, names))), np.uint8)
    for k, name in enumerate(names):
        table[k, : len(name)] = np.frombuffer(name.encode(), np.uint8)
    lengths = np.array([len(n) for n in names], np.int64)
    kinds = np.array(list(FIELD_KINDS.values()), np.int64)
    order = np.array(sorted(range(len(names)), key=names.__getitem__), np.int64)
    extra = np.array([name not in REQUIRED_FIELDS for name in names], np.bool_)
    return sk.Vocabulary(table, lengths, kinds, KEY["actions"]), order, extra


@dataclass
class Block:
    """The hands of one plain ``.phhs`` file: ``scanned`` (``scan_kernel.Scanned``) says where
    each is; plain hands have an ``ids`` entry and their ``extra`` JSON (others: empty)."""

    source_file: str
    data: bytes
    buffer: np.ndarray
    scanned: sk.Scanned
    ids: list[str]
    extra_json: np.ndarray  # the ``extra_fields`` JSON of the plain hands, one after another
    extra_spans: np.ndarray  # hand h's: extra_json[extra_spans[h, 0]:extra_spans[h, 1]]
    members: list[tuple[str, int]] | None = None  # archive members of one hand each: hand h is
    # members[h]'s, a name and its size (``phh.member_block`` ended it with a line break if it had none)
    site: Callable[[int], RawHand | str] | None = None  # a site file's (``phh._site_block``): hand h's
    # label (written by the compiled reader), or the site reader's hand (a hand it left)

    def source(self, h: int) -> str:
        """The file hand h comes from: the block's, or its archive member's."""
        return self.source_file if self.members is None else self.members[h][0]

    def index(self, h: int) -> int:
        """Hand h's place in its file (a member holds one hand)."""
        return h if self.members is None else 0

    def extra(self, h: int) -> str:
        """Hand h's ``extra_fields`` (a plain hand's)."""
        start, end = self.extra_spans[h]
        return self.extra_json[start:end].tobytes().decode()

    @property
    def hands(self) -> int:
        return int(self.scanned.counts[0])

    @property
    def plain(self) -> np.ndarray:
        return self.scanned.status[: self.hands] == sk.PLAIN

    def text(self, h: int) -> str:
        start, end = self.scanned.text[h]
        if self.members is not None:
            end = start + self.members[h][1]  # the member's own bytes
        return self.data[start:end].decode("utf-8", "surrogateescape")

    def raw(self, h: int) -> RawHand:
        """Hand h as the line reader gives it (its fields parsed by ``phh.parse_hand_text``); a site
        file's hand as its reader gives it (``site``)."""
        given = None if self.site is None else self.site(h)
        if isinstance(given, RawHand):
            return given
        raw = section_hand(self.text(h), self.source(h), self.index(h))
        return raw if given is None else dataclasses.replace(raw, label=given)

    def string(self, h: int, key: str) -> str | None:
        start, end = self.scanned.field[h, KEY[key]]
        return None if start == sk.ABSENT else self.data[start:end].decode()


def read_block(data: bytes, source_file: str, members: list[tuple[str, int]] | None = None) -> Block | None:
    """The block of a whole ``.phhs`` file's bytes, or None when it must be read line by line.

    With ``members``, ``data`` is archive members of one hand each, every one after a header line
    of its own (``phh.member_block``): a block only when it holds exactly that many hands."""
    buffer = np.frombuffer(bytearray(data), np.uint8)  # writable: the kernels take one type of array
    words, order, extra = vocabulary()
    scanned = sk.scanned_for(buffer, len(order))
    found = -1 if scanned is None else sk.scan_block(buffer, True, words, scanned)
    if found <= 0 or (members is not None and found != len(members)):
        return None  # no hand, far too many for their bytes, or hands the line reader must split
    _check_dotted_keys(data, scanned, found)
    lengths = scanned.text[:found, 1] - scanned.text[:found, 0]
    room = 4 * int(lengths[scanned.status[:found] == sk.PLAIN].sum()) + 4 * found + 16  # JSON <= 4x the text
    out = sk.JsonOut(np.empty(room, np.uint8), np.zeros(found + 1, np.int64), np.empty(room, np.uint8),
                     np.zeros(found + 1, np.int64))  # fmt: skip
    sk.write_json(buffer, scanned, words, order, extra, out)
    ends = out.compact_ends.tolist()
    compact = out.compact[: ends[-1]].tobytes()
    plain = (scanned.status[:found] == sk.PLAIN).tolist()
    sha = hashlib.sha256
    ids = [
        sha(compact[a:b]).hexdigest()[:20] if p else ""
        for a, b, p in zip(ends, ends[1:], plain, strict=False)
    ]
    extra_spans = np.stack([out.spaced_ends[:-1], out.spaced_ends[1:]], axis=1)
    return Block(
        source_file, data, buffer, scanned, ids, out.spaced[: out.spaced_ends[-1]], extra_spans, members
    )


def _check_dotted_keys(data: bytes, scanned: sk.Scanned, found: int) -> None:
    """A plain hand with ``MAX_KEY_PARTS`` dots or more is left to the line reader when it would
    refuse it (a dotted key that long, even in a comment: ``phh.parse_hand_text``)."""
    spans = scanned.text[:found]
    dots = sk.dots_in(np.frombuffer(data, np.uint8), np.ascontiguousarray(spans))
    many = (dots >= MAX_KEY_PARTS) & (scanned.status[:found] == sk.PLAIN)
    for h in np.flatnonzero(many).tolist():
        text = data[spans[h, 0] : spans[h, 1]].decode("utf-8", "surrogateescape")
        if parse_hand_text(text, "", h).error is not None:
            scanned.status[h] = sk.BAD


def arrow_strings(buffer: np.ndarray, spans: np.ndarray, valid: np.ndarray | None = None,
                  suffix: bytes = b"") -> pa.Array:  # fmt: skip
    """The strings at ``spans`` (rows of start, end) of ``buffer`` (UTF-8), each followed by
    ``suffix``, as an Arrow string array built from one copy of their bytes (null where not
    ``valid``)."""
    count = len(spans)
    ends = np.where(valid, spans[:, 1], spans[:, 0]) if valid is not None else spans[:, 1]
    size = int((ends - spans[:, 0]).sum()) + count * len(suffix)
    offsets, data = np.zeros(count + 1, np.int32), np.empty(size, np.uint8)
    sk.gather(buffer, spans[:, 0], ends, np.frombuffer(suffix, np.uint8), offsets, data)
    mask = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little").tobytes())
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(data), mask)


def stripped_spans(buffer: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """``spans`` without the white space around each (spaces, tabs, line ends)."""
    out = np.empty_like(spans)
    sk.stripped(buffer, np.ascontiguousarray(spans), out)
    return out
