"""Built-in betting policies for betting-mode simulation.

A policy looks at the state and the seat to act and returns one decision:
``("fold",)``, ``("call",)`` (check or call) or ``("raise", to)``. Policies only
choose among legal actions (``HandState.options_for``).

- ``station``: the calling station: always checks or calls.
- ``random``: a uniformly random legal action, raises of a uniform legal size.
- ``tag``: tight-aggressive: raises strong hands, calls fair ones, folds weak
  ones to a bet, judged by the best hand it can make now (hole cards alone
  before any board card); under a lowball ranking (razz) the lowest hands are
  the strong ones; where cards are dealt face up it reads the opponents' up
  cards: a live opponent showing a better hand than its own up cards costs its
  score 0.15. In a draw game of hole cards alone the score is what the hand is worth: the share of a
  standard player's final hands its own final hand beats, the draws to come played by the
  standard drawing policy, averaged over 32 sampled deals, to the power of the live
  opponents (the chance of beating every one); in any game with draws, after a draw it reads how many
  cards each live opponent drew: one who drew fewer than it did costs its score 0.15, and
  when every one drew more it gains 0.15.
- ``pushfold``: heads-up with short stacks, the push/fold equilibrium of a ``PushFoldChart``
  (``engine.rules.pushfold_play`` says where); everywhere else ``tag``.

Where a bring-in is due nobody may fold or check: a ``call`` posts the bring-in and a
``raise`` completes it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.hands.cards import UNKNOWN_CARD
from engine.hands.kernels import key_strength
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import PLACE_SHIFT, category_of
from engine.rules.draw_policy import WORTH_SAMPLES, decision_seed, hand_worth
from engine.rules.pushfold_play import NO_SPOT, PUSH_SPOT, PushFoldChart, spot_of
from engine.rules.showing import THREAT, showing_key
from engine.rules.state import HandState

Decision = tuple
Policy = Callable[[HandState, int, np.random.Generator], Decision]


def _key(cards: list[int]) -> int:
    key = 0
    for card in cards:
        if card >= 0:
            key |= 1 << (16 * (card & 3) + (card >> 2))
    return key


def hand_score(state: HandState, seat: int, scale: tuple | None = None) -> float:
    """How good a seat's hand is now, 0 (hopeless) to 1 (the nuts), from its category's place and
    ranks; in a draw game of hole cards alone, its ``draw_worth`` on ``scale``."""
    game = state.game
    hole = [c for c in state.hole[seat] if c >= 0]
    if game.hole_cards_alone:
        return draw_worth(state, seat, hole, scale)
    board = [c for c in state.boards[game.community_boards[0]] if c >= 0]
    cards = hole + board
    n_ranks = len(game.deck.ranks)
    ranking = RANKINGS[game.ranking]
    if len(cards) < ranking.min_cards:
        score = _starting_low_score(hole, n_ranks) if ranking.lowball else _starting_score(hole, n_ranks)
    else:
        places = game.category_places(state.options)
        kickers = game.tiebreak.value(state.options) == "kickers"
        tables = ranking.tables(game.deck, places)
        strength = key_strength(_key(cards), ranking.code, kickers, tables)
        score = strength_score(int(strength), n_ranks, len(ranking.categories) if ranking.lowball else 9)
    if any(street.up_cards for street in game.streets) and _shown_a_better_hand(state, seat, ranking.lowball):
        score = max(0.0, score - THREAT)
    if game.draws:
        score = min(1.0, max(0.0, score + THREAT * draw_signal(latest_draws(state), seat, state.live_seats)))
    return score


def draw_worth(state: HandState, seat: int, hole: list[int], scale: tuple | None) -> float:
    """A draw game's score: ``engine.rules.draw_policy.hand_worth`` of the hole cards, the draws to
    come played by the standard policy, on ``scale`` (the share of a standard player's final hands
    each final strength beats: ``engine.compiled.simulate.final_hand_scale``), over ``WORTH_SAMPLES``
    deals seeded by the hole cards, the street and the seat, to the power of the live opponents (the
    chance of beating them all, were they standard players); then ``THREAT`` times ``draw_signal``."""
    if scale is None:
        raise ValueError(f"tag scores {state.game.title}'s hands on a final-hand scale: give it one")
    streets = state.game.streets_under(state.options)
    draws_left = sum(street.draw for street in streets[state.street_index + 1 :])
    seed = decision_seed(_key(hole), state.street_index, seat)
    worth = hand_worth(RANKINGS[state.game.ranking], hole, draws_left, scale, WORTH_SAMPLES, seed,
                       state.game.deck.size)  # fmt: skip
    beats_all = 1.0
    for _ in range(len(state.live_seats) - 1):  # (a product, as compiled code takes it)
        beats_all *= worth
    return min(1.0, max(0.0, beats_all + THREAT * draw_signal(latest_draws(state), seat, state.live_seats)))


def latest_draws(state: HandState) -> dict[int, int]:
    """How many cards each seat drew at its latest draw (seats that have not drawn are left out)."""
    return {a.seat: len(a.cards) for a in state.actions if a.kind == "draw" and a.seat is not None}


def draw_signal(drew: dict[int, int], seat: int, live: list[int]) -> int:
    """-1 when a live opponent drew fewer cards than ``seat`` at the latest draw, +1 when every live
    opponent drew more, else 0 (and 0 before any draw).

    >>> draw_signal({0: 2, 1: 0}, 0, [0, 1]), draw_signal({0: 0, 1: 3}, 0, [0, 1]), draw_signal({}, 0, [0, 1])
    (-1, 1, 0)
    """
    if seat not in drew:
        return 0
    others = [drew[o] for o in live if o != seat and o in drew]
    if any(n < drew[seat] for n in others):
        return -1
    return 1 if others and all(n > drew[seat] for n in others) else 0


def _shown_a_better_hand(state: HandState, seat: int, lowball: bool) -> bool:
    """Whether a live opponent's up cards show a better hand than the seat's own up cards (aces low
    and the lower the better under a lowball ranking)."""
    n_ranks = len(state.game.deck.ranks)
    known = [[c for c in cards if c != UNKNOWN_CARD] for cards in state.up]  # (a record may hide some)
    mine = showing_key(known[seat], lowball, n_ranks)
    for other in state.live_seats:
        theirs = showing_key(known[other], lowball, n_ranks)
        if other != seat and (theirs < mine if lowball else theirs > mine):
            return True
    return False


def strength_score(strength: int, n_ranks: int, n_categories: int = 9) -> float:
    """A strength as 0..1: its category's place in the game's order, then its top rank.

    >>> round(strength_score((8 << 20) | (12 << 16), 13), 3)  # a royal flush
    0.984
    """
    place = (strength >> PLACE_SHIFT) or category_of(strength)  # ordered strengths carry their place
    return (place + ((strength >> 16) & 0xF) / (n_ranks + 1)) / n_categories


def _starting_score(hole: list[int], n_ranks: int) -> float:
    """Before the board: pairs and high cards, scaled to 0..1."""
    if not hole:
        return 0.0
    ranks = sorted((c >> 2 for c in hole), reverse=True)
    paired = len(set(ranks)) < len(ranks)
    high = ranks[0] / (n_ranks - 1)
    second = ranks[1] / (n_ranks - 1) if len(ranks) > 1 else 0.0
    return min(1.0, 0.25 * high + 0.15 * second + (0.35 if paired else 0.0))


def _starting_low_score(hole: list[int], n_ranks: int) -> float:
    """Before five cards under a lowball ranking: the lower the top card (aces low), the better;
    unpaired cards better still.

    >>> [round(_starting_low_score(hole, 13), 3) for hole in ([48, 0, 4], [44, 40, 36])]  # A23, KQJ
    [0.733, 0.15]
    """
    if not hole:
        return 0.0
    ranks = [((c >> 2) + 1) % n_ranks for c in hole]
    paired = len(set(ranks)) < len(ranks)
    return min(1.0, 0.7 * (1 - max(ranks) / (n_ranks - 1)) + (0.0 if paired else 0.15))


def station(state: HandState, seat: int, rng: np.random.Generator) -> Decision:
    return ("call",)


def random_policy(state: HandState, seat: int, rng: np.random.Generator) -> Decision:
    options = state.options_for(seat)
    choices = ["call"]
    if options["call"] > 0:
        choices.append("fold")
    if options["can_raise"]:
        choices.append("raise")
    choice = choices[int(rng.integers(len(choices)))]
    if choice == "raise":
        low, high = min(options["min_to"], options["max_to"]), options["max_to"]
        return ("raise", int(rng.integers(low, high + 1)))
    return (choice,)


def tag(state: HandState, seat: int, rng: np.random.Generator, scale: tuple | None = None) -> Decision:
    """Raise from a score of 0.42, call from 0.25, else check or fold (``scale``: a draw game's)."""
    options = state.options_for(seat)
    score = hand_score(state, seat, scale)
    facing = options["call"] > 0
    if score >= 0.42 and options["can_raise"]:
        target = max(options["min_to"], max(state.bets) + state.pot // 2)
        return ("raise", int(min(target, options["max_to"])))
    if score >= 0.25 or not facing:
        return ("call",)
    return ("fold",)


def pushfold(state: HandState, seat: int, rng: np.random.Generator, chart: PushFoldChart | None = None,
             scale: tuple | None = None) -> Decision:  # fmt: skip
    """The chart's push or call, by one uniform draw, where the chart decides; else ``tag``.

    Without a chart (a table push/fold does not fit: ``why_not_played``) it is ``tag``.
    """
    if chart is not None:
        options = state.options_for(seat)
        others_all_in = all(state.stacks[o] == 0 for o in state.live_seats if o != seat)
        small_blind = min((s for s in range(state.n) if state.blinds[s] > 0), key=lambda s: state.blinds[s])
        spot = spot_of(state.street_index, seat, small_blind, state.raise_count, seat in state.acted,
                       options["call"], others_all_in)  # fmt: skip
        if spot != NO_SPOT:
            index = chart.class_index([c for c in state.hole[seat] if c >= 0])
            chance = chart.push[index] if spot == PUSH_SPOT else chart.call[index]
            if rng.random() >= chance:
                return ("fold",)
            if spot == PUSH_SPOT and options["can_raise"]:
                return ("raise", int(options["max_to"]))
            return ("call",)
    return tag(state, seat, rng, scale)


POLICIES: dict[str, Policy] = {"station": station, "random": random_policy, "tag": tag, "pushfold": pushfold}


def act(state: HandState, seat: int, decision: Decision) -> None:
    """Apply a policy's decision to the state (where a bring-in is due, anything but a raise posts it)."""
    if state.bring_in_due and decision[0] != "raise":
        state.post_bring_in(seat)
    elif decision[0] == "fold":
        state.fold(seat)
    elif decision[0] == "call":
        state.check_or_call(seat)
    else:
        state.bet_or_raise(seat, decision[1])
