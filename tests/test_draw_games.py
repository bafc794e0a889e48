"""Draw games in the reference state machine (RULINGS, "Draw"): draws in turn, the stub running out.

A dealer written here from the rulings alone (not the engine's ``Stub``) deals random hands of
deuce-to-seven single and triple draw and badugi with random discards, reshuffling the discards
made before a draw (never the drawing player's) into a new stub when it cannot cover the draw.
The state machine must accept every hand, conserve chips, never let two players hold one card,
and leave every player the cards the game deals; it must refuse a card that breaks the stub.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hands.cards import UNKNOWN_CARD, card_list
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.state import HandState, IllegalAction
from tests.test_properties import random_bet

DRAW_GAMES = ("deuce-to-seven-single-draw", "deuce-to-seven-triple-draw", "badugi")


class RulingsDealer:
    """A shuffled deck, a burn before each draw, discards reshuffled per RULINGS."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.stub = list(range(52))
        rnd.shuffle(self.stub)
        self.discards: list[int] = []  # thrown away and not reshuffled yet, in the order thrown
        self.reshuffles = 0

    def deal(self, count: int) -> list[int]:
        cards, self.stub = self.stub[:count], self.stub[count:]
        return cards

    def burn(self) -> None:
        self.stub = self.stub[1:]

    def draw(self, thrown: list[int], before: list[int]) -> list[int]:
        """Replace ``thrown``; ``before``: the discards made before this draw (all but its own)."""
        cards = self.deal(len(thrown))
        if len(cards) < len(thrown):
            self.reshuffles += 1
            new_stub = [c for c in self.discards if c in before]
            self.discards = [c for c in self.discards if c not in before]
            self.rnd.shuffle(new_stub)
            self.stub = new_stub
            cards += self.deal(len(thrown) - len(cards))
        assert len(cards) == len(thrown), "the discards cannot cover the draw"
        return cards


def _new_state(name: str, n: int, rnd: random.Random) -> HandState:
    game = GAMES[name]
    stacks = [rnd.choice([3, 40, 400, 4000]) for _ in range(n)]
    sizes = {"min_bet": 2} if game.structure is Structure.NO_LIMIT else {"small_bet": 2, "big_bet": 4}
    return HandState(game, game.structure, stacks, blinds=[1, 2] + [0] * (n - 2), **sizes)


def play_random_draw_hand(
    name: str, n: int, rnd: random.Random, greed: float
) -> tuple[HandState, RulingsDealer]:
    """One hand: random bets, each player discarding each card with probability ``greed``."""
    state, dealer = _new_state(name, n, rnd), RulingsDealer(rnd)
    size = state.street.hole_cards
    for seat in range(n):
        state.deal_hole(seat, dealer.deal(size))
    while not state.is_over and state.phase != "showdown":
        if state.phase == "bet":
            random_bet(state, rnd, fold=0.1, raise_=0.3)
        elif state.phase == "draw":
            dealer.burn()
            made_before: list[int] = []
            street = state.street_index
            while state.phase == "draw" and state.street_index == street:  # each in turn: throw, receive
                seat = state.drawers[0]
                thrown = [c for c in state.hole[seat] if rnd.random() < greed]
                before = list(made_before)
                state.discard(seat, thrown)
                replacement = dealer.draw(
                    thrown, before + [c for c in dealer.discards if c not in made_before]
                )
                dealer.discards += thrown
                made_before += thrown
                if replacement:
                    state.deal_hole(seat, replacement)
                assert not set(replacement) & set(thrown), "a player was dealt back his own discard"
        else:
            raise AssertionError(f"nothing to do in phase {state.phase}")
    if not state.is_over:
        state.finish()
    return state, dealer


