"""A discard-trigger board turned over more than three streets, through a test game
(tests/fixtures/variants/turned-discard-board.toml: two cards to each board, then one card on
each of three more streets): forced discards street by street in the compiled core against
the reference, betting-mode hands replayed, and the statistics per street, named after the
game's own streets, from summaries and from SQL alike."""

from collections import Counter
from math import sqrt
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pytest

from analytics.exact import first_discards
from engine.compiled.sim_kernels import T_DEAD_ON_FIRST, T_STREET
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.games import get_game
from engine.rules.games.description import STREET_SLOTS, DescriptionError, parse_description
from ingest.generation.betting_sim import batch_tables, play_batch
from tests.test_described_game import _holdem_like, assert_betting_mode_replays_and_settles_as_the_reference
from tests.test_simulate_agreement import play_through_state_machine

DESCRIPTION = Path(__file__).parent / "fixtures" / "variants" / "turned-discard-board.toml"
STREETS = ("two", "three", "four", "five")


@pytest.fixture(scope="module")
def game():
    return get_game(str(DESCRIPTION))


def assert_discards_agree_with_the_state_machine(batch) -> None:
    """Every hand of a batch of a game with a discard board: chips, dead seats, and the hole cards
    each seat lost on each street, against the reference's discard actions."""
    names = [street.name for street in batch.game.streets]
    fates = batch.extra["discard_street"]  # (hands, seats, hole cards): 0 kept, else the street's number
    for h in range(len(batch)):
        state, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        assert state.dead == batch.extra["dead"][h].tolist(), h
        theirs = Counter()
        for action in state.actions:
            if action.kind == "discard":
                theirs[action.seat, names.index(action.street)] += len(action.cards)
        ours = Counter()
        for (seat, _), street in np.ndenumerate(fates[h]):
            if street > 0:
                ours[seat, int(street)] += 1
        assert ours == theirs, h


@pytest.mark.parametrize("players", [2, 7])
def test_forced_discards_street_by_street_agree_with_the_state_machine(game, players):
    u = random_words(np.random.default_rng(players), 400, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 101, {}, u)
    assert_discards_agree_with_the_state_machine(batch)
    fates = batch.extra["discard_street"]
    tally = batch.extra["tally"]
    for street in range(1, len(game.streets)):  # the kernel's tally counts exactly these fates
        assert tally[T_STREET + street - 1] == (fates == street).sum()
    assert (fates == 4).any()  # cards do leave on the fourth street after the deal
    assert tally[T_STREET + len(game.streets) - 1 : T_STREET + STREET_SLOTS].sum() == 0
    assert tally[T_DEAD_ON_FIRST] == (fates == 1).all(axis=2).sum()


def test_betting_mode_replays_to_the_same_rows_and_settles_as_the_reference(game):
    assert_betting_mode_replays_and_settles_as_the_reference(game, seed=11, count=200)
    words = np.random.default_rng(5).integers(0, 2**64, size=4, dtype=np.uint64)  # as the helper plays
    batch = play_batch(game, 6, 1_000, {}, ["tag", "random", "station"], words, 200)
    named = {"run_id": "k", "shard": 0, "first": 0, "stake": 1_000, "options": {}}
    _, _, actions = batch_tables(game, batch, **named, policies=["tag", "random", "station"])
    discards = actions.filter(pc.equal(actions.column("action"), "discard")).column("street").to_pylist()
    assert set(discards) == set(STREETS)  # forced discards on every street after the deal


def test_statistics_per_street_from_summaries_and_from_sql_alike(tmp_path):
    from analytics.stats import game_stats
    from ingest.generation.simulation import SimSpec, simulate

    hands, players = 6_000, 5
    simulate(SimSpec(str(DESCRIPTION), hands, players=players, seed=3), str(tmp_path))
    name = get_game(str(DESCRIPTION)).name
    fast, slow = game_stats(tmp_path, name), game_stats(tmp_path, name, use_summaries=False)
    assert fast.pop("tips")["forced_out_by_rank"] and not slow.pop("tips")["forced_out_by_rank"]
    assert set(fast.pop("labels")) > set(slow.pop("labels"))  # (the tips' labels too)
    assert fast == slow  # the kernel's tallies and SQL over the stored rows (tips: simulated hands alone)
    assert [r["cards"] for r in fast["remaining_hole_cards"]] == [1, 2, 3, 4]
    streets = fast["forced_discards"]
    assert tuple(streets) == STREETS and all(streets[s]["discards"] > 0 for s in STREETS)
    expected, dead = first_discards(4, 2)  # the first street turns two discard-board cards
    assert streets["two"]["exact_per_player"] == pytest.approx(expected)
    seats = hands * players  # seats are not independent (they share a board): a loose bound
    assert abs(streets["two"]["per_player"] - expected) < 8 * sqrt(expected / seats)
    assert fast["dead_on_first_street_rate"]["exact"] == pytest.approx(dead)


def test_more_streets_than_the_core_counts_are_refused():
    streets = [{"name": "deal", "hole_cards": 2}] + [
        {"name": f"s{k}", "board_cards": 1 if k <= 5 else 0} for k in range(1, STREET_SLOTS + 2)
    ]
    boards = [{"name": "top"}, {"name": "bottom", "role": "discard-trigger"}]
    with pytest.raises(DescriptionError) as raised:
        parse_description(_holdem_like(streets=streets, boards=boards,
                                       shares=[{"wins": "best-high", "board": "top"}]))  # fmt: skip
    assert any(f"at most {STREET_SLOTS} streets after the deal" in p for p in raised.value.problems), (
        raised.value.problems
    )
