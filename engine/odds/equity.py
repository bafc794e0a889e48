"""Equity of situations of known cards: the runouts of a dealt prefix (every one, or a sample), each
settled by the compiled rules core (``engine.compiled.sim_kernels``) with every seat all in for
``STAKE``, and what each seat won of it (``outcomes``). Below ``engine.odds.situations`` (which reads
situations from text and reports them) and ``engine.odds.ranged`` (ranges), which both build on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from engine.compiled.runouts import binomials, enumerate_deals, sample_deals
from engine.compiled.simulate import simulate_chunk
from engine.rules.games.base import GameSpec
from engine.rules.sim_layout import Layout, layout

STAKE = 30240  # every seat all in for this: 2^5 3^3 5 7, so halves, boards and ties divide evenly
EXACT_LIMIT = 2_000_000  # runouts enumerated unless asked otherwise
SAMPLES = 200_000  # runouts sampled when there are more
CHUNK = 100_000


Outcomes = dict[str, np.ndarray]  # per runout and seat, by name (``outcomes``)


class OddsError(ValueError):
    """A situation that cannot be dealt: one line that says why."""


@dataclass(frozen=True)
class Situation:
    """Known cards: per seat (``None`` for a card not known), per board in deal order, dead ones."""

    hands: tuple[tuple[int | None, ...], ...]
    boards: tuple[tuple[int, ...], ...]
    dead: tuple[int, ...] = ()
    texts: tuple[str, ...] = ()  # each hand as it was given
    ranges: tuple[np.ndarray | None, ...] = ()  # per seat: (combinations, 2) of a range, or None


def known_prefix(game: GameSpec, spot: Situation, options: Mapping[str, Any]) -> tuple[np.ndarray, Layout]:
    """The dealt prefix with -1 where a card is not known, and the layout it follows."""
    lay = layout(game, len(spot.hands), options)
    known = np.full(lay.n_cards, -1, dtype=np.int8)
    for seat, hand in enumerate(spot.hands):
        for j, card in enumerate(hand):
            if card is not None:
                known[lay.hole[seat, j]] = card
    for b, cards in enumerate(spot.boards):
        known[lay.board[b, : len(cards)]] = cards
    return known, lay


def free_cards(game: GameSpec, known: np.ndarray, dead: Sequence[int]) -> np.ndarray:
    """The cards a runout may deal: the deck less known and dead cards."""
    used = set(known[known >= 0].tolist()) | set(dead)
    return np.array([c for c in range(game.deck.size) if c not in used], dtype=np.int8)


def exact_groups(game: GameSpec, lay: Layout, known: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unknown positions in groups whose order inside does not change the outcome, and burns.

    A seat's hole cards are one group. A board is one group, but with a discard-trigger board
    each street of each board is its own (the street a card turns up on decides what it forces
    out), and with a kill rule each board's last card is its own (it decides the kill).
    """
    groups: list[list[int]] = [[int(p) for p in row if known[p] < 0] for row in lay.hole]
    for b in range(lay.board.shape[0]):
        row = lay.board[b]
        if game.discard_board is not None:
            parts = [row[lay.board_street == street] for street in np.unique(lay.board_street)]
        elif game.kill is not None:
            parts = [row[:-1], row[-1:]]
        else:
            parts = [row]
        groups += [[int(p) for p in part if known[p] < 0] for part in parts]
    groups = [g for g in groups if g]
    dealt = set(lay.hole.ravel().tolist()) | set(lay.board.ravel().tolist())
    burns = np.array([p for p in range(lay.n_cards) if p not in dealt], dtype=np.int64)
    width = max((len(g) for g in groups), default=1)
    table = np.full((len(groups), width), -1, dtype=np.int64)
    for g, positions in enumerate(groups):
        table[g, : len(positions)] = positions
    return table, np.array([len(g) for g in groups], dtype=np.int64), burns


def runout_count(sizes: np.ndarray, n_free: int) -> int:
    """How many runouts the enumeration lists: each group a combination of the cards left."""
    total, left = 1, n_free
    for size in sizes.tolist():
        total *= comb(left, size)
        left -= size
    return total


def outcomes(batch, players: int) -> dict[str, np.ndarray]:
    """(runouts, players) per runout: the fraction of the pot won (``equity``), ``win`` (some part
    alone), ``tie`` (chips, no part alone), ``scoop`` (the whole pot alone), ``dead`` (a discard
    board) and, in a pot of several parts, ``share.<part>`` (each part's chips as a fraction of the pot)."""
    pot = players * STAKE
    out = {"equity": batch.won / pot, "scoop": (batch.won == pot).astype(np.float64)}
    alone = np.zeros(batch.won.shape, dtype=np.bool_)
    names = part_names(batch.game)
    for name, chips in zip(names, part_chips(batch), strict=True):
        alone |= (chips == chips.sum(axis=1, keepdims=True)) & (chips > 0)
        if len(names) > 1:
            out[f"share.{name}"] = chips / pot
    out["win"] = alone.astype(np.float64)
    out["tie"] = ((batch.won > 0) & ~alone).astype(np.float64)
    if batch.game.discard_board is not None:
        out["dead"] = batch.extra["dead"].astype(np.float64)
    return out


def part_names(game: GameSpec) -> list[str]:
    """The parts of a pot; a game whose hands can end before the showdown (everyone but one
    dead, or everyone dead at once) beside parts of a showdown has a part for those pots."""
    early = ["no_showdown"] if game.discard_board is not None else []
    if game.low_half:
        return ["high", "low", *early]
    if game.board_shares:
        return [*(game.board_names[b] for b in game.community_boards), *early]
    return ["high"]


