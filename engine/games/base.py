"""A game described as plain data: deck, seats, streets, betting, options, showdown.

The state machine (``engine.state``) reads a ``GameSpec`` and never names a
game; each game module in ``engine.games`` defines one spec and its showdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.cards import Deck
from engine.pots import Pot


class Structure(StrEnum):
    """Betting structures."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class RaiseRule(StrEnum):
    """How large a no-limit raise must be."""

    LAST_INCREMENT = "last_increment"  # hold'em: at least the previous bet or raise increment
    DOUBLE = "double"  # Skœjarth: a raise at least doubles the bet it raises


@dataclass(frozen=True)
class Street:
    """One street: what is dealt at its start, then how it is bet."""

    name: str
    hole_cards: int = 0  # dealt to each player
    board_cards: int = 0  # dealt to each board
    burns: int = 0  # burned before the board cards
    betting: bool = True
    call_only: bool = False  # the only choices are call and fold (Skœjarth's first round)
    big_bet: bool = False  # fixed-limit: this street uses the big bet


@dataclass(frozen=True)
class RuleOption:
    """A named rule option of a game, with its default and allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str

    def parse(self, text: str) -> Any:
        """A value from command-line text (``on``/``off`` for booleans, ints for ints)."""
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in ("on", "true", "1", "yes"):
                return True
            if lowered in ("off", "false", "0", "no"):
                return False
        elif isinstance(self.default, int):
            try:
                value: Any = int(text)
            except ValueError:
                value = text
            if value in self.choices:
                return value
        elif text in self.choices:
            return text
        allowed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        raise ValueError(f"option {self.name}: {text!r} is not one of {allowed}")


@dataclass(frozen=True)
class SeatOutcome:
    """What the showdown says of one seat, beyond its chips."""

    high_category: str | None = None
    high_strength: int | None = None
    low_points: int | None = None
    won_high: int = 0
    won_low: int = 0
    board_won: tuple[int, ...] = ()
    triple_scoop: bool = False


@dataclass(frozen=True)
class ShowdownInput:
    """Everything a showdown rule needs; seats that cannot win are left out of ``contenders``."""

    pots: tuple[Pot, ...]  # each with the seats that may win it (``engine.pots.claimants``)
    hole_cards: tuple[tuple[int, ...], ...]  # remaining hole cards per seat
    boards: tuple[tuple[int, ...], ...]
    contenders: frozenset[int]  # seats that showed a live hand
    options: Mapping[str, Any]


@dataclass(frozen=True)
class ShowdownResult:
    """Chips won by each seat, the surviving boards, and per-seat facts."""

    won: tuple[int, ...]
    outcomes: tuple[SeatOutcome, ...]
    surviving_boards: tuple[int, ...]
    split: bool = False  # some pot or share was divided among tied hands


ShowdownRule = Callable[[ShowdownInput], ShowdownResult]


@dataclass(frozen=True)
class GameSpec:
    """One game, as data."""

    name: str
    title: str
    deck: Deck
    min_players: int
    max_players: int
    streets: tuple[Street, ...]
    board_names: tuple[str, ...]
    variant_codes: Mapping[str, Structure]  # PHH variant code -> betting structure
    showdown: ShowdownRule
    options: tuple[RuleOption, ...] = ()
    raise_rule: RaiseRule = RaiseRule.LAST_INCREMENT
    max_raises_option: str | None = None  # option that caps raises per betting round
    burns_option: str | None = None  # option that turns burns on; None: burns always
    starting_bet: bool = False  # seat 0 posts a forced starting bet (field ``_starting_bet``)
    discard_board: int | None = None  # board whose cards force matching hole cards out
    extra_fields: tuple[str, ...] = field(default=())  # ``_`` PHH fields this game reads

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The options in force: defaults overridden by ``given``; unknown names are errors."""
        values = {option.name: option.default for option in self.options}
        for name, value in (given or {}).items():
            option = next((o for o in self.options if o.name == name), None)
            if option is None:
                known = ", ".join(values) or "none"
                raise ValueError(f"{self.title} has no rule option {name!r} (options: {known})")
            if value not in option.choices:
                raise ValueError(f"option {name}: {value!r} is not one of {option.choices}")
            values[name] = value
        return values

    def burns(self, street: Street, options: Mapping[str, Any]) -> int:
        """Cards burned before this street's board cards under these options."""
        if self.burns_option is not None and not options.get(self.burns_option, False):
            return 0
        return street.burns
