"""The shared parts of every site's text: bytes to text, amounts, cards, names.

A site file is read whatever its client wrote: UTF-8 with or without a byte-order mark, UTF-16
in either order (with its mark, or found from its zero bytes), else Windows-1252; CRLF or LF;
non-breaking spaces as spaces.

>>> normalized_text("Seat 1: A (\\u20ac10 in chips)\\r\\n".encode("cp1252"))
'Seat 1: A (€10 in chips)\\n'
>>> normalized_text("\\ufeffPokerStars Hand #1:".encode("utf-16-le"))
'PokerStars Hand #1:'
>>> amount("$1,234.50"), amount("€0.05"), amount("1 500"), amount("₹50")
(Decimal('1234.50'), Decimal('0.05'), Decimal('1500'), Decimal('50'))
>>> cards("[Ah Kd 7c]"), cards("[10h Qs]")
('AhKd7c', 'ThQs')
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from decimal import Decimal, InvalidOperation

CURRENCY_OF_SYMBOL = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY", "￥": "CNY"}
_SYMBOLS = "".join(CURRENCY_OF_SYMBOL)
_AMOUNT = re.compile(rf"^[{_SYMBOLS}]?\s*(\d[\d,\s]*(?:\.\d+)?)\s*(?:[A-Z]{{3}})?$")
MOST_DIGITS = 15  # an amount is below 10^15: a float carries its decimal text exactly (``to_phh``)
_CARD = re.compile(r"(10|[2-9TJQKA])([cdhs])", re.IGNORECASE)


class SiteError(ValueError):
    """A hand the reader cannot take, with the one-line reason (no colon: the rejects view counts
    reasons by what follows the last one)."""


def refusal(error: Exception) -> str:
    """The one-line reason a hand is refused: a ``SiteError``'s own, else what kind of value broke.

    >>> refusal(SiteError("no seats")), refusal(ValueError("Exceeds the limit (4300 digits)"))
    ('no seats', 'a value scooplab cannot read (ValueError)')
    """
    if isinstance(error, SiteError):
        return str(error)
    return f"a value scooplab cannot read ({type(error).__name__})"


def normalized_text(data: bytes) -> str:
    """A file's text, decoded as its client wrote it, with LF line ends and plain spaces."""
    order = utf16_order(data)
    if data.startswith(codecs.BOM_UTF8):
        text = data[3:].decode("utf-8", "replace")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", "replace").lstrip("\ufeff")
    elif order is not None:
        text = data.decode(f"utf-16-{order}", "replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", "replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\ufeff" in text:  # files joined with ``cat``: each one's byte-order mark
        text = text.replace("\ufeff", "")
    return text.replace("\xa0", " ").replace("\u202f", " ")


def utf16_order(data: bytes) -> str | None:
    """``le`` or ``be`` when ``data`` is UTF-16: its byte-order mark, else ASCII's zero bytes at the
    odd (``le``) or even (``be``) places of its first two characters; else None (a file opening with
    one NUL, as PartyPoker writes one before ``Game #N starts.``, is not UTF-16).

    >>> utf16_order("Hi".encode("utf-16-le")), utf16_order("Hi".encode("utf-16-be"))
    ('le', 'be')
    >>> utf16_order(b"\\x00 Game #1 starts."), utf16_order(b"\\xef\\xbb\\xbfHi"), utf16_order(b"H\\x00")
    (None, None, 'le')
    """
    if data.startswith(codecs.BOM_UTF8):
        return None
    if data.startswith(codecs.BOM_UTF16_LE):
        return "le"
    if data.startswith(codecs.BOM_UTF16_BE):
        return "be"
    units = [data[k : k + 2] for k in range(0, min(len(data), 4) - 1, 2)]
    if units and all(u[1:] == b"\x00" and u[:1] != b"\x00" for u in units):
        return "le"
    if units and all(u[:1] == b"\x00" and u[1:] != b"\x00" for u in units):
        return "be"
    return None


def amount(text: str) -> Decimal:
    """An amount as a site writes it (currency symbol, thousands separators, a code after it).

    >>> amount("12.5 USD"), amount("3,000")
    (Decimal('12.5'), Decimal('3000'))
    >>> amount("lots")
    Traceback (most recent call last):
    ...
    ingest.histories.sites.text.SiteError: 'lots' is not an amount
    """
    found = _AMOUNT.match(text.strip())
    if found is None:
        raise SiteError(f"{text!r} is not an amount")
    return exact_amount(found.group(1).replace(",", "").replace(" ", ""), text)


def exact_amount(digits: str, text: str) -> Decimal:
    """``digits`` (a plain decimal: a site's separators already taken out of ``text``, the amount as
    written) as an exact amount, refused by ``text`` when it is none or has too many digits.

    >>> exact_amount("1234.50", "$1,234.50")
    Decimal('1234.50')
    >>> exact_amount("1e999", "1e999")
    Traceback (most recent call last):
    ...
    ingest.histories.sites.text.SiteError: '1e999' is more than scooplab counts
    """
    try:
        value = Decimal(digits)
    except InvalidOperation:
        raise SiteError(f"{text[:30]!r} is not an amount") from None
    if value.adjusted() >= MOST_DIGITS:
        raise SiteError(f"{text[:30]!r} is more than scooplab counts")
    return value


def currency_of(text: str) -> str | None:
    """The currency an amount or stakes text names: its code, else its symbol's.

    >>> currency_of("($0.05/$0.10 USD)"), currency_of("(€0.05/€0.10)"), currency_of("(25/50)")
    ('USD', 'EUR', None)
    """
    code = re.search(r"\b(USD|EUR|GBP|INR|CNY|CAD|AUD|SEK|NOK|DKK|CHF|BRL|RUB|MXN)\b", text)
    if code:
        return code.group(1)
    for symbol, currency in CURRENCY_OF_SYMBOL.items():
        if symbol in text:
            return currency
    return None


def cards(text: str) -> str:
    """Cards as PHH writes them (``AhKd``) from a bracketed site list; ``10`` is a ten."""
    inner = text.strip().strip("[]").split()
    out = []
    for card in inner:
        if card.upper() in ("XX", "??"):
            out.append("??")  # a card the file does not show
            continue
        found = _CARD.fullmatch(card)
        if found is None:
            raise SiteError(f"{card!r} is not a card")
        rank = "T" if found.group(1) == "10" else found.group(1).upper()
        out.append(rank + found.group(2).lower())
    return "".join(out)


def number_text(value: Decimal) -> str:
    """An amount as PHH writes it: no exponent, no trailing zeros.

    >>> number_text(Decimal("0.50")), number_text(Decimal("1500")), number_text(Decimal("2.000"))
    ('0.5', '1500', '2')
    """
    text = format(value.normalize(), "f")
    return text


def split_hands(text: str, header: re.Pattern[str]) -> list[tuple[int, str]]:
    """The hands of a file: each from a line ``header`` matches to the next such line, with the
    line number it starts on (1-based); blank lines between them, any number or none, go.

    >>> split_hands("x\\nH 1\\na\\n\\n\\nH 2\\nb", re.compile(r"^H ", re.M))
    [(2, 'H 1\\na'), (6, 'H 2\\nb')]
    """
    starts = [m.start() for m in header.finditer(text)]
    hands, line, counted = [], 1, 0
    for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
        line, counted = line + text.count("\n", counted, begin), begin
        hands.append((line, text[begin:end].strip("\n ")))
    return hands


_WHEN = re.compile(  # (PokerStars until 2008: ``2007/10/15 - 10:19:23 (ET)``)
    r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T]| - )(\d{1,2}):(\d{2})(?::(\d{2}))?(?: \(?([A-Z]{2,5})\b\)?)?"
)
TIME_ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "PT": "America/Los_Angeles", "CT": "America/Chicago", "MT": "America/Denver", "AT": "America/Halifax",
    "UTC": "UTC", "GMT": "UTC", "WET": "WET", "CET": "CET", "CEST": "CET", "EET": "EET",
    "MSK": "Europe/Moscow", "BRT": "America/Sao_Paulo", "AET": "Australia/Sydney", "NZT": "Pacific/Auckland",
    "IST": "Asia/Kolkata", "CCT": "Asia/Shanghai", "JST": "Asia/Tokyo",
    "ART": "America/Argentina/Buenos_Aires",
}  # fmt: skip


def when_of(text: str) -> dict[str, object]:
    """PHH's date and time fields of the first date a header writes, with its zone when it names one.

    >>> when_of("- 2016/11/13 12:03:34 PT [2016/11/13 15:03:34 ET]")  # doctest: +NORMALIZE_WHITESPACE
    {'year': 2016, 'month': 11, 'day': 13, 'time': datetime.time(12, 3, 34),
     'time_zone': 'America/Los_Angeles', 'time_zone_abbreviation': 'PT'}
    >>> when_of("- 2007/10/15 - 10:19:23 (ET)") == when_of("2007/10/15 10:19:23 ET") != {}
    True
    """
    found = _WHEN.search(text)
    if found is None:
        return {}
    year, month, day, hour, minute = (int(found.group(k)) for k in range(1, 6))
    second = int(found.group(6) or 0)
    try:
        when: dict[str, object] = {"year": year, "month": month, "day": day,
                                   "time": dt.time(hour, minute, min(second, 59))}  # fmt: skip
        dt.date(year, month, day)
    except ValueError:
        return {}
    zone = found.group(7)
    if zone:
        when["time_zone"] = TIME_ZONES.get(zone, zone)
        when["time_zone_abbreviation"] = zone
    return when
