"""The exactly-two hole-card rule (Omaha hands), a concept of the rules core: known hands, the
compiled core against the readable reference hand by hand (showdown mode, betting mode and
compiled replay), through a test game described in tests/fixtures/variants/test-omaha.toml."""

import itertools
import tomllib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import parse_card_rows
from engine.hands.evaluate import HIGH_CATEGORIES, evaluate_high, evaluate_high_exactly_two, high_category
from engine.rules.games import get_game
from engine.rules.games.description import DescriptionError, parse_description
from scooplab.cli import app
from tests.test_described_game import assert_betting_mode_replays_and_settles_as_the_reference
from tests.test_simulate_agreement import play_through_state_machine

OMAHA = Path(__file__).parent / "fixtures" / "variants" / "test-omaha.toml"


@pytest.fixture(scope="module")
def game():
    return get_game(str(OMAHA))


@pytest.mark.parametrize(
    ("hole", "board", "exactly_two", "any_five"),
    [
        ("Th9c8d7s", "AhKhQhJh2c", "straight", "straight flush"),  # one heart held: no flush
        ("2c3d4h5s", "AsAdAhKcQd", "three of a kind", "straight"),  # no wheel: two hole cards only
        ("AsAd2c3d", "AhKcKdQs7c", "full house", "full house"),
        ("Ah2c3d4s", "KhQhJhTh9h", "high card", "straight flush"),  # one hole heart is no flush either
        ("AhKh2c3d", "QhJhTh4s5c", "straight flush", "straight flush"),
        ("KsKd7c7d", "KhQs2h3c7h", "three of a kind", "full house"),  # the board holds no pair
    ],
)
def test_known_hands(hole, board, exactly_two, any_five):
    h, b = parse_card_rows([hole]), parse_card_rows([board])
    assert HIGH_CATEGORIES[int(high_category(evaluate_high_exactly_two(h, b))[0])] == exactly_two
    assert HIGH_CATEGORIES[int(high_category(evaluate_high(np.concatenate([h, b], axis=1)))[0])] == any_five


def test_the_reference_is_the_best_of_every_two_and_three_counted_by_hand():
    rng = np.random.default_rng(4)
    for _ in range(200):
        cards = rng.permutation(52)[:9].astype(np.int8)
        hole, board = cards[:4], cards[4:]
        by_hand = max(
            int(evaluate_high(np.array([[*pair, *three]], dtype=np.int8))[0])
            for pair in itertools.combinations(hole, 2)
            for three in itertools.combinations(board, 3)
        )
        assert int(evaluate_high_exactly_two(hole[None, :], board[None, :])[0]) == by_hand


def test_the_description_says_which_rule_it_plays(game):
    assert game.hole_use.value({}) == "exactly-2"


@pytest.mark.parametrize("players", [2, 6, 10])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(game, players):
    u = random_words(np.random.default_rng(players), 300, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 100, {}, u)
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
    hole, board = batch.hole.reshape(-1, 4), np.repeat(batch.boards[:, 0, :], players, axis=0)
    expected = evaluate_high_exactly_two(hole, board).reshape(len(batch), players)
    assert np.array_equal(batch.strength, expected)
    anything = evaluate_high(np.concatenate([hole, board], axis=1)).reshape(len(batch), players)
    assert (anything > expected).any() and (anything >= expected).all()  # the rule bites, never helps


def test_betting_mode_replays_to_the_same_rows_and_settles_as_the_reference(game):
    compiled = assert_betting_mode_replays_and_settles_as_the_reference(game, 5, 150)
    assert compiled.split.any()


def test_a_description_that_cannot_make_an_omaha_hand_is_refused():
    from engine.rules.games.description import DescriptionError, parse_description
    from tests.test_described_game import _holdem_like

    streets = [{"name": "deal", "hole_cards": 1}, {"name": "flop", "board_cards": 3},
               {"name": "river", "board_cards": 2}]  # fmt: skip
    one_card = _holdem_like(hole_use="exactly-2", streets=streets)
    with pytest.raises(DescriptionError) as raised:
        parse_description(one_card)
    assert any("exactly-2 needs 2 hole cards or more" in problem for problem in raised.value.problems)
    parse_description(_holdem_like(hole_use="exactly-2"))  # two hole cards and five board cards: fine


