"""What a hand history recorded as won, checked against the rules' pots (``RULINGS.md``,
"Real-money hand histories").

A file's record is ``winnings`` (what each player collected) or ``finishing_stacks``. The
rules build the pots; the record must fit them: every player who collected is one a pot allows,
and the total collected falls short of the pot only by the rake (never negative). Where the
shown cards decide the winners, the record's winners must be the rules' winners. Where hidden
cards leave the winner open, the record decides. Some sites count the uncalled bet returned to a
player in what he collected (``returned_reading``). Each ``*_problem`` function returns the
reason a record does not fit, or None; ``show`` writes an amount in its messages (units as money,
say).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.pots import Pot

CHECKED = "checked"  # the rules decided, and the record agrees
DECIDED_BY_RECORD = "decided by the record"  # hidden cards left the winners open
UNCHECKED = "unchecked"  # no record: no statistic of results counts the hand
RECORD_STATES = (CHECKED, DECIDED_BY_RECORD, UNCHECKED)


def seat_list(seats: list[int]) -> str:
    """Seats as PHH names them.

    >>> seat_list([0, 2])
    'p1, p3'
    """
    return ", ".join(f"p{s + 1}" for s in seats) or "nobody"


def collected_from_stacks(starting: list[int], contributed: list[int], finishing: list[int]) -> list[int]:
    """What each seat collected, from its finishing stack: what it kept plus what it took in.

    >>> collected_from_stacks([100, 100], [30, 30], [70, 128])
    [0, 58]
    """
    return [f - (s - c) for s, c, f in zip(starting, contributed, finishing, strict=True)]


def rake_problem(pot: int, collected: list[int], show: Callable[[int], str] = str) -> str | None:
    """Why what was collected cannot be the pot less a rake.

    >>> rake_problem(100, [0, 97]) is None
    True
    >>> rake_problem(100, [0, 101])
    'the record has players collect 101, more than the pot of 100'
    >>> rake_problem(100, [-5, 100])
    'the record has p1 collect -5'
    """
    negative = [s for s, amount in enumerate(collected) if amount < 0]
    if negative:
        return f"the record has {seat_list(negative)} collect {show(collected[negative[0]])}"
    if sum(collected) > pot:
        return f"the record has players collect {show(sum(collected))}, more than the pot of {show(pot)}"
    return None


def claim_problem(pots: list[Pot], collected: list[int], show: Callable[[int], str] = str) -> str | None:
    """Why the record's collectors are not ones the pots allow: each collector must claim a pot,
    and collect at most the pots it claims.

    >>> pots = [Pot(60, (0, 1, 2)), Pot(40, (1, 2))]
    >>> claim_problem(pots, [0, 95, 0]) is None
    True
    >>> claim_problem(pots, [50, 0, 0]) is None
    True
    >>> claim_problem(pots, [70, 0, 0])
    'the record has p1 collect 70, more than the 60 of the pots p1 may win'
    >>> claim_problem([Pot(60, (1, 2))], [10, 50, 0])
    'the record has p1 collect, who may win no pot'
    """
    for seat, amount in enumerate(collected):
        if amount <= 0:
            continue
        claimable = sum(pot.amount for pot in pots if seat in pot.eligible)
        if claimable == 0:
            return f"the record has {seat_list([seat])} collect, who may win no pot"
        if amount > claimable:
            return (
                f"the record has {seat_list([seat])} collect {show(amount)}, more than the {show(claimable)} "
                f"of the pots {seat_list([seat])} may win"
            )
    return None


def winners_problem(
    rules_won: list[int], collected: list[int], show: Callable[[int], str] = str
) -> str | None:
    """Why the record's winners are not the rules' (the shown cards decided them), or a winner
    collected more than the rules give it (the rake only takes away).

    >>> winners_problem([0, 100, 0], [0, 97, 0]) is None
    True
    >>> winners_problem([0, 100, 0], [97, 0, 0])
    'the record has p1 win, the rules p2'
    >>> winners_problem([0, 60, 40], [0, 40, 58])
    'the record has p3 collect 58, more than the 40 the rules give'
    """
    rules = [s for s, amount in enumerate(rules_won) if amount > 0]
    record = [s for s, amount in enumerate(collected) if amount > 0]
    if rules != record:
        return f"the record has {seat_list(record)} win, the rules {seat_list(rules)}"
    for seat, (amount, given) in enumerate(zip(collected, rules_won, strict=True)):
        if amount > given:
            return (
                f"the record has {seat_list([seat])} collect {amount}, more than the {given} the rules give"
            )
    return None


def returned_reading(
    collected: list[int], returned: list[int], pot: int, problem_of: Callable[[list[int]], str | None]
) -> tuple[list[int], list[int], str | None]:
    """How ``winnings`` are read: (what each seat took from the pots, the returned bets the record
    counted in what it collected, why the record does not fit or None).

    Some sites (PartyPoker, Absolute) count the uncalled bet returned to a seat (``returned``, by
    seat) in what that seat collected. The record is read as written; only where that reading does
    not fit (``problem_of``) and each seat with a bet returned collected at least it, is it read
    with each seat's returned bet taken off. Where neither fits, the reason is the second
    reading's when its total fits within the ``pot`` (the record counted the return, and is wrong
    for another reason), else the first's.

    >>> within = lambda taken: None if sum(taken) <= 25 else f"collect {sum(taken)}, more than the pot of 25"
    >>> returned_reading([0, 40], [0, 15], 25, within)
    ([0, 25], [0, 15], None)
    >>> returned_reading([0, 24], [0, 15], 25, within)
    ([0, 24], [0, 0], None)
    >>> returned_reading([0, 50], [0, 15], 25, within)
    ([0, 50], [0, 0], 'collect 50, more than the pot of 25')
    """
    none = [0] * len(collected)
    problem = problem_of(collected)
    if problem is None or not any(returned) or any(c < r for c, r in zip(collected, returned, strict=True)):
        return collected, none, problem
    taken = [c - r for c, r in zip(collected, returned, strict=True)]
    second = problem_of(taken)
    if second is None:
        return taken, list(returned), None
    return collected, none, second if sum(taken) <= pot else problem


def returned_note(counted: list[int], show: Callable[[int], str] = str) -> str:
    """The note on a hand whose record counted returned bets in what was collected.

    >>> returned_note([0, 0, 1500], lambda units: f"{units / 100:.2f}")
    'the winnings count the uncalled bet returned to p3 (15.00) in what p3 collected'
    """
    seats = [s for s, amount in enumerate(counted) if amount]
    returns = ", ".join(f"{seat_list([s])} ({show(counted[s])})" for s in seats)
    return f"the winnings count the uncalled bet returned to {returns} in what {seat_list(seats)} collected"
