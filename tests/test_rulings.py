"""Hand-written hands that check each ruling of RULINGS.md, chip for chip.

Every expected amount below was worked out by hand from the rulings, not from the
engine; the arithmetic is in the comments. Seats are 0-based in Python and p1, p2...
in PHH. With 3+ players p1 is left of the button (the last seat); heads-up with
``blinds_or_straddles = [1, 2]`` p2 (the button) posts 1 and acts first before the
flop, p1 posts 2 and acts first after it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.hands.cards import format_cards
from ingest.histories.replay import HandError, apply_action, build_state, replay

# -- hand builders ---------------------------------------------------------------------------


def scarney(stacks: list[int], actions: list[str], **extra: Any) -> dict[str, Any]:
    n = len(stacks)
    fields: dict[str, Any] = {
        "variant": "NSCR",
        "antes": [0] * n,
        "blinds_or_straddles": [1, 2] if n == 2 else [1, 2] + [0] * (n - 2),
        "min_bet": 2,
        "starting_stacks": stacks,
        "actions": actions,
    }
    fields.update(extra)
    return fields


def cmr(stacks: list[int], actions: list[str]) -> dict[str, Any]:
    n = len(stacks)
    return {
        "variant": "NCMR",
        "antes": [0] * n,
        "blinds_or_straddles": [1, 2] if n == 2 else [1, 2] + [0] * (n - 2),
        "min_bet": 2,
        "starting_stacks": stacks,
        "actions": actions,
    }


def skoejarth(actions: list[str], **extra: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "variant": "NSKJ",
        "antes": [1, 1, 1],
        "_starting_bet": 2,
        "starting_stacks": [50, 50, 50],
        "actions": actions,
    }
    fields.update(extra)
    return fields


def holdem(stacks: list[int], actions: list[str]) -> dict[str, Any]:
    n = len(stacks)
    return {
        "variant": "NT",
        "antes": [0] * n,
        "blinds_or_straddles": [1, 2] + [0] * (n - 2),
        "min_bet": 2,
        "starting_stacks": stacks,
        "actions": actions,
    }


def checks(*seats: str) -> list[str]:
    return [f"{seat} cc" for seat in seats]


# -- Scarney ---------------------------------------------------------------------------------


def test_scarney_side_pot_with_a_dead_hand():
    # Four players, p4 is the button. Everyone is all in before the flop:
    # contributions p1 20, p2 100, p3 100, p4 100 (total 320).
    # Main pot 4 x 20 = 80 (p1..p4), side pot 3 x 80 = 240 (p2, p3, p4).
    # p2 loses all six hole cards to the Bottom Board flop (7s 8s) and is dead: his
    # chips stay in both pots, and he can win neither.
    # Bottom Board ranks 7, 8, 9: nobody else holds one.
    # High (Top Board Ks Kd Qh Jc 3s): p3 Kh Kc -> four kings; p1 a 6-high straight;
    #   p4 aces and kings. p3 is best.
    # Low: p1 A+2+3+4+5+6 = 21, p4 1+1+5+5+6+6 = 24, p3 10*4+10+10 = 60.
    # Main 80: high 40 -> p3, low 40 -> p1 (21).
    # Side 240 (p3, p4 only): high 120 -> p3, low 120 -> p4 (24 < 60).
    # Won: p1 40, p2 0, p3 40 + 120 = 160, p4 120 (sum 320).
    fields = scarney(
        [20, 100, 100, 100],
        [
            "d dh p1 Ac2c3c4d5d6d",
            "d dh p2 7c7d7h8c8d8h",
            "d dh p3 KhKcQcQdTsTd",
            "d dh p4 AsAh5c5h6c6h",
            "p3 cbr 100",
            "p4 cc",
            "p1 cc",
            "p2 cc",
            "d db KsKdQh/7s8s9s",
            "p2 sd 7c7d7h8c8d8h",
            "d db Jc/9d",
            "d db 3s/9h",
            "p1 sm Ac2c3c4d5d6d",
            "p3 sm KhKcQcQdTsTd",
            "p4 sm AsAh5c5h6c6h",
        ],
    )
    hand = replay(fields)
    assert hand.result.ending == "showdown"
    assert hand.state.dead == [False, True, False, False]
    assert hand.state.folded[1]
    assert hand.result.won == [40, 0, 160, 120]
    assert hand.state.stacks == [40, 0, 160, 120]
    outcomes = hand.result.outcomes
    assert [o.won_high for o in outcomes] == [0, 0, 160, 0]
    assert [o.won_low for o in outcomes] == [40, 0, 0, 120]
    assert outcomes[0].low_points == 21
    assert outcomes[3].low_points == 24


def _double_discard_actions() -> list[str]:
    return [
        "d dh p1 5c5hAd2d3d4d",
        "d dh p2 KcKhQcQhJsJh",
        "p2 cc",
        "p1 cc",
        "d db 9d8d7s/5sTcTs",  # the 5s forces out both of p1's fives at once
        "p1 sd 5c5h",
        "p1 cbr 10",
        "p2 cc",
        "d db 2c/5d",  # a second 5 on the Bottom Board: nothing more to discard
        *checks("p1", "p2"),
        "d db 3s/6h",
        *checks("p1", "p2"),
        "p1 sm Ad2d3d4d",
        "p2 sm KcKhQcQhJsJh",
    ]


def test_scarney_double_forced_discard_and_repeated_rank_forces_nothing():
    actions = _double_discard_actions()
    state, _, _ = build_state(scarney([100, 100], actions))
    for text in actions[:5]:  # up to the flop deal
        apply_action(state, text)
    forced = state.forced_discards()
    assert {seat: format_cards(cards) for seat, cards in forced.items()} == {0: "5c5h"}
    apply_action(state, "p1 sd 5c5h")
    assert state.forced_discards() == {}
    assert format_cards(state.discarded[0]) == "5c5h"
    for text in actions[6:9]:  # the flop betting and the turn deal (Bottom Board 5d)
        apply_action(state, text)
    assert format_cards(state.boards[1]) == "5sTcTs5d"
    assert state.forced_discards() == {}
    assert format_cards(state.hole[0]) == "Ad2d3d4d"

    # The whole hand: pot 2 + 2 + 10 + 10 = 24, high 12, low 12.
    # High (Top 9d 8d 7s 2c 3s): p1 Ad 4d 3d + 9d 8d -> diamond flush; p2 KK QQ J two pair.
    # Low: p1 1+2+3+4 = 10 (the fives are gone), p2 60. p1 wins both halves: 24.
    # p1 100 - 12 + 24 = 112, p2 100 - 12 = 88.
    hand = replay(scarney([100, 100], actions))
    assert hand.result.ending == "showdown"
    assert hand.result.won == [24, 0]
    assert hand.state.stacks == [112, 88]
    assert hand.state.dead == [False, False]
    assert not any(hand.state.voided)
    assert hand.result.outcomes[0].low_points == 10


def test_scarney_everyone_dead_at_once_splits_the_pot():
    # Preflop: p3 raises to 6, p1 and p2 call (18). Flop: p1 bets 10, p2 calls, p3 folds
    # (18 + 20 = 38). Bottom Board 2s 3h 4h / 5h / 6s takes every hole card of p1 and p2;
    # the river 6s takes the last ones of both at once: everyone still in is dead.
    # 38 split equally between p1 and p2: 19 each.
    # p1 100 - 16 + 19 = 103, p2 103, p3 100 - 6 = 94.
    fields = scarney(
        [100, 100, 100],
        [
            "d dh p1 2c2d3c5c6c6d",
            "d dh p2 2h3d4c4d5d6h",
            "d dh p3 AcAdKcKdQcQd",
            "p3 cbr 6",
            "p1 cc",
            "p2 cc",
            "d db 9c9dTh/2s3h4h",
            "p1 sd 2c2d3c",
            "p2 sd 2h3d4c4d",
            "p1 cbr 10",
            "p2 cc",
            "p3 f",
            "d db Jh/5h",
            "p1 sd 5c",
            "p2 sd 5d",
            *checks("p1", "p2"),
            "d db 8s/6s",
            "p1 sd 6c6d",
            "p2 sd 6h",
        ],
    )
    hand = replay(fields)
    assert hand.result.ending == "everyone_dead"
    assert hand.state.dead == [True, True, False]
    assert hand.result.won == [19, 19, 0]
    assert hand.state.stacks == [103, 103, 94]


def test_scarney_voided_hand_cannot_win():
    # Heads-up: p2 (button) raises to 6, p1 calls: pot 12. The Bottom Board flop 9s forces
    # out p1's 9c, which p1 keeps (no sd): p1's hand is voided.
    # p1 would win both halves: A-5 straight flush in clubs (Ac2c3c4c + 5c) against p2's
    # queens full; low 1+2+3+4+9+10 = 29 against 60. Voided, p1 gets nothing: p2 wins 12.
    # p1 100 - 6 = 94, p2 100 - 6 + 12 = 106.
    fields = scarney(
        [100, 100],
        [
            "d dh p1 Ac2c3c4c9cKc",
            "d dh p2 KhKdQhQdJdJs",
            "p2 cbr 6",
            "p1 cc",
            "d db 5c6dTd/9s7h7s",
            *checks("p1", "p2"),
            "d db Jh/8h",
            *checks("p1", "p2"),
            "d db Qs/8s",
            *checks("p1", "p2"),
            "p1 sm Ac2c3c4c9cKc",
            "p2 sm KhKdQhQdJdJs",
        ],
    )
    hand = replay(fields)
    assert hand.state.voided == [True, False]
    assert any("p1" in note and "voided" in note for note in hand.notes)
    assert hand.result.won == [0, 12]
    assert hand.state.stacks == [94, 106]


MUST_USE_ACTIONS = [
    "d dh p1 8s8h8d7c7d6c",
    "d dh p2 AhAd2c3c4d5d",
    "p2 cc",
    "p1 cc",
    "d db 9sTsJs/9c9dTc",
    "p1 cbr 10",
    "p2 cc",
    "d db Qs/Td",
    *checks("p1", "p2"),
    "d db Ks/Jc",
    *checks("p1", "p2"),
    "p1 sm 8s8h8d7c7d6c",
    "p2 sm AhAd2c3c4d5d",
]


def test_scarney_must_use_hole_card_changes_the_high_winner():
    # Pot 2 + 2 + 10 + 10 = 24: high 12, low 12. The Top Board is a K-high straight flush
    # in spades (9s Ts Js Qs Ks). Low: p1 8+8+8+7+7+6 = 44, p2 1+1+2+3+4+5 = 16 -> p2 12.
    # Default: both play the board for high -> tie, 6 each.
    #   p1 100 - 12 + 6 = 94, p2 100 - 12 + 6 + 12 = 106.
    # must_use_hole_card: p1 8s + 9s-Qs = Q-high straight flush; p2 at best Ah + K-Q-J-T,
    #   an A-high straight. p1 takes the high 12: p1 100, p2 100.
    default = replay(scarney([100, 100], MUST_USE_ACTIONS))
    assert default.result.won == [6, 18]
    assert [o.won_high for o in default.result.outcomes] == [6, 6]
    assert [o.won_low for o in default.result.outcomes] == [0, 12]
    assert default.state.stacks == [94, 106]

    must_use = replay(scarney([100, 100], MUST_USE_ACTIONS, _options={"must_use_hole_card": True}))
    assert must_use.result.won == [12, 12]
    assert [o.won_high for o in must_use.result.outcomes] == [12, 0]
    assert [o.won_low for o in must_use.result.outcomes] == [0, 12]
    assert must_use.state.stacks == [100, 100]


def test_scarney_odd_chip_to_high_half_and_tied_low_split():
    # p3 raises to 5, p1 and p2 call: pot 15; checked down. High half 8 (the odd chip
    # between the halves), low half 7.
    # High (Top Kh Qh 9s 8h 7d): p1 Kc Ks Qc Qs -> kings full of queens; p2 and p3 a
    #   6-high straight. p1 takes 8.
    # Low: p2 1+2+3+4+5+6 = 21, p3 21 (tie), p1 60. 7 split between p2 and p3: the odd
    #   chip goes clockwise from the button (p3), so p2 (seat 1) gets 4 and p3 gets 3.
    # p1 100 - 5 + 8 = 103, p2 100 - 5 + 4 = 99, p3 100 - 5 + 3 = 98.
    fields = scarney(
        [100, 100, 100],
        [
            "d dh p1 KcKsQcQsJcJs",
            "d dh p2 Ac2d3c4d5c6d",
            "d dh p3 Ad2c3d4c5d6c",
            "p3 cbr 5",
            "p1 cc",
            "p2 cc",
            "d db KhQh9s/TcTdTh",
            *checks("p1", "p2", "p3"),
            "d db 8h/Ts",
            *checks("p1", "p2", "p3"),
            "d db 7d/9c",
            *checks("p1", "p2", "p3"),
            "p1 sm KcKsQcQsJcJs",
            "p2 sm Ac2d3c4d5c6d",
            "p3 sm Ad2c3d4c5d6c",
        ],
    )
    hand = replay(fields)
    outcomes = hand.result.outcomes
    assert [o.won_high for o in outcomes] == [8, 0, 0]
    assert [o.won_low for o in outcomes] == [0, 4, 3]
    assert [o.low_points for o in outcomes] == [60, 21, 21]
    assert hand.result.won == [8, 4, 3]
    assert hand.state.stacks == [103, 99, 98]


# -- Cry Me A River ---------------------------------------------------------------------------

ONE_BOARD_KILLED = [
    "d dh p1 AcAs",
    "d dh p2 Ks5h",
    "d dh p3 2d7c",
    "p3 f",
    "p1 cc",
    "p2 cc",
    "d db KcKd7h/QhJh4s/Tc6s3h",
    "p1 cbr 10",
    "p2 cc",
    "d db 8c/5d/3d",
    *checks("p1", "p2"),
    "d db 2c/9d/Jd",  # rivers 2, 9, J: the top board dies
    *checks("p1", "p2"),
    "p1 sm AcAs",
    "p2 sm Ks5h",
]


def test_cmr_one_board_killed_two_shares():
    # Pot 2 + 2 + 10 + 10 = 24. Rivers 2c / 9d / Jd: the top board (2) dies; the middle
    # and bottom boards take 12 each.
    # Top (dead): p2 trip kings beats p1 aces and kings. Middle: p1 aces vs p2 fives.
    # Bottom: p1 aces and threes vs p2 threes. p1 takes both shares: 24.
    # (Were the top board alive, p2 would take 8 of it.)
    # p1 100 - 12 + 24 = 112, p2 88, p3 100.
    hand = replay(cmr([100, 100, 100], ONE_BOARD_KILLED))
    assert hand.result.surviving_boards == (1, 2)
    assert hand.result.won == [24, 0, 0]
    assert hand.result.outcomes[0].board_won == (0, 12, 12)
    assert hand.state.stacks == [112, 88, 100]


def test_cmr_two_river_cards_share_the_lowest_rank():
    # Heads-up: p2 raises to 6, p1 calls: pot 12. Rivers 5c / Qd / 5h: top and bottom
    # die, the middle survives alone and takes the whole pot.
    # Middle (9c Tc 2s 3s Qd): p2 Qc pairs queens, p1 only A-K high -> p2 takes 12.
    # (p1 is best on both dead boards: trip aces on top, kings on the bottom.)
    # p1 100 - 6 = 94, p2 100 - 6 + 12 = 106.
    fields = cmr(
        [100, 100],
        [
            "d dh p1 AsKs",
            "d dh p2 QcJc",
            "p2 cbr 6",
            "p1 cc",
            "d db AcAd7h/9cTc2s/KhJd4c",
            *checks("p1", "p2"),
            "d db 8h/3s/6d",
            *checks("p1", "p2"),
            "d db 5c/Qd/5h",
            *checks("p1", "p2"),
            "p1 sm AsKs",
            "p2 sm QcJc",
        ],
    )
    hand = replay(fields)
    assert hand.result.surviving_boards == (1,)
    assert hand.result.won == [0, 12]
    assert hand.state.stacks == [94, 106]


def test_cmr_three_river_cards_of_one_rank_highest_suit_survives():
    # Heads-up, pot 12. Rivers 7c / 7h / 7d: one rank, so only the board whose river card
    # has the highest suit survives: hearts (clubs < diamonds < hearts), the middle board.
    # Middle (2d 5s Th Jc 7h): p1 Tc Td -> trip tens; p2 As Ah -> aces. p1 takes 12.
    # (p2 is best on the dead top and bottom boards.)
    # p1 100 - 6 + 12 = 106, p2 94.
    fields = cmr(
        [100, 100],
        [
            "d dh p1 TcTd",
            "d dh p2 AsAh",
            "p2 cbr 6",
            "p1 cc",
            "d db AcKd9s/2d5sTh/3c6hQs",
            *checks("p1", "p2"),
            "d db 4h/Jc/8d",
            *checks("p1", "p2"),
            "d db 7c/7h/7d",
            *checks("p1", "p2"),
            "p1 sm TcTd",
            "p2 sm AsAh",
        ],
    )
    hand = replay(fields)
    assert hand.result.surviving_boards == (1,)
    assert hand.result.won == [12, 0]
    assert hand.state.stacks == [106, 94]


def test_cmr_odd_chip_between_shares_to_highest_surviving_board():
    # p3 raises to 5, p1 and p2 call: pot 15; checked down. Rivers 2h / 9c / Qs: the top
    # dies. Two shares of 15: the odd chip goes to the highest surviving board, the
    # middle: middle 8, bottom 7.
    # Middle (Jh Td 5c 3s 9c): p3 Jc Js -> trip jacks wins 8.
    # Bottom (6d 6c Ks 7h Qs): p1 6h 6s -> four sixes wins 7.
    # p1 100 - 5 + 7 = 102, p2 95, p3 100 - 5 + 8 = 103.
    fields = cmr(
        [100, 100, 100],
        [
            "d dh p1 6h6s",
            "d dh p2 4d3d",
            "d dh p3 JcJs",
            "p3 cbr 5",
            "p1 cc",
            "p2 cc",
            "d db KcQd8s/JhTd5c/6d6cKs",
            *checks("p1", "p2", "p3"),
            "d db 4c/3s/7h",
            *checks("p1", "p2", "p3"),
            "d db 2h/9c/Qs",
            *checks("p1", "p2", "p3"),
            "p1 sm 6h6s",
            "p2 sm 4d3d",
            "p3 sm JcJs",
        ],
    )
    hand = replay(fields)
    assert hand.result.surviving_boards == (1, 2)
    assert hand.result.won == [7, 0, 8]
    assert hand.result.outcomes[2].board_won == (0, 8, 0)
    assert hand.result.outcomes[0].board_won == (0, 0, 7)
    assert hand.state.stacks == [102, 95, 103]


def test_cmr_odd_chip_within_a_share_goes_clockwise_from_the_button():
    # p3 (the button) raises to 5, p1 and p2 call: pot 15; checked down. Rivers 3h / 3c /
    # 8s: top and middle die, the bottom takes all 15.
    # Bottom (Kd Qd Jc 9h 8s): p1 Ah and p3 As both play A-K-Q-J-9: a tie; p2 (5h 3d,
    # king high) loses. 15 split between p1 and p3: the odd chip goes clockwise from the button p3,
    # so to p1 first: p1 8, p3 7.
    # p1 100 - 5 + 8 = 103, p2 95, p3 100 - 5 + 7 = 102.
    fields = cmr(
        [100, 100, 100],
        [
            "d dh p1 Ah4c",
            "d dh p2 5h3d",
            "d dh p3 As4d",
            "p3 cbr 5",
            "p1 cc",
            "p2 cc",
            "d db 2c6h7d/2d6c9d/KdQdJc",
            *checks("p1", "p2", "p3"),
            "d db Tc/Th/9h",
            *checks("p1", "p2", "p3"),
            "d db 3h/3c/8s",
            *checks("p1", "p2", "p3"),
            "p1 sm Ah4c",
            "p2 sm 5h3d",
            "p3 sm As4d",
        ],
    )
    hand = replay(fields)
    assert hand.result.surviving_boards == (2,)
    assert hand.result.won == [8, 0, 7]
    assert hand.state.stacks == [103, 95, 102]


def test_cmr_triple_scoop_versus_plain_scoop():
    # Heads-up, pot 12. Rivers 3c / Jd / 9s: the top dies; middle and bottom 6 each.
    # p1 Ah Ad pairs aces on every board; p2 Ks Qs makes kings on top, queens in the middle,
    # king high on the bottom. p1 is alone best on all three boards, the dead top included:
    # a triple scoop, and p1 takes 12. p1 106, p2 94.
    fields = cmr(
        [100, 100],
        [
            "d dh p1 AhAd",
            "d dh p2 KsQs",
            "p2 cbr 6",
            "p1 cc",
            "d db Kc8d4s/Qh9c5d/Tc7h2d",
            *checks("p1", "p2"),
            "d db 2h/6s/8s",
            *checks("p1", "p2"),
            "d db 3c/Jd/9s",
            *checks("p1", "p2"),
            "p1 sm AhAd",
            "p2 sm KsQs",
        ],
    )
    hand = replay(fields)
    assert hand.result.surviving_boards == (1, 2)
    assert hand.result.won == [12, 0]
    assert hand.result.outcomes[0].board_won == (0, 6, 6)
    assert hand.result.outcomes[0].triple_scoop
    assert not hand.result.outcomes[1].triple_scoop
    assert hand.state.stacks == [106, 94]

    # Plain scoop: in ONE_BOARD_KILLED p1 wins every surviving share, but p2 is best on the
    # dead top board, so no triple scoop for anyone.
    plain = replay(cmr([100, 100, 100], ONE_BOARD_KILLED))
    assert plain.result.won == [24, 0, 0]
    assert not any(o.triple_scoop for o in plain.result.outcomes)


# -- Skœjarth -------------------------------------------------------------------------------

RAISE_CAP_START = [
    "d dh p1 Kb1c2o",
    "d dh p2 3b3c4o",
    "d dh p3 5s6sKc",
    "p2 cc",
    "p3 cc",
    "d db 1b2b",
    "p1 cc",
    "p2 cbr 4",
    "p3 cbr 8",
    "p1 cbr 16",
]


def test_skoejarth_raise_cap_default_and_option():
    # Default: one bet (p2 to 4) and one raise (p3 to 8); p1's re-raise breaks the cap.
    with pytest.raises(HandError, match=r"action 10 'p1 cbr 16'"):
        replay(skoejarth(RAISE_CAP_START))

    # raises_per_round = 2: the re-raise to 16 (at least double 8) is allowed.
    # Antes 3, fan 2 x 3 = 6, trunk 16 x 3 = 48: pot 57.
    # Community 1b 2b 3s 4s. p1 Twins (1s and 2s), p2 Threefold (3s full of 4s),
    # p3 Stairs 3-4-5-6-K. p3 wins 57.
    # p1 50 - 1 - 2 - 16 = 31, p2 31, p3 31 + 57 = 88.
    actions = [*RAISE_CAP_START, "p2 cc", "p3 cc", "d db 3s", *checks("p1", "p2", "p3")]
    actions += ["d db 4s", *checks("p1", "p2", "p3")]
    actions += ["p1 sm Kb1c2o", "p2 sm 3b3c4o", "p3 sm 5s6sKc"]
    hand = replay(skoejarth(actions, _options={"raises_per_round": 2}))
    assert hand.result.won == [0, 0, 57]
    assert hand.state.stacks == [31, 31, 88]
    # With two raises allowed, a third is still refused.
    with pytest.raises(HandError, match=r"'p2 cbr 32'"):
        replay(skoejarth([*RAISE_CAP_START, "p2 cbr 32"], _options={"raises_per_round": 2}))


def test_skoejarth_no_raise_in_the_fan_round():
    base = ["d dh p1 Kb1c2o", "d dh p2 3b3c4o", "d dh p3 5s6sKc"]
    with pytest.raises(HandError, match=r"action 4 'p2 cbr 4'"):
        replay(skoejarth([*base, "p2 cbr 4"]))
    with pytest.raises(HandError, match=r"'p3 cbr 6'"):
        replay(skoejarth([*base, "p2 cc", "p3 cbr 6"]))


TIEBREAK_ACTIONS = [
    "d dh p1 2c2s6b",
    "d dh p2 1b1o4c",
    "d dh p3 3b4b5b",
    "p2 cc",
    "p3 f",
    "d db Kb1c",
    *checks("p1", "p2"),
    "d db 2o",
    *checks("p1", "p2"),
    "d db 5s",
    *checks("p1", "p2"),
    "p1 sm 2c2s6b",
    "p2 sm 1b1o4c",
]


def test_skoejarth_tiebreak_highest_card_splits_kickers_decides():
    # Community Kb 1c 2o 5s. p1 2c 2s 6b: 2-2-2 + K 6 (ranks 1 2 5 6 K: no Stairs; no four
    # of a suit) -> Threefold, top card K. p2 1b 1o 4c: 1-1-1 + K 5 (ranks 1 2 4 5 K) ->
    # Threefold, top card K. Pot: antes 3 + 2 + 2 = 7 (p3 folded the fan).
    # highest_card: same category, same top card K -> split 7: the odd chip clockwise from
    #   the button (p3) -> p1 4, p2 3. p1 50 - 3 + 4 = 51, p2 50, p3 49.
    # kickers: trips of 2 beat trips of 1 -> p1 takes 7: p1 54, p2 47, p3 49.
    default = replay(skoejarth(TIEBREAK_ACTIONS))
    assert default.result.outcomes[0].high_category == default.result.outcomes[1].high_category
    assert default.result.won == [4, 3, 0]
    assert default.state.stacks == [51, 50, 49]

    kickers = replay(skoejarth(TIEBREAK_ACTIONS, _options={"tiebreak": "kickers"}))
    assert kickers.result.won == [7, 0, 0]
    assert kickers.state.stacks == [54, 47, 49]


# -- Hold'em -------------------------------------------------------------------------------

HOLES = ["d dh p1 AsAd", "d dh p2 2c7d", "d dh p3 KcQd", "d dh p4 9h9s"]
BOARD = ["d db 2h5cJd", "d db 3s", "d db 8c"]


def test_holdem_short_all_in_does_not_reopen_betting():
    # p3 raises to 6 (a raise of 4); p4 goes all in to 8, a raise of only 2: not a full
    # raise. p1 and p2 call; p3 has already acted and may not raise again.
    start = [*HOLES, "p3 cbr 6", "p4 cbr 8", "p1 cc", "p2 cc"]
    with pytest.raises(HandError) as error:
        replay(holdem([100, 100, 100, 8], [*start, "p3 cbr 20"]))
    assert "not reopened" in str(error.value)
    assert "p3 cbr 20" in str(error.value)

    # p3 may call: pot 4 x 8 = 32, checked down; p1's aces beat everyone.
    # p1 100 - 8 + 32 = 124, p2 92, p3 92, p4 0.
    rest = [*start, "p3 cc"]
    for street in BOARD:
        rest += [street, *checks("p1", "p2", "p3")]
    hand = replay(holdem([100, 100, 100, 8], [*rest, "p1 sm AsAd", "p4 sm 9h9s"]))
    assert hand.state.stacks == [124, 92, 92, 0]

    # p1 has not acted yet, so p1 may raise (to 20, at least 8 + 4). p2 and p3 fold; 12
    # of p1's 20 are uncalled and come back. Pot 8 + 2 + 6 + 8 = 24 to p1's aces.
    # p1 100 - 8 + 24 = 116, p2 98, p3 94, p4 0.
    actions = [*HOLES, "p3 cbr 6", "p4 cbr 8", "p1 cbr 20", "p2 f", "p3 f", *BOARD]
    hand = replay(holdem([100, 100, 100, 8], [*actions, "p1 sm AsAd", "p4 sm 9h9s"]))
    assert hand.state.stacks == [116, 98, 94, 0]


@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        (["p3 cbr 3"], "p3 cbr 3: below the minimum raise to 4"),
        (["p3 cc", "p1 cc", "p2 cc", "d db 2h5cJd", "p1 cbr 1"], "p1 cbr 1: below the minimum bet to 2"),
        (["p3 cbr 6", "p1 cbr 9"], "p1 cbr 9: below the minimum raise to 10"),
    ],
)
def test_holdem_illegal_action_message_names_seat_action_and_reason(actions, expected):
    holes = ["d dh p1 AsAd", "d dh p2 2c7d", "d dh p3 KcQd"]
    with pytest.raises(HandError) as error:
        replay(holdem([100, 100, 100], [*holes, *actions]))
    message = str(error.value)
    assert expected in message
    assert "\n" not in message


def test_holdem_out_of_turn_message_names_the_seat():
    holes = ["d dh p1 AsAd", "d dh p2 2c7d", "d dh p3 KcQd"]
    with pytest.raises(HandError) as error:
        replay(holdem([100, 100, 100], [*holes, "p1 cc"]))
    message = str(error.value)
    assert "p1 cc" in message
    assert "p3" in message  # whose turn it is


def test_scarney_dead_player_leaves_one_player_who_wins_uncontested():
    # Heads-up: p2 raises to 6, p1 calls: pot 12. The Bottom Board flop 4s 7s 8d takes all
    # of p2's cards (4c 4d 4h 7c 7d 7h): p2 is dead, p1 alone is left and wins 12 with no
    # showdown. p1 100 - 6 + 12 = 106, p2 94.
    fields = scarney(
        [100, 100],
        [
            "d dh p1 AcKcQcJcTc9c",
            "d dh p2 4c4d4h7c7d7h",
            "p2 cbr 6",
            "p1 cc",
            "d db 2h3h5h/4s7s8d",
            "p2 sd 4c4d4h7c7d7h",
        ],
    )
    hand = replay(fields)
    assert hand.result.ending == "uncontested"
    assert hand.state.dead == [False, True]
    assert hand.result.won == [12, 0]
    assert hand.state.stacks == [106, 94]


# -- decisions where the rulings are silent (docs/rules.md states them) -----------------------


def test_scarney_pot_whose_eligible_players_are_all_voided_goes_to_the_live_hand():
    # p1 all in for 100; p2 and p3 (300 each) both keep a card the Bottom Board forced out.
    # Voided hands cannot win any part of the pot, so their chips play like folded chips:
    # p1 takes all 700 (100 + 300 + 300): stacks 700, 200, 200.
    fields = scarney(
        [100, 500, 500],
        [
            "d dh p1 2d3d4d5d6dAd",
            "d dh p2 7c7d7h8c8d8h",
            "d dh p3 KcKdQcQdJcJd",
            "p3 cbr 10",
            "p1 cbr 100",
            "p2 cbr 300",
            "p3 cc",
            "d db AhKh2c/7s8s9c",  # p2 should discard 7c7d7h8c8d8h and does not
            "p2 cc",
            "p3 cc",
            "d db Th/9h",
            "p2 cc",
            "p3 cc",
            "d db 3c/Ks",  # p3 should discard KcKd and does not
            "p2 cc",
            "p3 cc",
        ],
    )
    replayed = replay(fields)
    assert replayed.state.voided == [False, True, True]
    assert replayed.state.stacks == [700, 200, 200]


def two_short_all_ins(third: str) -> dict[str, Any]:
    n = 5
    return {
        "variant": "NT",
        "antes": [0] * n,
        "blinds_or_straddles": [5, 10, 0, 0, 0],
        "min_bet": 10,
        "starting_stacks": [1000, 1000, 1000, 150, 200],
        "actions": [
            "d dh p1 2c3c",
            "d dh p2 4c5c",
            "d dh p3 6c7c",
            "d dh p4 8c9c",
            "d dh p5 TcJc",
            "p3 cbr 100",  # a full raise of 90
            "p4 cbr 150",  # all in: 50 more, a short raise
            third,
            "p1 f",
            "p2 cc",
            "p3 cbr 400",
        ],
    }


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    # p4 adds 50 and p5 another 50: 100 since p3 acted, at least the full raise of 90 (TDA)
    state, _, _ = build_state(two_short_all_ins("p5 cbr 200"))
    for action in two_short_all_ins("p5 cbr 200")["actions"]:
        apply_action(state, action)
    assert state.bets[2] == 400
    # with p5 folding, only 50 was added since p3 acted: p3 may not raise
    with pytest.raises(HandError, match="not reopened"):
        replay(two_short_all_ins("p5 f"))


def test_a_player_all_in_for_the_ante_plays_for_the_antes():
    # p1 puts in only a 10 ante; p2 and p3 bet 40 each. Antes 30 form a pot all three play for
    # (p1's aces win it), the 80 of live bets only p2 and p3 (p2's kings): 30, 1030, 950.
    fields = holdem([10, 1000, 1000], [
        "d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "p2 cbr 40", "p3 cc",
        "d db AhAs2c", "p2 cc", "p3 cc", "d db 3d", "p2 cc", "p3 cc", "d db 7h", "p2 cc", "p3 cc",
    ])  # fmt: skip
    fields["antes"] = [10, 10, 10]
    fields["blinds_or_straddles"] = [0, 0, 0]
    fields["min_bet"] = 20
    assert replay(fields).state.stacks == [30, 1030, 950]


def test_skoejarth_short_all_in_does_not_use_up_the_raise():
    # trunk: p1 bets 10, p2 is all in for 13 (less than the doubling raise to 20): p3, who has
    # not acted, may still make the one raise of the round.
    fields = skoejarth(["d dh p1 1b2b3b", "d dh p2 4b5b6b", "d dh p3 KbKcKo", "p2 cc", "p3 cc",
                        "d db 1c2c", "p1 cbr 10", "p2 cbr 13", "p3 cbr 40"])  # fmt: skip
    fields["starting_stacks"] = [50, 16, 50]
    state, _, _ = build_state(fields)
    for action in fields["actions"]:
        apply_action(state, action)
    assert state.bets[2] == 40


def test_a_late_forced_discard_voids_the_hand_and_keeps_its_street():
    # the flop's Bottom Board forces out p2's 7c; p2 bets before discarding it: voided.
    fields = scarney([100, 100], [
        "d dh p1 2c3c4c5c6cAd", "d dh p2 7cKdKhQdQhJd", "p2 cc", "p1 cc",
        "d db AhKc2d/7s8s9s", "p1 cc", "p2 cc", "p2 sd 7c",
        "d db Th/9h", "p1 cc", "p2 cc", "d db 3h/Ts", "p1 cc", "p2 cc",
    ])  # fmt: skip
    replayed = replay(fields)
    assert replayed.state.voided == [False, True]
    assert replayed.state.stacks == [102, 98]


def test_discards_after_an_all_in_keep_the_street_that_forced_them():
    fields = scarney([100, 100], [
        "d dh p1 2c3c4c5c6cAd", "d dh p2 7cKdKhQdQhJd", "p2 cbr 100", "p1 cc",
        "d db AhKc2d/7s8s9s", "p2 sd 7c", "d db Th/9h", "d db 3h/Ts",
    ])  # fmt: skip
    state = replay(fields).state
    (discard,) = [a for a in state.actions if a.kind == "discard"]
    assert discard.street == "flop"
