"""What the compiled reader (``stars_kernel``) takes from the Python reader: for each kind of first
line (the same but for its hand id and date), the PHH pieces every hand of it shares (variant,
stakes, currency, venue, the tournament's ``_`` fields) and its hole cards, read by the Python
reader itself from that line over two made-up seats; the time zones; the literals of the lines it
ignores; and whether the formats are still those the kernel finds.

>>> from ingest.histories.phh import write_hand
>>> line = b"PokerStars Hand #|: Hold'em No Limit ($0.05/$0.10 USD) - 0000/00/00 00:00:00 ET"
>>> kind = header_kind(line, write_hand)
>>> kind.usable, kind.hole_cards, kind.parts[0], kind.parts[1], kind.parts[7]
(True, 2, b'variant = "NT"\\n', b'min_bet = 0.1\\n', b'venue = "PokerStars"\\n')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from engine.rules.games import game_for_variant
from ingest.histories import sites
from ingest.histories.sites import stars_family
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.stars_bytes import DECIMALS, MOST_UNITS
from ingest.histories.sites.stars_hand import Tables
from ingest.histories.sites.stars_write import PARTS
from ingest.histories.sites.text import TIME_ZONES, SiteError
from ingest.histories.sites.to_phh import phh_fields

# the first-line patterns ``stars_kernel.find_hands`` matches, in ``sites.FORMATS``' order: another
# pattern there (or another order) and the kernel is not used (the Python reader reads every file)
FORMAT_PATTERNS = (
    ("PokerStars", r"^(PokerStars|Run It Once Poker|PokerMaster|PokerBros|Full Tilt)"
                   r"(?: Zoom| Home Game| Home Games| Rush)? (?:Hand|Game) #(\d+): *(.*)$"),
    ("GGPoker", r"^Poker Hand #([A-Z]{0,4}\d+): *(.*)$"),
)  # fmt: skip
# the lines ``stars_family._IGNORED`` finds (and so ignores), as rules the kernel checks: (kind, first,
# second); kinds: the line holds ``first``; opens with it; holds it and ``second`` after it; holds it,
# a word and ``second`` (each rule is used only while the pattern still finds its smallest line)
HOLDS, OPENS, THEN, WORD_THEN = range(4)
IGNORED = (
    *((HOLDS, lit, "") for lit in ('said, "', "is disconnected", "is connected", "has timed out",
                                   "has returned", "is sitting out", "sits out", "leaves the table",
                                   "joins the table", "will be allowed to play", "re-buys",
                                   "finished the tournament", "wins the tournament", "doesn't show hand",
                                   "is away", "was removed")),
    *((OPENS, lit, "") for lit in ("Betting is capped", "Pair on board", "No low hand", "Hand was run",
                                   "The player", "The deck is reshuffled")),
    (THEN, "wins ", "bounty"), (THEN, "adds ", " chips"), (THEN, "split the ", " bounty"),
    (WORD_THEN, "wins ", " for eliminating"),
)  # fmt: skip
_SMALLEST = {HOLDS: "x {0} x", OPENS: "{0} x", THEN: "x {0}{1} x", WORD_THEN: "x {0}y{1} x"}
SEATS = "\nSeat 1: a (1 in chips)\nSeat 2: b (1 in chips)"  # the made-up seats a first line is read over
WRITTEN = frozenset(
    {
        "antes",
        "blinds_or_straddles",
        "starting_stacks",
        "actions",
        "players",
        "seats",
        "winnings",
        "hand",
        "_hand_id",
    }
)  # fmt: skip  (the kernel writes them, hand by hand)
NOT_SHARED = frozenset({"_bounties", "_fees", "_notes", "_cash_outs", "_cash_out_fees"})
BETS = ("small_bet", "big_bet", "min_bet")
NAMED_AFTER = ("_bounties", "_fees", "_hand_id")  # the ``_`` fields the kernel writes, in name order


class Kind(NamedTuple):
    usable: bool
    hole_cards: int
    parts: tuple[bytes, ...]  # ``stars_write.P_VARIANT`` ... ``P_VENUE``
    posted_min_bet: bool = False  # ``min_bet`` (the header's, unless a hand posts its big blind)
    big_blind: int = 0  # the header's, in the kernel's units (``site_hand.owed_on``)


UNUSABLE = Kind(False, 0, (b"",) * PARTS)


def formats_known() -> bool:
    """Whether ``sites.FORMATS`` open with the formats the kernel finds, in the same order."""
    found = tuple((name, header.pattern) for name, header, _ in sites.FORMATS[: len(FORMAT_PATTERNS)])
    return found == FORMAT_PATTERNS and all(header.flags & re.M for _, header, _ in sites.FORMATS)


# text every hand of another format holds at its start (a file holding it is read by the Python
# reader, which finds every format's hands); a format not named here is looked for by its pattern
OTHER_MARKS = {
    "Winamax": b"Winamax Poker - ", "888": b"#Game No : ", "PartyPoker": b"***** Hand History ",
    "Full Tilt": b"Poker Game #", "Ongame": b"***** History for hand ", "Absolute": b"Stage #",
}  # fmt: skip


def other_format_in(text: bytes) -> bool:
    """Whether ``text`` (a file's normalized UTF-8) may hold a hand of a format the kernel does not
    find: the mark of one, or a match of its pattern.

    >>> other_format_in(b"PokerStars Hand #1: ...\\n"), other_format_in(b"x\\nStage #12: Holdem")
    (False, True)
    """
    for name, header, _ in sites.FORMATS[len(FORMAT_PATTERNS) :]:
        mark = OTHER_MARKS.get(name)
        if mark in text if mark is not None else _bytes_pattern(header.pattern).search(text):
            return True
    return False


@lru_cache(maxsize=64)
def _bytes_pattern(pattern: str) -> re.Pattern[bytes]:
    return re.compile(pattern.encode(), re.M)


@lru_cache(maxsize=4096)
def header_kind(key: bytes, write: Callable[[dict[str, Any]], str]) -> Kind:
    """The kind of a first line (``key``: the line without its id, ``|`` in its place, its date's
    digits zeros), as the Python reader reads it over two made-up seats: usable by the kernel for
    a board game whose every field but those it writes hand by hand is one it places."""
    line = key.decode("utf-8", "replace").replace("#|:", "#1:", 1)
    for _, header, reader in sites.FORMATS:
        if header.match(line):
            try:
                hand = reader(line + SEATS)
                fields = phh_fields(hand)
            except (SiteError, ValueError, LookupError, ArithmeticError):
                return UNUSABLE
            return _kind(hand, fields, write)
    return UNUSABLE


def _kind(hand: SiteHand, fields: dict[str, Any], write: Callable[[dict[str, Any]], str]) -> Kind:
    shared = {k: v for k, v in fields.items() if k not in WRITTEN}
    extra = sorted(k for k in shared if k.startswith("_"))
    known = {"variant", "currency", "venue", *BETS}
    if hand.kind != "board" or NOT_SHARED & shared.keys() or set(shared) - known - set(extra):
        return UNUSABLE
    if game_for_variant(hand.variant)[0].forced_street:  # a deal before the blinds' round (Courchevel)
        return UNUSABLE
    unseen = "??" * hand.hole_cards
    if fields["actions"] != [f"d dh p1 {unseen}", f"d dh p2 {unseen}"] or "variant" not in shared:
        return UNUSABLE
    chunks: list[list[str]] = [[], [], [], []]  # the ``_`` fields before each the kernel writes, and after
    for name in extra:
        chunks[sum(name > after for after in NAMED_AFTER)].append(name)

    def text(names) -> bytes:
        return write({k: shared[k] for k in names}).encode() if names else b""

    parts = (text(["variant"]), text([k for k in BETS if k in shared]), *(text(c) for c in chunks),
             text(["currency"] if "currency" in shared else []), text(["venue"]))  # fmt: skip
    big_blind = hand.big_blind.scaleb(DECIMALS)
    if big_blind != big_blind.to_integral_value() or not 0 <= big_blind < MOST_UNITS:
        return UNUSABLE
    return Kind(True, hand.hole_cards, parts, "min_bet" in shared, int(big_blind))


def ignored_rules() -> list[tuple[int, str, str]]:
    """The rules of ``IGNORED`` that ``stars_family._IGNORED`` still follows (finds their smallest line)."""
    return [
        (kind, a, b) for kind, a, b in IGNORED if stars_family._IGNORED.search(_SMALLEST[kind].format(a, b))
    ]


def tables(kinds: list[Kind]) -> Tables:
    """The kernel's ``Tables`` of a file's kinds of first line (``heads[:, INFO]`` index them)."""
    text = bytearray()
    spans = np.zeros((max(len(kinds), 1), PARTS, 2), np.int64)
    info = np.zeros((max(len(kinds), 1), 4), np.int64)
    for k, kind in enumerate(kinds):
        info[k] = kind.usable, kind.hole_cards, kind.posted_min_bet, kind.big_blind
        for p, piece in enumerate(kind.parts):
            spans[k, p] = len(text), len(text) + len(piece)
            text += piece
    zones = list(TIME_ZONES.items())
    abbreviations = np.zeros((len(zones), 8), np.uint8)
    names = np.zeros((len(zones), 2), np.int64)
    for z, (abbreviation, name) in enumerate(zones):
        abbreviations[z, : len(abbreviation)] = np.frombuffer(abbreviation.encode(), np.uint8)
        names[z] = len(text), len(text) + len(name.encode())
        text += name.encode()
    rules = ignored_rules()
    ignored = np.zeros((len(rules), 2, 40), np.uint8)
    ignored_kinds = np.zeros((len(rules), 3), np.int64)
    for k, (kind, first, second) in enumerate(rules):
        ignored[k, 0, : len(first)] = np.frombuffer(first.encode(), np.uint8)
        ignored[k, 1, : len(second)] = np.frombuffer(second.encode(), np.uint8)
        ignored_kinds[k] = kind, len(first), len(second)
    return Tables(np.frombuffer(bytes(text) or b" ", np.uint8), info, spans, abbreviations,
                  np.array([len(a) for a, _ in zones], np.int64), names, ignored, ignored_kinds,
                  max([len(n.encode()) for _, n in zones], default=0))  # fmt: skip
