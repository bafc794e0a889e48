"""Fixed-limit reopening (TDA Rule 47) and pots nobody can win, by hand, chip for chip.

RULINGS.md, "All variants": in fixed-limit an all-in of at least half a full bet or raise
reopens the betting for players who already acted (the next raise is a full increment above
it); a pot whose every contributor folded joins the next smaller pot that has a contender;
when every contender of a pot mucks, the last of them to muck keeps it. Every expected stack
below is worked out by hand in the comments. Each legal hand of a game the compiled replay
covers is replayed both ways (it must take the hand and give the state machine's rows); each
illegal one is rejected by the state machine with its reason and handed back by the compiled
replay. Scarney hands (forced discards) replay through the state machine only.

Seats: p1 small blind, p2 big blind, then p3, p4 (p3 acts first before the flop). Cards: p1
AcAd, p2 KcKd, p3 QcQd, p4 JcJd on 2h7s9d Tc 4h, so p1 > p2 > p3 > p4 at every showdown.
"""

from __future__ import annotations

from typing import Any

import pytest

from ingest.histories.fast_replay import prepare, replay_batch
from ingest.histories.phh import parse_hand_text, write_hand
from ingest.histories.replay import HandError, replay
from ingest.histories.rows import hand_id
from tests.test_fast_replay import assert_both_ways_agree

HOLE = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "d dh p4 JcJd"]
FLOP, TURN, RIVER = "d db 2h7s9d", "d db Tc", "d db 4h"


def hand(variant: str, stacks: list[int], actions: list[str], **extra: Any) -> dict[str, Any]:
    n = len(stacks)
    fields: dict[str, Any] = {
        "variant": variant,
        "antes": [0] * n,
        "blinds_or_straddles": [1, 2] + [0] * (n - 2),
        "starting_stacks": stacks,
        "actions": HOLE[:n] + actions,
    }
    if variant.startswith("F"):
        fields.update(small_bet=2, big_bet=4)
    else:
        fields["min_bet"] = 2
    fields.update(extra)
    return fields


def checks(*seats: str) -> list[str]:
    return [f"{seat} cc" for seat in seats]


def show(*seats: str) -> list[str]:
    cards = {"p1": "AcAd", "p2": "KcKd", "p3": "QcQd", "p4": "JcJd"}
    return [f"{seat} sm {cards[seat]}" for seat in seats]


def raw_of(fields: dict[str, Any]):
    return parse_hand_text(write_hand(fields), "ruling.phh", 0)


def assert_stored_both_ways(fields: dict[str, Any]) -> list[int]:
    """The state machine's finishing stacks, after checking the compiled replay took the same hand."""
    taken, back = assert_both_ways_agree([raw_of(fields)])
    assert (taken, back) == (1, 0), "the compiled replay handed the hand back"
    stacks = replay(fields).state.stacks
    assert sum(stacks) == sum(fields["starting_stacks"])
    return stacks


def assert_rejected_both_ways(fields: dict[str, Any], reason: str) -> None:
    with pytest.raises(HandError, match=reason):
        replay(fields)
    raw = raw_of(fields)
    tables, fallback = replay_batch([prepare(raw, hand_id(raw.fields))], "t")
    assert tables is None and len(fallback) == 1


# -- fixed-limit reopening -----------------------------------------------------------------------


def half_bet_preflop(variant: str) -> dict[str, Any]:
    # p3 calls 2; p1 is all in for 3 (a raise of 1, exactly half the small bet of 2); p2 calls 3;
    # p3, who acted at 2, raises to 5 (3 + a full 2); p2 calls. Pots: 9 (all) to p1, 4 (p2, p3) to p2.
    return hand(variant, [3, 100, 100], [
        "p3 cc", "p1 cbr 3", "p2 cc", "p3 cbr 5", "p2 cc",
        FLOP, *checks("p2", "p3"), TURN, *checks("p2", "p3"), RIVER, *checks("p2", "p3"),
        *show("p1", "p2", "p3"),
    ])  # fmt: skip


def test_fixed_limit_all_in_of_exactly_half_a_small_bet_reopens_the_betting():
    assert assert_stored_both_ways(half_bet_preflop("FT")) == [9, 99, 95]


def test_no_limit_all_in_of_half_a_raise_still_does_not_reopen_it():
    assert_rejected_both_ways(half_bet_preflop("NT"), "not reopened")


def big_bet_turn(p2_stack: int, turn: list[str]) -> dict[str, Any]:
    return hand("FT", [100, p2_stack, 100], [
        *checks("p3", "p1", "p2"), FLOP, *checks("p1", "p2", "p3"), TURN, *turn,
        RIVER, *checks("p1", "p3"), *show("p1", "p2", "p3"),
    ])  # fmt: skip


