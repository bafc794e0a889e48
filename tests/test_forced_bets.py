"""Forced bets as the description says, and the round they belong to (issue #55, "No description played
wrong"): blinds and antes wait for the first street that has betting, whose order follows them; a bomb pot
(antes, no blinds, no betting before the flop), button blinds and ante-only games play in betting mode
through the state machine and the compiled core, hand for hand equal. The hand-worked hands below were
counted by hand from the rules (RULINGS, "All variants"), not from the engine.
"""

from __future__ import annotations

import pytest

from engine.rules.betting import seat_forced_bets
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.games.description import DescriptionError, parse_description
from engine.rules.state import IllegalAction
from ingest.generation.betting_sim import new_hand
from ingest.histories.phh import parse_hand_text
from ingest.histories.replay import apply_action, build_state, replay
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_described_game import _holdem_like
from tests.test_fast_replay import assert_both_ways_agree

# Courchevel, three seats: p1 small blind 1, p2 big blind 2. The first board card (Ah) comes before the
# first betting round, and the blinds stay in: p3, left of the big blind, acts first and must call 2 or
# raise; p1 calls the raise to 7 with 6 more; p2 folds its 2. Pot 1 + 2 + 7 + 6 = 16 to p3's flush
# (two hole diamonds with Kd Qd 8d), against p1's two pair.
COURCHEVEL = """variant = "PCV"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AsKsQsJs9h", "d dh p2 2c3c4c5c7d", "d dh p3 2d3d4d5d7h", "d db Ah",
  "p3 cbr 7", "p1 cc", "p2 f", "d db KdQd", "p1 cc", "p3 cc", "d db 8c", "p1 cc", "p3 cc", "d db 8d",
  "p1 cc", "p3 cc", "p1 sm AsKsQsJs9h", "p3 sm 2d3d4d5d7h"]
"""

# A double-board bomb pot, three seats, antes of 4, no blinds: nobody bets before the flop; the flop's
# round opens left of the button (p1), who checks; p2 bets the pot (12) and p3 raises the pot (to
# 12 + 36 = 48: the pot after a call is 36); p1 folds, p2 calls 36 more. Pot 12 + 48 + 48 = 108: each
# board 54, the top one to p2's aces, the bottom one to p3's four queens.
BOMB_POT = """variant = "PBP"
antes = [4, 4, 4]
blinds_or_straddles = [0, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ["d dh p1 2c3c4c5c", "d dh p2 AsAhKsKh", "d dh p3 QcQdJcJd", "d db 7s8s9h/QhQsTc",
  "p1 cc", "p2 cbr 12", "p3 cbr 48", "p1 f", "p2 cc", "d db 2d/3d", "p2 cc", "p3 cc", "d db 4h/5h",
  "p2 cc", "p3 cc", "p2 sm AsAhKsKh", "p3 sm QcQdJcJd"]
"""


def _replayed(text: str):
    raw = parse_hand_text(text, "hand.phh", 0)
    assert raw.error is None
    return raw, replay(raw.fields).state


def test_courchevel_keeps_the_blinds_through_its_first_board_card():
    raw, state = _replayed(COURCHEVEL)
    first = [a for a in state.actions if a.street == "preflop" and a.seat is not None]
    assert (first[0].seat, first[0].kind, first[0].pot_after) == (2, "raise", 10)  # 1 + 2 stayed in
    assert (first[1].seat, first[1].amount, first[1].pot_after) == (0, 6, 16)
    assert state.refunded == [0, 0, 0] and state.contributed == [7, 2, 7]
    assert state.result.won == [0, 0, 16] and state.stacks == [93, 98, 109]
    assert assert_both_ways_agree([raw]) == (1, 0)  # the compiled replay agrees row for row


def test_courchevel_preflop_is_answered_from_the_left_of_the_big_blind():
    raw = parse_hand_text(COURCHEVEL, "hand.phh", 0)
    state = build_state(raw.fields)[0]
    for text in ("d dh p1 AsKsQsJs9h", "d dh p2 2c3c4c5c7d", "d dh p3 2d3d4d5d7h", "d db Ah"):
        apply_action(state, text)
    with pytest.raises(IllegalAction, match="not p1's turn"):  # the small blind does not open
        apply_action(state, "p1 cc")
    for text in ("p3 cc", "p1 cc", "p2 cc"):  # two calls, and the big blind checks its option
        apply_action(state, text)
    assert [a.kind for a in state.actions[-3:]] == ["call", "call", "check"]
    assert state.contributed == [2, 2, 2] and state.street.name == "flop"


