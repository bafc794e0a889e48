"""Game designs: descriptions checked as they are written, saved in the warehouse with their
history, and found by name by every command, page, job and notebook.

A design is a description's TOML text (docs/variants.md). ``check`` says what ``scooplab variants
check`` says of it, each problem beside the part of the description it concerns; ``save`` stores
it as the next version of the warehouse's ``games/NAME/`` (ingest.storage.descriptions), and
``known_game`` makes the newest version of a saved game known by name in this process.

>>> text = derive("holdem")
>>> "derived_from" in text and 'name = "holdem-derived"' in text
True
>>> result = check(text.replace("hole_cards = 2", "hole_cards = 5"))
>>> result.ok, result.problems[0][0]
(False, 'players')
>>> result.at("players")
['10 players x 5 hole cards + 5 board cards + 3 burns = 58: needs 58 cards, the deck has 52']
>>> check(text).ok, check(text).budget
(True, '10 players x 2 hole cards + 5 board cards + 3 burns = 28: fits the 52-card deck')
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

if TYPE_CHECKING:
    from engine.rules.games.base import GameSpec
    from ingest.storage.descriptions import Saved

# the parts of a description a problem concerns, by the words it starts with (first match wins)
FIELDS = (
    ("toml", r"not valid TOML|description: unknown key"),
    ("name", r"the name |a saved game's name|missing 'name'"),
    ("title", r"missing 'title'"),
    ("phh_codes", r"PHH variant code|phh code|missing 'phh_codes'|structure "),
    ("deck", r"deck |missing 'deck'"),
    ("ranking", r"ranking|category_order|tiebreak|hole_use|missing 'ranking'"),
    ("players", r"players must|missing 'players'|\d+ players x |with \S+ = \S+: \d+ players x "),
    ("kill", r"kill|a kill rule"),
    (
        "boards",
        r"board (\d+\b|\S+: )|\[\[boards\]\]|board names|no board has|\d+ boards|at most one board"
        r"|missing 'boards'",
    ),
    ("shares", r"share|\[\[shares\]\]|no share|name each board|a best-low|a lowest-points|missing 'shares'"),
    ("betting", r"\[betting\]"),
    ("options", r"option |\[options\]|burns_option"),
)
FIELD_NAMES = (*(name for name, _ in FIELDS), "streets")


def problem_field(problem: str) -> str:
    """The part of a description a problem line concerns (``players`` for the card budget, which
    the table size and the streets' cards make together; ``streets`` for the rest of the cards).

    >>> problem_field("the name 'razz' is taken by the built-in Razz")
    'name'
    >>> problem_field("8 players x 7 hole cards + 10 board cards = 66: needs 66 cards, the deck has 52")
    'players'
    >>> problem_field("share 2: qualifier is for a best-low share"), problem_field("board 1: needs a name")
    ('shares', 'boards')
    """
    for name, pattern in FIELDS:
        if re.match(pattern, problem):
            return name
    return "streets"


@dataclass
class CheckResult:
    """What checking a design found: problems beside their parts, or the game and its facts."""

    problems: list[tuple[str, str]] = field(default_factory=list)  # (part, line)
    spec: GameSpec | None = None
    budget: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems and self.spec is not None

    def at(self, part: str) -> list[str]:
        """The problems of one part of the description."""
        return [line for where, line in self.problems if where == part]


def parse(text: str) -> tuple[dict[str, Any], str | None]:
    """A design's TOML as a dict, and the TOML error (one line) if it is not valid TOML."""
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as error:
        return {}, f"not valid TOML: {error}"


SHORT_ARRAY = re.compile(r"\[\n((?:    [^\[\]{}\n]+,\n)+)\]")


def to_text(data: dict[str, Any]) -> str:
    r"""A design as TOML text (the form's edits, written back), short arrays on one line.

    >>> to_text({"players": [2, 6], "streets": [{"name": "preflop", "hole_cards": 2}]})
    'players = [2, 6]\nstreets = [\n    { name = "preflop", hole_cards = 2 },\n]\n'
    """
    text = tomli_w.dumps(data)
    return SHORT_ARRAY.sub(
        lambda m: "[" + ", ".join(x.strip()[:-1] for x in m.group(1).splitlines()) + "]", text
    )


def check(text: str, root: str | Path | None = None) -> CheckResult:
    """Everything ``scooplab variants check`` would say of the design ``text``, each problem beside
    its part; with ``root`` (a warehouse) also what saving it there would meet."""
    from engine.rules.games import clashes
    from engine.rules.games.description import DescriptionError, budget_line, parse_description
    from ingest.storage.descriptions import check_name, game_folder

    data, error = parse(text)
    if error:
        return CheckResult([("toml", error)])
    if root is not None:
        for saved in saved_games(root):  # known by name and codes: a clash with one is said
            known_game(root, saved)
    name = str(data.get("name", ""))
    lines = [problem for problem in [check_name(name)] if problem]
    source = str(game_folder(root or ".", name) / "v9999.toml") if not lines else "<workbench>"
    spec = None
    try:
        spec = parse_description(data, source)
        lines += clashes(spec)
    except DescriptionError as problems:
        lines += problems.problems
    budget = budget_line(spec) if spec is not None else ""
    return CheckResult([(problem_field(line), line) for line in lines], spec, budget, data)


def base_text(name: str, root: str | Path | None = None) -> str:
    """The description text of a game: a saved game's newest version, or a known game's file."""
    return Path(known_game(root, name).source).read_text(encoding="utf-8")


def derive(name: str, root: str | Path | None = None, new_name: str | None = None) -> str:
    """A new design made from the game ``name``: its description under a new name (``new_name``,
    by default NAME-derived) and title, with ``derived_from`` set and fresh PHH codes (each code
    names one game).

    >>> text = derive("holdem", new_name="my-holdem")
    >>> 'name = "my-holdem"' in text, "(my-holdem)" in text, "NT2" in text
    (True, True, True)
    """
    data, _ = parse(base_text(name, root))
    base = str(data.get("name", name))
    title = f"{data.get('title', base)} ({new_name})" if new_name else f"{data.get('title', base)} (derived)"
    data |= {"name": new_name or f"{base}-derived", "title": title, "derived_from": base,
             "phh_codes": fresh_codes(data.get("phh_codes") or {})}  # fmt: skip
    return to_text(ordered(data))


def fresh_codes(codes: dict[str, str]) -> dict[str, str]:
    """PHH variant codes for a derived game: the base's codes with the smallest number after them
    that no known game uses (each code names one game).

    >>> fresh_codes({"NT": "no-limit", "FT": "fixed-limit"})
    {'NT2': 'no-limit', 'FT2': 'fixed-limit'}
    """
    from engine.rules.games import GAMES

    taken = {code for game in GAMES.values() for code in game.variant_codes}
    number = 2
    while any(f"{code}{number}" in taken for code in codes):
        number += 1
    return {f"{code}{number}": structure for code, structure in codes.items()}


BLANK = {
    "name": "my-game", "title": "My game", "description": "", "deck": "standard", "ranking": "standard-high",
    "players": [2, 6], "phh_codes": {}, "boards": [{"name": "board", "role": "community"}],
    "streets": [{"name": "preflop", "hole_cards": 2}, {"name": "flop", "board_cards": 3},
                {"name": "turn", "board_cards": 1}, {"name": "river", "board_cards": 1}],
    "shares": [{"wins": "best-high", "board": "board"}],
}  # fmt: skip


def blank() -> str:
    """A design to start from nothing: one board, hold'em's streets, the best high hand wins."""
    return to_text(BLANK)


def ordered(data: dict[str, Any]) -> dict[str, Any]:
    """The keys in the order people read them: plain values first, then tables (TOML needs the
    plain values before any table anyway)."""
    plain = {k: v for k, v in data.items() if not _is_table(v)}
    return plain | {k: v for k, v in data.items() if _is_table(v)}


def _is_table(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and bool(value) and isinstance(value[0], dict))


def save(root: str | Path, text: str, based_on: int | None = None) -> Saved:
    """Save a design as the next version of its game in the warehouse ``root`` (ValueError with
    every problem when it does not check out: only playable games are saved)."""
    from ingest.storage.descriptions import save_version

    result = check(text, root)
    if not result.ok:
        raise ValueError("; ".join(line for _, line in result.problems))
    saved = save_version(root, result.spec.name, text, based_on)
    known_game(root, result.spec.name)
    return saved


def saved_games(root: str | Path) -> list[str]:
    """The names of the games saved in the warehouse ``root``."""
    from ingest.storage.descriptions import saved_names

    return saved_names(root) if _local(root) else []


def history(root: str | Path, name: str) -> list[tuple[int, Path]]:
    """Every saved version of ``name``: (version, file), oldest first."""
    from ingest.storage.descriptions import version_of, versions

    return [(version_of(path) or 0, path) for path in versions(root, name)]


def known_game(root: str | Path | None, name: str) -> GameSpec:
    """The game ``name``: a game saved in the warehouse ``root`` by its newest version (made known
    by name in this process, in place of an older one), else a known game or a description file."""
    from engine.rules.games import get_game, register
    from engine.rules.games.description import load_description
    from ingest.storage.descriptions import check_name, versions

    if root is not None and _local(root) and check_name(name) is None:
        found = versions(root, name)
        if found:
            return register(load_description(found[-1]))
    return get_game(name)


def _local(root: str | Path) -> bool:
    return "://" not in str(root) and Path(root).is_dir()
