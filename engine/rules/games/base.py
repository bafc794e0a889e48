"""A game as plain data: deck, ranking, seats, streets, boards, shares, betting, options.

A ``GameSpec`` is read from a description file (``engine/variants/*.toml``, see
``engine.rules.games.description``). The state machine (``engine.rules.state``), the compiled
rules core and the statistics read it and never name a game: they ask what the game
has (a discard-trigger board, a kill rule, a low share).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.hands.cards import Deck
from engine.hands.rankings import HAND_CARDS, HOLE_USE_RANGES, hole_range  # noqa: F401 (the rules' words)
from engine.rules.pots import Pot


class Structure(StrEnum):
    """Betting structures."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class RaiseRule(StrEnum):
    """How large a no-limit raise must be."""

    LAST_INCREMENT = "last_increment"  # at least the previous bet or raise increment
    DOUBLE = "double"  # a raise at least doubles the bet it raises


@dataclass(frozen=True)
class Street:
    """One street: what is dealt at its start, then how it is bet."""

    name: str
    hole_cards: int = 0  # dealt to each player
    board_cards: int = 0  # dealt to each board
    burns: int = 0  # burned before the board cards
    betting: bool = True
    call_only: bool = False  # the only choices are call and fold (a round after a starting bet)
    big_bet: bool = False  # fixed-limit: this street uses the big bet
    hole_cards_option: str | None = None  # a rule option whose value is ``hole_cards`` (its default here)
    up_cards: int = 0  # the last ``up_cards`` of this street's hole cards are dealt face up
    opener: str = "position"  # who acts first (``Opener``)
    big_bet_on_open_pair: str | None = None  # a boolean option: on, a showing pair allows the big bet
    draw: bool = False  # after its cards, each player in turn stands pat or discards any and draws as many


class Blinds(StrEnum):
    """Who posts blinds in betting mode: the two seats left of the button (half the big blind, the
    big blind; heads-up the button posts the small one), the button alone (the big blind; the seat
    on its left acts first), or nobody (the first betting round opens left of the button)."""

    SMALL_BIG = "small-big"
    BUTTON = "button"
    NONE = "none"


class Opener(StrEnum):
    """Who acts first on a street: by position, or by the cards dealt face up (stud).

    Up cards are compared by rank, then suit (clubs, diamonds, hearts, spades, lowest first);
    showing hands by their pairs, trips and quads, then ranks (suits never count; a tie goes to
    the first seat from the left of the button)."""

    POSITION = "position"  # left of the largest blind (the button heads-up), else left of the button
    LOW_CARD = "low-card"  # the lowest up card, aces high (stud's bring-in)
    HIGH_CARD = "high-card"  # the highest up card, aces low (razz's bring-in)
    HIGH_HAND = "high-hand"  # the best showing hand, aces high (stud's later streets)
    LOW_HAND = "low-hand"  # the lowest showing hand, aces low, pairs worst (razz's later streets)


class ShortDeck(StrEnum):
    """What is dealt when the deck cannot give every live player a street's hole cards."""

    COMMUNITY_CARD = "community-card"  # one card to the community board, for everyone (stud's last card)


class BoardRole(StrEnum):
    """What a board's cards do."""

    COMMUNITY = "community"  # cards every player may use in a hand
    DISCARD_TRIGGER = "discard-trigger"  # a card here forces out every hole card of its rank


class HoleUse(StrEnum):
    """How many hole cards a hand must use."""

    ANY = "any"  # any five of hole and board cards
    AT_LEAST_ONE = "at-least-1"  # at least one hole card among the five
    EXACTLY_TWO = "exactly-2"  # exactly two hole cards and three board cards (Omaha hands)


class ShareKind(StrEnum):
    """What wins one share of a pot."""

    BEST_HIGH = "best-high"  # the best hand of the game's ranking
    LOWEST_POINTS = "lowest-points"  # the fewest points of the remaining hole cards
    BEST_LOW = "best-low"  # the best ace-to-five low at or below a qualifier (eight or better)


class KillKind(StrEnum):
    """River-kill rules."""

    LOWEST_RIVER_RANK = "lowest-river-rank"  # boards whose last card has the lowest rank die


@dataclass(frozen=True)
class Board:
    """One board: a name and a role."""

    name: str
    role: BoardRole = BoardRole.COMMUNITY


@dataclass(frozen=True)
class KillRule:
    """Which boards die at the showdown; ``all_equal``: when every last card has one rank."""

    kind: KillKind
    all_equal: str = "highest-suit-survives"  # the board with the highest suit (deck order) lives


