"""The body of an Ongame hand (``ongame``): the seats and posts, the streets' deals and actions, and
the summary's pots, winners, rake and shown cards, read into the ``SiteHand`` its header began."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from ingest.histories.sites.site_hand import (
    ZERO,
    Forced,
    Move,
    Seat,
    SiteHand,
    contributions,
    deal_unseen_stud,
)
from ingest.histories.sites.text import SiteError, cards, number_text
from ingest.histories.sites.text import amount as amount_of

_AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?"
SEAT = re.compile(r"^Seat (\d+): (.+) \(([^()]*)\)$")
_WINNER = re.compile(rf" \(({_AMOUNT})(?: High| Low)?\)(?:, |$)")
_SUMMARY_SEAT = re.compile(r"^Seat \d+: (.+?) \(([^()]*)\)(?:, net: [^,]*)?(?:, (\[[^\]]*\]))?")
_CARDS = re.compile(r"(?:[2-9TJQKA][cdhs]|-)+")
_POT = re.compile(rf"^(?:Main pot|Side pot \d+): ({_AMOUNT})(?: won by (.*))?$")
_BOARD = re.compile(r"^--- Dealing (flop|turn|river) (\[[^\]]*\])$")
_BOARD_STREETS = {"flop": 1, "turn": 2, "river": 3}
_STUD_STREETS = {
    "Dealing 4th street": 1,
    "Dealing 5th street": 2,
    "Dealing 6th street": 3,
    "Dealing river": 4,
}
_POSTS = {"small blind": "small", "big blind": "big", "dead blind": "dead", "ante": "ante"}

amount = lru_cache(maxsize=1 << 12)(amount_of)  # (a file's amounts repeat: stakes, posts, calls)


def card_list(text: str) -> str:
    """``[Kd, Ks]`` as PHH cards; ``-`` (a card dealt down to an opponent) is unknown.

    >>> card_list("[-, -, 7d]"), card_list("[10h, As]")
    ('????7d', 'ThAs')
    """
    compact = text.strip("[] ").replace(", ", "")
    if _CARDS.fullmatch(compact):
        return compact.replace("-", "??")
    return "".join("??" if c.strip() == "-" else cards(c) for c in text.strip("[] ").split(","))


def read_body(hand: SiteHand, lines: list[str], at: int) -> SiteHand:
    """The hand's seats (from ``lines[at]``), posts, streets and summary read into ``hand``."""
    return Body(hand, lines).read(at)


