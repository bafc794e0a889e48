"""Read a game's description file (TOML) into a ``GameSpec``, with one clear line per problem.

The format is documented in ``docs/variants.md``; the built-in games are the files in
``engine/variants/``.

>>> spec = load_description(VARIANTS_DIR / "holdem.toml")
>>> spec.title, spec.min_players, spec.max_players, spec.board_names
("Hold'em", 2, 10, ('board',))
>>> card_budget(spec)
(10, 2, 5, 1, 28, True)
>>> budget_line(spec)
'10 players x 2 hole cards + 5 board cards + 3 burns = 28: fits the 52-card deck'
"""

from __future__ import annotations

import difflib
import itertools
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.hands.cards import DECKS, Deck
from engine.hands.rankings import RANKINGS, Ranking, check_category_order
from engine.rules.games.base import (
    Blinds,
    Board,
    BoardRole,
    Bound,
    GameSpec,
    HoleUse,
    KillKind,
    KillRule,
    Opener,
    RaiseRule,
    RuleOption,
    Share,
    ShareKind,
    ShortDeck,
    Street,
    Structure,
    hole_range,
)

STANDARD_SUITS = "cdhs"
VARIANTS_DIR = Path(__file__).resolve().parents[2] / "variants"
MAX_SEATS = 10  # the compiled core's seat limit
MAX_HOLE = 6  # hole cards per seat the showdown-mode statistics count (discards, low points)
MAX_REPLAY_HOLE = 7  # hole cards a seat holds in betting mode and the replay (hand_state.MAX_CARDS)
MAX_BOARD = 5  # cards per board the compiled core holds
MAX_BOARDS_DEALT = 3  # boards the compiled core holds
STREET_SLOTS = 8  # streets after the deal whose forced discards the compiled core counts
MAX_POINTS = 10  # low points of one card

TOP_KEYS = {
    "name", "title", "description", "deck", "ranking", "players", "phh_codes", "structure", "hole_use",
    "tiebreak", "burns_option", "boards", "streets", "shares", "kill", "betting", "options", "category_order",
    "deck_runs_short", "derived_from", "unqualified",
}  # fmt: skip
STREET_KEYS = {
    "name", "hole_cards", "board_cards", "burns", "betting", "call_only", "big_bet", "up_cards", "opener",
    "big_bet_on_open_pair", "draw",
}  # fmt: skip
UNQUALIFIED = ["best-high", "split"]  # when no share of a pot qualified (docs/variants.md)
SHARE_KEYS = {"wins", "board", "each", "over", "points", "qualifier", "when"}
BETTING_KEYS = {
    "raise_rule", "max_raises_option", "starting_bet", "extra_fields", "bring_in", "blinds", "ante",
}  # fmt: skip
OPTION_KEYS = {"default", "choices", "help"}


class DescriptionError(ValueError):
    """A description that does not make a playable game; ``problems`` has one line each."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))


def nearest(word: str, known: set[str]) -> str:
    """``did you mean 'X'? `` for the known word nearest a misspelt one ('' when none is near).

    >>> nearest("hole_card", {"hole_cards", "board_cards"}), nearest("antes", {"ante", "blinds"})
    ("did you mean 'hole_cards'? ", "did you mean 'ante'? ")
    >>> nearest("colour", {"ante", "blinds"})
    ''

    """
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    close = close or [k for k in sorted(known) if len(k) >= 4 and (k in word or word in k)][:1]
    return f"did you mean {close[0]!r}? " if close else ""


class _Reader:
    """Collects problems while turning TOML tables into concepts."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, text: str) -> None:
        self.problems.append(text)

    def keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        for key in sorted(set(table) - allowed):
            self.fail(
                f"{where}: unknown key {key!r} ({nearest(key, allowed)}known: {', '.join(sorted(allowed))})"
            )

    def integer(self, table: Mapping[str, Any], key: str, where: str, default: int = 0, low: int = 0) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.fail(f"{where}: {key} must be a whole number of at least {low}, not {value!r}")
            return default
        return value

    def choice(self, value: Any, allowed: list[str], what: str) -> str | None:
        if value not in allowed:
            self.fail(f"{what} {value!r} is not one of {', '.join(allowed)}")
            return None
        return value


DECK_KEYS = {"ranks", "suits", "name", "suit_names", "suit_glyphs"}


def _deck(r: _Reader, value: Any) -> Deck:
    """A named deck (``standard``, ``short``), or one by its ranks, low to high, and suits:
    ``{ ranks = "TJQKA" }`` (suits ``cdhs`` unless given; four, as the compiled core holds), with
    its name, its suits' names and how a screen draws each suit (``suit_glyphs``: a symbol and a
    colour each) if it likes.

    >>> deck = _deck(_Reader(), {"ranks": "TJQKA"})
    >>> deck.size, deck.name, deck.card_id("As"), _deck(_Reader(), {"ranks": "6789TJQKA"}) is DECKS["short"]
    (20, '20-card TJQKA', 19, True)
    """
    if isinstance(value, str):
        return DECKS.get(r.choice(value, sorted(DECKS), "deck") or "standard", DECKS["standard"])
    if not isinstance(value, dict) or not isinstance(value.get("ranks"), str):
        r.fail(
            'deck: give a named deck or { ranks = "TJQKA" } (ranks low to high, suits "cdhs" unless given)'
        )
        return DECKS["standard"]
    r.keys(value, DECK_KEYS, "deck")
    ranks, suits = value["ranks"], str(value.get("suits", STANDARD_SUITS))
    if len(set(ranks)) != len(ranks) or len(ranks) < 2 or len(set(suits)) != 4 or len(suits) != 4:
        r.fail(f"deck: ranks {ranks!r} and suits {suits!r}: distinct letters, two ranks or more, four suits")
        return DECKS["standard"]
    named = next((d for d in DECKS.values() if (d.ranks, d.suits) == (ranks, suits)), None)
    if named is not None:
        return named
    standard = DECKS["standard"]
    names = tuple(value.get("suit_names", standard.suit_names if suits == standard.suits else tuple(suits)))
    glyphs = standard.suit_glyphs if suits == standard.suits else ()
    if "suit_glyphs" in value:
        glyphs = _glyphs(r, value["suit_glyphs"])
    if len(names) != 4:
        r.fail(f"deck: suit_names must name the four suits, {suits!r} in order")
    return Deck(str(value.get("name", f"{len(ranks) * 4}-card {ranks}")), ranks, suits, names, glyphs)


