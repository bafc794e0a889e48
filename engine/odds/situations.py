"""Odds for any situation of any game: each player's share of the pot, of each part of it, and
how often they win, tie, scoop or die, every runout enumerated or a sample of them.

A situation is what is known: some hole cards of each seat, the first cards of each board,
dead cards. Every seat is all in for the same stake, so a runout's outcome is the showdown the
compiled rules core (``engine.compiled.sim_kernels``) settles as dealt; the runouts come from
``engine.compiled.runouts``.

>>> from engine.rules.games import get_game
>>> holdem = get_game("holdem")
>>> spot = situation(holdem, ["AhAs", "KdKc"], {"board": "2c7dTh8s"})
>>> result = odds(holdem, spot)
>>> result.exact, result.runouts, [round(p.equity, 4) for p in result.players]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.compiled.runouts import sum_outcomes
from engine.compiled.simulate import SEED_STEP, simulate_chunk
from engine.hands.cards import UNKNOWN_CARD, CardError, parse_cards
from engine.odds.equity import (  # noqa: F401 - the lower names are read from here too
    CHUNK,
    EXACT_LIMIT,
    SAMPLES,
    STAKE,
    CardDeals,
    OddsError,
    Outcomes,
    Situation,
    equities,
    exact_groups,
    free_cards,
    known_prefix,
    outcomes,
    part_chips,
    part_names,
    runout_count,
    sample_into,
    settle_situations,
)
from engine.odds.intervals import mean_interval, wilson
from engine.odds.pacing import Estimate, OverBudget, paced  # noqa: F401 - OverBudget is read from here too
from engine.odds.ranged import RangeDeals, class_ranking
from engine.odds.ranges import RangeError, parse_range
from engine.rules.games.base import GameSpec
from engine.rules.showing import split_up_and_down, up_pattern
from engine.rules.sim_layout import layout


def situation(game: GameSpec, hands: Sequence[str], boards: Mapping[str, str] | None = None,
              dead: str = "", options: Mapping[str, Any] | None = None) -> Situation:  # fmt: skip
    """Parse hands (``AhKh``, ``Ah??``, ``random``, a range such as ``TT+,AKs`` in a two-card
    game, down and up cards such as ``(Ah2c)3d`` in stud), known board cards by board name, dead
    cards."""
    deck, options = game.deck, game.resolve_options(options)
    if not game.min_players <= len(hands) <= game.max_players:
        seated = f"{game.min_players} to {game.max_players}"
        raise OddsError(f"{game.title} seats {seated} players, not {len(hands)}")
    try:  # the cards this table deals (a deck that runs short deals a community card instead)
        dealt = layout(game, len(hands), options)
    except ValueError as error:
        raise OddsError(str(error)) from None
    hole, per_board = dealt.hole.shape[1], dealt.board.shape[1]
    seats, ranges = [], []
    for text in hands:
        cards, combos = _hand(game, text, hole, options)
        if len(cards) > hole:
            short = len(dealt.board_street) > sum(s.board_cards for s in game.streets_under(options))
            why = f" to {len(hands)} players (the last card is one community card: a board)" if short else ""
            dealing = f"{game.title} deals {hole} hole cards{why}"
            raise OddsError(f"hand {text!r} has {len(cards)} cards: {dealing}")
        seats.append(tuple(None if c == UNKNOWN_CARD else c for c in cards) + (None,) * (hole - len(cards)))
        ranges.append(combos)
    known_boards = [()] * len(game.boards)
    for name, text in (boards or {}).items():
        if name not in game.board_names:
            raise OddsError(f"{game.title} has no board {name!r} (its boards: {', '.join(game.board_names)})")
        cards = tuple(_cards(text, deck))
        if UNKNOWN_CARD in cards or len(cards) > per_board:
            if not per_board:  # (a board that only a deck running short deals)
                dealing = f"{game.title} deals it no card to {len(hands)} players"
                raise OddsError(f"board {name} {text!r}: {dealing}")
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
    if "(" in text or ")" in text:  # down cards in parentheses: (Ah2c)3d
        try:
            text = split_up_and_down(text, up_pattern(game.streets_under(options)))
        except ValueError as error:
            raise OddsError(f"hand {text!r}: {error}") from None
    try:
        return parse_cards(text, game.deck, allow_duplicates=True).tolist(), None
    except CardError as error:
        if hole != 2:
            raise OddsError(f"hand {text!r}: {error} (ranges are for two-card games)") from None
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
        names, pot = part_names(batch.game), self.players * STAKE
        parts = np.stack(part_chips(batch))
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


def odds(game: GameSpec, spot: Situation, options: Mapping[str, Any] | None = None, *,
         exact: bool | None = None, samples: int | None = None, seed: int = 0,
         progress: Callable[[int, int], None] | None = None, max_seconds: float | None = None,
         on_estimate: Callable[[Estimate], None] | None = None) -> Odds:  # fmt: skip
    """Every runout enumerated (``exact``; by default when there are at most ``EXACT_LIMIT``), or
    ``samples`` of them drawn with ``seed``. ``progress(done, total)`` is called after each batch.

    ``max_seconds``: the work is timed on its first batches, and past this limit a sample of what
    fits is settled instead, or with ``exact`` or ``samples`` given ``OverBudget`` is raised
    (``engine.odds.pacing``); ``on_estimate(Estimate)`` hears the work before it starts and once
    timed.
    """
    work = OddsWork(game, spot, options, exact=exact, samples=samples, seed=seed)

    def resample(k: int) -> OddsWork:
        return OddsWork(game, spot, options, exact=False, samples=k, seed=seed)

    forced = bool(exact) or samples is not None
    done = paced(work, max_seconds, resample, forced=forced, on_estimate=on_estimate, progress=progress)
    return done.result()


class OddsWork:
    """The odds of one situation settled batch by batch, for a caller that times them, shows their
    progress or cuts a sample short: ``exact`` and ``total`` say the work before any runout is
    settled, ``settle(n)`` settles the next ``n``, ``result()`` gives the odds of those settled.

    No figure depends on the batches: the runouts and a draw game's draws are the same however
    they are settled, and a sample cut to ``k`` runouts is the sample ``samples=k`` draws.
    """

    def __init__(self, game: GameSpec, spot: Situation, options: Mapping[str, Any] | None = None, *,
                 exact: bool | None = None, samples: int | None = None, seed: int = 0):  # fmt: skip
        self.game, self.players, self.seed = game, len(spot.hands), seed
        self.options = game.resolve_options(options)
        self.played, self.spot = game.under(self.options), spot
        if exact and samples is not None:
            raise OddsError("exact odds and a number of samples exclude each other")
        self.deals = _deals(game, self.played, spot, self.options, (exact, samples, seed))
        self.exact, self.total, self.done = self.deals.exact, self.deals.total, 0
        self.tally = _Tally(self.played, self.players, squares=not self.exact)

    def settle(self, n: int) -> int:
        """Settle the next ``n`` runouts (fewer at the end); how many were."""
        n = max(0, min(n, self.total - self.done))
        start, stop = self.done, self.done + n
        while start < stop:  # a call never crosses a chunk: a chunk's draws follow from its seed
            end = min(stop, (start // CHUNK + 1) * CHUNK)
            dealt = self.deals.chunk(start, end - start)
            self.tally.add(simulate_chunk(self.game, self.players, STAKE, self.options, None, dealt=dealt,
                                          draw_seed=self._draw_seed(start)))  # fmt: skip
            start = end
        self.done = stop
        return n

    def _draw_seed(self, start: int) -> int:
        """A draw game's draws from runout ``start`` on: its chunk's seed, stepped as the kernel steps
        it for each runout of a chunk (``engine.compiled.simulate.given_draw_seeds``)."""
        if not self.played.draws:
            return 0
        first = start - start % CHUNK
        chunk_seed = int(np.random.default_rng([self.seed, first]).integers(2**63))
        return (chunk_seed + (start - first) * SEED_STEP) % 2**64

    def cut(self, total: int) -> None:
        """End a sample at ``total`` runouts (never fewer than those settled)."""
        if self.exact:
            raise OddsError("every runout is settled: only a sample can be cut short")
        self.total = self.deals.total = max(self.done, min(total, self.total))

    def result(self) -> Odds:
        """The odds of the runouts settled."""
        if not self.done:
            raise OddsError("no runout is settled yet")
        return _result(self.played, self.spot, self.tally, self.exact, self.options)


def _deals(game: GameSpec, played: GameSpec, spot: Situation, options: dict[str, Any],
           asked: tuple[bool | None, int | None, int]) -> CardDeals | RangeDeals:  # fmt: skip
    """The runouts of a situation (``played``: the game under its options), of known cards or of
    ranges; ``asked``: exact, samples and seed."""
    try:
        known, lay = known_prefix(game, spot, options)
    except (ValueError, IndexError) as error:  # a table the deck cannot deal under these options
        raise OddsError(str(error)) from None
    if game.draws and spot.dead:
        raise OddsError(f"{game.title}: dead cards are not taken in a draw game yet (every card is in the "
                        "stub or a hand, and discards come back)")  # fmt: skip
    free = free_cards(game, known, spot.dead)
    if int((known < 0).sum()) > len(free):
        raise OddsError(f"the situation needs {int((known < 0).sum())} more cards; {len(free)} are left")
    if any(combos is not None for combos in spot.ranges):
        return RangeDeals(played, lay, known, free, spot.ranges, *asked)
    return CardDeals(played, lay, known, free, *asked)


def _result(game: GameSpec, spot: Situation, tally: _Tally, exact: bool, options: dict[str, Any]) -> Odds:
    n, sums, squares = tally.n, tally.sums, tally.squares
    parts = part_names(game)
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
