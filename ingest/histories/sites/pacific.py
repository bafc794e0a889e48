"""888poker hand histories (Pacific Poker and the Cassava network before it, and the national sites
888poker.ca-on, 888.ro...): cash (real money and practice play), tournaments (freerolls, sit-and-gos,
BLAST), hold'em and Omaha hi and hi/lo, no-limit, pot-limit and fixed-limit.

A hand opens with two lines, ``#Game No : N`` and ``***** <site> Hand History for Game N *****``, the
site word (``Cassava``, ``888poker``, ``888poker.ca-on``, ``888.ro``, ``Pacific Poker``, then
``BLAST`` or ``Snap Poker``) always written: PartyPoker's hands open with the same first line and a
second one without it. Its particulars: every amount in brackets is what that action put in (``raises
[$20]`` adds 20 to the raiser's bet), no all-in is written (the stacks say it), no uncalled bet is
returned in words (the collected amount sometimes holds it: taken out, with a note), amounts follow the
client's language (``$1,234.50``, ``1.234,50 $``, ``1 234,50 $``), the date is ``day month year``
without a zone, and the client's language names the cards (``Pik``, Dutch ``H``, Swedish ``Kn``,
Russian letters).

>>> bool(HEADER.match("#Game No : 7\\n***** 888poker Hand History for Game 7 *****"))
True
>>> bool(HEADER.match("#Game No : 7\\n***** Hand History for Game 7 *****"))  # PartyPoker's
False
"""

from __future__ import annotations

import datetime as dt
import re

from ingest.histories.sites.games import game_of
from ingest.histories.sites.pacific_body import SYMBOLS, decimal_mark, money, read_body
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.text import CURRENCY_OF_SYMBOL, SiteError

NAME = "888"
_SITE = r"Cassava|Pacific Poker|888(?:poker)?(?:\.[a-z]{2,3}(?:-[a-z]{2})?)?"  # (888poker.ca-on, 888.ro...)
HEADER = re.compile(
    rf"^#Game No : (?P<id>\d+)[ \t]*\n\*{{4,5}} (?P<site>{_SITE})(?P<kind> BLAST| Snap Poker)? "
    r"Hand History for Game \d+ \*{4,5}",
    re.M,
)
# the game line: ``$0.01/$0.02 Blinds No Limit Holdem - *** 04 02 2011 13:04:49`` (tournaments of 2019 on
# have no date)
_GAME = re.compile(
    r"^(?P<small>[^/]+)/(?P<big>.+?) Blinds (?P<limit>No Limit|Pot Limit|Fix Limit|Limit) (?P<game>.+?)"
    r"(?P<jackpot> Jackpot table)? - \*\*\*(?: (?P<date>.*))?$"
)
_DATE = re.compile(r"^(\d{1,2}) (\d{1,2}) (\d{4}) (\d{1,2}):(\d{2}):(\d{2})")
_TABLE = re.compile(
    r"^Table (?P<table>.+?)(?: (?P<max>\d+) Max)? \((?P<money>Real Money|Practice Play|Play Money)\)$"
)
_TOURNAMENT = re.compile(
    r"^Tournament #(?P<id>\d+) (?P<buy_in>.*?)(?: - Table #(?P<table>\d+))?(?: (?P<max>\d+) Max)? "
    r"\((?P<money>Real Money|Practice Play|Play Money)\)$"
)
_GAMES = {"Holdem": "Hold'em", "Hold'em": "Hold'em", "Omaha": "Omaha", "OmahaHL": "Omaha Hi/Lo",
          "Omaha Hi/Lo": "Omaha Hi/Lo"}  # fmt: skip
_LIMITS = {"No Limit": "No Limit", "Pot Limit": "Pot Limit", "Fix Limit": "Limit", "Limit": "Limit"}


