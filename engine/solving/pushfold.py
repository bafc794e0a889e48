"""Heads-up push/fold equilibria: the small blind goes all in or folds, the big blind calls or
folds, over the starting-hand classes of a game (``engine.odds.starting_hands``).

The game's cards enter once, as a matrix of all-in equities of class against class
(``engine.solving.matchups``: every pair of combinations the cards allow, weighted alike, runouts
sampled); this module is plain numpy. With each player's probabilities of pushing ``p`` and of
calling ``q`` per class, the small blind's result is bilinear, ``f + b·p + pᵀ M q`` big blinds
(``payoffs``), and ``solve`` finds its saddle point by CFR+ (regret matching with regrets
floored at zero, alternating updates, averages weighted by iteration), stopping when the best
responses against the average strategies gain less than ``tolerance`` big blinds together.

>>> three = np.array([[0.5, 0, 0], [1, 0.5, 0], [1, 1, 0.5]])  # one card each of 1 < 2 < 3
>>> solution = solve(three, 1 - np.eye(3), stack=1.5, tolerance=1e-5)
>>> solution.push.round(3).tolist(), solution.call.round(3).tolist(), round(solution.value, 4)
([0.2, 1.0, 1.0], [0.0, 0.2, 1.0], 0.1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.solving.pushfold_plan import MATCHUP_SAMPLES, Plan  # noqa: F401  (the plan of a game's matchups)

TOLERANCE = 0.001  # big blinds the best responses may gain together


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


def called_equity(matchups: Matchups, call: np.ndarray) -> np.ndarray:
    """Per class, its all-in equity against the hands that call it (NaN where none do).

    >>> m = Matchups(("A", "B"), np.array([[0.5, 0.8], [0.2, 0.5]]), np.ones((2, 2)), 1, 0)
    >>> called_equity(m, np.array([1.0, 0.0])).tolist()
    [0.5, 0.2]
    """
    called = matchups.weights * call[None, :]
    met = called.sum(axis=1)
    return np.where(met > 0, (called * matchups.equity).sum(axis=1) / np.where(met > 0, met, 1), np.nan)
