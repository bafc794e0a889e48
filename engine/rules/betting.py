"""Bet sizes allowed by each betting structure: pure functions over a betting round.

>>> limits = RoundLimits(current_bet=100, last_increment=100, min_bet=100)
>>> raise_bounds(Structure.NO_LIMIT, limits, player_bet=0, stack=10_000, pot=150)
(200, 10000)
>>> raise_bounds(Structure.POT_LIMIT, limits, player_bet=0, stack=10_000, pot=150)
(200, 350)
>>> raise_bounds(Structure.POT_LIMIT, RoundLimits(0, 0, 100), player_bet=0, stack=10_000, pot=0)
(100, 100)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.rules.games.base import Blinds, GameSpec, RaiseRule, Structure

FIXED_LIMIT_CAP = 4  # bets and raises in a fixed-limit round


@dataclass(frozen=True)
class ForcedBets:
    """A hand's forced bets and bet sizes, in seat order as played (reversed heads-up)."""

    antes: list[int]
    blinds: list[int]
    min_bet: int
    small_bet: int
    big_bet: int
    starting_bet: int  # 0 unless the game has a starting bet


def forced_bets(game: GameSpec, structure: Structure, n: int, antes: list[int] | None,
                blinds: list[int] | None, min_bet: int | None, small_bet: int | None, big_bet: int | None,
                starting_bet: int | None) -> ForcedBets:  # fmt: skip
    """The forced bets of a hand from its PHH fields; ValueError when they cannot be played.

    >>> from engine.rules.games import GAMES
    >>> forced_bets(GAMES["holdem"], Structure.NO_LIMIT, 2, None, [1, 2], None, None, None, None)
    ForcedBets(antes=[0, 0], blinds=[2, 1], min_bet=2, small_bet=2, big_bet=2, starting_bet=0)
    """
    antes = list(antes) if antes is not None else [0] * n
    blinds = list(blinds) if blinds is not None else [0] * n
    if len(antes) != n or len(blinds) != n:
        raise ValueError(f"antes and blinds must list one amount per player ({n})")
    if n == 2:  # PHH: forced bets are reverse-assigned heads-up
        antes.reverse()
        blinds.reverse()
    starting_bet = starting_bet or 0
    if game.starting_bet and starting_bet <= 0:
        raise ValueError(f"{game.title} needs a positive starting bet")
    if structure is Structure.FIXED_LIMIT:
        if not small_bet or not big_bet:
            raise ValueError("fixed-limit needs small_bet and big_bet")
        min_bet = small_bet
    else:
        min_bet = min_bet or starting_bet or max(blinds) or 0
        if min_bet <= 0:
            raise ValueError("no-limit and pot-limit need a positive min_bet")
        small_bet = big_bet = min_bet
    return ForcedBets(antes, blinds, min_bet, small_bet, big_bet, starting_bet if game.starting_bet else 0)


def bets_per_round(game: GameSpec, structure: Structure, options: Mapping[str, Any],
                   fixed_limit_cap: int = FIXED_LIMIT_CAP) -> int | None:  # fmt: skip
    """Bets and raises a round allows (a game's raise-cap option, the fixed-limit cap), or None for no cap."""
    if game.max_raises_option is not None:
        return 1 + int(options[game.max_raises_option])
    return fixed_limit_cap if structure is Structure.FIXED_LIMIT else None


@dataclass(frozen=True)
class RoundLimits:
    """The state of a betting round that decides bet sizes."""

    current_bet: int  # the largest bet of the round so far
    last_increment: int  # size of the last full bet or raise (the big blind preflop)
    min_bet: int  # smallest opening bet (no-limit, pot-limit), or this street's bet (fixed)


def raise_bounds(
    structure: Structure,
    limits: RoundLimits,
    player_bet: int,
    stack: int,
    pot: int,
    raise_rule: RaiseRule = RaiseRule.LAST_INCREMENT,
) -> tuple[int, int]:
    """Smallest and largest "bet or raise to" total for a player, before the all-in exception.

    ``pot`` counts every chip already committed, this round's bets included.
    A player may always go all-in for less than the minimum; the caller checks it.
    """
    all_in_to = player_bet + stack
    if structure is Structure.FIXED_LIMIT:
        size = limits.current_bet + limits.min_bet
        return size, size
    if raise_rule is RaiseRule.DOUBLE:
        minimum = 2 * limits.current_bet if limits.current_bet else limits.min_bet
    else:
        minimum = limits.current_bet + max(limits.last_increment, limits.min_bet)
    if structure is Structure.POT_LIMIT:
        call = limits.current_bet - player_bet
        maximum = max(limits.current_bet + pot + call, minimum)  # a pot smaller than a minimum bet
        return minimum, min(maximum, all_in_to)
    return minimum, all_in_to


def full_raise_size(structure: Structure, limits: RoundLimits) -> int:
    """The increment of a full bet or raise now: the street's bet in fixed-limit, else the last one.

    >>> full_raise_size(Structure.FIXED_LIMIT, RoundLimits(current_bet=6, last_increment=1, min_bet=4))
    4
    >>> full_raise_size(Structure.NO_LIMIT, RoundLimits(current_bet=6, last_increment=5, min_bet=2))
    5
    """
    if structure is Structure.FIXED_LIMIT:
        return limits.min_bet
    return max(limits.last_increment, limits.min_bet)