def test_a_bomb_pot_opens_on_the_flop_left_of_the_button():
    raw, state = _replayed(BOMB_POT)
    betting = [a for a in state.actions if a.seat is not None and a.kind not in ("post", "deal", "show")]
    assert [a.street for a in betting][:5] == ["flop"] * 5
    assert [(a.seat, a.kind, a.pot_after) for a in betting[:5]] == [
        (0, "check", 12), (1, "bet", 24), (2, "raise", 72), (0, "fold", 72), (1, "call", 108)]  # fmt: skip
    assert state.result.won == [0, 54, 54] and state.stacks == [196, 202, 202]
    assert assert_both_ways_agree([raw]) == (1, 0)


@pytest.mark.parametrize(
    ("name", "structure"),
    [("courchevel", Structure.POT_LIMIT), ("courchevel-hi-lo", Structure.FIXED_LIMIT),
     ("double-board-bomb-pot-omaha", Structure.NO_LIMIT)],
)  # fmt: skip
def test_betting_mode_plays_them_as_the_state_machine_does(name, structure):
    game = GAMES[name]
    hands, chosen = assert_replays_to_the_same_rows(
        game, 4, {}, ("tag", "random", "station"), 7, 120, 1_000, structure=structure)  # fmt: skip
    assert len(chosen) == 120
    forced_street = game.streets[game.forced_street].name
    for h, text in enumerate(hands.column("phh").to_pylist()):  # the forced bets are all in the pot there
        fields = parse_hand_text(text, "run.phh", h).fields
        state = replay(fields).state
        opening = next(a for a in state.actions if a.street == forced_street)
        assert opening.kind == "deal" and opening.pot_after == sum(fields["antes"]) + sum(
            fields["blinds_or_straddles"]), text  # fmt: skip


FORCED = [
    ({"betting": {"blinds": "button"}}, [0, 0, 2], "button"),
    ({"betting": {"blinds": "none", "ante": "1/2"}}, [0, 0, 0], "none"),
    ({"betting": {"ante": 0.25}}, [1, 2, 0], "small-big"),
]


@pytest.mark.parametrize(("changes", "blinds", "kind"), FORCED)
def test_forced_bets_of_the_description_play_in_betting_mode(changes, blinds, kind, monkeypatch):
    code = "NPRB" + kind[0].upper()
    spec = parse_description(_holdem_like(**changes, name=f"probe-{kind}", phh_codes={code: "no-limit"}))
    monkeypatch.setitem(GAMES, spec.name, spec)  # known by its PHH code while the test replays it
    antes, posted = seat_forced_bets(spec, 3, 1, 2)
    assert posted == blinds and spec.blinds.value == kind
    assert antes == [max(1, int(2 * spec.ante))] * 3 if spec.ante else antes == [0, 0, 0]
    state = new_hand(spec, 3, 200, {})
    for seat in range(3):
        state.deal_hole(seat, [4 * seat, 4 * seat + 1])
    assert state.next_seat == (0 if kind != "small-big" else 2)  # left of the largest blind, or the button
    for players in (2, 3):
        assert_replays_to_the_same_rows(spec, players, {}, ("tag", "random"), players, 60, 200)


def test_heads_up_the_button_blind_is_the_buttons():
    spec = parse_description(_holdem_like(betting={"blinds": "button"}))
    state = new_hand(spec, 2, 100, {})
    state.deal_hole(0, [0, 1])
    state.deal_hole(1, [2, 3])
    assert state.blinds == [0, 2] and state.next_seat == 0  # seat 1 is the button; seat 0 acts first


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"betting": {"blinds": "three"}}, "blinds 'three' is not one of"),
     ({"betting": {"ante": -1}}, "ante is big blinds a seat antes"),
     ({"betting": {"ante": "lots"}}, "ante is big blinds a seat antes"),
     ({"betting": {"bring_in": True, "blinds": "none"}}, "posts no blinds")],
)  # fmt: skip
def test_a_forced_bet_that_cannot_be_is_one_clear_line(changes, message):
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(**changes))
    assert any(message in problem for problem in raised.value.problems), raised.value.problems


