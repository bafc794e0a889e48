"""Heads-up push/fold equilibria: the small blind goes all in or folds, the big blind calls or
folds, over the starting-hand classes of a game (``engine.starting_hands``).

The game's cards enter once, as a matrix of all-in equities of class against class
(``class_matchups``: every pair of combinations the cards allow, weighted alike, runouts
sampled). With each player's probabilities of pushing ``p`` and of calling ``q`` per class, the
small blind's result is bilinear, ``f + b·p + pᵀ M q`` big blinds (``payoffs``), and ``solve``
finds its saddle point by CFR+ (regret matching with regrets floored at zero, alternating
updates, averages weighted by iteration), stopping when the best responses against the
average strategies gain less than ``tolerance`` big blinds together.

>>> three = np.array([[0.5, 0, 0], [1, 0.5, 0], [1, 1, 0.5]])  # one card each of 1 < 2 < 3
>>> solution = solve(three, 1 - np.eye(3), stack=1.5, tolerance=1e-5)
>>> solution.push.round(3).tolist(), solution.call.round(3).tolist(), round(solution.value, 4)
([0.2, 1.0, 1.0], [0.0, 0.2, 1.0], 0.1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.games.base import GameSpec
from engine.odds import STAKE, outcomes
from engine.runouts import sample_matchups
from engine.sim_layout import layout
from engine.simulate import simulate_chunk
from engine.starting_hands import hand_classes

MATCHUP_SAMPLES = 4_000  # sampled runouts a pair of classes
TOLERANCE = 0.001  # big blinds the best responses may gain together
CHUNK = 100_000  # a change changes the sampled streams: raise ingest.pushfold.METHOD_VERSION
PAIRING_LIMIT = 6_000  # starting hands paired one by one (Skœjarth: 3,276)


@dataclass(frozen=True)
class Matchups:
    """All-in equity of each class (the small blind's) against each (the big blind's), and how
    many pairs of combinations the cards allow for each pair of classes."""

    names: tuple[str, ...]
    equity: np.ndarray  # (classes, classes)
    weights: np.ndarray  # (classes, classes) pairs of combinations that share no card
    samples: int
    seed: int


@dataclass
class PushFold:
    """An equilibrium: each class's probability of pushing and of calling, the small blind's
    value in big blinds, and what best responses gain against it (both sides together)."""

    push: np.ndarray
    call: np.ndarray
    value: float
    exploitability: float
    iterations: int


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


def payoffs(equity: np.ndarray, weights: np.ndarray, stack: float, ante: float = 0.0):
    """The small blind's result ``f + b·p + pᵀ M q`` in big blinds: ``(f, b, M)``.

    Each player starts with ``stack`` big blinds and posts ``ante`` and a blind (a half, one).
    A fold loses the small blind and the ante; a push the big blind folds to wins the big
    blind and its ante; a called push wins the pot of both stacks with the hand's equity.
    """
    joint = weights / weights.sum()
    fold, steal = -(0.5 + ante), 1.0 + ante
    called = equity * 2 * stack - stack
    return fold, joint.sum(axis=1) * (steal - fold), joint * (called - steal)


def best_responses(fold: float, b: np.ndarray, m: np.ndarray, push: np.ndarray, call: np.ndarray
                   ) -> tuple[float, float, float]:  # fmt: skip
    """The small blind's value of (push, call), its best against ``call``, and its value when the
    big blind answers ``push`` at best: exploitability is the second less the third."""
    value = fold + b @ push + push @ m @ call
    return value, fold + np.maximum(b + m @ call, 0).sum(), fold + b @ push + np.minimum(push @ m, 0).sum()


def solve(equity: np.ndarray, weights: np.ndarray, stack: float, ante: float = 0.0, *,
          tolerance: float = TOLERANCE, max_iterations: int = 500_000,
          check_every: int = 32) -> PushFold:  # fmt: skip
    """The push/fold equilibrium at ``stack`` big blinds (see the module's doc), by CFR+."""
    fold, b, m = payoffs(equity, weights, stack, ante)
    n = len(b)
    regrets = np.zeros((4, n))  # push, fold, call, pass
    push, call = np.full(n, 0.5), np.full(n, 0.5)
    push_sum, call_sum, total = np.zeros(n), np.zeros(n), 0.0
    for t in range(1, max_iterations + 1):
        push = _regret_step(regrets, 0, b + m @ call, push)
        call = _regret_step(regrets, 2, -(push @ m), call)
        push_sum += t * push
        call_sum += t * call
        total += t
        if t % check_every == 0 or t == max_iterations:
            p, q = push_sum / total, call_sum / total
            value, sb_best, bb_best = best_responses(fold, b, m, p, q)
            if sb_best - bb_best < tolerance or t == max_iterations:
                return PushFold(p, q, float(value), float(sb_best - bb_best), t)
    raise AssertionError("unreachable")


def _regret_step(regrets: np.ndarray, row: int, gain: np.ndarray, current: np.ndarray) -> np.ndarray:
    """One CFR+ update of an action against its alternative worth 0; the next strategy."""
    value = current * gain
    regrets[row] = np.maximum(regrets[row] + gain - value, 0)
    regrets[row + 1] = np.maximum(regrets[row + 1] - value, 0)
    both = regrets[row] + regrets[row + 1]
    return np.where(both > 0, regrets[row] / np.where(both > 0, both, 1), 0.5)


def chart(names: tuple[str, ...] | list[str], stacks: list[float], push: np.ndarray, call: np.ndarray
          ) -> dict[str, dict[str, float]]:  # fmt: skip
    """Per class the largest of ``stacks`` at which it is pushed, and called (0 if never): played
    when its probability is at least one half. ``push`` and ``call`` are (stacks, classes).

    >>> chart(["AA", "72o"], [2.0, 4.0], np.array([[1, 1], [1, 0.2]]), np.array([[1, 0], [1, 0]]))
    {'AA': {'push_max': 4.0, 'call_max': 4.0}, '72o': {'push_max': 2.0, 'call_max': 0.0}}
    """
    out = {}
    for i, name in enumerate(names):
        pushed = [float(s) for s, row in zip(stacks, push, strict=True) if row[i] >= 0.5]
        called = [float(s) for s, row in zip(stacks, call, strict=True) if row[i] >= 0.5]
        out[name] = {"push_max": max(pushed, default=0.0), "call_max": max(called, default=0.0)}
    return out


def gains(matchups: Matchups, solution: PushFold, stack: float, ante: float = 0.0
          ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per class, in big blinds a hand: what pushing gains over folding for the small blind
    against the solution's calls, and what calling gains over folding for the big blind
    against its pushes (0 where the class never meets a push). Near 0: nearly indifferent."""
    _, b, m = payoffs(matchups.equity, matchups.weights, stack, ante)
    joint = matchups.weights / matchups.weights.sum()
    held_sb, met = joint.sum(axis=1), solution.push @ joint
    push_gain = (b + m @ solution.call) / held_sb
    call_gain = np.where(met > 0, -(solution.push @ m) / np.where(met > 0, met, 1), 0.0)
    return push_gain, call_gain
