"""The body of an 888poker hand (after its game and table lines): seats, posts, the streets' actions,
the showdown and what each player collected.

Each bracketed amount is what the action put in: a raise's street bet is the raiser's bet so far plus
it. Cards are read in the client's language (``deck_of``); an uncalled bet the collected amount holds
is taken out of it (``_uncalled``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache

from ingest.histories.sites.site_hand import (
    ZERO,
    Forced,
    Move,
    Seat,
    SiteHand,
    forced_bets,
    rules_contributions,
)
from ingest.histories.sites.text import SiteError, exact_amount, number_text

_SEAT = re.compile(r"^Seat (\d+): (.*) \( (.*) \)$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_VERBS = ("posts small blind", "posts big blind", "posts ante", "posts dead blind", "folds", "checks",
          "calls", "bets", "raises", "shows", "mucks", "collected")  # fmt: skip
_ACTION = re.compile(rf"^(.*) ({'|'.join(_VERBS)})(?: \[ ?(.*?) ?\])?$")
_DEALT = re.compile(r"^Dealt to (.*) \[ ?(.*?) ?\]$")
_STREET = re.compile(r"^\*\* Dealing (flop|turn|river) \*\* \[ ?(.*?) ?\]$")
_SAYS_NOTHING = ("Total number of players", "(Hi:", "(Lo:")  # (the showdown's hands in words)
_STREETS = {"flop": 1, "turn": 2, "river": 3}
_POSTS = {"posts small blind": "small", "posts big blind": "big", "posts ante": "ante"}

# ranks as the clients write them: English, Dutch (Heer, Vrouw, Boer), Swedish (Ess, Dam, Knekt),
# German (Bube), Russian (Туз, Король, Дама, Валет; and the same letters of a Windows-1251 file read as 1252)
_RANKS = {
    **{r: r for r in "23456789TJQKA"}, "10": "T", "H": "K", "V": "Q", "B": "J", "E": "A", "D": "Q", "Kn": "J",
    "Т": "A", "К": "K", "Д": "Q", "В": "J", "Ò": "A", "Ê": "K", "Ä": "Q", "Â": "J",
}  # fmt: skip
_SUITS = {"c": "c", "d": "d", "h": "h", "s": "s", "Kreuz": "c", "Karo": "d", "Herz": "h", "Pik": "s"}
# Spanish (picas, corazones, diamantes, tréboles): its ``c`` is hearts
_SPANISH_SUITS = {"p": "s", "c": "h", "d": "d", "t": "c"}
_CARD = re.compile(r"^(10|Kn|[2-9TJQKAHVBDEТКДВÒÊÄÂ])(Kreuz|Karo|Herz|Pik|[cdhspt])$")

# a digit, a mark and one or two digits ending an amount: that mark is the hand's decimal mark
_DECIMAL = re.compile(r"(?<=[0-9])([.,])[0-9]{1,2}(?![0-9.,])")
SYMBOLS = re.compile(r"[$€£]")
# an amount's digits by the hand's decimal mark: thousands grouped by the other marks, at most two decimals
_MONEY = {
    None: re.compile(r"^([1-9][0-9]{0,2}(?:[ .,][0-9]{3})+|[0-9]+)()$"),
    ".": re.compile(r"^([1-9][0-9]{0,2}(?:[ ,][0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?$"),
    ",": re.compile(r"^([1-9][0-9]{0,2}(?:[ .][0-9]{3})+|[0-9]+)(?:,([0-9]{1,2}))?$"),
}
_SEPARATORS = re.compile(r"[ .,]")


def decimal_mark(text: str) -> str | None:
    """The hand's decimal mark (``.`` or ``,``) as its amounts with cents show it; None where no amount
    has cents (every mark is then a thousands separator).

    >>> decimal_mark("( $1,728.25 )"), decimal_mark("[0,01 $]"), decimal_mark("( 1.183.764 $ )")
    ('.', ',', None)
    """
    marks = set(_DECIMAL.findall(text))
    if len(marks) > 1:
        raise SiteError("its amounts use both . and , as a decimal mark")
    return marks.pop() if marks else None


@lru_cache(maxsize=1 << 12)  # a hand's amounts repeat: stakes, antes, blinds, stacks
def money(text: str, mark: str | None) -> Decimal:
    """An amount as the hand writes it, its thousands grouped by ``,``, ``.`` or a space.

    >>> money("$1,728.25", "."), money("15 788,50 $", ","), money("1.183.764 $", None), money("$ 10", None)
    (Decimal('1728.25'), Decimal('15788.50'), Decimal('1183764'), Decimal('10'))
    >>> money("3.24", None)
    Traceback (most recent call last):
    ...
    ingest.histories.sites.text.SiteError: '3.24' is not an amount
    """
    found = _MONEY[mark].match(SYMBOLS.sub("", text).strip())
    if found is None:
        raise SiteError(f"{text.strip()!r} is not an amount")
    whole, cents = found.group(1), found.group(2)
    return exact_amount(_SEPARATORS.sub("", whole) + ("." + cents if cents else ""), text.strip())


def deck_of(lists: list[str]) -> dict[str, str]:
    """Each card of a hand's card lists (``Td, Qd``) as PHH writes it, read in the hand's language.

    >>> deck_of(["Hc, 8h, Td, 6h", "Vs"])["Hc"], deck_of(["8Pik, QPik"])["QPik"], deck_of(["Knh, Ec"])["Knh"]
    ('Kc', 'Qs', 'Jh')
    >>> sorted(deck_of(["7p, 8t", "Kc"]).values())  # Spanish: picas, tréboles, corazones
    ['7s', '8c', 'Kh']
    """
    tokens = {t for cards in lists for t in cards.replace(",", " ").split()}
    found = {t: _CARD.match(t) for t in tokens}
    for token, card in found.items():
        if card is None:
            raise SiteError(f"{token!r} is not a card")
    suits = {card.group(2) for card in found.values() if card}
    spanish = bool(suits & {"p", "t"})
    if spanish and suits & {"h", "s"}:
        raise SiteError("its cards are written in two languages")
    deck = {}
    for token, card in found.items():
        assert card is not None
        rank, suit = card.group(1), card.group(2)
        if spanish and rank == "D":
            raise SiteError(f"the card {token!r} may be a ten or a queen")
        deck[token] = _RANKS[rank] + (_SPANISH_SUITS if spanish else _SUITS)[suit]
    return deck


class Body:
    """Reads an 888poker hand's lines into its ``SiteHand``."""

    def __init__(self, hand: SiteHand, mark: str | None) -> None:
        self.hand = hand
        self.mark = mark
        self.street = 0
        self.bets: dict[str, Decimal] = {}  # this street's bet, by player
        self.left: dict[str, Decimal] = {}  # each stack as the hand goes
        self.dealt = False  # ``** Dealing down cards **``
        self.card_lists: list[str] = []
        self.raw_known: dict[str, str] = {}
        self.raw_shows: list[tuple[str, str, bool]] = []  # name, cards, mucked
        self.raw_boards: dict[int, str] = {}

    def money(self, text: str) -> Decimal:
        return money(text, self.mark)

    def read(self, lines: list[str]) -> SiteHand:
        for line in lines:
            if line:
                self._line(line.rstrip())
        hand = self.hand
        if not hand.seats:
            raise SiteError("no seats")
        if not self.dealt and not any(p.kind in ("big", "live") for p in hand.forced) and hand.big_blind:
            raise SiteError("the hand was cancelled: nobody posts the big blind and no cards are dealt")
        self._cards()
        self._not_dealt_in()
        _no_blinds(hand, self.left)
        put = lru_cache(maxsize=1)(lambda: rules_contributions(hand))  # (the moves stay as they are)
        _uncalled(hand, put)
        _unawarded(hand, put)
        _unmatched(hand, self.left, put)
        _short_tournament_pot(hand, put)
        return hand

    def _line(self, line: str) -> None:
        if line.startswith("Seat "):
            if self._seat(line):
                return
        elif line.startswith("** "):
            self._street(line)
            return
        elif line.startswith("Dealt to "):
            dealt = _DEALT.match(line)
            if dealt and dealt.group(2):
                self._seated(dealt.group(1))
                self.raw_known[dealt.group(1)] = dealt.group(2)
                self.card_lists.append(dealt.group(2))
                return
        elif line.startswith(_SAYS_NOTHING) or line.endswith(" did not show his hand"):
            return
        action = _ACTION.match(line)
        if action is None:
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        name, verb, argument = action.group(1), action.group(2), action.group(3)
        self._seated(name)
        if verb in ("shows", "mucks"):
            if not argument:
                raise SiteError(f"{name} {verb} no cards")
            self.raw_known[name] = argument
            self.raw_shows = [s for s in self.raw_shows if s[0] != name] + [(name, argument, verb == "mucks")]
            self.card_lists.append(argument)
        elif verb == "collected":
            self.hand.collected[name] = self.hand.collected.get(name, ZERO) + self._amount(line, argument)
        elif verb.startswith("posts"):
            self._post(name, verb, self._argument(line, argument))
        else:
            self._action(name, verb, argument, line)

    def _argument(self, line: str, argument: str | None) -> str:
        if not argument:
            raise SiteError(f"no amount in {line[:60]!r}")
        return argument

    def _amount(self, line: str, argument: str | None) -> Decimal:
        return self.money(self._argument(line, argument))

    def _seat(self, line: str) -> bool:
        """A seat line or the button's; False for another line opening with ``Seat``."""
        button = _BUTTON.match(line)
        if button:
            self.hand.button = int(button.group(1))
            return True
        seat = _SEAT.match(line)
        if seat is None or self.hand.forced or self.hand.moves:
            return False
        name = seat.group(2)
        if not name.strip():  # (hands some clients write with the names left blank)
            raise SiteError(f"seat {seat.group(1)} has no player name")
        if name in self.left:
            raise SiteError(f"two seats have the same name {name!r}")
        stack = self.money(seat.group(3))
        self.hand.seats.append(Seat(int(seat.group(1)), name, stack))
        self.left[name] = stack
        return True

    def _seated(self, name: str) -> None:
        if name not in self.left:
            raise SiteError(f"{name!r} acts but has no seat")

    def _street(self, line: str) -> None:
        if line == "** Dealing down cards **":
            self.dealt = True
            self._declined()
            return
        if line == "** Summary **":
            return
        street = _STREET.match(line)
        if street is None:
            raise SiteError(f"a line scooplab does not know: {line[:80]!r}")
        self.street = _STREETS[street.group(1)]
        self.bets = {}
        self.raw_boards[self.street] = street.group(2)
        self.card_lists.append(street.group(2))

    def _pay(self, name: str, value: Decimal) -> bool:
        """Take ``value`` from the player's stack; True when that was his last chip."""
        self.left[name] -= value
        return self.left[name] <= 0

    def _post(self, name: str, verb: str, argument: str) -> None:
        hand = self.hand
        self._declined()
        if verb == "posts dead blind":  # ``[$0.01 + $0.02]``: the small to the pot, the big live
            dead_text, _, live_text = argument.partition("+")
            dead, live = self.money(dead_text), self.money(live_text) if live_text.strip() else ZERO
            if dead:
                hand.forced.append(Forced(name, "dead", dead, self._pay(name, dead)))
            if live:
                hand.forced.append(Forced(name, "live", live, self._pay(name, live)))
                self.bets[name] = self.bets.get(name, ZERO) + live
            return
        kind, value = _POSTS[verb], self.money(argument)
        if kind in ("small", "big") and any(p.kind == kind for p in hand.forced):
            kind = "dead" if kind == "small" else "live"  # a second blind: posted to come in
        hand.forced.append(Forced(name, kind, value, self._pay(name, value)))
        if kind in ("small", "big", "live"):
            self.bets[name] = self.bets.get(name, ZERO) + value

    def _declined(self) -> None:
        """Folds among the posts, before the cards are dealt: players sitting the hand out."""
        if self.hand.moves and all(m.verb == "f" for m in self.hand.moves):
            self.hand.moves.clear()

    def _action(self, name: str, verb: str, argument: str | None, line: str) -> None:
        moves, street = self.hand.moves, self.street
        if verb == "folds":
            moves.append(Move(street, name, "f"))
            return
        if verb == "checks":
            moves.append(Move(street, name, "cc"))
            return
        added = self._amount(line, argument)
        self._pay(name, added)
        before = self.bets.get(name, ZERO)
        highest = max((v for k, v in self.bets.items() if k != name), default=ZERO)
        self.bets[name] = before + added
        if verb == "calls" or before + added <= highest:  # (a "raise" all in for no more than a call)
            moves.append(Move(street, name, "cc", added))
        else:
            moves.append(Move(street, name, "cbr", before + added))

    def _cards(self) -> None:
        """The cards the hand shows, read in its language: the hero's, the boards, the showdown."""
        deck = deck_of(self.card_lists)
        hand = self.hand

        def cards(text: str) -> str:
            return "".join(deck[t] for t in text.replace(",", " ").split())

        for name, text in self.raw_known.items():
            known = cards(text)
            if len(known) != 2 * hand.hole_cards:
                raise SiteError(f"{name} holds {len(known) // 2} cards, not {hand.hole_cards}")
            hand.known[name] = known
        for street, text in sorted(self.raw_boards.items()):
            while len(hand.boards) <= street:
                hand.boards.append("")
            hand.boards[street] = cards(text)
        # (``mucks [cards]``: cards the file shows of a player who lost, or won a side pot all in)
        hand.shows = [(name, "" if mucked and name not in hand.collected else hand.known[name])
                      for name, _, mucked in self.raw_shows]  # fmt: skip

    def _not_dealt_in(self) -> None:
        """A seat that neither posts, acts, shows nor collects was not dealt in (sitting out)."""
        hand = self.hand
        playing = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.collected)
        playing |= {name for name, _, _ in self.raw_shows}
        for seat in hand.seats:
            seat.out = seat.name not in playing


