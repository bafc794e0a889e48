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

from engine import sim_kernels as k
from engine.simulate import SimBatch

Counts = Counter  # (query, key, column) -> count
RANKS = "23456789TJQKA"


def _add(counts: Counts, query: str, key: str, column: str, value: int) -> None:
    if value:
        counts[(query, key, column)] += int(value)


def _histogram(counts: Counts, query: str, column: str, keys: np.ndarray, labels: str | None = None) -> None:
    """Count small non-negative integer keys; ``labels[i]`` names key ``i`` (else the number)."""
    tally = np.bincount(np.asarray(keys, dtype=np.int64).ravel())
    for value in np.flatnonzero(tally).tolist():
        _add(counts, query, labels[value] if labels else str(value), column, tally[value])


def summarize(batch: SimBatch) -> Counts:
    """The statistic counts of a batch of showdown-mode hands."""
    counts: Counts = Counter()
    game, n, p = batch.game.name, len(batch), batch.n_players
    ending, mask = batch.ending, batch.extra["winners_mask"].astype(np.int64)
    showdown = ending == 0
    seats = np.arange(p)
    pot = p * batch.stake
    _add(counts, "pots", str(pot), "hands", n)  # every showdown-mode hand's pot is the stakes
    top = batch.strength.max(axis=1) >> 20
    holders = ((batch.strength >> 20) == top[:, None]) & (batch.strength >= 0)
    _add(counts, "overview", "", "category_ties", (showdown & (holders.sum(axis=1) > 1)).sum())
    if game == "cry-me-a-river":  # counted by the compiled kernel while dealing
        _cry(counts, batch)
        for column, value in (("hands", n), ("uncontested_hands", 0), ("everyone_dead_hands", 0),
                              ("showdown_mode_hands", n)):  # fmt: skip
            _add(counts, "overview", "", column, value)
        return counts
    if game == "scarney":
        high, low = mask & 1023, (mask >> 10) & 1023
        scoop = showdown & (batch.won == pot).any(axis=1)
        split = showdown & ((np.bitwise_count(high) > 1) | (np.bitwise_count(low) > 1))
        _add(counts, "overview", "", "high_low_same", (showdown & ((high & low) != 0)).sum())
        won_seat = ((high[:, None] >> seats) & 1) == 1
    else:
        scoop = showdown & (np.bitwise_count(mask & 1023) == 1)
        split = showdown & (np.bitwise_count(mask & 1023) > 1)
        won_seat = ((mask[:, None] >> seats) & 1) == 1
    for column, value in (
        ("hands", n),
        ("showdown_hands", showdown.sum()),
        ("uncontested_hands", (ending == 1).sum()),
        ("everyone_dead_hands", (ending == 2).sum()),
        ("scoops", scoop.sum()),
        ("splits", split.sum()),
        ("showdown_mode_hands", n),
    ):
        _add(counts, "overview", "", column, value)

    # categories of every seat at a showdown, and of the winners (Scarney: the high half)
    at_showdown = showdown[:, None] & (batch.strength >= 0)
    category = batch.strength >> 20
    _histogram(counts, "categories", "showdown", category[at_showdown])
    _histogram(counts, "categories", "winning", category[at_showdown & won_seat])

    if game == "scarney":
        _scarney(counts, batch)
    elif game == "skoejarth":
        best_fan = (batch.hole >> 2).max(axis=2)  # (N, P)
        seated = showdown[:, None].repeat(p, axis=1)
        _histogram(counts, "skoejarth_fan", "hands", best_fan[seated], "123456K")
        _histogram(counts, "skoejarth_fan", "won", best_fan[seated & won_seat], "123456K")
    return counts


def _scarney(counts: Counts, batch: SimBatch) -> None:
    """Scarney's counts, from the tally the compiled kernel kept while dealing."""
    tally = batch.extra["tally"]
    n_hole = batch.layout.hole.shape[1]
    _add(counts, "scarney_seats", "", "seats", len(batch) * batch.n_players)
    for index, name in enumerate(("flop_discards", "turn_discards", "river_discards")):
        _add(counts, "scarney_seats", "", name, tally[k.T_STREET + index])
    _add(counts, "scarney_seats", "", "dead_on_flop", tally[k.T_DEAD_ON_FLOP])
    _add(counts, "scarney_seats", "", "dead", tally[k.T_DEAD])
    for cards in range(n_hole + 1):
        _add(counts, "scarney_remaining", str(cards), "seats", tally[k.T_REMAINING + cards])
    for points in range(k.T_LOW_POINTS_WON - k.T_LOW_POINTS):
        _add(counts, "low_points", str(points), "showdown", tally[k.T_LOW_POINTS + points])
        _add(counts, "low_points", str(points), "winning", tally[k.T_LOW_POINTS_WON + points])
        _add(counts, "low_points_full_board", str(points), "seats", tally[k.T_FULL_BOARD_POINTS + points])
    for rank, name in enumerate(RANKS):
        _add(counts, "tips_rank", name, "held", tally[k.T_HELD + rank])
        _add(counts, "tips_rank", name, "forced", tally[k.T_FORCED + rank])
    for pairs in range(4):
        _add(counts, "tips_pairs", str(pairs), "n", tally[k.T_PAIRS + pairs])
        _add(counts, "tips_pairs", str(pairs), "won_low", tally[k.T_PAIRS_WON + pairs])
    _add(counts, "tips_ace", "", "low_winners", tally[k.T_LOW_WINNERS])
    _add(counts, "tips_ace", "", "with_ace", tally[k.T_LOW_WINNERS_ACE])


def _cry(counts: Counts, batch: SimBatch) -> None:
    """Cry Me A River's counts, from the tally the compiled kernel kept while dealing."""
    tally = batch.extra["tally"]
    _add(counts, "overview", "", "showdown_hands", tally[k.C_SHOWDOWN])
    _add(counts, "overview", "", "scoops", tally[k.C_SCOOP])
    _add(counts, "overview", "", "splits", tally[k.C_SPLIT])
    _add(counts, "overview", "", "triple_scoops", tally[k.C_TRIPLE])
    _add(counts, "overview", "", "one_board_survives", tally[k.C_SURVIVING + 1])
    _add(counts, "overview", "", "two_boards_survive", tally[k.C_SURVIVING + 2])
    for rank, name in enumerate(RANKS):
        _add(counts, "cry_kills", name, "boards", tally[k.C_BOARDS + rank])
        _add(counts, "cry_kills", name, "killed", tally[k.C_KILLED + rank])
    for category in range(9):
        _add(counts, "categories", str(category), "showdown", tally[k.C_CATEGORY + category])
        _add(counts, "categories", str(category), "winning", tally[k.C_CATEGORY_WON + category])
