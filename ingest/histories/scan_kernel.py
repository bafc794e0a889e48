"""Compiled reading of ``.phhs`` bytes: hands, their fields and the numbers in them, many hands a call.

``scan_block`` walks a block of a file line by line. It finds each hand (a ``[name]`` line) and,
for a hand written plainly (one ``key = value`` a line, every key one of the vocabulary it is
given, each value of its key's kind: a string without escapes (in double quotes or apostrophes),
a number without sign, underscore or exponent, a ``HH:MM:SS`` time, ``true`` or ``false``, or a
one-line array of them), where each value is.
Numbers come out as their digits and decimals. Anything else marks the hand ``BAD``: the caller
reads it as before (``tomllib`` and the state machine), which keeps every reject message.
A block whose hands cannot be told apart as the line reader tells them (a ``[`` line that is
not a plain header, a carriage return, a Unicode line break, text before the first hand other
than comments) gives
-1: the caller reads the whole file as before. ``write_json`` writes the fields of the plain
hands as ``json`` writes the dict ``tomllib`` would give (sorted keys), so content ids and
stored fields are the same whichever way a hand was read.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.hands.borrowed import borrowed
from ingest.histories.phh import MAX_HAND_BYTES

PLAIN, BAD = 0, 1
BAD_LINE = -2  # what reading a line gives when the hand is not plain
# kinds of value a key takes
STRING, TIME, INTEGER, NUMBER, STRINGS, NUMBERS, INTEGERS, BOOLEAN = range(8)
ABSENT = -1
NEWLINE, TAB, SPACE, QUOTE, HASH, COMMA, DOT, COLON, EQUALS = 10, 9, 32, 34, 35, 44, 46, 58, 61
OPEN, CLOSE, BACKSLASH, APOSTROPHE = 91, 93, 92, 39
MOST_DIGITS = 18  # an int64 holds any 18 digits
MOST_DECIMALS = 18  # a plain decimal's (15 significant digits from 0.0001): 10^18 fits an int64
FEWEST_HAND_BYTES = 32  # a real hand is ten times as long: a file of more, shorter ones is streamed
MOST_HAND_BYTES = MAX_HAND_BYTES  # a longer hand or line is the line reader's to refuse
MOST_SIGNIFICANT = 15  # a decimal of at most 15 significant digits is its float's shortest text


class Vocabulary(NamedTuple):
    """The keys a plain hand may have: ``names[k, :lengths[k]]`` and the kind of their value
    (``kinds[k]``); ``action_key`` is the key whose strings are actions (-1: none)."""

    names: np.ndarray
    lengths: np.ndarray
    kinds: np.ndarray
    action_key: int


class Scanned(NamedTuple):
    """Where things are in a block. Hand h is ``text[h]`` (the bytes after its header line up to
    the next one), ``status[h]`` PLAIN or BAD. For a plain hand, ``field[h, k]`` is the span of
    key k's value (a string's without its quotes; ``ABSENT`` when missing), or for an array the
    range of its items in ``item``. A number's digits (without the point, trailing zeros of its
    fraction dropped) are its ``mantissa``, ``decimals`` after the point and ``is_float`` when
    written with one; scalars in ``scalar_*``, array items in ``item_*``. An action's
    ``item_decimals`` are those of its bet's amount (``p1 cbr 2.50``: 1), -1 when it has none."""

    text: np.ndarray  # (hands, 2)
    status: np.ndarray  # (hands,)
    field: np.ndarray  # (hands, keys, 2)
    scalar_mantissa: np.ndarray  # (hands, keys)
    scalar_decimals: np.ndarray
    scalar_float: np.ndarray
    item: np.ndarray  # (items, 2)
    item_mantissa: np.ndarray
    item_decimals: np.ndarray
    item_float: np.ndarray
    item_owner: np.ndarray  # the hand of each item
    item_key: np.ndarray  # and its key
    counts: np.ndarray  # (2,): hands and items found


