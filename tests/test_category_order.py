"""A category order of a game's own and the 36-card short deck, concepts of the rules core: the
ordered evaluator against the best of every five cards under the order, the short deck's
straights, the description's checks, and the compiled core against the readable reference hand
by hand (showdown mode and betting mode), through the test game
tests/fixtures/variants/flush-over-full.toml."""

import itertools
import tomllib
from pathlib import Path

import numpy as np
import pytest

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import SHORT, STANDARD, parse_card_rows
from engine.hands.evaluate import HIGH_CATEGORIES, evaluate_high, high_category
from engine.hands.rankings import RANKINGS, check_category_order
from engine.rules.games import get_game
from engine.rules.games.description import DescriptionError, parse_description
from tests.test_described_game import assert_betting_mode_replays_and_settles_as_the_reference
from tests.test_simulate_agreement import play_through_state_machine

FLUSH_OVER_FULL = Path(__file__).parent / "fixtures" / "variants" / "flush-over-full.toml"
USUAL = list(HIGH_CATEGORIES)


def _order(*moves: tuple[str, int]) -> list[str]:
    """The usual order with each named category moved to a place (weakest 0)."""
    order = list(USUAL)
    for name, place in moves:
        order.remove(name)
        order.insert(place, name)
    return order


ORDERS = {
    "trips over straight, flush over full house": _order(("straight", 3), ("flush", 6)),
    "straight over flush": _order(("straight", 5)),
    "flush just above high card": _order(("flush", 1)),
    "straight just above high card": _order(("straight", 1)),
    "straight over four of a kind": _order(("straight", 7)),
}


def _by_every_five(cards: np.ndarray, deck, places) -> np.ndarray:
    """The best hand of each row as the best five-card subset under ``places`` (counted by hand)."""
    best = np.full(cards.shape[0], -1, dtype=np.int64)
    for five in itertools.combinations(range(cards.shape[1]), 5):
        value = evaluate_high(cards[:, list(five)], deck)  # five cards: one category, no order needed
        placed = np.array(places, dtype=np.int64)[high_category(value)] << 24 | value
        best = np.maximum(best, placed)
    return best


@pytest.mark.parametrize("cards", [7, 9], ids=["7 cards", "9 cards"])
@pytest.mark.parametrize("deck", [STANDARD, SHORT], ids=["52 cards", "36 cards"])
@pytest.mark.parametrize("name", sorted(ORDERS))
def test_the_best_hand_under_an_order_is_the_best_of_every_five(deck, name, cards):
    """Seven cards never hold a flush and a full house, or a straight and four of a kind, at
    once; nine cards do, so both decide some rows."""
    places, problem = check_category_order(RANKINGS["standard-high"], ORDERS[name])
    assert problem is None and places is not None
    rng = np.random.default_rng(len(name) + cards)
    rows = np.array([rng.permutation(deck.size)[:cards] for _ in range(4_000 if cards == 7 else 1_500)],
                    dtype=np.int8)  # fmt: skip
    ours = evaluate_high(rows, deck, places)
    assert np.array_equal(ours, _by_every_five(rows, deck, places))
    assert np.array_equal(ours >> 24, np.array(places)[high_category(ours)])  # the place sits above


@pytest.mark.parametrize(
    ("cards", "category", "top"),
    [
        ("As6d7h8c9s", "straight", "9"),  # the ace plays below the six
        ("6d7h8c9sTs", "straight", "T"),
        ("AsKdQhJcTs", "straight", "A"),
        ("Ah6h7h8h9h", "straight flush", "9"),
        ("AsAd6c6hKd", "two pair", "A"),
        ("9s9d9c7h6d", "three of a kind", "9"),
    ],
)
def test_short_deck_hands(cards, category, top):
    strength = int(evaluate_high(parse_card_rows([cards], SHORT), SHORT)[0])
    assert HIGH_CATEGORIES[int(high_category(strength))] == category
    assert SHORT.ranks[(strength >> 16) & 0xF] == top


def test_a_wheel_of_the_standard_deck_is_no_straight_in_the_short_deck():
    with pytest.raises(ValueError, match="short deck"):
        parse_card_rows(["As2d3h4c5s"], SHORT)
    six_high = evaluate_high(parse_card_rows(["6d7h8c9sTs"], SHORT), SHORT)
    wheel = evaluate_high(parse_card_rows(["As6d7h8c9s"], SHORT), SHORT)
    assert wheel < six_high


