"""The dealer's automations: dealing what is due from a deck, and forced discards.

Replays read every card from the hand history; simulations and tests let the
dealer deal from a shuffled deck instead, burning where the game burns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.hands.rankings import RANKINGS
from engine.rules.draw_policy import standard_discards
from engine.rules.state import HandState


class Deck:
    """A shuffled deck that deals from the top; in a draw game, the discards are kept and shuffled
    into a new stub when a draw needs more cards than are left (RULINGS, "Draw")."""

    def __init__(self, size: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.stub: list[int] = rng.permutation(size).tolist()
        self.pile: list[int] = []  # discards not reshuffled yet, in the order thrown

    def draw(self, count: int) -> list[int]:
        if count > len(self.stub):
            raise ValueError(f"the deck holds {len(self.stub)} card(s), not {count}")
        cards, self.stub = self.stub[:count], self.stub[count:]
        return cards

    def burn(self, count: int) -> None:
        """Burn up to ``count`` cards (none once the stub is empty)."""
        self.stub = self.stub[count:]

    def replace(self, thrown: list[int]) -> list[int]:
        """The cards dealt for ``thrown`` in a draw: the stub's, then the discards thrown before these,
        shuffled; ``thrown`` then joins the discards."""
        cards = self.stub[: len(thrown)]
        self.stub = self.stub[len(thrown) :]
        if len(cards) < len(thrown):
            self.stub, self.pile = [self.pile[i] for i in self.rng.permutation(len(self.pile))], []
            cards += self.draw(len(thrown) - len(cards))
        self.pile += thrown
        return cards


Chooser = Callable[[HandState, int], list[int]]  # the cards a seat throws away in a draw


def standard_draw(state: HandState, seat: int) -> list[int]:
    """The default drawing policy's discards (``engine.rules.draw_policy``)."""
    game = state.game.under(state.options)
    return standard_discards(RANKINGS[game.ranking], state.hole[seat], game.deck, game.low_hands)


def draw_round(state: HandState, deck: Deck, choose: Chooser = standard_draw) -> None:
    """A street's draw: the burn, then each seat in turn throws what ``choose`` says and is dealt as
    many."""
    street, index = state.street, state.street_index
    if not (street.hole_cards or street.board_cards):  # (else the street's burn went before its cards)
        deck.burn(state.game.burns(street, state.options))
    while state.phase == "draw" and state.street_index == index:  # (the next street may draw at once)
        seat = state.drawers[0]
        thrown = choose(state, seat)
        state.discard(seat, thrown)
        if thrown:
            state.deal_hole(seat, deck.replace(thrown))


def deal_due(state: HandState, deck: Deck, choose: Chooser = standard_draw) -> None:
    """Deal every card due now, apply forced discards, play draws (each seat throwing what
    ``choose`` says), until betting or the showdown.

    Hole cards go one at a time round-robin from seat 0 (left of the button).
    """
    while state.phase in ("deal", "draw"):
        if state.phase == "draw":
            draw_round(state, deck, choose)
            continue
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