@pytest.mark.parametrize("name", DRAW_GAMES)
def test_random_draw_hands_keep_every_rule(name: str) -> None:
    rnd = random.Random(38)
    reshuffled = 0
    for hand in range(150):
        n = GAMES[name].max_players if hand % 3 == 0 else rnd.randint(2, 6)
        state, dealer = play_random_draw_hand(name, n, rnd, greed=0.7 if hand % 2 else 0.3)
        reshuffled += dealer.reshuffles
        assert sum(state.stacks) == sum(state.starting_stacks)  # chips conserved (no rake)
        held = [c for seat in state.live_seats for c in state.hole[seat]]
        assert len(held) == len(set(held)), "two players hold one card"
        size = GAMES[name].streets[0].hole_cards
        assert all(len(state.hole[s]) == size for s in state.live_seats)
        draws = [i for i, a in enumerate(state.actions) if a.kind == "draw"]
        for i in draws:  # every discard applied, and replaced by other cards (RULINGS)
            thrown = state.actions[i].cards
            seat = state.actions[i].seat
            deal = next((a for a in state.actions[i + 1 :] if a.kind == "deal" and a.seat == seat), None)
            assert not thrown or (deal is not None and len(deal.cards) == len(thrown))
            assert not thrown or not set(deal.cards) & set(thrown)
    if name != "deuce-to-seven-single-draw":  # eight players drawing three times run the stub out
        assert reshuffled > 0


def _triple_draw_to_the_third(cards_by_seat: list[str]) -> HandState:
    """Two players in deuce-to-seven triple draw, checked down to the first draw."""
    state = HandState(GAMES["deuce-to-seven-triple-draw"], Structure.FIXED_LIMIT, [100, 100],
                      blinds=[1, 2], small_bet=2, big_bet=4)  # fmt: skip
    for seat, text in enumerate(cards_by_seat):
        state.deal_hole(seat, card_list(text))
    state.check_or_call(1)  # the button (seat 1, heads-up) completes, the big blind checks
    state.check_or_call(0)
    return state


def test_a_draw_needs_its_turn_and_cards_the_player_holds() -> None:
    state = _triple_draw_to_the_third(["7c5d4h3s2c", "KdKcQhJsTs"])
    assert state.phase == "draw" and state.drawers == [0, 1]
    with pytest.raises(IllegalAction, match="not p2's draw"):
        state.discard(1, card_list("Kd"))
    with pytest.raises(IllegalAction, match="not among p1's hole cards"):
        state.discard(0, card_list("Kd"))
    state.discard(0, [])  # stands pat
    state.discard(1, card_list("KdKc"))
    with pytest.raises(IllegalAction, match="due 2 hole card"):
        state.deal_hole(1, card_list("2d3d4d"))
    with pytest.raises(IllegalAction, match="neither in the stub"):
        state.deal_hole(1, card_list("Kd2d"))  # his own discard, with fresh cards left
    state.deal_hole(1, card_list("2d3d"))
    assert state.phase == "bet" and state.hole[1] == card_list("QhJsTs2d3d")


def test_the_stub_reshuffles_only_discards_made_before_the_draw() -> None:
    """Eight players: 40 cards dealt and a burn leave 11; seats 1 and 2 throw five each and take ten,
    so seat 3's five are one fresh card and four of the ten the first two threw (not its own, nor
    seat 4's, thrown after it in the turn though written before its cards, as PHH writes them)."""
    state = HandState(GAMES["deuce-to-seven-triple-draw"], Structure.FIXED_LIMIT, [100] * 8,
                      blinds=[1, 2, 0, 0, 0, 0, 0, 0], small_bet=2, big_bet=4)  # fmt: skip
    deck = list(range(52))
    for seat in range(8):
        state.deal_hole(seat, deck[5 * seat : 5 * seat + 5])
    while state.phase == "bet":
        state.check_or_call(state.next_seat)
    stub = deck[41:]  # deck[40] is burned
    for seat in range(4):  # written as PHH writes them: every discard first
        state.discard(seat, list(state.hole[seat]))
    state.deal_hole(0, stub[:5])
    state.deal_hole(1, stub[5:10])
    last_fresh = stub[10]
    for wrong in (deck[10:14], deck[15:19], [deck[10], deck[11], deck[12], deck[15]]):
        with pytest.raises(IllegalAction, match="neither in the stub"):  # its own; seat 3's; one of each
            state.deal_hole(2, [last_fresh, *wrong])
    state.deal_hole(2, [last_fresh, deck[0], deck[1], deck[5], deck[9]])
    assert state.stub.pool == {deck[i] for i in (2, 3, 4, 6, 7, 8)}
    state.deal_hole(3, [deck[2], deck[3], deck[4], deck[6], deck[7]])  # seat 3: what is left, and...
    assert state.stub.size == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(DRAW_GAMES), st.floats(0.0, 1.0))