def _glyphs(r: _Reader, value: Any) -> tuple[tuple[str, str], ...]:
    """Four ``[symbol, colour]`` pairs, one a suit, in the deck's suit order."""
    pairs = value if isinstance(value, list) else []
    if len(pairs) != 4 or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                  for p in pairs):  # fmt: skip
        r.fail('deck: suit_glyphs gives four [symbol, colour] pairs, e.g. ["♣", "#1b7f3b"]')
        return ()
    return tuple((symbol, colour) for symbol, colour in pairs)


def _options(r: _Reader, table: Any) -> tuple[RuleOption, ...]:
    if not isinstance(table, dict):
        r.fail("[options] must be a table of options")
        return ()
    options = []
    for name, spec in table.items():
        if not isinstance(spec, dict) or "default" not in spec:
            r.fail(f"option {name}: needs a default")
            continue
        r.keys(spec, OPTION_KEYS, f"option {name}")
        default = spec["default"]
        choices = tuple(spec.get("choices", (False, True) if isinstance(default, bool) else (default,)))
        if default not in choices:
            r.fail(f"option {name}: default {default!r} is not among its choices {list(choices)}")
        options.append(RuleOption(name, default, choices, str(spec.get("help", ""))))
    return tuple(options)


def _bound(r: _Reader, value: Any, where: str, allowed: list[str], options: dict[str, RuleOption]) -> Bound:
    """A fixed value, or ``{option = ..., on = ..., off = ...}`` / ``{option = ..., values = {...}}``."""
    if isinstance(value, str):
        r.choice(value, allowed, where)
        return Bound(fixed=value)
    if not isinstance(value, dict) or "option" not in value:
        r.fail(f"{where}: give a value or {{ option = ..., on = ..., off = ... }}")
        return Bound(fixed=allowed[0])
    name = value["option"]
    if name not in options:
        r.fail(f"{where}: option {name!r} is not defined under [options]")
        return Bound(fixed=allowed[0])
    if "on" in value or "off" in value:
        values = {True: value.get("on"), False: value.get("off")}
    else:
        values = dict(value.get("values", {}))
    for chosen in values.values() if values else options[name].choices:
        r.choice(chosen, allowed, where)
    return Bound(option=name, values=values)


def _category_order(r: _Reader, value: Any, ranking: Ranking | None, options: dict[str, RuleOption]) -> Bound:
    """``category_order``: the categories weakest first, or ``{ option = ..., on = [...], off = [...] }``."""
    if value is None or ranking is None:
        return Bound()

    def places(names: Any, where: str) -> tuple[int, ...] | None:
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            r.fail(f"{where}: give the category names, weakest first, as a list")
            return None
        chosen, problem = check_category_order(ranking, names)
        if problem:
            r.fail(f"{where}: {problem}")
        return chosen

    if isinstance(value, list):
        return Bound(fixed=places(value, "category_order"))
    name = value.get("option") if isinstance(value, dict) else None
    if name not in options:
        r.fail("category_order: give a list, or { option = NAME, on = [...], off = [...] } with NAME under "
               "[options]")  # fmt: skip
        return Bound()
    r.keys(value, {"option", "on", "off", "values"}, "category_order")
    if "values" in value:
        given = dict(value["values"])
    else:
        given = {key: value[word] for key, word in ((True, "on"), (False, "off")) if word in value}
    missing = [c for c in options[name].choices if c not in given]
    if missing:
        r.fail(f"category_order: no order for option {name} = {missing[0]!r}")
    return Bound(option=name, values={key: places(names, f"category_order ({name} = {key})")
                                      for key, names in given.items()})  # fmt: skip


def _streets(r: _Reader, table: Any, by_name: dict[str, RuleOption]) -> tuple[Street, ...]:
    if not isinstance(table, list) or not table:
        r.fail("[[streets]]: at least one street is needed")
        return ()
    streets = []
    for i, spec in enumerate(table, 1):
        where = f"street {i} ({spec.get('name', '?')})" if isinstance(spec, dict) else f"street {i}"
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            r.fail(f"{where}: needs a name")
            continue
        r.keys(spec, STREET_KEYS, where)
        flags = {key: bool(spec.get(key, default)) for key, default in
                 (("betting", True), ("call_only", False), ("big_bet", False), ("draw", False))}  # fmt: skip
        bound = spec.get("hole_cards")
        option = None
        if isinstance(bound, dict):  # hole_cards = { option = "hole_cards" }: the option's value
            option = _hole_cards_option(r, bound, by_name, where)
            spec = spec | {"hole_cards": by_name[option].default if option else 0}
        counts = [r.integer(spec, key, where) for key in ("hole_cards", "board_cards", "burns")]
        streets.append(Street(spec["name"], *counts, **flags, hole_cards_option=option,
                              **_face_up(r, spec, counts[0], by_name, where)))  # fmt: skip
    if streets and streets[0].hole_cards == 0:
        r.fail(f"street 1 ({streets[0].name}) deals no hole cards")
    if len({s.name for s in streets}) != len(streets):
        r.fail("street names must differ")
    return tuple(streets)


