"""One iPoker ``<game>`` as a ``SiteHand``, with its session's header (``Session``).

A game lists its players (seat, stack ``chips``, ``dealer`` flag, ``win``, ``bet``: all he put in),
then ``<round no=...>`` of ``<cards>`` and ``<action no= player= type= sum=>``, the actions in the
order of their ``no`` (not the document's). Round 0 holds the posts; then the streets (board games:
rounds 1 to 4, preflop to river; stud: rounds 2 to 6, third street to the river). The action types,
read from the files: 0 fold, 1 small blind, 2 big blind (more than the big blind: the big blind live
and the rest dead), 3 call (what it adds), 4 check, 5 bet, 6 raise (what it adds), 7 all-in (what it
adds: a call, a bet or a raise), 8 and 9 sitting out, 15 ante, 16 bring-in, 23 raise to (the
street's bet it makes). Amounts carry the session's currency symbol and locale (``€1,50``,
``1.500`` chips, ``$1,295``); cards are suit then rank (``CA``, ``S10``), ``X`` unseen.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from functools import lru_cache

from ingest.histories.sites.games import game_of
from ingest.histories.sites.site_hand import ZERO, Forced, Move, Seat, SiteHand
from ingest.histories.sites.text import SiteError, currency_of, exact_amount, number_text

VENUE = "iPoker"
_NUMBER = re.compile(r"-?\d[\d.,\s]*")
_STAKES = re.compile(r"(\d[\d.,]*)\s*/\s*\D{0,4}?(\d[\d.,]*)")
_LIMITS = {"NL": "No Limit", "SL": "No Limit", "БЛ": "No Limit", "PL": "Pot Limit", "LP": "Pot Limit",
           "ПЛ": "Pot Limit", "L": "Limit", "FL": "Limit", "Л": "Limit"}  # fmt: skip
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTHS = {m: k + 1 for k, m in enumerate(_MONTH_NAMES)}
_DATE = re.compile(
    r"(?:(\d{4})[-/](\d{1,2})[-/](\d{1,2})|(\d{1,2})[./-](\d{1,2}|[A-Za-z]{3})[./-](\d{4}))"
    r"\s+(\d{1,2}):(\d{2})(?::(\d{2}))?"
)
_BOARD_STREETS = {"Flop": 1, "Turn": 2, "River": 3}
_STUD_ROUNDS = {2: 0, 3: 1, 4: 2, 5: 3, 6: 4}


@lru_cache(maxsize=1 << 12)  # a session's amounts repeat: stakes, stacks, the zeros of wins and folds
def money(text: str) -> Decimal:
    """An iPoker amount: its symbol or code, thousands separators and decimal mark as the session's
    locale writes them. A lone separator before three digits groups thousands (``1.500`` chips).

    >>> [str(money(t)) for t in ("€1,50", "1.234,56", "$1,295", "1.500", "£0.05", "RSD2", "€0,125", "")]
    ['1.50', '1234.56', '1295', '1500', '0.05', '2', '0.125', '0']
    """
    found = _NUMBER.search(text)
    if found is None:
        if text.strip(" $€£¥") in ("", "-"):
            return ZERO
        raise SiteError(f"{text[:30]!r} is not an amount")
    digits = found.group(0).replace(" ", "").rstrip(".,")
    last = max(digits.rfind("."), digits.rfind(","))
    if last >= 0:
        mark, whole, tail = digits[last], digits[:last], digits[last + 1 :]
        other = "," if mark == "." else "."
        grouped = digits.count(mark) > 1 or (
            len(tail) == 3 and other not in whole and whole.lstrip("-") not in ("0", "")
        )
        whole = whole.replace(".", "").replace(",", "")
        digits = whole + tail if grouped else whole + "." + tail
    return exact_amount(digits, text)


def card_text(text: str) -> str:
    """iPoker's cards (suit then rank, ``X`` unseen) as PHH writes them.

    >>> card_text("CA S10 x"), card_text("X X")
    ('AcTs??', '????')
    """
    out = []
    for card in text.split():
        if card.upper() == "X":
            out.append("??")
            continue
        suit, rank = card[:1].lower(), card[1:].upper()
        rank = "T" if rank == "10" else rank
        if suit not in "cdhs" or len(rank) != 1 or rank not in "23456789TJQKA":
            raise SiteError(f"{card[:8]!r} is not a card")
        out.append(rank + suit)
    return "".join(out)


def when_of_date(text: str) -> dict[str, object]:
    """PHH's date and time fields of an iPoker date: ``2013-07-30 18:26:02``, ``2017/01/23 22:27:48``,
    ``18.05.2021 18:26:13``, ``22-Jan-2011 21:25:31``, ``30/01/2012 02:30`` (day first). No zone: the
    client writes its own clock's.

    >>> when_of_date("22-Jan-2011 21:25:31")["day"], when_of_date("30/01/2012 02:30")["month"]
    (22, 1)
    """
    found = _DATE.search(text)
    if found is None:
        return {}
    if found.group(1):
        year, month, day = int(found.group(1)), int(found.group(2)), int(found.group(3))
    else:
        named = found.group(5)
        month = _MONTHS.get(named.title(), 0) if named.isalpha() else int(named)
        year, day = int(found.group(6)), int(found.group(4))
    try:
        dt.date(year, month, day)
        time = dt.time(int(found.group(7)), int(found.group(8)), int(found.group(9) or 0))
    except ValueError:
        return {}
    return {"year": year, "month": month, "day": day, "time": time}


class Session:
    """A session's header, read once for all its games: the game's name, stakes, table, currency,
    tournament."""

    def __init__(self, fields: dict[str, str]) -> None:
        self.fields = fields
        self.game = fields.get("gametype", "")
        self.tournament = any(k in fields for k in ("tournamentname", "tournamentcode", "tournamentcurrency"))
        self.table = fields.get("tablename", "")
        play = fields.get("mode", "real").lower() not in ("real", "")
        self.chips = "tournament" if self.tournament else "play money" if play else None
        code = fields.get("tablecurrency") or currency_of(self.game) or fields.get("currency") or None
        self.currency = None if self.chips else code if code and re.fullmatch(r"[A-Z]{3}", code) else None
        self.extra: dict[str, object] = {} if not self.tournament else _tournament_fields(fields, self.table)
        self.win_holds_return = not ({"client_version", "uncalled_bet_enabled"} & fields.keys())
        self.small_bet = ZERO  # the last limit bet size read (a stud hand nobody bets in takes it)
        self.bring_in = ZERO  # the last bring-in seen in this session (stud hands completed at once)

    def family(self, hole: int) -> str:
        """The game's canonical name (``games.game_of``'s) for a hand of ``hole`` hole cards."""
        name = self.game.replace("Hi-Lo", "Hi/Lo").replace("Pot limit", "PL").replace("No limit", "NL")
        words = name.split()
        limit = next((_LIMITS[w] for w in words if w in _LIMITS), None)
        if limit is None and re.search(r"\bLimit\b|^LH\b", name):
            limit = "Limit"
        hi_lo = " Hi/Lo" if "Hi/Lo" in name else ""
        if "Stud" in name:
            base = "5 Card Stud" if name.startswith("5") else "7 Card Stud"
        elif "Razz" in name:
            base, hi_lo = "Razz", ""
        elif "Six Plus" in name or "6+" in name:
            base = "6+ Hold'em"
        elif "Holdem" in name or "Hold'em" in name or words[:1] == ["LH"]:
            base = "Hold'em"
        elif "Omaha" in name or words[:1] in (["PL"], ["NL"], ["L"]):  # the 5-card Omaha of 2019 on
            base = {5: "5 Card Omaha", 6: "6 Card Omaha"}.get(hole, "Omaha")
        else:
            raise SiteError(f"iPoker game {self.game[:40]!r} has no scooplab description")
        if limit is None:
            raise SiteError(f"iPoker game {self.game[:40]!r} names no betting limit scooplab knows")
        return f"{base}{hi_lo} {limit}"

    def stakes(self) -> tuple[Decimal, Decimal] | None:
        """The header's two stakes (the blinds, the bets of a limit game), or None."""
        found = _STAKES.search(self.game.split(" Ante")[0])
        return (money(found.group(1)), money(found.group(2))) if found else None


