"""Starting-hand tables: every starting hand of a game (or what a player sees in one) with its
all-in equity against N-1 random hands, how often it wins, ties and scoops, and its share of
each part of the pot.

A game dealing at most three hole cards lists its classes up to suit symmetry
(``engine.rules.hand_classes``: hold'em's 169, short deck's 81, Skœjarth's 266 fans). One combination
of each class is dealt against random hands: every combination of a class has the same equity,
since suits are symmetric. A game dealing more is summarized by features of the hand
(``FEATURES``): sampled deals, every seat's hand counted in the group of its value, with
intervals that allow for several seats of one deal in one group.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from engine.compiled.core import compile_rules
from engine.compiled.draw_kernel import standard_draws
from engine.compiled.simulate import simulate_chunk
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import ACE_TO_FIVE, BADUGI
from engine.odds.equity import CHUNK, STAKE, outcomes, sample_into, settle_situations
from engine.odds.intervals import mean_interval, ratio_intervals, wilson
from engine.rules.games.base import GameSpec
from engine.rules.hand_classes import first_hole_cards, hand_classes
from engine.rules.sim_layout import layout

CLASS_RUNOUTS = 8_000_000  # sampled runouts over all classes, unless asked otherwise
FEATURE_DEALS = 1_000_000  # sampled deals of a feature table, unless asked otherwise
RATES = ("win", "tie", "scoop", "dead")
FEATURES = {
    "all": "every hand (its equity is 1/N: a check)",
    "pairs": "ranks held two or more times",
    "suited": "most cards held of one suit",
    "connected": "longest run of consecutive ranks held",
    "aces": "cards of the deck's top rank held",
    "ranks_exposed": "distinct ranks held: each is a rank the discard board can turn up",
    "low_points": "points of all the hole cards, as the low share counts them",
    "low_cards": "cards worth 2 to 6 points",
    "draw_cards": "cards the standard drawing policy draws to the hand (0: it stands pat)",
    "draw_top": "a low draw game: the highest card the standard drawing policy keeps (none: it keeps none)",
}


@dataclass
class HandRow:
    """One class (``kind`` "class") or one value of a feature: ``figures`` maps ``equity``, the
    rates and ``share.<part>`` to (value, low, high) of its 95% interval."""

    kind: str
    group: str
    value: int | None
    combos: int  # a class: its combinations in the deck; a feature: seats counted
    frequency: float  # the share of all starting hands (sampled for a feature)
    runouts: int
    figures: dict[str, tuple[float, float, float]]
    rank: int = 0  # by equity among the rows of its kind, 1 the best


@dataclass
class HandTable:
    """A starting-hand table of one game, table size and rule set, and how it was computed."""

    variant: str
    options: dict[str, Any]
    players: int
    method: str
    samples: int  # runouts a class, or deals of a feature table
    seed: int
    rows: list[HandRow] = field(default_factory=list)


def hand_features(game: GameSpec, options: Mapping[str, Any], hole: np.ndarray) -> dict[str, np.ndarray]:
    """Every feature (``FEATURES``) the game has, of hands ``hole`` (..., cards): arrays of ints."""
    n_suits, n_ranks = len(game.deck.suits), len(game.deck.ranks)
    rank, suit = hole // n_suits, hole % n_suits
    counts = (rank[..., None] == np.arange(n_ranks)).sum(axis=-2)  # (..., ranks)
    present = counts > 0
    run = best = np.zeros(counts.shape[:-1], dtype=np.int64)
    for r in range(n_ranks):
        run = np.where(present[..., r], run + 1, 0)
        best = np.maximum(best, run)
    out = {
        "all": np.zeros(counts.shape[:-1], dtype=np.int64),
        "pairs": (counts >= 2).sum(axis=-1),
        "suited": (suit[..., None] == np.arange(n_suits)).sum(axis=-2).max(axis=-1),
        "connected": best,
        "aces": counts[..., -1],
    }
    if game.discard_board is not None:
        out["ranks_exposed"] = present.sum(axis=-1)
    if game.hole_cards_alone:
        out |= _draw_features(game, options, hole)
    points = next((share.points for share in game.under(options).shares if share.points), ())
    if points:
        worth = np.asarray(points, dtype=np.int64)[rank]
        out["low_points"] = worth.sum(axis=-1)
        out["low_cards"] = ((worth >= 2) & (worth <= 6)).sum(axis=-1)
    return out


def _draw_features(game: GameSpec, options: Mapping[str, Any], hole: np.ndarray) -> dict[str, np.ndarray]:
    """A draw game of hole cards alone: what the standard drawing policy draws to each hand, and (a
    lowball ranking) the top card it keeps, in low order (``draw_top_name`` names it)."""
    rules = compile_rules(game, options)
    rows = np.ascontiguousarray(hole.reshape(-1, hole.shape[-1]), dtype=np.int8)
    drawn, top = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
    aces_low = _aces_low(game)
    standard_draws(rows, rules.ranking, rules.kickers, rules.tables, aces_low, drawn, top)
    out = {"draw_cards": drawn.reshape(hole.shape[:-1])}
    if RANKINGS[game.ranking].lowball:
        none = len(game.deck.ranks)  # (keeps no card)
        out["draw_top"] = np.where(top < 0, none, top).reshape(hole.shape[:-1])
    return out


def _aces_low(game: GameSpec) -> bool:
    return RANKINGS[game.ranking].code in (ACE_TO_FIVE, BADUGI)  # (deuce-to-seven: aces high)


def draw_top_name(game: GameSpec, value: int) -> str:
    """The rank a ``draw_top`` value stands for ("none": no card kept).

    >>> from engine.rules.games import GAMES
    >>> draw_top_name(GAMES["badugi"], 0), draw_top_name(GAMES["deuce-to-seven-triple-draw"], 5)
    ('A', '7')
    """
    ranks = game.deck.ranks
    if value >= len(ranks):
        return "none"
    return ranks[(value - 1) % len(ranks)] if _aces_low(game) else ranks[value]


def default_samples(game: GameSpec, options: Mapping[str, Any]) -> int:
    """Runouts a class (about ``CLASS_RUNOUTS`` in all), or deals of a feature table."""
    classes = hand_classes(game, options)
    if classes is None:
        return FEATURE_DEALS
    return max(1_000, CLASS_RUNOUTS // len(classes) // 100 * 100)


def starting_hands(game: GameSpec, players: int, options: Mapping[str, Any] | None = None, *,
                   samples: int | None = None, seed: int = 0,
                   progress: Callable[[int, int], None] | None = None) -> HandTable:  # fmt: skip
    """The table of ``game`` with ``players`` seats: classes (``samples`` runouts each) or features
    (``samples`` deals). ``progress(done, total)`` is called after each chunk of runouts."""
    options = game.resolve_options(options)
    if not game.min_players <= players <= game.max_players:
        seats = f"{game.min_players} to {game.max_players}"
        raise ValueError(f"{game.title} seats {seats} players, not {players}")
    classes = hand_classes(game, options)
    if classes is not None:
        return _class_table(game, players, options, classes, samples, seed, progress)
    return _feature_table(game, players, options, samples or FEATURE_DEALS, seed, progress)


def _class_table(game, players, options, classes, samples, seed, progress) -> HandTable:
    per_class = samples or default_samples(game, options)
    lay = layout(game, players, options)
    known = np.full((len(classes), lay.n_cards), -1, dtype=np.int8)
    for i, c in enumerate(classes):
        known[i, lay.hole[0, : len(c.cards)]] = c.cards
    sums: dict[str, np.ndarray] = {}
    squares: dict[str, np.ndarray] = {}
    for rows, settled in settle_situations(game, players, known, options, samples=per_class, seed=seed):
        for name, values in settled.items():
            hero, where = values[:, :, 0], slice(rows.start, rows.stop)
            sums.setdefault(name, np.zeros(len(classes)))[where] = hero.sum(axis=1)
            squares.setdefault(name, np.zeros(len(classes)))[where] = (hero * hero).sum(axis=1)
        if progress is not None:
            progress(rows.stop * per_class, len(classes) * per_class)
    total = comb(game.deck.size, len(classes[0].cards))
    out = []
    for i, c in enumerate(classes):
        figures = {}
        for name in sums:
            mean, mean_sq = float(sums[name][i]) / per_class, float(squares[name][i]) / per_class
            low, high = wilson(mean, per_class) if name in RATES else mean_interval(mean, mean_sq, per_class)
            figures[name] = (mean, low, high)
        out.append(HandRow("class", c.name, None, c.combos, c.combos / total, per_class, figures))
    method = (f"each class's hand against {players - 1} random hand{'s' * (players > 2)}, "
              f"{per_class:,} sampled runouts a class, seed {seed}")  # fmt: skip
    return HandTable(game.name, dict(options), players, method, per_class, seed, _ranked(out))


def _ranked(rows: list[HandRow]) -> list[HandRow]:
    """Rows by kind, each kind by equity (best first), with their ranks."""
    rows = sorted(rows, key=lambda r: (r.kind != "class", r.kind, -r.figures["equity"][0]))
    for _kind, group in itertools.groupby(rows, key=lambda r: r.kind):
        for place, row in enumerate(group, start=1):
            row.rank = place
    return rows


class _Groups:
    """Sums over deals, per value of one feature: counts C and sums S of every figure (S², S·C)."""

    def __init__(self) -> None:
        self.sums: dict[str, np.ndarray] = {}

    def add(self, values: np.ndarray, settled: dict[str, np.ndarray]) -> None:
        n, width = values.shape[0], int(values.max()) + 1
        key = (np.arange(n)[:, None] * width + values).ravel()
        count = np.bincount(key, minlength=n * width).reshape(n, width).astype(np.float64)
        self._add("count", count.sum(axis=0))
        self._add("count_sq", (count * count).sum(axis=0))
        for name, figure in settled.items():
            total = np.bincount(key, weights=figure.ravel(), minlength=n * width).reshape(n, width)
            self._add(f"{name}", total.sum(axis=0))
            self._add(f"{name}_sq", (total * total).sum(axis=0))
            self._add(f"{name}_cross", (total * count).sum(axis=0))

    def _add(self, name: str, values: np.ndarray) -> None:
        held = self.sums.get(name, np.zeros(0))
        if len(held) < len(values):
            held = np.concatenate([held, np.zeros(len(values) - len(held))])
        held[: len(values)] += values
        self.sums[name] = held


def _feature_table(game, players, options, deals, seed, progress) -> HandTable:
    lay, held = layout(game, players, options), first_hole_cards(game, options)
    known = np.full(lay.n_cards, -1, dtype=np.int8)
    free = np.arange(game.deck.size, dtype=np.int8)
    rng, groups = np.random.default_rng(seed), {}
    for start in range(0, deals, CHUNK):
        n = min(CHUNK, deals - start)
        cards = np.empty((n, lay.n_cards), dtype=np.int8)
        sample_into(known, free, rng, cards)
        draw_seed = int(rng.integers(2**63)) if game.draws else 0  # (a draw game's reshuffles and choices)
        batch = simulate_chunk(game, players, STAKE, options, None, dealt=cards, draw_seed=draw_seed)
        settled = outcomes(batch, players)
        for name, values in hand_features(game, options, cards[:, lay.hole[:, :held]]).items():
            groups.setdefault(name, _Groups()).add(values, settled)
        if progress is not None:
            progress(start + n, deals)
    rows = []
    for name, group in groups.items():
        sums, names = group.sums, [k for k in group.sums if f"{k}_sq" in group.sums and k != "count"]
        counted = np.flatnonzero(sums["count"])
        estimates = {k: ratio_intervals(sums[k], sums[f"{k}_sq"], sums[f"{k}_cross"], sums["count"],
                                        sums["count_sq"]) for k in names}  # fmt: skip
        for value in counted.tolist():
            figures = {k: tuple(float(part[value]) for part in estimates[k]) for k in names}
            seats = int(sums["count"][value])
            group = draw_top_name(game, value) if name == "draw_top" else str(value)
            rows.append(HandRow(name, group, value, seats, seats / (deals * players), seats, figures))
    rows = _ranked(rows)
    rows.sort(key=lambda r: (list(FEATURES).index(r.kind), r.value))
    method = (f"{deals:,} sampled deals of {players} hands, every seat's hand counted by its features, "
              f"intervals over deals, seed {seed}")  # fmt: skip
    return HandTable(game.name, dict(options), players, method, deals, seed, rows)
