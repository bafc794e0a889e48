"""Cry Me A River Hold'em: hold'em on three boards; the lowest river card(s) kill boards.

Each surviving board takes an equal share of every pot (odd chips between
shares to the highest surviving board); the best hand on a board wins its share.
"""

from __future__ import annotations

from engine.cards import STANDARD
from engine.evaluate import HIGH_CATEGORIES, high_category
from engine.games.base import (
    GameSpec,
    SeatOutcome,
    ShowdownInput,
    ShowdownResult,
    Street,
    Structure,
)
from engine.games.holdem import high_strengths
from engine.games.showdown import award, best_seats
from engine.pots import split_chips

BOARDS = ("top", "middle", "bottom")

STREETS = (
    Street("preflop", hole_cards=2),
    Street("flop", board_cards=3, burns=1),
    Street("turn", board_cards=1, burns=1, big_bet=True),
    Street("river", board_cards=1, burns=1, big_bet=True),
)


def surviving_boards(river_cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Indices of the boards that survive, from the three river cards.

    The boards whose river card has the lowest rank die; if all three ranks are
    equal, only the board whose river card has the highest suit survives.

    >>> from engine.cards import parse_cards
    >>> surviving_boards(parse_cards("2cKd9h").tolist())
    (1, 2)
    >>> surviving_boards(parse_cards("2c2dAh").tolist())
    (2,)
    >>> surviving_boards(parse_cards("7s7c7h").tolist())
    (0,)
    """
    ranks = [card >> 2 for card in river_cards]
    if len(set(ranks)) == 1:
        return (max(range(len(river_cards)), key=lambda b: river_cards[b] & 3),)
    lowest = min(ranks)
    return tuple(b for b, rank in enumerate(ranks) if rank > lowest)


def showdown(hand: ShowdownInput) -> ShowdownResult:
    """Split every pot among the surviving boards, each share to that board's best hand."""
    n = len(hand.hole_cards)
    survivors = surviving_boards([board[-1] for board in hand.boards])
    strengths = [high_strengths(hand.contenders, hand.hole_cards, board) for board in hand.boards]
    won = [0] * n
    split = False
    board_won = [[0] * len(BOARDS) for _ in range(n)]
    for pot in hand.pots:
        seats = list(pot.eligible)  # the pot's claimants (engine.pots.claimants)
        shares = split_chips(pot.amount, list(range(len(survivors))))  # top-most first
        for board, share in zip(survivors, shares, strict=True):
            live = [s for s in seats if s in strengths[board]]
            winners = best_seats(strengths[board], live) if live else seats
            split |= bool(live) and len(winners) > 1
            for seat, chips in award(share, winners, won).items():
                board_won[seat][board] += chips
    triple = None
    live = sorted(hand.contenders)
    if len(live) > 1:
        bests = [best_seats(strengths[b], live) for b in range(len(BOARDS))]
        if all(len(best) == 1 for best in bests) and len({best[0] for best in bests}) == 1:
            triple = bests[0][0]
    outcomes = []
    for seat in range(n):
        if seat in hand.contenders:
            best = max(strengths[b][seat] for b in survivors)
            outcomes.append(
                SeatOutcome(
                    high_category=HIGH_CATEGORIES[int(high_category(best))],
                    high_strength=best,
                    board_won=tuple(board_won[seat]),
                    triple_scoop=triple == seat,
                )
            )
        else:
            outcomes.append(SeatOutcome(board_won=tuple(board_won[seat])))
    return ShowdownResult(tuple(won), tuple(outcomes), survivors, split)


SPEC = GameSpec(
    name="cry-me-a-river",
    title="Cry Me A River Hold'em",
    deck=STANDARD,
    min_players=2,
    max_players=10,
    streets=STREETS,
    board_names=BOARDS,
    variant_codes={
        "NCMR": Structure.NO_LIMIT,
        "PCMR": Structure.POT_LIMIT,
        "FCMR": Structure.FIXED_LIMIT,
    },
    showdown=showdown,
)
