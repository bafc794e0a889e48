"""The body of a Full Tilt hand: PokerStars' grammar (``stars_family.Body``) with Full Tilt's words.

Seats are ``Seat 1: NAME ($2.05)`` (``, is sitting out`` after it), posts ``posts the small blind
of $0.01`` and ``antes $0.02``, an action has no colon after the name (``NAME calls $2, and is all
in``), the winner ``wins the pot ($5)`` (``the side pot``, ``the high pot``, ``pot 2``), streets are
``*** 3RD STREET ***`` and ``*** FIRST DRAW ***``; chat (``NAME: text``, observers'), the clock
(``has 15 seconds left to act``) and comings and goings are passed over.

A seat that neither posts, acts, nor is dealt a card the file shows was not dealt in: a player
marked sitting out (in his seat line or the summary) who posts or acts was. At a capped table
(``$400 Pot Limit Omaha Hi``, ``CAP NL Hold'em``) a player ``is capped`` when his bets in the hand
reach the cap: from there he plays as if all in, and the hand is replayed with the cap as the
stack in play of each player who sat with more (a note says so).
"""

from __future__ import annotations

import re
from decimal import Decimal

from ingest.histories.sites.site_hand import ZERO, Forced, Move, Seat, SiteHand, contributions, later_run
from ingest.histories.sites.stars_family import _DEALT, Body
from ingest.histories.sites.text import SiteError, amount, cards, number_text

