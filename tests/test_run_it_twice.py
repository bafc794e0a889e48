"""Run it twice (or more), RULINGS "Real-money hand histories": the runs share the cards already dealt;
each run completes the board from cards no earlier run used; each pot is split into equal parts, one
per run (odd chips to the first run), each awarded by its own board. Replayed from ``_runs`` in PHH
(docs/phh-extensions.md) and read from PokerStars, GGPoker, Full Tilt and OHH files."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from ingest.histories.fast_replay import prepare
from ingest.histories.phh import RawHand
from ingest.histories.replay import HandError, replay
from ingest.histories.sites.ohh_write import ohh_text
from tests.site_helpers import nets, stored

SITES = Path(__file__).parent / "fixtures" / "sites"
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def holdem(stacks, actions, runs=2, blinds=(1, 2), antes=None):
    n = len(stacks)
    fields = {
        "variant": "NT",
        "antes": antes or [0] * n,
        "blinds_or_straddles": list(blinds) + [0] * (n - len(blinds)),
        "min_bet": 2,
        "starting_stacks": list(stacks),
        "actions": actions,
    }
    if runs is not None:
        fields["_runs"] = runs
    return fields


def deals(*holes):
    return [f"d dh p{seat} {cards}" for seat, cards in enumerate(holes, 1)]


def test_the_rest_of_the_board_is_dealt_once_per_run():
    actions = [*deals("AhAd", "KhKd", "7c2d"), "p3 f", "p1 cbr 100", "p2 cc"]
    actions += ["d db 2s3s9c", "d db Td", "d db Jc", "d db 4h5hKs", "d db 8d", "d db Qh"]
    done = replay(holdem([100, 100, 100], [*actions, "p1 sm AhAd", "p2 sm KhKd"]))
    assert done.result.won == [100, 100, 0]  # aces on the first board, kings make trips on the second
    assert [len(board) for board in done.state.boards] == [5, 5]
    dealt = [(a.street, a.board) for a in done.state.actions if a.kind == "deal" and a.seat is None]
    assert dealt == [("flop", 0), ("turn", 0), ("river", 0), ("flop", 1), ("turn", 1), ("river", 1)]
    assert done.state.stacks == [100, 100, 100]


def test_the_odd_chip_goes_to_the_first_run_whoever_wins_it():
    actions = [*deals("AhAd", "KhKd", "7c2d"), "p3 f", "p1 cbr 99", "p2 cc"]
    kings_first = ["d db 4h5hKs", "d db 8d", "d db Qh", "d db 2s3s9c", "d db Td", "d db Jc"]
    aces_first = kings_first[3:] + kings_first[:3]
    antes = [1, 1, 1]  # a pot of 201 (99 each and three antes): 101 and 100
    for order, want in ((kings_first, [100, 101, 0]), (aces_first, [101, 100, 0])):
        done = replay(holdem([100, 100, 100], actions + order + ["p1 sm AhAd", "p2 sm KhKd"], antes=antes))
        assert done.result.won == want


def test_runs_begin_on_the_first_street_dealt_once_nobody_can_bet():
    actions = [*deals("AhAd", "KhKd"), "p2 cc", "p1 cc", "d db 2s3s9c", "p1 cbr 98", "p2 cc"]
    actions += ["d db Td", "d db Jc", "d db Ks", "d db 8d", "p1 sm AhAd", "p2 sm KhKd"]
    done = replay(holdem([100, 100], actions))
    assert [len(b) for b in done.state.boards] == [5, 5]
    assert done.state.boards[0][:3] == done.state.boards[1][:3]  # the flop is shared
    assert done.result.won == [100, 100]  # aces hold on the first run; kings hit a set on the second


def test_each_side_pot_is_split_among_the_runs():
    actions = [*deals("AhAd", "KhKd", "QhQd"), "p3 cbr 100", "p1 cc", "p2 cc"]
    actions += ["d db 2c3c7s", "d db 8s", "d db 9d", "d db Qc4s5d", "d db Jc", "d db Ts"]
    done = replay(holdem([50, 100, 100], [*actions, "p1 sm AhAd", "p2 sm KhKd", "p3 sm QhQd"]))
    # main pot 150 (75 a run), side pot 100 (50 a run): run 1 aces and kings, run 2 queens both
    assert done.result.won == [75, 50, 125]


def test_three_runs_and_the_cards_no_earlier_run_used():
    actions = [*deals("AhAd", "KhKd"), "p2 cbr 100", "p1 cc"]
    runs = ["d db 2s3s9c", "d db Td", "d db Jc", "d db 4h5hKs", "d db 8d", "d db Qh", "d db 6c7c8c",
            "d db 2d", "d db 3d"]  # fmt: skip
    done = replay(holdem([100, 100], actions + runs + ["p1 sm AhAd", "p2 sm KhKd"], runs=3))
    assert done.result.won == [134, 66]  # 67 a run, the odd chip to the first: aces, kings, aces
    reused = [*runs[:6], "d db 6c7c2s", "d db 2d", "d db 3d"]
    with pytest.raises(HandError, match="2s was already dealt"):
        replay(holdem([100, 100], actions + reused, runs=3))


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        (holdem([100, 100], [*deals("AhAd", "KhKd"), "p2 cc", "p1 cc", "d db 2s3s9c", "p1 cc", "p2 cc",
                             "d db Td", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc", "p1 sm AhAd",
                             "p2 sm KhKd"]),
         "no board card was dealt once no more betting could happen"),
        (holdem([100, 100], ["d dh p1 AhAd"], runs=0), "run 1 to 9 times, not 0"),
        (holdem([100, 100], ["d dh p1 AhAd"], runs="two"), "_runs must be a whole number"),
    ],
)  # fmt: skip
def test_a_record_that_cannot_have_been_run_twice_is_refused(fields, why):
    with pytest.raises(HandError, match=why):
        replay(fields)


def test_a_game_whose_cards_to_come_are_not_board_cards_cannot_run_twice():
    stud = {
        "variant": "F7S", "antes": [1, 1], "bring_in": 1, "small_bet": 2, "big_bet": 4,
        "starting_stacks": [9, 9], "_runs": 2,
        "actions": ["d dh p1 ????Ah", "d dh p2 ????Kh", "p2 pb", "p1 cbr 2", "p2 cbr 4", "p1 cbr 6",
                    "p2 cbr 8", "p1 cc", "d dh p1 Ad", "d dh p2 Kd"],
    }  # fmt: skip
    with pytest.raises(HandError, match="the fourth deals hole cards: only board cards can be run again"):
        replay(stud)


def test_a_board_run_twice_is_the_state_machines_to_replay():
    fields = holdem([100, 100], [*deals("AhAd", "KhKd"), "p2 cbr 100", "p1 cc"])
    assert (
        prepare(RawHand("x.phh", 0, "", fields), "x") is None
    )  # (the compiled replay deals one board a hand)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(DECK), st.integers(1, 3), st.integers(3, 400))
def test_each_runs_part_goes_to_the_better_hand_on_its_board(deck, runs, pot_half):
    """Heads-up all in before the flop, any cards, one to three runs: each run's part (the odd chips
    to the first) to the better hand on that run's board as PokerKit ranks it, ties split."""
    holes = ["".join(deck[0:2]), "".join(deck[2:4])]
    boards = ["".join(deck[4 + 5 * r : 9 + 5 * r]) for r in range(runs)]
    actions = [*deals(*holes), f"p2 cbr {pot_half}", "p1 cc"]
    for board in boards:
        actions += [f"d db {board[:6]}", f"d db {board[6:8]}", f"d db {board[8:]}"]
    done = replay(holdem([pot_half, pot_half], [*actions, f"p1 sm {holes[0]}", f"p2 sm {holes[1]}"],
                         runs=runs))  # fmt: skip
    pot = 2 * pot_half
    want = [0, 0]
    for run, board in enumerate(boards):
        part = pot // runs + (pot - pot // runs * runs if run == 0 else 0)
        first, second = (StandardHighHand.from_game(hole, board) for hole in holes)
        if first == second:
            want[0] += part - part // 2  # the odd chip clockwise from the button: seat 1 first
            want[1] += part // 2
        else:
            want[0 if first > second else 1] += part
    assert done.result.won == want
    assert sum(done.state.stacks) == pot
    assert (
        len({c for board in done.state.boards for c in board} | set(done.state.hole[0] + done.state.hole[1]))
        == 4 + 5 * runs
    )  # fmt: skip  (no card dealt twice)


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    files = [
        SITES / name
        for name in ("stars-run-it-twice.txt", "gg-run-it-thrice.txt", "fulltilt-run-it-twice.txt")
    ]
    return stored(tmp_path_factory.mktemp("runs"), *files)