class Body:
    """Reads a hand's lines from its seats on into the ``SiteHand`` its header made."""

    def __init__(self, hand: SiteHand, lines: list[str]) -> None:
        self.hand, self.lines = hand, lines
        self.street = 0
        self.posts: list[tuple[str, str, Decimal, bool]] = []  # name, what, amount, all in
        self.bets: dict[str, Decimal] = {}  # this street's bets, by player
        self.names = re.compile("^$")
        self.seated: frozenset[str] = frozenset()

    def read(self, at: int) -> SiteHand:
        body = self._seats_and_posts(at)
        self._forced()
        self._summary(self._body(body))
        if self.hand.kind == "stud":
            deal_unseen_stud(self.hand, [s.name for s in self.hand.seats], self.street)
        return self.hand

    def _seats_and_posts(self, at: int) -> int:
        """Read the seat lines and the posts from ``at``; the index of the line after the posts."""
        hand = self.hand
        end = at
        for end in range(at, len(self.lines)):  # (``end``: the line after the seats)
            seat = SEAT.match(self.lines[end])
            if seat is None:
                break
            hand.seats.append(Seat(int(seat.group(1)), seat.group(2), amount(seat.group(3))))
        else:
            raise SiteError("the hand is cut off after its seats")
        if not hand.seats:
            raise SiteError("no seats")
        names = sorted((s.name for s in hand.seats), key=len, reverse=True)
        self.names = re.compile(f"^({'|'.join(map(re.escape, names))}) ")
        self.seated = frozenset(names)
        stacks = {s.name: s.stack for s in hand.seats}
        for k in range(end, len(self.lines)):
            line = self.lines[k]
            who = self.names.match(line)
            if who is None or not line.startswith(" posts ", who.end(1)):
                return k
            rest = line[who.end(1) + 7 :]
            what = next((w for w in _POSTS if rest.startswith(w + " ")), None)
            if what is None:
                raise SiteError(f"{who.group(1)} posts {rest[:40]!r}: a post scooplab does not know")
            value = amount(rest[len(what) :].replace("[all in]", "").strip(" ()"))
            name = who.group(1)
            stacks[name] -= value
            self.posts.append((name, what, value, "[all in]" in rest or stacks[name] <= 0))
        raise SiteError("the hand is cut off after its posts")

    def _forced(self) -> None:
        """The posts as forced bets, the blinds by the seat that posts them: the big blind's seat's is
        the big blind (also where written a small blind: all in for less); the small blind's seat's big
        blind (tables whose two blinds are equal, or a small blind's seat left empty) is in its place;
        anyone else's is live, posted to come in (heads-up the button's too). The ante and the dead
        blind go to the pot."""
        hand = self.hand
        dealt = [s.name for s in hand.dealt()] if hand.kind != "stud" else []
        small_seat, big_seat = (dealt[-1], dealt[0]) if len(dealt) == 2 else (dealt[:2] or ["", ""])
        any_small = any(what == "small blind" for _, what, _, _ in self.posts)
        any_big = any(what == "big blind" for _, what, _, _ in self.posts)
        for name, what, value, all_in in self.posts:
            kind = _POSTS[what]
            if kind == "big" and name != big_seat:
                kind = "small" if name == small_seat and len(dealt) > 2 and not any_small else "live"
            elif kind == "small" and name == big_seat and not any_big:
                kind = "big"  # (a big blind posted short, all in, is written a small blind)
            elif kind == "small" and any(p.kind == "small" for p in hand.forced):
                kind = "dead"
            hand.forced.append(Forced(name, kind, value, all_in))
        if not any(p.kind == "big" for p in hand.forced):  # the big blind's seat posted none
            first = next((p for p in hand.forced if p.kind == "live"), None)
            if first is not None:
                first.kind = "big"
        posted = [p.amount for p in hand.forced if p.kind == "big" and not p.all_in]
        if posted:
            hand.big_blind = posted[0]
        for post in hand.forced:
            if post.kind not in ("ante", "dead"):
                self.bets[post.name] = self.bets.get(post.name, ZERO) + post.amount

    def _body(self, at: int) -> int:
        """Read the deals and the actions from ``at``; the index of the summary's first line."""
        for k in range(at, len(self.lines)):
            line = self.lines[k]
            if line == "Summary:":
                return k + 1
            if line == "---" or line == "Dealing pocket cards" or not line:
                continue
            if line.startswith("--- Dealing "):
                self._board(line)
            elif line in _STUD_STREETS:
                self.street, self.bets = _STUD_STREETS[line], {}
            elif line.startswith("Dealing to "):
                self._dealt(line[len("Dealing to ") :])
            else:
                self._action(line)
        raise SiteError("the hand is cut off before its summary")

    def _board(self, line: str) -> None:
        hand = self.hand
        found = _BOARD.match(line)
        if found is None or hand.kind != "board":
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        street, board = _BOARD_STREETS[found.group(1)], card_list(found.group(2))
        while len(hand.boards) <= street:
            hand.boards.append("")
        if hand.boards[street] and hand.boards[street] != board:
            raise SiteError("the board is dealt twice; scooplab replays one board a hand")
        if street > self.street:  # (the flop written again after an all-in: the same board)
            self.street, self.bets = street, {}
        hand.boards[street] = board

    def _dealt(self, rest: str) -> None:
        hand = self.hand
        name, _, shown = rest.rpartition(": ")
        if not any(s.name == name for s in hand.seats):
            raise SiteError(f"cards dealt to {name[:40]!r}, who is not seated")
        dealt = card_list(shown)
        if hand.kind == "stud":
            hand.moves.append(Move(self.street, name, "dh", cards=dealt))
        elif self.street == 0:
            hand.known[name] = dealt

    def _action(self, line: str) -> None:
        hand = self.hand
        if line.endswith((" folds", " checks")):  # (most lines: no pattern needed)
            name, _, rest = line.rpartition(" ")
            if name in self.seated:
                hand.moves.append(Move(self.street, name, "f" if rest == "folds" else "cc"))
                return
        who = self.names.match(line)
        if who is None:
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        name, rest = who.group(1), line[who.end(1) + 1 :].replace(" [all in]", "")
        verb, _, tail = rest.partition(" ")
        bet = self.bets.get(name, ZERO)
        if rest == "folds":
            hand.moves.append(Move(self.street, name, "f"))
        elif rest == "checks":
            hand.moves.append(Move(self.street, name, "cc"))
        elif verb == "calls":
            hand.moves.append(Move(self.street, name, "cc", amount(tail)))
            self.bets[name] = bet + amount(tail)
        elif verb in ("bets", "raises"):  # ``raises X to Y``: X put in (Y: the street's bet, stud the hand's)
            put, _, to = tail.partition(" to ")
            self.bets[name] = bet + amount(put)
            hand.moves.append(Move(self.street, name, "cbr", self.bets[name]))
            if to and hand.kind == "board" and amount(to) != self.bets[name]:
                hand.notes.append(f"{name} raises {put} to {to}: {number_text(self.bets[name])} by his bets")
        elif rest.startswith("small bring in "):
            hand.bring_in = amount(rest[len("small bring in ") :])
            self.bets[name] = hand.bring_in
            hand.moves.append(Move(self.street, name, "pb", hand.bring_in))
        elif rest.startswith("big bring in "):  # brought in for the small bet: a completion
            self.bets[name] = amount(rest[len("big bring in ") :])
            hand.moves.append(Move(self.street, name, "cbr", self.bets[name]))
            hand.notes.append(f"{name} brings in for the whole small bet (Ongame's big bring-in): "
                              "a completion; the file does not say the small bring-in")  # fmt: skip
        else:
            raise SiteError(f"{name}: {rest[:60]!r} is an action scooplab does not know")

    def _summary(self, at: int) -> None:
        hand = self.hand
        total, finals = ZERO, {}
        for line in self.lines[at:]:
            pot = _POT.match(line)
            if pot:
                total += amount(pot.group(1))
                self._winners(pot.group(2) or "")
            elif line.startswith("Rake taken: "):
                hand.rake = amount(line[len("Rake taken: ") :])
            elif line.startswith("Seat "):
                seat = _SUMMARY_SEAT.match(line)
                if seat:
                    finals[seat.group(1)] = amount(seat.group(2))
                    if seat.group(3):
                        self._shown(seat.group(1), card_list(seat.group(3)))
        hand.total_pot = total
        if hand.chips == "tournament":
            hand.rake = ZERO  # (``Rake taken: $0`` in chips)
        _unwritten_returns(hand, finals)

    def _winners(self, text: str) -> None:
        """``Hero ($0.27), X Y ($0.26)`` or ``A (125 High), B (125 Low)``: what each collected."""
        hand = self.hand
        while text:
            who = self.names.match(text + " ")
            won = _WINNER.match(text, who.end(1)) if who else None
            if who is None or won is None:
                raise SiteError(f"a pot's winners scooplab cannot read: {text[:60]!r}")
            name = who.group(1)
            hand.collected[name] = hand.collected.get(name, ZERO) + amount(won.group(1))
            text = text[won.end() :]

    def _shown(self, name: str, shown: str) -> None:
        hand = self.hand
        if not any(s.name == name for s in hand.seats) or "??" in shown:
            return
        if hand.kind == "board":
            hand.known[name] = shown
        hand.shows.append((name, shown))


def _unwritten_returns(hand: SiteHand, finals: dict[str, Decimal]) -> None:
    """Where a player's final stack in the summary holds more than his start less what he put in plus
    what he won, the file gave back chips it does not write (an ante nobody matched, all in on the
    antes): counted in what he collected, as the replay's side pot gives them back, with a note."""
    put = contributions(hand)
    for seat in hand.seats:
        final = finals.get(seat.name)
        if final is None:
            continue
        gap = final - (seat.stack - put.get(seat.name, ZERO) + hand.collected.get(seat.name, ZERO))
        if gap > 0:
            hand.collected[seat.name] = hand.collected.get(seat.name, ZERO) + gap
            hand.notes.append(f"the file gives {seat.name} back {number_text(gap)} it does not write in its "
                              "pots (his final stack says so): counted in what he collected")  # fmt: skip
        elif gap < 0:
            hand.notes.append(f"the file's final stack of {seat.name} is {number_text(-gap)} short of what "
                              "its lines leave him")  # fmt: skip
