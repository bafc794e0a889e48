"""Runouts of situations in which some seats hold a range (two-card games): every tuple of
combinations the cards allow, weighted alike (card removal: a combination holding a known or
dead card, or another seat's card, is never dealt), with every runout or a sample of both.

The ranking behind ``N%`` ranges: each class by its equity all in before the flop against one
random hand, heads-up (4,000 sampled runouts a class, seed 0), strongest first.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from engine.compiled.runouts import binomials, enumerate_range_deals, sample_range_deals
from engine.odds.equity import (
    CHUNK,
    EXACT_LIMIT,
    SAMPLES,
    OddsError,
    Situation,
    equities,
    exact_groups,
    known_prefix,
    runout_count,
)
from engine.rules.games.base import GameSpec
from engine.rules.sim_layout import Layout

TUPLE_LIMIT = 200_000  # tuples of combinations listed for an exact answer


class RangeDeals:
    """Deals of a situation with ranges: every tuple with every runout (exact), or a sample."""

    def __init__(self, game: GameSpec, lay: Layout, known: np.ndarray, free: np.ndarray,
                 ranges: tuple, exact: bool | None, samples: int | None, seed: int):  # fmt: skip
        self.lay, self.known, self.free, self.seed = lay, known, free, seed
        seats = [q for q, combos in enumerate(ranges) if combos is not None]
        allowed = set(free.tolist())
        self.combos = []
        for q in seats:
            keep = [c for c in ranges[q].tolist() if c[0] in allowed and c[1] in allowed]
            if not keep:
                raise OddsError(f"the range of seat {q + 1} leaves no hand beside the cards given")
            self.combos.append(np.array(keep, dtype=np.int8))
        self.positions = np.array([lay.hole[q, j] for q in seats for j in range(2)], dtype=np.int64)
        placed = known.copy()
        placed[self.positions] = 0  # as if known: the runouts of one tuple
        self.groups, self.sizes, self.burns = exact_groups(game, lay, placed)
        self.per_tuple = runout_count(self.sizes, len(free) - len(self.positions))
        product = np.prod([len(c) for c in self.combos], dtype=float)
        self.tuples = self._tuples() if product <= TUPLE_LIMIT else None
        if self.tuples is not None and len(self.tuples) == 0:
            raise OddsError("the ranges leave no hands that can be dealt together (they share every card)")
        count = None if self.tuples is None else len(self.tuples) * self.per_tuple
        if exact and count is None:
            raise OddsError(f"more than {TUPLE_LIMIT:,} tuples of hands in these ranges: sample them instead")
        small = count is not None and count <= EXACT_LIMIT
        self.exact = exact if exact is not None else (samples is None and small)
        self.total = count if self.exact else (samples or SAMPLES)
        self.table, self.drawn = binomials(game.deck.size), None
        counts = np.array([len(c) for c in self.combos], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        self.pooled = (np.concatenate(self.combos), starts, counts)  # every seat's range in one array

    def _tuples(self) -> np.ndarray:
        """Every tuple of one combination a range seat, no card twice."""
        rows = [
            sum(pick, ())
            for pick in itertools.product(*(map(tuple, c.tolist()) for c in self.combos))
            if len(set(sum(pick, ()))) == 2 * len(pick)
        ]
        return np.array(rows, dtype=np.int8).reshape(len(rows), len(self.positions))

    def chunk(self, start: int, n: int) -> np.ndarray:
        """Deals ``start`` .. ``start + n``, inside one ``CHUNK`` of them (sampled: each chunk drawn
        whole, seeded by its number, so that the deals do not depend on the calls)."""
        if not self.exact:
            return self._sampled_chunk(start // CHUNK)[start % CHUNK : start % CHUNK + n].copy()
        deals = np.empty((n, self.lay.n_cards), dtype=np.int8)
        enumerate_range_deals(self.known, self.free, self.positions, self.tuples, self.groups, self.sizes,
                              self.burns, self.table, start, deals)  # fmt: skip
        return deals

    def _sampled_chunk(self, number: int) -> np.ndarray:
        """The sampled deals of chunk ``number`` (the last one drawn is kept)."""
        if self.drawn is None or self.drawn[0] != number:
            deals = np.empty((min(CHUNK, self.total - number * CHUNK), self.lay.n_cards), dtype=np.int8)
            if not sample_range_deals(self.known, self.free, self.positions, *self.pooled,
                                      self.seed * 1_000_003 + number + 1, deals):  # fmt: skip
                raise OddsError("the ranges almost never leave hands that can be dealt together")
            self.drawn = (number, deals)
        return self.drawn[1]


@lru_cache(maxsize=16)
def _ranking(name: str, options: tuple) -> tuple[str, ...]:
    from engine.odds.ranges import class_combos, class_names
    from engine.rules.games import get_game

    game = get_game(name)
    deck, rows = game.deck, []
    names = class_names(deck)
    for cls in names:
        first, second = class_combos(cls, deck)[0]
        spot = Situation(((int(first), int(second)), (None, None)), ((),) * len(game.boards))  # vs random
        rows.append(known_prefix(game, spot, dict(options))[0])
    equity = equities(game, 2, np.array(rows), dict(options), samples=4_000, seed=0)[:, 0]
    return tuple(names[i] for i in np.argsort(-equity, kind="stable"))


def class_ranking(game: GameSpec, options: Mapping[str, Any]) -> list[str]:
    """The classes of a two-card game, strongest first by equity against one random hand."""
    from engine.rules.games import GAMES

    name = game.name if GAMES.get(game.name) is game else game.source
    return list(_ranking(name, tuple(sorted(options.items()))))
