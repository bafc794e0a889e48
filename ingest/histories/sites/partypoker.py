"""PartyPoker hand histories: the text of 2005-2017 (``Game #N starts.``, ``#Game No : N``,
``***** Hand History for Game N *****``, then ``$2 USD NL Texas Hold'em - Monday, August 30,
16:08:09 EDT 2010``), the 2008 e-mailed and 2019+ client's (``***** Hand History For Game ...
*****``, ``0.10/0.25 Omaha Hi Game Table (PL) - Mon Feb 09 12:55:26 EST 2026`` and a summary),
and the files other rooms' hands were converted to it (``***** ... ***** (Poker Stars)``).

The header is read here, the body by ``partypoker_body``.

>>> bool(HEADER.match(" Game #9582251255 starts.\\n\\n#Game No : 9582251255\\n"
...                   "***** Hand History for Game 9582251255 *****"))
True
>>> HEADER.match("***** Hand History For Game 1770659766668adeb0h5qfm *****").group("id")
'1770659766668adeb0h5qfm'
>>> HEADER.match("#Game No : 1\\n***** 888poker Hand History for Game 1 *****") is None
True
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from ingest.histories.sites.games import game_of
from ingest.histories.sites.partypoker_body import Body, money, set_stakes, tournament_stakes
from ingest.histories.sites.site_hand import (
    ZERO,
    Move,
    SiteHand,
    contributions,
    forced_bets,
    rules_contributions,
)
from ingest.histories.sites.text import TIME_ZONES, SiteError, currency_of, number_text

NAME = "PartyPoker"
# the optional ``Game #N starts.`` and ``#Game No : N`` lines belong to the hand that follows them
HEADER = re.compile(
    r"^(?:[ \0]?Game #\d+ starts\.[ ]*\n(?:[ \0]*\n)*)?(?:[ \0]?#Game No : \d+[ ]*\n(?:[ \0]*\n)*)?"
    r"[ \0]?\*{5} Hand History [Ff]or Game (?P<id>\w+) \*{5}",
    re.M,
)
_HAND_LINE = re.compile(r"^\*{5} Hand History [Ff]or Game (\w+) \*{5}\s*(?:\((.+)\))?$")
_ROOMS = {"Poker Stars": "PokerStars", "PokerStars": "PokerStars"}  # a converted hand's room, as named
_DATE_SPLIT = re.compile(r"\s*-\s*(?=(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*[ ,])")
_DATE = re.compile(r"([A-Z][a-z]+),? (\d{1,2}),? (\d{1,2}):(\d{2}):(\d{2})\s+(?:([A-Z]{2,5})\s+)?(\d{4})\s*$")
_MONTHS = {m: k + 1 for k, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
                                            "Oct", "Nov", "Dec"))}  # fmt: skip
# zones PartyPoker writes besides ``text.TIME_ZONES``' (the client writes the player's own zone)
_ZONES = {
    "BST": "Europe/London", "EEST": "EET", "MESZ": "CET", "MEZ": "CET", "MSKS": "Europe/Moscow",
    "YEKST": "Asia/Yekaterinburg", "YEKT": "Asia/Yekaterinburg", "ICT": "Asia/Bangkok",
    "WEST": "WET", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney", "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MST": "America/Denver", "MDT": "America/Denver",
}  # fmt: skip
_GAMES = re.compile(
    r"(Double Hold'em|Texas Hold'?em|Hold'?em|[56] Card Omaha Hi-Lo|[56] Card Omaha|Omaha Hi-Lo|Omaha Hi/Lo|"
    r"Omaha Hi|Omaha|Courchevel|7 Card Stud Hi-Lo|7 Card Stud|Short Deck|Razz|5 Card Draw|Badugi|5 Card Stud)"
)
_CANONICAL = {"Texas Hold'em": "Hold'em", "Texas Holdem": "Hold'em", "Holdem": "Hold'em", "Omaha Hi": "Omaha",
              "Omaha Hi-Lo": "Omaha Hi/Lo", "7 Card Stud Hi-Lo": "7 Card Stud Hi/Lo",
              "5 Card Omaha Hi-Lo": "5 Card Omaha Hi/Lo"}  # fmt: skip
_LIMITS = {"NL": "No Limit", "PL": "Pot Limit", "FL": "Limit"}
_LIMIT = re.compile(r"(?:\b|\()(NL|PL|FL)(?:\b|\))")
_STAKES = re.compile(r"^[$€£]?\s?(\d[\d.,]*)/[$€£]?\s?(\d[\d.,]*)")
_BUY_IN = re.compile(r"^[$€£]\s?(\d[\d.,]*)\b")
_TOURNAMENT_ID = re.compile(r"(?:Trny: ?|Tournament #)(\d+)")
_LEVEL = re.compile(r"Level: ?(\d+)")
_TOURNEY_BUY_IN = re.compile(
    r"(?:\(Buyin ([$€£]?[\d.,]+) \+ ([$€£]?[\d.,]+)\)|([$€£]\s?[\d.,]+)(?: [A-Z]{3})? Buy-in"
    r"(?:\s+\+ ([$€£]?[\d.,]+) Entry Fee)?)"
)


def read_hand(text: str) -> SiteHand:
    """One hand's text (its first line first) as a ``SiteHand``; ``SiteError`` names what is wrong."""
    lines = [line.strip(" \t\0") for line in text.split("\n")]  # (a line may open with a space or a NUL)
    at = next((k for k, line in enumerate(lines) if line.startswith("***** Hand History")), None)
    found = _HAND_LINE.match(lines[at]) if at is not None else None
    if found is None:
        raise SiteError("no PartyPoker hand line")
    rest = [line for line in lines[at + 1 :] if line]
    if not rest:
        raise SiteError("the hand stops after its first line")
    room = found.group(2)
    venue = _ROOMS.get(room, room) if room else NAME
    hand = header_hand(venue, found.group(1), rest[0])
    if room:
        hand.notes.append(f"a {room} hand converted to PartyPoker's format by another program")
    return settle(Body(hand, rest[1:]).read())


