"""Who acts first by the cards dealt face up (stud): pure functions over up cards.

A card is ``rank << 2 | suit`` (``engine.hands.cards``): ranks in the deck's order, lowest
first (the standard deck's ace last), suits clubs, diamonds, hearts, spades. ``aces_low`` moves
a top ace below the deck's lowest rank (razz). A showing hand is ranked by its rank counts
(four of a kind, three of a kind, two pair, one pair, no pair) and then its ranks, the larger
groups first, higher ranks first; suits never count, nor straights or flushes.

>>> from engine.hands.cards import parse_cards
>>> cards = lambda text: parse_cards(text).tolist()
>>> opener_seat("low-card", [cards("Ad"), cards("2s"), cards("2c")], [True, True, True], 13)
2
>>> opener_seat("high-card", [cards("Ad"), cards("Ks"), cards("Kc")], [True, True, True], 13)
1
>>> opener_seat("high-hand", [cards("9c9d"), cards("AsKs"), cards("9h9s")], [True, True, True], 13)
0
>>> opener_seat("low-hand", [cards("9c9d"), cards("As8s"), cards("7h6s")], [True, True, True], 13)
2
"""

from __future__ import annotations

from collections import Counter

ACES_LOW_OPENERS = ("high-card", "low-hand")  # razz's: aces are low
THREAT = 0.15  # what a better showing hand across the table costs the tag policy's score


def card_rank(card: int, aces_low: bool, n_ranks: int) -> int:
    """The card's rank for comparing up cards, 0 lowest.

    >>> card_rank(48, False, 13), card_rank(48, True, 13), card_rank(0, True, 13)  # Ac, Ac, 2c
    (12, 0, 1)
    """
    rank = card >> 2
    return (rank + 1) % n_ranks if aces_low else rank


def card_key(card: int, aces_low: bool, n_ranks: int) -> tuple[int, int]:
    """Rank, then suit (clubs lowest): how single up cards compare."""
    return card_rank(card, aces_low, n_ranks), card & 3


def showing_key(cards: list[int], aces_low: bool, n_ranks: int) -> tuple[int, tuple[int, ...]]:
    """(shape, ranks) of a showing hand: shape 0 no pair, 1 one pair, 2 two pair, 3 three of a kind,
    4 four of a kind; ranks grouped, larger groups first, then higher ranks. Higher is a better high
    hand; for a low hand, lower is better.

    >>> from engine.hands.cards import parse_cards
    >>> showing_key(parse_cards("KdKs4c").tolist(), False, 13)
    (1, (11, 11, 2))
    >>> showing_key(parse_cards("Ac5d").tolist(), True, 13)
    (0, (4, 0))
    """
    counts = Counter(card_rank(card, aces_low, n_ranks) for card in cards)
    ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    groups = sorted(counts.values(), reverse=True)
    shape = {4: 4, 3: 3}.get(groups[0], 0) if groups else 0
    if groups and groups[0] == 2:
        shape = 2 if len(groups) > 1 and groups[1] == 2 else 1
    return shape, tuple(rank for rank, count in ordered for _ in range(count))


def opener_seat(opener: str, up_cards: list[list[int]], live: list[bool], n_ranks: int) -> int:
    """The seat that acts first: the lowest or highest single up card (by rank, then suit), or the
    best or lowest showing hand (a tie: the first such seat from seat 0). Only ``live`` seats
    with up cards count; with none, seat 0."""
    aces_low = opener in ACES_LOW_OPENERS
    seats = [s for s in range(len(up_cards)) if live[s] and up_cards[s]]
    if not seats:
        return 0
    if opener in ("low-card", "high-card"):
        keys = {s: min(card_key(c, aces_low, n_ranks) for c in up_cards[s]) if opener == "low-card"
                else max(card_key(c, aces_low, n_ranks) for c in up_cards[s]) for s in seats}  # fmt: skip
    else:
        keys = {s: showing_key(up_cards[s], aces_low, n_ranks) for s in seats}
    best = min(keys.values()) if opener in ("low-card", "low-hand") else max(keys.values())
    return next(s for s in seats if keys[s] == best)


def shows_pair(up_cards: list[list[int]], live: list[bool]) -> bool:
    """Whether some live seat's up cards hold two of one rank (an open pair).

    >>> shows_pair([[0, 1], [8]], [True, True]), shows_pair([[0, 1], [8]], [False, True])
    (True, False)
    """
    return any(live[s] and len({c >> 2 for c in cards}) < len(cards) for s, cards in enumerate(up_cards))


def up_pattern(streets) -> tuple[bool, ...]:
    """Whether each hole card, in deal order, is dealt face up: each street's last ``up_cards``.

    >>> from engine.rules.games import get_game
    >>> up_pattern(get_game("razz").streets)
    (False, False, True, True, True, True, False)
    """
    return tuple(j >= s.hole_cards - s.up_cards for s in streets for j in range(s.hole_cards))


def written(cards: list[str], pattern: tuple[bool, ...]) -> str:
    """Card texts in deal order with each run of down cards in parentheses.

    >>> written(["Ah", "2c", "3d", "4s"], (False, False, True, True, False))
    '(Ah2c)3d4s'
    """
    out = ""
    for k, card in enumerate(cards):
        down = not pattern[k]
        opens = down and (k == 0 or pattern[k - 1])
        closes = down and (k + 1 == len(cards) or pattern[k + 1])
        out += "(" * opens + card + ")" * closes
    return out


def split_up_and_down(text: str, pattern: tuple[bool, ...]) -> str:
    """A hand written with its down cards in parentheses, ``(Ah2c)3d``, as its cards in deal order,
    ``Ah2c3d``, once each card is checked to be dealt face up or down as ``pattern`` says.
    Raises ``ValueError`` naming the card that is not.

    >>> split_up_and_down("(Ah2c)3d4s", (False, False, True, True, True, True, False))
    'Ah2c3d4s'
    >>> split_up_and_down("Ah(2c)3d", (False, False, True))
    Traceback (most recent call last):
    ValueError: card 1 (Ah) is dealt face down: write it in parentheses, as in (Ah2c)3d
    """
    chars, down, position = [], False, 0
    for char in text.replace(" ", ""):
        if char in "()":
            if down == (char == "("):
                raise ValueError(f"unbalanced parentheses in {text!r}")
            down = char == "("
            continue
        chars.append(char)
        if len(chars) % 2 == 0:
            card = "".join(chars[-2:])
            if position < len(pattern) and pattern[position] == down:
                where = "up: write it outside" if pattern[position] else "down: write it in"
                shown = min(len(pattern), max(3, position + 1))
                example = written(["Ah", "2c", "3d", "4s", "5h", "6c", "7d", "8s"][:shown], pattern)
                raise ValueError(f"card {position + 1} ({card}) is dealt face {where} parentheses, as in "
                                 f"{example}")  # fmt: skip
            position += 1
    if down:
        raise ValueError(f"unbalanced parentheses in {text!r}")
    return "".join(chars)