def _face_up(r: _Reader, spec: dict, hole_cards: int, by_name: dict[str, RuleOption], where: str) -> dict:
    """A street's up cards (at most its hole cards), opener and open-pair option."""
    up = r.integer(spec, "up_cards", where)
    if up > hole_cards:
        r.fail(f"{where}: up_cards {up} is more than its {hole_cards} hole card(s)")
    opener = r.choice(spec.get("opener", "position"), [o.value for o in Opener], f"{where}: opener")
    pair_option = spec.get("big_bet_on_open_pair")
    boolean = pair_option in by_name and by_name[pair_option].choices == (False, True)
    if pair_option is not None and not boolean:
        r.fail(f"{where}: big_bet_on_open_pair names a boolean option defined under [options]")
    return {"up_cards": min(up, hole_cards), "opener": Opener(opener or "position"),
            "big_bet_on_open_pair": pair_option}  # fmt: skip


def _check_openers(r: _Reader, spec: GameSpec) -> None:
    """An opener by up cards needs up cards dealt by its street; a bring-in needs one on the first."""
    up = 0
    for street in spec.streets:
        up += street.up_cards
        if street.opener != Opener.POSITION and up == 0:
            r.fail(f"street {street.name}: opener {street.opener.value} needs up cards dealt by then")
    first = spec.streets[0] if spec.streets else None
    if spec.bring_in and (first is None or first.opener not in (Opener.LOW_CARD, Opener.HIGH_CARD)):
        r.fail("[betting] bring_in needs the first street's opener to be low-card or high-card")
    if spec.bring_in and (spec.starting_bet or (first is not None and not first.betting)):
        r.fail("[betting] bring_in needs a betting first street and no starting bet")


def _hole_cards_option(r: _Reader, bound: dict, by_name: dict[str, RuleOption], where: str) -> str | None:
    """The option a street's hole-card count is bound to, if it exists and its choices are counts."""
    name = bound.get("option")
    if set(bound) != {"option"} or name not in by_name:
        r.fail(f"{where}: hole_cards = {{ option = NAME }} needs an option defined under [options]")
        return None
    if not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in by_name[name].choices):
        r.fail(f"{where}: option {name} gives hole_cards, so its choices must be positive whole numbers")
        return None
    return name


def _boards(r: _Reader, table: Any) -> tuple[Board, ...]:
    if not isinstance(table, list) or not table:
        r.fail("[[boards]]: at least one board is needed")
        return ()
    boards = []
    for i, spec in enumerate(table, 1):
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            r.fail(f"board {i}: needs a name")
            continue
        r.keys(spec, {"name", "role"}, f"board {i} ({spec['name']})")
        role = r.choice(
            spec.get("role", "community"), [b.value for b in BoardRole], f"board {spec['name']}: role"
        )
        boards.append(Board(spec["name"], BoardRole(role or "community")))
    if not any(b.role == BoardRole.COMMUNITY for b in boards):
        r.fail("no board has role 'community': no hand could be made")
    if len(boards) > MAX_BOARDS_DEALT:
        r.fail(f"{len(boards)} boards: the compiled core holds at most {MAX_BOARDS_DEALT}")
    if sum(b.role == BoardRole.DISCARD_TRIGGER for b in boards) > 1:
        r.fail("at most one board may have role 'discard-trigger'")
    if len({b.name for b in boards}) != len(boards):
        r.fail("board names must differ")
    return tuple(boards)


def _shares(r: _Reader, table: Any, boards: tuple[Board, ...], deck_ranks: str,
            ranking: Ranking | None = None) -> tuple[Share, ...]:  # fmt: skip
    if not isinstance(table, list) or not table:
        r.fail("[[shares]]: at least one share is needed (what wins the pot)")
        return ()
    names = {b.name: i for i, b in enumerate(boards) if b.role == BoardRole.COMMUNITY}
    shares = []
    for i, spec in enumerate(table, 1):
        where = f"share {i}"
        if not isinstance(spec, dict):
            r.fail(f"{where}: must be a table")
            continue
        r.keys(spec, SHARE_KEYS, where)
        kind = r.choice(spec.get("wins"), [k.value for k in ShareKind], f"{where}: wins")
        board = spec.get("board")
        if board is not None and board not in names:
            r.fail(f"{where}: board {board!r} is not a community board ({', '.join(names)})")
        each, over = spec.get("each"), spec.get("over")
        if each is not None:
            r.choice(each, ["surviving-board"], f"{where}: each")
        if over is not None:
            r.choice(over, ["surviving-boards"], f"{where}: over")
        if sum(x is not None for x in (board, each, over)) > 1:
            r.fail(f"{where}: give one of board, each and over")
        if kind == ShareKind.LOWEST_POINTS and (board is not None or each is not None or over is not None):
            r.fail(f"{where}: a lowest-points share counts hole cards: it takes no board, each or over")
        placed = board is not None or each is not None or over is not None
        if not placed and len(names) > 1 and kind != ShareKind.LOWEST_POINTS:
            r.fail(f"{where}: say which board (board = ...), each = 'surviving-board' or "
                   "over = 'surviving-boards'")  # fmt: skip
        points: tuple[int, ...] = ()
        if kind == ShareKind.LOWEST_POINTS:
            given = spec.get("points", {})
            missing = [rank for rank in deck_ranks if rank not in given]
            if missing:
                r.fail(f"{where}: points needs a value for every rank; missing {' '.join(missing)}")
            points = tuple(given.get(rank, 0) for rank in deck_ranks)
            if any(type(p) is not int or not 0 <= p <= MAX_POINTS for p in points):
                r.fail(f"{where}: points must be whole numbers from 0 to {MAX_POINTS}")
                points = tuple(0 for _ in deck_ranks)
        qualifier = spec.get("qualifier", 8 if kind == ShareKind.BEST_LOW else None)
        least: tuple[str, ...] = ()
        if qualifier is not None and kind in (None, ShareKind.BEST_HIGH):
            least = _least(r, qualifier, where, ranking, deck_ranks)
        elif qualifier is not None and kind != ShareKind.BEST_LOW:
            r.fail(f"{where}: a qualifier is for a best-high or a best-low share")
        elif kind == ShareKind.BEST_LOW and (type(qualifier) is not int or not 5 <= qualifier <= 13):
            r.fail(f"{where}: qualifier is the highest rank of a low, 5 to 13 (8: eight or better)")
        when = spec.get("when", {})
        if not isinstance(when, dict) or ("when" in spec and not when):
            r.fail(f"{where}: when is a table of option values, e.g. when = {{ showdown = 'per_board' }}")
            when = {}
        shares.append(Share(ShareKind(kind or "best-high"), names.get(board), each is not None, points,
                            over is not None, qualifier if kind == ShareKind.BEST_LOW else 0,
                            tuple(sorted(when.items())), least))  # fmt: skip
    return tuple(shares)


