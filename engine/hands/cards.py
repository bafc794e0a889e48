"""Cards and decks: integer card ids, parsing and formatting.

A card is an integer ``rank_index * 4 + suit_index``. Two decks are named here: the standard
52-card deck, ranks ``23456789TJQKA`` and suits ``cdhs`` (``2c`` = 0, ``2d`` = 1, ..., ``As`` =
51), and the short deck (its 36 cards from 6 up). A game's description may make any other deck of
four suits by its ranks, suits and their names (Skœjarth's 28 cards, ranks ``123456K`` and suits
``bcos``: ``engine/variants/skoejarth.toml``).

Arrays of cards use ``NO_CARD`` (-1) as padding and ``UNKNOWN_CARD`` (-2) for
a card written ``??`` (dealt but not seen).

>>> parse_cards("AhKd")
array([50, 45], dtype=int8)
>>> latin = Deck("Latin", "123456K", "bcos", ("Batons", "Cups", "Coins", "Swords"))
>>> format_cards(parse_cards("Kb1c", latin), latin)
'Kb1c'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NO_CARD = -1
UNKNOWN_CARD = -2
CARD_DTYPE = np.int8


class CardError(ValueError):
    """Text that is not a valid list of cards of a deck."""


@dataclass(frozen=True)
class Deck:
    """A deck of ``len(ranks) * len(suits)`` cards, ranks low to high."""

    name: str
    ranks: str
    suits: str
    suit_names: tuple[str, ...]
    suit_glyphs: tuple[tuple[str, str], ...] = ()  # display data: a symbol and a colour per suit
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _texts: dict[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {
            rank + suit: rank_index * len(self.suits) + suit_index
            for rank_index, rank in enumerate(self.ranks)
            for suit_index, suit in enumerate(self.suits)
        }
        index["??"] = UNKNOWN_CARD
        object.__setattr__(self, "_index", index)
        texts = {card: text for text, card in index.items()}
        texts[NO_CARD] = ""
        object.__setattr__(self, "_texts", texts)

    @property
    def size(self) -> int:
        """Number of cards in the deck.

        >>> STANDARD.size, SHORT.size
        (52, 36)
        """
        return len(self.ranks) * len(self.suits)

    def card_id(self, text: str) -> int:
        """Id of one card written rank + suit; ``??`` gives ``UNKNOWN_CARD``.

        >>> STANDARD.card_id("As"), SHORT.card_id("6c")
        (51, 0)
        """
        if text == "??":
            return UNKNOWN_CARD
        try:
            return self._index[text]
        except KeyError:
            raise CardError(f"{text!r} is not a card of the {self.name} deck") from None

    def card_text(self, card: int) -> str:
        """Text of one card id (``??`` for ``UNKNOWN_CARD``).

        >>> STANDARD.card_text(0)
        '2c'
        """
        if card == UNKNOWN_CARD:
            return "??"
        if not 0 <= card < self.size:
            raise CardError(f"{card} is not a card id of the {self.name} deck (0..{self.size - 1})")
        return self.ranks[card // len(self.suits)] + self.suits[card % len(self.suits)]


STANDARD = Deck(
    "standard", "23456789TJQKA", "cdhs", ("clubs", "diamonds", "hearts", "spades"),
    (("♣", "#1b7f3b"), ("♦", "#1f5fd1"), ("♥", "#c62828"), ("♠", "#222222")),
)  # fmt: skip
# the 36 cards from 6 to A, written as in the standard deck (ids of its own, 6c = 0 .. As = 35)
SHORT = Deck("short", "6789TJQKA", STANDARD.suits, STANDARD.suit_names, STANDARD.suit_glyphs)
# the seven-rank ranking's own deck: seven ranks up to the King, the standard suits (a game names its own)
SEVEN_RANKS = Deck("28-card 123456K", "123456K", STANDARD.suits, STANDARD.suit_names, STANDARD.suit_glyphs)
DECKS = {"standard": STANDARD, "short": SHORT}  # the decks a description may name


def split_cards(text: str, deck: Deck = STANDARD) -> list[str]:
    """Split card text into two-character cards; white space and commas are ignored.

    >>> split_cards("Ah Kd,7c")
    ['Ah', 'Kd', '7c']
    """
    compact = "".join(text.replace(",", " ").split())
    if len(compact) % 2:
        raise CardError(
            f"{text!r} is not a list of cards of the {deck.name} deck: {len(compact)} characters, not pairs"
        )
    return [compact[i : i + 2] for i in range(0, len(compact), 2)]


def parse_cards(text: str, deck: Deck = STANDARD, *, allow_duplicates: bool = False) -> np.ndarray:
    """Parse ``"AhKd"``-style text into an int8 array of card ids.

    A card that appears twice is an error (``??`` may repeat).

    >>> parse_cards("2c2dAs").tolist()
    [0, 1, 51]
    >>> parse_cards("AhAh")
    Traceback (most recent call last):
    ...
    engine.hands.cards.CardError: 'Ah' appears twice in 'AhAh'
    """
    ids = [deck.card_id(card) for card in split_cards(text, deck)]
    if not allow_duplicates:
        seen: set[int] = set()
        for card in ids:
            if card in seen and card != UNKNOWN_CARD:
                raise CardError(f"{deck.card_text(card)!r} appears twice in {text!r}")
            seen.add(card)
    return np.asarray(ids, dtype=CARD_DTYPE)


def card_list(text: str, deck: Deck = STANDARD) -> list[int]:
    """Like ``parse_cards`` but a plain list, fast for compact text such as ``"AhKd"``.

    >>> card_list("AhKd??")
    [50, 45, -2]
    """
    index = deck._index
    try:
        ids = [index[text[i : i + 2]] for i in range(0, len(text), 2)] if len(text) % 2 == 0 else None
    except KeyError:
        ids = None
    if ids is None or (len(set(ids)) != len(ids) and UNKNOWN_CARD not in ids):
        return parse_cards(text, deck).tolist()  # the slow path raises the right error
    if UNKNOWN_CARD in ids:
        known = [c for c in ids if c != UNKNOWN_CARD]
        if len(set(known)) != len(known):
            return parse_cards(text, deck).tolist()
    return ids


def format_cards(cards: np.ndarray | list[int], deck: Deck = STANDARD) -> str:
    """Format card ids as concatenated text; ``NO_CARD`` padding is skipped.

    >>> format_cards([50, 45, NO_CARD, UNKNOWN_CARD])
    'AhKd??'
    """
    texts = deck._texts
    try:
        return "".join([texts[card] for card in cards])
    except (KeyError, TypeError):  # the slow path names the bad id
        return "".join(deck.card_text(int(card)) for card in cards if int(card) != NO_CARD)


def parse_card_rows(rows: list[str], deck: Deck = STANDARD, width: int | None = None) -> np.ndarray:
    """Parse several card texts into one (N, width) array padded with ``NO_CARD``.

    >>> parse_card_rows(["AhKd", "2c"]).tolist()
    [[50, 45], [0, -1]]
    """
    parsed = [parse_cards(row, deck) for row in rows]
    width = max((len(p) for p in parsed), default=0) if width is None else width
    out = np.full((len(parsed), width), NO_CARD, dtype=CARD_DTYPE)
    for i, cards in enumerate(parsed):
        if len(cards) > width:
            raise CardError(f"{rows[i]!r} has {len(cards)} cards, more than {width}")
        out[i, : len(cards)] = cards
    return out
