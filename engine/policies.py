"""Built-in betting policies for betting-mode simulation.

A policy looks at the state and the seat to act and returns one decision:
``("fold",)``, ``("call",)`` (check or call) or ``("raise", to)``. Policies only
choose among legal actions (``HandState.options_for``).

- ``station``: the calling station: always checks or calls.
- ``random``: a uniformly random legal action, raises of a uniform legal size.
- ``tag``: tight-aggressive: raises strong hands, calls fair ones, folds weak
  ones to a bet, judged by the best hand it can make now (hole cards alone
  before any board card).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.kernels import seven_rank_strength, standard_strength
from engine.rankings import RANKINGS, SEVEN_RANK
from engine.state import HandState
from engine.tables import SEVEN_RANK_TABLES, STANDARD_TABLES

Decision = tuple
Policy = Callable[[HandState, int, np.random.Generator], Decision]


def _key(cards: list[int]) -> int:
    key = 0
    for card in cards:
        if card >= 0:
            key |= 1 << (16 * (card & 3) + (card >> 2))
    return key


def hand_score(state: HandState, seat: int) -> float:
    """How good a seat's hand is now, 0 (hopeless) to 1 (the nuts), from its category and ranks."""
    hole = [c for c in state.hole[seat] if c >= 0]
    board = [c for c in state.boards[state.game.community_boards[0]] if c >= 0]
    cards = hole + board
    if RANKINGS[state.game.ranking].code == SEVEN_RANK:
        if len(cards) < 5:
            return _starting_score(hole, 7)
        strength = seven_rank_strength(
            _key(cards), state.game.tiebreak.value(state.options) == "kickers", SEVEN_RANK_TABLES
        )
        return ((strength >> 20) + ((strength >> 16) & 0xF) / 8) / 9
    if len(cards) < 5:
        return _starting_score(hole, 13)
    strength = standard_strength(_key(cards), STANDARD_TABLES)
    return ((strength >> 20) + ((strength >> 16) & 0xF) / 14) / 9


def _starting_score(hole: list[int], n_ranks: int) -> float:
    """Before the board: pairs and high cards, scaled to 0..1."""
    if not hole:
        return 0.0
    ranks = sorted((c >> 2 for c in hole), reverse=True)
    paired = len(set(ranks)) < len(ranks)
    high = ranks[0] / (n_ranks - 1)
    second = ranks[1] / (n_ranks - 1) if len(ranks) > 1 else 0.0
    return min(1.0, 0.25 * high + 0.15 * second + (0.35 if paired else 0.0))


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


def tag(state: HandState, seat: int, rng: np.random.Generator) -> Decision:
    options = state.options_for(seat)
    score = hand_score(state, seat)
    facing = options["call"] > 0
    if score >= 0.42 and options["can_raise"]:
        target = max(options["min_to"], max(state.bets) + state.pot // 2)
        return ("raise", int(min(target, options["max_to"])))
    if score >= 0.25 or not facing:
        return ("call",)
    return ("fold",)


POLICIES: dict[str, Policy] = {"station": station, "random": random_policy, "tag": tag}


def act(state: HandState, seat: int, decision: Decision) -> None:
    """Apply a policy's decision to the state."""
    if decision[0] == "fold":
        state.fold(seat)
    elif decision[0] == "call":
        state.check_or_call(seat)
    else:
        state.bet_or_raise(seat, decision[1])