def test_fixed_limit_all_in_one_chip_short_of_half_a_big_bet_does_not_reopen():
    # turn (big bet 4): p1 bets 4, p2 is all in for 5 (a raise of 1, one chip less than half of 4),
    # p3 calls 5: p1 may only call (raising to 9 is refused). All in for 7: one pot of 21 to p1.
    short = ["p1 cbr 4", "p2 cbr 5", "p3 cc"]
    assert_rejected_both_ways(big_bet_turn(7, [*short, "p1 cbr 9"]), "less than half")
    assert assert_stored_both_ways(big_bet_turn(7, [*short, "p1 cc"])) == [114, 0, 93]


def test_fixed_limit_all_in_of_exactly_half_a_big_bet_reopens():
    # p2 all in for 6 (a raise of 2, half of 4): p1 raises to 10 (6 + 4), p3 calls. p1 put in
    # 12, p2 8, p3 12: 24 (all) and 8 (p1, p3) both to p1: 100 - 12 + 32 = 120, 0, 88.
    turn = ["p1 cbr 4", "p2 cbr 6", "p3 cc", "p1 cbr 10", "p3 cc"]
    assert assert_stored_both_ways(big_bet_turn(8, turn)) == [120, 0, 88]


def two_short_all_ins(third: str, then: list[str]) -> dict[str, Any]:
    return hand("FT", [100, 7, 8, 100], [
        *checks("p3", "p4", "p1", "p2"), FLOP, *checks("p1", "p2", "p3", "p4"),
        TURN, "p1 cbr 4", "p2 cbr 5", third, "p4 cc", *then,
        RIVER, *checks("p1", "p4"), *show("p1", "p2", "p3", "p4"),
    ])  # fmt: skip


def test_fixed_limit_two_short_all_ins_that_add_up_to_half_a_bet_reopen():
    # turn: p1 bets 4, p2 all in for 5 (+1), p3 all in for 6 (+1): 2 since p1 acted, half of 4, so
    # p1 raises to 10 and p4 calls. p1 12, p2 7, p3 8, p4 12: pots 28, 3 and 8 all to p1 (127).
    stacks = assert_stored_both_ways(two_short_all_ins("p3 cbr 6", ["p1 cbr 10", "p4 cc"]))
    assert stacks == [127, 0, 0, 88]
    # with p3 only calling 5, one chip was added since p1 acted: p1 may not raise
    assert_rejected_both_ways(two_short_all_ins("p3 cc", ["p1 cbr 9"]), "less than half")


def test_fixed_limit_half_bet_all_in_uses_up_one_of_the_four_bets():
    # decision (docs/rules.md): an all-in that reopens counts as a bet or raise. Flop: p1 bets 2
    # (1), p2 all in for 3 (2), p3 raises to 5 (3), p1 to 7 (4): capped, so p3 may only call.
    flop = ["p1 cbr 2", "p2 cbr 3", "p3 cbr 5", "p1 cbr 7"]
    start = [*checks("p3", "p1", "p2"), FLOP, *flop]
    assert_rejected_both_ways(hand("FT", [100, 5, 100], [*start, "p3 cbr 9"]), "capped at 4")
    # p3 calls; p1 9, p2 5, p3 9: 15 (all) and 8 (p1, p3) to p1: 100 - 9 + 23 = 114
    legal = [*start, "p3 cc", TURN, *checks("p1", "p3"), RIVER, *checks("p1", "p3"), *show("p1", "p2", "p3")]
    assert assert_stored_both_ways(hand("FT", [100, 5, 100], legal)) == [114, 0, 91]


# -- pots nobody can win ----------------------------------------------------------------------------


def test_blinds_nobody_left_can_win_join_the_ante_pot_of_the_players_all_in_for_their_antes():
    # p3 and p4 are all in for their 5 antes; p1 folds his 10, p2 folds 20 (10 uncalled, returned).
    # The 20 of blinds has no contender left: it joins the 20 of antes, and p3's queens beat p4's
    # jacks: p3 takes 40. Stacks 100 - 15, 100 - 15, 40, 0.
    fields = hand("NT", [100, 100, 5, 5], ["p1 f", "p2 f", FLOP, TURN, RIVER, *show("p3", "p4")],
                  antes=[5, 5, 5, 5], blinds_or_straddles=[10, 20, 0, 0], min_bet=20)  # fmt: skip
    assert assert_stored_both_ways(fields) == [85, 85, 40, 0]