def _least(r: _Reader, value: Any, where: str, ranking: Ranking | None, deck_ranks: str) -> tuple[str, ...]:
    """A best-high share's qualifier: ``{ category = "pair", rank = "9" }`` (the weakest hand that
    qualifies: that category with that top rank; rank left out, the deck's lowest)."""
    example = '{ category = "pair", rank = "9" }'
    if not isinstance(value, dict) or not isinstance(value.get("category"), str):
        r.fail(f"{where}: a best-high share's qualifier is the weakest hand that qualifies, e.g. {example}")
        return ()
    r.keys(value, {"category", "rank"}, f"{where}: qualifier")
    if ranking is None or not ranking.orderable:
        r.fail(f"{where}: a best-high qualifier needs the standard-high ranking")
        return ()
    category, rank = value["category"], str(value.get("rank", deck_ranks[0]))
    if category not in ranking.categories:
        r.fail(f"{where}: qualifier category {category!r} is not one of {', '.join(ranking.categories)}")
        return ()
    if rank not in deck_ranks:
        r.fail(f"{where}: qualifier rank {rank!r} is not a rank of the deck ({deck_ranks})")
        return ()
    return (category, rank)


def _betting(r: _Reader, table: Any, options: dict[str, RuleOption]) -> dict[str, Any]:
    if not isinstance(table, dict):
        r.fail("[betting] must be a table")
        return {}
    r.keys(table, BETTING_KEYS, "[betting]")
    rule = r.choice(table.get("raise_rule", "last_increment"), [x.value for x in RaiseRule], "raise_rule")
    cap = table.get("max_raises_option")
    if cap is not None and cap not in options:
        r.fail(f"[betting]: max_raises_option {cap!r} is not defined under [options]")
    return {
        "raise_rule": RaiseRule(rule or "last_increment"),
        "max_raises_option": cap,
        "starting_bet": bool(table.get("starting_bet", False)),
        "extra_fields": tuple(table.get("extra_fields", ())),
        "bring_in": bool(table.get("bring_in", False)),
        **_forced_bets(r, table),
    }


def _forced_bets(r: _Reader, table: dict) -> dict[str, Any]:
    """``blinds`` and ``ante`` of ``[betting]``: who posts blinds in betting mode, and every seat's
    ante in big blinds (a number or a fraction ``"1/4"``).

    >>> _forced_bets(_Reader(), {"blinds": "none", "ante": "1/4"})
    {'blinds': <Blinds.NONE: 'none'>, 'ante': Fraction(1, 4)}
    """
    chosen = {}
    if "blinds" in table:
        if table.get("bring_in") or table.get("starting_bet"):
            r.fail("[betting]: a game with a bring-in or a starting bet posts no blinds (leave out blinds)")
        blinds = r.choice(table["blinds"], [b.value for b in Blinds], "[betting] blinds")
        chosen["blinds"] = Blinds(blinds or Blinds.SMALL_BIG)
    if "ante" in table:
        value = table["ante"]
        try:
            ante = Fraction(str(value)) if not isinstance(value, bool) else None
        except (ValueError, ZeroDivisionError):
            ante = None
        if ante is None or ante < 0 or ante > 100:
            r.fail(f'[betting]: ante is big blinds a seat antes (0 to 100: 0.25, "1/4"), not {value!r}')
        else:
            chosen["ante"] = ante
    return chosen


def _canonical_use(value: Any) -> Any:
    """A hole-card range said the usual way (``at-least-0`` is ``any``, ``exactly-2`` Omaha's).

    >>> _canonical_use("at-most-5"), _canonical_use("at-least-2"), _canonical_use({"option": "x"})
    ('any', 'at-least-2', {'option': 'x'})
    """
    usual = {(0, 5): HoleUse.ANY.value, (1, 5): HoleUse.AT_LEAST_ONE.value, (2, 2): HoleUse.EXACTLY_TWO.value}
    try:
        return usual.get(hole_range(value), value) if isinstance(value, str) else value
    except ValueError:
        return value


