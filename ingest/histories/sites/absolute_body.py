"""The body of an Absolute / UltimateBet ("Stage #") hand, after its header: the table and seats,
``NAME - Verb amount`` lines street by street, the showdown's collections and the summary's total pot,
rake, jackpot rake and mucked cards (``absolute`` reads the header).
"""

from __future__ import annotations

import re
from decimal import Decimal

from ingest.histories.sites.site_hand import ZERO, Forced, Move, Seat, SiteHand, forced_bets
from ingest.histories.sites.text import SiteError, amount, cards, number_text

MONEY = r"[$€£]? ?\d+(?:,\d{3})*(?:\.\d+)?"  # an amount as written: ``$1,195.50``, ``1,440``
_TABLE = re.compile(r"^Table: (.*?) \(([^()]*)\)(?: Seat #(\d+) is the (?:dead )?dealer)?\s*$")
_SEAT = re.compile(r"^Seat (\d+) - (.+) \(([^()]*?) in chips\)(.*)$")
_STREET = re.compile(r"^\*\*\* (.+?) \*\*\*(.*)$")
_BOARD_STREETS = {"POCKET CARDS": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}
_STUD_STREETS = {"3RD STREET": 0, "4TH STREET": 1, "5TH STREET": 2, "6TH STREET": 3, "RIVER": 4}
_VERB = re.compile(
    r"^(Folds|Checks|Calls|Bets|Raises|All-In\(Raise\)|All-In|Posts|Ante|Bring-In|Shows|Mucks|Pocket|"
    r"Does not show|returned|sitout|Sits out|is sitting out)(?![\w(]) ?(.*)$"
)
_ONE_WORD_VERBS = frozenset(
    ("Folds", "Checks", "Calls", "Bets", "Raises", "All-In(Raise)", "All-In", "Posts", "Ante", "Bring-In",
     "Shows", "Mucks", "Pocket", "returned", "sitout")
)  # fmt: skip
_SUFFIX = re.compile(r"\s*\((?:Preselection|Timeout)\)\s*$")
_RAISE = re.compile(rf"^({MONEY}) to ({MONEY})$")
_DEAD_POST = re.compile(rf"^(dead )?({MONEY}) dead ({MONEY})$")
_COLLECTS = re.compile(rf"^({MONEY}) from (.*)$")
_TOTAL = re.compile(rf"^Total Pot\(({MONEY})(?::[^)]*)?\)(.*)$")
_FEE = re.compile(rf"\| ([\w ]+?) \(({MONEY})\)")
_POSTS = (("small blind ", "small"), ("big blind ", "big"), ("", "big"))  # ``Posts $X``: see ``_post``
_MUCKED = re.compile(r"^Seat (\d+): .*\[Mucked\] \[([^\]]*)\]")


