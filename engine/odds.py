"""Odds for any situation of any game: each player's share of the pot, of each part of it, and
how often they win, tie, scoop or die, every runout enumerated or a sample of them.

A situation is what is known: some hole cards of each seat, the first cards of each board,
dead cards. Every seat is all in for the same stake, so a runout's outcome is the showdown the
compiled rules core (``engine.sim_kernels``) settles as dealt; the runouts come from ``engine.runouts``.

>>> from engine.games import get_game
>>> holdem = get_game("holdem")
>>> spot = situation(holdem, ["AhAs", "KdKc"], {"board": "2c7dTh8s"})
>>> result = odds(holdem, spot)
>>> result.exact, result.runouts, [round(p.equity, 4) for p in result.players]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from engine.cards import UNKNOWN_CARD, CardError, parse_cards
from engine.games.base import GameSpec
from engine.intervals import mean_interval, wilson
from engine.runouts import binomials, enumerate_deals, sample_deals, sum_outcomes
from engine.sim_layout import Layout, layout
from engine.simulate import simulate_chunk

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


def situation(game: GameSpec, hands: Sequence[str], boards: Mapping[str, str] | None = None,
              dead: str = "", options: Mapping[str, Any] | None = None) -> Situation:  # fmt: skip
    """Parse hands (``AhKh``, ``Ah??``, ``random``, a range such as ``TT+,AKs`` in a two-card
    game), known board cards by board name, dead cards."""
    deck, options = game.deck, game.resolve_options(options)
    hole = sum(s.hole_cards for s in game.streets_under(options))
    if not game.min_players <= len(hands) <= game.max_players:
        seated = f"{game.min_players} to {game.max_players}"
        raise OddsError(f"{game.title} seats {seated} players, not {len(hands)}")
    seats, ranges = [], []
    for text in hands:
        cards, combos = _hand(game, text, hole, options)
        if len(cards) > hole:
            raise OddsError(f"hand {text!r} has {len(cards)} cards: {game.title} deals {hole} hole cards")
        seats.append(tuple(None if c == UNKNOWN_CARD else c for c in cards) + (None,) * (hole - len(cards)))
        ranges.append(combos)
    per_board = sum(s.board_cards for s in game.streets_under(options))
    known_boards = [()] * len(game.boards)
    for name, text in (boards or {}).items():
        if name not in game.board_names:
            raise OddsError(f"{game.title} has no board {name!r} (its boards: {', '.join(game.board_names)})")
        cards = tuple(_cards(text, deck))
        if UNKNOWN_CARD in cards or len(cards) > per_board:
            raise OddsError(f"board {name} {text!r}: give at most {per_board} known cards, no ??")
        known_boards[game.board_names.index(name)] = cards
    dead_cards = tuple(_cards(dead, deck))
    if UNKNOWN_CARD in dead_cards:
        raise OddsError(f"dead cards {dead!r}: give known cards, no ??")
    situation = Situation(tuple(seats), tuple(known_boards), dead_cards, tuple(hands),
                          tuple(ranges))  # fmt: skip
    _check_once(situation, game)
    return situation


def _hand(game: GameSpec, text: str, hole: int, options: Mapping[str, Any]) -> tuple[list[int], Any]:
    """A hand's known cards, or (in a two-card game) a range's combinations."""
    if text.strip().lower() == "random":
        return [], None
    try:
        return parse_cards(text, game.deck, allow_duplicates=True).tolist(), None
    except CardError as error:
        if hole != 2:
            raise OddsError(f"hand {text!r}: {error} (ranges are for two-card games)") from None
    from engine.range_odds import class_ranking
    from engine.ranges import RangeError, parse_range

    try:
        return [], parse_range(text, game.deck, lambda: class_ranking(game, options))
    except RangeError as error:
        raise OddsError(str(error)) from None


def _cards(text: str, deck) -> list[int]:
    try:
        return parse_cards(text, deck, allow_duplicates=True).tolist()
    except CardError as error:
        raise OddsError(str(error)) from None


def _check_once(spot: Situation, game: GameSpec) -> None:
    seen: set[int] = set()
    for card in [c for hand in spot.hands for c in hand if c is not None] + [
        c for board in spot.boards for c in board
    ] + list(spot.dead):  # fmt: skip
        if card in seen:
            raise OddsError(f"{game.deck.card_text(card)} is given twice")
        seen.add(card)


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


@dataclass
class PlayerOdds:
    """One seat's figures, fractions of the pot or of runouts; ``ci95`` is None when exact."""

    hand: str
    equity: float
    win: float  # took some part of the pot alone (in a one-share game: the best hand alone)
    tie: float  # took chips, but no part alone
    scoop: float  # took the whole pot alone
    shares: dict[str, float]  # the pot's parts: high and low halves, or each board
    dead: float | None = None  # a discard-trigger board: lost every hole card
    ci95: dict[str, tuple[float, float]] | None = None


