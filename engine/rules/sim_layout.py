"""Where each dealt card goes: the deal order of a game as small index arrays.

A simulated hand deals a prefix of a shuffled deck in the order the rules give:
hole cards one at a time round-robin from seat 0, then for each street its
burns and each board's cards in board order. ``layout`` turns a ``GameSpec``
into positions in that prefix, so compiled kernels never need the spec.

>>> from engine.rules.games import get_game
>>> lay = layout(get_game("holdem"), 3, {})
>>> lay.hole.tolist(), lay.board.tolist(), lay.n_cards
([[0, 3], [1, 4], [2, 5]], [[7, 8, 9, 11, 13]], 14)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.rules.games.base import GameSpec


@dataclass(frozen=True)
class Layout:
    """Positions in the dealt prefix: ``hole[seat, j]``, ``board[b, j]``, and street of each board card."""

    hole: np.ndarray  # (players, hole cards) int16
    board: np.ndarray  # (boards, board cards) int16
    board_street: np.ndarray  # (board cards,) street index of each board card
    n_cards: int  # cards dealt in all, burns included


def layout(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> Layout:
    """The deal order of ``game`` with ``n_players`` under ``options``."""
    position = 0
    hole_rows: list[list[int]] = [[] for _ in range(n_players)]
    boards: list[list[int]] = [[] for _ in game.board_names]
    board_street: list[int] = []
    for street_index, street in enumerate(game.streets_under(options)):
        for _ in range(street.hole_cards):
            for seat in range(n_players):
                hole_rows[seat].append(position)
                position += 1
        if street.board_cards:
            position += game.burns(street, options)
            for board in boards:
                board.extend(range(position, position + street.board_cards))
                position += street.board_cards
            board_street.extend([street_index] * street.board_cards)
    if position > game.deck.size:
        raise ValueError(f"{game.title} with {n_players} players needs {position} cards")
    return Layout(
        np.array(hole_rows, dtype=np.int16),
        np.array(boards, dtype=np.int16),
        np.array(board_street, dtype=np.int8),
        position,
    )