@pytest.mark.parametrize(
    ("order", "problem"),
    [
        (USUAL[:-1], "must name each of"),
        (_order(("straight flush", 0)), "straight flush the strongest"),
        (_order(("straight", 0)), "high card the weakest"),
        (_order(("full house", 2)), "in that order"),
        (_order(("pair", 3)), "in that order"),
    ],
)
def test_orders_the_evaluator_cannot_play_are_refused(order, problem):
    assert problem in check_category_order(RANKINGS["standard-high"], order)[1]


def _with(text: str, old: str, new: str) -> dict:
    assert old in text
    return tomllib.loads(text.replace(old, new, 1))


def test_a_description_with_an_order_it_cannot_play_names_the_problem():
    text = FLUSH_OVER_FULL.read_text()
    swapped = ('"four of a kind", "straight flush",\n], off', '"straight flush", "four of a kind",\n], off')
    named = 'category_order = { option = "flush_beats_full_house", on = ['
    broken = {
        "straight flush the strongest": swapped,
        "no order for option flush_beats_full_house = False": ("], off = [", "], of = ["),
        "unknown key 'of'": ("], off = [", "], of = ["),
        "keeps its own category order": ('ranking = "standard-high"', 'ranking = "seven-rank"'),
        "give the category names": (named, named + "1, "),
    }
    for problem, (old, new) in broken.items():
        with pytest.raises(DescriptionError) as raised:
            parse_description(_with(text, old, new))
        assert any(problem in p for p in raised.value.problems), (problem, raised.value.problems)


@pytest.fixture(scope="module")
def game():
    return get_game(str(FLUSH_OVER_FULL))


def test_the_option_puts_the_flush_over_the_full_house(game):
    flush, full = parse_card_rows(["AhKh9h5h2h", "2c2d2s3c3d"])
    for on, flush_wins in ((True, True), (False, False)):
        places = game.category_places({"flush_beats_full_house": on})
        values = evaluate_high(np.stack([flush, full]), game.deck, places)
        assert bool(values[0] > values[1]) == flush_wins


@pytest.mark.parametrize("on", [True, False])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(game, on):
    options = {"flush_beats_full_house": on}
    u = random_words(np.random.default_rng(3), 1_500, words_per_hand(game, 9, options))
    batch = simulate_chunk(game, 9, 100, options, u)
    hole, board = batch.hole.reshape(-1, 2), np.repeat(batch.boards[:, 0, :], 9, axis=0)
    expected = evaluate_high(np.concatenate([hole, board], axis=1), game.deck, game.category_places(options))
    assert np.array_equal(batch.strength, expected.reshape(len(batch), 9))
    categories = high_category(batch.strength)
    flush_and_full = ((categories == 5).any(axis=1) & (categories == 6).any(axis=1)).sum()
    assert flush_and_full > 0  # the hands where the option decides are dealt
    for h in range(len(batch)):
        _, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h


def test_betting_mode_replays_to_the_same_rows_and_settles_as_the_reference(game):
    assert_betting_mode_replays_and_settles_as_the_reference(game, 4, 150)


def test_statistics_list_the_categories_in_the_games_order_with_their_exact_law(game, tmp_path):
    from analytics.stats import game_stats
    from ingest.generation.simulation import SimSpec, simulate

    simulate(SimSpec(str(FLUSH_OVER_FULL), 20_000, players=2, seed=5), str(tmp_path), run_id="on")
    stats = game_stats(tmp_path, game.name)
    listed = [c["category"] for c in stats["categories_showdown"]]
    assert listed.index("flush") == listed.index("full house") + 1  # weakest first, in the game's order
    usual = {c: p for c, p in zip(USUAL, _usual_seven_card_law(), strict=True)}
    for row in stats["categories_showdown"]:  # seven cards never hold a flush and a full house at once
        assert row["exact"] == pytest.approx(usual[row["category"]], abs=1e-12)
        assert abs(row["z"]) < 4.5
    rarity = {r["category"]: r for r in stats["rank_against_rarity"]}
    # seven cards of 52 make a flush more often than a full house: over it, the flush breaks rarity
    assert "full house" in rarity["flush"]["more_common_than"]
    assert "flush" not in rarity["full house"]["more_common_than"]


def _usual_seven_card_law():
    from analytics.exact import seven_card_categories

    return seven_card_categories("standard-high")