def header_hand(venue: str, hand_id: str, line: str) -> SiteHand:
    """A ``SiteHand`` with what the game line says: game, limit, stakes or buy-in, tournament, date.

    >>> hand = header_hand("PartyPoker", "1", "$2 USD NL Texas Hold'em - Monday, August 30, 16:08:09 EDT 2010"
    ... )
    >>> hand.variant, hand.currency, hand.extra["table_buy_in"], hand.when["year"], hand.when["time_zone"]
    ('NT', 'USD', '2', 2010, 'America/New_York')
    >>> hand = header_hand("PartyPoker", "1", "FL 7 Card Stud $6 USD Buy-in Trny:69784932 Level:2  "
    ...                    "Stakes-Antes(60/120-10) - Wednesday, May 30, 14:41:43 EDT 2012")
    >>> hand.variant, hand.chips, hand.small_bet, hand.big_bet, hand.extra["tournament"], hand.extra["buy_in"]
    ('F7S', 'tournament', Decimal('60'), Decimal('120'), '69784932', '6')
    """
    parts = _DATE_SPLIT.split(" ".join(line.split()), maxsplit=1)
    head, date = parts[0], parts[1] if len(parts) > 1 else ""
    found = _GAMES.search(head)
    if found is None:
        raise SiteError(f"PartyPoker header names no game scooplab knows: {head[:60]!r}")
    limit = _LIMIT.search(head)
    name = f"{_CANONICAL.get(found.group(1), found.group(1))} {_LIMITS[limit.group(1) if limit else 'FL']}"
    game = game_of(name)
    if game is None:
        raise SiteError(f'PartyPoker game "{name}" has no scooplab description')
    hand = SiteHand(venue=venue, hand_id=hand_id, variant=game[0], hole_cards=game[1], kind=game[2],
                    when=when(date))  # fmt: skip
    if "fastforward" in head:
        hand.extra["fastforward"] = True
    if re.search(r"Trny|Tourney|Tournament|Buy-?in", head):
        _tournament(hand, head)
    else:
        hand.currency = currency_of(head) or ("USD" if "$" in head else None)
        hand.chips = None if hand.currency else "play money"
        stakes = _STAKES.match(head)
        if stakes:
            set_stakes(hand, money(stakes.group(1)), money(stakes.group(2)))
        elif buy_in := _BUY_IN.match(head):
            hand.extra["table_buy_in"] = format(money(buy_in.group(1)), "f")
    return hand


def _tournament(hand: SiteHand, head: str) -> None:
    """A tournament's id, level, buy-in and fee, and its stakes when the header writes them."""
    hand.chips = "tournament"
    found = _TOURNAMENT_ID.search(head)
    if found:
        hand.extra["tournament"] = found.group(1)
    level = _LEVEL.search(head)
    if level:
        hand.extra["level"] = int(level.group(1))
    buy_in = _TOURNEY_BUY_IN.search(head)
    if buy_in:
        paid, fee = buy_in.group(1) or buy_in.group(3), buy_in.group(2) or buy_in.group(4)
        hand.extra["buy_in"] = format(money(paid), "f")
        if fee:
            hand.extra["fee"] = format(money(fee), "f")
        code = currency_of(buy_in.group(0))
        if code:
            hand.extra["buy_in_currency"] = code
    stakes = tournament_stakes(head)
    if stakes:
        set_stakes(hand, *stakes)
    else:
        new = _STAKES.match(head)  # the summary format: ``800/1600 Tourney Texas Hold'em``
        if new:
            set_stakes(hand, money(new.group(1)), money(new.group(2)))