@dataclass
class Odds:
    """The odds of one situation: every player's, and each board's chance to survive a kill."""

    variant: str
    exact: bool
    runouts: int
    players: list[PlayerOdds]
    survives: dict[str, float] | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The documented JSON (docs/odds.md)."""
        out: dict[str, Any] = {"variant": self.variant, "options": self.options, "exact": self.exact,
                               "runouts": self.runouts, "players": []}  # fmt: skip
        for p in self.players:
            row = {"hand": p.hand, "equity": p.equity, "win": p.win, "tie": p.tie, "scoop": p.scoop,
                   "shares": p.shares}  # fmt: skip
            if p.dead is not None:
                row["dead"] = p.dead
            row["ci95"] = None if p.ci95 is None else {k: list(v) for k, v in p.ci95.items()}
            out["players"].append(row)
        if self.survives is not None:
            out["boards_survive"] = self.survives
        return out


def outcomes(batch, players: int) -> dict[str, np.ndarray]:
    """(runouts, players) per runout: the fraction of the pot won (``equity``), ``win`` (some part
    alone), ``tie`` (chips, no part alone), ``scoop`` (the whole pot alone), ``dead`` (a discard
    board) and, in a pot of several parts, ``share.<part>`` (each part's chips as a fraction of the pot)."""
    pot = players * STAKE
    out = {"equity": batch.won / pot, "scoop": (batch.won == pot).astype(np.float64)}
    alone = np.zeros(batch.won.shape, dtype=np.bool_)
    names = _part_names(batch.game)
    for name, chips in zip(names, _part_chips(batch), strict=True):
        alone |= (chips == chips.sum(axis=1, keepdims=True)) & (chips > 0)
        if len(names) > 1:
            out[f"share.{name}"] = chips / pot
    out["win"] = alone.astype(np.float64)
    out["tie"] = ((batch.won > 0) & ~alone).astype(np.float64)
    if batch.game.discard_board is not None:
        out["dead"] = batch.extra["dead"].astype(np.float64)
    return out


class _Tally:
    """Sums over runouts, chunk by chunk."""

    def __init__(self, game: GameSpec, players: int, squares: bool):
        self.game, self.players, self.n = game, players, 0
        self.sums: dict[str, np.ndarray] = {}
        self.squares: dict[str, np.ndarray] | None = {} if squares else None  # for intervals of means
        self.survives = np.zeros(len(game.boards), dtype=np.float64)

    def add(self, batch) -> None:
        """Add a settled chunk, in one compiled pass (the figures of ``outcomes``, summed)."""
        self.n += len(batch)
        names, pot = _part_names(batch.game), self.players * STAKE
        parts = np.stack(_part_chips(batch))
        dead = batch.extra["dead"] if batch.game.discard_board is not None else np.zeros((1, 1), np.bool_)
        sums = np.zeros((5 + len(parts), self.players))
        squares = np.zeros((1 + len(parts), self.players))
        sum_outcomes(batch.won, parts, pot, batch.game.discard_board is not None, dead, sums, squares)
        figures = {"equity": (sums[0] / pot, squares[0] / pot**2), "win": (sums[1], None),
                   "tie": (sums[2], None), "scoop": (sums[3], None)}  # fmt: skip
        if batch.game.discard_board is not None:
            figures["dead"] = (sums[4], None)
        if len(names) > 1:
            figures |= {
                f"share.{name}": (sums[5 + p] / pot, squares[1 + p] / pot**2) for p, name in enumerate(names)
            }
        for name, (total, square) in figures.items():
            self.sums[name] = self.sums.get(name, 0) + total
            if self.squares is not None and square is not None:
                self.squares[name] = self.squares.get(name, 0) + square
        self.survives += batch.extra["survivors"].sum(axis=0)


def _part_names(game: GameSpec) -> list[str]:
    """The parts of a pot; a game whose hands can end before the showdown (everyone but one
    dead, or everyone dead at once) beside parts of a showdown has a part for those pots."""
    early = ["no_showdown"] if game.discard_board is not None else []
    if game.low_half:
        return ["high", "low", *early]
    if game.board_shares:
        return [*(game.board_names[b] for b in game.community_boards), *early]
    return ["high"]


def _part_chips(batch) -> list[np.ndarray]:
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


def odds(game: GameSpec, spot: Situation, options: Mapping[str, Any] | None = None, *,
         exact: bool | None = None, samples: int | None = None, seed: int = 0,
         progress: Callable[[int, int], None] | None = None) -> Odds:  # fmt: skip
    """Every runout enumerated (``exact``; by default when there are at most ``EXACT_LIMIT``), or
    ``samples`` of them drawn with ``seed``. ``progress(done, total)`` is called after each chunk."""
    options = game.resolve_options(options)
    played = game.under(options)
    if exact and samples is not None:
        raise OddsError("exact odds and a number of samples exclude each other")
    try:
        known, lay = known_prefix(game, spot, options)
    except (ValueError, IndexError) as error:  # a table the deck cannot deal under these options
        raise OddsError(str(error)) from None
    free = free_cards(game, known, spot.dead)
    if int((known < 0).sum()) > len(free):
        raise OddsError(f"the situation needs {int((known < 0).sum())} more cards; {len(free)} are left")
    if any(combos is not None for combos in spot.ranges):
        from engine.range_odds import RangeDeals

        deals = RangeDeals(played, lay, known, free, spot.ranges, exact, samples, seed)
    else:
        deals = CardDeals(played, lay, known, free, exact, samples, seed)
    tally = _Tally(played, len(spot.hands), squares=not deals.exact)
    for start in range(0, deals.total, CHUNK):
        n = min(CHUNK, deals.total - start)
        tally.add(simulate_chunk(game, len(spot.hands), STAKE, options, None, dealt=deals.chunk(start, n)))
        if progress is not None:
            progress(start + n, deals.total)
    return _result(played, spot, tally, deals.exact, options)


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
        self.exact = exact if exact is not None else (samples is None and count <= EXACT_LIMIT)
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


def _result(game: GameSpec, spot: Situation, tally: _Tally, exact: bool, options: dict[str, Any]) -> Odds:
    n, sums, squares = tally.n, tally.sums, tally.squares
    parts = _part_names(game)
    players = []
    for seat in range(tally.players):
        rates = {k: float(sums[k][seat]) / n for k in ("win", "tie", "scoop", "dead") if k in sums}
        equity = float(sums["equity"][seat]) / n
        keys = {name: f"share.{name}" if len(parts) > 1 else "equity" for name in parts}
        shares = {name: float(sums[key][seat]) / n for name, key in keys.items()}
        ci95 = None
        if not exact:
            ci95 = {"equity": mean_interval(equity, float(squares["equity"][seat]) / n, n)}
            ci95 |= {k: wilson(v, n) for k, v in rates.items()}
            ci95 |= {f"shares.{name}": mean_interval(shares[name], float(squares[key][seat]) / n, n)
                     for name, key in keys.items()}  # fmt: skip
        hand = spot.texts[seat] if seat < len(spot.texts) else ""
        players.append(PlayerOdds(hand, equity, rates["win"], rates["tie"], rates["scoop"], shares,
                                  rates.get("dead"), ci95))  # fmt: skip
    survives = None
    if game.kill is not None:
        survives = {game.board_names[b]: float(tally.survives[b]) / n for b in game.community_boards}
    return Odds(game.name, exact, n, players, survives, dict(options))


def equities(game: GameSpec, n_players: int, known: np.ndarray, options: Mapping[str, Any] | None = None, *,
             samples: int = 10_000, seed: int = 0, dead: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """(S, n_players) each seat's equity in each of S situations, ``samples`` sampled runouts each.

    ``known`` (S, cards dealt) holds the dealt prefix of each situation in the order of
    ``engine.sim_layout.layout`` with -1 where a card is not known; ``dead`` (S, D) cards that
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
        batch = simulate_chunk(game, n_players, STAKE, options, None, dealt=deals)
        settled = outcomes(batch, n_players)
        yield rows, {name: values.reshape(len(rows), samples, n_players) for name, values in settled.items()}
