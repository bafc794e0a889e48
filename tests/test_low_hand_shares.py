"""Best-low shares and shares across the surviving boards, concepts of the rules core: known
showdowns, the compiled core against the readable reference hand by hand (showdown mode, betting
mode and compiled replay) and against lows counted by hand, through two test games:
tests/fixtures/variants/test-omaha-hi-lo.toml (one board) and three-board-hi-lo.toml (Cry Me A River's
boards and kill, RULINGS "Ultimate Hi-Lo": best high and best low on any surviving board)."""

import itertools
import tomllib
from pathlib import Path

import numpy as np
import pytest

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import parse_cards
from engine.hands.low_hands import NO_LOW
from engine.rules.games import get_game
from engine.rules.games.base import ShowdownInput
from engine.rules.games.description import DescriptionError, parse_description
from engine.rules.games.showdown import settle, surviving_boards
from engine.rules.pots import Pot
from tests.test_described_game import assert_betting_mode_replays_and_settles_as_the_reference
from tests.test_simulate_agreement import play_through_state_machine

FIXTURES = Path(__file__).parent / "fixtures" / "variants"
GAMES = ("test-omaha-hi-lo", "three-board-hi-lo")


def _game(name):
    return get_game(str(FIXTURES / f"{name}.toml"))


def _low_by_hand(hole, board) -> int:
    """The best eight-or-better low of two hole and three board cards, by trying every pair and triple."""
    best = NO_LOW
    for pair in itertools.combinations(hole, 2):
        for three in itertools.combinations(board, 3):
            ranks = {(int(c) >> 2) + 2 for c in (*pair, *three)}  # 2..14
            ranks = {1 if r == 14 else r for r in ranks}
            if len(ranks) == 5 and max(ranks) <= 8:
                value = sum(1 << r for r in ranks)
                best = value if best == NO_LOW else min(best, value)
    return best


def _showdown(game, holes: list[str], boards: list[str], pot: int) -> tuple:
    hand = ShowdownInput(
        pots=(Pot(pot, tuple(range(len(holes)))),),
        hole_cards=tuple(tuple(parse_cards(h).tolist()) for h in holes),
        boards=tuple(tuple(parse_cards(b).tolist()) for b in boards),
        contenders=frozenset(range(len(holes))),
        options={},
    )
    return settle(game, hand)


def test_a_pot_splits_high_and_low_and_the_odd_chip_goes_high():
    result = _showdown(_game("test-omaha-hi-lo"), ["AsKsQdJd", "2c3cTh9h"], ["4d5h8cKhKc"], 101)
    assert result.won == (51, 50)  # trip kings take the high half, 2c 3c the low: 8-5-4-3-2
    assert [o.won_low for o in result.outcomes] == [0, 50]


def _showdown_pots(game, holes: list[str], board: str, pots: list[tuple[int, tuple[int, ...]]]):
    hand = ShowdownInput(
        pots=tuple(Pot(amount, eligible) for amount, eligible in pots),
        hole_cards=tuple(tuple(parse_cards(h).tolist()) for h in holes),
        boards=(tuple(parse_cards(board).tolist()),),
        contenders=frozenset(range(len(holes))),
        options={},
    )
    return settle(game, hand)


def test_a_side_pot_no_claimant_of_which_holds_a_low_goes_whole_to_the_high_hand():
    holes = ["AsKsQdJd", "9h9dTsTc", "2c3cQhJh"]  # trip kings; kings and tens; the only low
    result = _showdown_pots(_game("test-omaha-hi-lo"), holes, "4d5h8cKhKc", [(90, (0, 1, 2)), (40, (0, 1))])
    assert result.won == (45 + 40, 0, 45)


def test_tied_lows_split_the_low_half_odd_chip_first_from_the_button():
    holes = ["AsKsQdJd", "2c3dTsTc", "2h3hQsJs"]  # both lows 8-5-4-3-2
    result = _showdown_pots(_game("test-omaha-hi-lo"), holes, "4d5h8cKhKc", [(103, (0, 1, 2))])
    assert result.won == (52, 26, 25) and result.split


def test_with_no_qualifying_low_the_high_hand_takes_the_whole_pot():
    result = _showdown(_game("test-omaha-hi-lo"), ["AsKsQdJd", "2c3cTh9h"], ["9d9sKhKcTc"], 101)
    assert result.won == (0, 101) and result.outcomes[1].won_high == 101  # tens full on nines, no low


def test_shares_across_boards_take_the_best_hand_on_any_surviving_board():
    game = _game("three-board-hi-lo")
    # the middle board's river (a deuce) dies; the top board makes seat 0's low, the bottom seat 1's high
    boards = ["3d4h5c9s7c", "KdKhQs9c2d", "QcJcTs8d6s"]
    assert surviving_boards(game.kill, [parse_cards(b).tolist()[-1] for b in boards]) == (0, 2)
    result = _showdown(game, ["As2sJdJh", "KsKcAhQh"], boards, 100)
    assert result.won == (50, 50)  # seat 0's 5-4-3-2-A low; seat 1's queens set on the bottom board
    assert [o.won_low for o in result.outcomes] == [50, 0]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 6])