def test_a_game_with_no_betting_round_is_simulated_in_showdown_mode_only():
    streets = [{"name": n, "hole_cards": h, "board_cards": b, "betting": False}
               for n, h, b in (("deal", 2, 0), ("flop", 0, 3), ("turn", 0, 1), ("river", 0, 1))]  # fmt: skip
    spec = parse_description(_holdem_like(streets=streets))
    assert spec.compiled_gaps == () and "no betting round" in spec.betting_gaps[0]


def test_simulate_ante_has_every_seat_ante_and_a_run_keeps_its_own(tmp_path):
    """``simulate --ante 1/4``: hold'em in betting mode with every seat anteing a quarter of the big
    blind beside the blinds, written in each hand's PHH and replayed alike; the run resumes only with
    the same ante; showdown mode and a nonsense ante are refused with the reason."""
    import json

    from ingest.generation.simulation import SimSpec, simulate
    from ingest.storage.warehouse import Warehouse

    spec = SimSpec("holdem", 120, players=3, seed=5, mode="betting", big_blind=8, ante="1/4")
    simulate(spec, str(tmp_path), run_id="antes")
    hands = Warehouse(tmp_path).read("hands").to_pylist()
    assert len(hands) == 120
    for hand in hands:
        fields = parse_hand_text(hand["phh"], "run.phh", 0).fields
        assert fields["antes"] == [2, 2, 2] and fields["blinds_or_straddles"] == [4, 8, 0]
        done = replay(fields)  # the state machine plays the same hand (it raises where it cannot)
        assert sum(done.state.contributed) == hand["pot"] >= 14  # antes 3 x 2, the blinds 4 + 4 at least
    (run,) = Warehouse(tmp_path).read("runs").to_pylist()[-1:]
    assert json.loads(run["details"])["ante"] == "1/4"
    with pytest.raises(ValueError, match="different settings: ante 1/4"):
        simulate(SimSpec("holdem", 120, players=3, seed=5, mode="betting", big_blind=8), str(tmp_path),
                 run_id="antes")  # fmt: skip
    with pytest.raises(ValueError, match="--ante is for betting mode"):
        SimSpec("holdem", 10, ante="1/4").check()
    for nonsense in ("lots", "1e999999999", "-1", "101"):
        with pytest.raises(ValueError, match="--ante is big blinds each seat antes"):
            SimSpec("holdem", 10, mode="betting", ante=nonsense).check()
    for own in ("0", 0):  # hold'em's own ante (none) is the run without --ante; razz's is a quarter
        assert SimSpec("holdem", 10, mode="betting", ante=own).check().ante == ""
    razz = SimSpec("razz", 10, players=2, mode="betting", structure="fixed-limit", ante="0.25").check()
    assert razz.ante == ""


def test_runs_of_other_antes_are_other_populations_and_their_comparison_says_so():
    """A run with ``--ante`` is a population of its own (its play names the antes), and comparing it
    with one of the game's own antes warns that more than a rule option differs."""
    import json

    from analytics.compare import warnings_for
    from analytics.population import play_of
    from ingest.storage.schema import run_ante

    base = {"kind": "simulation", "mode": "betting", "players": 3, "stake": 100, "policies": ["tag"]}
    plain = base | {"run_id": "a", "details": json.dumps({"structure": "no-limit", "big_blind": 2})}
    set_antes = {"structure": "no-limit", "big_blind": 2, "ante": "1/4"}
    antes = base | {"run_id": "b", "details": json.dumps(set_antes)}
    assert (run_ante(plain), run_ante(antes)) == ("", "1/4")
    assert play_of(["tag"], 3, 100, 2, run_ante(plain)) != play_of(["tag"], 3, 100, 2, run_ante(antes))
    assert warnings_for(plain, antes) == [
        "the runs differ in more than a rule option: antes the game's own and 1/4"
    ]