def when(text: str) -> dict[str, object]:
    """PHH's date fields of ``Monday, August 30, 16:08:09 EDT 2010`` (the year at the end),
    ``Sunday,December 9, 14:34:49 ICT 2012``, ``Mon Feb 09 12:55:26 EST 2026`` or a date without
    its zone (``Sunday, July 28, 21:01:39  2013``).

    >>> when("Mon Feb 09 12:55:26 EST 2026")["month"], when("Sunday, July 28, 21:01:39  2013").get("year")
    (2, 2013)
    >>> "time_zone" in when("Sunday, July 28, 21:01:39  2013")
    False
    >>> when("Tuesday, July 31, 21:08:37 YEKST 2012")["time_zone"]
    'Asia/Yekaterinburg'
    """
    found = _DATE.search(text)
    if found is None:
        return {}
    month = _MONTHS.get(found.group(1)[:3])
    day, hour, minute, second, year = (int(found.group(k)) for k in (2, 3, 4, 5, 7))
    try:
        dt.date(year, month or 0, day)
        result: dict[str, object] = {"year": year, "month": month, "day": day,
                                     "time": dt.time(hour, minute, min(second, 59))}  # fmt: skip
    except ValueError:
        return {}
    zone = found.group(6)
    if zone:
        result["time_zone"] = TIME_ZONES.get(zone) or _ZONES.get(zone, zone)
        result["time_zone_abbreviation"] = zone
    return result


def settle(body: Body) -> SiteHand:
    """What the lines leave to the end: who was dealt in, the stud cards nobody saw, the big blind,
    what each player won (less the uncalled bet the file counts in it), the file's figures checked."""
    hand = body.hand
    if not body.won and not body.summary:
        raise SiteError("the hand is cut off: nobody wins")
    _dealt_in(body)
    _folds_in_turn(hand)
    if hand.kind == "stud":
        _unseen_stud_cards(hand, body.streets)
    elif not hand.big_blind:
        _big_blind_of_first_call(hand)
    _showdown_cards(body)
    won = _won(body)
    returned = _uncalled(body)
    for name, value in returned.items():
        hand.returned[name] = value
        if won.get(name, ZERO) >= value:
            won[name] -= value
        else:
            hand.notes.append(f"{name}'s winnings do not hold the uncalled {number_text(value)} given back")
    _cash_outs(body, won)
    hand.collected = {name: value for name, value in won.items() if value}
    if body.pots:
        hand.total_pot = sum(body.pots, ZERO) + hand.rake
    elif hand.chips == "tournament":
        _tournament_pot_note(hand)
    _balance_notes(body)
    return hand


def _dealt_in(body: Body) -> None:
    """A seat with no post, move, cards or win was not dealt in (sitting out, or just seated); one
    said to sit out that plays was dealt in. A seat of no chips that plays is a player who joined:
    the file does not write his stack."""
    hand = body.hand
    active = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.known) | set(body.won)
    active |= {name for name, _ in hand.shows}
    for seat in hand.seats:
        seat.out = seat.name not in active
        if not seat.out and seat.stack <= 0:
            raise SiteError(f"{seat.name} plays from a seat of no chips: the file writes no stack for him")


def _folds_in_turn(hand: SiteHand) -> None:
    """The folds a hand opens with, written out of their turn (players folding in advance), read in
    their turn: only where they are exactly the players first to act before the flop."""
    if hand.kind != "board":
        return
    dealt = [s.name for s in hand.dealt()]
    if len(dealt) < 3:
        return
    turns = dealt[2:] + dealt[:2]  # before the flop: from the seat after the big blind
    count = next((k for k, m in enumerate(hand.moves) if m.verb != "f" or m.street), len(hand.moves))
    folders = [m.name for m in hand.moves[:count]]
    if folders != turns[:count] and sorted(folders) == sorted(turns[:count]):
        hand.moves[:count] = [Move(0, name, "f") for name in turns[:count]]
        hand.notes.append("the file writes the first folds out of their turn: read in turn")


