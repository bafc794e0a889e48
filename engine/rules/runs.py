"""Run it twice (or more): the rest of the board dealt once per run, each pot split among the runs.

RULINGS ("Real-money hand histories"): the runs share the cards already dealt (hole cards and
the board so far); each run completes the board from the cards no earlier run used; each pot is
split into equal parts, one per run (odd chips to the first run), each part awarded by that run's
board. Runs begin on the first street that deals once no more betting can happen; a game whose
cards to come are not board cards alone (hole cards, draws), or that has several boards, cannot
run twice. The hand's boards are then every run's, one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.rules.games.base import SeatOutcome, ShowdownResult, Street
from engine.rules.pots import Pot

MOST_RUNS = 9  # a record's run count beyond this is not a hand anybody dealt


def run_parts(amount: int, runs: int) -> list[int]:
    """A pot's part for each run: equal, the odd chips to the first run.

    >>> run_parts(223, 2), run_parts(11, 3), run_parts(0, 2)
    ([112, 111], [5, 3, 3], [0, 0])
    """
    share = amount // runs
    return [amount - share * (runs - 1)] + [share] * (runs - 1)


def pots_of_run(pots: Sequence[Pot], run: int, runs: int) -> tuple[Pot, ...]:
    """Each pot's part for ``run`` (0 first), with the same claimants.

    >>> pots_of_run([Pot(7, (0, 1)), Pot(4, (1,))], 1, 2)
    (Pot(amount=3, eligible=(0, 1)), Pot(amount=2, eligible=(1,)))
    """
    return tuple(Pot(run_parts(pot.amount, runs)[run], pot.eligible) for pot in pots)


def cannot_run(streets: Sequence[Street], first: int, boards: int) -> str | None:
    """Why the streets from ``first`` on of a game of ``boards`` boards cannot be run more than once
    (None: they can). A game of several boards (Scarney's discard board, Cry Me A River's kills,
    shares by board) runs once: its statistics read one board per board of the game.

    >>> flop = Street("flop", board_cards=3)
    >>> cannot_run([flop, Street("turn", board_cards=1)], 0, 1) is None
    True
    >>> cannot_run([flop, Street("7th", hole_cards=1)], 0, 1)
    'the 7th deals hole cards: only board cards can be run again'
    >>> cannot_run([flop], 0, 2)
    'a game of 2 boards is run once'
    """
    if boards > 1:
        return f"a game of {boards} boards is run once"
    for street in streets[first:]:
        if street.hole_cards or street.draw:
            what = "draws" if street.draw else "deals hole cards"
            return f"the {street.name} {what}: only board cards can be run again"
    return None


def combined(results: Sequence[ShowdownResult], boards: int) -> ShowdownResult:
    """One result of the runs' results: chips and share winnings summed, each seat's hand as the
    first run shows it, the runs' boards (``board_won``, survivors) numbered run after run."""
    n = len(results[0].won)
    won = tuple(sum(r.won[seat] for r in results) for seat in range(n))
    surviving = tuple(run * boards + b for run, r in enumerate(results) for b in r.surviving_boards)
    outcomes = tuple(_seat_outcome([r.outcomes[seat] for r in results]) for seat in range(n))
    return ShowdownResult(won, outcomes, surviving, any(r.split for r in results))


def _seat_outcome(per_run: list[SeatOutcome]) -> SeatOutcome:
    first = per_run[0]
    board_won = tuple(chips for outcome in per_run for chips in outcome.board_won)
    return replace(
        first,
        won_high=sum(o.won_high for o in per_run),
        won_low=sum(o.won_low for o in per_run),
        board_won=board_won,
        triple_scoop=all(o.triple_scoop for o in per_run),
    )
