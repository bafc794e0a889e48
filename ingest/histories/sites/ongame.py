"""The Ongame network's hand histories (Bwin, Betfair, Unibet, Goalwin and the network's other
skins, 2009 to 2013): cash (hold'em, Omaha hi and hi/lo, 7-card stud hi and hi/lo, fixed, pot and
no limit; real and play money) and tournaments.

A hand opens ``***** History for hand R5-21973400-50 *****`` (a tournament's adds ``(TOURNAMENT:
"name", R-274-69, buy-in: €5)``), its date is Java's (``Mon Feb 7 15:22:00 GMT+0100 2011``), its
table line names the game (``(POT_LIMIT OMAHA_HI €1/€1, Real money)``), posts are written in
parentheses, ``raises X to Y`` puts X in (Y is the street's bet in board games, the hand's in stud),
``---`` lines part the streets and the summary gives the pots, their winners and the rake.

>>> bool(HEADER.match('***** History for hand T5-1-2 (TOURNAMENT: "Free", R-1-2, buy-in: €0) *****'))
True
"""

from __future__ import annotations

import datetime as dt
import re

from ingest.histories.sites.games import game_of
from ingest.histories.sites.ongame_body import amount, read_body
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import SiteError, currency_of

NAME = "Ongame"
HEADER = re.compile(
    r"^\*{5} History for hand (?P<id>[\w-]+)(?: \(TOURNAMENT: (?P<tournament>.*)\))? \*{5} *$", re.M
)
_START = re.compile(r"^Start hand: \w{3} (\w{3}) +(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) (\S+) (\d{4})$")
_TABLE = re.compile(r"^Table: (.*?) ?\[(\d+)\] \((NO_LIMIT|POT_LIMIT|LIMIT) (\w+) (\S+?)/(\S+?),?"
                    r"(?: ante: (\S+?),?)? ([^,]*)\)$")  # fmt: skip
_TOURNAMENT = re.compile(r'^"(.*)", ([A-Z]-\d+-\d+), buy-in: (\S+)$')
_MONTHS = dict(zip(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
                   range(1, 13), strict=True))  # fmt: skip
_LIMITS = {"NO_LIMIT": "No Limit", "POT_LIMIT": "Pot Limit", "LIMIT": "Limit"}
_GAMES = {"TEXAS_HOLDEM": "Hold'em", "OMAHA_HI": "Omaha", "OMAHA_HI_LO": "Omaha Hi/Lo",
          "SEVEN_CARD_STUD": "7 Card Stud", "SEVEN_CARD_STUD_HI_LO": "7 Card Stud Hi/Lo", "RAZZ": "Razz",
          "FIVE_CARD_DRAW": "5 Card Draw"}  # fmt: skip
# the zones Ongame's (Java) client names: ``text.TIME_ZONES`` lacks EEST, WEST, GST (Gulf) and BST
ZONES = {"CET": "CET", "CEST": "CET", "EET": "EET", "EEST": "EET", "WET": "WET", "WEST": "WET", "GMT": "UTC",
         "UTC": "UTC", "MSK": "Europe/Moscow", "GST": "Asia/Dubai", "BST": "Europe/London"}  # fmt: skip


def zone_of(text: str) -> str:
    """The IANA name of a Java zone as Ongame writes it: ``GMT+0100`` is ``Etc/GMT-1`` (the Etc names
    count the other way); an offset of minutes is kept as a fixed offset, ``+05:30``.

    >>> zone_of("GMT+0100"), zone_of("GMT-0500"), zone_of("GMT+0530"), zone_of("CEST"), zone_of("GMT")
    ('Etc/GMT-1', 'Etc/GMT+5', '+05:30', 'CET', 'UTC')
    """
    found = re.fullmatch(r"GMT([+-])(\d{2}):?(\d{2})", text)
    if found is None:
        return ZONES.get(text, text)
    sign, hours, minutes = found.group(1), int(found.group(2)), int(found.group(3))
    if minutes or hours > 14:
        return f"{sign}{hours:02d}:{minutes:02d}"
    return "UTC" if hours == 0 else f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"


