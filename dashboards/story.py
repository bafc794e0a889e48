"""A hand's actions told street by street: the pot at each street's start, stacks, all-in marks.

Amounts read as a player would say them: a bet or raise is the street total it makes
("raises to 99"), a call or a post is the chips it adds ("calls 97"). Uncalled bets come back
at the end of their street, as the engine returns them.

>>> streets = tell({0: 100, 1: 100}, [
...     {"street": "preflop", "seat": 1, "action": "post", "amount": 1, "automatic": True},
...     {"street": "preflop", "seat": 0, "action": "post", "amount": 2, "automatic": True},
...     {"street": "preflop", "seat": 1, "action": "raise", "amount": 100, "automatic": False},
...     {"street": "preflop", "seat": 0, "action": "call", "amount": 98, "automatic": False},
... ])
>>> [(m.seat, m.words, m.all_in) for m in streets[0].moves]
[(1, 'posts 1', False), (0, 'posts 2', False), (1, 'raises to 100', True), (0, 'calls 98', True)]
>>> streets[0].pot_before, streets[0].pot_after
(0, 200)
>>> dead = {"street": "flop", "seat": 0, "action": "fold", "amount": None, "automatic": True}
>>> tell({0: 50}, [dead])[0].moves
[Move(seat=0, words='dies (no hole cards left)', cards=None, all_in=False)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERBS = {"post": "posts", "fold": "folds", "check": "checks", "call": "calls", "bet": "bets",
         "raise": "raises to", "discard": "discards", "show": "shows", "muck": "mucks"}  # fmt: skip


@dataclass
class Move:
    seat: int | None
    words: str  # "raises to 99", "folds", "dies (no hole cards left)"
    cards: str | None
    all_in: bool


@dataclass
class Street:
    name: str
    pot_before: int
    pot_after: int = 0
    moves: list[Move] = field(default_factory=list)


def _refund(bets: dict[int, int], stacks: dict[int, int]) -> int:
    """Return the uncalled part of the street's largest bet; the chips that went back."""
    if not bets:
        return 0
    top = max(bets, key=lambda s: bets[s])
    second = max((b for s, b in bets.items() if s != top), default=0)
    back = max(0, bets[top] - second)
    stacks[top] += back
    return back


def tell(starting: dict[int, int], actions: list[dict[str, Any]], antes: dict[int, int] | None = None
         ) -> list[Street]:  # fmt: skip
    """The streets of a hand, in order, with what each seat did (deals are left out).

    ``antes`` (per seat): a seat's first posts up to its ante are dead money, in the pot but not
    in the street's bets, so a raise to X adds X less the blind alone.

    >>> moves = [{"street": "preflop", "seat": s, "action": "post", "amount": a, "automatic": True}
    ...          for s, a in ((0, 5), (1, 5), (0, 1), (1, 2))]
    >>> moves += [{"street": "preflop", "seat": 0, "action": "raise", "amount": 10, "automatic": False},
    ...           {"street": "preflop", "seat": 1, "action": "call", "amount": 8, "automatic": False}]
    >>> street = tell({0: 15, 1: 100}, moves, antes={0: 5, 1: 5})[0]
    >>> street.pot_after, street.moves[-2].all_in
    (30, True)
    """
    stacks = dict(starting)
    ante_due = dict(antes or {})
    streets: list[Street] = []
    bets: dict[int, int] = {}
    pot = 0
    for action in actions:
        if not streets or streets[-1].name != action["street"]:
            if streets:
                pot -= _refund(bets, stacks)
                streets[-1].pot_after = pot
            streets.append(Street(action["street"], pot))
            bets = {}
        kind, seat, amount = action["action"], action["seat"], action["amount"]
        if kind == "deal" or seat is None:
            continue
        put = dead = 0
        if kind in ("post", "call"):
            put = amount or 0
            if kind == "post":
                dead = min(put, ante_due.get(seat, 0))
                ante_due[seat] = ante_due.get(seat, 0) - dead
        elif kind in ("bet", "raise"):
            put = amount - bets.get(seat, 0)
        stacks[seat] -= put
        bets[seat] = bets.get(seat, 0) + put - dead
        pot += put
        words = VERBS.get(kind, kind) + (f" {amount:,}" if amount is not None and put else "")
        if kind == "fold" and action.get("automatic"):
            words = "dies (no hole cards left)"
        streets[-1].moves.append(Move(seat, words, action.get("cards"), put > 0 and stacks[seat] == 0))
    if streets:
        pot -= _refund(bets, stacks)
        streets[-1].pot_after = pot
    return streets
