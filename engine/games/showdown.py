"""Helpers every showdown rule shares: who has the best score, and awarding a share."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.cards import NO_CARD
from engine.pots import split_among_seats


def seat_rows(
    seats: list[int], hole_cards: tuple[tuple[int, ...], ...], board: tuple[int, ...] = ()
) -> np.ndarray:
    """One row per seat: its hole cards, then ``board``, padded with ``NO_CARD``.

    >>> seat_rows([0, 2], ((1, 2), (), (3,)), (9,)).tolist()
    [[1, 2, 9], [3, 9, -1]]
    """
    width = max((len(hole_cards[s]) for s in seats), default=0) + len(board)
    rows = np.full((len(seats), width), NO_CARD, dtype=np.int8)
    for row, seat in enumerate(seats):
        cards = (*hole_cards[seat], *board)
        rows[row, : len(cards)] = cards
    return rows


def best_seats(scores: Mapping[int, int], seats: list[int], lowest: bool = False) -> list[int]:
    """Seats among ``seats`` with the best score (greatest, or least with ``lowest``)."""
    values = [scores[s] for s in seats]
    target = min(values) if lowest else max(values)
    return [s for s in seats if scores[s] == target]


def award(amount: int, winners: list[int], won: list[int]) -> dict[int, int]:
    """Add ``amount`` split among ``winners`` (odd chips clockwise from the button) to ``won``."""
    shares = split_among_seats(amount, winners)
    for seat, chips in shares.items():
        won[seat] += chips
    return shares


def best_hand_takes_each_pot(hand, strengths: dict[int, int], category_name) -> tuple[list[int], tuple, bool]:
    """Each pot to the best strength among its eligible seats (ties split it).

    Returns chips won per seat, each seat's outcome (category name and strength for the seats
    that showed a hand) and whether some pot was split among tied hands.
    """
    from engine.games.base import SeatOutcome

    n = len(hand.hole_cards)
    won = [0] * n
    split = False
    for pot in hand.pots:
        eligible = list(pot.eligible)  # the pot's claimants (engine.pots.claimants)
        live = [s for s in eligible if s in strengths]
        winners = best_seats(strengths, live) if live else eligible
        split |= bool(live) and len(winners) > 1
        award(pot.amount, winners, won)
    outcomes = tuple(
        SeatOutcome(high_category=category_name(strengths[s]), high_strength=strengths[s])
        if s in strengths
        else SeatOutcome()
        for s in range(n)
    )
    return won, outcomes, split
