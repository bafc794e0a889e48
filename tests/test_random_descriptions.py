"""No description played wrong (issue #55): random descriptions drawn from the concepts of the
description language (streets with and without betting, boards before the first betting round, hole
cards on later streets, up cards, antes, blinds of every kind, a bring-in, draws to a low or a high,
several boards, shares of every kind, a qualifier on a high share, hole-card ranges, decks by their
ranks) are played in betting mode by the compiled core, and every hand is replayed through the
reference state machine from its PHH text: the same rows, hand for hand, chips conserved.

The default suite draws a few dozen descriptions; the soak draws 2,000.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.games.description import DescriptionError, parse_description
from ingest.histories.phh import parse_hand_text
from tests.test_betting_kernel import assert_replays_to_the_same_rows

STRUCTURES = {
    "no-limit": Structure.NO_LIMIT,
    "pot-limit": Structure.POT_LIMIT,
    "fixed-limit": Structure.FIXED_LIMIT,
}
POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


@st.composite
def descriptions(draw) -> dict:
    """A description dict of a game the language can say (it may still fail its checks: rejected)."""
    draws = draw(st.integers(0, 9)) == 0  # a draw game: no board, a low, badugi or high ranking
    ranking = (
        draw(st.sampled_from(["deuce-to-seven-low", "badugi", "standard-high"])) if draws else "standard-high"
    )
    if not draws and draw(st.integers(0, 5)) == 0:
        ranking = "ace-to-five-low"
    n_boards = 1 if draws else draw(st.sampled_from([1, 1, 2]))
    first_hole = (
        (5 if ranking == "standard-high" else draw(st.integers(4, 5))) if draws else draw(st.integers(1, 4))
    )
    streets = [{"name": "s0", "hole_cards": first_hole, "betting": draw(st.integers(0, 3)) > 0}]
    up_game = not draws and n_boards == 1 and ranking != "badugi" and draw(st.integers(0, 4)) == 0
    for i in range(1, draw(st.integers(1, 4)) + 1):
        street = {"name": f"s{i}", "betting": draw(st.integers(0, 4)) > 0, "burns": draw(st.integers(0, 1)),
                  "big_bet": i >= 2}  # fmt: skip
        if draws:
            street["draw"] = True
        elif up_game:
            street |= {"hole_cards": 1, "up_cards": draw(st.integers(0, 1))}
        else:
            street["board_cards"] = draw(st.integers(0 if i > 1 else 1, 3))
            if draw(st.integers(0, 5)) == 0:
                street["hole_cards"] = 1
        streets.append(street)
    if up_game and draw(st.booleans()):
        streets[0]["up_cards"] = 1
    data = {
        "name": "random-game", "title": "Random game", "deck": "standard", "ranking": ranking,
        "players": [2, draw(st.integers(2, 6))], "phh_codes": {f"{c}RND": s for c, s in
                                                               (("N", "no-limit"), ("P", "pot-limit"),
                                                                ("F", "fixed-limit"))},
        "boards": [{"name": f"b{i}"} for i in range(n_boards)], "streets": streets,
    }  # fmt: skip
    if not draws and ranking == "standard-high" and draw(st.integers(0, 3)) == 0:
        data["hole_use"] = draw(
            st.sampled_from(["exactly-2", "at-most-1", "at-most-2", "at-least-2", "exactly-1"])
        )
    if ranking == "standard-high" and draw(st.integers(0, 5)) == 0:  # a deck by its ranks
        data["deck"] = {"ranks": draw(st.sampled_from(["789TJQKA", "6789TJQKA", "456789TJQKA"]))}
    data["shares"] = _shares(draw, data, n_boards, ranking)
    data["betting"] = _betting(draw, data, up_game)
    return data


def _shares(draw, data: dict, n_boards: int, ranking: str) -> list[dict]:
    high: dict = {"wins": "best-high"}
    if ranking == "standard-high" and draw(st.integers(0, 3)) == 0:  # a qualifier (Archie's nines)
        ranks = data["deck"]["ranks"] if isinstance(data["deck"], dict) else "23456789TJQKA"
        category = draw(st.sampled_from(["pair", "two pair", "straight"]))
        high["qualifier"] = {"category": category, "rank": draw(st.sampled_from(list(ranks)))}
        data["unqualified"] = draw(st.sampled_from(["split", "best-high"]))
    if n_boards == 2:
        return [high | {"each": "surviving-board"}]
    shares = [high]
    extra = draw(st.integers(0, 3)) if ranking == "standard-high" else 0
    if extra == 1:
        shares.append({"wins": "best-low", "qualifier": draw(st.sampled_from([8, 9, 13]))})
    elif extra == 2 and data.get("hole_use") != "exactly-2":
        shares.append({"wins": "lowest-points", "points": POINTS})
    return shares


def _betting(draw, data: dict, up_game: bool) -> dict:
    betting: dict = {}
    if up_game and draw(st.booleans()):
        data["streets"][0] |= {"up_cards": 1, "opener": "low-card"}
        data["structure"] = "fixed-limit"
        return {"bring_in": True, "ante": draw(st.sampled_from([0.25, 0.5]))}
    betting["blinds"] = draw(st.sampled_from(["small-big", "button", "none"]))
    ante = draw(st.sampled_from([0, 0, 0.25, 1]))
    if ante:
        betting["ante"] = ante
    return betting


@contextmanager
def known(spec):
    """The game known by its PHH codes while its hands are replayed."""
    GAMES[spec.name] = spec
    try:
        yield spec
    finally:
        GAMES.pop(spec.name, None)


def assert_played_right(data: dict, structure_name: str, seed: int, players: int) -> None:
    try:
        spec = parse_description(data)
    except DescriptionError:
        assume(False)
    assume(not spec.compiled_gaps and not spec.betting_gaps)
    structure = STRUCTURES[data.get("structure", structure_name)]
    players = max(spec.min_players, min(players, spec.max_players))
    with known(spec):
        hands, chosen = assert_replays_to_the_same_rows(
            spec, players, {}, ("random", "tag", "station"), seed, 6, 300, structure=structure)  # fmt: skip
    assert len(chosen) == 6
    for h, text in enumerate(hands.column("phh").to_pylist()):  # chips are conserved
        assert sum(parse_hand_text(text, "random.phh", h).fields["finishing_stacks"]) == 300 * players, text


SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}


@settings(max_examples=30, **SETTINGS)
@given(data=descriptions(), structure=st.sampled_from(sorted(STRUCTURES)), seed=st.integers(0, 2**16),
       players=st.integers(2, 6))  # fmt: skip
def test_random_descriptions_play_alike_in_the_compiled_core_and_the_state_machine(
    data, structure, seed, players
):
    assert_played_right(data, structure, seed, players)


@pytest.mark.soak
@settings(max_examples=2_000, **SETTINGS)
@given(data=descriptions(), structure=st.sampled_from(sorted(STRUCTURES)), seed=st.integers(0, 2**16),
       players=st.integers(2, 6))  # fmt: skip
def test_two_thousand_random_descriptions_play_alike(data, structure, seed, players):
    assert_played_right(data, structure, seed, players)
