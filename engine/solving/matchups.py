"""The cards of a heads-up all-in, once per game: the equity of each starting-hand class against
each, over every pair of combinations the cards allow (weighted alike), runouts sampled and
settled by the rules core. The push/fold solver (``engine.solving.pushfold``) reads only this matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from engine.compiled.runouts import sample_matchups
from engine.compiled.simulate import simulate_chunk
from engine.odds.equity import STAKE, outcomes
from engine.rules.games.base import GameSpec
from engine.rules.hand_classes import hand_classes
from engine.rules.sim_layout import layout
from engine.solving.pushfold import MATCHUP_SAMPLES, Matchups

CHUNK = 100_000  # a change changes the sampled streams: raise ingest.generation.pushfold.METHOD_VERSION
PAIRING_LIMIT = 6_000  # starting hands paired one by one (Skœjarth: 3,276)


def class_matchups(game: GameSpec, options: Mapping[str, Any] | None = None, *,
                   samples: int = MATCHUP_SAMPLES, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None) -> Matchups:  # fmt: skip
    """The equity matrix of a game's classes, heads-up, ``samples`` runouts a pair of classes.

    A class against itself is worth one half by symmetry, and j against i is one less i against j
    (two players share every pot), so only pairs i < j are dealt.
    """
    options = game.resolve_options(options)
    classes = hand_classes(game, options)
    if classes is None:
        raise ValueError(f"{game.title} deals too many hole cards for a table of classes")
    names, n = tuple(c.name for c in classes), len(classes)
    members = np.array([m for c in classes for m in c.members], dtype=np.int8)
    counts = np.array([c.combos for c in classes], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    weights = _disjoint_pairs(members, counts, game.deck.size)
    lay = layout(game, 2, options)
    positions = np.ascontiguousarray(lay.hole[:, : members.shape[1]], dtype=np.int64)
    cells = np.array([(i, j) for i in range(n) for j in range(i + 1, n) if weights[i, j] > 0], dtype=np.int64)
    equity = np.full((n, n), 0.5)
    per_chunk = max(1, CHUNK // samples)
    for first in range(0, len(cells), per_chunk):
        chunk = cells[first : first + per_chunk]
        deals = np.empty((len(chunk) * samples, lay.n_cards), dtype=np.int8)
        stream = seed * 1_000_003 + first // per_chunk  # seeds never share a chunk's stream
        sample_matchups(members, starts, counts, chunk, samples, positions, game.deck.size, stream, deals)
        batch = simulate_chunk(game, 2, STAKE, options, None, dealt=deals)
        mean = outcomes(batch, 2)["equity"][:, 0].reshape(len(chunk), samples).mean(axis=1)
        equity[chunk[:, 0], chunk[:, 1]] = mean
        equity[chunk[:, 1], chunk[:, 0]] = 1 - mean
        if progress is not None:
            progress(min(first + per_chunk, len(cells)) * samples, len(cells) * samples)
    return Matchups(names, equity, weights, samples, seed)


def _disjoint_pairs(members: np.ndarray, counts: np.ndarray, deck_size: int) -> np.ndarray:
    """(classes, classes): pairs of combinations, one of each class, that share no card."""
    if len(members) > PAIRING_LIMIT:
        limit = f"at most {PAIRING_LIMIT:,}: games of fewer hole cards or a smaller deck"
        raise ValueError(f"{len(members):,} starting hands are too many to pair one by one ({limit})")
    masks = np.zeros(len(members), dtype=np.uint64)
    for column in range(members.shape[1]):
        masks |= np.left_shift(np.uint64(1), members[:, column].astype(np.uint64))
    owner = np.repeat(np.arange(len(counts)), counts)
    onehot = np.zeros((len(members), len(counts)))
    onehot[np.arange(len(members)), owner] = 1
    disjoint = ((masks[:, None] & masks[None, :]) == 0).astype(np.float64)
    return onehot.T @ disjoint @ onehot