def scanned_for(buffer: np.ndarray, keys: int) -> Scanned | None:
    """Room for every hand and item ``buffer`` can hold (one per line opening with ``[``; one per
    comma or key); None when it holds more such lines than hands of ``FEWEST_HAND_BYTES`` could."""
    headers = int(np.count_nonzero((buffer[1:] == OPEN) & (buffer[:-1] == NEWLINE))) + 1  # + the first line
    if headers > len(buffer) // FEWEST_HAND_BYTES + 1:
        return None
    hands = headers + 1
    items = int(np.count_nonzero(buffer == COMMA) + np.count_nonzero(buffer == EQUALS)) + 1
    return Scanned(
        np.zeros((hands, 2), np.int64), np.zeros(hands, np.int8), np.full((hands, keys, 2), ABSENT, np.int64),
        np.zeros((hands, keys), np.int64), np.zeros((hands, keys), np.int8),
        np.zeros((hands, keys), np.bool_),
        np.zeros((items, 2), np.int64), np.zeros(items, np.int64), np.zeros(items, np.int8),
        np.zeros(items, np.bool_), np.zeros(items, np.int64), np.zeros(items, np.int64),
        np.zeros(2, np.int64),
    )  # fmt: skip


@njit(cache=True, inline="always")
def _line_end(buf, pos) -> int:
    end = pos
    while end < len(buf) and buf[end] != NEWLINE:
        end += 1
    return end


@njit(cache=True, inline="always")
def _blank(buf, pos, end) -> int:
    """The first byte at or after ``pos`` that is not a space or tab."""
    while pos < end and (buf[pos] == SPACE or buf[pos] == TAB):
        pos += 1
    return pos


@njit(cache=True)
def _block_problem(buf) -> bool:
    """Bytes the line reader takes otherwise than this scanner: control bytes (line breaks to
    ``str.splitlines``, white space to ``str.strip``) and Unicode white space (``str.isspace``:
    U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), which
    the line reader's header pattern and stripping see; and a line longer than a hand may be."""
    line = 0
    for i in range(len(buf)):
        x = buf[i]
        line = 0 if x == NEWLINE else line + 1
        if (x < SPACE and x != TAB and x != NEWLINE) or line > MOST_HAND_BYTES:
            return True
        if x < 0xC2 or i + 1 >= len(buf):
            continue
        y = buf[i + 1]
        z = buf[i + 2] if i + 2 < len(buf) else 0
        if x == 0xC2 and (y == 0x85 or y == 0xA0):
            return True
        if x == 0xE1 and y == 0x9A and z == 0x80:
            return True
        if x == 0xE2 and y == 0x80 and (z <= 0x8A or z == 0xA8 or z == 0xA9 or z == 0xAF):
            return True
        if (x == 0xE2 and y == 0x81 and z == 0x9F) or (x == 0xE3 and y == 0x80 and z == 0x80):
            return True
    return False


@njit(cache=True, inline="always")
def _ascii(buf, start, end) -> bool:
    return np.all(buf[start:end] <= 126)


@njit(cache=True)
def _header(buf, pos, end) -> bool:
    """``[name]`` alone on its line, the name without spaces or brackets."""
    if end - pos < 3 or buf[end - 1] != CLOSE:
        return False
    for i in range(pos + 1, end - 1):
        if buf[i] <= SPACE or buf[i] == CLOSE or buf[i] == OPEN or buf[i] == HASH:
            return False
    return True


