"""The whole hands at the start of what a poker client has written so far, for ``scooplab ingest
--watch`` (``ingest.histories.watch``): a client writes a hand whole, then blank lines, so a hand
is complete once the next hand's first line follows it or, at the end of what is written, a blank
line ends it (an Open Hand History file likewise: a ``{"ohh": ...}`` object a hand, a blank line
after each). A hand cut off mid-line or mid-record waits for the rest.

>>> one = b"PokerStars Hand #1: Hold'em No Limit ($0.05/$0.10) - 2024/03/05 12:00:00 ET\\r\\nSeat 1: A\\r\\n"
>>> complete_prefix(one), complete_prefix(one + b"\\r\\n") == len(one) + 2
(0, True)
>>> complete_prefix(one + b"\\r\\n\\r\\n" + one) == len(one) + 4
True
"""

from __future__ import annotations

import codecs
import re

import numpy as np

from ingest.histories.sites import FORMATS
from ingest.histories.sites.text import utf16_order

OHH_OBJECT = re.compile(r'^\{\s*"ohh"', re.M)  # an Open Hand History hand: an object opening a line


def complete_prefix(data: bytes) -> int:
    """How many bytes at the start of ``data`` (a site file, or what follows its last whole hand)
    are whole hands: up to the first line of the last hand, or to the end when a blank line ends
    that hand; 0 when no hand is whole (the bytes before the first hand count only with a hand).

    >>> two = b"Poker Hand #RC1: Hold'em No Limit ($0.02/$0.05) - 2024/01/01 10:00:00\\nx\\n\\n"
    >>> complete_prefix(b"\\n" + two) == 1 + len(two), complete_prefix(two[:-1]), complete_prefix(b"x\\n\\n")
    (True, 0, 0)
    """
    units, width, skip = code_units(data)
    starts = _starts(units)
    if not starts:
        return 0
    end = len(units) if ends_blank(units[starts[-1] :]) else starts[-1]
    return 0 if end <= starts[0] else skip + end * width


def hand_starts(data: bytes) -> list[int]:
    """Where each hand's first line begins in ``data`` (what ``complete_prefix`` looks for), in bytes.

    >>> hand_starts(b"x\\nPoker Hand #RC1: Hold'em No Limit ($0.02/$0.05)\\nx\\nPoker Hand #RC2: Omaha")
    [2, 52]
    """
    units, width, skip = code_units(data)
    return [skip + start * width for start in _starts(units)]


def _starts(units: str) -> list[int]:
    headers = (*(header for _, header, _ in FORMATS), OHH_OBJECT)
    return sorted(found.start() for header in headers for found in header.finditer(units))


def ends_blank(text: str) -> bool:
    """Whether a blank line ends ``text`` (line ends as ``\\n``), white space after it or not.

    >>> ends_blank("a\\n \\n"), ends_blank("a\\n\\n\\n  "), ends_blank("a\\n"), ends_blank("a\\n b")
    (True, True, False, False)
    """
    return text[len(text.rstrip(" \t\n")) :].count("\n") >= 2


def code_units(data: bytes) -> tuple[str, int, int]:
    """``data`` as text of one character per code unit of its encoding (found as
    ``text.normalized_text`` finds it), so that offsets in it are offsets in ``data``: a byte of
    UTF-8 or Windows-1252 as Latin-1, a UTF-16 unit as itself when below 256 (else ``\\x01``); line
    ends as ``\\n`` (CRLF as `` \\n``), a carriage return at the end left out (a line feed may follow
    it). With the bytes a unit takes and the byte-order mark's length.

    >>> code_units("\\ufeffA\\r\\nB€".encode("utf-16-le"))
    ('A \\nB\\x01', 2, 2)
    >>> code_units(b"\\xef\\xbb\\xbfA\\rB\\r")
    ('A\\nB', 1, 3)
    """
    order = utf16_order(data)
    if order is None:
        skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
        text = data[skip:].decode("latin-1")
    else:
        skip = 2 if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else 0
        body = data[skip : len(data) - (len(data) - skip) % 2]
        units = np.frombuffer(body, dtype="<u2" if order == "le" else ">u2")
        text = np.where(units < 256, units, 1).astype(np.uint8).tobytes().decode("latin-1")
    width = 1 if order is None else 2
    if text.endswith("\r"):
        text = text[:-1]
    if "\r" in text:
        text = text.replace("\r\n", " \n").replace("\r", "\n")  # the same length: offsets kept
    return text, width, skip