@dataclass(frozen=True)
class Share:
    """One share of every pot.

    A pot is divided equally among its shares (a share ``per_surviving_board`` stands for
    one share per surviving board, in board order); odd chips go to the shares in order.
    ``board`` is the board a hand is made on (None: the game's only community board);
    ``across_surviving_boards``: a seat's hand is its best on any surviving board. A best-low
    share that no claimant of a pot qualifies for is no part of that pot: the other shares
    divide it (with no qualifying low, the high hand takes the whole pot). So is a best-high share
    with a qualifier (``least``: the weakest hand that qualifies, by category and top rank, Archie's
    ``("pair", "9")``) that no claimant's hand reaches; when no share of a pot is claimed, the
    game's ``unqualified`` rule divides it.
    """

    kind: ShareKind
    board: int | None = None
    per_surviving_board: bool = False
    points: tuple[int, ...] = ()  # LOWEST_POINTS: points of each rank, low to high
    across_surviving_boards: bool = False
    qualifier: int = 0  # BEST_LOW: the highest rank a low may hold, ace-to-five (8: eight or better)
    when: tuple[tuple[str, Any], ...] = ()  # the share is played only under these option values
    least: tuple[str, ...] = ()  # BEST_HIGH: (category, rank) of the weakest qualifying hand; () none


@dataclass(frozen=True)
class Bound:
    """A rule value: fixed, or read from a rule option (``values`` maps option values)."""

    fixed: Any = None
    option: str | None = None
    values: Mapping[Any, Any] = field(default_factory=dict)

    def value(self, options: Mapping[str, Any]) -> Any:
        """The value in force under ``options``.

        >>> Bound(option="strict", values={True: "at-least-1", False: "any"}).value({"strict": True})
        'at-least-1'
        """
        if self.option is None:
            return self.fixed
        chosen = options.get(self.option)
        return self.values.get(chosen, chosen) if self.values else chosen


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
    low_hand: int | None = None  # a best-low share: the best qualifying low (engine.hands.low_hands), -1 none
    won_high: int = 0
    won_low: int = 0
    board_won: tuple[int, ...] = ()
    triple_scoop: bool = False


@dataclass(frozen=True)
class ShowdownInput:
    """Everything a showdown rule needs; seats that cannot win are left out of ``contenders``."""

    pots: tuple[Pot, ...]  # each with the seats that may win it (``engine.rules.pots.claimants``)
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