def test_rooms_files_store_every_run_and_the_nets_to_the_cent(rooms):
    report, rejected, hands, players = rooms
    assert rejected == [] and report.hands == 4
    want = {
        "300000000001": {
            "Alice": Decimal("-2.50"),
            "Bob": Decimal("-2.49"),
            "Cara": 0,
        },  # $97.51 to the first run
        "300000000002": {"Alice": Decimal("18.50"), "Bob": Decimal("18.50"), "Cara": Decimal(-40)},
        "RC1000000001": {"Hero": Decimal(42), "cc33dd44": Decimal(-48), "aa11bb22": 0},
        "40000000001": {"Dora": 0, "Evan": Decimal("-1.50"), "Finn": Decimal("-1.50")},
    }
    for key, by_player in want.items():
        assert nets(hands, players, key) == by_player, key
        assert hands[key]["record"] == "checked" and hands[key]["notes"] == []
    assert hands["RC1000000001"]["boards"] == ["Js5sJd2h3c", "Js5sJdAc4d", "Js5sJdQsQd"]
    assert hands["300000000002"]["boards"] == ["2h7cKd4sJh", "QcQd3hTs5c"]
    assert {key: row["extra"]["_runs"] for key, row in hands.items()} == {
        "300000000001": 2, "300000000002": 2, "RC1000000001": 3, "40000000001": 2}  # fmt: skip