def _players(r: _Reader, value: Any) -> tuple[int, int]:
    ok = isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
    if not ok or not 2 <= value[0] <= value[1] <= MAX_SEATS:
        r.fail(f"players must be [fewest, most] with 2 <= fewest <= most <= {MAX_SEATS}, not {value!r}")
        return 2, 2
    return value[0], value[1]


def parse_description(data: Mapping[str, Any], source: str = "<description>") -> GameSpec:
    """A ``GameSpec`` from a parsed description; ``DescriptionError`` lists every problem."""
    r = _Reader()
    r.keys(data, TOP_KEYS, "description")
    for key in sorted(set(data) - TOP_KEYS):  # a key that belongs to a table of its own
        if hint := nearest(key, BETTING_KEYS):
            r.fail(f"description: {key!r} is not a top-level key: {hint.strip()} under [betting]")
    for key in ("name", "title", "deck", "ranking", "players", "phh_codes", "boards", "streets", "shares"):
        if key not in data:
            r.fail(f"missing {key!r}")
    deck = _deck(r, data.get("deck", "standard"))
    ranking = RANKINGS.get(data.get("ranking", ""))
    if ranking is None:
        r.fail(f"ranking {data.get('ranking')!r} is not one of {', '.join(RANKINGS)}")
    elif not ranking.ranks_deck(deck):
        r.fail(
            f"ranking {ranking.name} ranks {ranking.decks_ranked}, not the {deck.size}-card {deck.ranks} deck"
        )
    options = _options(r, data.get("options", {}))
    by_name = {o.name: o for o in options}
    boards = _boards(r, data.get("boards"))
    low, high = _players(r, data.get("players"))
    codes = {}
    for code, structure in dict(data.get("phh_codes", {})).items():
        if r.choice(structure, [s.value for s in Structure], f"phh code {code}: structure"):
            codes[code] = Structure(structure)
    played = sorted({s.value for s in codes.values()})
    default = Structure.NO_LIMIT.value if Structure.NO_LIMIT.value in played or not played else played[0]
    chosen = r.choice(data.get("structure", default), played or [default], "structure")
    structure = Structure(chosen or default)
    kill = None
    if "kill" in data:
        kill_spec = dict(data["kill"])
        rule = r.choice(kill_spec.get("rule"), [k.value for k in KillKind], "kill rule")
        r.choice(
            kill_spec.get("all_equal", "highest-suit-survives"), ["highest-suit-survives"], "kill all_equal"
        )
        kill = KillRule(KillKind(rule or "lowest-river-rank"))
        if sum(b.role == BoardRole.COMMUNITY for b in boards) < 2:
            r.fail("a kill rule needs at least two community boards")
    hole_uses = list(ranking.hole_uses) if ranking else [h.value for h in HoleUse]
    tiebreaks = list(ranking.tiebreaks) if ranking else ["highest_card"]
    burns_option = data.get("burns_option")
    if burns_option is not None and burns_option not in by_name:
        r.fail(f"burns_option {burns_option!r} is not defined under [options]")
    spec = GameSpec(
        name=str(data.get("name", "")),
        title=str(data.get("title", data.get("name", ""))),
        deck=deck,
        ranking=ranking.name if ranking else "standard-high",
        min_players=low,
        max_players=high,
        streets=_streets(r, data.get("streets"), by_name),
        boards=boards,
        variant_codes=codes,
        shares=_shares(r, data.get("shares"), boards, deck.ranks, ranking),
        unqualified=r.choice(data.get("unqualified", "split"), UNQUALIFIED, "unqualified") or "split",
        options=options,
        hole_use=_bound(r, _canonical_use(data.get("hole_use", "any")), "hole_use", hole_uses, by_name),
        tiebreak=_bound(r, data.get("tiebreak", tiebreaks[0]), "tiebreak", tiebreaks, by_name),
        category_order=_category_order(r, data.get("category_order"), ranking, by_name),
        kill=kill,
        structure=structure,
        burns_option=burns_option,
        deck_runs_short=_deck_runs_short(r, data.get("deck_runs_short")),
        description=str(data.get("description", "")),
        source=source,
        derived_from=str(data.get("derived_from", "")),
        **_betting(r, data.get("betting", {}), by_name),
    )
    _check_share_options(r, spec)
    _check_openers(r, spec)
    for values in share_option_sets(spec):  # every rule set's shares within the core's limits
        _check_budget(r, spec.under(values))
    if r.problems:
        raise DescriptionError(source, list(dict.fromkeys(r.problems)))
    showdown, betting = compiled_gaps(spec)
    return replace(
        spec, compiled_gaps=showdown, betting_gaps=betting, options=spec.options + _draw_option(spec)
    )


def _draw_option(spec: GameSpec) -> tuple[RuleOption, ...]:
    """A draw game's drawing policy in simulation, as a rule option (engine.rules.draw_policy): the
    standard rules, or (where a hand is five or fewer hole cards and no board) the sampled one."""
    if not spec.draws or any(o.name == "draw_policy" for o in spec.options):
        return ()
    hole = card_budget(spec)[1]
    boardless = not any(street.board_cards for street in spec.streets)
    sampled = boardless and hole <= 5 and spec.deck.size == 52  # (its reference ranks the standard deck)
    sampled = sampled and not (spec.low_hands and not RANKINGS[spec.ranking].lowball)  # (it scores one)
    choices = ("standard", "sampled") if sampled else ("standard",)
    keeps = (
        (
            "keep pairs or better, else draw to four of a suit or an open-ended straight, else keep the "
            "highest card"
        )
        if not RANKINGS[spec.ranking].lowball
        else "keep the best low, draw to it"
    )
    if spec.low_hands and not RANKINGS[spec.ranking].lowball:
        keeps = ("pat on a straight or better or a made low; high on two pair or a pair of nines or better; "
                 "low on three low cards or more; else the high rules")  # fmt: skip
    other = " or sampled (each discard tried on sampled draws, the best on average kept)" if sampled else ""
    return (RuleOption("draw_policy", "standard", choices,
                       f"how simulated players draw: standard ({keeps}){other}"),)  # fmt: skip