def _no_blinds(hand: SiteHand, left: dict[str, Decimal]) -> None:
    """A hand without blinds (BLAST: every player all in on his ante, the game line's stakes not the
    hand's): no bet can follow, its ``min_bet`` is its largest ante (a note says so)."""
    if any(p.kind in ("small", "big", "live") for p in hand.forced) or hand.moves:
        return
    antes = [p.amount for p in hand.forced if p.kind == "ante"]
    dealt = [s.name for s in hand.seats if not s.out]
    if not antes or any(left[name] > 0 for name in dealt):
        raise SiteError("no blinds are posted and the players are not all in")
    hand.big_blind = max(antes)
    largest = number_text(hand.big_blind)
    hand.notes.append(
        f"no blinds: every player is all in on his ante; min_bet is the largest ante, {largest}"
    )


def _uncalled(hand: SiteHand, put: Callable[[], dict[str, Decimal]]) -> None:
    """The file returns no uncalled bet in words, and its collected amount sometimes holds it: where
    what was collected is more than the pot the rules leave, the bet nobody matched is taken out of
    its bettor's collected amount (with a note)."""
    street_bets: dict[int, dict[str, Decimal]] = {0: forced_bets(hand)}
    for move in hand.moves:
        bets = street_bets.setdefault(move.street, {})
        if move.verb == "cbr":
            bets[move.name] = move.amount
        elif move.verb == "cc":
            bets[move.name] = bets.get(move.name, ZERO) + move.amount
    last = max((s for s, bets in street_bets.items() if any(bets.values())), default=None)
    if last is None:
        return
    ranked = [*sorted(street_bets[last].values(), reverse=True), ZERO]
    bettor = max(street_bets[last], key=lambda name: street_bets[last][name])
    unmatched = ranked[0] - ranked[1]
    got = hand.collected.get(bettor, ZERO)
    if unmatched <= 0 or got < unmatched:
        return
    pot = sum(put().values(), ZERO)
    if sum(hand.collected.values(), ZERO) > pot:
        hand.collected[bettor] = got - unmatched
        hand.notes.append(
            f"{bettor}'s collected {number_text(got)} holds the uncalled {number_text(unmatched)} "
            f"returned to him"
        )