def _tournament_fields(fields: dict[str, str], table: str) -> dict[str, object]:
    """``_tournament`` (its code, else the number the table's name ends with), the buy-in as written and
    its parts where they are amounts."""
    extra: dict[str, object] = {}
    code = fields.get("tournamentcode") or ""
    found = re.search(r"\(#(\d+)\)|,\s*(\d{5,})\b", table)  # (not the ``,500`` of ``$3,500 GP``)
    code = code or (next(g for g in found.groups() if g) if found else "")
    if code:
        extra["tournament"] = code
    if fields.get("tournamentname"):
        extra["tournament_name"] = fields["tournamentname"]
    buy_in = fields.get("buyin", "")
    if buy_in:
        extra["buy_in_text"] = buy_in
        parts = buy_in.split("+")
        if len(parts) == 2 and all(re.search(r"\d", p) for p in parts):
            extra["buy_in"], extra["fee"] = (number_text(money(p)) for p in parts)
            symbol = currency_of(buy_in) or ("FPP" if "Pts" in buy_in else fields.get("currency"))
            if symbol:
                extra["buy_in_currency"] = symbol
    return extra


def read_game(text: str, session: Session) -> SiteHand:
    """One ``<game>...</game>`` of a session as the hand it records."""
    try:
        game = ET.fromstring(text)
    except ET.ParseError:
        try:  # a name with a bare ``&`` or ``<``: the rest of the game is well formed
            game = ET.fromstring(re.sub(r"&(?!\w+;|#\d+;)", "&amp;", text))
        except ET.ParseError as error:
            why = re.sub(r":? line \d+, column \d+", "", str(error))
            raise SiteError(f"the game is not well-formed XML ({why})") from None
    return Game(game, session).hand()


