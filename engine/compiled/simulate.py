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

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.compiled import draw_kernel as dk
from engine.compiled import sim_kernels as k
from engine.compiled.core import compile_rules
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import STANDARD_HIGH
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
    def final_hole(self) -> np.ndarray:
        """(N, P, hole cards) held at the showdown (after the draws, in a draw game)."""
        return self.extra.get("final_hole", self.hole)

    @property
    def boards(self) -> np.ndarray:
        """(N, boards, board cards) as dealt to the end (``streets_dealt``: discards may end a hand early)."""
        return self.cards[:, self.layout.board]


SAMPLES = 96  # deals the sampled policy weighs each discard on (24 were too few: benchmarks/draw_policies.py)
SCALE_HANDS = 20_000  # heads-up hands whose final hands (standard policy) value the sampled one's
_SCALES: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def final_hand_scale(game: GameSpec, options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """What a final hand is worth to the sampled policy: every strength standard players end
    ``SCALE_HANDS`` heads-up hands with (seed 0; at the fewest seats the game allows where that is
    more), sorted, and the share of those hands each beats (ties counting half)."""
    standard = {**game.resolve_options(options), "draw_policy": "standard"}
    key = f"{game.source}|{game.name}|{json.dumps(standard, sort_keys=True)}"
    if key not in _SCALES:
        players = max(2, game.min_players)  # (heads-up where the game allows it)
        u = random_words(np.random.default_rng(0), SCALE_HANDS, words_per_hand(game, players, standard))
        finals = np.sort(simulate_chunk(game, players, 1, standard, u).strength.ravel())
        keys, first = np.unique(finals, return_index=True)
        counts = np.diff(np.append(first, len(finals)))
        _SCALES[key] = keys, (first + counts / 2) / len(finals)
    return _SCALES[key]


def draw_policy(game: GameSpec, options: Mapping[str, Any]) -> dk.DrawPolicy:
    """The drawing policy a run plays (its ``draw_policy`` option; standard where it has none)."""
    if options.get("draw_policy") != "sampled":
        split = game.under(options).low_hands and RANKINGS[game.ranking].code == STANDARD_HIGH
        code = dk.SPLIT if split else dk.STANDARD
        return dk.DrawPolicy(code, 0, np.zeros(1, np.int64), np.zeros(1, np.float64))
    keys, below = final_hand_scale(game, options)
    return dk.DrawPolicy(dk.SAMPLED, SAMPLES, keys, below)


MASK64 = (1 << 64) - 1
SEED_STEP = 0xD1B54A32D192ED03  # given deals: hand h's draw seed is the chunk's plus (h + 1) times this


def given_draw_seeds(chunk_seed: int, n: int) -> np.ndarray:
    """The draw seeds of ``n`` given deals of one chunk (as the kernel makes them)."""
    with np.errstate(over="ignore"):
        return np.uint64(chunk_seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(SEED_STEP)


def cards_per_hand(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> int:
    """Cards one hand deals, burns included."""
    return layout(game, n_players, options).n_cards


def words_per_hand(game: GameSpec, n_players: int, options: Mapping[str, Any]) -> int:
    """Random 64-bit words one hand needs (32 bits per card dealt; a draw game one more, which seeds
    the reshuffles of its discards)."""
    return (cards_per_hand(game, n_players, options) + 1) // 2 + game.draws


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
    dealt: np.ndarray | None = None, draw_seed: int = 0,
) -> SimBatch:  # fmt: skip
    """Deal and settle ``len(u)`` hands of ``game`` in showdown mode, or settle the deals
    ``dealt`` (hands × cards dealt, in the order of ``engine.rules.sim_layout.layout``) as given;
    given deals of a draw game take their reshuffles and sampled decisions from ``draw_seed`` (a
    different one for each chunk of deals)."""
    options = game.resolve_options(options)
    game = game.under(options)  # the shares in force
    if game.compiled_gaps:  # (who acts and which cards are face up play no part here)
        raise ValueError(not_simulated(game))
    if not game.min_players <= n_players <= game.max_players:
        raise ValueError(f"{game.title} seats {game.min_players} to {game.max_players} players")
    lay = layout(game, n_players, options)
    if dealt is not None:
        cards = _checked_deals(dealt, lay.n_cards, game.deck.size)
        n, u = cards.shape[0], np.full((1, 1), draw_seed & MASK64, dtype=np.uint64)
    else:
        n = u.shape[0]
        if u.dtype != np.uint64 or u.ndim != 2 or u.shape[1] * 2 < lay.n_cards + 2 * game.draws:
            wanted = f"({n}, {(lay.n_cards + 1) // 2 + game.draws}) uint64 random words"
            raise ValueError(f"need {wanted}, got {u.dtype} {u.shape}")
        cards = np.empty((n, lay.n_cards), dtype=np.int8)
    n_hole, n_boards = lay.hole.shape[1], lay.board.shape[0]
    strength = np.full((n, n_players), -1, dtype=np.int64)
    won = np.zeros((n, n_players), dtype=np.int64)
    ending = np.zeros(n, dtype=np.int8)
    low_share, board_shares = game.low_share, game.board_shares
    halves = game.low_half  # a low half: points or ace-to-five lows
    discards = game.discard_board is not None
    draws, n_streets = game.draws, lay.n_streets
    used = {"low": halves, "won_high": halves, "won_low": halves, "board_won": board_shares,
            "triple_scoop": board_shares, "discard_street": discards or low_share, "final_hole": draws,
            "drawn": draws, "thrown": draws, "received": draws}  # fmt: skip
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
        "final_hole": np.full((rows[draws], n_players, n_hole), -1, dtype=np.int8),
        "drawn": np.zeros((rows[draws], n_players, n_streets), dtype=np.int8),
        "thrown": np.full((rows[draws], n_streets, n_players, n_hole), -1, dtype=np.int8),
        "received": np.full((rows[draws], n_streets, n_players, n_hole), -1, dtype=np.int8),
    }
    plan = k.DealPlan(u, dealt is not None, lay.hole.astype(np.int64), lay.board.astype(np.int64),
                      lay.board_street.astype(np.int64), game.deck.size, stake, lay.n_streets, lay.draw_burns,
                      lay.stub_from, draw_policy(game, options))  # fmt: skip
    out = k.ShowdownHands(
        cards, strength, extra["low"], won, extra["won_high"], extra["won_low"], extra["board_won"],
        extra["survivors"], extra["triple_scoop"], extra["discard_street"], extra["dead"], ending,
        extra["streets_dealt"], extra["outcome"], extra["tally"], extra["final_hole"], extra["drawn"],
        extra["thrown"], extra["received"],
    )  # fmt: skip
    k.simulate_hands(plan, compile_rules(game, options), out)
    extra = {name: values for name, values in extra.items() if used.get(name, True)}  # no placeholders
    if draws:  # each hand's random state of its reshuffles and sampled decisions
        extra["draw_seed"] = given_draw_seeds(u[0, 0], n) if dealt is not None else u[:, -1].copy()
    return SimBatch(game, n_players, stake, options, lay, cards, strength, won, ending, extra)
