"""One hand as a site wrote it (``SiteHand``), checked against its own arithmetic and written as
PHH fields: what every site reader builds, and what the rest of ingest replays and stores.

Players are written in PHH order (the first seat left of the button first, the button last), the
forced bets reverse-assigned heads-up as PHH does. A dead blind is an ante of its poster (it goes
to the pot, not into his bet); a live blind posted out of turn is a negative entry of
``blinds_or_straddles`` (PokerKit's convention: it does not move the first to act). Site facts PHH
has no field for are ``_``-prefixed fields (docs/site-histories.md lists them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ingest.histories.sites.text import SiteError, number_text

ZERO = Decimal(0)


@dataclass
class Seat:
    number: int  # the table's seat number
    name: str
    stack: Decimal
    bounty: str | None = None  # a knockout tournament's bounty on this player, as written
    out: bool = False  # sitting out or not dealt in


@dataclass
class Forced:
    name: str
    kind: str  # "ante", "small", "big", "straddle", "button", "dead" (to the pot), "live" (out of turn)
    amount: Decimal
    all_in: bool = False  # the post took the poster's last chip (then it may be short)


@dataclass
class Move:
    street: int  # 0: before the flop (or third street), 1, 2...
    name: str
    verb: str  # "f", "cc", "cbr", "sd" (draw), "pb" (bring-in), "dh" (cards dealt: stud, a draw's)
    amount: Decimal = ZERO  # cbr: the street's bet it makes; cc, pb: what it put in
    cards: str = ""  # sd: the cards thrown; dh: the cards dealt ("??" each unseen)


@dataclass
class SiteHand:
    """Everything the reader took from one hand's text; ``phh_fields`` writes it."""

    venue: str
    hand_id: str
    variant: str  # a scooplab PHH variant code
    hole_cards: int  # at the showdown (stud: seven)
    kind: str = "board"  # "board" (hole cards, then boards), "stud" (dealt street by street), "draw"
    table: str = ""
    seat_count: int | None = None
    button: int | None = None
    currency: str | None = None
    chips: str | None = None  # "tournament" or "play money" (no currency), else None
    small_blind: Decimal = ZERO
    big_blind: Decimal = ZERO
    small_bet: Decimal = ZERO  # fixed limit
    big_bet: Decimal = ZERO
    bring_in: Decimal = ZERO  # stud
    seats: list[Seat] = field(default_factory=list)
    forced: list[Forced] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)  # each street's new board cards
    known: dict[str, str] = field(default_factory=dict)  # first hole cards the file shows (not stud)
    shows: list[tuple[str, str]] = field(default_factory=list)  # at the showdown: cards, or "" (mucks)
    collected: dict[str, Decimal] = field(default_factory=dict)
    returned: dict[str, Decimal] = field(default_factory=dict)
    total_pot: Decimal | None = None
    rake: Decimal = ZERO
    fees: Decimal = ZERO  # jackpot, bingo, fortune...: taken from the pot besides the rake
    cash_outs: dict[str, tuple[Decimal, Decimal]] = field(default_factory=dict)  # amount, fee
    insurance: dict[str, tuple[Decimal, Decimal]] = field(default_factory=dict)  # covered, premium paid
    when: dict[str, object] = field(default_factory=dict)  # year, month, day, time, time_zone...
    extra: dict[str, object] = field(default_factory=dict)  # ``_`` fields: tournament, level...
    notes: list[str] = field(default_factory=list)

    def dealt(self) -> list[Seat]:
        """The seats dealt in, in PHH order: from the first left of the button round to it."""
        seats = sorted((s for s in self.seats if not s.out), key=lambda s: s.number)
        if len(seats) < 2:
            raise SiteError(f"{len(seats)} player dealt in")
        button = self.button if self.button is not None else seats[-1].number
        after = [s for s in seats if s.number > button]
        return after + [s for s in seats if s.number <= button]


def contributions(hand: SiteHand) -> dict[str, Decimal]:
    """What each player put in the pot by the file's own lines (posts, calls, bets, raises to),
    less the uncalled bet returned (as written, or as the rules return it where the file is silent)."""
    put = {s.name: ZERO for s in hand.seats}
    street_bets: dict[tuple[int, str], Decimal] = {}
    for post in hand.forced:
        if post.kind in ("ante", "dead"):
            put[post.name] += post.amount
        elif post.kind == "straddle":  # a straddle's amount is the poster's whole forced bet
            street_bets[0, post.name] = max(street_bets.get((0, post.name), ZERO), post.amount)
        else:
            street_bets[0, post.name] = street_bets.get((0, post.name), ZERO) + post.amount
    for move in hand.moves:
        key = (move.street, move.name)
        if move.verb == "cbr":
            street_bets[key] = move.amount
        elif move.verb in ("cc", "pb"):
            street_bets[key] = street_bets.get(key, ZERO) + move.amount
    for (_, name), amount in street_bets.items():
        put[name] += amount
    for name, amount in hand.returned.items():
        put[name] -= amount
    _unwritten_return(street_bets, hand.returned, put)
    return put


def _unwritten_return(street_bets: dict[tuple[int, str], Decimal], returned: dict[str, Decimal],
                      put: dict[str, Decimal]) -> None:  # fmt: skip
    """Take back the part of the last street's largest bet nobody matched where the file does not
    write its return (PokerStars before 2008 did not): the rules return it all the same."""
    last = max((street for street, _ in street_bets), default=None)
    bets = sorted(((amount, name) for (street, name), amount in street_bets.items() if street == last),
                  reverse=True)  # fmt: skip
    if not bets:
        return
    (top, bettor), matched = bets[0], bets[1][0] if len(bets) > 1 else ZERO
    unwritten = top - matched - returned.get(bettor, ZERO)
    if unwritten > 0:
        put[bettor] -= unwritten


def arithmetic_notes(hand: SiteHand) -> list[str]:
    """Where the file disagrees with itself: its total pot against its bets, what it says was
    collected plus rake and fees against its total pot. Empty when it agrees."""
    notes = []
    pot = sum(contributions(hand).values(), ZERO)
    collected = sum(hand.collected.values(), ZERO)
    if hand.total_pot is not None and hand.total_pot != pot:
        notes.append(
            f"the file's total pot {number_text(hand.total_pot)} is not its bets' {number_text(pot)}"
        )
    if hand.total_pot is not None and collected + hand.rake + hand.fees != hand.total_pot:
        notes.append(
            f"the file's collected {number_text(collected)}, rake {number_text(hand.rake)} and fees "
            f"{number_text(hand.fees)} do not add up to its total pot {number_text(hand.total_pot)}"
        )
    return notes
