"""The first line of a hand in the PokerStars family of formats: the game, its stakes, cash or
tournament (id, buy-in, fee, bounty, level), the date. Each site's module matches its own opening
(``PokerStars Hand #``, ``Poker Hand #``) and gives the rest here.

>>> line = "Tournament #7, $5.00+$0.50 Hold'em No Limit - Level XV (1500/3000) - 2010/01/02 10:00:00 ET"
>>> hand = header_hand("PokerStars", "1", line)
>>> hand.variant, hand.big_blind, hand.chips, hand.extra["tournament"], hand.extra["level"], hand.extra["fee"]
('NT', Decimal('3000'), 'tournament', '7', 15, '0.50')
>>> hand = header_hand("GGPoker", "OM1", "PLO ($2/$5) - 2021/01/21 02:41:55")
>>> hand.variant, hand.currency, hand.small_blind, hand.big_blind
('PO', 'USD', Decimal('2'), Decimal('5'))
"""

from __future__ import annotations

import re
from decimal import Decimal

from ingest.histories.sites.games import game_of, last_game_name
from ingest.histories.sites.site_hand import SiteHand
from ingest.histories.sites.stars_family import stakes
from ingest.histories.sites.text import SiteError, amount, currency_of, when_of

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_TOURNAMENT = re.compile(r"Tournament #(\d+),\s*(.*)$")
_LEVEL = re.compile(r"Level ?([IVXLC]+|\d+)")


def roman(text: str) -> int:
    """A level number as written (``XIV`` or ``14``).

    >>> roman("XIV"), roman("9")
    (14, 9)
    """
    if text.isdigit():
        return int(text)
    values = [_ROMAN[c] for c in text]
    return sum(-v if k + 1 < len(values) and v < values[k + 1] else v for k, v in enumerate(values))


def header_hand(venue: str, hand_id: str, rest: str) -> SiteHand:
    """A ``SiteHand`` with what a header line says (after ``#id:``)."""
    name = last_game_name(rest)
    if name is None:
        raise SiteError(f"{venue} header names no game scooplab knows: {rest[:60]!r}")
    game = game_of(name, early_board=venue == "PokerStars")  # (its Courchevel's first card: PRE-FLOP)
    if game is None:
        raise SiteError(f'{venue} game "{name}" has no scooplab description')
    hand = SiteHand(venue=venue, hand_id=hand_id, variant=game[0], hole_cards=game[1], kind=game[2],
                    when=when_of(rest))  # fmt: skip
    if venue == "GGPoker" and hand.variant[1:] == "S":  # its files: "Aces-High Straight" beats "Three Tens"
        hand.options["trips_beat_straight"] = False  # GGPoker's short deck ranks a straight above trips
    after = rest[rest.rfind(name) + len(name) :]
    tournament = _TOURNAMENT.search(rest)
    if tournament:
        _tournament(hand, tournament.group(1), rest[tournament.start(2) : rest.rfind(name)], after)
    else:
        low, high = _button_blind(after) or stakes(after)
        hand.currency = currency_of(after)
        hand.chips = None if hand.currency else "play money"
        _set_stakes(hand, low, high)
    return hand


def _button_blind(text: str) -> tuple[Decimal, Decimal] | None:
    """6+ hold'em's stakes ``(Button Blind $0.25 - Ante $0.25 USD)``: the ante and the button blind."""
    found = re.search(r"Button Blind (\S+) - Ante (\S+)", text)
    return None if found is None else (amount(found.group(2)), amount(found.group(1)))


def _set_stakes(hand: SiteHand, low: Decimal, high: Decimal) -> None:
    """No-limit and pot-limit stakes are the blinds; fixed-limit ones the small and big bets."""
    if hand.variant.startswith("F"):
        hand.small_bet, hand.big_bet = low, high
        hand.small_blind, hand.big_blind = low / 2, low
    else:
        hand.small_blind, hand.big_blind = low, high


def _tournament(hand: SiteHand, tournament_id: str, buy_in: str, after: str) -> None:
    """A tournament hand: chips, with its id, buy-in, fee, bounty and level kept."""
    hand.chips = "tournament"
    hand.extra["tournament"] = tournament_id
    parts = [p for p in re.findall(r"[^\s+]*\d[\d,.]*", buy_in.split("(")[0])]
    money = _buy_in_parts(parts)
    if money:
        hand.extra.update(money)
        code = currency_of(buy_in)
        if code:
            hand.extra["buy_in_currency"] = code
    elif buy_in.strip():
        hand.extra["buy_in_text"] = buy_in.strip()
    level = _LEVEL.search(after)
    if level:
        hand.extra["level"] = roman(level.group(1))
    low, high = stakes(after if level is None else after[level.start() :])
    _set_stakes(hand, low, high)


def _buy_in_parts(parts: list[str]) -> dict[str, str]:
    """Buy-in, (bounty,) fee of ``$5.00+$0.50`` or ``$332.50+$332.50+$35.00``, as exact decimal text."""
    try:
        values = [format(amount(p), "f") for p in parts]
    except SiteError:
        return {}
    if len(values) == 2:
        return {"buy_in": values[0], "fee": values[1]}
    if len(values) == 3:
        return {"buy_in": values[0], "bounty": values[1], "fee": values[2]}
    return {"buy_in": values[0]} if len(values) == 1 else {}
