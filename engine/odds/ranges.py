"""Hand ranges of two-card games in the usual notation, as arrays of two-card combinations.

``AA``, ``AKs``, ``AKo``, ``AK`` (both), ``TT+``, ``A5s+``, ``K9o+``, ``22-55``, ``A5s-A2s``,
exact combinations (``AhKh``), unions with commas, ``random``, and ``N%``: the strongest N% of
all combinations by a ranking the caller gives (``engine.odds.situations`` ranks classes by their equity
against one random hand). Ranks are the deck's (``23456789TJQKA``, or ``6789TJQKA`` short).

>>> from engine.hands.cards import STANDARD
>>> len(parse_range("TT+,AKs", STANDARD)), len(parse_range("random", STANDARD))
(34, 1326)
>>> sorted(class_names(STANDARD))[:3]
['22', '32o', '32s']
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.hands.cards import CardError, Deck, parse_cards


class RangeError(ValueError):
    """A range that cannot be read, or that leaves no hand."""


def class_names(deck: Deck) -> list[str]:
    """Every starting-hand class, strongest rank first: ``AA``, ``AKs``, ``AKo``, ..."""
    ranks = deck.ranks[::-1]
    names = []
    for i, high in enumerate(ranks):
        for low in ranks[i:]:
            names += [high + low] if high == low else [high + low + "s", high + low + "o"]
    return names


def class_combos(name: str, deck: Deck) -> list[tuple[int, int]]:
    """The combinations of one class (``AA``: 6, ``AKs``: 4, ``AKo``: 12, ``AK``: 16)."""
    high, low, kind = name[0], name[1], name[2:]
    if high not in deck.ranks or low not in deck.ranks or kind not in ("", "s", "o"):
        raise RangeError(f"{name!r} is not a hand class of the {deck.name} deck")
    h, lo, suits = deck.ranks.index(high), deck.ranks.index(low), len(deck.suits)
    if h < lo:
        h, lo = lo, h
    combos = []
    for a in range(suits):
        for b in range(suits):
            first, second = h * suits + a, lo * suits + b
            if h == lo and a >= b:
                continue
            if (kind == "s" and a != b) or (kind == "o" and a == b) or (h == lo and kind):
                continue
            combos.append((first, second))
    return combos


def _rank(deck: Deck, char: str) -> int:
    """The place of a rank in the deck's order; a clear error for a character that is not one.

    >>> from engine.hands.cards import STANDARD
    >>> _rank(STANDARD, "X")
    Traceback (most recent call last):
    ...
    engine.odds.ranges.RangeError: 'X' is not a rank of the standard deck (23456789TJQKA)
    """
    if len(char) != 1 or char not in deck.ranks:
        raise RangeError(f"{char!r} is not a rank of the {deck.name} deck ({deck.ranks})")
    return deck.ranks.index(char)


def _spread(text: str, deck: Deck) -> list[str]:
    """Classes named by ``TT+``, ``A5s+``, ``22-55``, ``A5s-A2s`` or one class."""
    ranks = deck.ranks
    if "-" in text:
        top, bottom = text.split("-", 1)
        pairs = len(top) == len(bottom) == 2 and top[0] == top[1] and bottom[0] == bottom[1]
        if not pairs and (len(top) != len(bottom) or top[0] != bottom[0] or top[2:] != bottom[2:]):
            raise RangeError("a span joins two classes of one kind (22-55, A5s-A2s)")
        if top[0] == top[1]:  # pairs
            a, b = sorted((_rank(deck, top[0]), _rank(deck, bottom[0])))
            return [ranks[r] * 2 for r in range(a, b + 1)]
        a, b = sorted((_rank(deck, top[1]), _rank(deck, bottom[1])))
        return [top[0] + ranks[r] + top[2:] for r in range(a, b + 1)]
    if text.endswith("+"):
        base = text[:-1]
        if len(base) < 2:
            raise RangeError("a class names two ranks (AA+, A5s+)")
        if len(base) == 2 and base[0] == base[1]:
            return [r * 2 for r in ranks[_rank(deck, base[0]) :]]
        high = _rank(deck, base[0])
        return [base[0] + ranks[r] + base[2:] for r in range(_rank(deck, base[1]), high)]
    return [text]


def parse_range(text: str, deck: Deck, ranked: Callable[[], list[str]] | None = None) -> np.ndarray:
    """(combinations, 2) card ids of a range; ``ranked()`` gives the classes strongest first for ``N%``."""
    combos: dict[tuple[int, int], None] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            chosen = _part(part, deck, ranked)
        except (CardError, ValueError, IndexError) as error:
            where = f"range {text!r}" + (f", {part!r}" if part != text.strip() else "")
            raise RangeError(f"{where}: {error}") from None
        for first, second in chosen:
            combos[(max(first, second), min(first, second))] = None
    if not combos:
        raise RangeError(f"range {text!r} holds no hand")
    return np.array(list(combos), dtype=np.int8)


def _part(part: str, deck: Deck, ranked: Callable[[], list[str]] | None) -> list[tuple[int, int]]:
    if part.lower() == "random":
        return [c for name in class_names(deck) for c in class_combos(name, deck)]
    if part.endswith("%"):
        if ranked is None:
            raise RangeError("a share of hands needs a ranking of the classes")
        share = float(part[:-1]) / 100
        if not 0 < share <= 1:
            raise RangeError("a share of hands lies between 0% and 100%")
        total = sum(len(class_combos(n, deck)) for n in class_names(deck))
        chosen: list[tuple[int, int]] = []
        for name in ranked():
            if len(chosen) >= share * total - 1e-9:
                break
            chosen += class_combos(name, deck)
        return chosen
    if len(part) == 4 and part[1] in deck.suits and part[3] in deck.suits:  # AhKh: one combination
        first, second = parse_cards(part, deck).tolist()
        return [(first, second)]
    out = []
    for name in _spread(part, deck):
        if len(name) == 2 and name[0] != name[1]:
            out += class_combos(name + "s", deck) + class_combos(name + "o", deck)
        else:
            out += class_combos(name, deck)
    return out