@njit(cache=True)
def scan_block(buf, first: bool, vocabulary, out) -> int:
    """Fill ``out`` (a ``Scanned``) from the block ``buf`` (bytes of whole lines); returns the
    hands found, or -1 when the block must be read line by line. A ``first`` block may open with
    blank lines; a later one opens with a header."""
    buf, vocabulary, out = borrowed((buf, vocabulary, out))  # the caller holds them
    if _block_problem(buf):
        return -1
    hands, pos, open_key = 0, 0, ABSENT  # open_key: a key whose array goes on over lines
    while pos < len(buf):
        end = _line_end(buf, pos)
        start = _blank(buf, pos, end)
        if start < end and buf[start] == OPEN:
            if start != pos or not _header(buf, pos, end):
                return -1
            if hands > 0:
                out.text[hands - 1, 1] = pos
                out.status[hands - 1] = BAD if open_key != ABSENT else out.status[hands - 1]
            out.text[hands, 0] = min(end + 1, len(buf))
            out.status[hands], open_key = PLAIN, ABSENT
            hands += 1
        elif start < end and buf[start] == HASH:
            if hands > 0 and not _ascii(buf, start, end):  # its hand's text keeps it: str.strip's
                out.status[hands - 1] = BAD  # white space is then more than ASCII's

        elif start < end:
            if hands == 0:
                return -1  # text before the first hand
            h = hands - 1
            if out.status[h] == PLAIN and open_key != ABSENT:
                open_key = _array_line(buf, start, end, h, open_key, vocabulary, out)
            elif out.status[h] == PLAIN:
                open_key = _field(buf, start, end, h, vocabulary, out)
            if open_key == BAD_LINE:
                out.status[h], open_key = BAD, ABSENT
        elif hands == 0 and not first:
            return -1
        pos = end + 1
    if hands > 0:
        out.text[hands - 1, 1] = len(buf)
        out.status[hands - 1] = BAD if open_key != ABSENT else out.status[hands - 1]
    for h in range(hands):
        if out.text[h, 1] - out.text[h, 0] > MOST_HAND_BYTES:
            out.status[h] = BAD  # the line reader refuses it, by its characters
    out.counts[0] = hands
    return hands


@njit(cache=True, inline="always")
def _key(buf, start, end, vocabulary) -> int:
    names, lengths = vocabulary.names, vocabulary.lengths
    for k in range(len(lengths)):
        if lengths[k] != end - start:
            continue
        same = True
        for i in range(end - start):
            if names[k, i] != buf[start + i]:
                same = False
                break
        if same:
            return k
    return ABSENT


@njit(cache=True, inline="always")
def _field(buf, start, end, h, vocabulary, out) -> int:
    """One ``key = value`` line of hand ``h``: ``ABSENT`` when read, the key when its array goes on
    over the next lines, ``BAD_LINE`` when it is not plain."""
    after = start
    while after < end and buf[after] != SPACE and buf[after] != TAB and buf[after] != EQUALS:
        after += 1
    k = _key(buf, start, after, vocabulary)
    if k == ABSENT or out.field[h, k, 0] != ABSENT:
        return BAD_LINE  # an unknown key, or one given twice
    at = _blank(buf, after, end)
    if at == end or buf[at] != EQUALS:
        return BAD_LINE
    at = _blank(buf, at + 1, end)
    while end > at and (buf[end - 1] == SPACE or buf[end - 1] == TAB):
        end -= 1
    kind = vocabulary.kinds[k]
    if kind == BOOLEAN:
        if not _boolean(buf, at, end):
            return BAD_LINE
        out.field[h, k, 0], out.field[h, k, 1] = at, end
        return ABSENT
    if kind >= STRINGS:
        if end - at < 1 or buf[at] != OPEN:
            return BAD_LINE
        out.field[h, k, 0] = out.field[h, k, 1] = out.counts[1]
        return _array_line(buf, at + 1, end, h, k, vocabulary, out)
    if kind == STRING:
        if end - at < 2 or not _opens_string(buf[at]) or _string_end(buf, at + 1, end, buf[at]) != end - 1:
            return BAD_LINE
        out.field[h, k, 0], out.field[h, k, 1] = at + 1, end - 1
        return ABSENT
    if kind == TIME:
        if not _time(buf, at, end):
            return BAD_LINE
    else:
        ok, mantissa, decimals, is_float = _number(buf, at, end)
        if not ok or (kind == INTEGER and is_float):
            return BAD_LINE
        out.scalar_mantissa[h, k], out.scalar_decimals[h, k] = mantissa, decimals
        out.scalar_float[h, k] = is_float
    out.field[h, k, 0], out.field[h, k, 1] = at, end
    return ABSENT


