"""Buckets of starting hands, for push/fold in games that deal too many hole cards to list their
classes (Scarney's six, the Omaha games' four), and what the bucketing costs on real hands.

A hand's *score* is its all-in equity heads-up against a random hand, estimated from ``runouts``
sampled runouts against hands drawn from a pool of ``pool`` sampled starting hands. The pool's
scores fix the edges: bucket ``B01`` holds the pool's best ``1/buckets`` of scores, ``B02`` the
next, and so on, and any hand falls in the bucket of its own score. The abstract game's matrix
(``bucket_matchups``) is the mean equity of pool hands of one bucket against pool hands of
another over fresh runouts (never the ones that scored them, which would favour hands that were
lucky), each sampled pair counted both ways; its weights are the shares of pairs. The solver
treats buckets as classes (``engine.solving.pushfold.solve``), so its exploitability is the abstract
game's.

What the abstraction gives away is estimated on real hands (``check_hands`` and
``full_exploitability``): fresh hands of each side, bucketed by their own scores, each played
against ``opponents`` pool hands of the other side; a best response pushes (or calls) with a
hand exactly when that gains over folding. Choices made on a hand's own samples are biased up
by sampling noise (the upper figure); choices made on one half of its samples and valued on the
other are biased down (the lower, cross-fitted figure, with its standard error). In expectation
the full game's exploitability lies between them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.compiled.runouts import sample_matchups
from engine.compiled.simulate import simulate_chunk
from engine.odds.equity import STAKE, outcomes
from engine.rules.games.base import GameSpec
from engine.rules.hand_classes import first_hole_cards
from engine.rules.sim_layout import layout
from engine.solving.pushfold import Matchups

DRAWS = 1_000  # rounds of drawing opponents again before giving up
GROUP_ROWS = 1_000_000  # deals drawn at a time (memory)
CHUNK = 100_000  # deals settled at a time; a change changes the sampled streams
PHASES = {"pool": 1, "scores": 2, "pairs": 3, "check": 4, "check-scores": 5, "check-pairs": 6}
Progress = Callable[[int, int], None] | None


@dataclass(frozen=True)
class Bucketing:
    """The pool of sampled starting hands, their scores, and the score edges of the buckets."""

    names: tuple[str, ...]  # B01 the strongest
    edges: np.ndarray  # (buckets - 1,) ascending scores between buckets
    pool: np.ndarray  # (pool, hole cards) card ids, each row sorted
    scores: np.ndarray  # (pool,) each pool hand's estimated equity against a random hand
    runouts: int
    seed: int

    def bucket(self, scores: np.ndarray) -> np.ndarray:
        """The bucket index (0 the strongest) of each score.

        >>> b = Bucketing(("B01", "B02", "B03"), np.array([0.4, 0.6]), np.zeros((0, 4)), np.zeros(0), 1, 0)
        >>> b.bucket(np.array([0.7, 0.5, 0.1, 0.6])).tolist()
        [0, 1, 2, 0]
        """
        return len(self.names) - 1 - np.searchsorted(self.edges, scores, side="right")


@dataclass(frozen=True)
class Check:
    """Fresh hands of each side (0 the small blind's, 1 the big blind's) against pool hands: each
    fresh hand's bucket, its opponents' buckets, and its equity against each (one runout)."""

    own: np.ndarray  # (2, hands)
    against: np.ndarray  # (2, hands, opponents)
    equity: np.ndarray  # (2, hands, opponents)


def names_of(buckets: int) -> tuple[str, ...]:
    """Bucket names, the strongest first.

    >>> names_of(3)
    ('B01', 'B02', 'B03')
    """
    return tuple(f"B{k + 1:02d}" for k in range(buckets))


def _rng(seed: int, phase: str, purpose: int = 1) -> np.random.Generator:
    """The numpy generator of one phase and purpose (1 drawing hands and opponents, 2 breaking
    ties); its entropy never equals a compiled stream's (tagged 3)."""
    return np.random.default_rng([seed, PHASES[phase], purpose])


def _stream(seed: int, phase: str, chunk: int) -> int:
    """A 32-bit seed of the compiled sampler for one chunk of one phase."""
    return int(np.random.SeedSequence([seed, PHASES[phase], 3, chunk]).generate_state(1)[0] >> 1)


def random_hands(rng: np.random.Generator, count: int, held: int, deck_size: int) -> np.ndarray:
    """``count`` uniform starting hands of ``held`` cards, each row sorted."""
    return np.sort(np.argsort(rng.random((count, deck_size)), axis=1)[:, :held], axis=1).astype(np.int8)


def _masks(hands: np.ndarray) -> np.ndarray:
    masks = np.zeros(len(hands), dtype=np.uint64)
    for column in range(hands.shape[1]):
        masks |= np.left_shift(np.uint64(1), hands[:, column].astype(np.uint64))
    return masks


