"""Skœjarth: 28 cards, three private fan cards, four community cards, its own ranking.

Everyone antes; seat 0 (left of the dealer) posts the starting bet, which the
others call or fold; then trunk (2 cards), flower (1) and fruit (1), each with
a betting round of one bet and at most ``raises_per_round`` raises.
"""

from __future__ import annotations

from engine.cards import SKOEJARTH
from engine.evaluate import SKOEJARTH_CATEGORIES, evaluate_skoejarth, skoejarth_category
from engine.games.base import (
    GameSpec,
    RaiseRule,
    RuleOption,
    ShowdownInput,
    ShowdownResult,
    Street,
    Structure,
)
from engine.games.showdown import best_hand_takes_each_pot, seat_rows

STREETS = (
    Street("fan", hole_cards=3, call_only=True),
    Street("trunk", board_cards=2),
    Street("flower", board_cards=1),
    Street("fruit", board_cards=1),
)


def showdown(hand: ShowdownInput) -> ShowdownResult:
    """Each pot to the best Skœjarth hand; ties (under the tiebreak option) split it."""
    seats = sorted(hand.contenders)
    strengths: dict[int, int] = {}
    if seats:
        rows = seat_rows(seats, hand.hole_cards, hand.boards[0])
        values = evaluate_skoejarth(rows, hand.options.get("tiebreak", "highest_card"))
        strengths = dict(zip(seats, values.tolist(), strict=True))
    won, outcomes, split = best_hand_takes_each_pot(
        hand, strengths, lambda strength: SKOEJARTH_CATEGORIES[int(skoejarth_category(strength))]
    )
    return ShowdownResult(tuple(won), outcomes, (0,), split)


SPEC = GameSpec(
    name="skoejarth",
    title="Skœjarth",
    deck=SKOEJARTH,
    min_players=2,
    max_players=8,
    streets=STREETS,
    board_names=("community",),
    variant_codes={"NSKJ": Structure.NO_LIMIT},
    showdown=showdown,
    options=(
        RuleOption(
            "raises_per_round",
            1,
            tuple(range(11)),
            "raises allowed after the one bet of a betting round",
        ),
        RuleOption(
            "tiebreak",
            "highest_card",
            ("highest_card", "kickers"),
            "highest_card: only the top card breaks a tie; kickers: category cards, then the rest",
        ),
    ),
    raise_rule=RaiseRule.DOUBLE,
    max_raises_option="raises_per_round",
    starting_bet=True,
    extra_fields=("_starting_bet",),
)
