"""The compiled showdown path and the state machine agree, hand by hand, in every game and option."""

import itertools

import numpy as np
import pytest

from engine.compiled.draw_kernel import decision_seed
from engine.compiled.simulate import ENDINGS, draw_policy, random_words, simulate_chunk, words_per_hand
from engine.hands.rankings import RANKINGS
from engine.rules.draw_policy import sampled_discards, standard_discards
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.games.description import most_players
from engine.rules.state import HandState

STAKE = 100
SAMPLED_CHECKED = 2  # hands of a sampled drawing policy whose every decision the reference repeats

COMPILED_GAMES = sorted(n for n, g in GAMES.items() if not g.compiled_gaps)  # the rest: tests/test_stud.py


def option_sets(game):
    names = [o.name for o in game.options]
    for values in itertools.product(*(o.choices[:3] for o in game.options)):
        yield dict(zip(names, values, strict=True))


def play_through_state_machine(batch, h):
    """Deal hand ``h`` of ``batch`` card for card through HandState, everyone all in."""
    game, n, stake = batch.game, batch.n_players, batch.stake
    if game.starting_bet:  # Skœjarth: ante, then the starting bet that everyone calls all in
        state = HandState(game, Structure.NO_LIMIT, [stake] * n, antes=[stake - 2] * n,
                          starting_bet=2, options=batch.options)  # fmt: skip
    else:
        state = HandState(game, Structure.NO_LIMIT, [stake] * n, antes=[stake] * n, min_bet=2,
                          options=batch.options)  # fmt: skip
    hole, boards, lay = batch.hole[h], batch.boards[h], batch.layout
    for street in range(lay.n_streets):  # each street's hole cards, then its board cards
        if state.is_over:
            break
        columns = np.flatnonzero(lay.hole_street == street)
        for seat in range(n * bool(len(columns))):
            state.deal_hole(seat, hole[seat, columns].tolist())
        while state.phase == "bet":
            state.check_or_call(state.next_seat)
        _draw_as_compiled(state, batch, h)
        columns = np.flatnonzero(lay.board_street == street)
        if len(columns):
            state.deal_board([boards[b, columns].tolist() for b in range(boards.shape[0])])
            if game.discard_board is not None:
                state.apply_forced_discards()
            _draw_as_compiled(state, batch, h)  # (a street draws after its cards)
    return state, state.finish()


def _draw_as_compiled(state, batch, h) -> None:
    """A draw round as the compiled core played it: each seat throws what the reference policy says
    (which must be what the compiled one threw) and is dealt the cards the compiled stub gave."""
    ranking = RANKINGS[batch.game.ranking]
    sampled = batch.options.get("draw_policy") == "sampled"
    while state.phase == "draw":
        seat, street = state.drawers[0], state.street_index
        thrown = [c for c in batch.extra["thrown"][h, street, seat].tolist() if c >= 0]
        if not sampled:
            expected = standard_discards(ranking, state.hole[seat], batch.game.deck, batch.game.low_hands)
            assert sorted(thrown) == expected, (h, street, seat)
        elif h < SAMPLED_CHECKED and batch.n_players == 2:  # (the reference plays every deal out in Python)
            policy = draw_policy(batch.game, batch.options)
            seed = decision_seed(int(batch.extra["draw_seed"][h]), street, seat)
            draws_left = sum(s.draw for s in batch.game.streets[street + 1 :])
            reference = sampled_discards(ranking, state.hole[seat], draws_left, (policy.keys, policy.below),
                                         policy.samples, seed)  # fmt: skip
            assert sorted(thrown) == reference, (h, street, seat)
        state.discard(seat, thrown)
        received = [c for c in batch.extra["received"][h, street, seat].tolist() if c >= 0]
        if received:
            state.deal_hole(seat, received)
    while state.phase == "bet":
        state.check_or_call(state.next_seat)


