"""A game the project never saw, described in a file written from docs/variants.md alone
(tests/fixtures/variants/double-board-holdem.toml): it is checked, simulated in both modes
(compiled against the reference, hand by hand), exported and replayed, aggregated and shown
in the dashboard with no code of its own. Also: description files with problems."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.games import get_game
from engine.rules.games.description import (
    DescriptionError,
    load_description,
    not_simulated,
    parse_description,
)
from ingest.generation.betting_sim import play_batch
from ingest.storage.array_rows import settle
from scooplab.cli import app
from tests.patience import PAGE_RUN_SECONDS
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_simulate_agreement import play_through_state_machine

DESCRIPTION = Path(__file__).parent / "fixtures" / "variants" / "double-board-holdem.toml"
runner = CliRunner()


@pytest.fixture(scope="module")
def game():
    return get_game(str(DESCRIPTION))


def test_the_description_checks_and_says_what_the_game_is():
    result = runner.invoke(app, ["variants", "check", str(DESCRIPTION)])
    assert result.exit_code == 0, result.output
    assert "10 players x 2 hole cards + 10 board cards + 3 burns = 33: fits the 52-card deck" in result.output


def test_what_the_game_has(game):
    assert game.board_names == ("top", "bottom") and game.community_boards == (0, 1)
    assert game.board_shares and not game.low_share and game.kill is None and game.discard_board is None


def assert_board_shares_agree_with_the_state_machine(batch) -> None:
    """Every hand of a batch of a game whose boards take shares: chips, chips per board, triple scoops."""
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        for seat in range(batch.n_players):
            assert result.outcomes[seat].board_won == tuple(batch.extra["board_won"][h, seat]), h
            assert result.outcomes[seat].triple_scoop == batch.extra["triple_scoop"][h, seat], h


@pytest.mark.parametrize("players", [2, 6, 10])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(game, players):
    u = random_words(np.random.default_rng(players), 400, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 101, {}, u)  # an odd pot: the odd chip goes to the top board
    assert_board_shares_agree_with_the_state_machine(batch)
    # each board pays half: with 101 chips a seat each, the top board's half is the larger one
    assert (batch.extra["board_won"][:, :, 0].sum(axis=1) == (101 * players + 1) // 2).all()
    assert (batch.extra["board_won"][:, :, 1].sum(axis=1) == 101 * players // 2).all()


def assert_betting_mode_replays_and_settles_as_the_reference(game, seed: int, count: int):
    """Betting-mode hands of ``game`` replay to their rows, and compiled settlement equals the reference's."""
    hands, _ = assert_replays_to_the_same_rows(game, 6, {}, ("tag", "random", "station"), 5, count=count,
                                                stake=1_000)  # fmt: skip
    assert "showdown" in set(hands.column("ending").to_pylist())
    words = np.random.default_rng(seed).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, 6, 1_000, {}, ["random", "station"], words, 5 * count)
    compiled, python = settle(game, batch.hands, {}), settle(game, batch.hands, {}, compiled=False)
    for name in vars(compiled):
        assert np.array_equal(getattr(compiled, name), getattr(python, name)), name
    return compiled


def test_betting_mode_replays_to_the_same_rows_and_settles_as_the_reference(game):
    compiled = assert_betting_mode_replays_and_settles_as_the_reference(game, 3, 200)
    assert compiled.board_won.sum() > 0 and compiled.split.any()


