"""PokerStars hand histories (cash, Zoom, sit-and-go, multi-table, knockout; 2009 ``Game #`` to
2025 ``Hand #`` headers), and the rooms and apps that write its format under their own name (Run It
Once, PokerMaster, PokerBros, Full Tilt from 2016).

>>> bool(HEADER.match("PokerStars Zoom Hand #1:  Hold'em No Limit ($0.05/$0.10) - 2020/01/01 10:00:00 ET"))
True
"""

from __future__ import annotations

import re

from ingest.histories.sites.header import header_hand
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.stars_family import read_body

HEADER = re.compile(
    r"^(PokerStars|Run It Once Poker|PokerMaster|PokerBros|Full Tilt)(?: Zoom| Home Game| Home Games| Rush)? "
    r"(?:Hand|Game) #(\d+): *(.*)$",
    re.M,
)
VENUES = {"PokerStars": "PokerStars", "Run It Once Poker": "Run It Once", "PokerMaster": "PokerMaster",
          "PokerBros": "PokerBros", "Full Tilt": "Full Tilt"}  # fmt: skip


def read_hand(text: str) -> SiteHand:
    """One hand's text (its header line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    first, _, body = text.partition("\n")
    found = HEADER.match(first)
    assert found is not None
    hand = header_hand(VENUES[found.group(1)], found.group(2), found.group(3))
    if "Home Game" in first:
        room = re.search(r"\{(.*?)\}", first)
        hand.extra["home_game"] = room.group(1) if room else ""
    return read_body(hand, body.split("\n"))
