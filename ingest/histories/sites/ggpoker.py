"""GGPoker hand histories (``Poker Hand #`` with lettered ids: cash, Rush & Cash, tournaments with
bounties; hold'em, PLO, short deck). Opponents' cards are hidden (``Dealt to NAME`` without cards)
unless shown; amounts may carry thousands separators.

>>> bool(HEADER.match("Poker Hand #OM181427446: PLO ($2/$5) - 2021/01/21 02:41:55"))
True
"""

from __future__ import annotations

import re

from ingest.histories.sites.header import header_hand
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.stars_family import read_body

HEADER = re.compile(r"^Poker Hand #([A-Z]{0,4}\d+): *(.*)$", re.M)


def read_hand(text: str) -> SiteHand:
    """One hand's text (its header line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    first, _, body = text.partition("\n")
    found = HEADER.match(first)
    assert found is not None
    hand = header_hand("GGPoker", found.group(1), found.group(2))
    return read_body(hand, body.split("\n"))