def when_of(line: str) -> dict[str, object]:
    """PHH's date fields of ``Start hand: Mon Feb 7 15:22:00 GMT+0100 2011`` (empty if unreadable).

    >>> when_of("Start hand: Tue Jul 24 19:12:45 CEST 2012")["time_zone"]
    'CET'
    """
    found = _START.match(line)
    if found is None or found.group(1) not in _MONTHS:
        return {}
    month, day, hour, minute, second = _MONTHS[found.group(1)], *(int(found.group(k)) for k in range(2, 6))
    try:
        dt.date(int(found.group(7)), month, day)
        time = dt.time(hour, minute, min(second, 59))
    except ValueError:
        return {}
    zone = found.group(6)
    return {"year": int(found.group(7)), "month": month, "day": day, "time": time, "time_zone": zone_of(zone),
            "time_zone_abbreviation": zone}  # fmt: skip


def read_hand(text: str) -> SiteHand:
    """One hand's text (its first line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    lines = text.split("\n")
    found = HEADER.match(lines[0])
    if found is None:
        raise SiteError("no Ongame header")
    when, table, button, at = {}, None, None, 1
    for at, line in enumerate(lines):  # noqa: B007 (``at``: the first seat's line)
        if line.startswith("Button: seat "):
            button = int(line[len("Button: seat ") :])
        elif line.startswith("Start hand: "):
            when = when_of(line)
        elif line.startswith("Table: "):
            table = _TABLE.match(line)
            if table is None:
                raise SiteError(f"a table line scooplab does not know: {line[:80]!r}")
        elif line.startswith("Seat "):
            break
    if table is None:
        raise SiteError("no table line")
    hand = _hand_of(found, table, lines)
    hand.when, hand.button = when, button
    return read_body(hand, lines, at)


def _hand_of(header: re.Match[str], table: re.Match[str], lines: list[str]) -> SiteHand:
    """The ``SiteHand`` of the header and table lines: its game, stakes, money or chips, tournament."""
    limit, game, low, high, ante, money = (table.group(k) for k in range(3, 9))
    name = f"{_GAMES.get(game, game)} {_LIMITS[limit]}"
    described = game_of(name)
    if described is None:
        raise SiteError(f'{NAME} game "{limit} {game}" has no scooplab description')
    hand = SiteHand(NAME, header.group("id"), described[0], described[1], kind=described[2],
                    table=table.group(1).strip() or table.group(2))  # fmt: skip
    if limit == "LIMIT":
        hand.small_bet, hand.big_bet = amount(low), amount(high)
    else:
        hand.small_blind, hand.big_blind = amount(low), amount(high)
    tournament = header.group("tournament")
    if tournament is not None or money in ("TC", "Chips"):
        hand.chips = "tournament"
        _tournament(hand, tournament or "")
    elif money == "Play money":
        hand.chips = "play money"
    else:  # (Betfair wrote its amounts bare: the rake's symbol names the currency)
        rake = next((s for s in lines if s.startswith("Rake taken: ")), "")
        hand.currency = currency_of(f"{low} {rake}")
    if ante:
        hand.extra["table_ante"] = format(amount(ante), "f")
    return hand


def _tournament(hand: SiteHand, text: str) -> None:
    """A tournament's name, id (``R-274-69``), buy-in and its currency, as written."""
    found = _TOURNAMENT.match(text.strip())
    if found is None:  # (2009: ``(TOURNAMENT: )``, no name nor number)
        if text.strip():
            hand.extra["tournament_text"] = text.strip()
        return
    hand.extra["tournament_name"], hand.extra["tournament"] = found.group(1), found.group(2)
    hand.extra["buy_in"] = format(amount(found.group(3)), "f")
    if currency_of(found.group(3)):
        hand.extra["buy_in_currency"] = currency_of(found.group(3))
