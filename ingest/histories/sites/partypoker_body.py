"""The body of a PartyPoker hand: table, seats, posts, streets, actions, the showdown, what each
player won and (the summary format of 2008 e-mails and the 2019+ client) the summary.

PartyPoker writes what an action puts in (``raises [$15 USD]``: 15 more), the summary format a raise's
total (``raises 2.70 to 2.80``); both become the street's bet a ``cbr`` makes. What a player wins
(``wins $4.12 USD``, ``collected $41.47``) holds the uncalled bet the rules give back, which is
taken out of it here. Lines may be glued (``does not show cards.Player2 wins``) and every line may
open with a space (the club format).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from ingest.histories.sites.site_hand import ZERO, Forced, Move, Seat, SiteHand
from ingest.histories.sites.text import SiteError, cards, currency_of, number_text

_AMOUNT_TEXT = re.compile(r"[$€£]|\b(?:USD|EUR|GBP|CAD)\b|\s")
_DECIMAL_COMMA = re.compile(r"^\d+,\d{1,2}$")
_TABLE = re.compile(r"^Table (.*?)\s*\(\s*(Real|Play) Money\s*\)(?:\s*--\s*Seat (\d+) is the button)?\s*$")
_SEAT = re.compile(r"^[Ss]eat ?(\d+): (.+?) \(\s*([$€£]?\s?\d[\d.,]*(?:\s+[A-Z]{3})?)\s*\)(?:\s+-\s.*)?$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_PLAYERS = re.compile(r"^Total number of players\s*:\s*\d+\s*(?:/\s*(\d+))?$")
_TRNY = re.compile(r"^Trny: ?(\d+) Level: ?(\d+)$")
_STREET = re.compile(r"^\*\* Dealing (down cards|Flop|Turn|River|Fourth street|Fifth street|Sixth street|)"
                     r"\s*\*\*\s*:?\s*(?:\[([^\]]*)\])?\s*$")  # fmt: skip
_BOARD_STREETS = {"Flop": 1, "Turn": 2, "River": 3}
_STUD_STREETS = {"": 0, "Fourth street": 1, "Fifth street": 2, "Sixth street": 3, "River": 4}
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]\s*$")
_POST = re.compile(r"^posts (small blind|big blind \+ dead|big blind|ante of|ante|button blind)\s*"
                   r"[\[(]\s*([^\])]*?)\s*[\])]\.?$")  # fmt: skip
_POSTS = {
    "small blind": "small",
    "big blind": "big",
    "ante": "ante",
    "ante of": "ante",
    "button blind": "button",
}
_ACTION = re.compile(
    r"^(folds|checks|calls|bets|raises|is all-In|completes|bring-ins|double bets)\s*"
    r"(?:\[\s*([^\]]*?)\s*\]|\(\s*([^)]*?)\s*\)|([\d.,]+) to ([\d.,]+))?\s*\.?$"
)
_SHOWS = re.compile(r"^(shows|doesn't show) \[([^\]]*)\]")
_WINS = re.compile(r"^wins (?:Lo \()?([$€£]?\s?\d[\d.,]*(?:\s+[A-Z]{3})?)")
_POTS = re.compile(r"(Main Pot|Side Pot \d+|Rake): ([$€£]?\s?[\d.,]+)")
_SUMMARY = re.compile(r"^(Cashed out\s+)?balance ([^,]+)(?:, (.*))?$")
_CASH_OUT = re.compile(r"^Cashout Amount is ([\d.,]+)$")
_IGNORED = re.compile(
    r"^(?:has joined the table|has left the table|is sitting out|did not respond in time|"
    r"could not respond in time|will be using his time bank|opens$|Forward Folds|- Selects point card|"
    r"opted for cash-out|Cash-out Premium|probabilty is|probability is|is all-In\.?$|has been disconnected|"
    r"is disconnected|is connected|has returned|sits out|will be allowed)"
)
_OTHER_LINES = re.compile(
    r"^(?:Game #\d+ starts\.|#Game No : |Your time bank|>You have options|Player .* finished in|"
    r"Congratulations to player|"
    r"There was no qualifying low hand|Creating (?:Main|Side) Pot|Board: |\*\* Summary \*\*)"
)
_UNKNOWN_ACTOR = re.compile(
    r"^(.+?) (?:posts|folds|checks|calls|bets|raises|is all-In|completes|bring-ins|shows|wins|balance)"
    r"(?: |\.?$)"
)
_TOURNEY_STAKES = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\(([\d,.]+)/([\d,.]+)(?:\s*-\s*([\d,.]+))?\)")
_JOINED = re.compile(r"^(.+?) has joined the table\.?$")
_NOTICE = re.compile(
    r"^.+? (?:has left the table|is sitting out|did not respond|could not respond|will be using)"
)


@lru_cache(maxsize=256)  # a table's players play hand after hand
def names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """The seated names (and their aliases), longest first, opening a line."""
    written = sorted(names, key=len, reverse=True)
    return re.compile("^(" + "|".join(map(re.escape, written)) + ")(?=[ :.]|$)")


@lru_cache(maxsize=256)
def glue_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Where a line the client glued to the one before begins (``cards.Player2 wins $1,10 USD``)."""
    known = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.compile(rf"(?<=\.)(?=(?:{known}) (?:wins|posts|does|shows|folds))|(?<=is sitting out)(?=\S)")


