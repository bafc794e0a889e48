"""The body of a hand in the text PokerStars writes, which GGPoker and others write too: seats,
posts, streets, actions, the showdown and the summary. A site module reads its header line and
hands the rest here.

Each line is matched against the names seated at the table (a name may hold spaces and colons),
so ``A: B: calls 2`` is B's call when "A: B" is seated.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ingest.histories.sites.site_hand import (
    ZERO,
    Forced,
    Move,
    Seat,
    SiteHand,
    contributions,
    deal_unseen_stud,
    later_run,
    rules_contributions,
)
from ingest.histories.sites.text import SiteError, amount, cards

_AMOUNT = r"[^\s()|]*\d[\d,.]*(?: [A-Z]{3})?"
_SEAT = re.compile(rf"^Seat (\d+): (.+?) \(({_AMOUNT}) in chips(?:, ({_AMOUNT}) bounty)?[^)]*\)(.*)$")
# (Run It Once writes ``Table ID '30263376' 6-Max``)
_TABLE = re.compile(r"^Table (?:ID )?'(.*?)'(?: (\d+)-[Mm]ax)?.*?(?:Seat #(\d+) is the button)?\s*$")
_STREET = re.compile(r"^\*\*\* (FIRST |SECOND |THIRD )?(FLOP|TURN|RIVER|3rd STREET|4th STREET|5th STREET|"
                     r"6th STREET|RIVER|FIRST DRAW|SECOND DRAW|THIRD DRAW|DEALING HANDS|HOLE CARDS|"
                     r"PRE-FLOP) \*\*\*(.*)$")  # fmt: skip
_DEALT = re.compile(r"^ \[([^\]]*)\](?: \[([^\]]*)\])?\s*$")
_BOARD_STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}
_STUD_STREETS = {"3rd STREET": 0, "4th STREET": 1, "5th STREET": 2, "6th STREET": 3, "RIVER": 4}
_DRAWS = {"FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3}
_POSTS = {
    "small blind": "small", "big blind": "big", "the ante": "ante", "straddle": "straddle",
    "button blind": "button", "missed blind": "dead", "dead blind": "dead",
}  # fmt: skip
_TOTAL = re.compile(rf"^Total pot ({_AMOUNT})(.*)$")
_FEE = re.compile(rf"\| (Rake|Jackpot|Bingo|Fortune|Tax|JP Fee|Jackpot contribution) ({_AMOUNT})")
_COLLECTED = re.compile(rf" collected ({_AMOUNT}) from (?:the )?(?:main |side )?pot")
_RETURNED = re.compile(rf"^Uncalled bet \(({_AMOUNT})\) returned to (.+)$")
_CASH_OUT = re.compile(rf" cashed out the hand for ({_AMOUNT})(?: \| Cash Out Fee ({_AMOUNT}))?")
_SUMMARY_CARDS = re.compile(r"(?:showed|mucked) (\[[^\]]*\])")
_SUMMARY_WON = re.compile(rf"(?:won|collected) \(({_AMOUNT})\)")
_IGNORED = re.compile(
    r"(said, \"|is (dis)?connected|has timed out|has returned|is sitting out|sits out|leaves the table|"
    r"joins the table|will be allowed to play|re-buys|finished the tournament|wins the tournament|"
    r"^Betting is capped|^Pair on board|^No low hand|wins .*bounty|wins \S+ for eliminating|"
    r"^Hand was run|adds .* chips|doesn't show hand|is away|was removed|^The player|"
    r"^The deck is reshuffled|split the .* bounty)"
)


def _early_board(variant: str) -> bool:
    """Whether the game deals a board card before its first betting round (Courchevel)."""
    from engine.rules.games import game_for_variant

    return bool(game_for_variant(variant)[0].forced_street)


def _without(bracket: str, known: str) -> str:
    """A bracket of cards less the ``known`` ones.

    >>> _without("[2s 3h 4h]", "2s")
    '[3h 4h]'
    """
    held = {known[i : i + 2] for i in range(0, len(known), 2)}
    shown = cards(bracket)
    return (
        "[" + " ".join(c for c in (shown[i : i + 2] for i in range(0, len(shown), 2)) if c not in held) + "]"
    )


class Body:
    """Reads a hand's lines into a ``SiteHand`` (created by the site module from its header)."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        self.hand = hand
        self.lines = lines
        self.street = 0
        self.names: re.Pattern[str] | None = None
        self.runs = 0
        self.summary_won: dict[str, Decimal] = {}  # what the summary says each won
        self.second_small: list[Forced] = []  # small blinds posted besides the table's (dead, or live)

    def read(self) -> SiteHand:
        at = self._table_and_seats()
        in_summary = False
        for line in self.lines[at:]:
            if not line.strip():
                continue
            if line.startswith("*** SUMMARY ***"):
                in_summary = True
            elif in_summary:
                self._summary_line(line)
            else:
                self._line(line)
        if len(self.hand.more_runs) + 1 != max(self.runs, 1) or not all(self.hand.more_runs):
            raise SiteError(f"the board is run {self.runs} times, but not every run's cards are written")
        self._seated_out_but_playing()
        self._second_small_blinds()
        for name in self.hand.cash_outs:  # "won ($71.68) ... (pot not awarded as player cashed out)"
            if name not in self.hand.collected and name in self.summary_won:
                self.hand.collected[name] = self.summary_won[name]  # the table's result stands
        if self.hand.kind == "stud":
            names = [s.name for s in self.hand.seats if not s.out]
            deal_unseen_stud(self.hand, names, self.street)
        return self.hand

    def _seated_out_but_playing(self) -> None:
        """A seat marked sitting out that posts or acts was dealt in (tournaments deal them in)."""
        playing = (
            {p.name for p in self.hand.forced} | {m.name for m in self.hand.moves} | set(self.hand.known)
        )
        for seat in self.hand.seats:
            seat.out = seat.out and seat.name not in playing

    def _second_small_blinds(self) -> None:
        """A second small blind is dead as PokerStars posts it (its poster then calls the whole big
        blind), live where the file's calls count it in his bet (files other rooms' hands were
        converted from): whichever puts in what the file says he put in."""

        def agrees(name: str) -> bool:
            return rules_contributions(self.hand).get(name) == contributions(self.hand).get(name)

        for post in self.second_small:
            if not agrees(post.name):
                post.kind = "small"
                if not agrees(post.name):
                    post.kind = "dead"  # neither: the notes say where the file disagrees

    def _table_and_seats(self) -> int:
        """Read the table line and the seat lines; the index of the first line after them."""
        at = len(self.lines)
        for k, line in enumerate(self.lines):
            if not self._table_or_seat(line) and self.hand.seats:
                at = k
                break
        if not self.hand.seats:
            raise SiteError("no seats")
        names = sorted((s.name for s in self.hand.seats), key=len, reverse=True)
        alternatives = "|".join(map(re.escape, names))
        self.names = re.compile(f"^({alternatives})(: | collected | cashed out | shows )")
        return at

    def _table_or_seat(self, line: str) -> bool:
        """Read a table or seat line; False for any other line."""
        table = _TABLE.match(line)
        if table:
            self.hand.table = table.group(1)
            self.hand.seat_count = int(table.group(2)) if table.group(2) else None
            self.hand.button = int(table.group(3)) if table.group(3) else None
            return True
        seat = _SEAT.match(line)
        if seat is None:
            return False
        rest = seat.group(5).lower()
        out = "sitting out" in rest or "out of hand" in rest
        bounty = format(amount(seat.group(4)), "f") if seat.group(4) else None
        self.hand.seats.append(Seat(int(seat.group(1)), seat.group(2), amount(seat.group(3)), bounty, out))
        return True

    def _line(self, line: str) -> None:
        street = _STREET.match(line)
        if street:
            self._street(street)
            return
        returned = _RETURNED.match(line)
        if returned:
            name = returned.group(2).strip()
            self.hand.returned[name] = self.hand.returned.get(name, ZERO) + amount(returned.group(1))
            return
        if line.startswith("Dealt to "):
            self._dealt(line)
            return
        if line.startswith("*** "):
            return  # the showdown's heading, or a section this grammar needs nothing from
        assert self.names is not None
        who = self.names.match(line)
        if who is None:
            if _IGNORED.search(line) or line.startswith(("Hand was run", "Board ")):
                return
            if line.startswith("Hand cancelled"):
                raise SiteError("the hand was cancelled")
            if line.startswith(("Cash Drop to Pot", "STP added")):  # GGPoker, Run It Once
                raise SiteError("a cash drop adds the site's money to the pot; scooplab does not replay it")
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        name, rest = who.group(1), line[who.end(1) :]
        if rest.startswith(": "):
            self._action(name, rest[2:])
        elif rest.startswith(" shows "):
            self._action(name, rest[1:])
        elif rest.startswith(" collected"):
            got = _COLLECTED.match(rest)
            if got is None:
                raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
            self.hand.collected[name] = self.hand.collected.get(name, ZERO) + amount(got.group(1))
        else:
            cash = _CASH_OUT.match(rest)
            if cash:
                fee = amount(cash.group(2)) if cash.group(2) else ZERO
                self.hand.cash_outs[name] = (amount(cash.group(1)), fee)

    def _street(self, found: re.Match[str]) -> None:
        run, name, rest = found.group(1), found.group(2), found.group(3)
        kind = self.hand.kind
        if kind == "stud" and name in _STUD_STREETS:
            self.street = _STUD_STREETS[name]
        elif kind == "draw" and name in _DRAWS:
            self.street = _DRAWS[name]
        elif kind == "board" and name == "PRE-FLOP" and _early_board(self.hand.variant):  # Courchevel: the
            new = re.findall(r"\[[^\]]*\]", rest)  # first board card, dealt before the blinds' round
            if not new:
                raise SiteError("no card before the flop")
            self.hand.boards[:1] = [cards(new[-1])]
        elif kind == "board" and name in _BOARD_STREETS:
            street = _BOARD_STREETS[name]
            new = re.findall(r"\[[^\]]*\]", rest)
            if not new:
                raise SiteError(f"no cards on the {name.lower()}")
            if street == 1 and self.hand.boards and self.hand.boards[0]:  # (Courchevel's flop shows
                new[-1] = _without(new[-1], self.hand.boards[0])  # the card dealt before it too)
            if run and run != "FIRST ":  # a later run's street: its new cards (RULINGS, "Run it twice")
                later = {"SECOND ": 2, "THIRD ": 3}[run]
                self.runs = max(self.runs, later)
                later_run(self.hand, later, street, cards(new[-1]))
                return
            self.runs = max(self.runs, 1 if run else 0)
            self.street = street
            while len(self.hand.boards) <= self.street:
                self.hand.boards.append("")
            self.hand.boards[self.street] = cards(new[-1])

    def _dealt(self, line: str) -> None:
        """``Dealt to NAME [cards]`` (``[kept] [drawn]`` after a draw, ``[new]`` in stud), the name
        one seated (it may hold brackets: ``PC [Mittel]``)."""
        rest = line[len("Dealt to ") :].rstrip()
        seated = (s.name for s in sorted(self.hand.seats, key=lambda s: -len(s.name)))
        name = next((n for n in seated if rest == n or rest.startswith(n + " [")), None)
        found = None if name is None else _DEALT.match(rest[len(name) :])
        if not found or not found.group(1):
            return
        first, new = cards(found.group(1)), found.group(2)
        if self.hand.kind == "board" or (self.hand.kind == "draw" and self.street == 0):
            self.hand.known[name] = first
        elif self.hand.kind == "stud":
            dealt = cards(new) if new else first
            if self.street == 0 and len(dealt) < 6:  # an opponent's third street: his up card alone
                dealt = "????" + dealt
            self.hand.moves.append(Move(self.street, name, "dh", cards=dealt))
        elif new:  # a draw's new cards (the hero's)
            pending = [
                m for m in self.hand.moves if m.name == name and m.verb == "dh" and m.street == self.street
            ]
            if pending:
                pending[-1].cards = cards(new)

    def _action(self, name: str, rest: str) -> None:
        hand = self.hand
        if rest.startswith("posts "):
            self._post(name, rest[6:])
            return
        if rest.startswith("straddle "):  # GGPoker's straddle
            self._post(name, rest)
            return
        verb, _, tail = rest.partition(" ")
        tail = tail.replace(" and is all-in", "").replace(" and has reached the", "").strip()
        if verb == "folds":
            hand.moves.append(Move(self.street, name, "f"))
            if tail.startswith("[") and hand.kind == "board":
                hand.known[name] = self._shown(name, cards(tail))
        elif verb == "checks":
            hand.moves.append(Move(self.street, name, "cc"))
        elif verb == "calls":
            hand.moves.append(Move(self.street, name, "cc", amount(tail.split(" ")[0])))
        elif verb == "bets":
            hand.moves.append(Move(self.street, name, "cbr", amount(tail.split(" ")[0])))
        elif verb == "raises":
            to = re.match(rf"^(?:({_AMOUNT}) )?to ({_AMOUNT})", tail)
            if to is None:
                raise SiteError(f"{name} raises {tail!r}: no amount raised to")
            hand.moves.append(Move(self.street, name, "cbr", amount(to.group(2))))
        elif verb == "shows":
            shown = re.match(r"^(\[[^\]]*\])", tail)
            if shown:
                final = self._shown(name, cards(shown.group(1)))
                if hand.kind == "board":
                    hand.known[name] = final
                hand.shows = [(who, shown) for who, shown in hand.shows if who != name]  # shown again: once
                hand.shows.append((name, final))
        elif verb == "brings":
            hand.bring_in = amount(tail.replace("in for ", "").split(" ")[0])
            hand.moves.append(Move(self.street, name, "pb", hand.bring_in))
        elif verb == "completes":
            hand.moves.append(
                Move(self.street, name, "cbr", amount(tail.replace("it to ", "").split(" ")[0]))
            )
        elif rest.startswith(("get an all-in insurance", "pay premium of all-in insurance")):
            self._insurance(name, rest)
        elif verb in ("discards", "stands") and hand.kind == "draw" and self.street == 0:
            self.street = 1  # a single draw writes no *** DRAW *** line: its first move begins it
            self._action(name, rest)
        elif verb == "discards":
            self._draw(name, tail)
        elif verb == "stands":
            hand.moves.append(Move(self.street, name, "sd"))
        elif verb == "mucks":
            if all(who != name for who, _ in hand.shows):  # (each run's showdown writes it: once)
                hand.shows.append((name, ""))
        elif not _IGNORED.search(rest):
            raise SiteError(f"{name}: {rest[:60]!r} is an action scooplab does not know")

    def _insurance(self, name: str, rest: str) -> None:
        """GGPoker's all-in insurance: what it covered, and the premium paid (beside the table's result)."""
        found = re.search(rf"(?:for \(({_AMOUNT})/({_AMOUNT})/({_AMOUNT})\)|premium of all-in insurance "
                          rf"\(({_AMOUNT})\))", rest)  # fmt: skip
        if found is None:
            raise SiteError(f"{name}'s all-in insurance line has no amounts")
        if found.group(4):
            self.hand.insurance[name] = (
                self.hand.insurance.get(name, (ZERO, ZERO))[0],
                amount(found.group(4)),
            )
        else:
            covered = sum((amount(found.group(k)) for k in (1, 2, 3)), ZERO)
            self.hand.insurance[name] = (covered, self.hand.insurance.get(name, (ZERO, ZERO))[1])

    def _draw(self, name: str, tail: str) -> None:
        """``discards 2 cards [Kh Th]`` (the hero's) or ``discards 2 cards``: thrown, then as many dealt."""
        found = re.match(r"^(\d+) cards?(?: \[([^\]]*)\])?", tail)
        if found is None:
            raise SiteError(f"{name} discards {tail[:30]!r}: no count of cards")
        count = int(found.group(1))
        if count > self.hand.hole_cards:
            raise SiteError(f"{name} discards more cards than a hand holds")
        thrown = cards(found.group(2)) if found.group(2) else "??" * count
        self.hand.moves.append(Move(self.street, name, "sd", cards=thrown))
        self.hand.moves.append(Move(self.street, name, "dh", cards="??" * count))

    def _shown(self, name: str, shown: str) -> str:
        """The hole cards a show makes known: all of them, or those shown beside the ones known."""
        if len(shown) == 2 * self.hand.hole_cards:
            return shown
        known = self.hand.known.get(name)
        if known and all(shown[i : i + 2] in known for i in range(0, len(shown), 2)):
            return known
        return shown + "??" * (self.hand.hole_cards - len(shown) // 2)

    def _post(self, name: str, rest: str) -> None:
        hand = self.hand
        if rest.startswith("small & big blinds "):
            total = amount(rest[len("small & big blinds ") :].split(" ")[0])
            hand.forced.append(Forced(name, "dead", hand.small_blind))
            hand.forced.append(Forced(name, "live", total - hand.small_blind))
            return
        for words, kind in _POSTS.items():
            if rest.startswith(words + " "):
                value = amount(rest[len(words) + 1 :].replace(" and is all-in", "").split(" ")[0])
                if kind in ("small", "big") and any(p.kind == kind for p in hand.forced):
                    kind = "dead" if kind == "small" else "live"  # a second blind: posted to come in
                hand.forced.append(Forced(name, kind, value, all_in="all-in" in rest))
                if kind == "dead" and words == "small blind":
                    self.second_small.append(hand.forced[-1])
                return
        raise SiteError(f"{name} posts {rest[:40]!r}: a post scooplab does not know")

    def _summary_line(self, line: str) -> None:
        total = _TOTAL.match(line)
        if total:
            self.hand.total_pot = amount(total.group(1))
            for fee, value in _FEE.findall(total.group(2)):
                if fee == "Rake":
                    self.hand.rake += amount(value)
                else:
                    self.hand.fees += amount(value)
            return
        if line.startswith("Seat "):
            seat = re.match(r"^Seat \d+: (.+?) (?:\(|showed|mucked|folded|collected|won|lost|did)", line)
            won = _SUMMARY_WON.search(line)
            if seat and won:
                self.summary_won[seat.group(1)] = amount(won.group(1))
            shown = _SUMMARY_CARDS.search(line)
            if seat and shown and self.hand.kind == "board":
                name = seat.group(1)
                if any(s.name == name for s in self.hand.seats):
                    self.hand.known.setdefault(name, self._shown(name, cards(shown.group(1))))


def read_body(hand: SiteHand, lines: list[str]) -> SiteHand:
    """The hand's body read into ``hand`` (made by the site module from the header line)."""
    return Body(hand, lines).read()


def stakes(text: str) -> tuple[Decimal, Decimal]:
    """The small and big amounts of a stakes text such as ``($0.05/$0.10 USD)`` or ``(25/50)``."""
    found = re.search(rf"(?:\(|, )({_AMOUNT})/({_AMOUNT})", text)
    if found is None:
        ante_only = re.match(rf"^\s*\(({_AMOUNT})\)", text)  # GGPoker's short deck: the ante alone
        if ante_only is None:
            raise SiteError("no stakes in the header")
        return amount(ante_only.group(1)), amount(ante_only.group(1))
    return amount(found.group(1)), amount(found.group(2))