def _unseen_stud_cards(hand: SiteHand, streets: int) -> None:
    """Stud: PartyPoker writes the hero's cards alone; the others' are dealt unknown (``??``),
    three on third street and one a street to each player still in."""
    dealt = [s.name for s in hand.dealt()]
    folded: set[str] = set()
    moves: list[Move] = []
    for street in range(streets + 1):
        these = [m for m in hand.moves if m.street == street]
        given = {m.name: m for m in these if m.verb == "dh"}
        unseen = "??????" if street == 0 else "??"
        moves += [given.get(n) or Move(street, n, "dh", cards=unseen) for n in dealt if n not in folded]
        moves += [m for m in these if m.verb != "dh"]
        folded |= {m.name for m in these if m.verb == "f"}
    hand.moves = moves + [m for m in hand.moves if m.street > streets]


def _big_blind_of_first_call(hand: SiteHand) -> None:
    """No stakes in the header and no whole big blind posted (its poster all in for less): the big
    blind is what the first call before any raise put in, else the hand is refused."""
    posted = forced_bets(hand)
    for move in hand.moves:
        if move.street > 0 or move.verb == "cbr":
            break
        if move.verb == "cc" and move.amount and not posted.get(move.name):
            hand.big_blind = move.amount
            hand.notes.append(f"the big blind {number_text(move.amount)} is read from the first call: "
                              "the header names no stakes and its poster was all in for less")  # fmt: skip
            return
    if not any(p.kind == "big" for p in hand.forced):
        raise SiteError("no stakes: the header names none and nobody posts a big blind")
    hand.big_blind = max(p.amount for p in hand.forced if p.kind == "big")


def _showdown_cards(body: Body) -> None:
    """The summary format shows the cards at the showdown in its summary alone."""
    hand = body.hand
    folded = {m.name for m in hand.moves if m.verb == "f"}
    shown = {name for name, _ in hand.shows}
    for name, held in body.summary_cards.items():
        if name in folded or name in shown:
            continue
        if hand.kind != "stud" and len(held) == 2 * hand.hole_cards:
            hand.known[name] = held
        hand.shows.append((name, held))


def _won(body: Body) -> dict[str, Decimal]:
    """What each player won as the file writes it: its ``wins`` lines, or its summary's ``collected``."""
    won = dict(body.won)
    for name, figures in body.summary.items():
        if "collected" in figures and "cashed_out" not in figures:
            won[name] = won.get(name, ZERO) + figures["collected"]
    return won


def _uncalled(body: Body) -> dict[str, Decimal]:
    """The part of the last street's largest bet nobody matched, by the rules (a call matches the
    bet, whatever amount the file writes): the file does not write it given back, but counts it
    in what its bettor wins."""
    by_rules = rules_contributions(body.hand)
    return {name: spent - by_rules.get(name, ZERO) for name, spent in body.spent.items()
            if spent > by_rules.get(name, ZERO)}  # fmt: skip


def _cash_outs(body: Body, won: dict[str, Decimal]) -> None:
    """A player who took the 2019+ client's all-in cash-out: the site pays him (``Cashout Amount is
    23.01``); at the table he wins what the pots hold beyond what the others won."""
    hand = body.hand
    for name, figures in body.summary.items():
        if "cashed_out" not in figures:
            continue
        paid = hand.cash_outs.get(name, (figures.get("collected", ZERO), ZERO))[0]
        hand.cash_outs[name] = (paid, ZERO)
        others = sum((v for n, v in won.items() if n != name), ZERO)
        won[name] = max(sum(body.pots, ZERO) - others, ZERO)
        hand.notes.append(f"{name} cashed out for {number_text(paid)}; the file writes no cash-out fee")


def _tournament_pot_note(hand: SiteHand) -> None:
    """A tournament's pot has no rake: what was won must be what was put in."""
    put = sum(contributions(hand).values(), ZERO)
    won = sum(hand.collected.values(), ZERO)
    if won != put:
        hand.notes.append(f"the file's winnings {number_text(won)} are not its bets' {number_text(put)}")


def _balance_notes(body: Body) -> None:
    """The summary's balance against the stack less what was bet plus what was collected."""
    stacks = {s.name: s.stack for s in body.hand.seats}
    for name, figures in body.summary.items():
        if name not in stacks:
            continue
        spent = figures.get("bet", figures.get("lost", ZERO))
        expected = stacks[name] - spent + figures.get("collected", ZERO)
        if figures["balance"] != expected:
            body.hand.notes.append(
                f"the file's balance of {name} is {number_text(figures['balance'])}, not his stack less his "
                f"bets plus what he collected ({number_text(expected)})"
            )
