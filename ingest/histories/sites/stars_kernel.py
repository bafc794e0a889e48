"""PokerStars and GGPoker hand histories read by compiled code, many hands a call: each hand of a
file written as the PHH text the Python reader gives (``phh.write_hand`` of ``to_phh.phh_fields``
of ``pokerstars.read_hand``), byte for byte, or left to that reader.

``find_hands`` finds each hand's first line as the formats' patterns do (``sites.FORMATS``);
``read_headers`` reads those lines: the hand id, the date, and the line as a key (without its id,
its date's digits made zeros) whose meaning ``stars_headers`` gets from the Python reader once a
file for each kind of first line (the game, stakes, tournament...); ``read_hands`` reads each hand's
lines (``stars_lines``: seats, posts, actions, boards, cards, the summary) and writes its PHH
(``stars_write``), after a ``[n]`` line of its own, into one ``.phhs`` text the block reader takes
(``bulk_read.read_block``). A hand is ``TAKEN`` only when every line is one these modules read
exactly as the Python reader does and the file agrees with its own arithmetic
(``site_hand.arithmetic_notes``); any other hand (another kind of game, a straddle, a blind posted
out of turn, a board run twice, a cash-out, an odd name, a line they do not know...) is
``FALLBACK``: its section says so and the Python reader reads it, with its fields or its reason
(``SiteRead.hand``). Reading never goes past a hand's bytes, and a hand is written only when the
room its counts allow is free.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from engine.hands.borrowed import borrowed
from ingest.histories import sites
from ingest.histories.sites import stars_headers
from ingest.histories.sites.stars_bytes import (
    SPACE,
    at,
    date,
    digit,
    find,
    header_bytes,
    literal,
    upper,
    valid_when,
    whole,
)
from ingest.histories.sites.stars_hand import (
    H_MOVES,
    H_SEATS,
    H_SHOWS,
    H_TABLE_A,
    H_TABLE_B,
    H_WHY,
    S_NAME_A,
    S_NAME_B,
    WHY_CHECK,
    WHY_FIRST_LINE,
    WHY_ID,
    WHY_KIND,
    WHY_NUMBER,
    WHY_SEATS,
    new_work,
)
from ingest.histories.sites.stars_lines import read_hand
from ingest.histories.sites.stars_write import (
    P_CURRENCY,
    P_VENUE,
    PARTS,
    part,
    put,
    put_int,
    put_lit,
    write_actions,
    write_head,
    write_players,
    write_site_fields,
    write_winnings,
)
from ingest.histories.sites.text import normalized_text, utf16_order

TAKEN, FALLBACK = 0, 1
STARS, GG = 0, 1  # the formats read: their places in ``sites.FORMATS``
MOST_REST = 400  # bytes of a first line after the id (longer: the Python reader)
# a hand's first line and where the hand is: columns of ``heads``
(BEGIN, END, STRIPPED, BODY, LINE, FORMAT, STATUS, INFO, VENUE, ID_A, ID_B, REST_A, REST_B, DATED,
 YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ZONE_A, ZONE_B, KEY_A, KEY_B, KEY_HASH) = range(25)  # fmt: skip
HEAD_COLUMNS = 25
DIGITS, LETTERS = 0, 1  # a hand id that is a number (``hand``), or not (``_hand_id``)


class Out(NamedTuple):
    """Each hand's section, one after another in ``data``; ``status`` per hand; ``counts``: bytes
    written, hands taken, hands whose text passed the room counted for it (never: a test checks)."""

    data: np.ndarray
    status: np.ndarray
    why: np.ndarray  # a hand left to the Python reader: ``stars_hand.H_WHY``'s
    counts: np.ndarray


_VENUES = (literal("PokerStars"), literal("Run It Once Poker"), literal("PokerMaster"), literal("PokerBros"),
           literal("Full Tilt"))  # fmt: skip
_ZOOM, _HOME, _HOMES, _RUSH = (
    literal(" Zoom"),
    literal(" Home Game"),
    literal(" Home Games"),
    literal(" Rush"),
)
_HAND, _GAME, _GG = literal(" Hand #"), literal(" Game #"), literal("Poker Hand #")
_DASH = literal(" - ")


@njit(cache=True)
def _number_end(buf, p, e, letters) -> int:
    """The end of ``#``'s id and its colon (``\\d+:``, GGPoker's ``[A-Z]{0,4}\\d+:``): the colon's
    place, -1 when the pattern does not match, -2 when a byte past ASCII leaves it open."""
    i = p
    if letters:
        while i < e and i - p < 5 and upper(buf[i]):
            i += 1
        if i - p > 4:
            return -1
    start = i
    while i < e and digit(buf[i]):
        i += 1
    if i < e and buf[i] >= 128:
        return -2
    if i == start or i >= e or buf[i] != 58:
        return -1
    return i


@njit(cache=True)
def _first_line(buf, p, e):
    """(format, venue, id start, the colon's place) when a hand opens at ``p`` (``sites.FORMATS``'
    patterns); format -1 when none does, -2 when bytes past ASCII leave it open."""
    if at(buf, p, e, _GG):
        colon = _number_end(buf, p + 12, e, True)
        return (GG if colon >= 0 else colon), 0, p + 12, colon
    for venue in range(len(_VENUES)):
        name = _VENUES[venue]
        if not at(buf, p, e, name):
            continue
        q = p + len(name)
        for option in range(5):
            r = q
            if option == 1:
                r = q + len(_ZOOM) if at(buf, q, e, _ZOOM) else -1
            elif option == 2:
                r = q + len(_HOME) if at(buf, q, e, _HOME) else -1
            elif option == 3:
                r = q + len(_HOMES) if at(buf, q, e, _HOMES) else -1
            elif option == 4:
                r = q + len(_RUSH) if at(buf, q, e, _RUSH) else -1
            if r < 0 or not (at(buf, r, e, _HAND) or at(buf, r, e, _GAME)):
                continue
            colon = _number_end(buf, r + 7, e, False)
            if colon == -2:
                return -2, venue, r + 7, colon
            if colon >= 0:
                return STARS, venue, r + 7, colon
        return -1, 0, 0, 0
    return -1, 0, 0, 0


OPEN_FIRST_LINE, NO_ROOM, NOT_PLAIN = -1, -2, -3  # what ``find_hands`` says instead of a count


@njit(cache=True)
def find_hands(buf, starts, ascii) -> int:
    """The hands of a file, found as ``sites.site_hands`` finds them: each from a line a format's
    first line pattern matches to the next. Fills ``starts`` (rows: where the hand opens, its
    format, its line number, its venue, where its id starts, its colon); returns how many, or
    ``OPEN_FIRST_LINE`` when bytes past ASCII leave a first line open (the Python reader then
    reads the file), ``NO_ROOM`` when ``starts`` is too short, ``NOT_PLAIN`` when the bytes are
    not those ``text.normalized_text`` keeps as they are (unless ``ascii``, they are checked as
    they are read: UTF-8 without byte-order marks, carriage returns or non-breaking spaces)."""
    buf, starts = borrowed((buf, starts))
    n, line, p, e = 0, 1, 0, len(buf)
    while p < e:
        end = p
        while end < e and buf[end] != 10:
            x, size = buf[end], 1
            if x >= 128 and not ascii:
                size = _plain_utf8(buf, end, e)
            if x == 13 or size == 0:
                return NOT_PLAIN
            end += size
        if buf[p] == 80 or buf[p] == 82 or buf[p] == 70:  # P, R, F: every pattern's first letter
            kind, venue, id_start, colon = _first_line(buf, p, end)
            if kind == -2:
                return OPEN_FIRST_LINE
            if kind >= 0:
                if n >= len(starts):
                    return NO_ROOM
                starts[n, 0], starts[n, 1], starts[n, 2] = p, kind, line
                starts[n, 3], starts[n, 4], starts[n, 5] = venue, id_start, colon
                n += 1
        line += 1
        p = end + 1
    return n


@njit(cache=True)
def _plain_utf8(buf, i, e) -> int:
    """The bytes of the well-formed UTF-8 sequence at ``i`` (Python's strict decoder's: no overlong
    form, surrogate or code point past U+10FFFF), 0 when there is none or it is U+FEFF, U+00A0 or
    U+202F (``normalized_text`` changes them)."""
    x = buf[i]
    size = 2 if 0xC2 <= x <= 0xDF else 3 if 0xE0 <= x <= 0xEF else 4 if 0xF0 <= x <= 0xF4 else 0
    if size == 0 or i + size > e:
        return 0
    for k in range(1, size):
        if not 0x80 <= buf[i + k] <= 0xBF:
            return 0
    y, z = buf[i + 1], buf[i + 2] if size > 2 else 0
    if (
        (x == 0xE0 and y < 0xA0)
        or (x == 0xED and y > 0x9F)
        or (x == 0xF0 and y < 0x90)
        or (x == 0xF4 and y > 0x8F)
    ):
        return 0
    if (
        (x == 0xC2 and y == 0xA0)
        or (x == 0xEF and y == 0xBB and z == 0xBF)
        or (x == 0xE2 and y == 0x80 and z == 0xAF)
    ):
        return 0
    return size


@njit(cache=True)
def _stripped_end(buf, p, e) -> int:
    """The end of ``buf[p:e]`` without the white space ``str.strip`` drops (ASCII's; -1 when the
    last byte left is past ASCII: it may be Unicode white space)."""
    while e > p and (buf[e - 1] == SPACE or (9 <= buf[e - 1] <= 13) or (28 <= buf[e - 1] <= 31)):
        e -= 1
    return -1 if e > p and buf[e - 1] >= 128 else e


@njit(cache=True)
def read_headers(buf, starts, heads, keys) -> int:
    """Each hand's first line into ``heads`` (its bytes, id, rest, date) and its key into ``keys``
    (the rest after the id, the digits of its date made zeros: ``stars_headers`` reads it once for
    all hands of that kind); returns the bytes of ``keys`` used."""
    buf, starts, heads, keys = borrowed((buf, starts, heads, keys))
    when = np.zeros(9, np.int64)
    used, count = 0, len(heads)
    for h in range(count):
        begin = starts[h, 0]
        end = starts[h + 1, 0] if h + 1 < count else len(buf)
        line_end = begin
        while line_end < end and buf[line_end] != 10:
            line_end += 1
        heads[h, BEGIN], heads[h, END], heads[h, LINE] = begin, end, starts[h, 2]
        heads[h, FORMAT], heads[h, VENUE] = starts[h, 1], starts[h, 3]
        heads[h, ID_A], heads[h, ID_B] = starts[h, 4], starts[h, 5]
        heads[h, STRIPPED] = _stripped_end(buf, begin, end)
        heads[h, BODY] = min(line_end + 1, end)
        rest = starts[h, 5] + 1
        while rest < line_end and buf[rest] == SPACE:
            rest += 1
        heads[h, REST_A], heads[h, REST_B] = rest, line_end
        heads[h, STATUS] = _header_status(buf, begin, line_end, heads[h, STRIPPED], starts[h, 5], rest)
        if heads[h, STATUS] != TAKEN:
            continue
        used = _dated(buf, heads, h, when, keys, used)
    return used


_HOME_GAME = literal("Home Game")


@njit(cache=True)
def _header_status(buf, begin, line_end, stripped, colon, rest) -> int:
    """FALLBACK for a first line the Python reader may read otherwise than ASCII patterns do, a home
    game (``_home_game``), a long one, or a hand whose text ends with a byte past ASCII."""
    if stripped < 0 or stripped <= line_end or not header_bytes(buf, begin, line_end):
        return FALLBACK
    if line_end - rest > MOST_REST or rest - colon > 8 or find(buf, begin, line_end, _HOME_GAME) >= 0:
        return FALLBACK
    return TAKEN


@njit(cache=True)
def _dated(buf, heads, h, when, keys, used) -> int:
    """The date of hand h's first line (``text.when_of``: the first date in it) and its key: the line
    with ``|`` for its id and zeros for its date's digits (and any after it), when the date is the
    last thing in it (``- DATE[ ZONE][ [DATE ZONE]]``); else the hand is FALLBACK. Returns the
    bytes of ``keys`` used."""
    rest, line_end = heads[h, REST_A], heads[h, REST_B]
    found = date(buf, rest, line_end, when)
    heads[h, DATED] = 0
    zero_from = line_end
    if found >= 0:
        if found - 3 < rest or not at(buf, found - 3, found, _DASH) or not _date_tail(buf, when[8], line_end):
            heads[h, STATUS] = FALLBACK
            return used
        zero_from = found
        heads[h, DATED] = 1 if valid_when(when) else 0
        for k in range(6):
            heads[h, YEAR + k] = when[k]
        heads[h, ZONE_A], heads[h, ZONE_B] = when[6], when[7]
    heads[h, KEY_A] = used
    for i in range(heads[h, BEGIN], line_end):
        if heads[h, ID_A] <= i < heads[h, ID_B]:
            if i == heads[h, ID_A]:
                keys[used] = 124
                used += 1
            continue
        keys[used] = 48 if i >= zero_from and digit(buf[i]) else buf[i]
        used += 1
    heads[h, KEY_B] = used
    heads[h, KEY_HASH] = _hash(keys, heads[h, KEY_A], used)
    return used


@njit(cache=True)
def _hash(keys, a, b) -> int:
    """FNV-1a of ``keys[a:b]`` (the kinds of first line are grouped by it, then checked byte for byte)."""
    value = np.uint64(0xCBF29CE484222325)
    for i in range(a, b):
        value = (value ^ np.uint64(keys[i])) * np.uint64(0x100000001B3)
    return np.int64(value >> np.uint64(1))


@njit(cache=True)
def same_keys(keys, heads, first) -> None:
    """Each hand whose key is not, byte for byte, that of the first hand of its kind (``first[kind]``:
    a hash shared by two keys) is left to the Python reader."""
    keys, heads, first = borrowed((keys, heads, first))
    for h in range(len(heads)):
        if heads[h, STATUS] != TAKEN:
            continue
        f = first[heads[h, INFO]]
        a, b, c, d = heads[h, KEY_A], heads[h, KEY_B], heads[f, KEY_A], heads[f, KEY_B]
        if b - a != d - c:
            heads[h, STATUS] = FALLBACK
            continue
        for i in range(b - a):
            if keys[a + i] != keys[c + i]:
                heads[h, STATUS] = FALLBACK
                break


@njit(cache=True)
def _date_tail(buf, p, e) -> bool:
    """What may follow a header's date so that no pattern of the Python reader's header finds
    anything in it but capitals (kept in the key): digits, ``/-: []()`` and capitals, no digit
    after a parenthesis (an amount's, in stakes, opens so)."""
    opened = False
    for i in range(p, e):
        x = buf[i]
        opened = opened or x == 40
        if opened and digit(x):
            return False
        if not (digit(x) or upper(x) or x == 47 or x == 45 or x == 58 or x == SPACE or x == 91 or x == 93
                or x == 40 or x == 41):  # fmt: skip
            return False
    return True


_PLACEHOLDER = literal("? the site reader reads this hand\n")  # a section the block scanner finds not plain
PLACEHOLDER_ROOM = 64  # its bytes and its header's, and more


@njit(cache=True)
def read_hands(buf, heads, first, tables, w, out) -> int:
    """Each hand from ``first`` on as a ``[n]`` line and its PHH (TAKEN), or a placeholder
    (FALLBACK), one after another in ``out.data`` from ``out.counts[0]``, until the end or a hand
    whose room is not left: returns the first hand not written."""
    buf, heads, tables, w, out = borrowed((buf, heads, tables, w, out))
    n = out.counts[0]
    for h in range(first, len(heads)):
        start, room = n, len(out.data) - n
        if room < PLACEHOLDER_ROOM:
            return h
        taken, info, why = False, heads[h, INFO], WHY_FIRST_LINE
        if heads[h, STATUS] == TAKEN:
            why = WHY_KIND if tables.info[info, 0] == 0 else WHY_ID
            id_kind, number = _id_kind(buf, heads[h, ID_A], heads[h, ID_B])
            if why == WHY_ID and id_kind >= 0:
                taken = read_hand(buf, heads[h, BODY], heads[h, STRIPPED], info, tables, w)
                why = w.hand[H_WHY]
            if taken:
                bound = _room(heads, h, tables, info, w)
                if bound > room:
                    return h
                end = _write(buf, heads, h, tables, w, (id_kind, number), out.data, _header(out.data, n, h))
                taken, why = end >= 0, WHY_NUMBER
                if taken:
                    out.counts[2] += end - start > bound
                    n = end
        if not taken:
            n = put_lit(out.data, _header(out.data, start, h), _PLACEHOLDER)
        out.status[h] = TAKEN if taken else FALLBACK
        out.why[h] = 0 if taken else why
        out.counts[0], out.counts[1] = n, out.counts[1] + taken
    return len(heads)


@njit(cache=True)
def _header(out, n, h) -> int:
    """A section's header line, ``[h + 1]``."""
    out[n] = 91
    n = put_int(out, n + 1, h + 1)
    out[n], out[n + 1] = 93, 10
    return n + 2


@njit(cache=True)
def _id_kind(buf, a, b):
    """(DIGITS and the number, or LETTERS) of a hand id (``to_phh``: ``hand`` when it is all digits
    and below 2^62, else ``_hand_id``); -1 for a number of more than 18 digits (the Python reader's)."""
    if b > a and not digit(buf[a]):
        return LETTERS, 0
    end, number = whole(buf, a, b, 18)
    return (DIGITS, number) if end == b else (-1, 0)


@njit(cache=True)
def _room(heads, h, tables, info, w) -> int:
    """Bytes hand h's section may take at most, from its counts (``counts[2]`` says if one ever did)."""
    room = 2048 + 2 * (heads[h, ID_B] - heads[h, ID_A]) + 2 * (w.hand[H_TABLE_B] - w.hand[H_TABLE_A])
    for k in range(PARTS):
        room += tables.parts[info, k, 1] - tables.parts[info, k, 0]
    room += tables.longest_zone
    for s in range(w.hand[H_SEATS]):
        room += 256 + 2 * (w.seat[S_NAME_B, s] - w.seat[S_NAME_A, s])
    return room + 64 * (w.hand[H_MOVES] + w.hand[H_SHOWS])


_DAY, _HAND_NUMBER, _MONTH, _TIME, _YEAR = literal("day = "), literal("hand = "), literal("month = "), \
    literal("time = "), literal("year = ")  # fmt: skip
_ZONE, _ABBREVIATION = literal('time_zone = "'), literal('time_zone_abbreviation = "')
_QUOTE_LINE, _NEWLINE = literal('"\n'), literal("\n")


@njit(cache=True)
def _write(buf, heads, h, tables, w, hand_id, out, n) -> int:
    """Hand h's PHH text (``phh.write_hand``: the fields in ``FIELD_ORDER``, then by name), or -1."""
    info, dated = heads[h, INFO], heads[h, DATED]
    n = write_head(tables, info, w, out, n)
    if n < 0:
        return -1
    n = write_actions(w, out, n)
    letters = hand_id[0] == LETTERS
    id_span = (heads[h, ID_A], heads[h, ID_B]) if letters else (0, 0)
    n = write_site_fields(buf, id_span, tables, info, w, out, n)
    n = part(tables, info, P_CURRENCY, out, n)
    if dated:
        n = _line_int(out, n, _DAY, heads[h, DAY])
    if not letters:
        n = _line_int(out, n, _HAND_NUMBER, hand_id[1])
    if dated:
        n = _line_int(out, n, _MONTH, heads[h, MONTH])
    n = write_players(buf, w, out, n)
    if dated:
        n = _time(buf, heads, h, tables, out, n)
    n = part(tables, info, P_VENUE, out, n)
    n = write_winnings(w, out, n)
    if n >= 0 and dated:
        n = _line_int(out, n, _YEAR, heads[h, YEAR])
    return n


@njit(cache=True)
def _line_int(out, n, lit, value) -> int:
    n = put_lit(out, n, lit)
    n = put_int(out, n, value)
    return put_lit(out, n, _NEWLINE)


@njit(cache=True)
def _time(buf, heads, h, tables, out, n) -> int:
    """``time = HH:MM:SS`` (seconds past 59 are 59), then the zone's name and abbreviation."""
    n = put_lit(out, n, _TIME)
    values = (heads[h, HOUR], heads[h, MINUTE], min(heads[h, SECOND], 59))
    for k in range(3):
        out[n], out[n + 1], out[n + 2] = 48 + values[k] // 10, 48 + values[k] % 10, 58
        n += 3
    out[n - 1] = 10
    a, b = heads[h, ZONE_A], heads[h, ZONE_B]
    if a < 0:
        return n
    n = put_lit(out, n, _ZONE)
    named = -1
    for z in range(len(tables.zone_lengths)):
        if tables.zone_lengths[z] == b - a and same_bytes(buf, a, tables.zone_abbreviations[z], b - a):
            named = z
    if named >= 0:
        n = put(out, n, tables.text, tables.zone_names[named, 0], tables.zone_names[named, 1])
    else:
        n = put(out, n, buf, a, b)
    n = put_lit(out, n, _QUOTE_LINE)
    n = put_lit(out, n, _ABBREVIATION)
    n = put(out, n, buf, a, b)
    return put_lit(out, n, _QUOTE_LINE)


@njit(cache=True)
def same_bytes(buf, a, row, size) -> bool:
    for i in range(size):  # noqa: SIM110 (numba: no generators)
        if buf[a + i] != row[i]:
            return False
    return True


# -- the Python side: a file's bytes in, its sections out ------------------------------------------


def _hands_of(data: bytes) -> tuple[bytes, np.ndarray, np.ndarray, int]:
    """``text.normalized_text(data).encode()`` (``data`` itself when reading changes nothing in it),
    its bytes as an array, and its hands' first lines (``find_hands``) and count."""
    text, utf16 = data, utf16_order(data) is not None
    if utf16 or data.startswith(codecs.BOM_UTF8):
        text = normalized_text(data).encode()
    while True:
        buf = np.frombuffer(text, np.uint8)
        starts = np.empty((len(text) // 200 + 64, 6), np.int64)  # a hand takes more than 200 bytes...
        count = find_hands(buf, starts, text.isascii())
        if count == NO_ROOM:  # (...or it does not)
            starts = np.empty((text.count(b"\nP") + text.count(b"\nR") + text.count(b"\nF") + 1, 6), np.int64)
            count = find_hands(buf, starts, True)
        if count != NOT_PLAIN or text is not data:
            return text, buf, starts, count
        text = normalized_text(data).encode()


WHY_WORDS = {
    WHY_FIRST_LINE: "its first line", WHY_KIND: "its game or header", WHY_ID: "a hand id of 19 digits",
    WHY_SEATS: "its seats", WHY_CHECK: "its players, boards or arithmetic",
    WHY_NUMBER: "a number no float writes",
}  # fmt: skip


@dataclass
class SiteRead:
    """A site file read by the kernel: each hand's section (``[n]`` and its PHH, or a placeholder
    for the Python reader) in ``sections``; each hand's status and first line (``heads``: where its
    bytes are in ``text``, the file's normalized UTF-8); how many hands' text passed their room."""

    sections: bytes
    status: np.ndarray
    heads: np.ndarray
    text: bytes
    overruns: int
    why: np.ndarray  # a hand left to the Python reader: the place of the line the kernel cannot read,
    # or a ``stars_lines.WHY_*`` (``reasons`` says it in words)

    def taken(self, h: int) -> bool:
        """Whether hand h's section is its PHH (else the Python reader reads it: ``hand``)."""
        return bool(self.status[h] == TAKEN)

    def label(self, h: int) -> str:
        """How a reject names hand h (``sites.site_hands``' label: its id and line)."""
        head = self.heads[h]
        return f"#{self.text[head[ID_A] : head[ID_B]].decode()} (line {head[LINE]})"

    def why_left(self, h: int) -> str:
        """Why the kernel left hand h to the Python reader, in words (or "" when it wrote it)."""
        why = int(self.why[h])
        if why >= 0:
            line = self.text[why : self.text.find(b"\n", why) % (len(self.text) + 1)]
            return "" if self.taken(h) else f"a line: {line[:80].decode('utf-8', 'replace')}"
        return WHY_WORDS.get(why, "")

    def hand(self, h: int) -> tuple[str, str, dict[str, Any] | None, str | None]:
        """Hand h as ``sites.site_hands`` reads it: its label, text, PHH fields or None, reason or None."""
        head = self.heads[h]
        _, header, reader = sites.FORMATS[head[FORMAT]]
        text = self.text[head[BEGIN] : head[END]].decode("utf-8")
        return sites.read_site_hand(text, int(head[LINE]), header, reader)


def read_site(data: bytes, write: Callable[[dict[str, Any]], str]) -> SiteRead | None:
    """A PokerStars or GGPoker file's hands read by the kernel (``write``: ``phh.write_hand``, for the
    pieces of PHH every hand of a kind shares); None when the Python reader must read the whole file
    (JSON, no hand, formats other than the kernel's in ``sites.FORMATS`` or in the file, a first line
    bytes past ASCII leave open)."""
    if not stars_headers.formats_known():
        return None
    text, buf, starts, count = _hands_of(data)
    head = text.lstrip(b" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f")[:1]
    if count <= 0 or head == b"{" or head >= b"\x80":
        return None  # no hand; Open Hand History (or Unicode white space before what may be)
    if stars_headers.other_format_in(text):
        return None  # hands of other formats too: the Python reader finds each format's
    heads = np.zeros((count, HEAD_COLUMNS), np.int64)
    keys = np.empty(count * (MOST_REST + 64), np.uint8)
    used = read_headers(buf, starts, heads, keys)
    tables = _tables(heads, keys[:used], write)
    room = np.empty(len(text) + 256 * count, np.uint8)
    out = Out(room, np.zeros(count, np.int8), np.zeros(count, np.int64), np.zeros(3, np.int64))
    hand, room = 0, new_work()
    while (hand := read_hands(buf, heads, hand, tables, room, out)) < count:
        bigger = np.empty(2 * len(out.data), np.uint8)
        bigger[: out.counts[0]] = out.data[: out.counts[0]]
        out = Out(bigger, out.status, out.why, out.counts)
    sections = out.data[: out.counts[0]].tobytes()
    return SiteRead(sections, out.status, heads, text, int(out.counts[2]), out.why)


def _tables(heads: np.ndarray, keys: np.ndarray, write: Callable[[dict[str, Any]], str]):
    """The kernel's tables for a file's kinds of first line (grouped by their keys' hashes, each key
    then checked against its group's first), each hand's kind in ``heads[:, INFO]``."""
    taken = np.flatnonzero(heads[:, STATUS] == TAKEN)
    _, first, kind = np.unique(heads[taken, KEY_HASH], return_index=True, return_inverse=True)
    heads[:, INFO] = 0
    heads[taken, INFO] = kind.reshape(-1)
    firsts = taken[first]
    same_keys(keys, heads, firsts)
    kinds = [keys[heads[f, KEY_A] : heads[f, KEY_B]].tobytes() for f in firsts.tolist()]
    return stars_headers.tables([stars_headers.header_kind(key, write) for key in kinds])