@dataclass(frozen=True)
class GameSpec:
    """One game, as data (read from its description file)."""

    name: str
    title: str
    deck: Deck
    ranking: str  # a ranking of ``engine.hands.rankings.RANKINGS``
    min_players: int
    max_players: int
    streets: tuple[Street, ...]
    boards: tuple[Board, ...]
    variant_codes: Mapping[str, Structure]  # PHH variant code -> betting structure
    shares: tuple[Share, ...]
    options: tuple[RuleOption, ...] = ()
    hole_use: Bound = field(default_factory=lambda: Bound(fixed=HoleUse.ANY))
    tiebreak: Bound = field(default_factory=lambda: Bound(fixed="highest_card"))
    category_order: Bound = field(default_factory=Bound)  # each category's place; None: the ranking's
    kill: KillRule | None = None
    structure: Structure = Structure.NO_LIMIT  # the betting structure played unless another is asked for
    raise_rule: RaiseRule = RaiseRule.LAST_INCREMENT
    max_raises_option: str | None = None  # option that caps raises per betting round
    burns_option: str | None = None  # option that turns burns on; None: burns always
    starting_bet: bool = False  # seat 0 posts a forced starting bet (field ``_starting_bet``)
    extra_fields: tuple[str, ...] = field(default=())  # ``_`` PHH fields this game reads
    bring_in: bool = (
        False  # the first street's opener posts a bring-in (PHH ``bring_in``, ``pb``) or completes
    )
    deck_runs_short: ShortDeck | None = None  # what a street deals when the deck runs short (None: never)
    unqualified: str = "split"  # no share of a pot qualified: "split" among its claimants holding hands,
    # or "best-high" (its high shares played without their qualifier)
    blinds: Blinds = Blinds.SMALL_BIG  # betting mode's blinds (a bring-in or starting-bet game: none)
    ante: Fraction | None = None  # every seat's ante in big blinds (None: the game's usual, docs/variants.md)
    compiled_gaps: tuple[str, ...] = ()  # what the compiled core cannot play of this game yet (empty: all)
    betting_gaps: tuple[str, ...] = ()  # and besides in betting mode (the compiled replay's: replay_gaps)
    description: str = ""  # a sentence or two for people
    source: str = ""  # the description file
    derived_from: str = ""  # the game this one was made from (its name), for comparing the two

    @property
    def board_names(self) -> tuple[str, ...]:
        """Names of the boards, in deal order."""
        return tuple(board.name for board in self.boards)

    @property
    def discard_board(self) -> int | None:
        """Index of the board whose cards force matching hole cards out, if the game has one."""
        return next((i for i, b in enumerate(self.boards) if b.role == BoardRole.DISCARD_TRIGGER), None)

    @property
    def community_boards(self) -> tuple[int, ...]:
        """Indices of the boards whose cards make hands."""
        return tuple(i for i, b in enumerate(self.boards) if b.role == BoardRole.COMMUNITY)

    @property
    def low_share(self) -> bool:
        """Whether some share goes to the fewest low points."""
        return any(share.kind == ShareKind.LOWEST_POINTS for share in self.shares_under())

    def shares_under(self, options: Mapping[str, Any] | None = None) -> tuple[Share, ...]:
        """The shares in force under ``options`` (defaults filled in): those whose ``when`` holds."""
        if not any(share.when for share in self.shares):
            return self.shares
        values = self.resolve_options(options)
        return tuple(s for s in self.shares if all(values.get(k) == v for k, v in s.when))

    def under(self, options: Mapping[str, Any] | None = None) -> GameSpec:
        """The game as played under ``options``: its shares are those in force (``shares_under``).

        The share facts below (``low_share``, ``board_shares``...) read the default options'
        shares; code that plays or counts hands of given options asks ``under(options)`` first.
        """
        shares = self.shares_under(options)
        if shares is self.shares:
            return self
        return replace(self, shares=tuple(replace(share, when=()) for share in shares))

    @property
    def low_half(self) -> bool:
        """Whether some share goes to a low (points or a low hand): chips of the high and low halves apart."""
        return self.low_share or self.low_hands

    @property
    def low_hands(self) -> bool:
        """Whether some share goes to the best ace-to-five low (a low hand of five cards)."""
        return any(share.kind == ShareKind.BEST_LOW for share in self.shares_under())

    @property
    def board_shares(self) -> bool:
        """Whether boards take shares of their own (each surviving board, or several named boards).

        Such a game records what each seat won on each board, and whether one player alone
        held the best hand on every board (a triple scoop on three boards).
        """
        shares = self.shares_under()
        named = {share.board for share in shares if share.kind == ShareKind.BEST_HIGH}
        return any(share.per_surviving_board for share in shares) or len(named - {None}) > 1

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

    def category_places(self, options: Mapping[str, Any] | None = None) -> tuple[int, ...] | None:
        """Each hand category's place in the game's order under ``options``, weakest 0 (None: the
        ranking's own order)."""
        if self.category_order.option is None:
            return self.category_order.fixed
        return self.category_order.value(self.resolve_options(options))

    def streets_under(self, options: Mapping[str, Any] | None = None) -> tuple[Street, ...]:
        """The streets as dealt under ``options``: hole-card counts bound to an option take its value.

        >>> from engine.rules.games import GAMES
        >>> GAMES["holdem"].streets_under({}) == GAMES["holdem"].streets
        True
        """
        if not any(street.hole_cards_option for street in self.streets):
            return self.streets
        values = self.resolve_options(options)
        return tuple(
            replace(street, hole_cards=int(values[street.hole_cards_option]))
            if street.hole_cards_option
            else street
            for street in self.streets
        )

    @property
    def forced_street(self) -> int:
        """The street whose betting round the forced bets belong to: the first with betting (streets
        before it only deal, like Courchevel's first board card); the number of streets when none bets.

        >>> from engine.rules.games import GAMES
        >>> GAMES["holdem"].forced_street
        0
        """
        return next((i for i, s in enumerate(self.streets) if s.betting), len(self.streets))

    @property
    def draws(self) -> bool:
        """Whether some street has a draw (players choose cards to discard and draw as many)."""
        return any(street.draw for street in self.streets)

    @property
    def hole_cards_alone(self) -> bool:
        """A draw game dealing no board cards: a hand is the hole cards a player drew to."""
        return self.draws and not any(street.board_cards for street in self.streets)

    def burns(self, street: Street, options: Mapping[str, Any]) -> int:
        """Cards burned before this street's board cards under these options."""
        if self.burns_option is not None and not options.get(self.burns_option, False):
            return 0
        return street.burns
