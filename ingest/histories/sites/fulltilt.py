"""Full Tilt Poker (2004-2016 text, UTF-16 files) hand histories: cash (hold'em, Omaha hi and hi/lo
of 4, 5 and 6 cards, stud, razz, badugi, 2-7 draws; capped tables), sit-and-gos and tournaments.

A header names the table, its stakes and game in either order, the time before the date
(``11:33:17 ET - 2010/03/03``; in 2010 ``15:13 ET - Wed, July 21, 2010``) and, later, the time in
ET beside it; the body (``fulltilt_body``) is close to PokerStars'.

>>> line = "Table Gaines (6 max) - $0.01/$0.02 - Pot Limit Omaha Hi - 11:33:17 ET - 2010/03/03"
>>> hand = header_hand("1", line)
>>> hand.variant, hand.table, hand.seat_count, hand.big_blind, hand.currency, hand.when["day"]
('PO', 'Gaines', 6, Decimal('0.02'), 'USD', 3)
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from ingest.histories.sites.fulltilt_body import read_body
from ingest.histories.sites.games import game_of
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import TIME_ZONES, SiteError, amount, currency_of

NAME = "Full Tilt"
HEADER = re.compile(r"^Full ?Tilt ?Poker Game #(?P<id>\d+): (.*)$", re.M)
_HEAD = re.compile(
    r"^(?:(?P<tour>.*) \((?P<tid>\d+)\), )?"
    r"(?:Table (?P<table>.*?)(?: \((?P<props>[^()]*)\))?|(?P<match>Match \d+))"
    r" - (?P<a>.*?) - (?P<b>.*?) - (?P<time>\d{1,2}:\d{2}(?::\d{2})?) (?P<zone>[A-Z]{2,5}) - (?P<date>.*)$"
)
_CHIPS = r"[$€£]?\d[\d,.]*[KMB]?"
_STAKES = re.compile(rf"^(?P<low>{_CHIPS})/(?P<high>{_CHIPS})(?: Ante (?P<ante>{_CHIPS}))?$")
_CAP = re.compile(r"^(?!\d Card )(?:(?P<cap>[$€£]?\d[\d,.]*) (?:Cap )?|CAP )(?P<game>.*)$")
_LIMITS = {"No Limit": "No Limit", "NL": "No Limit", "Pot Limit": "Pot Limit", "PL": "Pot Limit",
           "Limit": "Limit", "FL": "Limit", "Fixed Limit": "Limit"}  # fmt: skip
# Full Tilt's name of a game (without its limit) as games.py names it
_GAMES = {
    "Hold'em": "Hold'em", "Omaha": "Omaha", "Omaha Hi": "Omaha", "Omaha Hi/Lo": "Omaha Hi/Lo",
    "Omaha H/L": "Omaha Hi/Lo", "5 Card Omaha": "5 Card Omaha", "5 Card Omaha Hi": "5 Card Omaha",
    "5 Card Omaha Hi/Lo": "5 Card Omaha Hi/Lo", "5 Card Omaha H/L": "5 Card Omaha Hi/Lo",
    "6 Card Omaha": "6 Card Omaha", "6 Card Omaha Hi": "6 Card Omaha", "Stud Hi": "7 Card Stud",
    "Stud": "7 Card Stud", "Stud H/L": "7 Card Stud Hi/Lo", "Stud Hi/Lo": "7 Card Stud Hi/Lo",
    "Razz": "Razz", "Badugi": "Badugi", "2-7 Triple Draw": "Triple Draw 2-7 Lowball",
    "2-7 Single Draw": "Single Draw 2-7 Lowball",
}  # fmt: skip
_MONTH_NAMES = "January February March April May June July August September October November December"
_MONTHS = {month: k for k, month in enumerate(_MONTH_NAMES.split(), 1)}
_LONG_DATE = re.compile(r"^\w+, (\w+) (\d{1,2}), (\d{4})")
_DATE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})")
_BUY_IN = re.compile(r"^([$€£][\d,.]+) \+ ([$€£][\d,.]+) ")
_SUFFIX = {"K": 1000, "M": 1000**2, "B": 1000**3}


def read_hand(text: str) -> SiteHand:
    """One hand's text (its first line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    first, _, body = text.partition("\n")
    found = HEADER.match(first)
    assert found is not None
    if first.rstrip().endswith("(partial)"):
        raise SiteError("the file writes the hand in part (partial) with no seats or actions to replay")
    hand = header_hand(found.group("id"), found.group(2))
    return read_body(hand, body.split("\n"))


def chips(text: str) -> Decimal:
    """An amount of a header, where thousands may be ``K``, millions ``M``, billions ``B``.

    >>> chips("50K"), chips("$0.25"), chips("2B"), chips("1,500")
    (Decimal('50000'), Decimal('0.25'), Decimal('2000000000'), Decimal('1500'))
    """
    if text[-1:] in _SUFFIX:
        return amount(text[:-1]) * _SUFFIX[text[-1]]
    return amount(text)


