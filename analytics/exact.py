"""Exact values from combinatorics, shown beside the estimates (and used by the tests).

>>> round(kill_survivors(3)[1], 6)
0.087059
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np

from engine.hands.cards import Deck
from engine.odds.intervals import wilson as interval_of_rate


@lru_cache(maxsize=8)
def seven_card_categories(
    ranking: str,
    tiebreak: str = "highest_card",
    deck: str | Deck | None = None,
    places: tuple[int, ...] | None = None,
) -> tuple[float, ...]:
    """Probability of each category (by code) as the best five of a uniform 7-card set of ``deck``
    (default: the ranking's own) under a category order (exhaustive count).

    The 133,784,560 sets of 52 cards take a few seconds to count, so the counts are kept in the
    user's cache folder (``$XDG_CACHE_HOME/scooplab``) once computed.
    """
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "scooplab"
    from engine.hands.cards import DECKS
    from engine.hands.rankings import RANKINGS

    chosen = RANKINGS[ranking]
    cards = deck if isinstance(deck, Deck) else DECKS[deck] if deck else chosen.deck
    name = f"categories-{ranking}-7-{tiebreak}"
    if cards != chosen.deck or places is not None:
        deck_name = cards.name if cards in DECKS.values() else f"{cards.ranks}-{cards.suits}"
        name += f"-{deck_name}-" + ("".join(map(str, places)) if places else "usual")
    path = cache / f"{name}.json"
    counts = None
    with contextlib.suppress(OSError, ValueError):
        counts = json.loads(path.read_text())
    sets = comb(cards.size, 7)
    if not isinstance(counts, list) or len(counts) != len(chosen.categories) or sum(counts) != sets:
        from engine.hands.evaluate import count_ranking_categories  # compiled: loaded only to count

        counts = count_ranking_categories(chosen.code, 7, tiebreak, cards, places).tolist()
        try:
            cache.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".tmp-{os.getpid()}")
            temporary.write_text(json.dumps(counts))
            os.replace(temporary, path)
        except OSError:
            pass
    total = sum(counts)
    return tuple(c / total for c in counts)


@lru_cache(maxsize=8)
def kill_survivors(boards: int, deck_size: int = 52) -> tuple[float, ...]:
    """``result[k]``: the chance that k boards survive the lowest-river-rank kill.

    The last cards of the ``boards`` boards are a uniform set of the deck; the boards whose
    last card has the lowest rank die, and when every one has the same rank one survives.
    """
    counts = [0] * (boards + 1)
    for cards in combinations(range(deck_size), boards):
        ranks = [card // 4 for card in cards]
        lowest = ranks.count(min(ranks))
        counts[1 if lowest == boards else boards - lowest] += 1
    total = comb(deck_size, boards)
    return tuple(c / total for c in counts)


def rank_count_vectors(cards: int = 6, ranks: int = 13) -> Iterator[tuple[list[int], int]]:
    """Every way a hand of ``cards`` cards spreads over the ranks, with its number of hands."""

    def walk(rank: int, left: int, counts: list[int]) -> Iterator[tuple[list[int], int]]:
        if rank == ranks:
            if left == 0:
                ways = 1
                for m in counts:
                    ways *= comb(4, m)
                yield counts, ways
            return
        for m in range(min(4, left) + 1):
            yield from walk(rank + 1, left - m, [*counts, m])

    yield from walk(0, cards, [])


@lru_cache(maxsize=16)
def first_discards(hole_cards: int = 6, cards_seen: int = 3, ranks: int = 13) -> tuple[float, float]:
    """A player's expected hole cards forced out by the first cards of a discard-trigger board,
    and the chance of losing all of them there.

    From one player's view those board cards are a uniform set of the cards not in their
    hand; a held rank with ``m`` copies in hand has ``4 - m`` copies left.
    """
    unseen = 4 * ranks - hole_cards
    all_sets = comb(unseen, cards_seen)
    expected = dead = 0.0
    hands = 0
    for counts, ways in rank_count_vectors(hole_cards, ranks):
        hands += ways
        held = [m for m in counts if m]
        expected += ways * sum(m * (1 - comb(unseen - (4 - m), cards_seen) / all_sets) for m in held)
        if len(held) <= cards_seen:  # every held rank must show: inclusion-exclusion
            cover = 0.0
            for size in range(len(held) + 1):
                for subset in combinations(held, size):
                    cover += (-1) ** size * comb(unseen - sum(4 - m for m in subset), cards_seen)
            dead += ways * cover / all_sets
    return expected / hands, dead / hands


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float | None, float | None]:
    """The 95% Wilson score interval of a proportion.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if trials <= 0:
        return None, None
    return interval_of_rate(successes / trials, trials, z)


def z_score(successes: int, trials: int, exact: float) -> float | None:
    """How many standard errors the estimate is from the exact value."""
    if trials <= 0 or exact <= 0 or exact >= 1:
        return None
    return (successes / trials - exact) / float(np.sqrt(exact * (1 - exact) / trials))


@lru_cache(maxsize=16)
def points_after_board(
    points: tuple[int, ...], hole_cards: int = 6, board_cards: int = 5
) -> tuple[float, ...]:
    """Distribution of a player's low points once a whole discard-trigger board is out.

    ``result[p]`` is the chance that the hole cards left after every board card (each card of
    a rank on the board forced out) are worth ``p`` points (0: dead); ``points`` gives each
    rank's points, low to high. The hole cards and the board are a uniform deal from a deck
    of four suits; a dynamic programme over the ranks counts, for each rank, how many copies
    the hole holds and how many the board takes.
    """
    # state: (hole cards so far, board cards so far, points kept) -> ways
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for value in points:
        nxt: dict[tuple[int, int, int], int] = {}
        for (held, board, kept), ways in states.items():
            for h in range(min(4, hole_cards - held) + 1):
                for b in range(min(4 - h, board_cards - board) + 1):
                    key = (held + h, board + b, kept + (h * value if b == 0 else 0))
                    nxt[key] = nxt.get(key, 0) + ways * comb(4, h) * comb(4 - h, b)
        states = nxt
    deck = 4 * len(points)
    total = comb(deck, hole_cards) * comb(deck - hole_cards, board_cards)
    result = [0.0] * (max(points) * hole_cards + 1)
    for (held, board, kept), ways in states.items():
        if held == hole_cards and board == board_cards:
            result[kept] += ways / total
    return tuple(result)
