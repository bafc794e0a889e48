"""The body of a Winamax hand: the table and seats, ``*** ANTE/BLINDS ***``, the streets (hold'em and
Omaha ``PRE-FLOP``...; stud ``3rd STREET`` or ``THIRD``...; draw ``FIRST-BET``, ``FIRST-DRAW``...),
the showdown and the summary.

Winamax's own ways, read as written:

- an amount carries its symbol after it (``0.50€``); a tournament's total pot may be written rounded
  (``6.02k``), then it is not held against the bets;
- ``raises X to Y``: Y is the player's whole bet on the street, except a stud bring-in's poster's,
  which leaves his bring-in out (``raises -6.10€ to 18.90€`` after a bring-in of 10€ is a raise to
  28.90€); a ``bets X`` where a bet is already made (the big blind's, before the flop) raises by X;
- no ``Uncalled bet`` line: the bet nobody matched is counted in what its player collected (and in
  the total pot); the rules return it, so it is taken off what he collected where the file's own
  arithmetic says it was counted;
- the total pot is written without the rake;
- a small blind posted ``out of position`` is dead (an ante of its poster), one larger than the small
  blind is both blinds (``posts small blind 3€ out of position`` with blinds of 1€/2€: 1€ dead, 2€
  live, and then ``posts big blind 0€``); a big blind posted out of position is live;
- a seated player who posts nothing, is dealt nothing and does nothing was not dealt in (Winamax
  writes no ``sitting out``).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from ingest.histories.sites.site_hand import (
    ZERO,
    Forced,
    Move,
    Seat,
    SiteHand,
    contributions,
    deal_unseen_stud,
    rules_contributions,
)
from ingest.histories.sites.text import SiteError, amount, cards, number_text

_SEAT = re.compile(r"^Seat (\d+): (.+) \(([^,()]*)(?:, ([^()]*) bounty)?\)\s*$")
_TABLE = re.compile(
    r"^Table:? '(.*)' (\d+)-max(?: \((real|play) money\))?(?: Seat #?(\d+) is the button)?\s*$"
)
_STREET = re.compile(r"^\*\*\* ([^*]+?) \*\*\*:?\s*(.*)$")
_BOARD_STREETS = {"PRE-FLOP": 0, "FLOP": 1, "TURN": 2, "RIVER": 3}
_STUD_STREETS = {"3rd STREET": 0, "THIRD": 0, "4th STREET": 1, "FOURTH": 1, "5th STREET": 2, "FIFTH": 2,
                 "6th STREET": 3, "SIXTH": 3, "7th STREET": 4, "SEVENTH": 4}  # fmt: skip
_DRAW_STREETS = {"FIRST-BET": 0, "FIRST-DRAW": 1, "SECOND-BET": 1, "SECOND-DRAW": 2, "THIRD-BET": 2,
                 "THIRD-DRAW": 3, "FOURTH-BET": 3}  # fmt: skip
_STREETS = {"board": _BOARD_STREETS, "stud": _STUD_STREETS, "draw": _DRAW_STREETS}
_VERBS = (
    r"posts|folds|checks|calls|bets|raises|brings in|bring-in|shows|collected|stands pat|discards|discard|"
    r"denies|mucks|doesn't show"
)
_ACTION = re.compile(rf"^(.+?) ({_VERBS})(?= |$)(.*)$")
_AFTER_NAME = re.compile(rf"^ ({_VERBS})(?= |$)(.*)$")
_RAISE = re.compile(r"^ (-?[^\s]+) to ([^\s]+)( and is all-in)?\s*$")
_ONE = re.compile(r"^ ([^\s]+)( and is all-in)?\s*$")
_POST = re.compile(
    r"^ (ante|small blind|big blind|straddle) ([^\s]+)( out of position)?( and is all-in)?\s*$"
)
_COLLECTED = re.compile(r"^ ([^\s]+) from (?:the )?(?:main |side )?pot")
_DRAW = re.compile(r"^ (\d+) cards?(?: (\[[^\]]*\]))?\s*$")
_TOTAL = re.compile(r"^Total pot ([^\s|]+)\s*(?:\| (?:Rake ([^\s]+)|No rake))?")
_SUMMARY_SEAT = re.compile(r"^Seat \d+: (.+?) (?:\(.*?\) )*showed (\[[^\]]*\])")
_SITE_MONEY = ("Hold-up to Pot", "Escape to Pot")


@lru_cache(maxsize=1 << 12)  # a file's amounts repeat: stakes, antes, stacks, bets
def money(text: str) -> Decimal:
    """An amount as Winamax writes it, its symbol after it.

    >>> money("0.50€"), money("1500"), money("2€")
    (Decimal('0.50'), Decimal('1500'), Decimal('2'))
    """
    return amount(text.strip().rstrip("€$£").rstrip())


def rounded_total(text: str) -> tuple[Decimal, Decimal] | None:
    """A total written in thousands (``6.02k``): its value and how far its rounding may be off.

    >>> rounded_total("6.02k"), rounded_total("840")
    ((Decimal('6020.00'), Decimal('5.00')), None)
    """
    if not text.endswith("k"):
        return None
    value = money(text[:-1])
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) else 0
    return value * 1000, Decimal(1000).scaleb(-places) / 2


def tournament_id(table: str) -> str | None:
    """A tournament's id from its table's name.

    >>> tournament_id("Freeroll 150€(5142226)#784"), tournament_id("Nagoya")
    ('5142226', None)
    """
    found = re.search(r"\((\d+)\)#\d+$", table)
    return found.group(1) if found else None


@lru_cache(maxsize=1 << 12)
def winamax_cards(text: str) -> str:
    """Cards in brackets, Winamax's ``X`` (a card not shown) unknown.

    >>> winamax_cards("[X X 8h]"), winamax_cards("[Kd 3s]")
    ('????8h', 'Kd3s')
    """
    return cards(" ".join("XX" if t in ("X", "x") else t for t in text.strip().strip("[]").split()))


class Body:
    """Reads a hand's lines (after its first) into the ``SiteHand`` made from its header."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        self.hand = hand
        self.lines = lines
        self.street = 0
        self.streets = _STREETS[hand.kind]
        self.seated: dict[str, Seat] = {}
        self.bets: dict[int, dict[str, Decimal]] = {0: {}}  # each street's bet by player
        self.dead: dict[str, Decimal] = {}  # antes and dead blinds by player
        self.folded: set[str] = set()
        self.over_all_in: list[tuple[Move, set[str], set[str], Decimal, Decimal]] = []  # raises none can call
        self.playing: set[str] = set()
        self.out_of_position: list[Forced] = []  # small blinds read as dead: live where the file says so
        self.bring_in_by = ""
        self.total: str | None = None

    def read(self) -> SiteHand:
        section = "seats"
        for line in self.lines:
            line = line.rstrip()
            if not line:
                continue
            if line.startswith("*** "):
                section = self._section(line, section)
            elif section == "summary":
                self._summary_line(line)
            elif section == "seats":
                self._table_or_seat(line)
            elif line.startswith("Dealt to "):
                self._dealt(line)
            else:
                self._line(line, section)
        if not self.seated:
            raise SiteError("no seats")
        if section != "summary":
            raise SiteError("the hand has no summary (cut off)")
        self._who_was_dealt_in()
        self._raises_over_all_ins()
        self._dead_or_live()
        if self.hand.kind == "stud":
            names = [s.name for s in self.hand.dealt()]
            deal_unseen_stud(self.hand, names, self.street, "??????")
        self._pot()
        return self.hand

    # --- the table and the seats

    def _table_or_seat(self, line: str) -> None:
        seat = _SEAT.match(line)
        if seat:
            bounty = format(money(seat.group(4)), "f") if seat.group(4) else None
            new = Seat(int(seat.group(1)), seat.group(2), money(seat.group(3)), bounty)
            self.hand.seats.append(new)
            self.seated[new.name] = new
            return
        table = _TABLE.match(line)
        if table is None:
            raise SiteError(f"a line scooplab does not know {line[:80]!r}")
        hand = self.hand
        hand.table, hand.seat_count = table.group(1), int(table.group(2))
        hand.button = int(table.group(4)) if table.group(4) else None
        if hand.chips == "tournament":
            found = tournament_id(hand.table)
            if found:
                hand.extra["tournament"] = found
        elif table.group(3) == "play":
            hand.chips, hand.currency = "play money", None
        elif hand.currency is None:
            hand.currency = "EUR"  # real money on Winamax is euros

    # --- sections and streets

    def _section(self, line: str, section: str) -> str:
        found = _STREET.match(line)
        if found is None:
            raise SiteError(f"a line scooplab does not know {line[:80]!r}")
        name, rest = found.group(1), found.group(2)
        if section == "seats" and not self.seated:
            raise SiteError("no seats")
        if name == "SUMMARY":
            return "summary"
        if name == "ANTE/BLINDS":
            return "blinds"
        if name in ("SHOW DOWN", "SHOWDOWN"):
            return "showdown"
        street = self.streets.get(name)
        if street is None:
            raise SiteError(f"a street scooplab does not know in this game {name!r}")
        if street != self.street:
            self.street = street
            self.bets.setdefault(street, {})
        if self.hand.kind == "board" and street > 0:
            boards = re.findall(r"\[[^\]]*\]", rest)
            if not boards:
                raise SiteError(f"no cards on the {name.lower()}")
            while len(self.hand.boards) <= street:
                self.hand.boards.append("")
            self.hand.boards[street] = cards(boards[-1])
        return "play"

    # --- lines naming a player

    def _split(self, line: str) -> tuple[str, str, str]:
        """(player, verb, the rest) of a line naming a seated player first; ``SiteError`` otherwise."""
        found = _ACTION.match(line)
        if found and found.group(1) in self.seated:
            return found.group(1), found.group(2), found.group(3)
        for name in sorted(self.seated, key=len, reverse=True):  # a name holding a verb's word
            if line.startswith(name + " "):
                after = _AFTER_NAME.match(line[len(name) :])
                if after:
                    return name, after.group(1), after.group(2)
        if line.startswith(_SITE_MONEY):
            what = line.split(":")[0]
            raise SiteError(
                f"{what} puts money in the pot that no player posted; scooplab does not replay it"
            )
        raise SiteError(f"a line scooplab does not know {line[:80]!r}")

    def _line(self, line: str, section: str) -> None:
        name, verb, rest = self._split(line)
        if verb == "denies":  # a blind refused: not dealt in
            return
        self.playing.add(name)
        if verb == "posts":
            self._post(name, rest)
        elif section == "blinds" and verb == "raises":
            self._both_blinds(name, rest)
        elif verb == "collected":
            got = _COLLECTED.match(rest)
            if got is None:
                raise SiteError(f"a line scooplab does not know {line[:80]!r}")
            self.hand.collected[name] = self.hand.collected.get(name, ZERO) + money(got.group(1))
        elif verb == "shows":
            self._show(name, rest)
        elif verb in ("mucks", "doesn't show"):
            self.hand.shows.append((name, ""))
        else:
            self._move(name, verb, rest)

    def _move(self, name: str, verb: str, rest: str) -> None:
        hand, bets = self.hand, self.bets[self.street]
        if verb == "folds":
            hand.moves.append(Move(self.street, name, "f"))
            self.folded.add(name)
        elif verb == "checks":
            hand.moves.append(Move(self.street, name, "cc"))
        elif verb == "calls":
            value = money(self._one(name, verb, rest))
            hand.moves.append(Move(self.street, name, "cc", value))
            bets[name] = bets.get(name, ZERO) + value
        elif verb == "bets":
            value, highest = money(self._one(name, verb, rest)), max(bets.values(), default=ZERO)
            if highest:  # a bet over a blind (or a bring-in): a raise by its amount
                hand.notes.append(f"the file writes {name}'s raise by {number_text(value)} as a bet")
            hand.moves.append(Move(self.street, name, "cbr", highest + value))
            bets[name] = highest + value
        elif verb == "raises":
            self._raise(name, rest)
        elif verb in ("brings in", "bring-in"):
            value = money(self._one(name, verb, rest))
            hand.bring_in, self.bring_in_by = value, name
            hand.moves.append(Move(self.street, name, "pb", value))
            bets[name] = bets.get(name, ZERO) + value
        elif verb == "stands pat":
            hand.moves.append(Move(self.street, name, "sd"))
        else:  # discards
            self._draw(name, rest)

    @staticmethod
    def _one(name: str, verb: str, rest: str) -> str:
        found = _ONE.match(rest)
        if found is None:
            raise SiteError(f"{name} {verb} {rest.strip()[:30]!r} has no amount scooplab can read")
        return found.group(1)

    def _raise(self, name: str, rest: str) -> None:
        found = _RAISE.match(rest)
        if found is None:
            raise SiteError(f"{name} raises {rest.strip()[:30]!r} has no amount raised to")
        to = money(found.group(2))
        if self.hand.kind == "stud" and self.street == 0 and name == self.bring_in_by:
            left_out = f"leaving out the bring-in of {number_text(self.hand.bring_in)} {name} posted"
            self.hand.notes.append(f"the file writes {name}'s raise to {number_text(to)} {left_out}")
            to += self.hand.bring_in
        bets = self.bets[self.street]
        move = Move(self.street, name, "cbr", to)
        before, highest = bets.get(name, ZERO), max(bets.values(), default=ZERO)
        all_in = {n for n in self.playing if n != name and n not in self.folded and self._left(n) <= 0}
        if highest > before and any(bets.get(n, ZERO) == highest for n in all_in):
            self.over_all_in.append((move, all_in, set(self.folded), highest, before))
        self.hand.moves.append(move)
        bets[name] = to

    def _left(self, name: str) -> Decimal:
        """What a player has left behind, by the file's posts and bets so far."""
        put = self.dead.get(name, ZERO) + sum((b.get(name, ZERO) for b in self.bets.values()), ZERO)
        return self.seated[name].stack - put

    def _raises_over_all_ins(self) -> None:
        """A raise over an all-in bet when every other player still in is all in (Winamax lets a
        player push his stack where nobody can call): a call, the rest returned as any uncalled bet."""
        for move, all_in, folded, highest, before in self.over_all_in:
            others = {s.name for s in self.hand.seats if not s.out} - folded - {move.name}
            if others <= all_in:
                text = f"the file has {move.name} raise to {number_text(move.amount)} where everyone else"
                self.hand.notes.append(f"{text} is all in, a call of {number_text(highest)}")
                move.verb, move.amount = "cc", move.amount - before

    def _post(self, name: str, rest: str) -> None:
        found = _POST.match(rest)
        if found is None:
            raise SiteError(f"{name} posts {rest.strip()[:40]!r} is a post scooplab does not know")
        what, value, out_of_position = found.group(1), money(found.group(2)), bool(found.group(3))
        all_in = bool(found.group(4))
        hand = self.hand
        posted = any(p.name == name and p.kind != "ante" for p in hand.forced)  # a blind already
        if what == "ante":
            self._force(Forced(name, "ante", value, all_in))
        elif what == "straddle":
            self._force(Forced(name, "straddle", value, all_in))
        elif what == "big blind":
            if value == 0 and posted:  # (after ``posts small blind`` of both blinds)
                return
            first = not out_of_position and not any(p.kind == "big" for p in hand.forced)
            self._force(Forced(name, "big" if first else "live", value, all_in))
        elif out_of_position and value > hand.small_blind:  # both blinds: the small dead, the big live
            self._force(Forced(name, "dead", hand.small_blind))
            self._force(Forced(name, "live", value - hand.small_blind, all_in))
        elif out_of_position or posted or any(p.kind == "small" for p in hand.forced):
            self._force(Forced(name, "dead", value, all_in))
            self.out_of_position.append(hand.forced[-1])
        else:
            self._force(Forced(name, "small", value, all_in))

    def _both_blinds(self, name: str, rest: str) -> None:
        """``raises X to Y`` among the posts: both blinds, Y in all (the small dead, the rest live)."""
        found = _RAISE.match(rest)
        if found is None:
            raise SiteError(f"{name} raises {rest.strip()[:30]!r} among the posts has no amount")
        total = money(found.group(2))
        self.hand.notes.append(
            f"the file writes {name}'s post of both blinds ({number_text(total)}) as a raise"
        )
        self._force(Forced(name, "dead", min(self.hand.small_blind, total)))
        if total > self.hand.small_blind:
            self._force(Forced(name, "live", total - self.hand.small_blind))

    def _force(self, post: Forced) -> None:
        self.hand.forced.append(post)
        if post.kind in ("ante", "dead"):
            self.dead[post.name] = self.dead.get(post.name, ZERO) + post.amount
        else:
            bets = self.bets[0]
            bets[post.name] = (max(bets.get(post.name, ZERO), post.amount) if post.kind == "straddle"
                               else bets.get(post.name, ZERO) + post.amount)  # fmt: skip

    # --- cards

    def _dealt(self, line: str) -> None:
        """``Dealt to NAME [cards]`` (stud: ``[X X 8h]``, then ``[X X 8h] [5c]``; after a draw
        ``[kept] [drawn]``)."""
        rest = line[len("Dealt to ") :]
        name = next(
            (n for n in sorted(self.seated, key=len, reverse=True) if rest.startswith(n + " [")), None
        )
        if name is None:
            raise SiteError(f"a line scooplab does not know {line[:80]!r}")
        groups = re.findall(r"\[[^\]]*\]", rest[len(name) :])
        if not groups:
            return
        self.playing.add(name)
        hand, first, new = self.hand, winamax_cards(groups[0]), winamax_cards(groups[-1])
        if hand.kind == "stud":
            dealt = new if len(groups) > 1 else first
            hand.moves.append(Move(self.street, name, "dh", cards=dealt))
        elif len(groups) == 1 and "?" not in first and self.street == 0:
            hand.known[name] = first
        elif len(groups) > 1 and hand.kind == "draw":  # the hero's cards drawn
            pending = [m for m in hand.moves if m.name == name and m.verb == "dh" and m.street == self.street]
            if pending and len(pending[-1].cards) == len(new):
                pending[-1].cards = new

    def _show(self, name: str, rest: str) -> None:
        found = re.match(r"^ (\[[^\]]*\])", rest)
        if found is None:
            raise SiteError(f"{name} shows {rest.strip()[:30]!r} has no cards")
        shown = winamax_cards(found.group(1))
        if self.hand.kind == "board":
            known = self.hand.known.get(name)
            if len(shown) < 2 * self.hand.hole_cards:
                shown = known or shown + "??" * (self.hand.hole_cards - len(shown) // 2)
            self.hand.known[name] = shown
        self.hand.shows = [(who, cards) for who, cards in self.hand.shows if who != name]  # (HI, then LO)
        self.hand.shows.append((name, shown))

    def _draw(self, name: str, rest: str) -> None:
        """``discard 2 cards`` (``discards 2 cards [Kh Th]`` the hero's): thrown, then as many dealt."""
        found = _DRAW.match(rest)
        if found is None:
            raise SiteError(f"{name} discards {rest.strip()[:30]!r} has no count of cards")
        count = int(found.group(1))
        if count > self.hand.hole_cards:
            raise SiteError(f"{name} discards more cards than a hand holds")
        thrown = winamax_cards(found.group(2)) if found.group(2) else "??" * count
        self.hand.moves.append(Move(self.street, name, "sd", cards=thrown))
        if count:
            self.hand.moves.append(Move(self.street, name, "dh", cards="??" * count))

    # --- the summary

    def _summary_line(self, line: str) -> None:
        total = _TOTAL.match(line)
        if total:
            self.total = total.group(1)
            self.hand.rake = money(total.group(2)) if total.group(2) else ZERO
            return
        if self.hand.kind != "board" or not line.startswith("Seat "):
            return
        shown = _SUMMARY_SEAT.match(line)
        if shown and shown.group(1) in self.seated and shown.group(1) not in self.hand.known:
            cards_shown = winamax_cards(shown.group(2))
            if len(cards_shown) == 2 * self.hand.hole_cards:
                self.hand.known[shown.group(1)] = cards_shown

    # --- after the lines

    def _who_was_dealt_in(self) -> None:
        """A seat with no chips, or whose player posts nothing, is dealt nothing and does nothing, is out."""
        self.playing |= {p.name for p in self.hand.forced} | {m.name for m in self.hand.moves}
        for seat in self.hand.seats:
            seat.out = seat.stack <= 0 or seat.name not in self.playing

    def _dead_or_live(self) -> None:
        """A small blind posted out of position is dead; live where the file's calls count it in his
        bet (whichever puts in what the file says he put in)."""
        for post in self.out_of_position:
            by_file, by_rules = contributions(self.hand), rules_contributions(self.hand)
            if by_file.get(post.name) != by_rules.get(post.name):
                post.kind = "live"
                if contributions(self.hand).get(post.name) != rules_contributions(self.hand).get(post.name):
                    post.kind = "dead"  # neither: the notes say where the file disagrees

    def _pot(self) -> None:
        """The bet nobody matched (its player's, returned by the rules), what was collected without it
        where the file counts it there, and the total pot before the rake."""
        hand = self.hand
        gross = sum(self.dead.values(), ZERO) + sum((sum(b.values(), ZERO) for b in self.bets.values()), ZERO)
        last = max((s for s, b in self.bets.items() if any(b.values())), default=None)
        ranked = (
            sorted(self.bets[last].items(), key=lambda kv: kv[1], reverse=True) if last is not None else []
        )
        ranked += [("", ZERO), ("", ZERO)]
        bettor, uncalled = ranked[0][0], ranked[0][1] - ranked[1][1]
        collected = sum(hand.collected.values(), ZERO)
        counted = ZERO  # what of the uncalled bet the file counts in what its player collected
        if uncalled > 0:
            hand.returned[bettor] = uncalled
            took, whole = hand.collected.get(bettor, ZERO), uncalled.to_integral_value(ROUND_HALF_UP)
            if took >= uncalled and collected + hand.rake == gross:  # Winamax's way
                counted = uncalled
            elif whole != uncalled and took >= whole and collected + hand.rake - gross == whole - uncalled:
                counted = whole  # (tournament half chips: the return written in whole chips)
                hand.notes.append(f"the file counts the uncalled bet of {number_text(uncalled)} returned to "
                                  f"{bettor} as {number_text(whole)} in what {bettor} collected")  # fmt: skip
            if counted:
                hand.collected[bettor] = took - counted
                if not hand.collected[bettor]:
                    del hand.collected[bettor]
        off = collected - counted + hand.rake - (gross - uncalled)  # (tournament chips are whole or halves)
        if hand.chips == "tournament" and gross % 1 and 0 < abs(off) < 1:
            raise SiteError(f"the file writes whole chips (collected {number_text(collected)}) where the "
                            f"players put in {number_text(gross)}")  # fmt: skip
        if self.total is None:
            raise SiteError("the summary has no total pot")
        rounded = rounded_total(self.total)
        if rounded is None:
            hand.total_pot = money(self.total) + hand.rake - counted
        elif abs(rounded[0] - collected - hand.rake) > rounded[1]:
            hand.notes.append(f"the file's total pot {self.total} is not what it says was collected, "
                              f"{number_text(collected)}")  # fmt: skip


def read_body(hand: SiteHand, lines: list[str]) -> SiteHand:
    """The hand's body read into ``hand`` (made from the header line)."""
    return Body(hand, lines).read()
