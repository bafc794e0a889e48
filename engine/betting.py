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

from dataclasses import dataclass

from engine.games.base import RaiseRule, Structure


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


def is_full_raise(structure: Structure, limits: RoundLimits, to: int, raise_rule: RaiseRule) -> bool:
    """Whether a bet or raise to ``to`` is large enough to reopen the betting."""
    if structure is Structure.FIXED_LIMIT:
        return to >= limits.current_bet + limits.min_bet
    if raise_rule is RaiseRule.DOUBLE:
        return to >= (2 * limits.current_bet if limits.current_bet else limits.min_bet)
    return to - limits.current_bet >= max(limits.last_increment, limits.min_bet)