def test_a_hand_run_twice_is_written_as_ohh_and_reads_back_the_same(rooms):
    _, _, hands, _ = rooms
    import tomllib

    for key, row in hands.items():
        text = ohh_text(tomllib.loads(row["phh"]), row["variant"])  # raises where it would not read back
        assert '"Run_It_Twice"' in text, key


def courchevel(blinds, stacks, moves):
    """Heads-up pot-limit Courchevel run twice: the first board card is dealt before the blinds' round."""
    actions = ["d dh p1 AhAdKcQc2s", "d dh p2 KhKd3c4c5s", "d db 9h", *moves]
    actions += ["d db 5h6h", "d db 7d", "d db 8d", "d db JsTs", "d db 2d", "d db 3d"]
    actions += ["p1 sm AhAdKcQc2s", "p2 sm KhKd3c4c5s"]
    fields = holdem(stacks, actions, blinds=blinds)
    return fields | {"variant": "PCV"}


def test_runs_wait_for_the_blinds_round_when_the_first_board_card_comes_before_it():
    """Courchevel, the big blind all in with his blind: the first board card is shared, and the runs
    begin once the small blind has called, on the flop."""
    done = replay(courchevel([2, 1], [100, 2], ["p1 cc"]))
    assert [len(b) for b in done.state.boards] == [5, 5] and done.state.boards[0][0] == done.state.boards[1][
        0
    ]
    assert done.result.won == [2, 2]
    with pytest.raises(HandError, match="no board card was dealt once no more betting could happen"):
        replay(courchevel([2, 1], [100, 2], ["p1 f"]))  # folded: nothing was run


def test_a_game_of_several_boards_is_run_once():
    fields = {
        "variant": "NCMR", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
        "starting_stacks": [100, 100], "_runs": 2,
        "actions": ["d dh p1 AhAd", "d dh p2 KhKd", "p2 cbr 100", "p1 cc", "d db 2s3s9c/4h5hKs/6c7c8c"],
    }  # fmt: skip
    with pytest.raises(HandError, match="a game of 3 boards is run once"):
        replay(fields)


def test_ohh_runs_with_shows_in_the_last_run_are_read_and_runs_street_by_street_refused(tmp_path):
    """An OHH file whose shows sit in the last run's river round (no showdown round) is read as the
    same hand; one whose runs are interleaved street by street is refused with the reason."""
    report, rejected, hands, players = stored(tmp_path, SITES / "ohh-run-it-twice.ohh")
    assert report.hands == 1
    assert [line.split(": ", 1)[1] for line in rejected] == [
        "the board's runs are written street by street, not run by run"
    ]
    (hand,) = hands.values()
    assert hand["boards"] == ["Kd7c2s9h3c", "Kd7c2s9hAc"] and hand["record"] == "checked"
    assert sorted(row["net"] for (_, _), row in players.items()) == [-250, -249, 0]