def test_any_random_draw_hand_conserves_chips(seed: int, name: str, greed: float) -> None:
    rnd = random.Random(seed)
    state, _ = play_random_draw_hand(name, rnd.randint(2, GAMES[name].max_players), rnd, greed)
    assert state.is_over and sum(state.stacks) == sum(state.starting_stacks)


def test_odds_of_a_draw_game_are_sampled_by_the_policy_and_the_nuts_never_lose() -> None:
    from engine.odds.equity import OddsError
    from engine.odds.situations import odds, situation

    game = GAMES["deuce-to-seven-triple-draw"]
    spot = situation(game, ["7c5d4h3s2c", "random"])  # the best hand: it stands pat three times
    result = odds(game, spot, samples=3000, seed=1)
    assert not result.exact and result.runouts == 3000
    nuts, other = result.players
    assert nuts.win + nuts.tie == 1.0 and other.win == 0.0  # another 7-5-4-3-2 can only tie it
    with pytest.raises(OddsError, match="sampled, never enumerated"):
        odds(game, spot, exact=True)
    draw = odds(game, situation(game, ["2c3d4h7sKc", "random"]), samples=3000, seed=1)
    assert 0.6 < draw.players[0].equity < 0.85  # four to a seven low, one card to draw: a favourite


def _eight_handed_single_draw(hidden: int = 0) -> HandState:
    """Eight players, the first ``hidden`` dealt face down (a hero's view), seat s the cards
    5s .. 5s + 4 otherwise, checked to the draw: 40 dealt and a burn leave 11 fresh cards."""
    state = HandState(GAMES["deuce-to-seven-single-draw"], Structure.NO_LIMIT, [100] * 8,
                      blinds=[1, 2, 0, 0, 0, 0, 0, 0], min_bet=2)  # fmt: skip
    for seat in range(8):
        state.deal_hole(seat, [UNKNOWN_CARD] * 5 if seat < hidden else list(range(5 * seat, 5 * seat + 5)))
    while state.phase == "bet":
        state.check_or_call(state.next_seat)
    return state


def test_a_known_card_drawn_from_discards_thrown_face_down_is_taken() -> None:
    """Three opponents throw hidden cards, the stub runs out at the third, and the hero (p4) draws
    five cards nobody showed: they can only be among the hidden discards."""
    state = _eight_handed_single_draw(hidden=3)
    for seat in range(3):  # the third takes the last fresh card and four hidden discards
        state.discard(seat, [UNKNOWN_CARD] * 5)
        state.deal_hole(seat, [UNKNOWN_CARD] * 5)
    state.discard(3, list(range(15, 20)))
    state.deal_hole(3, [0, 1, 2, 3, 4])
    assert state.phase == "draw" and state.drawers[0] == 4 and state.stub.size == 1
    state.discard(4, [20, 21])  # the stub's last card (hidden), then p3's and p4's discards reshuffled
    state.deal_hole(4, [5, 15])
    assert 15 not in state.stub.pool and {16, 17, 18, 19} <= state.stub.pool
    with pytest.raises(IllegalAction, match="neither in the stub"):
        state.discard(5, [25])
        state.deal_hole(5, [20])  # p5's own discard of this draw, thrown after the reshuffle


def test_a_card_shown_after_a_hidden_draw_from_known_discards_is_taken() -> None:
    state = _eight_handed_single_draw()
    for seat, drawn in ((0, range(41, 46)), (1, range(46, 51))):
        state.discard(seat, list(range(5 * seat, 5 * seat + 5)))
        state.deal_hole(seat, list(drawn))
    state.discard(2, list(range(10, 15)))
    state.deal_hole(2, [UNKNOWN_CARD] * 5)  # the last fresh card and four of the ten thrown before
    for seat in range(3, 8):
        state.discard(seat, [])
    while state.phase == "bet":
        state.check_or_call(state.next_seat)
    state.show_or_muck(2, [51, 0, 1, 5, 6])  # the four it drew from the reshuffled discards
    assert state.stub.pool == {2, 3, 4, 7, 8, 9}
    assert state.finish().ending == "showdown"