def reopens(structure: Structure, full: int, raised_by: int) -> bool:
    """Whether raises adding up to ``raised_by`` reopen the betting for a player who already acted.

    TDA Rule 47 as ruled: in no-limit and pot-limit only a full raise (``full``) reopens it;
    in fixed-limit an all-in of at least half a full bet or raise does.

    >>> reopens(Structure.FIXED_LIMIT, 2, 1), reopens(Structure.NO_LIMIT, 2, 1)
    (True, False)
    >>> reopens(Structure.FIXED_LIMIT, 5, 2), reopens(Structure.FIXED_LIMIT, 5, 3)
    (False, True)
    """
    if structure is Structure.FIXED_LIMIT:
        return 2 * raised_by >= full
    return raised_by >= full


def is_full_raise(structure: Structure, limits: RoundLimits, to: int, raise_rule: RaiseRule) -> bool:
    """Whether a bet or raise to ``to`` counts as a full one: it reopens the betting for everyone.

    In fixed-limit an all-in of at least half the street's bet counts (TDA Rule 47), and it
    uses up one of the round's bets and raises.

    >>> limits = RoundLimits(current_bet=2, last_increment=2, min_bet=2)
    >>> is_full_raise(Structure.FIXED_LIMIT, limits, 3, RaiseRule.LAST_INCREMENT)
    True
    >>> is_full_raise(Structure.NO_LIMIT, limits, 3, RaiseRule.LAST_INCREMENT)
    False
    """
    if raise_rule is RaiseRule.DOUBLE and structure is not Structure.FIXED_LIMIT:
        return to >= (2 * limits.current_bet if limits.current_bet else limits.min_bet)
    return reopens(structure, full_raise_size(structure, limits), to - limits.current_bet)


def over_short_all_in(structure: Structure, limits: RoundLimits, to: int) -> bool:
    """Whether a bet or raise to ``to`` is one card rooms make over a short all-in (the largest bet is
    less than the whole bet it stands for: a big blind all in short, an all-in bet under the street's
    bet, in fixed-limit one between two whole bets): to the whole bet (completing it), or in
    fixed-limit one whole bet above it where the all-in was the street's first bet or raised by half a
    bet or more (it counts as a whole bet: RULINGS, TDA Rule 47). A record making one is read as
    written (a replay allows it beside ``raise_bounds``); the rules' own sizes are those.

    >>> blind = RoundLimits(current_bet=150, last_increment=250, min_bet=250)  # a big blind all in short
    >>> over_short_all_in(Structure.NO_LIMIT, blind, 250), over_short_all_in(Structure.NO_LIMIT, blind, 300)
    (True, False)
    >>> short = RoundLimits(current_bet=13, last_increment=13, min_bet=20)  # all in for 13 at a bet of 20
    >>> [over_short_all_in(Structure.FIXED_LIMIT, short, to) for to in (20, 33, 40, 60)]
    [True, False, True, False]
    >>> over_short_all_in(Structure.FIXED_LIMIT, RoundLimits(40, 20, 20), 60)  # whole bets: the rules'
    False
    >>> over_short_all_in(Structure.FIXED_LIMIT, RoundLimits(45, 20, 20), 80)  # 5 over 40: not a raise
    False
    """
    current, bet = limits.current_bet, limits.min_bet
    if bet <= 0:
        return False
    if structure is not Structure.FIXED_LIMIT:
        return current < bet and to == bet
    whole = -(-current // bet) * bet  # the all-in rounded up to whole bets
    counted = current < bet or 2 * (current - whole + bet) >= bet  # the first bet, or half a bet more
    return whole != current and (to == whole or (counted and to == whole + bet))


def blinds_of(stake: int, big_blind: int = 0) -> tuple[int, int]:
    """Betting mode's small and big blind (or ante and starting bet): half the big blind and the big blind, by
    default (``big_blind`` 0) 2% of the stack, at least 2.

    >>> blinds_of(100), blinds_of(1_000), blinds_of(100, 10)
    ((1, 2), (10, 20), (5, 10))
    """
    if big_blind and (big_blind < 2 or big_blind % 2):
        raise ValueError(f"the big blind must be an even number of chips, at least 2, not {big_blind}")
    small = big_blind // 2 if big_blind else max(1, stake // 100)
    return small, 2 * small


def ante_ratio(game: GameSpec, small: int, big: int) -> Fraction:
    """Betting mode's ante in big blinds: the description's, else none (a quarter of the big blind
    beside a bring-in, the small blind beside a starting bet).

    >>> from engine.rules.games import GAMES
    >>> ante_ratio(GAMES["holdem"], 1, 2), ante_ratio(GAMES["razz"], 5, 10)
    (Fraction(0, 1), Fraction(1, 4))
    """
    usual = Fraction(1, 4) if game.bring_in else Fraction(small, big) if game.starting_bet else Fraction(0)
    return usual if game.ante is None else game.ante


def seat_forced_bets(game: GameSpec, players: int, small: int, big: int) -> tuple[list[int], list[int]]:
    """Betting mode's antes and blinds per seat, in PHH order (heads-up, PHH lists the forced bets
    the other way round): the ante in big blinds (at least a chip; by default none, a quarter of
    the big blind beside a bring-in, the small blind beside a starting bet) and the blinds.

    >>> from engine.rules.games import GAMES
    >>> seat_forced_bets(GAMES["holdem"], 3, 1, 2), seat_forced_bets(GAMES["razz"], 2, 5, 10)
    (([0, 0, 0], [1, 2, 0]), ([2, 2], [0, 0]))
    """
    ratio = ante_ratio(game, small, big)
    ante = max(1, int(big * ratio)) if ratio > 0 else 0
    if game.bring_in or game.starting_bet or game.blinds is Blinds.NONE:
        blinds = [0] * players
    elif game.blinds is Blinds.BUTTON:  # the button (the last seat) posts the big blind alone
        blinds = [0] * (players - 1) + [big]
        if players == 2:
            blinds.reverse()
    else:
        blinds = [small, big] + [0] * (players - 2)
    return [ante] * players, blinds
