"""Property tests: random legal play in every game and structure keeps the rules."""

import tomllib
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.dealer import Deck, deal_due
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.games.description import most_players
from engine.rules.games.showdown import forced_out
from engine.rules.state import HandState, IllegalAction
from ingest.histories.phh import write_hand
from ingest.histories.record import action_texts, hand_fields
from ingest.histories.replay import replay

GAME_STRUCTURES = [
    (name, structure) for name, game in sorted(GAMES.items()) for structure in game.variant_codes.values()
]


def new_state(game, structure, stacks, antes, options) -> HandState:
    n = len(stacks)
    blinds = [0] * n if game.starting_bet or game.bring_in else [1, 2] + [0] * (n - 2)
    return HandState(
        game,
        structure,
        stacks,
        antes=[antes] * n,
        blinds=blinds,
        min_bet=None if game.starting_bet else 2,
        small_bet=2,
        big_bet=4,
        starting_bet=2,
        bring_in=1 if game.bring_in else None,
        options=options,
    )


def random_bet(state: HandState, rnd, fold: float, raise_: float) -> None:
    """The seat to act folds (when facing a bet) with chance ``fold``, raises a uniform legal amount
    (when it may) below ``raise_``, else checks or calls."""
    seat, options = state.next_seat, state.options_for(state.next_seat)
    roll = rnd.random()
    if roll < fold and options["call"]:
        state.fold(seat)
    elif roll < raise_ and options["can_raise"]:
        state.bet_or_raise(seat, rnd.randint(options["min_to"], options["max_to"]))
    else:
        state.check_or_call(seat)


def play_randomly(state: HandState, deck: Deck, rnd) -> None:
    """Play a hand to its end with random legal choices."""
    while not state.is_over and state.phase != "showdown":
        if state.phase in ("deal", "draw"):  # (a draw throws random cards)
            deal_due(state, deck, lambda state, seat: [c for c in state.hole[seat] if rnd.random() < 0.4])
            continue
        seat = state.next_seat
        choice = state.options_for(seat)
        roll = rnd.random()
        if choice["bring_in"] and (roll < 0.6 or not choice["can_raise"]):
            state.post_bring_in(seat)
        elif roll < 0.15 and choice["call"] > 0:
            state.fold(seat)
        elif roll < 0.6 or not choice["can_raise"]:
            state.check_or_call(seat)
        else:
            low = min(choice["min_to"], choice["max_to"])
            state.bet_or_raise(seat, rnd.randint(low, choice["max_to"]))
    state.finish()


@st.composite
def random_hands(draw, name: str, structure: Structure):
    game = GAMES[name]
    options = {option.name: draw(st.sampled_from(option.choices)) for option in game.options}
    n = draw(st.integers(game.min_players, most_players(game, options)))  # the tables the deck deals
    stacks = draw(st.lists(st.integers(1, 300), min_size=n, max_size=n))
    antes = draw(st.integers(0, 3)) if not game.starting_bet else draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rnd = draw(st.randoms(use_true_random=False))
    state = new_state(game, structure, stacks, antes, options)
    play_randomly(state, Deck(game.deck.size, np.random.default_rng(seed)), rnd)
    return state


@pytest.mark.parametrize(("name", "structure"), GAME_STRUCTURES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_keeps_the_rules_and_round_trips(name, structure, data):
    state = data.draw(random_hands(name, structure))
    # chips are conserved
    assert sum(state.stacks) == sum(state.starting_stacks)
    assert all(stack >= 0 for stack in state.stacks)
    assert sum(state.result.won) == sum(state.contributed)
    # no card is dealt twice
    dealt = [c for cards in state.dealt_hole for c in cards] + [c for b in state.boards for c in b]
    if state.game.draws:  # a card comes again only after it was thrown (the discards reshuffled)
        thrown = Counter(c for cards in state.discarded for c in cards)
        assert all(count - 1 <= thrown[card] for card, count in Counter(dealt).items())
        held = [c for seat in state.live_seats for c in state.hole[seat]]
        assert len(held) == len(set(held))
    else:
        assert len(dealt) == len(set(dealt))
        assert len(dealt) <= state.game.deck.size
    # every forced discard happened
    if state.game.discard_board is not None:
        bottom = state.boards[state.game.discard_board]
        for seat in range(state.n):
            if not state.folded[seat]:
                assert forced_out(state.hole[seat], bottom) == []
            assert sorted(state.hole[seat] + state.discarded[seat]) == sorted(state.dealt_hole[seat])
            assert state.dead[seat] == (not state.hole[seat] and bool(bottom))
    # PHH round trip: write, read as TOML, replay: same actions, same stacks
    fields = tomllib.loads(write_hand(hand_fields(state)))
    replayed = replay(fields)
    assert replayed.state.stacks == state.stacks
    assert action_texts(replayed.state) == fields["actions"]
    assert replayed.result.ending == state.result.ending


def test_a_card_is_never_dealt_twice():
    game = GAMES["holdem"]
    state = new_state(game, Structure.NO_LIMIT, [100, 100], 0, {})
    state.deal_hole(0, [0, 1])
    with pytest.raises(IllegalAction, match="2c was already dealt"):
        state.deal_hole(1, [0, 5])


@pytest.mark.parametrize(("name", "structure"), GAME_STRUCTURES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mucks_in_any_order_never_lose_a_chip(name, structure, data):
    """Random play to the showdown, then random shows and mucks: every chip goes to a player."""
    game = GAMES[name]
    options = {option.name: data.draw(st.sampled_from(option.choices)) for option in game.options}
    n = data.draw(st.integers(game.min_players, most_players(game, options)))
    stacks = data.draw(st.lists(st.integers(1, 300), min_size=n, max_size=n))
    antes = data.draw(st.integers(0 if not game.starting_bet else 1, 3))
    state = new_state(game, structure, stacks, antes, options)
    deck = Deck(game.deck.size, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    rnd = data.draw(st.randoms(use_true_random=False))
    while not state.is_over and state.phase != "showdown":
        if state.phase in ("deal", "draw"):
            deal_due(state, deck)
        else:
            if state.options_for(state.next_seat)["bring_in"]:
                state.post_bring_in(state.next_seat)
            else:
                state.check_or_call(state.next_seat) if rnd.random() < 0.7 else state.fold(state.next_seat)
    if not state.is_over:
        for seat in data.draw(st.permutations(state.live_seats)):
            state.show_or_muck(seat, None if data.draw(st.booleans()) else list(state.hole[seat]))
    result = state.finish()
    assert sum(result.won) == sum(state.contributed) and sum(state.stacks) == sum(state.starting_stacks)
    mucked = [s for s in range(state.n) if state.mucked[s]]
    if state.result.ending == "showdown" and len(mucked) == len(state.live_seats):
        last = max(mucked, key=lambda s: state.muck_order[s])
        assert result.won[last] > 0  # every hand mucked: the last to muck takes what it reached