def test_showdown_mode_agrees_with_the_state_machine_and_with_lows_counted_by_hand(name, players):
    game = _game(name)
    u = random_words(np.random.default_rng(players), 250, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 100, {}, u)
    assert (batch.won.sum(axis=1) == players * 100).all()
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        assert [o.won_low for o in result.outcomes] == batch.extra["won_low"][h].tolist(), h
        live = np.flatnonzero(batch.extra["survivors"][h])
        for s in range(players):
            lows = [_low_by_hand(batch.hole[h, s], batch.boards[h, b]) for b in live]
            lows = [v for v in lows if v != NO_LOW]
            assert batch.extra["low"][h, s] == (min(lows) if lows else NO_LOW), (h, s)
    paid_low = batch.extra["won_low"].sum(axis=1) > 0
    assert paid_low.any() and (~paid_low).any()  # both kinds of pot happen
    assert ((batch.extra["low"] >= 0).any(axis=1) == paid_low).all()  # a low is paid iff one qualifies


@pytest.mark.parametrize("name", GAMES)
def test_betting_mode_replays_to_the_same_rows_and_settles_as_the_reference(name):
    compiled = assert_betting_mode_replays_and_settles_as_the_reference(_game(name), 5, 150)
    assert compiled.won_low.sum() > 0


def _described(**changes) -> str:
    text = (FIXTURES / "test-omaha-hi-lo.toml").read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"qualifier = 8": "qualifier = 4"}, "qualifier is the highest rank of a low, 5 to 13"),
        ({'deck = "standard"': 'deck = "short"'}, "a best-low share needs the standard 52-card deck"),
        ({'[[shares]]\nwins = "best-high"\n\n[[shares]]\nwins = "best-low"\nqualifier = 8':
          '[[shares]]\nwins = "best-low"\nqualifier = 8\n\n[[shares]]\nwins = "best-high"'},
         "a best-low share goes last"),
        ({'hole_use = "exactly-2"': 'hole_use = "at-least-1"'}, "made with hole_use any or exactly-2"),
        ({"qualifier = 8": 'qualifier = 8\nboard = "board"'}, "not a named one"),
        ({'wins = "best-high"\n': 'wins = "best-high"\nwhen = { hi = 1 }\n'}, "when names 'hi'"),
    ],
)  # fmt: skip
def test_descriptions_a_best_low_share_cannot_play_are_refused(change, problem):
    with pytest.raises(DescriptionError) as raised:
        parse_description(tomllib.loads(_described(**change)))
    assert any(problem in line for line in raised.value.problems), raised.value.problems


def test_stats_of_a_low_half_from_the_file_alone_summaries_agree_with_sql(tmp_path):
    from analytics.stats import game_stats
    from ingest.generation.simulation import SimSpec, simulate

    path = str(FIXTURES / "three-board-hi-lo.toml")
    simulate(SimSpec(path, 4_000, players=4, seed=3), str(tmp_path))
    name = _game("three-board-hi-lo").name
    fast, slow = game_stats(tmp_path, name), game_stats(tmp_path, name, use_summaries=False)
    assert fast == slow  # the kernel's tallies and SQL over the stored rows
    assert 0.3 < fast["low_paid_rate"]["rate"] < 0.95 and fast["high_low_same_player_rate"]["count"] > 0
    assert "low_points_all" not in fast  # low points belong to a lowest-points share


def test_shares_bound_to_an_option_play_the_rule_set_asked_for():
    """``when`` binds shares to an option's value: three-board-hi-lo with a ``halves`` option."""
    text = (FIXTURES / "three-board-hi-lo.toml").read_text()
    high = '[[shares]]\nwins = "best-high"\n'
    text = text.replace(
        high + 'over = "surviving-boards"\n',
        high
        + 'each = "surviving-board"\nwhen = { halves = false }\n\n'
        + high
        + 'over = "surviving-boards"\nwhen = { halves = true }\n',
    )
    text = text.replace(
        'qualifier = 8\nover = "surviving-boards"\n',
        'qualifier = 8\nover = "surviving-boards"\nwhen = { halves = true }\n',
    )
    text += '\n[options.halves]\ndefault = false\nchoices = [false, true]\nhelp = "high and low halves"\n'
    game = parse_description(tomllib.loads(text))
    assert not game.low_half and game.board_shares  # the defaults: one share per surviving board
    halves = game.under({"halves": True})
    assert halves.low_half and not halves.board_shares
    u = random_words(np.random.default_rng(3), 200, words_per_hand(game, 4, {}))
    per_board, split = simulate_chunk(game, 4, 100, {}, u), simulate_chunk(game, 4, 100, {"halves": True}, u)
    assert "board_won" in per_board.extra and "won_low" not in per_board.extra
    assert "won_low" in split.extra and "board_won" not in split.extra
    assert (split.extra["won_low"].sum(axis=1) > 0).any()
    for batch in (per_board, split):
        for h in range(len(batch)):
            _, result = play_through_state_machine(batch, h)
            assert result.won == batch.won[h].tolist(), h
    for wrong in ("2", "1"):  # 1 == True in Python, not in a rule option
        with pytest.raises(DescriptionError) as raised:
            parse_description(
                tomllib.loads(text.replace("when = { halves = true }", f"when = {{ halves = {wrong} }}"))
            )
        assert any(f"when halves = {wrong}, not one of" in line for line in raised.value.problems)
