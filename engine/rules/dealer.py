"""The dealer's automations: dealing what is due from a deck, and forced discards.

Replays read every card from the hand history; simulations and tests let the
dealer deal from a shuffled deck instead, burning where the game burns.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from engine.rules.state import HandState


class Deck:
    """A shuffled deck that deals from the top."""

    def __init__(self, size: int, rng: np.random.Generator) -> None:
        self.cards: Iterator[int] = iter(rng.permutation(size).tolist())

    def draw(self, count: int) -> list[int]:
        return [next(self.cards) for _ in range(count)]


def deal_due(state: HandState, deck: Deck) -> None:
    """Deal every card due now, apply forced discards, until betting or the showdown.

    Hole cards go one at a time round-robin from seat 0 (left of the button).
    """
    while state.phase == "deal":
        due = [state.hole_due(seat) for seat in range(state.n)]
        if any(due):
            rounds = max(due)
            dealt: list[list[int]] = [[] for _ in range(state.n)]
            for round_ in range(rounds):
                for seat in range(state.n):
                    if due[seat] > round_:
                        dealt[seat].extend(deck.draw(1))
            for seat in range(state.n):
                if dealt[seat]:
                    state.deal_hole(seat, dealt[seat])
            continue
        per_board = state.board_due
        if not per_board:
            break
        deck.draw(state.game.burns(state.street, state.options))
        state.deal_board([deck.draw(per_board) for _ in state.game.board_names])
        if state.game.discard_board is not None:
            state.apply_forced_discards()
