"""Absolute Poker and UltimateBet (the Cereus network's "Stage #" hands) hand histories.

A hand opens ``Stage #1797821771: Holdem  No Limit $1 - 2009-12-14 17:14:02 (ET)`` (tournaments
``Stage #525691746 Tourney ID 5945889 Holdem Multi Normal Tournament No Limit 10 - ...``, no colon);
then ``Table: WILLOW ST (Real Money) Seat #4 is the dealer`` (stud hands have none), the seats
``Seat 4 - NAME ($148.70 in chips)`` and ``NAME - Verb amount`` lines. The stakes of a no-limit or
pot-limit game are its big blind (``$1``, with ``, $0.25 ante``); ``Normal`` is fixed limit, its
stakes the small and big bets (``$25/$50``; the blinds are as posted: $15/$25). A raise is written
``Raises $3.50 to $4`` (what it adds, then the street's bet it makes), a call by what it adds,
``All-In $X`` by what it adds (a call, a bet or a raise as it compares) and ``All-In(Raise) $X to $Y``.
Its hands are found by ``HEADER`` (the ``id`` group names the hand) and each read by ``read_hand``:
the header here, the rest by ``absolute_body``.
"""

from __future__ import annotations

import re

from ingest.histories.sites.absolute_body import MONEY, Body
from ingest.histories.sites.games import game_of
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import SiteError, amount, currency_of, number_text, when_of

NAME = "Absolute"
HEADER = re.compile(r"^Stage #(?P<id>\w+):? +(.*)$", re.M)

_GAME = re.compile(
    r"^(?:Tourney ID (?P<tournament>\d+)\s+)?(?P<game>.+?)(?:\s+\((?P<heads_up>1 on 1)\))?"
    r"(?:\s+(?P<kind>(?:Single|Multi)(?: \w+)? Tournament))?\s+(?P<limit>No Limit|Pot Limit|Normal|Limit)\b"
    r"\s*(?P<stakes>.*?)\s+-\s+(?P<when>\d{4}-\d\d-\d\d.*)$",
    re.I,
)
_STAKES = re.compile(
    rf"^(?P<low>{MONEY})(?:/(?P<high>{MONEY}))?(?:,\s*(?P<ante>{MONEY}) ante)?\s*(?P<rest>.*)$"
)
# the site's game names (upper case) as games.py names them; the limits likewise
_GAMES = {
    "HOLDEM": "Hold'em", "HOLD'EM": "Hold'em", "OMAHA": "Omaha", "OMAHA HI": "Omaha",
    "OMAHA HI/LO": "Omaha Hi/Lo", "SEVEN CARD HI/LO": "7 Card Stud Hi/Lo",
    "7 CARD STUD HI/LO": "7 Card Stud Hi/Lo", "SEVEN CARD": "7 Card Stud", "SEVEN CARD STUD": "7 Card Stud",
    "7 CARD STUD": "7 Card Stud", "RAZZ": "Razz",
}  # fmt: skip
_LIMITS = {"NO LIMIT": "No Limit", "POT LIMIT": "Pot Limit", "NORMAL": "Limit", "LIMIT": "Limit"}
_HORSE = re.compile(r"^Game Type: (No Limit|Pot Limit|Limit) (.+?)\s*$", re.M)
_FRACTION = re.compile(r"(:\d\d)\.\d+")


def read_hand(text: str) -> SiteHand:
    """One hand's text (its first line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    lines = text.split("\n")
    found = HEADER.match(lines[0])
    if found is None:
        raise SiteError("no Absolute hand header")
    hand = header_hand(found.group("id"), found.group(2), text)
    return Body(hand, lines[1:]).read()


def header_hand(hand_id: str, rest: str, text: str = "") -> SiteHand:
    """A ``SiteHand`` with what the header says (after ``Stage #id:``); ``text``: the hand's (a HORSE
    hand names its game on a ``Game Type:`` line).

    >>> hand = header_hand("1", "Holdem  No Limit $1, $0.25 ante - 2009-11-30 15:50:12 (ET)")
    >>> hand.variant, hand.big_blind, hand.currency, hand.when["time_zone"], hand.extra["ante"]
    ('NT', Decimal('1'), 'USD', 'America/New_York', '0.25')
    >>> hand = header_hand("2", "Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)")
    >>> hand.variant, hand.kind, hand.small_bet, hand.big_bet
    ('F7S/8', 'stud', Decimal('0.02'), Decimal('0.04'))
    >>> hand = header_hand("3", "Tourney ID 59 Holdem Multi Normal Tournament No Limit 10 - 2011-01-16 17:03")
    >>> hand.chips, hand.extra["tournament"], hand.big_blind
    ('tournament', '59', Decimal('10'))
    """
    found = _GAME.match(rest.strip())
    if found is None:
        raise SiteError(f"an Absolute header scooplab cannot read: {rest[:60]!r}")
    written, limit = found.group("game").strip(), _LIMITS[found.group("limit").upper()]
    if written.upper() == "HORSE":
        game_type = _HORSE.search(text)
        if game_type is None:
            raise SiteError("a HORSE hand without its Game Type line")
        limit, written = game_type.group(1), game_type.group(2)
    name = f"{_GAMES.get(written.upper(), written)} {limit}"
    game = game_of(name)
    if game is None:
        raise SiteError(f'Absolute game "{written} {found.group("limit")}" has no scooplab description')
    if game[2] == "draw":
        raise SiteError(f'Absolute game "{written}": scooplab does not read this site\'s draw games')
    hand = SiteHand(venue=NAME, hand_id=hand_id, variant=game[0], hole_cards=game[1], kind=game[2],
                    when=when_of(_FRACTION.sub(r"\1", found.group("when"))))  # fmt: skip
    if found.group("heads_up"):
        hand.seat_count = 2
    _stakes(hand, found.group("stakes"), limit == "Limit")
    if found.group("tournament"):
        hand.chips, hand.currency = "tournament", None
        hand.extra["tournament"] = found.group("tournament")
        if found.group("kind"):
            hand.extra["tournament_kind"] = found.group("kind")
    return hand


def _stakes(hand: SiteHand, text: str, fixed: bool) -> None:
    """The stakes: a no-limit or pot-limit game's big blind (and ante), a limit game's two bets."""
    found = _STAKES.match(text.strip())
    if found is None:
        raise SiteError(f"no stakes in the Absolute header: {text[:40]!r}")
    low, high = amount(found.group("low")), found.group("high") and amount(found.group("high"))
    hand.currency = currency_of(found.group("low"))
    if fixed:
        if not high:
            raise SiteError("a limit game's header names one stake, not its small and big bets")
        hand.small_bet, hand.big_bet = low, high
        hand.small_blind, hand.big_blind = low / 2, low  # till the posts say
    elif high:
        hand.small_blind, hand.big_blind = low, high
    else:
        hand.small_blind, hand.big_blind = low / 2, low  # till the posts say
    if found.group("ante"):
        hand.extra["ante"] = number_text(amount(found.group("ante")))
    rest = found.group("rest")
    if "(7-2)" in rest:
        hand.extra["seven_deuce"] = True  # a 7-2 proposition table: side bets outside the pot
    if re.search(r"\bTurbo\b", rest):
        hand.extra["speed"] = "turbo"
