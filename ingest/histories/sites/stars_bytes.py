"""Compiled readers of the pieces of a PokerStars-family text, on its UTF-8 bytes: literals,
amounts, cards, whole numbers, the date of a header line, and which names may be written as they
are. Each reads exactly what the Python reader (``stars_family``, ``text``) reads, or says it
cannot (-1, False): the hand is then the Python reader's (``stars_kernel``). Every read stays
inside the span it is given.

An amount is kept as whole units of 10^-``DECIMALS`` (``$12.35`` is 12,350,000), below
``MOST_UNITS``: sums of a hand's amounts stay far inside an int64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ingest.histories.sites import stars_cache  # noqa: F401  (before any function here compiles)

DECIMALS = 6  # an amount's units: 10^-6 (a site writes at most 2 decimals; more: the Python reader)
UNIT = 10**DECIMALS
MOST_UNITS = 10**16  # amounts below 10^10 (sums of a thousand of them fit an int64)
MOST_DIGITS = 18  # digits an int64 holds whatever they are
NEWLINE, TAB, SPACE, QUOTE, BACKSLASH, COMMA, DOT, COLON = 10, 9, 32, 34, 92, 44, 46, 58
OPEN, CLOSE, DOLLAR = 91, 93, 36
ZERO, NINE = 48, 57


def literal(text: str) -> np.ndarray:
    """A literal as bytes numba holds as a constant (a module's global array)."""
    return np.frombuffer(text.encode(), np.uint8).copy()


@njit(cache=True, inline="always")
def at(buf, p, e, lit) -> bool:
    """Whether ``buf[p:e]`` opens with ``lit``."""
    if p < 0 or e - p < len(lit):
        return False
    for i in range(len(lit)):  # noqa: SIM110 (numba: no generators)
        if buf[p + i] != lit[i]:
            return False
    return True


@njit(cache=True)
def find(buf, p, e, lit) -> int:
    """Where ``lit`` first starts in ``buf[p:e]``, or -1."""
    first = lit[0]
    for i in range(p, e - len(lit) + 1):
        if buf[i] == first and at(buf, i, e, lit):
            return i
    return -1


@njit(cache=True, inline="always")
def same(buf, a, b, c, d) -> bool:
    """Whether ``buf[a:b]`` and ``buf[c:d]`` hold the same bytes."""
    if b - a != d - c:
        return False
    for i in range(b - a):  # noqa: SIM110 (numba: no generators)
        if buf[a + i] != buf[c + i]:
            return False
    return True


@njit(cache=True, inline="always")
def space(x) -> bool:
    """An ASCII byte ``str.isspace`` and ``\\s`` take for white space."""
    return x == SPACE or 9 <= x <= 13 or 28 <= x <= 31


@njit(cache=True)
def blank_to(buf, p, e) -> bool:
    """Whether ``buf[p:e]`` is ASCII white space only (what ``str.strip`` and ``\\s*$`` drop)."""
    for i in range(p, e):  # noqa: SIM110 (numba: no generators)
        if not space(buf[i]):
            return False
    return True


@njit(cache=True, inline="always")
def digit(x) -> bool:
    return ZERO <= x <= NINE


@njit(cache=True, inline="always")
def upper(x) -> bool:
    return 65 <= x <= 90


@njit(cache=True)
def whole(buf, p, e, most):
    """(the end, the value) of the ASCII digits at ``p``: end -1 when there are none (an ASCII byte
    or the end first), -2 when they are more than ``most`` once leading zeros are dropped or a byte
    past ASCII comes first or next (a Unicode digit ``\\d`` would take)."""
    value, counted, i = 0, 0, p
    while i < e and digit(buf[i]):
        if counted or buf[i] != ZERO:
            counted += 1
        value = value * 10 + buf[i] - ZERO
        i += 1
        if counted > most:
            return -2, 0
    if i < e and buf[i] >= 128:
        return -2, 0
    return (-1, 0) if i == p else (i, value)


@njit(cache=True, inline="always")
def symbol(buf, p, e) -> int:
    """The length of the currency symbol ``text.amount`` allows at ``p`` ($ € £ ₹ ¥ ￥), else 0."""
    if p >= e:
        return 0
    x = buf[p]
    if x == DOLLAR:
        return 1
    y = buf[p + 1] if p + 1 < e else 0
    z = buf[p + 2] if p + 2 < e else 0
    if x == 0xC2 and (y == 0xA3 or y == 0xA5):  # £ ¥
        return 2
    if x == 0xE2 and y == 0x82 and (z == 0xAC or z == 0xB9):  # € ₹
        return 3
    if x == 0xEF and y == 0xBF and z == 0xA5:  # ￥
        return 3
    return 0


@njit(cache=True)
def amount(buf, p, e):
    """(the end, units, digits, decimals) of an amount at ``p`` as a site writes it: a currency
    symbol or none, digits with thousands commas, a point and digits; end -1 when it is none, has
    more than ``DECIMALS`` decimals or is not below ``MOST_UNITS`` units. What follows it is the
    caller's to check (a space, the line's end, a literal)."""
    i = p + symbol(buf, p, e)
    if i >= e or not digit(buf[i]):
        return -1, 0, 0, 0
    mantissa, counted, decimals = 0, 0, 0
    while i < e and (digit(buf[i]) or (buf[i] == COMMA and i + 1 < e and digit(buf[i + 1]))):
        if buf[i] != COMMA:
            counted += counted > 0 or buf[i] != ZERO
            mantissa = mantissa * 10 + buf[i] - ZERO
        i += 1
    if i + 1 < e and buf[i] == DOT and digit(buf[i + 1]):
        i += 1
        while i < e and digit(buf[i]):
            counted += counted > 0 or buf[i] != ZERO
            mantissa = mantissa * 10 + buf[i] - ZERO
            decimals += 1
            i += 1
    if counted > MOST_DIGITS or decimals > DECIMALS:
        return -1, 0, 0, 0
    scale = 10 ** (DECIMALS - decimals)
    if mantissa >= MOST_UNITS // scale:  # (compared before it is scaled: no overflow)
        return -1, 0, 0, 0
    return i, mantissa * scale, mantissa, decimals


@njit(cache=True, inline="always")
def code_end(buf, p, e) -> int:
    """The end of a currency code `` USD`` at ``p`` (a space and three capitals), else ``p``."""
    if e - p >= 4 and buf[p] == SPACE and upper(buf[p + 1]) and upper(buf[p + 2]) and upper(buf[p + 3]):
        return p + 4
    return p


@njit(cache=True, inline="always")
def token_end(buf, p, e) -> bool:
    """Whether an amount read up to ``p`` ends a space-separated token: a space or the end."""
    return p == e or buf[p] == SPACE


_RANKS = literal("23456789TJQKA")


@njit(cache=True, inline="always")
def _rank(x) -> int:
    """A rank letter as PHH writes it (``text.cards``: any case), or 0."""
    if 97 <= x <= 122:
        x -= 32
    for r in _RANKS:
        if r == x:
            return x
    return 0


@njit(cache=True, inline="always")
def _suit(x) -> int:
    """A suit letter as PHH writes it (lower case), or 0."""
    if 65 <= x <= 90:
        x += 32
    return x if x == 99 or x == 100 or x == 104 or x == 115 else 0


@njit(cache=True)
def _card(buf, p, q, dst, row, k) -> bool:
    """The card ``buf[p:q]`` (``Ah``, ``10h``, ``??``/``XX`` unseen) into ``dst[row, 2k:2k+2]``."""
    n = q - p
    if n == 2 and (
        (buf[p] == 63 and buf[p + 1] == 63) or ((buf[p] | 32) == 120 and (buf[p + 1] | 32) == 120)
    ):
        dst[row, 2 * k], dst[row, 2 * k + 1] = 63, 63
        return True
    if n == 3 and buf[p] == 49 and buf[p + 1] == ZERO:
        rank, suit = 84, _suit(buf[p + 2])  # a ten
    elif n == 2:
        rank, suit = _rank(buf[p]), _suit(buf[p + 1])
    else:
        return False
    if rank == 0 or suit == 0:
        return False
    dst[row, 2 * k], dst[row, 2 * k + 1] = rank, suit
    return True


@njit(cache=True)
def cards(buf, p, e, dst, row) -> int:
    """How many cards ``buf[p:e]`` lists (separated by spaces) into ``dst[row]``, two bytes each;
    -1 when one is not a card, or they are more than its room."""
    k = 0
    while p < e:
        while p < e and buf[p] == SPACE:
            p += 1
        if p == e:
            break
        q = p
        while q < e and buf[q] != SPACE:
            q += 1
        if 2 * k + 2 > dst.shape[1] or not _card(buf, p, q, dst, row, k):
            return -1
        k += 1
        p = q
    return k


@njit(cache=True)
def writable(buf, a, b) -> bool:
    """Whether a name may be written between double quotes as it is, and read back by the block
    scanner alike (``phh._toml_string`` escapes nothing in it; ``scan_kernel._block_problem``
    finds no Unicode white space): no control byte, quote or backslash, no U+0085, U+00A0, U+1680,
    U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F or U+3000."""
    for i in range(a, b):
        x = buf[i]
        if x < SPACE or x == 127 or x == QUOTE or x == BACKSLASH:  # noqa: SIM109 (numba)
            return False
        if x < 0xC2:
            continue
        y = buf[i + 1] if i + 1 < b else 0
        z = buf[i + 2] if i + 2 < b else 0
        if (x == 0xC2 and (y == 0x85 or y == 0xA0)) or (x == 0xE1 and y == 0x9A and z == 0x80):
            return False
        if x == 0xE2 and y == 0x80 and (z <= 0x8A or z == 0xA8 or z == 0xA9 or z == 0xAF):
            return False
        if (x == 0xE2 and y == 0x81 and z == 0x9F) or (x == 0xE3 and y == 0x80 and z == 0x80):
            return False
    return True


@njit(cache=True)
def header_bytes(buf, a, b) -> bool:
    """Whether a header line is ASCII but for the currency symbols ``text.amount`` knows (so that
    ``\\d``, ``\\b`` and ``\\s`` of the Python reader's patterns match what ASCII ones match)."""
    i = a
    while i < b:
        if buf[i] < 128:
            i += 1
            continue
        size = symbol(buf, i, b)
        if size == 0:
            return False
        i += size
    return True


@njit(cache=True)
def _short(buf, i, e):
    """(the end, the value) of ``\\d{1,2}`` at ``i`` where a separator must follow: a run of one or
    two digits (of three or more, neither length is followed by the separator); end -1."""
    n = 0
    while i + n < e and n < 3 and digit(buf[i + n]):
        n += 1
    if n == 0 or n == 3 or i + n >= e:
        return -1, 0
    value = buf[i] - ZERO if n == 1 else (buf[i] - ZERO) * 10 + buf[i + 1] - ZERO
    return i + n, value


@njit(cache=True)
def _date_at(buf, p, e, when) -> int:
    """``text._WHEN`` matched at ``p`` (``YYYY/M/D H:MM[:SS][ ZONE]``, ``-`` or ``/``, `` ``, ``T`` or
    `` -`` before the time, the zone maybe in parentheses):
    its end, with year, month, day, hour, minute, second and the zone's span (-1: none) in
    ``when``; -1 when it does not match there. Bytes past ASCII are taken for currency symbols
    (``header_bytes``), which are no word characters."""
    if p + 4 >= e:
        return -1
    year = 0
    for k in range(4):
        if not digit(buf[p + k]):
            return -1
        year = year * 10 + buf[p + k] - ZERO
    i = p + 4
    if buf[i] != 47 and buf[i] != 45:
        return -1
    i, month = _short(buf, i + 1, e)
    if i < 0 or (buf[i] != 47 and buf[i] != 45):
        return -1
    i, day = _short(buf, i + 1, e)
    if i < 0:
        return -1
    if i + 2 < e and buf[i] == SPACE and buf[i + 1] == 45 and buf[i + 2] == SPACE:
        i += 2  # `` - `` (PokerStars until 2008)
    elif buf[i] != SPACE and buf[i] != 84:
        return -1
    i, hour = _short(buf, i + 1, e)
    if i < 0 or buf[i] != COLON or i + 2 >= e or not digit(buf[i + 1]) or not digit(buf[i + 2]):
        return -1
    minute, i, second = (buf[i + 1] - ZERO) * 10 + buf[i + 2] - ZERO, i + 3, 0
    if i + 2 < e and buf[i] == COLON and digit(buf[i + 1]) and digit(buf[i + 2]):
        second, i = (buf[i + 1] - ZERO) * 10 + buf[i + 2] - ZERO, i + 3
    when[0], when[1], when[2], when[3], when[4], when[5] = year, month, day, hour, minute, second
    when[6], when[7] = -1, -1
    if i >= e or buf[i] != SPACE:
        return i
    first = i + 2 if i + 1 < e and buf[i + 1] == 40 else i + 1  # `` ZONE`` or `` (ZONE)``
    letters = 0
    while first + letters < e and letters < 6 and upper(buf[first + letters]):
        letters += 1
    after = first + letters
    x = buf[after] if after < e else 32
    if 2 <= letters <= 5 and not (digit(x) or upper(x) or 97 <= x <= 122 or x == 95):  # ``\\b``
        when[6], when[7], i = first, after, after
        if after < e and buf[after] == 41:
            i += 1
    return i


@njit(cache=True)
def date(buf, p, e, when) -> int:
    """Where ``text._WHEN`` first matches in ``buf[p:e]`` (its fields in ``when``, its end in
    ``when[8]``), or -1."""
    for i in range(p, e):
        if digit(buf[i]):
            end = _date_at(buf, i, e, when)
            if end >= 0:
                when[8] = end
                return i
    return -1


@njit(cache=True)
def valid_when(when) -> bool:
    """Whether ``text.when_of`` keeps the date (``datetime.time`` and ``datetime.date`` take it)."""
    year, month, day, hour, minute = when[0], when[1], when[2], when[3], when[4]
    if year < 1 or month < 1 or month > 12 or day < 1 or hour > 23 or minute > 59:
        return False
    days = 31
    if month == 4 or month == 6 or month == 9 or month == 11:
        days = 30
    elif month == 2:
        leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0
        days = 29 if leap else 28
    return day <= days