class Body:
    """Reads a hand's lines after the header into its ``SiteHand``."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        self.hand = hand
        self.lines = lines
        self.street = 0
        self.bets: dict[str, Decimal] = {}  # this street's bets, to tell an all-in call from a raise
        self.stud_seen: dict[str, int] = {}  # cards shown of each stud hand so far
        self.sitting: set[str] = set()
        self.mucked: dict[str, str] = {}  # mucked cards the summary shows
        self.dealing = False  # the hole cards (third street) are dealt: an all-in is no more a post

    def read(self) -> SiteHand:
        at = self._table_and_seats()
        names = sorted((s.name for s in self.hand.seats), key=len, reverse=True)
        self.names = set(names) if not any(" - " in n or " Collects " in n for n in names) else set()
        self.alternatives = "|".join(map(re.escape, names))
        summary = False
        for line in self.lines[at:]:
            line = line.strip()
            if not line:
                continue
            if summary:
                self._summary(line)
            elif line.startswith("*** SUMMARY ***"):
                summary = True
            else:
                self._line(line)
        self._finish()
        return self.hand

    def _table_and_seats(self) -> int:
        """Read the table line and the seats; the index of the first line after them."""
        hand = self.hand
        for k, line in enumerate(self.lines):
            table = _TABLE.match(line)
            seat = None if table else _SEAT.match(line)
            if table:
                hand.table = table.group(1)
                if table.group(2).lower().startswith("play"):
                    hand.chips, hand.currency = "play money", None
                hand.button = int(table.group(3)) if table.group(3) else None
            elif seat:
                stack = amount(seat.group(3))
                hand.seats.append(Seat(int(seat.group(1)), seat.group(2), stack))
            elif not line.startswith("Game Type:"):  # (a HORSE hand's game: read with the header)
                if not hand.seats:
                    raise SiteError("no seats")
                return k
        if not hand.seats:
            raise SiteError("no seats")
        return len(self.lines)

    def _line(self, line: str) -> None:
        street = _STREET.match(line) if line.startswith("***") else None
        if street:
            self._street(street.group(1).upper(), street.group(2))
            return
        at = line.find(" - ")  # (the names' pattern only where a name holds " - " or " Collects ")
        if at > 0 and line[:at] in self.names:
            self._action(line[:at], line[at + 3 :])
            return
        at = line.find(" Collects ")
        if at > 0 and line[:at] in self.names:
            self._collect(line[:at], line[at + 10 :])
            return
        who = re.match(f"^({self.alternatives})( - | Collects )(.*)$", line)
        if who:
            (self._action if who.group(2) == " - " else self._collect)(who.group(1), who.group(3))
            return
        if line.startswith("Dealt to ") and line.endswith("]"):
            name, _, shown = line[9:].rpartition(" [")
            if name in self._seated():
                if self.hand.kind == "board":
                    self.hand.known[name] = cards(shown[:-1])
                return
        raise SiteError(f"a line scooplab does not know: {line[:80]!r}")

    def _seated(self) -> set[str]:
        return {s.name for s in self.hand.seats}

    def _street(self, name: str, rest: str) -> None:
        """A street's heading: its number, and a board street's new cards (the last bracket)."""
        streets = _STUD_STREETS if self.hand.kind == "stud" else _BOARD_STREETS
        if name not in streets:
            return  # SHOW DOWN
        self.street, self.dealing = streets[name], True
        self.bets = forced_bets(self.hand) if self.street == 0 else {}
        if self.hand.kind == "board" and self.street:
            new = re.findall(r"\[[^\]]*\]", rest)
            if not new:
                raise SiteError(f"no cards on the {name.lower()}")
            boards = self.hand.boards
            boards += [""] * (self.street + 1 - len(boards))
            boards[self.street] = cards(new[-1])

    def _action(self, name: str, rest: str) -> None:
        verb, _, tail = rest.partition(" ")
        if verb not in _ONE_WORD_VERBS:
            verb_found = _VERB.match(rest)
            if verb_found is None:
                raise SiteError(f"{name}: {rest[:60]!r} is an action scooplab does not know")
            verb, tail = verb_found.group(1), verb_found.group(2)
        if verb in ("Posts", "Ante") or (verb == "All-In" and not self.dealing):
            self._post(name, verb, tail)
            return
        hand, tail = self.hand, _SUFFIX.sub("", tail) if tail.endswith(")") else tail
        if verb == "Folds":
            self._move(Move(self.street, name, "f"))
            shown = re.search(r"\[([^\]]*)\]", tail)  # (Fold & Show [5c 5d])
            if shown and hand.kind == "board":
                hand.known[name] = self._whole(cards(shown.group(0)))
        elif verb == "Checks":
            self._move(Move(self.street, name, "cc"))
        elif verb == "Calls":
            self._move(Move(self.street, name, "cc", amount(tail)))
        elif verb == "Bets":
            self._move(Move(self.street, name, "cbr", self.bets.get(name, ZERO) + amount(tail)))
        elif verb in ("Raises", "All-In(Raise)"):
            to = _RAISE.match(tail)
            if to is None:
                raise SiteError(f"{name} raises {tail!r}: no amount raised to")
            self._move(Move(self.street, name, "cbr", amount(to.group(2))))
        elif verb == "All-In":
            self._all_in(name, tail)
        elif verb == "Bring-In":
            hand.bring_in = amount(tail)
            self._move(Move(self.street, name, "pb", hand.bring_in))
        elif verb == "Pocket":
            self._pocket(name, tail)
        elif verb == "Shows":
            self._shows(name, tail)
        elif verb == "Mucks":
            hand.shows.append((name, ""))
        elif verb == "returned":
            returned = re.match(rf"^\(({MONEY})\)", tail)
            if returned is None:
                raise SiteError(f"{name}'s returned bet has no amount")
            hand.returned[name] = hand.returned.get(name, ZERO) + amount(returned.group(1))
        elif verb in ("sitout", "Sits out", "is sitting out"):
            self.sitting.add(name)

    def _move(self, move: Move) -> None:
        if move.verb == "cbr":
            self.bets[move.name] = move.amount
        elif move.verb in ("cc", "pb"):
            self.bets[move.name] = self.bets.get(move.name, ZERO) + move.amount
        self.hand.moves.append(move)

    def _all_in(self, name: str, tail: str) -> None:
        """``All-In $X``: what it adds; a bet or raise to his new street bet when that tops the
        street's highest, else a call. Without an amount (a timeout) the site played him all in for
        what he had put in (its all-in protection), which scooplab cannot replay."""
        if not tail:
            raise SiteError(
                f"{name} timed out and the site played him all in for what he had put in (its all-in "
                "protection); scooplab does not replay a player kept in without matching the bet"
            )
        added = amount(tail)
        total = self.bets.get(name, ZERO) + added
        if total > max(self.bets.values(), default=ZERO):
            self._move(Move(self.street, name, "cbr", total))
        else:
            self._move(Move(self.street, name, "cc", added))

    def _post(self, name: str, verb: str, tail: str) -> None:
        """``Posts small blind $X``, ``big blind``, ``$X`` (a live blind), ``$1 dead $0.50`` (live and
        dead), ``dead $40 dead $15`` (of $40, $15 dead), ``Ante $X``, and ``All-In $X``: a blind (or
        stud ante) that took the poster's last chip."""
        hand, forced = self.hand, self.hand.forced
        kinds = {p.kind for p in forced}
        if verb == "Ante" or (verb == "All-In" and hand.kind == "stud"):
            forced.append(Forced(name, "ante", amount(tail), all_in=verb == "All-In"))
            return
        if verb == "All-In":
            kind = "small" if not kinds & {"small", "big"} and self._small_seat(name) else "big"
            forced.append(Forced(name, kind if kind not in kinds else "live", amount(tail), all_in=True))
            return
        dead = _DEAD_POST.match(tail)
        if dead:
            whole, part = amount(dead.group(2)), amount(dead.group(3))
            live = whole - part if dead.group(1) else whole
            forced.append(Forced(name, "dead", part))
            if live > 0:
                forced.append(Forced(name, "live", live))
            return
        words, kind = next(((w, k) for w, k in _POSTS if tail.startswith(w)))
        try:
            value = amount(tail[len(words) :])
        except SiteError:
            raise SiteError(f"{name} posts {tail[:40]!r}: a post scooplab does not know") from None
        if kind in kinds:  # a second small blind is dead, a second big one (or ``Posts $X``) live
            kind = "dead" if kind == "small" else "live"
        forced.append(Forced(name, kind, value))

    def _small_seat(self, name: str) -> bool:
        """Whether ``name`` sits first after the button (heads-up: on it), the small blind's seat."""
        dealt = [s for s in self.hand.dealt() if s.name not in self.sitting]
        first = dealt[-1] if len(dealt) == 2 else dealt[0]
        return first.name == name

    def _pocket(self, name: str, tail: str) -> None:
        """A stud hand as it stands (``[H H Js 10d]``, ``H`` unseen): its new cards dealt."""
        if self.hand.kind != "stud":
            return
        shown = ["??" if c == "H" else cards(c) for c in tail.strip().strip("[]").split()]
        seen = self.stud_seen.get(name, 0)
        if len(shown) > seen:
            self.stud_seen[name] = len(shown)
            self.hand.moves.append(Move(self.street, name, "dh", cards="".join(shown[seen:])))

    def _shows(self, name: str, tail: str) -> None:
        shown = re.match(r"^(\[[^\]]*\])", tail)
        if shown is None:
            return
        final = self._whole(cards(shown.group(1)))
        if self.hand.kind == "board":
            self.hand.known[name] = final
        self.hand.shows = [(who, c) for who, c in self.hand.shows if who != name]
        self.hand.shows.append((name, final))

    def _whole(self, shown: str) -> str:
        """Shown cards with ``??`` for any the file leaves out."""
        return shown + "??" * (self.hand.hole_cards - len(shown) // 2)

    def _collect(self, name: str, rest: str) -> None:
        found = _COLLECTS.match(rest)
        if found is None:
            raise SiteError(f"a line scooplab does not know: {name} Collects {rest[:40]!r}")
        won = amount(found.group(1))
        if "proposition" in found.group(2):
            self.hand.notes.append(
                f"{name} collected {number_text(won)} from the 7-2 proposition (the other players' side "
                "bets, paid outside the pot): not in the replayed pot or winnings"
            )
            return
        self.hand.collected[name] = self.hand.collected.get(name, ZERO) + won

    def _summary(self, line: str) -> None:
        if "[Mucked]" in line:
            mucked = _MUCKED.match(line)
            seat = mucked and next((s for s in self.hand.seats if s.number == int(mucked.group(1))), None)
            if seat:
                self.mucked[seat.name] = cards(mucked.group(2))
            return
        total = _TOTAL.match(line) if line.startswith("Total Pot") else None
        if total:
            self.hand.total_pot = amount(total.group(1))
            for fee, value in _FEE.findall(total.group(2)):
                if fee == "Rake":
                    self.hand.rake += amount(value)
                elif "Proposition" not in fee:  # (the 7-2 side bets: noted where collected)
                    self.hand.fees += amount(value)

    def _finish(self) -> None:
        """Who sat out (not dealt in unless he played), the posted blinds as the stakes, mucked cards."""
        hand = self.hand
        playing = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.known)
        for seat in hand.seats:
            seat.out = seat.name in self.sitting and seat.name not in playing
        posted = {p.kind: p.amount for p in reversed(hand.forced) if not p.all_in}
        hand.small_blind = posted.get("small", hand.small_blind)
        hand.big_blind = posted.get("big", hand.big_blind)
        for name, shown in self.mucked.items():
            if hand.kind == "board":
                hand.known.setdefault(name, self._whole(shown))
            elif hand.kind == "stud":
                self._stud_mucked(name, shown)

    def _stud_mucked(self, name: str, shown: str) -> None:
        """A stud hand mucked at the showdown that the summary shows: its unseen cards filled in."""
        dealt = [m for m in self.hand.moves if m.name == name and m.verb == "dh"]
        written = "".join(m.cards for m in dealt)
        pairs = zip(re.findall("..", written), re.findall("..", shown), strict=False)
        if len(written) != len(shown) or any(a not in ("??", b) for a, b in pairs):
            return  # (the summary's cards do not fit what was dealt: the file's cards stand)
        at = 0
        for move in dealt:
            move.cards, at = shown[at : at + len(move.cards)], at + len(move.cards)