def part_chips(batch) -> list[np.ndarray]:
    game = batch.game
    if game.low_half:
        parts = [batch.extra["won_high"], batch.extra["won_low"]]
    elif game.board_shares:
        parts = [batch.extra["board_won"][:, :, b] for b in game.community_boards]
    else:
        return [batch.won]
    if game.discard_board is not None:  # pots that ended early are in none of the showdown's parts
        parts.append(batch.won - sum(parts))
    return parts


def sample_into(known: np.ndarray, free: np.ndarray, rng: np.random.Generator, out: np.ndarray) -> None:
    """Fill every row of ``out`` with ``known`` and a uniform draw from ``free`` at the unknown positions."""
    unknown = int((known < 0).sum())
    bits = rng.bit_generator.random_raw(len(out) * unknown) >> np.uint64(32)  # 32 bits a draw
    sample_deals(known, free, bits.reshape(len(out), unknown), out)


class CardDeals:
    """The runouts of a situation of known cards: every one (``exact``) or a sample."""

    def __init__(self, game: GameSpec, lay: Layout, known: np.ndarray, free: np.ndarray,
                 exact: bool | None, samples: int | None, seed: int):  # fmt: skip
        self.lay, self.known, self.free = lay, known, free
        self.groups, self.sizes, self.burns = exact_groups(game, lay, known)
        count = runout_count(self.sizes, len(free))
        if game.draws and exact:
            raise OddsError(f"{game.title}'s runouts hold the stub's order and the draws: they are sampled, "
                            "never enumerated")  # fmt: skip
        few = samples is None and count <= EXACT_LIMIT and not game.draws
        self.exact = exact if exact is not None else few
        self.total = count if self.exact else (samples or SAMPLES)
        self.rng, self.table = np.random.default_rng(seed), binomials(game.deck.size)

    def chunk(self, start: int, n: int) -> np.ndarray:
        """Deals ``start`` .. ``start + n`` (sampled: the next ``n``)."""
        deals = np.empty((n, self.lay.n_cards), dtype=np.int8)
        if self.exact:
            shape = (self.groups, self.sizes, self.burns)
            enumerate_deals(self.known, self.free, *shape, self.table, start, deals)
        else:
            sample_into(self.known, self.free, self.rng, deals)
        return deals


def equities(game: GameSpec, n_players: int, known: np.ndarray, options: Mapping[str, Any] | None = None, *,
             samples: int = 10_000, seed: int = 0, dead: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """(S, n_players) each seat's equity in each of S situations, ``samples`` sampled runouts each.

    ``known`` (S, cards dealt) holds the dealt prefix of each situation in the order of
    ``engine.rules.sim_layout.layout`` with -1 where a card is not known; ``dead`` (S, D) cards that
    cannot come, -1 for none. One compiled pass per chunk of runouts, whatever S is.
    """
    won = np.zeros((len(known), n_players), dtype=np.float64)
    settling = settle_situations(game, n_players, known, options, samples=samples, seed=seed, dead=dead)
    for rows, settled in settling:
        won[rows.start : rows.stop] = settled["equity"].mean(axis=1)
    return won


def settle_situations(game: GameSpec, n_players: int, known: np.ndarray,
                      options: Mapping[str, Any] | None = None, *, samples: int, seed: int = 0,
                      dead: np.ndarray | None = None) -> Iterator[tuple[range, Outcomes]]:  # fmt: skip
    """For chunks of the S situations of ``known`` (as in ``equities``): the situations' rows and
    ``outcomes`` of ``samples`` sampled runouts of each, shaped (len(rows), samples, n_players)."""
    options = game.resolve_options(options)
    lay = layout(game, n_players, options)
    known = np.asarray(known, dtype=np.int8)
    if known.ndim != 2 or known.shape[1] != lay.n_cards:
        raise OddsError(f"known cards must be (situations, {lay.n_cards}), not {known.shape}")
    dead = np.full((len(known), 0), -1, np.int8) if dead is None else np.asarray(dead, dtype=np.int8)
    rng = np.random.default_rng(seed)
    per_chunk = max(1, CHUNK // samples)
    for first in range(0, len(known), per_chunk):
        rows = range(first, min(first + per_chunk, len(known)))
        deals = np.empty((len(rows) * samples, lay.n_cards), dtype=np.int8)
        for i, s in enumerate(rows):
            free = free_cards(game, known[s], dead[s][dead[s] >= 0].tolist())
            unknown, given = int((known[s] < 0).sum()), known[s][known[s] >= 0]
            if len(np.unique(given)) < len(given) or given.max(initial=0) >= game.deck.size:
                raise OddsError(
                    f"situation {s}: a card is given twice or is not of the {game.deck.name} deck"
                )
            if unknown > len(free):
                raise OddsError(f"situation {s} needs {unknown} more cards; {len(free)} are left")
            sample_into(known[s], free, rng, deals[i * samples : (i + 1) * samples])
        draw_seed = int(rng.integers(2**63)) if game.draws else 0  # (a draw game's reshuffles and choices)
        batch = simulate_chunk(game, n_players, STAKE, options, None, dealt=deals, draw_seed=draw_seed)
        settled = outcomes(batch, n_players)
        yield rows, {name: values.reshape(len(rows), samples, n_players) for name, values in settled.items()}