@lru_cache(maxsize=1 << 12)  # a file's amounts repeat: stakes, antes, stacks, bets
def money(text: str) -> Decimal:
    """An amount as PartyPoker writes it: ``$1,000 USD``, ``$26,02 USD`` (the Mac client's decimal
    comma), ``0,35 €``, ``3,000``, ``(0.5)``.

    >>> money("$26,02 USD"), money("$1,000 USD"), money("0,35 €"), money("$ 530"), money("$0.04  USD")
    (Decimal('26.02'), Decimal('1000'), Decimal('0.35'), Decimal('530'), Decimal('0.04'))
    """
    digits = _AMOUNT_TEXT.sub("", text)
    digits = digits.replace(",", ".") if _DECIMAL_COMMA.match(digits) else digits.replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        raise SiteError(f"{text.strip()[:30]!r} is not an amount") from None
    if not value.is_finite() or value < 0:
        raise SiteError(f"{text.strip()[:30]!r} is not an amount")
    return value


@lru_cache(maxsize=1 << 12)
def party_cards(text: str) -> str:
    """Cards as PHH writes them from ``  Js Th``, ``9c , 2s`` or ``Jc,Ts``.

    >>> party_cards(" 9c , 2s "), party_cards("Ns,Nh".replace("N", "4"))
    ('9c2s', '4s4h')
    """
    return cards(" ".join(text.replace(",", " ").split()))