def test_scarney_side_pot_of_two_dead_hands_joins_the_pot_below():
    # p3 raises to 100, p4 (30) and p1 (20) call all in, p2 calls 100. The flop's Bottom Board
    # (7h8h9h) kills p2 and takes p3's 7s8s9s; the turn's Ts kills p3. Pots: 80 (p1, p4) and
    # 10 + 10 + 10 at the 30 level (p4), and the 70 + 70 that only dead hands reached join it:
    # 170 to p4. The 80: p1's 2c2d with the river's 2h and the Top Board's KhKd is a full house
    # against p4's kings and jacks, so p1 takes the high 40; low points p1 2+2+3+3+4+4 = 18
    # against p4 5+5+6+6+10+10 = 42, so p1 takes the low 40 too.
    actions = [
        "d dh p1 2c2d3c3d4c4d", "d dh p2 7c7d8c8d9c9d", "d dh p3 7s8s9sTcTdTh", "d dh p4 5c5d6c6dJcJd",
        "p3 cbr 100", "p4 cc", "p1 cc", "p2 cc",
        "d db AhKhQs/7h8h9h", "p2 sd 7c7d8c8d9c9d", "p3 sd 7s8s9s",
        "d db Kd/Ts", "p3 sd TcTdTh", "d db 2h/As",
    ]  # fmt: skip
    fields = {"variant": "NSCR", "antes": [0] * 4, "blinds_or_straddles": [1, 2, 0, 0], "min_bet": 2,
              "starting_stacks": [20, 500, 500, 30], "actions": actions}  # fmt: skip
    replayed = replay(fields)
    assert replayed.state.dead == [False, True, True, False]
    assert replayed.result.won == [80, 0, 0, 170]
    assert replayed.state.stacks == [80, 400, 400, 170]


def muck_side_pot(first: str, second: str) -> dict[str, Any]:
    # p3 raises to 100, p1 calls all in for 50, p2 calls. Pots: 150 (all) and 100 (p2, p3).
    return hand("NT", [50, 200, 200], [
        "p3 cbr 100", "p1 cc", "p2 cc",
        FLOP, *checks("p2", "p3"), TURN, *checks("p2", "p3"), RIVER, *checks("p2", "p3"),
        *show("p1"), f"{first} sm", f"{second} sm",
    ])  # fmt: skip


def test_a_side_pot_whose_contenders_all_muck_goes_to_the_last_to_muck():
    # p1 shows and takes the 150 main pot; p2 and p3 both muck: the 100 side pot stays with the
    # last of them to muck. Before the ruling it went to p1, who did not put chips in it.
    assert assert_stored_both_ways(muck_side_pot("p2", "p3")) == [150, 100, 200]
    assert assert_stored_both_ways(muck_side_pot("p3", "p2")) == [150, 200, 100]


THREE_BOARDS = {FLOP: "d db 2h7s9d/3h8s6d/5c5h3s", TURN: "d db Tc/Js/Qd", RIVER: "d db 4h/2c/Ah"}


@pytest.mark.parametrize("variant", ["NT", "NCMR"])
def test_when_everyone_mucks_the_last_to_muck_takes_the_pot(variant):
    # heads-up: p2 (button) completes, p1 checks, checked down; p1 then p2 muck: p2 takes the 4
    actions = ["p2 cc", "p1 cc", FLOP, *checks("p1", "p2"), TURN, *checks("p1", "p2"), RIVER,
               *checks("p1", "p2"), "p1 sm", "p2 sm"]  # fmt: skip
    if variant == "NCMR":
        actions = [THREE_BOARDS.get(action, action) for action in actions]
    assert assert_stored_both_ways(hand(variant, [100, 100], actions)) == [98, 102]


@pytest.mark.parametrize("check", [[], ["p1 cc"]], ids=["left out", "written"])
def test_a_check_nobody_needs_may_be_written_or_left_out(check):
    # heads-up: p2 (button, small blind 1) calls all in for 2; p1's big blind has nothing to decide.
    # PokerKit writes no check there, other writers do: both replay the same. p1's aces take 4.
    actions = ["p2 cc", *check, FLOP, TURN, RIVER, *show("p1", "p2")]
    assert assert_stored_both_ways(hand("NT", [100, 2], actions)) == [102, 0]


@pytest.mark.parametrize(("showdown", "stacks"), [(["p1 sm 7c2c3c4c5c6c", "p2 sm 7d2d3d4d5d6d"], [100, 100]),
                                                  (["p1 sm", "p2 sm 7d2d3d4d5d6d"], [98, 102])])  # fmt: skip
def test_scarney_voided_hands_share_but_a_muck_gives_up_the_pot(showdown, stacks):
    # heads-up, checked down; the flop's Bottom Board 7h forces out both players' 7 and neither
    # discards it: both hands are voided, so nobody can win, and the pot of 4 is shared (2, 2).
    # A player who mucks gives up every pot: p1 mucks, so p2's voided hand keeps the 4 alone.
    fields = {"variant": "NSCR", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
              "starting_stacks": [100, 100], "actions": [
                  "d dh p1 7c2c3c4c5c6c", "d dh p2 7d2d3d4d5d6d", "p2 cc", "p1 cc",
                  "d db AhKhQh/7h8s9s", "p1 cc", "p2 cc", "d db Jh/Ts", "p1 cc", "p2 cc",
                  "d db 2h/Td", "p1 cc", "p2 cc", *showdown]}  # fmt: skip
    replayed = replay(fields)
    assert replayed.state.voided == [True, True]
    assert replayed.state.stacks == stacks
