"""Side pots and chip splitting: the shared arithmetic of every showdown.

>>> [(p.amount, p.eligible) for p in build_pots([100, 300, 300, 50], [False, False, False, True])]
[(350, (0, 1, 2)), (400, (1, 2))]
>>> split_chips(10, [2, 0, 1])  # the winner with priority 0 gets the odd chip
[3, 4, 3]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """Chips that the ``eligible`` seats (not folded, put in enough) can win."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributed: list[int], folded: list[bool]) -> list[Pot]:
    """Main pot and side pots from each seat's total contribution.

    Chips of folded seats stay in the pots they reached; a level that only
    folded seats reached is merged into the pot below it.
    """
    levels = sorted({c for c, out in zip(contributed, folded, strict=True) if not out and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(i for i, c in enumerate(contributed) if not folded[i] and c >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    left_over = sum(c - min(c, previous) for c in contributed)
    if left_over:
        if pots:
            pots[-1] = Pot(pots[-1].amount + left_over, pots[-1].eligible)
        else:
            pots.append(Pot(left_over, ()))
    return pots


def pots_with_antes(contributed: list[int], antes_paid: list[int], folded: list[bool]) -> list[Pot]:
    """Pots built on live bets; the antes are dead money in the main pot.

    A player all in for an ante alone (no live chips) still plays for the antes: the
    antes up to that player's own form pots of their own, which every player still in
    with live chips also contests. The rest of the antes go to the main pot.

    >>> [(p.amount, p.eligible) for p in pots_with_antes([15, 5, 15], [5, 5, 5], [False] * 3)]
    [(15, (0, 1, 2)), (20, (0, 2))]
    """
    n = len(contributed)
    live = [c - a for c, a in zip(contributed, antes_paid, strict=True)]
    pots = build_pots(live, folded)
    ante_only = sorted({antes_paid[s] for s in range(n) if not folded[s] and live[s] == 0})
    ante_pots: list[Pot] = []
    previous = 0
    for level in ante_only:
        if level <= 0:
            continue
        amount = sum(min(a, level) - min(a, previous) for a in antes_paid)
        eligible = tuple(s for s in range(n) if not folded[s] and (live[s] > 0 or antes_paid[s] >= level))
        ante_pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(antes_paid) - sum(p.amount for p in ante_pots)
    if pots:
        pots[0] = Pot(pots[0].amount + rest, pots[0].eligible)
    elif ante_pots:
        ante_pots[-1] = Pot(ante_pots[-1].amount + rest, ante_pots[-1].eligible)
    else:
        pots = [Pot(rest, tuple(s for s in range(n) if not folded[s]))]
    return join_unclaimed(ante_pots + pots)


def join_unclaimed(pots: list[Pot]) -> list[Pot]:
    """A pot nobody still in can win joins the next smaller pot that has someone (RULINGS).

    Pots are listed smallest level first; a lowest pot with nobody joins the next one up.

    >>> join_unclaimed([Pot(20, (2, 3)), Pot(30, ())])
    [Pot(amount=50, eligible=(2, 3))]
    >>> join_unclaimed([Pot(5, ()), Pot(20, (1,))])  # nothing below: the next one up
    [Pot(amount=25, eligible=(1,))]
    """
    joined: list[Pot] = []
    carried = 0  # chips of unclaimed pots below the first claimed one
    for pot in pots:
        if pot.eligible:
            joined.append(Pot(pot.amount + carried, pot.eligible))
            carried = 0
        elif joined:
            joined[-1] = Pot(joined[-1].amount + pot.amount, joined[-1].eligible)
        else:
            carried += pot.amount
    return joined or pots


def claimants(pots: list[Pot], contenders: set[int] | frozenset[int], muck_order: list[int]) -> list[Pot]:
    """Each pot with the seats that may win it at the showdown (RULINGS, "All variants").

    Its eligible seats that still contend (showed a live hand); if none does, those that did
    not muck share it (hands that cannot win for another reason: voided ones), since a player
    who mucks gives up every pot; if every one of them mucked, the last to muck keeps the
    claim alone. ``muck_order[s]`` is 0, or k for the k-th muck.

    >>> pots = [Pot(150, (0, 1, 2)), Pot(200, (1, 2))]
    >>> claimants(pots, {0}, [0, 2, 1])
    [Pot(amount=150, eligible=(0,)), Pot(amount=200, eligible=(1,))]
    >>> claimants([Pot(4, (0, 1))], set(), [1, 0])  # both voided, seat 0 mucked: seat 1's
    [Pot(amount=4, eligible=(1,))]
    """
    out = []
    for pot in pots:
        live = tuple(s for s in pot.eligible if s in contenders)
        unmucked = tuple(s for s in pot.eligible if muck_order[s] == 0)
        if not live and unmucked:
            live = unmucked
        elif not live:
            live = (max(pot.eligible, key=lambda s: muck_order[s]),)
        out.append(Pot(pot.amount, live))
    return out


def split_chips(amount: int, order: list[int]) -> list[int]:
    """Split ``amount`` equally among ``len(order)`` winners; odd chips one at a time.

    ``order`` gives each winner's place in the odd-chip order (0 gets the first
    odd chip); the result is in the same positions as ``order``.
    """
    if not order:
        raise ValueError("split_chips: nobody to split among")
    share, odd = divmod(amount, len(order))
    return [share + (1 if place < odd else 0) for place in _places(order)]


def _places(order: list[int]) -> list[int]:
    ranked = sorted(range(len(order)), key=lambda i: order[i])
    places = [0] * len(order)
    for place, i in enumerate(ranked):
        places[i] = place
    return places


def split_among_seats(amount: int, seats: list[int]) -> dict[int, int]:
    """Split among seats, odd chips clockwise from the button (lowest seat index first).

    Seats are numbered in PHH order, seat 0 first left of the button, so the
    clockwise order from the button is increasing seat index.

    >>> split_among_seats(7, [3, 1])
    {1: 4, 3: 3}
    """
    ordered = sorted(seats)
    return dict(zip(ordered, split_chips(amount, list(range(len(ordered)))), strict=True))
