"""Scarney: six hole cards, a Top Board for high and a Bottom Board that forces cards out.

The pot splits in two halves, the odd chip to the high half: the best
five-card hand from the remaining hole cards and the Top Board, and the lowest
total of remaining hole-card points (A = 1, T/J/Q/K = 10).
"""

from __future__ import annotations

import numpy as np

from engine.cards import STANDARD
from engine.evaluate import HIGH_CATEGORIES, evaluate_high_using_hole, high_category, low_points
from engine.games.base import (
    GameSpec,
    RuleOption,
    SeatOutcome,
    ShowdownInput,
    ShowdownResult,
    Street,
    Structure,
)
from engine.games.holdem import high_strengths
from engine.games.showdown import award, best_seats, seat_rows

TOP, BOTTOM = 0, 1

STREETS = (
    Street("preflop", hole_cards=6),
    Street("flop", board_cards=3, burns=1),
    Street("turn", board_cards=1, burns=1, big_bet=True),
    Street("river", board_cards=1, burns=1, big_bet=True),
)


def forced_out(hole: list[int] | tuple[int, ...], bottom_cards: list[int] | tuple[int, ...]) -> list[int]:
    """Hole cards whose rank matches a Bottom Board card (unknown cards never match).

    >>> from engine.cards import parse_cards
    >>> forced_out(parse_cards("7c7hAs").tolist(), parse_cards("7d2c").tolist())
    [20, 22]
    """
    ranks = {card >> 2 for card in bottom_cards if card >= 0}
    return [card for card in hole if card >= 0 and card >> 2 in ranks]


def _must_use_strengths(seats: list[int], hole: np.ndarray, hand: ShowdownInput) -> dict[int, int]:
    board = np.tile(np.array(hand.boards[TOP], dtype=np.int8), (len(seats), 1))
    return dict(zip(seats, evaluate_high_using_hole(hole, board).tolist(), strict=True))


def showdown(hand: ShowdownInput) -> ShowdownResult:
    """Each pot: high half (odd chip) to the best high hand, low half to the fewest points."""
    n = len(hand.hole_cards)
    seats = sorted(s for s in hand.contenders if hand.hole_cards[s])
    hole = seat_rows(seats, hand.hole_cards)
    if not seats:
        high: dict[int, int] = {}
    elif hand.options.get("must_use_hole_card", False):
        high = _must_use_strengths(seats, hole, hand)
    else:
        high = high_strengths(seats, hand.hole_cards, hand.boards[TOP])
    points = dict(zip(seats, low_points(hole).tolist(), strict=True)) if seats else {}
    won, won_high, won_low = [0] * n, [0] * n, [0] * n
    split = False
    for pot in hand.pots:
        eligible = list(pot.eligible)  # the pot's claimants (engine.pots.claimants)
        live = [s for s in eligible if s in high]
        if not live:
            award(pot.amount, eligible, won)
            continue
        low_half = pot.amount // 2
        high_winners, low_winners = best_seats(high, live), best_seats(points, live, lowest=True)
        split |= len(high_winners) > 1 or len(low_winners) > 1
        for seat, chips in award(pot.amount - low_half, high_winners, won).items():
            won_high[seat] += chips
        for seat, chips in award(low_half, low_winners, won).items():
            won_low[seat] += chips
    outcomes = tuple(
        SeatOutcome(
            high_category=HIGH_CATEGORIES[int(high_category(high[s]))],
            high_strength=high[s],
            low_points=points[s],
            won_high=won_high[s],
            won_low=won_low[s],
        )
        if s in high
        else SeatOutcome(won_high=won_high[s], won_low=won_low[s])
        for s in range(n)
    )
    return ShowdownResult(tuple(won), outcomes, (TOP, BOTTOM), split)


SPEC = GameSpec(
    name="scarney",
    title="Scarney",
    deck=STANDARD,
    min_players=2,
    max_players=6,
    streets=STREETS,
    board_names=("top", "bottom"),
    variant_codes={
        "NSCR": Structure.NO_LIMIT,
        "PSCR": Structure.POT_LIMIT,
        "FSCR": Structure.FIXED_LIMIT,
    },
    showdown=showdown,
    options=(
        RuleOption("burns", False, (False, True), "burn one card before each street's boards"),
        RuleOption(
            "must_use_hole_card",
            False,
            (False, True),
            "the high hand must use at least one remaining hole card",
        ),
    ),
    burns_option="burns",
    discard_board=BOTTOM,
)