def opponents(rng: np.random.Generator, hands: np.ndarray, pool: np.ndarray, count: int) -> np.ndarray:
    """(hands, count) indices of pool hands drawn uniformly among those sharing no card with each hand."""
    mine, theirs = _masks(hands)[:, None], _masks(pool)
    drawn = rng.integers(0, len(pool), size=(len(hands), count))
    clash = (mine & theirs[drawn]) != 0
    for _ in range(DRAWS):
        if not clash.any():
            return drawn
        drawn[clash] = rng.integers(0, len(pool), size=int(clash.sum()))
        clash = (mine & theirs[drawn]) != 0
    raise ValueError(f"after {DRAWS} draws some hands still share a card with every pool hand drawn: "
                     "the pool is too small for hands this large (a larger --pool)")  # fmt: skip


def pair_equities(game: GameSpec, options: Mapping[str, Any], first: np.ndarray, second: np.ndarray,
                  seed: int, phase: str, first_chunk: int = 0) -> np.ndarray:  # fmt: skip
    """Seat 0's all-in share of the pot, heads-up, holding ``first[k]`` against ``second[k]``
    (rows sharing no card), one sampled runout each, settled by the rules core; chunk ``c`` of
    the rows draws from the phase's stream ``first_chunk + c``."""
    lay = layout(game, 2, options)
    held = first.shape[1]
    positions = np.ascontiguousarray(lay.hole[:, :held], dtype=np.int64)
    found = np.empty(len(first))
    for start in range(0, len(first), CHUNK):
        a, b = first[start : start + CHUNK], second[start : start + CHUNK]
        n = len(a)
        members = np.ascontiguousarray(np.concatenate([a, b]), dtype=np.int8)
        starts, counts = np.arange(2 * n, dtype=np.int64), np.ones(2 * n, dtype=np.int64)
        cells = np.stack([np.arange(n), np.arange(n, 2 * n)], axis=1).astype(np.int64)
        deals = np.empty((n, lay.n_cards), dtype=np.int8)
        stream = _stream(seed, phase, first_chunk + start // CHUNK)
        sample_matchups(members, starts, counts, cells, 1, positions, game.deck.size, stream, deals)
        batch = simulate_chunk(game, 2, STAKE, options, None, dealt=deals)
        found[start : start + n] = outcomes(batch, 2)["equity"][:, 0]
    return found


Group = tuple[int, np.ndarray, np.ndarray]  # first hand's index, opponents, equities


def against_pool(game: GameSpec, options: Mapping[str, Any], hands: np.ndarray, pool: np.ndarray, count: int,
                 seed: int, phase: str, progress: Progress = None) -> Iterator[Group]:  # fmt: skip
    """Each hand against ``count`` pool hands sharing no card, one runout each, in groups of
    hands (memory stays bounded): yields (first hand's index, opponents, equities), both arrays
    (hands of the group, count)."""
    rng, per, chunk = _rng(seed, phase), max(1, GROUP_ROWS // count), 0
    for start in range(0, len(hands), per):
        mine = hands[start : start + per]
        drawn = opponents(rng, mine, pool, count)
        first = np.repeat(mine, count, axis=0)
        equity = pair_equities(game, options, first, pool[drawn.ravel()], seed, phase, chunk)
        chunk += -(-len(first) // CHUNK)
        if progress is not None:
            progress((start + len(mine)) * count, len(hands) * count)
        yield start, drawn, equity.reshape(len(mine), count)


def scores_of(game: GameSpec, options: Mapping[str, Any], hands: np.ndarray, pool: np.ndarray, runouts: int,
              seed: int, phase: str = "scores", progress: Progress = None) -> np.ndarray:  # fmt: skip
    """Each hand's equity against a random hand (a pool hand sharing no card), over ``runouts``,
    ties broken at random: plus a jitter below ``1 / (24 runouts)``, less than any two different
    means of that many runouts can differ by in the built-in games (pots split in halves, thirds
    or quarters), so only equal scores are reordered."""
    scores = np.empty(len(hands))
    for start, _, equity in against_pool(game, options, hands, pool, runouts, seed, phase, progress):
        scores[start : start + len(equity)] = equity.mean(axis=1)
    return scores + _rng(seed, phase, 2).random(len(hands)) / (24 * runouts)


def pool_buckets(game: GameSpec, options: Mapping[str, Any], *, buckets: int, pool: int, runouts: int,
                 seed: int = 0, progress: Progress = None) -> Bucketing:  # fmt: skip
    """Sample the pool, score every pool hand, and cut the scores at equal shares."""
    options = game.resolve_options(options)
    held = first_hole_cards(game, options)
    hands = random_hands(_rng(seed, "pool"), pool, held, game.deck.size)
    scores = scores_of(game, options, hands, hands, runouts, seed, progress=progress)
    return from_pool(hands, scores, buckets, runouts, seed)


def from_pool(hands: np.ndarray, scores: np.ndarray, buckets: int, runouts: int, seed: int) -> Bucketing:
    """The bucketing a scored pool gives (edges at the quantiles ``k / buckets`` of its scores)."""
    if not 2 <= buckets <= min(99, len(hands) // 10):
        raise ValueError(
            f"{buckets} buckets: between 2 and {min(99, len(hands) // 10)} for a pool of {len(hands):,}"
        )
    edges = np.quantile(scores, np.arange(1, buckets) / buckets)
    if not (np.diff(edges) > 0).all():
        raise ValueError(f"{buckets} buckets: the scores of the pool do not tell them apart (equal edges)")
    return Bucketing(names_of(buckets), edges, hands, scores, runouts, seed)


def bucket_matchups(game: GameSpec, options: Mapping[str, Any], bucketing: Bucketing, pairs: int,
                    progress: Progress = None) -> Matchups:  # fmt: skip
    """Mean equity of each bucket against each over ``pairs`` sampled pairs of pool hands (fresh
    runouts, each pair counted both ways), weighted by the share of pairs of each two buckets."""
    options = game.resolve_options(options)
    rng, pool, seed = _rng(bucketing.seed, "pairs"), bucketing.pool, bucketing.seed
    first = rng.integers(0, len(pool), size=pairs)
    second = opponents(rng, pool[first], pool, 1)[:, 0]
    equity = np.empty(pairs)
    for k in range(0, pairs, GROUP_ROWS):
        rows = slice(k, k + GROUP_ROWS)
        equity[rows] = pair_equities(
            game, options, pool[first[rows]], pool[second[rows]], seed, "pairs", k // CHUNK
        )
        if progress is not None:
            progress(min(k + GROUP_ROWS, pairs), pairs)
    n = len(bucketing.names)
    own, theirs = bucketing.bucket(bucketing.scores[first]), bucketing.bucket(bucketing.scores[second])
    cells = np.concatenate([own * n + theirs, theirs * n + own])
    won = np.bincount(cells, np.concatenate([equity, 1 - equity]), minlength=n * n).reshape(n, n)
    counts = np.bincount(cells, minlength=n * n).reshape(n, n).astype(np.float64)
    mean = np.where(counts > 0, won / np.where(counts > 0, counts, 1), 0.5)
    return Matchups(bucketing.names, mean, counts, pairs, seed)


def check_hands(game: GameSpec, options: Mapping[str, Any], bucketing: Bucketing, hands: int,
                opponents_each: int, progress: Progress = None) -> Check:  # fmt: skip
    """Fresh hands of each side, scored and bucketed like the pool's, each against pool hands."""
    options = game.resolve_options(options)
    pool, seed = bucketing.pool, bucketing.seed
    fresh = random_hands(_rng(seed, "check"), 2 * hands, pool.shape[1], game.deck.size)
    scores = scores_of(game, options, fresh, pool, bucketing.runouts, seed, "check-scores")
    against = np.empty((2 * hands, opponents_each), dtype=np.int16)
    equity = np.empty((2 * hands, opponents_each), dtype=np.float32)
    for start, drawn, found in against_pool(game, options, fresh, pool, opponents_each, seed, "check-pairs",
                                            progress):  # fmt: skip
        against[start : start + len(found)] = bucketing.bucket(bucketing.scores[drawn])
        equity[start : start + len(found)] = found
    own = bucketing.bucket(scores).reshape(2, hands)
    return Check(own, against.reshape(2, hands, opponents_each), equity.reshape(2, hands, opponents_each))


@dataclass(frozen=True)
class RealHands:
    """What best responses gain on real hands against a bucket strategy, bb a hand, both sides
    together: in-sample (biased up) and cross-fitted (biased down), each with its standard error."""

    upper: float
    lower: float
    lower_error: float
    upper_error: float


def full_exploitability(check: Check, push: np.ndarray, call: np.ndarray, stack: float, ante: float = 0.0
                        ) -> RealHands:  # fmt: skip
    """Best responses on the check's real hands against ``push`` and ``call`` (per bucket).

    A small-blind hand's sample gains ``steal - fold`` if the big blind folds and
    ``2·stack·equity - stack - fold`` if it calls; a big-blind hand's sample gains
    ``2·stack·equity - stack + 1 + ante`` over folding when the small blind pushes.
    """
    fold, steal = -(0.5 + ante), 1.0 + ante
    q = call[check.against[0]]
    small = (1 - q) * (steal - fold) + q * (2 * stack * check.equity[0] - stack - fold)
    big = push[check.against[1]] * (2 * stack * check.equity[1] - stack + 1 + ante)
    upper, lower = [], []
    for gain, played in ((small, push[check.own[0]]), (big, call[check.own[1]])):
        half = gain.shape[1] // 2
        mean, a, b = gain.mean(axis=1), gain[:, :half].mean(axis=1), gain[:, half : 2 * half].mean(axis=1)
        upper.append(np.maximum(mean, 0) - played * mean)
        lower.append(0.5 * (((a > 0) - played) * b + ((b > 0) - played) * a))

    def total(sides: list[np.ndarray]) -> tuple[float, float]:
        return float(sum(s.mean() for s in sides)), float(np.sqrt(sum(s.var(ddof=1) / len(s) for s in sides)))

    (high, high_error), (low, low_error) = total(upper), total(lower)
    return RealHands(high, low, low_error, high_error)
