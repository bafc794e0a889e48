"""Per-shard statistic counts of showdown-mode hands, computed from the batch arrays.

``scooplab stats`` over millions of simulated hands adds these counts up instead of
scanning every hand: each count is exactly what the statistic's SQL query
(``analytics/queries/<query>.sql``) returns for the same hands, and a test checks
the two against each other. Counts are stored in the ``summaries`` table as
(query, key, column, value) rows and add up across chunks, shards and runs.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from engine.compiled import sim_kernels as k
from engine.compiled.core import compile_rules
from engine.compiled.simulate import SimBatch
from engine.hands.kernels import key_strength_rows
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import category_of

Counts = Counter  # (query, key, column) -> count


def _add(counts: Counts, query: str, key: str, column: str, value: int) -> None:
    if value:
        counts[(query, key, column)] += int(value)


def _histogram(counts: Counts, query: str, column: str, keys: np.ndarray, labels: str | None = None) -> None:
    """Count small non-negative integer keys; ``labels[i]`` names key ``i`` (else the number)."""
    tally = np.bincount(np.asarray(keys, dtype=np.int64).ravel())
    for value in np.flatnonzero(tally).tolist():
        _add(counts, query, labels[value] if labels else str(value), column, tally[value])


def summarize(batch: SimBatch) -> Counts:
    """The statistic counts of a batch of showdown-mode hands, by what the game has."""
    counts: Counts = Counter()
    game, n, p = batch.game, len(batch), batch.n_players
    ending, tally = batch.ending, batch.extra["tally"]
    showdown = ending == 0
    _add(counts, "pots", str(p * batch.stake), "hands", n)  # every showdown-mode hand's pot is the stakes
    top = category_of(batch.strength.max(axis=1))  # the category (any category order)
    holders = (category_of(batch.strength) == top[:, None]) & (batch.strength >= 0)
    _add(counts, "overview", "", "category_ties", (showdown & (holders.sum(axis=1) > 1)).sum())
    for column, value in (
        ("hands", n),
        ("showdown_hands", tally[k.O_SHOWDOWN]),
        ("uncontested_hands", (ending == 1).sum()),
        ("everyone_dead_hands", (ending == 2).sum()),
        ("scoops", tally[k.O_SCOOP]),
        ("splits", tally[k.O_SPLIT]),
        ("showdown_mode_hands", n),
    ):
        _add(counts, "overview", "", column, value)
    if game.board_shares:
        _add(counts, "overview", "", "triple_scoops", tally[k.O_TRIPLE])
    for category in range(len(RANKINGS[game.ranking].categories)):  # every seat at a showdown; the winners
        _add(counts, "categories", str(category), "showdown", tally[k.O_CATEGORY + category])
        _add(counts, "categories", str(category), "winning", tally[k.O_CATEGORY_WON + category])
        _add(counts, "categories", str(category), "showdown_squares", tally[k.C_SQUARES + category])
        _add(counts, "categories", str(category), "showdown_by_seats", tally[k.C_BY_SEATS + category])
    _add(counts, "category_clusters", "", "seats_squared", tally[k.C_SEATS_SQUARED])
    _add(counts, "category_clusters", "", "seats", tally[k.C_SEATS])
    if game.kill is not None:
        _kills(counts, tally, game.deck.ranks)
    if game.low_half:
        both = (batch.extra["won_high"] > 0) & (batch.extra["won_low"] > 0)  # a seat won chips of both
        _add(counts, "overview", "", "high_low_same", (showdown & both.any(axis=1)).sum())
        low_paid = showdown & (batch.extra["won_low"] > 0).any(axis=1)
        _add(counts, "overview", "", "low_paid", low_paid.sum())
        no_high = ~(batch.extra["won_high"] > 0).any(axis=1)  # (a high share nobody qualified for)
        _add(counts, "overview", "", "low_alone", (low_paid & no_high).sum())
    if game.low_share:
        _low(counts, tally)
    if game.discard_board is not None:
        _discards(counts, batch)
    if game.draws:
        _draws(counts, batch)
    if game.ranking == "seven-rank":  # the best hole card, which alone breaks ties under highest_card
        won_seat = batch.won > 0
        best_fan = (batch.hole >> 2).max(axis=2)  # (N, P)
        seated = showdown[:, None].repeat(p, axis=1)
        ranks = game.deck.ranks
        _histogram(counts, "best_hole_card", "hands", best_fan[seated], ranks)
        _histogram(counts, "best_hole_card", "won", best_fan[seated & won_seat], ranks)
    return counts


def _discards(counts: Counts, batch: SimBatch) -> None:
    """Counts of a game with a discard board, from the tally the compiled kernel kept while dealing."""
    tally = batch.extra["tally"]
    n_hole = batch.layout.hole.shape[1]
    _add(counts, "discard_seats", "", "seats", len(batch) * batch.n_players)
    for street in range(1, len(batch.game.streets)):  # by the street's number (the deal is 0)
        _add(counts, "discard_streets", str(street), "discards", tally[k.T_STREET + street - 1])
    _add(counts, "discard_seats", "", "dead_on_first_street", tally[k.T_DEAD_ON_FIRST])
    _add(counts, "discard_seats", "", "dead", tally[k.T_DEAD])
    for cards in range(n_hole + 1):
        _add(counts, "discard_remaining", str(cards), "seats", tally[k.T_REMAINING + cards])
    ranks = batch.game.deck.ranks
    for rank, name in enumerate(ranks):
        _add(counts, "tips_rank", name, "held", tally[k.T_HELD + rank])
        _add(counts, "tips_rank", name, "forced", tally[k.T_FORCED + rank])
    for points in range(k.T_LOW_POINTS_WON - k.T_LOW_POINTS):
        _add(counts, "low_points_full_board", str(points), "seats", tally[k.T_FULL_BOARD_POINTS + points])


def _draws(counts: Counts, batch: SimBatch) -> None:
    """A draw game, each draw street: every seat draws (showdown mode: all are in to the end)."""
    drawn = batch.extra["drawn"].astype(np.int64)
    for street, spec in enumerate(batch.game.streets):
        if spec.draw:
            cards = drawn[:, :, street]
            _add(counts, "draws", spec.name, "draws", cards.size)
            _add(counts, "draws", spec.name, "cards_drawn", cards.sum())
            _add(counts, "draws", spec.name, "cards_drawn_squares", (cards * cards).sum())
            _add(counts, "draws", spec.name, "stood_pat", (cards == 0).sum())
    if batch.game.hole_cards_alone:
        _draw_improvement(counts, batch)


def card_keys(cards: np.ndarray) -> np.ndarray:
    """Each row of card ids (-1: none) as one int64 of card bits (``engine.hands.kernels.card_bit``).

    >>> card_keys(np.array([[0, 5, -1]])).tolist()  # 2c, 3d
    [131073]
    """
    bits = _CARD_BITS[cards]  # (-1 reads the table's last entry: no bit)
    keys = np.zeros(cards.shape[:-1], np.int64)
    for column in range(cards.shape[-1]):  # (a few columns: faster than a reduction along them)
        keys |= bits[..., column]
    return keys


_CARD_BITS = np.array([1 << ((card & 3) * 16 + (card >> 2)) for card in range(56)] + [0], np.int64)


def _draw_improvement(counts: Counts, batch: SimBatch) -> None:
    """Each draw that took cards, by street and cards drawn: whether the hand after it beats the hand
    before (a draw game of hole cards alone, where the hole cards are the hand)."""
    rules = compile_rules(batch.game, batch.options)
    extra = batch.extra

    def strengths(keys: np.ndarray) -> np.ndarray:
        out = np.empty(keys.size, np.int64)
        key_strength_rows(keys.ravel(), out, rules.ranking, rules.kickers, rules.tables)
        return out.reshape(keys.shape)

    keys = card_keys(batch.hole)  # (hands, seats)
    before = strengths(keys)
    for street, spec in enumerate(batch.game.streets):
        if not spec.draw:
            continue
        keys = (keys & ~card_keys(extra["thrown"][:, street])) | card_keys(extra["received"][:, street])
        after = strengths(keys)
        drawn = extra["drawn"][:, :, street]
        for cards in range(1, batch.hole.shape[2] + 1):
            took = drawn == cards
            _add(counts, "draw_improvement", f"{spec.name}|{cards}", "draws", took.sum())
            _add(
                counts,
                "draw_improvement",
                f"{spec.name}|{cards}",
                "improved",
                (took & (after > before)).sum(),
            )
        before = after


def _low(counts: Counts, tally: np.ndarray) -> None:
    """Counts of a game with a low-points share."""
    for points in range(k.T_LOW_POINTS_WON - k.T_LOW_POINTS):
        _add(counts, "low_points", str(points), "showdown", tally[k.T_LOW_POINTS + points])
        _add(counts, "low_points", str(points), "winning", tally[k.T_LOW_POINTS_WON + points])
    for pairs in range(4):
        _add(counts, "tips_pairs", str(pairs), "n", tally[k.T_PAIRS + pairs])
        _add(counts, "tips_pairs", str(pairs), "won_low", tally[k.T_PAIRS_WON + pairs])
    _add(counts, "tips_ace", "", "low_winners", tally[k.T_LOW_WINNERS])
    _add(counts, "tips_ace", "", "with_ace", tally[k.T_LOW_WINNERS_ACE])


def _kills(counts: Counts, tally: np.ndarray, ranks: str) -> None:
    """Counts of a game with a kill rule."""
    _add(counts, "overview", "", "one_board_survives", tally[k.K_SURVIVING + 1])
    _add(counts, "overview", "", "two_boards_survive", tally[k.K_SURVIVING + 2])
    for rank, name in enumerate(ranks):
        _add(counts, "kills", name, "boards", tally[k.K_BOARDS + rank])
        _add(counts, "kills", name, "killed", tally[k.K_KILLED + rank])