@njit(cache=True, inline="always")
def _array_line(buf, start, end, h, k, vocabulary, out) -> int:
    """Items of key k's array on ``buf[start:end]`` (after its ``[`` when it opened here), up to
    its ``]`` if the line has it: ``ABSENT`` when the array is closed, k while it goes on,
    ``BAD_LINE`` when it is not plain. Items are separated by commas, across lines too."""
    while end > start and (buf[end - 1] == SPACE or buf[end - 1] == TAB):
        end -= 1
    closed = end > start and buf[end - 1] == CLOSE
    items_end = end - 1 if closed else end
    first, n = out.field[h, k, 0], out.counts[1]
    at = _blank(buf, start, items_end)
    if at < items_end and n > first and out.field[h, k, 1] != n:
        return BAD_LINE  # the last line's items ended without a comma
    n, comma = _items(buf, at, items_end, h, k, vocabulary, out)
    if n < 0:
        return BAD_LINE
    out.counts[1] = n
    out.field[h, k, 1] = n if comma or n == first else -n - 1  # -n - 1: the line ended with an item
    if closed:
        out.field[h, k, 1] = n
        return ABSENT
    return k


@njit(cache=True, inline="always")
def _boolean(buf, start, end) -> bool:
    """``true`` or ``false`` (what ``json`` writes as it is)."""
    if end - start == 4:
        return buf[start] == 116 and buf[start + 1] == 114 and buf[start + 2] == 117 and buf[start + 3] == 101
    return (end - start == 5 and buf[start] == 102 and buf[start + 1] == 97 and buf[start + 2] == 108
            and buf[start + 3] == 115 and buf[start + 4] == 101)  # fmt: skip


@njit(cache=True, inline="always")
def _opens_string(x) -> bool:
    """A basic string's quote, or a literal string's apostrophe (PokerKit writes those)."""
    return (x == QUOTE) | (x == APOSTROPHE)


@njit(cache=True, inline="always")
def _string_end(buf, pos, end, quote) -> int:
    """The closing ``quote`` of a string opened before ``pos``: printable ASCII without escapes
    or double quotes (what ``json`` writes as it is, between double quotes); -1 when there is
    none or another byte comes first."""
    while pos < end:
        x = buf[pos]
        if x == quote:
            return pos
        if x < SPACE or x > 126 or x == BACKSLASH or x == QUOTE:  # noqa: SIM109 (numba)
            return -1
        pos += 1
    return -1


@njit(cache=True, inline="always")
def _time(buf, start, end) -> bool:
    """``HH:MM:SS``, a local time ``tomllib`` reads (no fraction, no leap second)."""
    if end - start != 8 or buf[start + 2] != COLON or buf[start + 5] != COLON:
        return False
    limits = (2, 9, 5, 9, 5, 9)
    for j, at in enumerate((0, 1, 3, 4, 6, 7)):
        digit = buf[start + at] - 48
        if digit < 0 or digit > limits[j]:
            return False
    return (buf[start] - 48) * 10 + buf[start + 1] - 48 < 24