def not_simulated(spec: GameSpec, mode: str = "showdown") -> str | None:
    """The line that says why ``spec`` cannot be simulated yet in ``mode`` (its gaps), or None.

    >>> from dataclasses import replace
    >>> from engine.rules.games import GAMES
    >>> not_simulated(GAMES["razz"], "betting") is None
    True
    >>> not_simulated(replace(GAMES["razz"], betting_gaps=("8 hole cards",)), "betting")[:60]
    'Razz cannot be simulated in betting mode yet: the compiled c'
    >>> not_simulated(GAMES["holdem"], "betting") is None
    True
    """
    gaps = spec.compiled_gaps + (spec.betting_gaps if mode == "betting" else ())
    if not gaps:
        return None
    where = " in betting mode" if not spec.compiled_gaps else ""
    return (f"{spec.title} cannot be simulated{where} yet: the compiled core does not play "
            f"{'; '.join(gaps)}. Its hand histories replay (scooplab ingest)")  # fmt: skip


def _deck_runs_short(r: _Reader, value: Any) -> ShortDeck | None:
    if value is None:
        return None
    chosen = r.choice(value, [s.value for s in ShortDeck], "deck_runs_short")
    return ShortDeck(chosen) if chosen else None


def compiled_gaps(spec: GameSpec) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the compiled core cannot play of ``spec`` yet, one line each: in showdown mode (where
    everyone is all in before the deal, so who acts and what is face up do not matter), and
    besides in betting mode and the compiled replay (``replay_gaps``). The reference state machine
    plays it all (PHH replay goes through it).

    >>> from engine.rules.games import GAMES
    >>> compiled_gaps(GAMES["holdem"])
    ((), ())
    >>> compiled_gaps(GAMES["razz"])
    ((), ())
    """
    hole = card_budget(spec)[1]
    showdown = []
    showdown += draw_gaps(spec)
    if not RANKINGS[spec.ranking].compiled:
        showdown.append(f"the {spec.ranking} ranking")
    counted = spec.discard_board is not None or spec.low_share  # statistics per hole card
    if hole > MAX_HOLE and counted:
        showdown.append(f"{hole} hole cards per player beside a discard board or low points "
                        f"(the compiled core counts {MAX_HOLE})")  # fmt: skip
    betting = _hand_gaps(spec)  # betting-mode play holds what the compiled replay holds, and draws
    return tuple(showdown), tuple(betting)


MAX_DRAW_HOLE = 8  # hole cards the compiled drawing policies hold (engine.compiled.draw_kernel's room)


def draw_gaps(spec: GameSpec) -> list[str]:
    """What the compiled core cannot play yet of a game's draws (it plays them after every card)."""
    if not spec.draws:
        return []
    first = next(i for i, street in enumerate(spec.streets) if street.draw)
    gaps = []
    if any(street.hole_cards or street.board_cards for street in spec.streets[first + 1 :]):
        gaps.append("cards dealt after a draw")
    if any(street.up_cards for street in spec.streets) or spec.discard_board is not None or spec.low_share:
        gaps.append("draws beside up cards, a discard board or low points")
    if spec.deck_runs_short is not None:
        gaps.append("draws beside a deck that runs short")
    if card_budget(spec)[1] > MAX_DRAW_HOLE:
        gaps.append(f"draws to more than {MAX_DRAW_HOLE} hole cards")
    return gaps


def replay_gaps(spec: GameSpec) -> tuple[str, ...]:
    """What the compiled replay cannot play of ``spec`` besides its ``compiled_gaps`` (the state
    machine replays such hands); betting-mode play holds the same but draws, which it plays. Both
    play hole cards on any street, up cards, openers by them, a fixed-limit bring-in and its
    completion (short all-ins too) and a deck that runs short; the replay hands to the state
    machine a hand whose up cards were never written, whose deck runs short, or that bets an open
    pair's big bet (betting mode never does).

    >>> from engine.rules.games import GAMES
    >>> replay_gaps(GAMES["razz"]), replay_gaps(GAMES["holdem"])
    ((), ())
    """
    if spec.draws:
        return ("draws",)  # (the state machine replays them)
    return _hand_gaps(spec)


def _hand_gaps(spec: GameSpec) -> tuple[str, ...]:
    """What neither betting-mode play nor the compiled replay holds (``replay_gaps``, draws aside)."""
    if not any(street.betting for street in spec.streets):
        return ("a game with no betting round (showdown mode plays it)",)
    choices = [None, *other_hole_card_choices(spec)]
    most = max(card_budget(spec, choice)[1] for choice in choices)
    if most > MAX_REPLAY_HOLE:
        return (f"{most} hole cards per player (the compiled core holds {MAX_REPLAY_HOLE})",)
    if spec.deck_runs_short is not None and any(s.board_cards for s in spec.streets):
        return ("board cards beside a deck that runs short",)  # (the compiled count leaves them out)
    if spec.discard_board is not None and any(s.up_cards for s in spec.streets):
        return ("up cards beside a discard board",)  # (a discarded up card still shows, in the reference)
    return ()