class Body:
    """Reads a hand's lines (after its game line) into the ``SiteHand`` the header made."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        self.hand = hand
        self.lines = lines
        self.street = 0
        self.streets = 0  # the last street dealt
        self.bets: dict[str, Decimal] = {}  # this street's, by player
        self.alias: dict[str, str] = {}  # a name as the lines write it -> as its seat does
        self.names: re.Pattern[str] = re.compile("$^")
        self.joined: set[str] = set()
        self.won: dict[str, Decimal] = {}  # ``wins``, or the summary's ``collected``
        self.summary: dict[str, dict[str, Decimal]] = {}  # the summary: balance, bet, collected, lost
        self.summary_cards: dict[str, str] = {}
        self.pots: list[Decimal] = []
        self.in_summary = False
        self.rest: list[str] = []
        self.spent: dict[str, Decimal] = {}  # what each player's posts and moves put in so far

    def read(self) -> Body:
        at = self._table_and_seats()
        self.rest = self._unglued(self.lines[at:])
        for line in self.rest:
            self._line(line)
        return self

    def mentioned(self) -> set[str]:
        """The seated players any line of the hand names first (the others were not dealt in)."""
        found = (self.names.match(line) for line in self.rest)
        return {self.alias.get(m.group(1), m.group(1)) for m in found if m is not None}

    def _table_and_seats(self) -> int:
        """The table, button, seat count and seat lines; the index of the first line after them."""
        hand, at = self.hand, 0
        for at, line in enumerate(self.lines):  # noqa: B007 (``at`` is the first line of the rest)
            if (seat := _SEAT.match(line)) is not None:
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2).strip(), money(seat.group(3))))
            elif (table := _TABLE.match(line)) is not None:
                hand.table = " ".join(table.group(1).split())
                if table.group(2) == "Play" and hand.chips != "tournament":
                    hand.currency, hand.chips = None, "play money"
                if table.group(3):
                    hand.button = int(table.group(3))
            elif (button := _BUTTON.match(line)) is not None:
                hand.button = int(button.group(1)) or None  # (stud: ``Seat 0 is the button``)
            elif (players := _PLAYERS.match(line)) is not None:
                hand.seat_count = int(players.group(1)) if players.group(1) else None
            elif hand.seats:
                break
        else:
            at = len(self.lines)
        if not hand.seats:
            raise SiteError("no seats")
        if hand.chips == "play money" and hand.currency is None:  # the summary format: ``Seat 1: A ($56.64)``
            hand.currency = currency_of(" ".join(self.lines[:at]))
            hand.chips = None if hand.currency else "play money"
        if len({s.name for s in hand.seats}) < len(hand.seats):
            raise SiteError("a name is seated twice")
        self._names()
        return at

    def _names(self) -> None:
        self.names = names_pattern(tuple(s.name for s in self.hand.seats) + tuple(self.alias))

    def _unglued(self, lines: list[str]) -> list[str]:
        """The lines, those the client glued together (``cards.Player2 wins``, ``sitting outPlayer4
        posts``) apart: at a seated name and a verb after a sentence's full stop."""
        glue = glue_pattern(tuple(s.name for s in self.hand.seats))
        out: list[str] = []
        for line in lines:
            if not line:
                continue
            cuts = (
                [m.start() for m in glue.finditer(line) if " " in line[: m.start()]]
                if "." in line or "out" in line
                else []
            )
            for begin, end in zip([0, *cuts], [*cuts, len(line)], strict=True):
                out.append(line[begin:end])
        return out

    def _line(self, line: str) -> None:
        hand = self.hand
        if line.startswith("** "):
            if line.startswith("** Summary"):
                self.in_summary = True
                return
            self._street(line)
            return
        if line.startswith("Dealt to "):
            self._dealt(line)
            return
        if (trny := _TRNY.match(line)) is not None:
            _tournament_line(hand, trny.group(1), int(trny.group(2)))
            return
        if (stakes := _TOURNEY_STAKES.fullmatch(line)) is not None:  # ``Blinds(100/200)``: the level's
            set_stakes(hand, money(stakes.group(1)), money(stakes.group(2)))
            return
        if line.startswith("Main Pot:"):
            pots = [(k, money(v)) for k, v in _POTS.findall(line)]
            hand.rake += sum((v for k, v in pots if k == "Rake"), ZERO)
            self.pots += [v for k, v in pots if k != "Rake"]
            return
        who = self.names.match(line)
        if who is None:
            self._other(line)
            return
        name, rest = self.alias.get(who.group(1), who.group(1)), " ".join(line[who.end() :].split())
        if line[who.end() : who.end() + 1] == ":":
            return  # chat
        self._player(name, rest)

    def _other(self, line: str) -> None:
        """A line no seated player opens: the client's notices, or a player without a seat."""
        joined = _JOINED.match(line)
        if joined:
            self.joined.add(joined.group(1))
            return
        if _OTHER_LINES.match(line):
            return
        actor = _UNKNOWN_ACTOR.match(line)
        if actor and not _IGNORED.match(line[actor.end(1) :].strip()):
            name = actor.group(1)
            if name in self.joined:
                raise SiteError(
                    f"{name} joined the table and plays, but the file writes no seat or stack for him"
                )
            raise SiteError(f"{name} plays but has no seat at the table")
        if _NOTICE.match(line):
            return  # a notice about a player not seated (leaving, or not yet in)
        raise SiteError(f"a line scooplab does not know: {line[:80]!r}")

    def _street(self, line: str) -> None:
        found = _STREET.match(line)
        if found is None:
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        name, shown, hand = found.group(1), found.group(2), self.hand
        if hand.kind == "stud":
            if name not in _STUD_STREETS:
                raise SiteError(f"a {name} in a stud hand")
            street = _STUD_STREETS[name]
        elif name in ("", "down cards"):
            street = 0
            _infer_blinds(self)
        elif name in _BOARD_STREETS:
            street = _BOARD_STREETS[name]
            if not shown:
                raise SiteError(f"no cards on the {name.lower()}")
            while len(hand.boards) <= street:
                hand.boards.append("")
            hand.boards[street] = party_cards(shown)
        else:
            raise SiteError(f"a {name} in a {hand.kind} hand")
        if street != self.street:
            self.bets = {}
        self.street = street
        self.streets = max(self.streets, street)

    def _dealt(self, line: str) -> None:
        found = _DEALT.match(line)
        if found is None:
            return
        name = found.group(1)
        seated = {s.name for s in self.hand.seats}
        if name not in seated and name not in self.alias:
            prefix = [s for s in seated if name.startswith(s + " ")]
            if len(prefix) != 1:
                raise SiteError(f"cards are dealt to {name}, who has no seat at the table")
            self.alias[name] = prefix[0]
            self.hand.notes.append(f"{name} is written {prefix[0]} in the seat list")
            self._names()
        name = self.alias.get(name, name)
        dealt = party_cards(found.group(2))
        if self.hand.kind == "stud":
            self.hand.moves.append(Move(self.street, name, "dh", cards=dealt))
        else:
            self.hand.known[name] = dealt

    def _player(self, name: str, rest: str) -> None:
        if self.in_summary:
            self._summary(name, rest)
            return
        if rest.startswith("posts "):
            self._post(name, rest)
            return
        action = _ACTION.match(rest)
        if action is not None:
            self._action(name, action)
            return
        shows = _SHOWS.match(rest)
        if shows is not None:
            self._shows(name, party_cards(shows.group(2)))
            return
        if rest.startswith("does not show cards"):
            if not any(n == name for n, _ in self.hand.shows):
                self.hand.shows.append((name, ""))
            return
        wins = _WINS.match(rest)
        if wins is not None:
            self.won[name] = self.won.get(name, ZERO) + money(wins.group(1))
            return
        cash = _CASH_OUT.match(rest)
        if cash is not None:
            self.hand.cash_outs[name] = (money(cash.group(1)), ZERO)
            return
        if rest.startswith("shows") or _IGNORED.match(rest) or rest.startswith("finished"):
            return  # (``shows6,5,3,2,A  for low.``: the low the cards make)
        if rest.startswith(("Cashed out", "balance")):
            raise SiteError("a summary line before the summary")
        raise SiteError(f"{name}: {rest[:60]!r} is an action scooplab does not know")

    def _post(self, name: str, rest: str) -> None:
        found = _POST.match(rest)
        if found is None:
            raise SiteError(f"{name} {rest[:40]!r}: a post scooplab does not know")
        hand, words, value = self.hand, found.group(1), money(found.group(2))
        stack = next(s.stack for s in hand.seats if s.name == name)
        all_in = value >= stack
        if words == "big blind + dead":  # the big blind live, the small blind dead
            big = hand.big_blind or value
            hand.forced.append(Forced(name, "dead", value - big))
            hand.forced.append(Forced(name, "live", big, all_in))
            self.bets[name] = self.bets.get(name, ZERO) + big
            self.spent[name] = self.spent.get(name, ZERO) + value
            return
        kind = _POSTS[words]
        if kind in ("small", "big") and any(p.kind == kind for p in hand.forced):
            kind = "live"  # a second blind, posted to come in: live (its poster's calls count it)
        elif kind == "small" and not all_in:
            hand.small_blind = value
        elif kind == "big" and not all_in:
            hand.big_blind = value
        hand.forced.append(Forced(name, kind, value, all_in))
        self.spent[name] = self.spent.get(name, ZERO) + value
        if kind != "ante":
            self.bets[name] = self.bets.get(name, ZERO) + value

    def _action(self, name: str, found: re.Match[str]) -> None:
        """A move; PartyPoker's amounts are what the action puts in, the summary format's raise its total."""
        verb, hand = found.group(1), self.hand
        added = found.group(2) or found.group(3)
        current = self.bets.get(name, ZERO)
        if verb == "folds":
            hand.moves.append(Move(self.street, name, "f"))
            return
        if verb == "checks":
            hand.moves.append(Move(self.street, name, "cc"))
            return
        if found.group(5):  # ``raises 0.06 to 0.08``
            to = money(found.group(5))
        elif added is None:
            if verb == "is all-In":
                self._all_in(name)  # the summary format's note after the move
                return
            raise SiteError(f"{name} {verb} without an amount")
        else:
            to = current + money(added)
        if verb == "calls":
            hand.moves.append(Move(self.street, name, "cc", to - current))
        elif verb == "bring-ins":
            hand.bring_in = to - current
            hand.moves.append(Move(self.street, name, "pb", to - current))
        elif verb == "is all-In" and to <= max(self._highest(name), self._owed()):
            hand.moves.append(Move(self.street, name, "cc", to - current))
        else:
            hand.moves.append(Move(self.street, name, "cbr", to))
        self.bets[name] = to
        self.spent[name] = self.spent.get(name, ZERO) + to - current

    def _all_in(self, name: str) -> None:
        """``NAME is all-In.`` after his move: where the move leaves him chips (the summary format's
        amounts may be a few chips short), the move is read as all in, with a note."""
        hand, stack = self.hand, next(s.stack for s in self.hand.seats if s.name == name)
        short = stack - self.spent.get(name, ZERO)
        last = hand.moves[-1] if hand.moves else None
        if short <= 0 or last is None or last.name != name or last.verb not in ("cc", "cbr"):
            return
        last.amount += short
        self.bets[name] = self.bets.get(name, ZERO) + short
        self.spent[name] = stack
        hand.notes.append(f"the file has {name} all in {number_text(short)} short of his stack: "
                          "his last move is read as all in")  # fmt: skip

    def _highest(self, name: str) -> Decimal:
        return max((v for k, v in self.bets.items() if k != name), default=ZERO)

    def _owed(self) -> Decimal:
        return self.hand.big_blind if self.street == 0 and self.hand.kind != "stud" else ZERO

    def _shows(self, name: str, shown: str) -> None:
        hand = self.hand
        if hand.kind != "stud":
            hand.known[name] = shown if len(shown) == 2 * hand.hole_cards else hand.known.get(name, shown)
        hand.shows = [(n, c) for n, c in hand.shows if n != name] + [(name, shown)]

    def _summary(self, name: str, rest: str) -> None:
        """``NAME balance $13.12, bet $0.57, collected $1.09, net +$0.52[ 9s, 4d, 8s, Jc ] [ ... ]``."""
        found = _SUMMARY.match(rest)
        if found is None:
            raise SiteError(f"a summary line scooplab does not know: {name} {rest[:50]!r}")
        figures: dict[str, Decimal] = {"balance": money(found.group(2))}
        tail = found.group(3) or ""
        for word, value in re.findall(r"\b(bet|collected|lost) ([$€£]?[\d.,]*\d)", tail):
            figures[word] = money(value)
        if found.group(1):
            figures["cashed_out"] = ZERO
        self.summary[name] = figures
        shown = re.search(r"\[([^\]]*)\]", tail)
        if shown and "(folded)" not in tail:
            self.summary_cards[name] = party_cards(shown.group(1))