@njit(cache=True, inline="always")
def _number(buf, start, end):
    """(plain, digits, decimals, written with a point) of ``0``, ``[1-9][0-9]*`` or either with a
    fraction; a decimal must be one whose float's ``repr`` is its text (at most 15 significant
    digits, from 0.0001 up to 10^16, or zero)."""
    point, mantissa, significant, decimals = -1, 0, 0, 0
    for i in range(start, end):
        x = buf[i]
        if x == DOT and point < 0 and i > start and i < end - 1:
            point = i
            continue
        if x < 48 or x > 57:
            return False, 0, 0, False
        if significant or x != 48:
            significant += 1
        if significant > MOST_DIGITS:
            return False, 0, 0, False
        mantissa = mantissa * 10 + x - 48
        decimals += point >= 0
    if end == start or (buf[start] == 48 and end - start > 1 and (point < 0 or point > start + 1)):
        return False, 0, 0, False  # nothing, or a leading zero
    if point < 0:
        return True, mantissa, 0, False
    while decimals > 0 and mantissa % 10 == 0:
        mantissa //= 10
        decimals -= 1
    significant, rest = 0, mantissa
    while rest > 0:
        significant, rest = significant + 1, rest // 10
    if decimals > MOST_DECIMALS:
        return False, 0, 0, False
    tiny = mantissa > 0 and _below_ten_thousandth(mantissa, decimals)
    if significant > MOST_SIGNIFICANT or point - start > 16 or tiny:
        return False, 0, 0, False
    return True, mantissa, decimals, True


@njit(cache=True, inline="always")
def _below_ten_thousandth(mantissa, decimals) -> bool:
    """Whether mantissa * 10^-decimals < 0.0001 (``repr`` writes such floats with an exponent)."""
    if decimals <= 4:
        return False
    limit = 1
    for _ in range(decimals - 4):
        limit *= 10
    return mantissa < limit


@njit(cache=True, inline="always")
def _items(buf, at, end, h, k, vocabulary, out):
    """(the item count after, whether they end with a comma) of ``a, b, ...`` in ``buf[at:end]``,
    each of key k's kind; (-1, False) when they are not plain."""
    n, kind, comma = out.counts[1], vocabulary.kinds[k], False
    while at < end:
        if n >= len(out.item_mantissa):
            return -1, False
        if kind == STRINGS:
            close = _string_end(buf, at + 1, end, buf[at]) if _opens_string(buf[at]) else -1
            if close < 0:
                return -1, False
            out.item[n, 0], out.item[n, 1] = at + 1, close
            out.item_decimals[n] = _bet_decimals(buf, at + 1, close) if vocabulary.action_key == k else -1
            if out.item_decimals[n] < -1:
                return -1, False
            after = close + 1
        else:
            after = at
            while after < end and buf[after] != COMMA and buf[after] != SPACE and buf[after] != TAB:
                after += 1
            ok, mantissa, decimals, is_float = _number(buf, at, after)
            if not ok or (kind == INTEGERS and is_float):
                return -1, False
            out.item[n, 0], out.item[n, 1] = at, after
            out.item_mantissa[n], out.item_decimals[n], out.item_float[n] = mantissa, decimals, is_float
        out.item_owner[n], out.item_key[n] = h, k
        n += 1
        at = _blank(buf, after, end)
        comma = at < end and buf[at] == COMMA
        if at < end and not comma:
            return -1, False
        if comma:
            at = _blank(buf, at + 1, end)
    return n, comma


@njit(cache=True, inline="always")
def _bet_decimals(buf, start, end) -> int:
    """Decimals of the amount of a bet written ``pN cbr X`` or ``pN pb X`` (three words), as
    ``ingest.histories.money.quick_units`` reads it: -1 for any other action or an amount
    without a point, -2 when a point makes the amount one it cannot read."""
    words, verb_start, verb_end, amount_start, amount_end, dotted = 0, 0, 0, 0, 0, False
    at = start
    while at < end:
        while at < end and buf[at] == SPACE:
            at += 1
        if at == end:
            break
        if words == 3:
            return -1  # more than three words
        if words == 1:
            verb_start = at
        elif words == 2:
            amount_start = at
        while at < end and buf[at] != SPACE:
            dotted = dotted or buf[at] == DOT
            at += 1
        if words == 1:
            verb_end = at
        elif words == 2:
            amount_end = at
        words += 1
    if words != 3 or not dotted:
        return -1
    verb, b = verb_end - verb_start, verb_start
    bet = (verb == 3 and buf[b] == 99 and buf[b + 1] == 98 and buf[b + 2] == 114) or (
        verb == 2 and buf[b] == 112 and buf[b + 1] == 98
    )
    if not bet:
        return -1
    return _shown_decimals(buf, amount_start, amount_end)