def share_option_sets(spec: GameSpec) -> list[dict[str, Any]]:
    """One option set per combination of the values the shares' ``when`` names ({} if none)."""
    named = sorted({name for share in spec.shares for name, _ in share.when})
    choices = [next((o.choices for o in spec.options if o.name == name), ()) for name in named]
    return [dict(zip(named, values, strict=True)) for values in itertools.product(*choices)]


def _check_share_options(r: _Reader, spec: GameSpec) -> None:
    """A share's ``when`` names options of the game and values they take; every rule set has shares."""
    by_name = {o.name: o for o in spec.options}
    for i, share in enumerate(spec.shares, 1):
        for name, value in share.when:
            if name not in by_name:
                r.fail(f"share {i}: when names {name!r}, not an option of the game")
            elif not any(type(value) is type(c) and value == c for c in by_name[name].choices):
                r.fail(f"share {i}: when {name} = {value!r}, not one of {list(by_name[name].choices)}")
    if not r.problems:
        for values in share_option_sets(spec):
            if not spec.shares_under(values):
                r.fail(f"no share is played with {', '.join(f'{k} = {v}' for k, v in values.items())}")


def card_budget(
    spec: GameSpec, options: Mapping[str, Any] | None = None, players: int | None = None
) -> tuple[int, int, int, int, int, bool]:
    """Players (default: the most seated), hole cards each, cards per board, boards, cards dealt in all,
    and whether they fit the deck, under ``options`` (default: the defaults). A deck that may run
    short (``deck_runs_short``) fits when the last street, dealt as one community card (burning
    none), does. A game with draws counts one player's whole hand more: the stub must cover the
    first draw before any discard can be reshuffled."""
    streets = spec.streets_under(options)
    players = spec.max_players if players is None else players
    hole = sum(s.hole_cards for s in streets)
    per_board = sum(s.board_cards for s in streets)
    burns = sum(s.burns for s in streets if s.board_cards or s.hole_cards or s.draw)
    total = players * hole + per_board * len(spec.boards) + burns
    if any(s.draw for s in streets):  # what is left must cover one player's whole draw before any discard
        total += hole
    fits = total <= spec.deck.size
    if not fits and spec.deck_runs_short is not None:
        last = streets[-1]
        fits = total - players * last.hole_cards - last.burns + 1 <= spec.deck.size
    return players, hole, per_board, len(spec.boards), total, fits


def most_players(spec: GameSpec, options: Mapping[str, Any] | None = None) -> int:
    """The largest table the deck deals under ``options`` (0: not even the smallest)."""
    fitting = [n for n in range(spec.min_players, spec.max_players + 1) if card_budget(spec, options, n)[-1]]
    return max(fitting, default=0)


def other_hole_card_choices(spec: GameSpec) -> list[dict[str, Any]]:
    """Each non-default value of an option that sets a street's hole cards, as options."""
    names = sorted({s.hole_cards_option for s in spec.streets if s.hole_cards_option})
    return [
        {o.name: choice}
        for o in spec.options
        if o.name in names
        for choice in o.choices
        if choice != o.default
    ]


def budget_line(spec: GameSpec, options: Mapping[str, Any] | None = None, players: int | None = None) -> str:
    """The card budget in words: what the largest table (or ``players``) deals against the deck."""
    players, hole, per_board, boards, total, fits = card_budget(spec, options, players)
    room = hole if any(s.draw for s in spec.streets) else 0
    burns = total - players * hole - per_board * boards - room
    text = f"{players} players x {hole} hole cards + {per_board * boards} board cards"
    text += f" + {burns} burns" if burns else ""
    text += f" + {room} for a first draw" if room else ""
    text += f" = {total}"
    if fits and total > spec.deck.size:
        last = spec.streets_under(options)[-1]
        if total - last.burns <= spec.deck.size:
            return f"{text}: fits the {spec.deck.size}-card deck without the {last.name}'s burn"
        return f"{text}: the deck runs short on the {last.name}: one community card for everyone"
    if fits:
        return f"{text}: fits the {spec.deck.size}-card deck"
    return f"{text}: needs {total} cards, the deck has {spec.deck.size}"