@pytest.mark.parametrize("name", COMPILED_GAMES)
def test_compiled_showdown_agrees_with_the_state_machine(name):
    game = GAMES[name]
    rng = np.random.default_rng(7)
    for options in option_sets(game):
        most = most_players(game, options)  # a deck that runs short: seven skip a burn, eight share a card
        sizes = {game.min_players, 3, most} | ({most - 1} if game.deck_runs_short else set())
        for n in sorted(sizes):
            hands = 150 if options.get("draw_policy") != "sampled" else 12  # (sampled: slow by design)
            u = random_words(rng, hands, words_per_hand(game, n, options))
            stake = STAKE + (n == most)  # an odd stake too: odd chips between halves and boards
            batch = simulate_chunk(game, n, stake, options, u)
            for h in range(len(batch)):
                state, result = play_through_state_machine(batch, h)
                assert result.won == batch.won[h].tolist(), (name, options, n, h)
                assert result.ending == ENDINGS[batch.ending[h]]
                if result.ending == "showdown":
                    for seat in range(n):
                        ours = result.outcomes[seat].high_strength
                        assert (ours if ours is not None else -1) == batch.strength[h, seat]
                assert state.dead == batch.extra["dead"][h].tolist()
                played = batch.game  # the game under these options (its shares in force)
                if played.low_half and result.ending == "showdown":
                    high_low = batch.extra["won_high"][h] + batch.extra["won_low"][h]
                    assert result.won == high_low.tolist()
                    for seat in range(n):
                        outcome = result.outcomes[seat]
                        assert outcome.won_high == batch.extra["won_high"][h, seat]
                        assert outcome.won_low == batch.extra["won_low"][h, seat]
                if result.ending == "showdown":
                    alive = tuple(np.flatnonzero(batch.extra["survivors"][h]).tolist())
                    assert result.surviving_boards == alive
                    for seat in range(n * played.board_shares):
                        assert result.outcomes[seat].board_won == tuple(batch.extra["board_won"][h, seat])
                        assert result.outcomes[seat].triple_scoop == batch.extra["triple_scoop"][h, seat]


def uniforms_for(sequence: list[int], size: int) -> np.ndarray:
    """Random words that make the kernels' Fisher–Yates deal exactly ``sequence``."""
    deck = list(range(size))
    halves = []
    for i, card in enumerate(sequence):
        j = deck.index(card)
        halves.append(((2 * (j - i) + 1) << 32) // (2 * (size - i)))  # r with r*(size-i)>>32 == j-i
        deck[i], deck[j] = deck[j], deck[i]
    if len(halves) % 2:
        halves.append(0)
    words = [low | (high << 32) for low, high in zip(halves[::2], halves[1::2], strict=True)]
    return np.array([words], dtype=np.uint64)


def test_uniforms_for_deals_the_sequence():
    sequence = list(range(51, 39, -1))  # hold'em heads-up deals 12 cards (burns included)
    batch = simulate_chunk(GAMES["holdem"], 2, STAKE, {}, uniforms_for(sequence, 52))
    assert batch.cards[0].tolist() == sequence


def test_scarney_rare_endings_agree():
    """Players die: one left (uncontested), and two dying on the same street (everyone dead)."""
    game = GAMES["scarney"]
    rng = np.random.default_rng(11)
    u = random_words(rng, 20000, words_per_hand(game, 2, {}))
    batch = simulate_chunk(game, 2, STAKE, {}, u)
    uncontested = np.flatnonzero(batch.ending == 1)
    assert len(uncontested) > 0
    for h in uncontested[:50]:
        _, result = play_through_state_machine(batch, h)
        assert (result.won, result.ending) == (batch.won[h].tolist(), "uncontested")
    # p1 7c7d8c8d9dTc, p2 7h8h9h9sTdTh; Bottom flop 7s8s9c, Bottom turn Ts: both die on the turn
    from engine.hands.cards import parse_cards

    p1, p2 = parse_cards("7c7d8c8d9dTc").tolist(), parse_cards("7h8h9h9sTdTh").tolist()
    hole = [card for pair in zip(p1, p2, strict=True) for card in pair]  # round-robin
    boards = parse_cards("AhKhQh7s8s9cJhTs2c2d").tolist()  # top flop, bottom flop, turns, rivers
    batch = simulate_chunk(game, 2, STAKE, {}, uniforms_for(hole + boards, 52))
    assert ENDINGS[batch.ending[0]] == "everyone_dead"
    state, result = play_through_state_machine(batch, 0)
    assert (
        (result.won, result.ending)
        == (batch.won[0].tolist(), "everyone_dead")
        == ([100, 100], "everyone_dead")
    )
    assert state.dead == [True, True]