def test_a_second_draw_in_one_round_is_refused_not_a_crash() -> None:
    state = _eight_handed_single_draw()
    for seat in range(8):
        state.discard(seat, [] if seat else [0])
    with pytest.raises(IllegalAction, match="every seat has drawn"):
        state.discard(1, [5])


@pytest.mark.parametrize("name", ["deuce-to-seven-triple-draw", "badugi"])
def test_draw_improvement_counts_what_the_readable_rankings_say(name: str) -> None:
    """Showdown mode's per-draw improvement counts equal those of the hands replayed through the state
    machine, each hand before and after each draw ranked by the readable reference."""
    import numpy as np

    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from engine.hands.draw_lows import badugi, deuce_to_seven
    from ingest.generation.sim_summary import summarize
    from tests.test_simulate_agreement import play_through_state_machine

    game = GAMES[name]
    strength = badugi if game.ranking == "badugi" else deuce_to_seven
    u = random_words(np.random.default_rng(7), 150, words_per_hand(game, 4, {}))
    batch = simulate_chunk(game, 4, 100, game.resolve_options({}), u)
    expected: dict[tuple[str, str, str], int] = {}
    for h in range(len(batch)):
        state, _ = play_through_state_machine(batch, h)
        held: dict[int, list[int]] = {}
        for i, action in enumerate(state.actions):
            if action.kind == "deal" and action.seat is not None and action.seat not in held:
                held[action.seat] = list(action.cards)
            elif action.kind == "draw" and action.cards:
                dealt = next(a for a in state.actions[i + 1 :] if a.kind == "deal" and a.seat == action.seat)
                after = [c for c in held[action.seat] if c not in action.cards] + list(dealt.cards)
                key = f"{action.street}|{len(action.cards)}"
                better = strength(after) > strength(held[action.seat])
                for column, count in (("draws", 1), ("improved", better)):
                    where = ("draw_improvement", key, column)
                    expected[where] = expected.get(where, 0) + int(count)
                held[action.seat] = after
    found = {where: n for where, n in summarize(batch).items() if where[0] == "draw_improvement"}
    assert found == {where: n for where, n in expected.items() if n}
    assert sum(n for (_, _, column), n in found.items() if column == "improved") > 100


def _redescribed(tmp_path, name: str, change) -> object:
    """A built-in draw game's description, changed by ``change(text)``, renamed, its PHH codes too."""
    from pathlib import Path

    from engine.rules.games import get_game

    source = Path(__file__).parents[1] / "engine" / "variants" / f"{name}.toml"
    text = change(source.read_text()).replace(f'name = "{name}"', f'name = "{name}-{tmp_path.name}"', 1)
    text = text.replace("{ FB =", "{ XFB =").replace("{ N2L1D =", "{ XN2L1D =")
    path = tmp_path / "game.toml"
    path.write_text(text)
    return get_game(str(path))


def test_betting_mode_tag_plays_three_handed_minimum_and_ten_draw_games(tmp_path):
    """The final-hand scale of a game seating three at least is taken three-handed, and a game of
    more draws than one deal of the unseen cards covers plays out only those it covers."""
    from tests.test_betting_kernel import assert_replays_to_the_same_rows

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    three = _redescribed(tmp_path / "a", "badugi", lambda t: t.replace("[2, 10]", "[3, 6]"))
    assert three.min_players == 3 and not three.compiled_gaps + three.betting_gaps
    draw = '\n[[streets]]\nname = "draw-{}"\ndraw = true\n'
    many = _redescribed(
        tmp_path / "b",
        "deuce-to-seven-single-draw",
        lambda t: t.replace("[[shares]]", "".join(draw.format(i) for i in range(9)) + "\n[[shares]]").replace(
            "[2, 8]", "[2, 4]"
        ),
    )
    assert sum(s.draw for s in many.streets) == 10 and not many.compiled_gaps + many.betting_gaps
    for game, structure in ((three, Structure.FIXED_LIMIT), (many, Structure.NO_LIMIT)):
        hands, _ = assert_replays_to_the_same_rows(game, 3, game.resolve_options({}), ("tag",), 1, count=40,
                                                   stake=1_000, structure=structure)  # fmt: skip
        assert "showdown" in hands.column("ending").to_pylist()
