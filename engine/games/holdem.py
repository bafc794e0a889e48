"""Hold'em, the reference game: no-limit (NT), pot-limit (PT) and fixed-limit (FT)."""

from __future__ import annotations

from engine.cards import STANDARD
from engine.evaluate import HIGH_CATEGORIES, evaluate_high, high_category
from engine.games.base import (
    GameSpec,
    ShowdownInput,
    ShowdownResult,
    Street,
    Structure,
)
from engine.games.showdown import best_hand_takes_each_pot, seat_rows

STREETS = (
    Street("preflop", hole_cards=2),
    Street("flop", board_cards=3, burns=1),
    Street("turn", board_cards=1, burns=1, big_bet=True),
    Street("river", board_cards=1, burns=1, big_bet=True),
)


def high_strengths(
    seats: list[int] | frozenset[int],
    hole_cards: tuple[tuple[int, ...], ...],
    board: tuple[int, ...],
) -> dict[int, int]:
    """Best five-card standard hand of each seat from its hole cards and one board."""
    seats = sorted(seats)
    if not seats:
        return {}
    rows = seat_rows(seats, hole_cards, board)
    return dict(zip(seats, evaluate_high(rows).tolist(), strict=True))


def showdown(hand: ShowdownInput) -> ShowdownResult:
    """Each pot to the best hand among its eligible seats; ties split it."""
    strengths = high_strengths(hand.contenders, hand.hole_cards, hand.boards[0])
    won, outcomes, split = best_hand_takes_each_pot(
        hand, strengths, lambda strength: HIGH_CATEGORIES[int(high_category(strength))]
    )
    return ShowdownResult(tuple(won), outcomes, (0,), split)


SPEC = GameSpec(
    name="holdem",
    title="Hold'em",
    deck=STANDARD,
    min_players=2,
    max_players=10,
    streets=STREETS,
    board_names=("board",),
    variant_codes={
        "NT": Structure.NO_LIMIT,
        "PT": Structure.POT_LIMIT,
        "FT": Structure.FIXED_LIMIT,
    },
    showdown=showdown,
)