@njit(cache=True, inline="always")
def _shown_decimals(buf, start, end) -> int:
    """Decimals ``money._plain_shown`` finds in an amount with a point (digits, one point, a digit
    last; trailing zeros dropped), -2 when it finds none."""
    point = -1
    for i in range(start, end):
        if buf[i] == DOT and point < 0 and i > start:
            point = i
        elif buf[i] < 48 or buf[i] > 57:
            return -2
    if point < 0:
        return 0 if end > start else -2
    if point == end - 1:
        return -2
    last = end
    while last > point + 1 and buf[last - 1] == 48:
        last -= 1
    return last - point - 1


class JsonOut(NamedTuple):
    """Each plain hand's fields as JSON, two ways: ``compact`` as ``rows.hand_id`` hashes them
    (``separators=(",", ":")``), ``spaced`` the fields ``extra`` marks as ``json.dumps`` writes
    them; hand h's text is ``bytes[ends[h - 1]:ends[h]]`` (``ends`` has a leading 0)."""

    compact: np.ndarray
    compact_ends: np.ndarray
    spaced: np.ndarray
    spaced_ends: np.ndarray


@njit(cache=True, inline="always")
def put_bytes(out, n, source, start, end) -> int:
    """``source[start:end]`` into ``out`` from n; returns where it ends."""
    for i in range(start, end):
        out[n] = source[i]
        n += 1
    return n


@njit(cache=True, inline="always")
def _put_byte(out, n, byte) -> int:
    out[n] = byte
    return n + 1


