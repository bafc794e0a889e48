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
    # run it twice (or more): each later run's new board cards, by street (RULINGS, "Run it twice")
    more_runs: list[dict[int, str]] = field(default_factory=list)
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
    options: dict[str, object] = field(default_factory=dict)  # the room's rule options (``_options``)
    notes: list[str] = field(default_factory=list)

    def dealt(self) -> list[Seat]:
        """The seats dealt in, in PHH order: from the first left of the button round to it."""
        seats = sorted((s for s in self.seats if not s.out), key=lambda s: s.number)
        if len(seats) < 2:
            raise SiteError(f"{len(seats)} player dealt in")
        button = self.button if self.button is not None else seats[-1].number
        after = [s for s in seats if s.number > button]
        return after + [s for s in seats if s.number <= button]


def later_run(hand: SiteHand, run: int, street: int, new_cards: str) -> None:
    """Run ``run`` (2, 3...) of a board run more than once deals ``new_cards`` on ``street``.

    >>> hand = SiteHand("x", "1", "NT", 2, boards=["", "AhKd2c", "5s", "9d"])
    >>> later_run(hand, 2, 3, "Jc"); later_run(hand, 3, 3, "Qc"); hand.more_runs
    [{3: 'Jc'}, {3: 'Qc'}]
    """
    while len(hand.more_runs) < run - 1:
        hand.more_runs.append({})
    hand.more_runs[run - 2][street] = new_cards


def deal_unseen_stud(hand: SiteHand, names: list[str], last: int, third: str = "") -> None:
    """Stud: a card the file does not show (``??``: an opponent's down card, or any card of a file that
    writes no ``Dealt to``) dealt on each street up to ``last`` to each of ``names`` still in whom the
    street's deals leave out; on third street ``third`` (``??????``) where given, else nothing.

    >>> hand = SiteHand("x", "1", "F7S", 7, kind="stud", moves=[Move(0, "a", "dh", cards="AcKd2h"),
    ...     Move(0, "b", "f"), Move(1, "a", "cc")])
    >>> deal_unseen_stud(hand, ["a", "b"], 1, "??????")
    >>> [(m.street, m.name, m.verb, m.cards) for m in hand.moves if m.verb == "dh"]
    [(0, 'a', 'dh', 'AcKd2h'), (0, 'b', 'dh', '??????'), (1, 'a', 'dh', '??')]
    """
    moves, folded, out = hand.moves, set(), []
    for street in range(max([last] + [m.street for m in moves]) + 1):
        these = [m for m in moves if m.street == street]
        deals = [m for m in these if m.verb == "dh"]
        dealt = {m.name for m in deals}
        unseen = third if street == 0 else "??"
        left = [n for n in names if n not in folded and n not in dealt] if unseen else []
        deals += [Move(street, n, "dh", cards=unseen) for n in left]
        out += deals + [m for m in these if m.verb != "dh"]
        folded |= {m.name for m in these if m.verb == "f"}
    hand.moves = out


def contributions(hand: SiteHand) -> dict[str, Decimal]:
    """What each player put in the pot by the file's own lines (posts, calls, bets, raises to),
    less the uncalled bet returned (as written, or as the rules return it where the file is silent)."""
    put = {s.name: ZERO for s in hand.seats}
    for post in hand.forced:
        if post.kind in ("ante", "dead"):
            put[post.name] += post.amount
    street_bets = {(0, name): bet for name, bet in forced_bets(hand).items()}
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


def forced_bets(hand: SiteHand) -> dict[str, Decimal]:
    """Each player's bet before the first move: his live blinds and straddle (antes and dead blinds
    go to the pot, not into a bet)."""
    bets: dict[str, Decimal] = {}
    for post in hand.forced:
        if post.kind == "straddle":
            bets[post.name] = max(bets.get(post.name, ZERO), post.amount)
        elif post.kind not in ("ante", "dead"):
            bets[post.name] = bets.get(post.name, ZERO) + post.amount
    return bets


def bet_after(bets: dict[str, Decimal], move: Move, owed: Decimal = ZERO) -> Decimal | None:
    """Keep ``bets`` (this street's, by player) up to date with ``move``. Where every bet so far is
    short of ``owed`` (the big blind before the flop: its poster all in for less, or on his ante)
    and a call puts in more, the street's bet it makes: the site's call of the whole big blind, a
    bet to PHH (whose ``cc`` matches the highest bet). Else None.

    >>> bets = {"sb": Decimal(60)}
    >>> bet_after(bets, Move(0, "a", "cc", Decimal(120)), Decimal(120))
    Decimal('120')
    >>> bet_after(bets, Move(0, "sb", "cc", 60), 120), bet_after(bets, Move(0, "b", "cc", 150))
    (None, None)
    """
    before = bets.get(move.name, ZERO)
    if move.verb == "cbr":
        bets[move.name] = move.amount
    elif move.verb in ("cc", "pb"):
        highest = max((v for k, v in bets.items() if k != move.name), default=ZERO)
        bets[move.name] = before + move.amount
        if move.verb == "cc" and highest < bets[move.name] and highest < owed:
            return bets[move.name]
    return None


