"""Starting-hand classes up to suit symmetry, for games dealing at most three hole cards:
hold'em's 169 (``AA``, ``AKs``, ``AKo``), short deck's 81, Skœjarth's fans (``KaKb6a``: the
letters a, b, c name suits in order of first appearance). Every combination of a class has the
same chances, since suits are symmetric. Plain Python: no compiled code is loaded.

>>> from engine.rules.games import get_game
>>> classes = hand_classes(get_game("holdem"), {})
>>> len(classes), classes[0].name, sum(c.combos for c in classes)
(169, 'AA', 1326)
>>> [c.name for c in hand_classes(get_game("skoejarth"), {})][:3]
['KaKbKc', 'KaKb6a', 'KaKb6c']
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.rules.games.base import GameSpec

CLASS_HOLE_CARDS = 3  # games dealing more are summarized by features, or bucketed


@dataclass(frozen=True)
class HandClass:
    """A starting-hand class: its name, one of its combinations, how many combinations it has."""

    name: str
    cards: tuple[int, ...]
    combos: int
    members: tuple[tuple[int, ...], ...] = ()  # every combination of the class


def first_hole_cards(game: GameSpec, options: Mapping[str, Any]) -> int:
    """Hole cards a player holds before the first betting round: the starting hand."""
    return game.streets_under(options)[0].hole_cards


def hand_classes(game: GameSpec, options: Mapping[str, Any]) -> list[HandClass] | None:
    """The classes up to suit symmetry, strongest ranks first; None past ``CLASS_HOLE_CARDS`` cards."""
    held = first_hole_cards(game, game.resolve_options(options))
    if held > CLASS_HOLE_CARDS:
        return None
    return list(_classes(game.deck.size, len(game.deck.suits), game.deck.ranks, held))


@lru_cache(maxsize=8)
def _classes(size: int, n_suits: int, ranks: str, held: int) -> tuple[HandClass, ...]:
    perms = list(itertools.permutations(range(n_suits)))
    found: dict[tuple, list] = {}
    for cards in itertools.combinations(range(size), held):
        key = min(_pattern(cards, n_suits, perm) for perm in perms)
        found.setdefault(key, []).append(cards)
    named = [HandClass(_name(key, ranks), members[0], len(members), tuple(members))
             for key, members in found.items()]  # fmt: skip
    return tuple(sorted(named, key=lambda c: (tuple(-r for r, _ in _key_of(c, n_suits)), c.name)))


def _pattern(cards: tuple[int, ...], n_suits: int, perm: tuple[int, ...]) -> tuple:
    """Cards as (rank, suit label) high rank first, suits renamed by ``perm`` then by first appearance."""
    placed = sorted(((c // n_suits, perm[c % n_suits]) for c in cards), key=lambda x: (-x[0], x[1]))
    labels: dict[int, int] = {}
    return tuple((-rank, labels.setdefault(suit, len(labels))) for rank, suit in placed)


def _key_of(c: HandClass, n_suits: int) -> list[tuple[int, int]]:
    return sorted(((card // n_suits, card % n_suits) for card in c.cards), reverse=True)


def _name(key: tuple, ranks: str) -> str:
    if len(key) == 2:  # the usual names: AA, AKs, AKo
        (high, a), (low, b) = key
        return ranks[-high] + ranks[-low] + ("" if high == low else "s" if a == b else "o")
    return "".join(ranks[-rank] + "abcdefgh"[label] for rank, label in key)