@njit(cache=True, inline="always")
def _put_number(out, n, buf, start, end, mantissa, decimals, is_float) -> int:
    """A number as ``json`` writes the int or float ``tomllib`` reads (shortest float text)."""
    if not is_float:
        return put_bytes(out, n, buf, start, end)
    digits, scale = 1, 10
    while scale <= mantissa:
        digits, scale = digits + 1, scale * 10
    digits = max(digits, decimals + 1)  # at least one digit before the point
    for place in range(digits - 1, -1, -1):
        if place == decimals - 1:
            n = _put_byte(out, n, DOT)
        n = _put_byte(out, n, 48 + (mantissa // 10**place) % 10)
    if decimals == 0:
        n = _put_byte(out, n, DOT)
        n = _put_byte(out, n, 48)
    return n


@njit(cache=True, inline="always")
def _put_value(out, n, buf, scanned, h, k, kind, spaced) -> int:
    start, end = scanned.field[h, k, 0], scanned.field[h, k, 1]
    if kind == BOOLEAN:
        return put_bytes(out, n, buf, start, end)
    if kind <= TIME:  # a string or a time: quoted
        n = _put_byte(out, n, QUOTE)
        n = put_bytes(out, n, buf, start, end)
        return _put_byte(out, n, QUOTE)
    if kind < STRINGS:
        mantissa, decimals = scanned.scalar_mantissa[h, k], scanned.scalar_decimals[h, k]
        return _put_number(out, n, buf, start, end, mantissa, decimals, scanned.scalar_float[h, k])
    n = _put_byte(out, n, OPEN)
    for i in range(start, end):
        if i > start:
            n = _put_byte(out, n, COMMA)
            if spaced:
                n = _put_byte(out, n, SPACE)
        a, b = scanned.item[i, 0], scanned.item[i, 1]
        if kind == STRINGS:
            n = _put_byte(out, n, QUOTE)
            n = put_bytes(out, n, buf, a, b)
            n = _put_byte(out, n, QUOTE)
        else:
            n = _put_number(out, n, buf, a, b, scanned.item_mantissa[i], scanned.item_decimals[i],
                            scanned.item_float[i])  # fmt: skip
    return _put_byte(out, n, CLOSE)


@njit(cache=True, inline="always")
def _put_fields(out, n, buf, scanned, h, vocabulary, order, chosen, spaced) -> int:
    """``{"key": value, ...}`` of hand h's fields that ``chosen`` marks, keys in ``order``."""
    n = _put_byte(out, n, 123)
    wrote = False
    for k in order:
        if not chosen[k] or scanned.field[h, k, 0] == ABSENT:
            continue
        if wrote:
            n = _put_byte(out, n, COMMA)
            if spaced:
                n = _put_byte(out, n, SPACE)
        wrote = True
        n = _put_byte(out, n, QUOTE)
        n = put_bytes(out, n, vocabulary.names[k], 0, vocabulary.lengths[k])
        n = _put_byte(out, n, QUOTE)
        n = _put_byte(out, n, COLON)
        if spaced:
            n = _put_byte(out, n, SPACE)
        n = _put_value(out, n, buf, scanned, h, k, vocabulary.kinds[k], spaced)
    return _put_byte(out, n, 125)


@njit(cache=True)
def write_json(buf, scanned, vocabulary, order, extra, out) -> None:
    """Fill ``out`` (a ``JsonOut``) for every plain hand of ``scanned`` (others get no text);
    ``order`` lists the keys in the order ``json`` sorts them, ``extra`` marks the spaced ones."""
    buf, scanned, vocabulary, order, extra, out = borrowed((buf, scanned, vocabulary, order, extra, out))
    every = np.ones(len(extra), np.bool_)
    compact = spaced = 0
    for h in range(scanned.counts[0]):
        if scanned.status[h] == PLAIN:
            compact = _put_fields(out.compact, compact, buf, scanned, h, vocabulary, order, every, False)
            spaced = _put_fields(out.spaced, spaced, buf, scanned, h, vocabulary, order, extra, True)
        out.compact_ends[h + 1], out.spaced_ends[h + 1] = compact, spaced


@njit(cache=True)
def gather(buf, starts, ends, suffix, offsets, out) -> None:
    """The bytes ``buf[starts[i]:ends[i]]`` one after another in ``out``, each followed by
    ``suffix`` (an array of bytes), string i from ``offsets[i]`` to ``offsets[i + 1]`` (Arrow's layout)."""
    n = 0
    for i in range(len(starts)):
        offsets[i] = n
        for j in range(starts[i], ends[i]):
            out[n] = buf[j]
            n += 1
        for j in range(len(suffix)):
            out[n] = suffix[j]
            n += 1
    offsets[len(starts)] = n


@njit(cache=True)
def dots_in(buf, spans) -> np.ndarray:
    """How many ``.`` bytes each span of ``spans`` (rows of start, end) holds."""
    counts = np.zeros(len(spans), np.int64)
    for i in range(len(spans)):
        for j in range(spans[i, 0], spans[i, 1]):
            counts[i] += buf[j] == DOT
    return counts


@njit(cache=True)
def stripped(buf, spans, out) -> None:
    """Each span of ``spans`` (rows of start, end) without the spaces, tabs and line ends around it."""
    for i in range(len(spans)):
        start, end = spans[i, 0], spans[i, 1]
        while start < end and (buf[start] == SPACE or buf[start] == TAB or buf[start] == NEWLINE):
            start += 1
        while end > start and (buf[end - 1] == SPACE or buf[end - 1] == TAB or buf[end - 1] == NEWLINE):
            end -= 1
        out[i, 0], out[i, 1] = start, end