_FORCED_TYPES = {"1", "2", "15"}
_OUT_TYPES = {"8", "9"}  # sitting out, not dealt in


class Game:
    """The grammar of one ``<game>`` element: its players, posts, streets and result."""

    def __init__(self, game: ET.Element, session: Session) -> None:
        self.session = session
        self.players = [p for p in game.iter("player") if (p.get("name") or "").strip()]
        rounds = []
        for element in game.iter("round"):
            number = element.get("no", "")
            if not number.isdigit():
                raise SiteError(f"a round numbered {number[:10]!r}")
            rounds.append((int(number), element))
        self.rounds = sorted(rounds, key=lambda r: r[0])
        self.code = game.get("gamecode", "")
        general = game.find("general")
        self.date = general.findtext("startdate", "") if general is not None else ""
        self.bets: dict[str, Decimal] = {}  # this street's bets, by player
        self.gross: dict[str, Decimal] = {}  # what each put in the pot, an uncalled bet included
        self.street_bets: dict[int, dict[str, Decimal]] = {}
        self.sat_out: list[tuple[int, str]] = []  # (street, name): posted, then sat out
        self.opening: dict[int, Decimal] = {}  # each street's first bet, not all in (limit: its size)

    def hand(self) -> SiteHand:
        session = self.session
        cards = [(n, c) for n, r in self.rounds for c in r.iter("cards")]
        actions = [(n, a) for n, r in self.rounds for a in r.iter("action")]
        pockets = [len((c.text or "").split()) for _, c in cards if c.get("type") == "Pocket"]
        name = session.family(max(pockets, default=2))
        game = game_of(name)
        if game is None:
            raise SiteError(f"iPoker game {name!r} has no scooplab description")
        variant, hole, kind = game
        hand = SiteHand(VENUE, self.code, variant, hole, kind, table=session.table,
                        currency=session.currency, chips=session.chips, when=when_of_date(self.date),
                        extra=dict(session.extra))  # fmt: skip
        self.hand_ = hand
        if not any(number > 0 and len(element) for number, element in self.rounds):
            raise SiteError(
                "the game records its posts alone, no cards, actions or result (a partial export)"
            )
        self._seats(cards, actions)
        self._forced(actions)
        if hand.button is None:
            hand.button = self._button()
        for number, element in self.rounds:
            if number > 0:
                self._round(number, element)
        for street, name in self.sat_out:
            self._fold_in_turn(street, name)
        self._stakes()
        self._showdown()
        self._result()
        return hand

    def _seats(self, cards: list, actions: list) -> None:
        hand, seen = self.hand_, set()
        playing = {c.get("player") for _, c in cards if c.get("player")}
        playing |= {a.get("player") for _, a in actions if a.get("type") not in _OUT_TYPES}
        for player in self.players:
            name = player.get("name", "").strip()
            if name in seen:
                raise SiteError(f"two seats of {name}")
            seen.add(name)
            seat = player.get("seat", "")
            if not seat.isdigit():
                raise SiteError(f"{name}'s seat {seat[:10]!r} is not a number")
            stack = money(player.get("chips", ""))
            hand.seats.append(Seat(int(seat), name, stack, out=name not in playing or stack <= 0))
            if player.get("dealer") == "1":
                hand.button = int(seat)
        unknown = (playing | {a.get("player") for _, a in actions}) - seen - {None, ""}
        if unknown:
            raise SiteError(f"{sorted(unknown)[0]} acts but has no seat")
        self.stacks = {s.name: s.stack for s in hand.seats}
        found = re.search(r"(\d+)\s*max", self.session.table, re.I)
        hand.seat_count = int(found.group(1)) if found and 2 <= int(found.group(1)) <= 10 else None

    def _button(self) -> int | None:
        """Where no seat is marked the dealer: the seat before the small blind's (heads-up, his own), else
        two before the big blind's."""
        seats = sorted(s.number for s in self.hand_.seats if not s.out)
        kinds = {p.kind: p.name for p in self.hand_.forced}
        for kind, back in (("small", 1), ("big", 2)):
            if kind in kinds and seats:
                at = seats.index(next(s.number for s in self.hand_.seats if s.name == kinds[kind]))
                return seats[at - back + (1 if len(seats) == 2 else 0)] if len(seats) > 1 else None
        return None

    def _forced(self, actions: list) -> None:
        hand, big = self.hand_, None
        posts = [(n, int(a.get("no", 0) or 0), a) for n, a in actions if a.get("type") in _FORCED_TYPES]
        posts.sort(key=lambda p: p[:2])
        for _, _, action in posts:
            name, kind, value = action.get("player", ""), action.get("type"), money(action.get("sum", ""))
            all_in = value >= self.stacks.get(name, ZERO)
            if kind == "15":
                hand.forced.append(Forced(name, "ante", value, all_in))
            elif kind == "1":
                first = not any(p.kind == "small" for p in hand.forced)
                hand.forced.append(Forced(name, "small" if first else "dead", value, all_in))
                if first:
                    hand.small_blind = value
            elif big is None:
                big = value
                hand.forced.append(Forced(name, "big", value, all_in))
                hand.big_blind = value
            elif value > big:  # a big blind and a dead small one: posted together
                hand.forced += [Forced(name, "live", big), Forced(name, "dead", value - big, all_in)]
            else:
                hand.forced.append(Forced(name, "live", value, all_in))
        for post in hand.forced:
            self.gross[post.name] = self.gross.get(post.name, ZERO) + post.amount
            if post.kind not in ("ante", "dead"):
                self.bets[post.name] = self.bets.get(post.name, ZERO) + post.amount
        self.street_bets[0] = self.bets

    def _round(self, number: int, element: ET.Element) -> None:
        hand = self.hand_
        street = number - 1 if hand.kind == "board" else _STUD_ROUNDS.get(number)
        if street is None or street > (3 if hand.kind == "board" else 4):
            if len(element):
                raise SiteError(f"a round {number} in a {hand.variant} hand")
            return
        if street > 0:
            self.bets = self.street_bets.setdefault(street, {})
        deals = []
        for cards in element.iter("cards"):
            kind, who, text = cards.get("type", ""), (cards.get("player") or "").strip(), cards.text or ""
            if kind in _BOARD_STREETS and not who:
                while len(hand.boards) <= _BOARD_STREETS[kind]:
                    hand.boards.append("")
                hand.boards[_BOARD_STREETS[kind]] = card_text(text)
            elif kind == "Pocket" and hand.kind == "board":
                dealt = card_text(text)
                if "??" not in dealt and len(dealt) == 2 * hand.hole_cards:
                    hand.known[who] = dealt
            elif hand.kind == "stud" and who:
                deals.append(Move(street, who, "dh", cards=card_text(text)))
        if hand.kind == "stud":
            hand.moves += self._stud_deals(street, deals)
        actions = sorted(element.iter("action"), key=lambda a: int(a.get("no", 0) or 0))
        for action in actions:
            if action.get("type") not in _FORCED_TYPES:
                self._action(street, action)

    def _fold_in_turn(self, street: int, name: str) -> None:
        """A player who posted, then sat out, folds at his turn: before the street's first move by a
        player who acts after him (before the flop: from the big blind's left)."""
        moves = self.hand_.moves
        order = [s.name for s in self.hand_.dealt()]
        big = next((p.name for p in self.hand_.forced if p.kind == "big"), None)
        if street == 0 and big in order:
            at = order.index(big) + 1
            order = order[at:] + order[:at]
        later = set(order[order.index(name) + 1 :]) if name in order else set()
        place = next((k for k, m in enumerate(moves) if m.street == street and m.name in later), None)
        if place is None:
            place = max((k + 1 for k, m in enumerate(moves) if m.street <= street), default=0)
        moves.insert(place, Move(street, name, "f"))

    def _stud_deals(self, street: int, deals: list[Move]) -> list[Move]:
        """A stud street's cards, one deal a player still in (``??`` where the file writes none)."""
        folded = {m.name for m in self.hand_.moves if m.verb == "f"}
        dealt = {m.name for m in deals}
        live = [s.name for s in self.hand_.seats if not s.out and s.name not in folded]
        count = 3 if street == 0 else 1
        return deals + [Move(street, n, "dh", cards="??" * count) for n in live if n not in dealt]

    def _action(self, street: int, action: ET.Element) -> None:
        hand, name, kind = self.hand_, action.get("player", ""), action.get("type", "")
        written = action.get("sum", "")
        if kind == "7" and not re.search(r"\d", written):  # ``DP``: disconnected, all in for what he bet
            raise SiteError(f"{name} is put all in by disconnect protection ({written[:6]!r}): "
                            "scooplab's rules have no all-in with chips behind")  # fmt: skip
        value = money(written)
        before = self.bets.get(name, ZERO)
        highest = max(self.bets.values(), default=ZERO)
        if kind == "0":
            hand.moves.append(Move(street, name, "f"))
            return
        if kind == "4":
            hand.moves.append(Move(street, name, "cc"))
            return
        if kind in _OUT_TYPES:
            if not any(s.name == name and not s.out for s in hand.seats):
                return
            hand.notes.append(f"{name} posted and sat out: read as a fold at his turn")
            self.sat_out.append((street, name))
            return
        if kind == "3" or (kind == "7" and before + value <= highest):
            hand.moves.append(Move(street, name, "cc", value))
            to = before + value
        elif kind == "16":
            hand.bring_in = value
            self.session.bring_in = value
            hand.moves.append(Move(street, name, "pb", value))
            to = before + value
        elif kind in ("5", "6", "7"):
            to = before + value
            hand.moves.append(Move(street, name, "cbr", to))
            if kind == "5":  # a street's opening bet (a stud completion): its size
                self.opening.setdefault(street, to)
        elif kind == "23":
            to = value
            hand.moves.append(Move(street, name, "cbr", to))
        else:
            raise SiteError(f"{name}: action type {kind[:5]!r} is one scooplab does not know")
        self.bets[name] = to
        self.gross[name] = self.gross.get(name, ZERO) + to - before

    def _stakes(self) -> None:
        """Limit games' bets: the header's (a limit hold'em header's pair is the bets, its blinds half),
        else the first bets of the hand's small and big streets."""
        hand = self.hand_
        stakes = self.session.stakes()
        if not hand.variant.startswith("F"):
            if not hand.big_blind and stakes:
                hand.small_blind, hand.big_blind = stakes
            return
        if stakes and stakes[1] == 2 * stakes[0]:
            hand.small_bet, hand.big_bet = stakes
            return
        opening = self.opening
        if hand.kind == "board" and hand.big_blind:
            hand.small_bet = hand.big_blind
        elif 0 in opening:
            hand.small_bet = opening[0]
        elif any(k in opening for k in (2, 3, 4)):  # the big streets' bet: twice the small
            hand.small_bet = next(opening[k] for k in (2, 3, 4) if k in opening) / 2
        else:  # fourth street's (an open pair's may be the big bet; the file gives no other)
            hand.small_bet = opening.get(1, self.session.small_bet)
        if not hand.small_bet:
            raise SiteError("no bet size: the header names no stakes and nobody bets")
        hand.big_bet = 2 * hand.small_bet
        if hand.kind == "stud" and not hand.bring_in and self.session.bring_in < hand.small_bet:
            hand.bring_in = self.session.bring_in  # nobody brought in: the session's last (no move pays it)
        self.session.small_bet = hand.small_bet

    def _showdown(self) -> None:
        hand = self.hand_
        folded = {m.name for m in hand.moves if m.verb == "f"}
        live = [s.name for s in hand.seats if not s.out and s.name not in folded]
        if len(live) < 2:
            return
        for name in live:
            if hand.kind == "stud":
                dealt = "".join(m.cards for m in hand.moves if m.name == name and m.verb == "dh")
                hand.shows.append((name, dealt if "??" not in dealt and len(dealt) == 14 else ""))
            else:
                hand.shows.append((name, hand.known.get(name, "")))

    def _result(self) -> None:
        """What each collected (``win``), less an uncalled bet where the file counts it in: iPoker's
        ``win`` holds the return until the clients that write their ``client_version`` (2018 on), and
        wherever the wins add up to more than the pot."""
        hand = self.hand_
        wins = {p.get("name", "").strip(): money(p.get("win", "")) for p in self.players}
        hand.collected = {n: v for n, v in wins.items() if v}
        last = max((s for s, bets in self.street_bets.items() if any(bets.values())), default=None)
        ranked = sorted(self.street_bets.get(last, {}).items(), key=lambda i: i[1], reverse=True)
        ranked += [("", ZERO), ("", ZERO)]
        (top, bet), second = ranked[0], ranked[1][1]
        back = bet - second
        pot = sum(self.gross.values(), ZERO) - back
        holds = self.session.win_holds_return or sum(wins.values(), ZERO) > pot
        if back > 0 and wins.get(top, ZERO) >= back and holds:
            hand.collected[top] -= back
            hand.returned[top] = back
            if not hand.collected[top]:
                del hand.collected[top]
        for player in self.players:
            name, written = player.get("name", "").strip(), player.get("bet")
            if written is None or not name:
                continue
            put = self.gross.get(name, ZERO)
            if money(written) != put:
                hand.notes.append(f"the file's bet of {name} is {number_text(money(written))}, "
                                  f"its actions put in {number_text(put)}")  # fmt: skip