def _tournament_line(hand: SiteHand, tournament: str, level: int) -> None:
    """``Trny: 47928230 Level: 4``: the hand's own level (the header's may be the one before)."""
    if hand.chips != "tournament":
        raise SiteError("a tournament line in a cash hand")
    known = hand.extra.get("level")
    if known is not None and known != level:
        hand.notes.append(f"the header names level {known}, the hand level {level}")
    hand.extra.setdefault("tournament", tournament)
    hand.extra["level"] = level


def _infer_blinds(body: Body) -> None:
    """A tournament hand of the 2005-2013 text writes no blinds: the level's (``Blinds(20/40)``)
    are posted by the two seats after the button (the button and the next heads-up)."""
    hand = body.hand
    if hand.chips != "tournament" or any(p.kind in ("small", "big") for p in hand.forced):
        return
    if not hand.big_blind or hand.button is None:
        return
    mentioned = body.mentioned()
    seats = sorted((s for s in hand.seats if s.stack > 0 and s.name in mentioned), key=lambda s: s.number)
    if len(seats) < 2:
        return
    after = [s for s in seats if s.number > hand.button] + [s for s in seats if s.number <= hand.button]
    small, big = (after[-1], after[0]) if len(seats) == 2 else (after[0], after[1])
    for seat, kind, value in ((small, "small", hand.small_blind), (big, "big", hand.big_blind)):
        paid = min(value, seat.stack)
        hand.forced.append(Forced(seat.name, kind, paid, paid >= seat.stack))
        body.bets[seat.name] = body.bets.get(seat.name, ZERO) + paid
        body.spent[seat.name] = body.spent.get(seat.name, ZERO) + paid
    hand.notes.append(
        f"the file writes no blinds: {small.name} posts {number_text(hand.small_blind)} and {big.name} "
        f"{number_text(hand.big_blind)}, the level's, as the seats after the button"
    )


def tournament_stakes(text: str) -> tuple[Decimal, Decimal] | None:
    """``Blinds(20/40)``, ``Stakes(200/400)``, ``Blinds-Antes(1,250/2,500 -250)``: the two amounts.

    >>> tournament_stakes("Blinds-Antes(1,250/2,500 -250)")
    (Decimal('1250'), Decimal('2500'))
    """
    found = _TOURNEY_STAKES.search(text)
    return None if found is None else (money(found.group(1)), money(found.group(2)))


def set_stakes(hand: SiteHand, low: Decimal, high: Decimal) -> None:
    """Fixed-limit stakes are the small and big bets (the blinds, when posted, are read from the
    posts); other stakes are the blinds."""
    if hand.variant.startswith("F"):
        hand.small_bet, hand.big_bet = low, high
        if hand.kind != "stud":
            hand.small_blind, hand.big_blind = low / 2, low
    else:
        hand.small_blind, hand.big_blind = low, high
