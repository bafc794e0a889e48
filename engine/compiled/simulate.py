"""Showdown-mode simulation of a chunk of hands: Python set-up around the compiled kernels.

``simulate_chunk`` deals ``len(u)`` hands of one game from random words ``u``
(one row per hand, 32 bits per card dealt) and returns a ``SimBatch`` of arrays:
the dealt cards, each player's strength and winnings, and what the game adds
(discards and dead hands, surviving boards, low points...).

>>> import numpy as np
>>> from engine.rules.games import get_game
>>> u = random_words(np.random.default_rng(1), 1000, 10)
>>> batch = simulate_chunk(get_game("holdem"), 6, 100, {}, u)
>>> int(batch.won.sum()), batch.won.shape
(600000, (1000, 6))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.compiled import sim_kernels as k
from engine.compiled.core import compile_rules
from engine.rules.games.base import GameSpec
from engine.rules.games.description import not_simulated
from engine.rules.sim_layout import Layout, layout

ENDINGS = ("showdown", "uncontested", "everyone_dead")


@dataclass
class SimBatch:
    """Arrays describing simulated hands, one row per hand."""

    game: GameSpec
    n_players: int
    stake: int
    options: dict[str, Any]
    layout: Layout
    cards: np.ndarray  # (N, cards dealt) the dealt prefix of each shuffled deck
    strength: np.ndarray  # (N, P) showdown strength; -1 for a dead hand
    won: np.ndarray  # (N, P) chips won
    ending: np.ndarray  # (N,) index into ENDINGS
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return self.cards.shape[0]

    @property
    def hole(self) -> np.ndarray:
        """(N, P, hole cards) as dealt."""
        return self.cards[:, self.layout.hole]

    @property
    def boards(self) -> np.ndarray:
        """(N, boards, board cards) as dealt to the end (``streets_dealt``: discards may end a hand early)."""
        return self.cards[:, self.layout.board]


def cards_per_hand(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> int:
    """Cards one hand deals, burns included."""
    return layout(game, n_players, options).n_cards


def words_per_hand(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> int:
    """Random 64-bit words one hand needs (32 bits per card dealt)."""
    return (cards_per_hand(game, n_players, options) + 1) // 2


def random_words(rng: np.random.Generator, n_hands: int, words: int) -> np.ndarray:
    """(n_hands, words) raw uint64 draws from the generator's bit stream."""
    return rng.bit_generator.random_raw(n_hands * words).reshape(n_hands, words)


def _checked_deals(dealt: np.ndarray, n_cards: int, deck_size: int) -> np.ndarray:
    """Deals as the kernel reads them: int8, (hands, ``n_cards``), every card of the deck."""
    given = np.asarray(dealt)
    if given.ndim != 2 or given.shape[1] != n_cards or not np.issubdtype(given.dtype, np.integer):
        shape = f"{given.dtype} {given.shape}"
        raise ValueError(f"deals must be (hands, {n_cards}) integer card ids, not {shape}")
    if given.size and (given.min() < 0 or given.max() >= deck_size):  # checked before the cast to int8
        raise ValueError(f"a dealt card is not one of the deck's {deck_size}")
    return np.ascontiguousarray(given, dtype=np.int8)


def simulate_chunk(
    game: GameSpec, n_players: int, stake: int, options: Mapping[str, Any], u: np.ndarray | None,
    dealt: np.ndarray | None = None,
) -> SimBatch:  # fmt: skip
    """Deal and settle ``len(u)`` hands of ``game`` in showdown mode, or settle the deals
    ``dealt`` (hands × cards dealt, in the order of ``engine.rules.sim_layout.layout``) as given."""
    options = game.resolve_options(options)
    game = game.under(options)  # the shares in force
    if game.compiled_gaps:  # (who acts and which cards are face up play no part here)
        raise ValueError(not_simulated(game))
    if not game.min_players <= n_players <= game.max_players:
        raise ValueError(f"{game.title} seats {game.min_players} to {game.max_players} players")
    lay = layout(game, n_players, options)
    if dealt is not None:
        cards = _checked_deals(dealt, lay.n_cards, game.deck.size)
        n, u = cards.shape[0], np.empty((1, 1), dtype=np.uint64)
    else:
        n = u.shape[0]
        if u.dtype != np.uint64 or u.ndim != 2 or u.shape[1] * 2 < lay.n_cards:
            wanted = f"({n}, {(lay.n_cards + 1) // 2}) uint64 random words"
            raise ValueError(f"need {wanted}, got {u.dtype} {u.shape}")
        cards = np.empty((n, lay.n_cards), dtype=np.int8)
    n_hole, n_boards = lay.hole.shape[1], lay.board.shape[0]
    strength = np.full((n, n_players), -1, dtype=np.int64)
    won = np.zeros((n, n_players), dtype=np.int64)
    ending = np.zeros(n, dtype=np.int8)
    low_share, board_shares = game.low_share, game.board_shares
    halves = game.low_half  # a low half: points or ace-to-five lows
    discards = game.discard_board is not None
    used = {"low": halves, "won_high": halves, "won_low": halves, "board_won": board_shares,
            "triple_scoop": board_shares, "discard_street": discards or low_share}  # fmt: skip
    rows = {True: n, False: 1}  # outputs the game has no use for are one-row placeholders
    extra: dict[str, np.ndarray] = {
        "low": np.full((rows[halves], n_players), -1, dtype=np.int16),
        "won_high": np.zeros((rows[halves], n_players), dtype=np.int64),
        "won_low": np.zeros((rows[halves], n_players), dtype=np.int64),
        "board_won": np.zeros((rows[board_shares], n_players, n_boards), dtype=np.int64),
        "survivors": np.zeros((n, n_boards), dtype=np.bool_),
        "triple_scoop": np.zeros((rows[board_shares], n_players), dtype=np.bool_),
        "discard_street": np.full((rows[discards or low_share], n_players, n_hole), -1, dtype=np.int8),
        "dead": np.zeros((n, n_players), dtype=np.bool_),
        "streets_dealt": np.zeros(n, dtype=np.int8),
        "outcome": np.zeros(n, dtype=np.int8),
        "tally": np.zeros(k.TALLY_SIZE, dtype=np.int64),
    }
    plan = k.DealPlan(u, dealt is not None, lay.hole.astype(np.int64), lay.board.astype(np.int64),
                      lay.board_street.astype(np.int64), game.deck.size, stake, lay.n_streets)  # fmt: skip
    out = k.ShowdownHands(
        cards, strength, extra["low"], won, extra["won_high"], extra["won_low"], extra["board_won"],
        extra["survivors"], extra["triple_scoop"], extra["discard_street"], extra["dead"], ending,
        extra["streets_dealt"], extra["outcome"], extra["tally"],
    )  # fmt: skip
    k.simulate_hands(plan, compile_rules(game, options), out)
    extra = {name: values for name, values in extra.items() if used.get(name, True)}  # no placeholders
    return SimBatch(game, n_players, stake, options, lay, cards, strength, won, ending, extra)
