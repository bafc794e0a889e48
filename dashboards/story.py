"""A hand's actions told street by street: the pot at each street's start, stacks, all-in marks.

Amounts read as a player would say them: a bet or raise is the street total it makes
("raises to 99"), a call or a post is the chips it adds ("calls 97"). Stacks and pots are the
actions table's own (``stack_after``, ``pot_after``: once each action and the uncalled bet it
returns are applied), never worked out here.

>>> streets = tell({0: 100, 1: 100}, [
...     {"street": "preflop", "seat": 1, "action": "post", "amount": 1, "automatic": True,
...      "stack_after": 99, "pot_after": 1},
...     {"street": "preflop", "seat": 0, "action": "post", "amount": 2, "automatic": True,
...      "stack_after": 98, "pot_after": 3},
...     {"street": "preflop", "seat": 1, "action": "raise", "amount": 100, "automatic": False,
...      "stack_after": 0, "pot_after": 102},
...     {"street": "preflop", "seat": 0, "action": "call", "amount": 98, "automatic": False,
...      "stack_after": 0, "pot_after": 200},
... ])
>>> [(m.seat, m.words, m.all_in) for m in streets[0].moves]
[(1, 'posts 1', False), (0, 'posts 2', False), (1, 'raises to 100', True), (0, 'calls 98', True)]
>>> streets[0].pot_before, streets[0].pot_after
(0, 200)
>>> dead = {"street": "flop", "seat": 0, "action": "fold", "amount": None, "automatic": True,
...         "stack_after": 50, "pot_after": 100}
>>> tell({0: 50}, [dead])[0].moves
[Move(seat=0, words='dies (no hole cards left)', cards=None, all_in=False, drawn=None)]

A draw shows the cards thrown, and the cards dealt for them (the deal that follows it):

>>> draw = [{"street": "first-draw", "seat": 1, "action": "draw", "cards": "9h8h", "amount": None,
...          "automatic": False, "stack_after": 90, "pot_after": 20},
...         {"street": "first-draw", "seat": 1, "action": "deal", "cards": "2d3d", "amount": None,
...          "automatic": False, "stack_after": 90, "pot_after": 20}]
>>> move = tell({1: 90}, draw)[0].moves[0]
>>> move.words, move.cards, move.drawn
('throws 2', '9h8h', '2d3d')
>>> tell({1: 90}, [{**draw[0], "cards": None}])[0].moves[0].words
'stands pat'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

VERBS = {"post": "posts", "bring_in": "brings in", "fold": "folds", "check": "checks", "call": "calls",
         "bet": "bets", "raise": "raises to", "discard": "discards", "show": "shows",
         "muck": "mucks"}  # fmt: skip


@dataclass
class Move:
    seat: int | None
    words: str  # "raises to 99", "folds", "dies (no hole cards left)"
    cards: str | None
    all_in: bool
    drawn: str | None = None  # a draw: the cards dealt for those thrown


@dataclass
class Street:
    name: str
    pot_before: int
    pot_after: int = 0
    moves: list[Move] = field(default_factory=list)


def has_stacks_and_pots(actions: list[dict[str, Any]]) -> bool:
    """Whether the rows carry ``pot_after`` (rows written before the column read it as null).

    >>> has_stacks_and_pots([{"pot_after": 3}]), has_stacks_and_pots([{"pot_after": None}])
    (True, False)
    """
    return all(action.get("pot_after") is not None for action in actions)


def amount_text(units: int, decimals: int = 0, cents: bool = False) -> str:
    """An amount as people read it, with thousands separators: whole units (chips, or money in
    whole units), or money with the hand's decimals (``decimals``: its amounts are whole units of
    10^-decimals), at least two with ``cents`` (a named currency).

    >>> amount_text(1500), amount_text(2150, 2), amount_text(-5, 1, cents=True), amount_text(125, 3)
    ('1,500', '21.50', '-0.50', '0.125')
    """
    if not decimals:
        return f"{units:,}"
    places = max(decimals, 2) if cents else decimals
    return f"{Decimal(units).scaleb(-decimals):,.{places}f}"


def tell(starting: dict[int, int], actions: list[dict[str, Any]],
         show: Callable[[int], str] = amount_text) -> list[Street]:  # fmt: skip
    """The streets of a hand, in order, with what each seat did (deals are left out; amounts
    written by ``show``).

    A street's pots are the ``pot_after`` of the last action before it and of its own last
    action; a move is all in when it puts chips in (the seat's stack goes down from its last
    ``stack_after``, or its ``starting`` stack) and leaves ``stack_after`` at 0. Antes, blinds
    and returned bets are already in those numbers:

    >>> moves = [{"street": "preflop", "seat": s, "action": "post", "amount": a, "automatic": True,
    ...           "stack_after": stack, "pot_after": pot}
    ...          for s, a, stack, pot in ((0, 5, 10, 5), (1, 5, 95, 10), (0, 1, 9, 11), (1, 2, 93, 13))]
    >>> moves += [{"street": "preflop", "seat": 0, "action": "raise", "amount": 10, "automatic": False,
    ...            "stack_after": 0, "pot_after": 22},
    ...           {"street": "preflop", "seat": 1, "action": "call", "amount": 8, "automatic": False,
    ...            "stack_after": 85, "pot_after": 30}]
    >>> street = tell({0: 15, 1: 100}, moves)[0]
    >>> street.pot_after, street.moves[-2].all_in
    (30, True)

    Rows without the numbers (``has_stacks_and_pots`` is false) are told without pots or all-in
    marks:

    >>> older = [{**move, "stack_after": None, "pot_after": None} for move in moves]
    >>> street = tell({0: 15, 1: 100}, older)[0]
    >>> street.pot_after, street.moves[-2].words, street.moves[-2].all_in
    (0, 'raises to 10', False)
    """
    recorded = has_stacks_and_pots(actions)
    stacks = dict(starting)  # each seat's stack after its last row
    streets: list[Street] = []
    pot = 0
    for action in actions:
        if not streets or streets[-1].name != action["street"]:
            if streets:
                streets[-1].pot_after = pot
            streets.append(Street(action["street"], pot))
        kind, seat, amount = action["action"], action["seat"], action["amount"]
        if recorded:
            pot = action["pot_after"]
        if seat is None:
            continue
        stack = action.get("stack_after") if recorded else None
        put = 0 if stack is None else stacks.get(seat, stack) - stack
        if stack is not None:
            stacks[seat] = stack
        if kind == "deal":
            pending = [m for m in streets[-1].moves if m.seat == seat and m.words.startswith("throws")]
            if pending:  # the cards drawn for those it threw (PHH may write every discard of a round
                drawn = (pending[-1].drawn or "") + (action.get("cards") or "")  # first, and split a deal)
                pending[-1].drawn = drawn or None
            continue
        if kind == "draw":
            thrown = action.get("cards")
            words = f"throws {len(thrown) // 2}" if thrown else "stands pat"
            streets[-1].moves.append(Move(seat, words, thrown, False))
            continue
        words = VERBS.get(kind, kind) + (f" {show(amount)}" if amount is not None else "")
        if kind == "fold" and action.get("automatic"):
            words = "dies (no hole cards left)"
        streets[-1].moves.append(Move(seat, words, action.get("cards"), put > 0 and stack == 0))
    if streets:
        streets[-1].pot_after = pot
    return streets


def up_cards(actions: list[dict[str, Any]], up_per_street: dict[str, int]) -> dict[str, dict[int, str]]:
    """The cards each seat was dealt face up on each street (stud): the last ``up_per_street[street]``
    of its hole cards dealt on that street (two characters a card, ``??`` where the record never
    wrote them).

    >>> deals = [{"street": "third", "seat": 0, "action": "deal", "cards": "5d2sAd"},
    ...          {"street": "third", "seat": 1, "action": "deal", "cards": "????Kc"},
    ...          {"street": "seventh", "seat": 0, "action": "deal", "cards": "9h"}]
    >>> up_cards(deals, {"third": 1, "seventh": 0})
    {'third': {0: 'Ad', 1: 'Kc'}}
    """
    dealt: dict[str, dict[int, str]] = {}
    for action in actions:
        if action["action"] == "deal" and action["seat"] is not None and up_per_street.get(action["street"]):
            seats = dealt.setdefault(action["street"], {})
            seats[action["seat"]] = seats.get(action["seat"], "") + (action.get("cards") or "")
    return {street: {seat: cards[-2 * up_per_street[street]:] for seat, cards in seats.items()}
            for street, seats in dealt.items()}  # fmt: skip
