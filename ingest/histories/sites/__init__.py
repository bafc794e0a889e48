"""The hand histories poker clients write, each format a module over shared parts: decoding,
amounts, cards and dates (``text``), the hand as a site wrote it and its own arithmetic
(``site_hand``), written as PHH fields (``to_phh``), the PokerStars family's grammar
(``stars_family``, ``header``) and the sites' game names (``games``); Open Hand History JSON is
read object by object (``ohh``).

A file's format is found from its text, hand by hand (a file may mix formats); each hand becomes
PHH fields that the rest of ingest replays, checks and stores as it does PHH (``phh.iter_hands``
makes them ``RawHand``s), or the one-line reason it is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ingest.histories.sites import (
    absolute,
    fulltilt,
    ggpoker,
    ipoker,
    ohh,
    ohh_json,
    ongame,
    pacific,
    partypoker,
    pokerstars,
    winamax,
)
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import normalized_text, refusal
from ingest.histories.sites.to_phh import phh_fields

# each text format: its name, the pattern of a hand's first lines (its ``id`` group, else the one
# before its last, names the hand), its reader; the compiled reader's two first, in this order
FORMATS: tuple[tuple[str, re.Pattern[str], Callable[[str], SiteHand]], ...] = (
    ("PokerStars", pokerstars.HEADER, pokerstars.read_hand),
    ("GGPoker", ggpoker.HEADER, ggpoker.read_hand),
    *((m.NAME, m.HEADER, m.read_hand) for m in (winamax, pacific, partypoker, fulltilt, ongame, absolute)),
)
SNIFF_BYTES = 1 << 14  # what is read of a file to find its format


def site_format(data: bytes) -> str | None:
    """The name of the first format whose hand opens in a file's first bytes, or None.

    >>> site_format(b"\\xef\\xbb\\xbfPokerStars Hand #1: Hold'em"), site_format(b'variant = "NT"')
    ('PokerStars', None)
    """
    text = normalized_text(data[:SNIFF_BYTES])
    if text.lstrip().startswith("{"):  # JSON: Open Hand History, or no site's text
        return ohh.NAME if ohh_json.is_ohh(text) else None
    if ipoker.is_ipoker(text):  # XML: an iPoker session
        return ipoker.NAME
    found = [(m.start(), name) for name, header, _ in FORMATS if (m := header.search(text))]
    return min(found)[1] if found else None


def site_hands(data: bytes) -> Iterator[tuple[int, str, str, dict[str, Any] | None, str | None]]:
    """Every hand of a site file, in order: (its place, how to name it (``#id (line n)``), its text,
    its PHH fields or None, the reason it is refused or None)."""
    text = normalized_text(data)
    if text.lstrip().startswith("{"):  # JSON: an Open Hand History file is read object by object
        yield from ohh.ohh_hands(text) if ohh_json.is_ohh(text[:SNIFF_BYTES]) else ()
        return
    if ipoker.is_ipoker(text[:SNIFF_BYTES]):
        yield from ipoker.ipoker_hands(text)
        return
    starts = sorted(
        (m.start(), name, header, reader) for name, header, reader in FORMATS for m in header.finditer(text)
    )
    ends = [s[0] for s in starts[1:]] + [len(text)]
    line, counted = 1, 0
    for index, ((begin, _, header, reader), end) in enumerate(zip(starts, ends[: len(starts)], strict=True)):
        line, counted = line + text.count("\n", counted, begin), begin
        yield index, *read_site_hand(text[begin:end], line, header, reader)


def read_site_hand(text: str, line: int, header: re.Pattern[str], reader: Callable[[str], SiteHand]
                   ) -> tuple[str, str, dict[str, Any] | None, str | None]:  # fmt: skip
    """One hand of a site file as ``site_hands`` gives it (``text``: from its first line on, ``line``
    that line's number): how to name it, its text, its PHH fields or None, why it is refused or None
    (``stars_kernel`` reads the hands it leaves to this reader so)."""
    hand = text.strip()
    found = header.match(hand)
    if found:
        named = found.group("id") if "id" in found.re.groupindex else found.group(found.re.groups - 1)
    label = f"#{named} (line {line})" if found else f"at line {line}"
    try:
        fields = phh_fields(reader(hand))
    except (ValueError, ArithmeticError) as error:  # (a SiteError says why; anything else, one line)
        return label, hand, None, refusal(error)
    return label, hand, fields, None