def read_hand(text: str) -> SiteHand:
    """One hand's text (its first line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    found = HEADER.match(text)
    if found is None:
        raise SiteError("no 888poker hand header")
    lines = text[found.end() :].strip("\n").split("\n")
    if len(lines) < 3:
        raise SiteError("the hand is cut off after its header")
    mark = decimal_mark(text)
    hand = _game_line(found, lines[0], mark)
    _table_line(hand, lines[1], mark)
    return read_body(hand, lines[2:], mark)


def _venue(site: str) -> str:
    """The room: Cassava and Pacific Poker were 888poker's network; a national site keeps its name."""
    return "888poker" if site in ("Cassava", "Pacific Poker", "888", "888poker") else site


def _game_line(found: re.Match[str], line: str, mark: str | None) -> SiteHand:
    """A ``SiteHand`` with what the header and game line say: game, stakes, date, room."""
    game = _GAME.match(line)
    if game is None:
        raise SiteError(f"a game line scooplab does not know: {line[:60]!r}")
    name = f"{_GAMES.get(game.group('game'), game.group('game'))} {_LIMITS[game.group('limit')]}"
    described = game_of(name)
    if described is None:
        raise SiteError(f'888 game "{game.group("game")} {game.group("limit")}" has no scooplab description')
    site = found.group("site")
    hand = SiteHand(venue=_venue(site), hand_id=found.group("id"), variant=described[0],
                    hole_cards=described[1], kind=described[2])  # fmt: skip
    if site != hand.venue:
        hand.extra["site"] = site
    if found.group("kind"):
        hand.extra["format"] = found.group("kind").strip()
    if game.group("jackpot"):
        hand.extra["jackpot_table"] = True
    hand.small_blind, hand.big_blind = money(game.group("small"), mark), money(game.group("big"), mark)
    if hand.variant.startswith("F"):  # fixed limit: the blinds are written; the bets are one and two big
        hand.small_bet, hand.big_bet = hand.big_blind, 2 * hand.big_blind
    symbols = {CURRENCY_OF_SYMBOL[s] for s in SYMBOLS.findall(line)}
    hand.currency = symbols.pop() if len(symbols) == 1 else None
    if hand.currency == "USD" and ".ca" in site:  # the Canadian sites play in Canadian dollars
        hand.currency = "CAD"
    date = _DATE.match(game.group("date") or "")
    if date:
        day, month, year, hour, minute, second = (int(date.group(k)) for k in range(1, 7))
        try:
            dt.date(year, month, day)
            hand.when = {"year": year, "month": month, "day": day, "time": dt.time(hour, minute, second)}
        except ValueError:
            raise SiteError(f"{date.group(0)!r} is not a date") from None
    return hand


def _table_line(hand: SiteHand, line: str, mark: str | None) -> None:
    """The table (cash: its name; tournament: its id and table number, buy-in) and the kind of money."""
    table, tournament = _TABLE.match(line), _TOURNAMENT.match(line)
    found = table or tournament
    if found is None:
        raise SiteError(f"a table line scooplab does not know: {line[:60]!r}")
    hand.seat_count = int(found.group("max")) if found.group("max") else None
    practice = found.group("money") != "Real Money"
    if table:
        hand.table = table.group("table")
        if practice:
            hand.currency, hand.chips = None, "play money"
        elif hand.currency is None:
            raise SiteError("a real-money hand whose stakes name no currency")
        return
    assert tournament is not None
    hand.chips, hand.currency = "tournament", None  # (its amounts' ``$`` is chips)
    hand.extra["tournament"] = tournament.group("id")
    number = tournament.group("table")
    hand.table = f"{tournament.group('id')} {number}" if number else tournament.group("id")
    buy_in = tournament.group("buy_in").strip()
    try:
        values = [money(part, mark) for part in buy_in.split(" + ")]
    except SiteError:
        hand.extra["buy_in_text"] = buy_in  # a freeroll: "Free", or its name in the client's language
        return
    hand.extra["buy_in"] = format(values[0], "f")
    if len(values) > 1:
        hand.extra["fee"] = format(values[1], "f")
    symbols = {CURRENCY_OF_SYMBOL[s] for s in SYMBOLS.findall(buy_in)}
    if practice:
        hand.extra["buy_in_currency"] = "play money"
    elif len(symbols) == 1:
        hand.extra["buy_in_currency"] = symbols.pop()