_SEAT = re.compile(r"^Seat (\d+): (.+) \(([$€£]?\d[\d,.]*)\)(, is sitting out)?\s*$")
_STREET = re.compile(r"^\*\*\* (.+?)(?: (\d))? \*\*\*(.*)$")
_BOARD_STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}
_STUD_STREETS = {"3RD STREET": 0, "4TH STREET": 1, "5TH STREET": 2, "6TH STREET": 3, "7TH STREET": 4}
_DRAWS = {"DRAW": 1, "FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3}
_SILENT_STREETS = ("HOLE CARDS", "SHOW DOWN")
_RETURNED = re.compile(r"^Uncalled bet of (\S+) returned to (.+)$")
_BUTTON = re.compile(r"^The button is in seat #(\d+)$")
_WON = re.compile(r"^(?:wins|ties for) (?:the )?(?:(?:high|low|main|side) )*pot(?: #?\d+)? \(([^()]+)\)")
_LAST_WORDS = re.compile(r",? and is (all in|capped)$")
_SUMMARY_BOARD = re.compile(r"^Board: \[([^\]]*)\]")
_SUMMARY_FOLD = re.compile(
    r"^Seat \d+: (.+?)(?: \((?:button|small blind|big blind)\))* (?:didn't bet \(folded\)|"
    r"folded (before|on|after) (?:the )?(\S+))"
)
# the street of a summary's ``folded on the Turn``, ``folded after the 2nd Draw``, ``folded on 3rd St.``
_FOLD_STREETS = {"Flop": 1, "Turn": 2, "River": 3, "1st": 1, "2nd": 2, "3rd": 3, "Draw": 1, "draw": 1}
_STUD_FOLDS = {"3rd": 0, "4th": 1, "5th": 2, "6th": 3, "7th": 4}
_POSTS = {"the small blind of ": "small", "the big blind of ": "big", "a dead small blind of ": "dead",
          "a dead big blind of ": "dead"}  # fmt: skip
# a seated player's line the hand needs nothing from
_QUIET = re.compile(r"^(?:has |is |stands up|sits down|adds |requests |seconds left|\(Observer\): )")
# a line that starts with no seated name and says nothing the hand needs
_OTHER = re.compile(
    r"^(?: \([^()]*\)$|\d+ seconds left to act|Seats: |Pot \d|Duration |\*+ # \d+ \*+|BEGIN|END|No low hand|"
    r".+ \(Observer\): |.+ (?:sits down|stands up|adds \S+|is sitting out|is feeling \w+|leaves the table|"
    r"joins the table|has (?:been disconnected|reconnected|returned|timed out|requested TIME))$)"
)


class FullTiltBody(Body):
    """Reads a Full Tilt hand's lines into a ``SiteHand`` made from its header."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        super().__init__(hand, lines)
        self.capped: list[str] = []
        self.wins = False  # the body writes who won what
        self.summary_folds: dict[str, int] = {}  # the street the summary says each folded on
        self.summary_board = ""
        self.dealing = False  # a street's heading has been read

    def read(self) -> SiteHand:
        hand = super().read()
        if not hand.moves and not hand.known and not self.wins and not self.summary_won:
            raise SiteError("the hand was not played (the file deals no cards and writes no action)")
        if not self.wins:  # (2012: some files write the winner in the summary alone)
            hand.collected = dict(self.summary_won)
        if self.capped:
            self._cap()
        return hand

    def _table_and_seats(self) -> int:
        at = len(self.lines)
        for k, line in enumerate(self.lines):
            if not self._table_or_seat(line) and line.strip() and self.hand.seats:
                at = k
                break
        if not self.hand.seats:
            raise SiteError("no seats (the file writes no stacks: an observed hand, or one written in part)")
        names = sorted((s.name for s in self.hand.seats), key=len, reverse=True)
        self.names = re.compile(f"^({'|'.join(map(re.escape, names))})(?=[ :,]|$)")
        return at

    def _table_or_seat(self, line: str) -> bool:
        seat = _SEAT.match(line)
        if seat is None:
            return False
        out = seat.group(4) is not None
        self.hand.seats.append(Seat(int(seat.group(1)), seat.group(2), amount(seat.group(3)), out=out))
        return True

    def _line(self, line: str) -> None:
        street = _STREET.match(line) if line.startswith("***") else None
        if street:
            self._ft_street(street.group(1), street.group(2), street.group(3))
            return
        returned = _RETURNED.match(line) if line.startswith("Uncalled") else None
        if returned:
            name, value = returned.group(2).strip(), amount(returned.group(1))
            if not self._ante_returned(name, value):
                self.hand.returned[name] = self.hand.returned.get(name, ZERO) + value
            return
        if line.startswith("Dealt to "):
            self._dealt(line)
            return
        assert self.names is not None
        who = self.names.match(line)
        if who is None:
            button = _BUTTON.match(line)
            if button:
                self.hand.button = int(button.group(1))
            elif line.startswith("Players agree to Run It"):
                self.runs = max(self.runs, 2)
            elif not _OTHER.match(line):
                raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
            return
        name, rest = who.group(1), line[who.end(1) :]
        if rest.startswith(" "):
            self._ft_action(name, rest[1:])

    def _ante_returned(self, name: str, value: Decimal) -> bool:
        """An ante's part beyond an all-in ante, returned before the deal: the ante is what stays."""
        posts = [p for p in self.hand.forced if p.name == name]
        antes = [p for p in posts if p.kind == "ante"]
        if self.hand.moves or self.dealing or not antes or len(antes) < len(posts):
            return False  # (a blind's return, or one after the deal)
        if antes[-1].amount <= value:
            return False
        antes[-1].amount -= value
        self.hand.notes.append(f"{name}'s ante beyond an all-in ante is returned before the deal: "
                               f"{number_text(antes[-1].amount)} stays")  # fmt: skip
        return True

    def _ft_street(self, name: str, run: str | None, rest: str) -> None:
        """A street's heading: its number, and on a board its new cards (``[3h 5s Qc] [5d]``)."""
        kind = self.hand.kind
        self.dealing = True
        if run and run != "1":
            self.runs = max(self.runs, int(run))
        if name in _SILENT_STREETS or name.startswith("SUMMARY"):
            return
        if kind == "stud" and name in _STUD_STREETS:
            self.street = _STUD_STREETS[name]
        elif kind == "draw" and name in _DRAWS:
            self.street = _DRAWS[name]
        elif kind == "board" and name in _BOARD_STREETS:
            new = re.findall(r"\[[^\]]*\]", rest)
            if not new:
                raise SiteError(f"no cards on the {name.lower()}")
            if run and run != "1":  # a later run's street (RULINGS, "Run it twice")
                later_run(self.hand, int(run), _BOARD_STREETS[name], cards(new[-1]))
                return
            self.runs = max(self.runs, 1 if run else 0)
            self.street = _BOARD_STREETS[name]
            while len(self.hand.boards) <= self.street:
                self.hand.boards.append("")
            self.hand.boards[self.street] = cards(new[-1])
        else:
            raise SiteError(f"a street scooplab does not know in this game: {name!r}")

    def _dealt(self, line: str) -> None:
        """Stud's third street: the hero's ``[Jc 2d] [6s]`` (down, then up), another's ``[Jd]``."""
        if self.hand.kind != "stud" or self.street != 0:
            super()._dealt(line)
            return
        rest = line[len("Dealt to ") :].rstrip()
        seated = (s.name for s in sorted(self.hand.seats, key=lambda s: -len(s.name)))
        name = next((n for n in seated if rest.startswith(n + " [")), None)
        found = None if name is None else _DEALT.match(rest[len(name) :])
        if name is None or found is None:
            return
        dealt = cards(found.group(1)) + (cards(found.group(2)) if found.group(2) else "")
        self.hand.moves.append(Move(0, name, "dh", cards=dealt.rjust(6, "?")))

    def _ft_action(self, name: str, rest: str) -> None:
        """A seated player's line after his name: his action, post, ante or win, or a line passed over."""
        last = _LAST_WORDS.search(rest)
        if last:
            rest = rest[: last.start()]
            if last.group(1) == "capped":
                self.capped.append(name)
        all_in = last is not None and last.group(1) == "all in"
        if rest.startswith("posts "):
            self._ft_post(name, rest[6:], all_in)
        elif rest.startswith("antes "):
            self.hand.forced.append(Forced(name, "ante", amount(rest[6:]), all_in=all_in))
        elif rest.startswith(("wins ", "ties for ")):
            won = _WON.match(rest)
            if won is None and " pot" not in rest:
                return  # a tournament's prize or a bounty: not the table's pot
            if won is None:
                raise SiteError(f"{name} {rest[:50]!r} with no amount won")
            self.hand.collected[name] = self.hand.collected.get(name, ZERO) + amount(won.group(1))
            self.wins = True
        elif not _QUIET.match(rest):
            self._action(name, rest)

    def _ft_post(self, name: str, rest: str, all_in: bool) -> None:
        """``the small blind of $1``, ``a dead small blind of $1``, or ``$2`` (a live blind out of turn)."""
        kind = "live"
        for words, post in _POSTS.items():
            if rest.startswith(words):
                kind, rest = post, rest[len(words) :]
                break
        if kind == "big" and any(p.kind == "big" for p in self.hand.forced):
            kind = "live"
        self.hand.forced.append(Forced(name, kind, amount(rest), all_in=all_in))

    def _summary_line(self, line: str) -> None:
        super()._summary_line(line)
        board = _SUMMARY_BOARD.match(line)
        if board:
            self.summary_board = cards(board.group(1))
            return
        fold = _SUMMARY_FOLD.match(line)
        if fold:
            when, word = fold.group(2), fold.group(3)
            if when is None or when == "before":
                street = 0
            elif self.hand.kind == "stud":
                street = _STUD_FOLDS.get(word, -1)
            else:
                street = _FOLD_STREETS.get(word, -1)
            self.summary_folds[fold.group(1)] = street

    def _summary_board(self) -> None:
        """Board cards the body does not deal but the summary writes (the file lost the street's line)."""
        hand = self.hand
        if hand.kind != "board" or not self.summary_board:
            return
        dealt = "".join(hand.boards)
        if len(self.summary_board) > len(dealt) and self.summary_board.startswith(dealt):
            rest, names = self.summary_board[len(dealt) :], []
            while rest and len(hand.boards) < 4:
                street = max(len(hand.boards), 1)
                size = 6 if street == 1 else 2
                hand.boards += [""] * (street - len(hand.boards)) + [rest[:size]]
                rest = rest[size:]
                names.append(("flop", "turn", "river")[street - 1])
            hand.notes.append(f"the {' and '.join(names)} cards are written in the summary alone")

    def _summary_folds(self) -> None:
        """A fold the summary writes that the body lost, at the end of its street, for a player in
        the hand (he posted, acted or was dealt cards the file shows)."""
        hand = self.hand
        folded = {m.name for m in hand.moves if m.verb == "f"}
        playing = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.known)
        for name, street in self.summary_folds.items():
            if name in folded or name not in playing or street < 0:
                continue
            at = next((k for k, m in enumerate(hand.moves) if m.street > street), len(hand.moves))
            hand.moves.insert(at, Move(street, name, "f"))
            hand.notes.append(f"{name}'s fold is written in the summary alone")

    def _all_in_checks(self) -> None:
        """A check the file writes for a player whose ante or blind took all his chips (a Flipout
        tournament's first lines) is passed over: he has nothing to act with."""
        all_in = {p.name for p in self.hand.forced if p.all_in}
        kept = [m for m in self.hand.moves if not (m.name in all_in and m.verb == "cc" and not m.amount)]
        if len(kept) < len(self.hand.moves):
            self.hand.notes.append("checks by players all in on their ante or blind are passed over")
            self.hand.moves = kept

    def _seated_out_but_playing(self) -> None:
        """A seat is dealt in where it posts, acts or is dealt a card the file shows, else out; then
        what the summary alone writes, before stud's unseen cards are dealt (``Body.read`` calls
        this once the lines are read)."""
        hand = self.hand
        playing = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.known)
        playing |= {name for name, _ in hand.shows} | set(hand.collected)
        for seat in hand.seats:
            seat.out = seat.name not in playing
        self._summary_board()
        self._summary_folds()
        self._all_in_checks()

    def _cap(self) -> None:
        """A capped table: the cap (the header's, else what a capped player put in) is the stack in
        play of each player who sat with more."""
        written = str(self.hand.extra.get("cap", "CAP"))
        cap = Decimal(written) if written != "CAP" else max(contributions(self.hand)[n] for n in self.capped)
        clipped = []
        for seat in self.hand.seats:
            if seat.stack > cap and not seat.out:
                clipped.append(f"{seat.name} {number_text(seat.stack)}")
                seat.stack = cap
        if clipped:
            self.hand.notes.append(f"a capped table: the cap {number_text(cap)} is the stack in play "
                                   f"of {', '.join(clipped)}")  # fmt: skip


def read_body(hand: SiteHand, lines: list[str]) -> SiteHand:
    """The hand's body read into ``hand`` (made by ``fulltilt.header_hand``)."""
    return FullTiltBody(hand, lines).read()