def test_a_game_played_pot_limit_only_plays_its_own_structure_unless_asked(tmp_path):
    """A description's ``structure``: showdown rows carry its PHH code, betting mode plays it by default."""
    import duckdb

    from ingest.generation.simulation import SimSpec, simulate

    text = (
        OMAHA.read_text()
        .replace(
            'phh_codes = { TPO = "pot-limit", TNO = "no-limit", TFO = "fixed-limit" }',
            'phh_codes = { PPLO = "pot-limit" }\nstructure = "pot-limit"',
        )
        .replace('name = "test-omaha"', 'name = "pot-limit-omaha"')
    )
    path = tmp_path / "plo.toml"
    path.write_text(text)
    plo = get_game(str(path))
    assert plo.structure.value == "pot-limit"
    data = tmp_path / "w"
    simulate(SimSpec(str(path), 200, players=4, seed=1), str(data), run_id="s")
    simulate(SimSpec(str(path), 60, players=4, seed=1, mode="betting"), str(data), run_id="b")
    files = f"{data}/hands/**/*.parquet"
    query = f"SELECT DISTINCT variant_code, structure FROM read_parquet('{files}') ORDER BY 2"
    codes = duckdb.sql(query).fetchall()
    assert codes == [("PPLO", "all-in"), ("PPLO", "pot-limit")]  # showdown mode, then betting mode
    with pytest.raises(ValueError, match="--structure must be one of pot-limit"):
        SimSpec(str(path), 10, mode="betting", structure="no-limit").check()
    with pytest.raises(DescriptionError) as raised:
        parse_description(tomllib.loads(text.replace('structure = "pot-limit"', 'structure = "no-limit"')))
    assert any("structure 'no-limit' is not one of pot-limit" in p for p in raised.value.problems)


@pytest.fixture(scope="module")
def four_or_five(tmp_path_factory):
    """An Omaha whose hole cards (4 or 5) are a rule option: the description file."""
    return _omaha_with_a_hole_card_option(tmp_path_factory.mktemp("four-or-five"))


def _omaha_with_a_hole_card_option(tmp_path):
    text = OMAHA.read_text().replace("hole_cards = 4", 'hole_cards = { option = "hole_cards" }')
    text += '\n[options.hole_cards]\ndefault = 4\nchoices = [4, 5]\nhelp = "hole cards each"\n'
    text = text.replace('name = "test-omaha"', 'name = "omaha-4-or-5"').replace(
        "players = [2, 10]", "players = [2, 9]"
    )
    text = text.replace("PO =", "PO45 =").replace("NO =", "NO45 =").replace("FO =", "FO45 =")
    path = tmp_path / "omaha-4-or-5.toml"
    path.write_text(text)
    return path


def test_hole_cards_set_by_an_option_deal_play_and_settle_as_the_reference(four_or_five, tmp_path):
    """A street's hole cards bound to a rule option: dealt, checked against the deck, played, replayed."""
    from ingest.generation.simulation import SimSpec

    path = four_or_five
    game = get_game(str(path))
    assert game.streets_under({"hole_cards": 5})[0].hole_cards == 5
    result = CliRunner().invoke(app, ["variants", "check", str(path)])
    assert "9 players x 4 hole cards + 5 board cards + 3 burns = 44: fits" in result.output, result.output
    assert "with hole_cards = 5: at most 8 players: 8 players x 5 hole cards" in result.output
    for options, players in (({"hole_cards": 5}, 8), ({}, 3)):
        u = random_words(np.random.default_rng(1), 200, words_per_hand(game, players, options))
        batch = simulate_chunk(game, players, 100, options, u)
        assert batch.hole.shape[2] == options.get("hole_cards", 4)
        for h in range(len(batch)):
            _, result = play_through_state_machine(batch, h)
            assert result.won == batch.won[h].tolist(), h
    too_big = (
        _omaha_with_a_hole_card_option(tmp_path).read_text().replace("choices = [4, 5]", "choices = [4, 12]")
    )
    with pytest.raises(DescriptionError) as raised:
        parse_description(tomllib.loads(too_big))
    assert any("with hole_cards = 12" in p for p in raised.value.problems), raised.value.problems
    with pytest.raises(ValueError, match="needs 53 cards, the deck has 52"):
        SimSpec(str(path), 10, players=9, options={"hole_cards": 5}).check()


def test_hole_cards_set_by_an_option_replay_in_betting_mode(four_or_five):
    from tests.test_betting_kernel import assert_replays_to_the_same_rows

    game = get_game(str(four_or_five))
    hands, _ = assert_replays_to_the_same_rows(game, 6, {"hole_cards": 5}, ("tag", "random", "station"), 5,
                                                count=120, stake=1_000)  # fmt: skip
    assert "showdown" in set(hands.column("ending").to_pylist())
    assert all("_options = { hole_cards = 5 }" in text for text in hands.column("phh").to_pylist())