def owed_on(hand: SiteHand, street: int) -> Decimal:
    """The least bet a call matches on a street by the site's rules: the big blind before the flop."""
    return hand.big_blind if street == 0 and hand.kind != "stud" else ZERO


def rules_contributions(hand: SiteHand) -> dict[str, Decimal]:
    """What each player puts in the pot as the replay reads the hand's PHH (a call matches the
    street's highest bet, every payment stops at the player's stack, the last street's bet nobody
    matched comes back), to hold against ``contributions``, the file's own count.

    >>> posts = [Forced("a", "small", Decimal(1)), Forced("b", "big", Decimal(2)), Forced("c", "dead", 1)]
    >>> seats = [Seat(1, "a", Decimal(50)), Seat(2, "b", Decimal(50)), Seat(3, "c", Decimal(50))]
    >>> hand = SiteHand("x", "1", "NT", 2, seats=seats, forced=posts, moves=[Move(0, "c", "cc", 2)])
    >>> {k: str(v) for k, v in rules_contributions(hand).items()}
    {'a': '1', 'b': '2', 'c': '3'}
    """
    left = {s.name: s.stack for s in hand.seats if not s.out}
    put = dict.fromkeys(left, ZERO)
    bets: dict[str, Decimal] = {}

    def pay(name: str, value: Decimal, bet: bool) -> None:
        paid = min(max(value, ZERO), left.get(name, ZERO))
        left[name] = left.get(name, ZERO) - paid
        put[name] = put.get(name, ZERO) + paid
        if bet:
            bets[name] = bets.get(name, ZERO) + paid

    for post in hand.forced:
        if post.kind == "straddle":
            pay(post.name, post.amount - bets.get(post.name, ZERO), True)
        else:
            pay(post.name, post.amount, post.kind not in ("ante", "dead"))
    street, last_bets, written = 0, dict(bets), forced_bets(hand)
    for move in hand.moves:
        if move.street != street:
            street, bets, written = move.street, {}, {}
        above = bet_after(written, move, owed_on(hand, street))  # a call above a short blind: ``cbr``
        if move.verb == "cbr" or above is not None:
            pay(move.name, (move.amount if above is None else above) - bets.get(move.name, ZERO), True)
        elif move.verb == "cc":
            pay(move.name, max(bets.values(), default=ZERO) - bets.get(move.name, ZERO), True)
        elif move.verb == "pb":
            pay(move.name, move.amount, True)
        if any(bets.values()):
            last_bets = bets
    ranked = [*sorted(last_bets.items(), key=lambda item: item[1], reverse=True), ("", ZERO), ("", ZERO)]
    put[ranked[0][0]] = put.get(ranked[0][0], ZERO) - (ranked[0][1] - ranked[1][1])
    put.pop("", None)
    return put


def arithmetic_notes(hand: SiteHand) -> list[str]:
    """Where the file disagrees with itself: its total pot against its bets, what it says was
    collected plus rake and fees against its total pot; and where a player's bets, as the replay
    reads them, put in other than the file says (``rules_contributions``). Empty when it agrees."""
    notes = []
    put, by_rules = contributions(hand), rules_contributions(hand)
    pot = sum(put.values(), ZERO)
    collected = sum(hand.collected.values(), ZERO)
    if hand.total_pot is not None and hand.total_pot != pot:
        notes.append(
            f"the file's total pot {number_text(hand.total_pot)} is not its bets' {number_text(pot)}"
        )
    for name in put:  # (every seat: the replay's are those dealt in)
        file_put, replay_put = put.get(name, ZERO), by_rules.get(name, ZERO)
        if file_put != replay_put:
            notes.append(f"the file has {name} put {number_text(file_put)} in the pot, the replay "
                          f"{number_text(replay_put)}")  # fmt: skip
    if hand.total_pot is not None and collected + hand.rake + hand.fees != hand.total_pot:
        notes.append(
            f"the file's collected {number_text(collected)}, rake {number_text(hand.rake)} and fees "
            f"{number_text(hand.fees)} do not add up to its total pot {number_text(hand.total_pot)}"
        )
    return notes