def game_name(text: str) -> tuple[str, str | None]:
    """A header's game as games.py names it, and its cap (``$400 Pot Limit Omaha Hi``; ``CAP NL
    Hold'em``: "" where the header names no amount), else None; ``SiteError`` for a game scooplab
    has no description for, by its name as written.

    >>> game_name("PL 6 Card Omaha Hi"), game_name("$2,000 Cap Pot Limit Omaha Hi")
    (('6 Card Omaha Pot Limit', None), ('Omaha Pot Limit', '$2,000'))
    >>> game_name("PL Courchevel Hi")
    Traceback (most recent call last):
    ...
    ingest.histories.sites.text.SiteError: Full Tilt game "PL Courchevel Hi" has no scooplab description
    """
    cap, name = None, text
    capped = _CAP.match(text)
    if capped:
        cap, name = capped.group("cap") or "", capped.group("game")
    limit, _, game = name.partition(" ")
    if limit in ("No", "Pot", "Fixed"):
        more, _, game = game.partition(" ")
        limit = f"{limit} {more}"
    canonical = f"{_GAMES.get(game, '?')} {_LIMITS.get(limit, '?')}"
    if "?" in canonical or game_of(canonical) is None:
        raise SiteError(f'Full Tilt game "{name}" has no scooplab description')
    return canonical, cap


def header_hand(hand_id: str, rest: str) -> SiteHand:
    """A ``SiteHand`` with what a header says after ``#id:``."""
    head = _HEAD.match(rest)
    if head is None:
        raise SiteError(f"a Full Tilt header scooplab does not know: {rest[:60]!r}")
    stakes = _STAKES.match(head.group("a"))
    game = head.group("b")
    if stakes is None:
        stakes, game = _STAKES.match(head.group("b")), head.group("a")
    if stakes is None:
        raise SiteError(f"no stakes in the header: {rest[:60]!r}")
    canonical, cap = game_name(game)
    code, hole_cards, kind = game_of(canonical)  # type: ignore[misc]
    hand = SiteHand(venue=NAME, hand_id=hand_id, variant=code, hole_cards=hole_cards, kind=kind)
    hand.when = when(head.group("time"), head.group("zone"), head.group("date"))
    hand.table = head.group("table") or head.group("match")
    props = head.group("props") or ""
    seats = re.search(r"(\d+) max", props)
    hand.seat_count = int(seats.group(1)) if seats else 2 if "heads up" in props else None
    if props:
        hand.extra["table_kind"] = props
    low, high = chips(stakes.group("low")), chips(stakes.group("high"))
    if code.startswith("F"):
        hand.small_bet, hand.big_bet = low, high
        hand.small_blind, hand.big_blind = low / 2, low
    else:
        hand.small_blind, hand.big_blind = low, high
    if cap is not None:
        hand.extra["cap"] = format(amount(cap), "f") if cap else "CAP"  # (the header's word: no amount)
    if head.group("tid"):
        _tournament(hand, head.group("tid"), head.group("tour"))
    else:
        hand.currency = currency_of(stakes.group(0))
        hand.chips = None if hand.currency else "play money"
    return hand


def _tournament(hand: SiteHand, tournament_id: str, name: str) -> None:
    """A tournament hand: chips, with its id, name and (``$4 + $0.40 ...``) buy-in and fee kept."""
    hand.chips = "tournament"
    hand.extra["tournament"] = tournament_id
    hand.extra["tournament_name"] = name
    buy_in = _BUY_IN.match(name + " ")
    if buy_in:
        hand.extra["buy_in"] = format(amount(buy_in.group(1)), "f")
        hand.extra["fee"] = format(amount(buy_in.group(2)), "f")
        code = currency_of(buy_in.group(1))
        if code:
            hand.extra["buy_in_currency"] = code


def when(clock: str, zone: str, date: str) -> dict[str, object]:
    """PHH's date and time fields of a header's ``11:33:17 ET - 2010/03/03`` (or ``Wed, July 21, 2010``).

    >>> when("15:13", "ET", "Wed, July 21, 2010")["day"], when("0:03:34", "CET", "2006/10/11")["time_zone"]
    (21, 'CET')
    """
    found = _DATE.match(date)
    long_date = None if found else _LONG_DATE.match(date)
    if found:
        year, month, day = (int(found.group(k)) for k in (1, 2, 3))
    elif long_date and long_date.group(1) in _MONTHS:
        year, month, day = int(long_date.group(3)), _MONTHS[long_date.group(1)], int(long_date.group(2))
    else:
        return {}
    parts = [int(p) for p in clock.split(":")] + [0]
    try:
        dt.date(year, month, day)
        time = dt.time(parts[0], parts[1], min(parts[2], 59))
    except ValueError:
        return {}
    return {"year": year, "month": month, "day": day, "time": time,
            "time_zone": TIME_ZONES.get(zone, zone), "time_zone_abbreviation": zone}  # fmt: skip