def _check_core_limits(r: _Reader, spec: GameSpec) -> None:
    """What the compiled core (and the views over its rows) can play today; one line each (what it
    cannot play yet of a game the reference plays is a gap instead: ``compiled_gaps``)."""
    if spec.streets and spec.streets[0].board_cards:
        r.fail(f"street 1 ({spec.streets[0].name}) deals board cards: the first street deals hole cards only")
    if spec.deck_runs_short is not None and len(spec.boards) > 1:
        r.fail("deck_runs_short deals one community card: such a game has one board")
    high = [s for s in spec.shares if s.kind == ShareKind.BEST_HIGH]
    low = [s for s in spec.shares if s.kind == ShareKind.LOWEST_POINTS]
    if low and (len(spec.shares) != 2 or spec.shares[0].kind != ShareKind.BEST_HIGH or len(low) != 1):
        r.fail(
            "a lowest-points share goes second, after one best-high share (high half first, low half second)"
        )
    if low and spec.board_shares:
        r.fail("a lowest-points share beside shares per board is not supported yet")
    _check_low_hands(r, spec)
    named = [s.board for s in high if not s.per_surviving_board and s.board is not None]
    if named != sorted(named) or len(set(named)) != len(named):
        r.fail("name each board at most once, in board order (the odd chip goes to the first share)")
    slots = sum(1 for s in spec.shares if not s.per_surviving_board) + (len(spec.community_boards) if any(
        s.per_surviving_board for s in spec.shares) else 0)  # fmt: skip
    if slots > MAX_BOARDS_DEALT:
        r.fail(f"{slots} shares in all: the compiled core records the winners of at most {MAX_BOARDS_DEALT}")
    if spec.kill is not None and named:
        r.fail(
            "with a kill rule, shares go to surviving boards (each = 'surviving-board' or over = "
            "'surviving-boards'), not to named boards"
        )
    if HoleUse.EXACTLY_TWO in _hole_uses(spec):
        _, hole, per_board, _, _, _ = card_budget(spec)
        if hole < 2 or per_board < 3:
            r.fail(f"hole_use exactly-2 needs 2 hole cards or more and 3 board cards or more, not {hole} and "
                   f"{per_board}")  # fmt: skip
        if spec.discard_board is not None:
            r.fail("hole_use exactly-2 beside a discard-trigger board is not supported yet")
    for use in sorted(_hole_uses(spec) - {None, HoleUse.ANY, HoleUse.AT_LEAST_ONE, HoleUse.EXACTLY_TWO}):
        _check_hole_range(r, spec, use)
    if spec.discard_board is not None and any(s.hole_cards_option for s in spec.streets):
        r.fail("hole cards set by an option beside a discard-trigger board are not supported yet")
    if spec.discard_board is not None:
        if spec.kill is not None or spec.board_shares:
            r.fail("a discard-trigger board beside a kill rule or shares per board is not supported yet")
        if len(spec.streets) > 1 + STREET_SLOTS:
            r.fail(f"{len(spec.streets)} streets: beside a discard-trigger board the compiled core counts "
                   f"forced discards on at most {STREET_SLOTS} streets after the deal")  # fmt: skip


def _check_hole_range(r: _Reader, spec: GameSpec, use: str) -> None:
    """A hole-card range (``at-most-2``) leaves a hand to make, and plays beside what the core holds."""
    try:
        fewest, most = hole_range(use)
    except ValueError:
        return  # (said where the value was read)
    _, hole, per_board, _, _, _ = card_budget(spec)
    if not any(k <= hole and 5 - k <= per_board for k in range(fewest, most + 1)):
        r.fail(f"hole_use {use} makes no hand of five from {hole} hole cards and {per_board} board cards")
    if spec.discard_board is not None:
        r.fail(f"hole_use {use} beside a discard-trigger board is not supported yet")


def _hole_uses(spec: GameSpec) -> set[str]:
    """Every hole-card use the game may play, whatever its options."""
    uses = {spec.hole_use.fixed} | set(spec.hole_use.values.values())
    if spec.hole_use.option is not None and not spec.hole_use.values:  # the option's values are the uses
        chosen = [o for o in spec.options if o.name == spec.hole_use.option]
        uses |= {str(choice) for o in chosen for choice in o.choices}
    return uses


def _check_low_hands(r: _Reader, spec: GameSpec) -> None:
    """A best-low share: one, last (the odd chip goes to the high half), on the standard deck."""
    lows = [i for i, share in enumerate(spec.shares) if share.kind == ShareKind.BEST_LOW]
    if not lows:
        return
    if spec.deck.size != 52:
        r.fail("a best-low share needs the standard 52-card deck (ace-to-five ranks)")
    if lows != [len(spec.shares) - 1] or spec.shares[0].kind != ShareKind.BEST_HIGH:
        r.fail("a best-low share goes last, after the high shares (the odd chip goes to the high half)")
    if spec.low_share or spec.board_shares:
        r.fail("a best-low share beside a lowest-points share or shares per board is not supported yet")
    if _hole_uses(spec) - {None, HoleUse.ANY, HoleUse.EXACTLY_TWO}:
        r.fail("a best-low share is made with hole_use any or exactly-2 (not yet a range of hole cards)")
    if spec.shares[lows[0]].board is not None:
        r.fail(
            "a best-low share is made over = 'surviving-boards' or on a game's only board, not a named one"
        )
    if spec.discard_board is not None:
        r.fail("a best-low share beside a discard-trigger board is not supported yet")


def _check_budget(r: _Reader, spec: GameSpec) -> None:
    if not spec.streets or not spec.boards:
        return
    _check_core_limits(r, spec)
    _, hole, per_board, _, _, fits = card_budget(spec)
    most = RANKINGS[spec.ranking].max_cards
    if hole + per_board > most:
        r.fail(
            f"{hole} hole cards and {per_board} board cards: the {spec.ranking} ranking takes at most {most}"
        )
    if not fits:
        r.fail(budget_line(spec))
    if per_board > MAX_BOARD:
        r.fail(f"{per_board} cards per board: the compiled core holds at most {MAX_BOARD}")
    fewest = RANKINGS[spec.ranking].min_cards
    if hole + per_board < fewest:
        r.fail(f"{hole} hole cards and {per_board} board cards make no hand of {fewest} cards")
    for choice in other_hole_card_choices(spec):
        (name, value), (_, hole, per_board, _, _, _) = next(iter(choice.items())), card_budget(spec, choice)
        if most_players(spec, choice) == 0:
            r.fail(f"with {name} = {value}: {budget_line(spec, choice, spec.min_players)}")
        counted = spec.discard_board is not None or spec.low_share
        if (hole > MAX_HOLE and counted) or hole + per_board > most:
            r.fail(f"with {name} = {value}: {hole} hole cards and {per_board} board cards are too many")


def load_description(path: str | Path) -> GameSpec:
    """Read one description file; ``DescriptionError`` on a bad file, with every problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DescriptionError(str(path), [f"cannot read it: {error.strerror or error}"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise DescriptionError(str(path), [f"not valid TOML: {error}"]) from None
    return parse_description(data, str(path))