def test_simulate_export_ingest_stats_and_dashboard_from_the_file_alone(tmp_path):
    data = str(tmp_path / "w")
    path = str(DESCRIPTION)
    for extra in ([], ["--mode", "betting", "--policy", "tag", "--policy", "random"]):
        result = runner.invoke(app, ["simulate", "--variant", path, "--hands", "3000", "--seed", "4",
                                     "--workers", "1", "--data", data, *extra])  # fmt: skip
        assert result.exit_code == 0, result.output
    out = tmp_path / "db.phhs"
    assert runner.invoke(app, ["export", "--variant", path, "--data", data, "--out", str(out)]).exit_code == 0
    again = str(tmp_path / "again")
    result = runner.invoke(app, ["ingest", str(out), "--variant", path, "--data", again, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    result = runner.invoke(app, ["stats", "--variant", path, "--data", data, "--format", "json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["hands"] == 3000 and "low_points_all" not in stats
    assert "every_board_scoop_rate" in stats and "triple_scoop_rate" not in stats  # (two boards)
    assert 0.1 < stats["scoop_rate"]["rate"] < 0.3  # one player alone best on both boards
    import os

    from streamlit.testing.v1 import AppTest

    from tests.test_dashboard import APP, game_page, keeping_main

    os.environ["SCOOPLAB_DATA"] = data
    test = game_page("double-board-holdem")
    assert not test.exception and test.title[0].value == "Double-board Hold'em"
    assert any(m.label.startswith("Scoops of every board") for m in test.metric)
    with keeping_main():
        # the game has a page of its own
        navigation = AppTest.from_file(APP, default_timeout=PAGE_RUN_SECONDS).run()
    assert not navigation.exception


PROBLEMS = [
    ({"deck": "tarot"}, "deck 'tarot' is not one of short, standard"),
    ({"players": [2, 12]}, "players must be [fewest, most] with 2 <= fewest <= most <= 10"),
    ({"boards": [{"name": "top", "role": "discard-trigger"}]}, "no board has role 'community'"),
    ({"shares": [{"wins": "best-high", "board": "left"}]}, "share 1: board 'left' is not a community board"),
    (
        {"shares": [{"wins": "lowest-points", "points": {"A": 1}}]},
        "points needs a value for every rank; missing 2",
    ),
    ({"hole_use": {"option": "strict", "on": "at-least-1", "off": "any"}}, "option 'strict' is not defined"),
    ({"colour": "red"}, "description: unknown key 'colour'"),
    ({"kill": {"rule": "lowest-river-rank"}, "boards": [{"name": "only"}]}, "a kill rule needs at least two"),
]


def _holdem_like(**changes):
    data = {
        "name": "probe", "title": "Probe", "deck": "standard", "ranking": "standard-high", "players": [2, 9],
        "phh_codes": {"NPRB": "no-limit"}, "boards": [{"name": "board"}],
        "streets": [{"name": "preflop", "hole_cards": 2}, {"name": "flop", "board_cards": 3},
                    {"name": "turn", "board_cards": 1}, {"name": "river", "board_cards": 1}],
        "shares": [{"wins": "best-high"}],
    }  # fmt: skip
    return data | changes


@pytest.mark.parametrize(("changes", "message"), PROBLEMS)
def test_each_problem_is_one_clear_line(changes, message):
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(**changes))
    assert any(message in problem for problem in raised.value.problems), raised.value.problems


def test_a_deal_too_big_for_the_deck_says_how_many_cards_it_needs(tmp_path):
    text = (Path(__file__).parents[1] / "engine" / "variants" / "holdem.toml").read_text()
    path = tmp_path / "big.toml"  # 10 players x 5 hole cards + 5 + 3 burns = 58
    path.write_text(
        text.replace('name = "holdem"', 'name = "big"').replace("hole_cards = 2", "hole_cards = 5")
    )
    result = runner.invoke(app, ["variants", "check", str(path)])
    assert result.exit_code == 2
    assert "10 players x 5 hole cards + 5 board cards + 3 burns = 58: needs 58 cards, the deck has 52" in (
        result.output
    )


def test_a_file_that_is_not_toml_is_one_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("name = \n")
    with pytest.raises(DescriptionError) as raised:
        load_description(path)
    assert len(raised.value.problems) == 1 and raised.value.problems[0].startswith("not valid TOML")
    result = runner.invoke(app, ["simulate", "--variant", str(path), "--hands", "10"])
    assert result.exit_code == 2 and "Traceback" not in result.output


CORE_LIMITS = [  # descriptions the compiled core cannot play yet: refused with a reason, never mis-simulated
    ({"boards": [{"name": "a"}, {"name": "b"}], "deck_runs_short": "community-card",
      "shares": [{"wins": "best-high", "board": "a"}, {"wins": "best-high", "board": "b"}]},
     "deck_runs_short deals one community card"),
    ({"streets": [{"name": "deal", "hole_cards": 2, "board_cards": 1}, {"name": "river", "board_cards": 4}]},
     "the first street deals hole cards only"),
    ({"shares": [{"wins": "lowest-points", "points": dict.fromkeys("23456789TJQKA", 1)}]},
     "a lowest-points share goes second"),
    ({"boards": [{"name": "a"}, {"name": "b"}], "kill": {"rule": "lowest-river-rank"},
      "shares": [{"wins": "best-high", "board": "a"}, {"wins": "best-high", "board": "b"}]},
     "with a kill rule, shares go to surviving boards"),
    ({"boards": [{"name": "a"}, {"name": "b"}],
      "shares": [{"wins": "best-high", "board": "b"}, {"wins": "best-high", "board": "a"}]},
     "in board order"),
]  # fmt: skip

BOTH_MODES = [  # what the compiled core plays in both modes beside hold'em's board
    {"streets": [{"name": "deal", "hole_cards": 5}]},  # no board cards
    {"streets": [{"name": "deal", "hole_cards": 2}, {"name": "flop", "hole_cards": 1, "board_cards": 3}]},
]  # fmt: skip


@pytest.mark.parametrize("changes", BOTH_MODES)
def test_hole_cards_on_later_streets_and_no_board_cards_play_in_both_modes(changes):
    from ingest.generation.betting_sim import play_batch

    spec = parse_description(_holdem_like(**changes))
    assert spec.compiled_gaps == () and spec.betting_gaps == ()
    u = random_words(np.random.default_rng(2), 50, words_per_hand(spec, 3, {}))
    batch = simulate_chunk(spec, 3, 100, {}, u)
    assert (batch.won.sum(axis=1) == 300).all() and (batch.strength >= 0).all()
    words = np.random.default_rng(3).integers(0, 2**64, size=4, dtype=np.uint64)
    played = play_batch(spec, 3, 1_000, {}, ["random", "station"], words, 50)
    assert (played.hands.hole_n.max(axis=1) == sum(s.hole_cards for s in spec.streets)).any()


def test_more_hole_cards_than_betting_mode_holds_are_refused_there_alone():
    """Showdown mode holds any number of hole cards; betting mode and the compiled replay hold seven."""
    streets = [{"name": "deal", "hole_cards": 8, "up_cards": 1}, {"name": "flop", "board_cards": 3}]
    spec = parse_description(_holdem_like(players=[2, 5], streets=streets))
    assert spec.compiled_gaps == () and spec.betting_gaps == (
        "8 hole cards per player (the compiled core holds 7)",
    )
    assert not_simulated(spec) is None and "in betting mode" in not_simulated(spec, "betting")
    u = random_words(np.random.default_rng(1), 10, words_per_hand(spec, 2, {}))
    assert len(simulate_chunk(spec, 2, 100, {}, u)) == 10


@pytest.mark.parametrize(("changes", "message"), CORE_LIMITS)
def test_what_the_compiled_core_cannot_play_yet_is_refused_with_a_reason(changes, message):
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(**changes))
    assert any(message in problem for problem in raised.value.problems), raised.value.problems


@pytest.mark.parametrize("name", ["scarney", "scarney-hi-lo"])
def test_more_hole_cards_than_the_tallies_count_beside_a_discard_board_or_low_points_are_a_gap(name):
    """Showdown mode counts discards and low points per hole card for at most MAX_HOLE of them."""
    import tomllib

    from engine.rules.games.description import MAX_HOLE

    data = tomllib.loads((Path("engine/variants") / f"{name}.toml").read_text())
    data["players"] = [2, 3]
    data["streets"][0]["hole_cards"] = MAX_HOLE + 1
    data["streets"] = data["streets"][:-1]  # (one board card fewer: the ranking takes 11 cards)
    spec = parse_description(data)
    assert any(f"{MAX_HOLE + 1} hole cards per player beside" in gap for gap in spec.compiled_gaps)
    with pytest.raises(ValueError, match="cannot be simulated yet"):
        simulate_chunk(spec, 2, 100, {}, None)


def test_up_cards_beside_a_discard_board_are_a_betting_gap():
    """The reference keeps a discarded up card showing; the compiled hand moves its kept cards up."""
    import tomllib

    data = tomllib.loads(Path("engine/variants/scarney.toml").read_text())
    data["streets"][0]["up_cards"] = 1
    spec = parse_description(data)
    assert spec.compiled_gaps == () and spec.betting_gaps == ("up cards beside a discard board",)