def _unawarded(hand: SiteHand, put: Callable[[], dict[str, Decimal]]) -> None:
    """A tournament hand whose file says nobody collected, all but one player folded: the pot is his
    (no rake in a tournament; a note says so). A cash hand is refused (its rake is unknown)."""
    if hand.collected:
        return
    folded = {m.name for m in hand.moves if m.verb == "f"}
    left = [s.name for s in hand.seats if not s.out and s.name not in folded]
    if hand.chips != "tournament" or len(left) != 1:
        raise SiteError("the file says nobody collected the pot")
    pot = sum(put().values(), ZERO)
    hand.collected[left[0]] = pot
    hand.notes.append(
        f"the file writes no pot collected: the {number_text(pot)} is {left[0]}'s, every other player folded"
    )


def _unmatched(hand: SiteHand, left: dict[str, Decimal], put: Callable[[], dict[str, Decimal]]) -> None:
    """What one player put in beyond every other, the others all in or folded (an ante nobody else
    could match: BLAST), is a pot only he can win; where the file does not write it collected, it
    is his (a note says so)."""
    if all(chips > 0 for chips in left.values()):
        return  # nobody all in: one pot
    contributed = put()
    ranked = sorted(contributed.values(), reverse=True)
    if len(ranked) < 2 or ranked[0] == ranked[1]:
        return
    top = max(contributed, key=lambda name: contributed[name])
    excess = ranked[0] - ranked[1]
    folded = {m.name for m in hand.moves if m.verb == "f"}
    if any(left[name] > 0 for name in contributed if name not in folded and name != top):
        return  # (a player with chips still in: the excess is dead money of the one pot)
    if sum(hand.collected.values(), ZERO) + excess <= sum(ranked, ZERO):
        hand.collected[top] = hand.collected.get(top, ZERO) + excess
        hand.notes.append(f"{top}'s {number_text(excess)} nobody else matched comes back to him")


def _short_tournament_pot(hand: SiteHand, put: Callable[[], dict[str, Decimal]]) -> None:
    """A tournament takes no rake: where the file collects less than the pot, a note says so (the
    stored rake is what it left)."""
    if hand.chips != "tournament":
        return
    pot, collected = sum(put().values(), ZERO), sum(hand.collected.values(), ZERO)
    if collected < pot:
        hand.notes.append(
            f"the file's collected {number_text(collected)} is {number_text(pot - collected)} short of the "
            f"pot {number_text(pot)}; a tournament takes no rake"
        )


def read_body(hand: SiteHand, lines: list[str], mark: str | None) -> SiteHand:
    """The hand's body (the lines after its table line) read into ``hand``."""
    return Body(hand, mark).read(lines)
