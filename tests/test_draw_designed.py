"""A draw beside a concept no draw game has: River-draw Hold'em (tests/fixtures/variants/
river-draw-holdem.toml, written from docs/variants.md alone), hold'em whose players may replace
their hole cards after the river card. With no code of its own it simulates (compiled against the
reference, hand by hand), its hand histories replay to their finishing stacks, and its dashboard
page shows, and betting mode plays it (replayed to the same rows)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.dealer import Deck, deal_due
from engine.rules.games import get_game
from engine.rules.games.base import Structure
from engine.rules.state import HandState
from ingest.histories.phh import write_hand
from ingest.histories.record import hand_fields
from scooplab.cli import app
from tests.test_betting_kernel import assert_replays_to_the_same_rows
from tests.test_properties import random_bet
from tests.test_simulate_agreement import play_through_state_machine

DESCRIPTION = Path(__file__).parent / "fixtures" / "variants" / "river-draw-holdem.toml"
runner = CliRunner()


@pytest.fixture(scope="module")
def game():
    return get_game(str(DESCRIPTION))


def test_what_the_game_has(game):
    assert game.draws and [s.name for s in game.streets if s.draw] == ["river"]
    assert game.compiled_gaps == () and game.betting_gaps == ()
    option = next(o for o in game.options if o.name == "draw_policy")
    assert option.choices == ("standard",)  # sampled: a hand of hole cards alone, no board


@pytest.mark.parametrize("players", [2, 6, 9])
def test_showdown_mode_agrees_with_the_state_machine_hand_by_hand(game, players):
    u = random_words(np.random.default_rng(players), 200, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, 100, {}, u)
    drew = 0
    for h in range(len(batch)):
        state, result = play_through_state_machine(batch, h)
        assert result.won == batch.won[h].tolist(), h
        for seat in range(players):
            assert sorted(state.hole[seat]) == sorted(batch.final_hole[h, seat].tolist())
        drew += sum(1 for a in state.actions if a.kind == "draw" and a.cards)
    assert drew > 0


def play_a_hand(game, rnd: random.Random) -> HandState:
    """A random no-limit hand: random bets, standard draws, every hand shown at the end."""
    n = rnd.randint(2, 6)
    state = HandState(game, Structure.NO_LIMIT, [rnd.choice([50, 400, 3000]) for _ in range(n)],
                      blinds=[1, 2] + [0] * (n - 2), min_bet=2)  # fmt: skip
    deck = Deck(52, np.random.default_rng(rnd.getrandbits(32)))
    while not state.is_over and state.phase != "showdown":
        if state.phase in ("deal", "draw"):
            deal_due(state, deck)  # (standard draws)
        else:
            random_bet(state, rnd, fold=0.15, raise_=0.35)
    if not state.is_over:
        for seat in state.live_seats:
            state.show_or_muck(seat, list(state.hole[seat]))
        state.finish()
    return state


@pytest.mark.parametrize(("players", "policies"), [(6, ("tag", "random", "station")), (2, ("tag",))])
def test_betting_mode_replays_to_the_same_rows(game, players, policies):
    hands, _ = assert_replays_to_the_same_rows(game, players, game.resolve_options({}), policies, players,
                                               count=200, stake=1_000)  # fmt: skip
    actions = [line for text in hands.column("phh").to_pylist() for line in text.splitlines()]
    assert any(" sd " in line for line in actions) and any(line.endswith(' sd",') for line in actions)


def test_hand_histories_replay_to_their_stacks_and_the_page_shows(game, tmp_path):
    rnd = random.Random(38)
    hands = [play_a_hand(game, rnd) for _ in range(60)]
    assert any(a.kind == "draw" and a.cards for state in hands for a in state.actions)
    source = tmp_path / "river-draw.phhs"
    texts = [write_hand(hand_fields(state)) for state in hands]
    source.write_text("".join(f"[{i + 1}]\n{text}\n" for i, text in enumerate(texts)))
    data = str(tmp_path / "w")
    result = runner.invoke(app, ["ingest", str(source), "--variant", str(DESCRIPTION), "--data", data,
                                 "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    result = runner.invoke(app, ["query", "--data", data, "--format", "json",
                                 "SELECT count(*) AS n FROM hands WHERE record = 'checked'"])  # fmt: skip
    assert result.exit_code == 0 and json.loads(result.output)[0]["n"] == 60, result.output
    result = runner.invoke(app, ["simulate", "--variant", str(DESCRIPTION), "--hands", "3000", "--seed", "4",
                                 "--workers", "1", "--data", data])  # fmt: skip
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["stats", "--variant", str(DESCRIPTION), "--data", data, "--format", "json"])
    assert result.exit_code == 0, result.output
    river = json.loads(result.output)["draws_by_street"][0]
    assert river["street"] == "river" and river["draws"] > 0
    import os

    from tests.test_dashboard import game_page

    os.environ["SCOOPLAB_DATA"] = data
    page = game_page("river-draw-holdem")
    assert not page.exception and page.title[0].value == "River-draw Hold'em"
