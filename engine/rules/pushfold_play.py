"""The ``pushfold`` betting policy: heads-up, short stacks, the push/fold equilibrium played.

A ``PushFoldChart`` holds a solution as the betting kernel reads it: per starting-hand class the
small blind's probability of going all in and the big blind's of calling an all-in, and a table
from a starting hand (its cards sorted, as a combination rank) to its class. Where the policy
plays its chart is written once here, for the reference policy (``engine.rules.policies``), and
followed rule for rule by ``engine.compiled.betting_kernel``:

- the hand is heads-up, no-limit, with blinds, stacks of at most ``DEEPEST`` big blinds, and
  the game's starting hands are classes (``engine.rules.hand_classes``): else the policy is ``tag``;
- in the first betting round, the small blind's first action pushes (all in) with its class's
  probability, else folds; a seat facing an all-in calls with its class's probability, else
  folds; anything else (a limp to answer, a raise short of all in, later streets) is ``tag``'s.

Decisions draw one uniform number each: push (or call) when it is below the probability.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from engine.rules.games.base import GameSpec, Structure

DEEPEST = 20.0  # big blinds: deeper stacks are played by tag (push/fold is a short-stack game)
NO_SPOT, PUSH_SPOT, CALL_SPOT = 0, 1, 2


def combination_rank(cards: list[int] | tuple[int, ...]) -> int:
    """The rank of a set of cards among all sets of its size (the combinatorial number system).

    >>> combination_rank([0, 1]), combination_rank([1, 0]), combination_rank([0, 2]), combination_rank([1, 2])
    (0, 0, 1, 2)
    """
    return sum(comb(card, k + 1) for k, card in enumerate(sorted(cards)))


@dataclass(frozen=True)
class PushFoldChart:
    """A push/fold solution at one stack: per class its push and call probabilities, and
    ``class_of`` (combination rank of a starting hand's cards, -1 for none) into them."""

    stack: float
    names: tuple[str, ...]
    push: np.ndarray  # (classes,) float64
    call: np.ndarray  # (classes,) float64
    class_of: np.ndarray  # (C(deck, held),) int32
    held: int  # cards of a starting hand

    @classmethod
    def of(cls, game: GameSpec, options: Mapping[str, Any], stack: float,
           push: Mapping[str, float], call: Mapping[str, float]) -> PushFoldChart:  # fmt: skip
        """The chart of a game whose starting hands are classes, from probabilities by class name."""
        from engine.rules.hand_classes import first_hole_cards, hand_classes

        classes = hand_classes(game, options)
        if classes is None:
            raise ValueError(f"{game.title}'s starting hands are not classes: push/fold is over buckets")
        held = first_hole_cards(game, game.resolve_options(options))
        class_of = np.full(comb(game.deck.size, held), -1, np.int32)
        for index, hand_class in enumerate(classes):
            for member in hand_class.members:
                class_of[combination_rank(member)] = index
        names = tuple(c.name for c in classes)
        return cls(stack, names, np.array([float(push[n]) for n in names]),
                   np.array([float(call[n]) for n in names]), class_of, held)  # fmt: skip

    def class_index(self, hole: list[int]) -> int:
        """The class of a starting hand (its first ``held`` cards)."""
        return int(self.class_of[combination_rank(hole[: self.held])])


def why_not_played(game: GameSpec, options: Mapping[str, Any], players: int, structure: Structure,
                   depth: float) -> str | None:  # fmt: skip
    """Why a table cannot play the chart (so ``pushfold`` plays ``tag``), or None where it can.

    >>> from engine.rules.games import get_game
    >>> why_not_played(get_game("holdem"), {}, 2, Structure.NO_LIMIT, 10.0) is None
    True
    >>> why_not_played(get_game("holdem"), {}, 2, Structure.NO_LIMIT, 50.0)
    'stacks of 50 big blinds are deeper than 20, where push/fold is played'
    """
    from engine.rules.hand_classes import hand_classes

    if players != 2:
        return f"push/fold is heads-up, and the table seats {players}"
    if structure is not Structure.NO_LIMIT:
        return f"push/fold is no-limit, and the hands are {structure.value}"
    if game.starting_bet:
        return f"{game.title} has antes and a starting bet, not blinds"
    if game.blinds != "small-big" or game.ante or game.forced_street != 0:
        return f"push/fold is played over a small and a big blind before the first cards, not {game.title}'s"
    if hand_classes(game, options) is None:
        return f"{game.title}'s starting hands are bucketed, and the policy reads classes"
    if depth > DEEPEST:
        return f"stacks of {depth:g} big blinds are deeper than {DEEPEST:g}, where push/fold is played"
    return None


def spot_of(street_index: int, seat: int, small_blind_seat: int, raises: int, acted: bool,
            call: int, others_all_in: bool) -> int:  # fmt: skip
    """Which decision of the chart a seat faces: ``PUSH_SPOT``, ``CALL_SPOT`` or ``NO_SPOT`` (tag).

    >>> spot_of(0, 0, 0, 0, False, 50, False), spot_of(0, 1, 0, 1, False, 950, True)
    (1, 2)
    >>> spot_of(0, 1, 0, 0, False, 0, False), spot_of(1, 0, 0, 0, False, 0, False)  # a limp; the flop
    (0, 0)
    """
    if street_index != 0:
        return NO_SPOT
    if seat == small_blind_seat and raises == 0 and not acted:
        return PUSH_SPOT
    if call > 0 and others_all_in:
        return CALL_SPOT
    return NO_SPOT
