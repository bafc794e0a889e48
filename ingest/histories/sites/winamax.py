"""Winamax hand histories (France, Spain): cash games in euros or play money (``CashGame``, ``Go
Fast``), tournaments and sit-and-gos (``Tournament "NAME" buyIn: ...``: chips, tickets, freerolls,
bounties, Expresso); hold'em, Omaha (4 and 5 cards, hi/lo), 7-card stud (hi/lo), razz and 2-7
triple draw. The body is read by ``winamax_body``.

Its first line names the game in Winamax's words (``Holdem no limit``, ``Omaha5 pot limit``,
``7stud8 fixed limit``) and the stakes, with a tournament's or a stud game's ante first
(``(50/200/400)``, ``(5€/25€/50€)``):

>>> hand = read_header("Winamax Poker - CashGame - HandId: #1-2-3 - Omaha5 pot limit (1€/2€) - "
...                    "2016/11/15 08:31:17 UTC")
>>> hand.variant, hand.hand_id, hand.big_blind, hand.currency, hand.when["time_zone"]
('PO5', '1-2-3', Decimal('2'), 'EUR', 'UTC')
>>> hand = read_header('Winamax Poker - Tournament "Sunday" buyIn: 0,90€ + 0,10€ level: 4 - HandId: #7-1-9 - '
...                    'Holdem no limit (10/60/120) - 2010/10/26 21:05:10 UTC')
>>> hand.chips, hand.big_blind, hand.extra
('tournament', Decimal('120'), {'tournament_name': 'Sunday', 'buy_in': '0.90', 'fee': '0.10', \
'buy_in_currency': 'EUR', 'level': 4})
"""

from __future__ import annotations

import re

from ingest.histories.sites.games import game_of
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import SiteError, currency_of, when_of
from ingest.histories.sites.winamax_body import money, read_body

NAME = "Winamax"
HEADER = re.compile(r"^Winamax Poker - .*?HandId: #(?P<id>[\d-]+) - (.*)$", re.M)
_FIRST = re.compile(
    r'^Winamax Poker - (?P<room>Tournament|CashGame|Go Fast|HOLD-UP|ESCAPE|[^"]*?)(?: "(?P<name>[^"]*)")?'
    r"(?P<rest>.*?) - HandId: #(?P<id>[\d-]+) - (?P<game>.+?) (?P<limit>no limit|pot limit|fixed limit) "
    r"\((?P<stakes>[^)]*)\)(?P<when>.*)$"
)
_BUY_IN = re.compile(r"buyIn: (?P<buy_in>.*?)(?: level: (?P<level>\d+))?\s*$")
# Winamax's game names as the canonical names ``games.game_of`` reads (without the limit)
_GAMES = {
    "Holdem": "Hold'em", "Omaha": "Omaha", "Omaha5": "5 Card Omaha", "5 Card Omaha": "5 Card Omaha",
    "Omaha8": "Omaha Hi/Lo", "Omaha Hi/Lo": "Omaha Hi/Lo", "5 Card Omaha Hi/Lo": "5 Card Omaha Hi/Lo",
    "Omaha5 Hi/Lo": "5 Card Omaha Hi/Lo", "6 Card Omaha": "6 Card Omaha", "Omaha6": "6 Card Omaha",
    "7-Card Stud": "7 Card Stud", "7stud": "7 Card Stud", "7-Card Stud Hi/Lo": "7 Card Stud Hi/Lo",
    "7stud8": "7 Card Stud Hi/Lo", "Razz": "Razz", "2-7 Triple Draw": "Triple Draw 2-7 Lowball",
    "Lowball27": "Triple Draw 2-7 Lowball", "Badugi": "Badugi", "Short Deck": "Short Deck",
}  # fmt: skip
_LIMITS = {"no limit": "No Limit", "pot limit": "Pot Limit", "fixed limit": "Limit"}


def read_hand(text: str) -> SiteHand:
    """One hand's text (its header line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    first, _, body = text.partition("\n")
    return read_body(read_header(first), body.split("\n"))


def read_header(line: str) -> SiteHand:
    """A ``SiteHand`` with what a hand's first line says: the game, stakes, tournament, date."""
    found = _FIRST.match(line.strip())
    if found is None:
        raise SiteError(f"a Winamax header scooplab cannot read {line[:70]!r}")
    written = f"{found.group('game')} {found.group('limit')}"
    name = f"{_GAMES.get(found.group('game'), found.group('game'))} {_LIMITS[found.group('limit')]}"
    game = game_of(name)
    if game is None:
        raise SiteError(f'Winamax game "{written}" has no scooplab description')
    hand = SiteHand(venue=NAME, hand_id=found.group("id"), variant=game[0], hole_cards=game[1], kind=game[2],
                    when=when_of(found.group("when")))  # fmt: skip
    parts = [money(p) for p in found.group("stakes").split("/")]
    if len(parts) not in (2, 3):
        raise SiteError(f"stakes Winamax does not write ({found.group('stakes')})")
    low, high = parts[-2], parts[-1]
    if hand.variant.startswith("F"):
        hand.small_bet, hand.big_bet = low, high
        hand.small_blind, hand.big_blind = low / 2, low
    else:
        hand.small_blind, hand.big_blind = low, high
    if found.group("room") == "Tournament":
        hand.chips = "tournament"
        _tournament(hand, found.group("name") or "", found.group("rest"))
    else:  # cash: euros where the stakes say so (``(real money)`` on the table line says it too)
        hand.currency = currency_of(found.group("stakes"))
        if found.group("room") in ("HOLD-UP", "ESCAPE"):
            hand.extra["room"] = found.group("room")
    return hand


def _tournament(hand: SiteHand, name: str, rest: str) -> None:
    """A tournament's name, buy-in (``0.92-0.08``, ``0,90€ + 0,10€``, ``4.50€ + 4.50€ + 1€``: buy-in,
    bounty, fee; ``Ticket only``, ``Free``, ``Gratuit``) and level."""
    hand.extra["tournament_name"] = name
    found = _BUY_IN.search(rest)
    if found is None:
        return
    text = found.group("buy_in").strip()
    parts = [p.strip() for p in re.split(r"\s*[+]\s*|(?<=\d)-(?=\d)", text) if p.strip()]
    try:
        values = [format(money(p.replace(",", ".")), "f") for p in parts]
    except SiteError:
        values = []
    if len(values) in (2, 3):
        keys = ("buy_in", "fee") if len(values) == 2 else ("buy_in", "bounty", "fee")
        hand.extra.update(zip(keys, values, strict=True))
        code = currency_of(text)
        if code:
            hand.extra["buy_in_currency"] = code
    elif text:
        hand.extra["buy_in_text"] = text
    if found.group("level"):
        hand.extra["level"] = int(found.group("level"))
