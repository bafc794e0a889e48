"""Where each dealt card goes: the deal order of a game as small index arrays.

A simulated hand deals a prefix of a shuffled deck in the order the rules give,
every seat staying in to the end (the all-in view): for each street its hole
cards one at a time round-robin from seat 0, then its burns and each board's
cards in board order. A street of hole cards alone burns before it (stud's
later streets), unless the burn would leave the deck short; when the deck
cannot give every seat the street's hole cards, a game whose deck may run short
deals one community card instead, burning none (RULINGS, the reference state
machine's ``_start_deals``). A draw game's compiled play deals every card before
its first draw: the whole deck is shuffled, and the draws take the rest in order
(``draw_burns``: each street's burn before its draw, -1 where it has none). ``layout``
turns a ``GameSpec`` into positions in that prefix, so compiled kernels never need the spec.

>>> from engine.rules.games import get_game
>>> lay = layout(get_game("holdem"), 3, {})
>>> lay.hole.tolist(), lay.board.tolist(), lay.n_cards
([[0, 3], [1, 4], [2, 5]], [[7, 8, 9, 11, 13]], 14)
>>> stud = layout(get_game("razz"), 2, {})
>>> stud.hole[0].tolist(), stud.hole_street.tolist(), stud.board.shape, stud.n_cards
([0, 2, 4, 7, 10, 13, 16], [0, 0, 0, 1, 2, 3, 4], (1, 0), 18)
>>> eight = layout(get_game("razz"), 8, {})
>>> eight.hole.shape, eight.board.tolist(), eight.board_street.tolist(), eight.n_cards
((8, 6), [[51]], [4], 52)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.rules.games.base import GameSpec


@dataclass(frozen=True)
class Layout:
    """Positions in the dealt prefix: ``hole[seat, j]``, ``board[b, j]``, the street of each hole
    card and of each board card, and the streets in all."""

    hole: np.ndarray  # (players, hole cards) int16
    board: np.ndarray  # (boards, board cards) int16
    board_street: np.ndarray  # (board cards,) street index of each board card
    n_cards: int  # cards dealt in all, burns included
    hole_street: np.ndarray  # (hole cards,) street index of each hole card
    n_streets: int
    draw_burns: np.ndarray  # (streets,) cards burned before the street's draw; -1: no draw
    stub_from: int  # a draw game: the first position the draws deal from (those before are dealt); -1: none


def layout(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> Layout:
    """The deal order of ``game`` with ``n_players`` under ``options``."""
    position = 0
    hole_rows: list[list[int]] = [[] for _ in range(n_players)]
    boards: list[list[int]] = [[] for _ in game.board_names]
    board_street: list[int] = []
    hole_street: list[int] = []
    streets = game.streets_under(options)
    for street_index, street in enumerate(streets):
        hole_cards, board_cards = street.hole_cards, street.board_cards
        burn = game.burns(street, options)
        left = game.deck.size - position
        if hole_cards and game.deck_runs_short is not None and n_players * hole_cards > left:
            hole_cards, board_cards, burn = 0, 1, 0  # one community card for everyone
        if hole_cards and not board_cards:  # a burn before hole cards, unless it leaves the deck short
            burn = burn if not (game.deck_runs_short and n_players * hole_cards > left - burn) else 0
            position += burn
        for _ in range(hole_cards):
            for seat in range(n_players):
                hole_rows[seat].append(position)
                position += 1
        hole_street.extend([street_index] * hole_cards)
        if board_cards:
            position += burn
            for board in boards:
                board.extend(range(position, position + board_cards))
                position += board_cards
            board_street.extend([street_index] * board_cards)
    if position > game.deck.size:
        raise ValueError(f"{game.title} with {n_players} players needs {position} cards")

    def draw_burn(street) -> int:  # a street that deals cards burns before them, not again before its draw
        if not street.draw:
            return -1
        return 0 if street.hole_cards or street.board_cards else game.burns(street, options)

    draw_burns = [draw_burn(street) for street in streets]
    stub_from = -1
    if game.draws:  # the draws deal from the rest of the deck
        stub_from, position = position, game.deck.size
    return Layout(
        np.array(hole_rows, dtype=np.int16).reshape(n_players, len(hole_street)),
        np.array(boards, dtype=np.int16).reshape(len(boards), len(board_street)),
        np.array(board_street, dtype=np.int8),
        position,
        np.array(hole_street, dtype=np.int8),
        len(streets),
        np.array(draw_burns, dtype=np.int64),
        stub_from,
    )
