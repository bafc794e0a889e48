"""The games scooplab knows: one description file each in ``engine/variants/``.

Adding a game means adding a description file there (or passing the path of one to any
``--variant``): nothing else changes.

>>> built_in = {p.stem for p in VARIANTS_DIR.glob("*.toml")}  # every file there is a game
>>> sorted(built_in - set(GAMES)), {"holdem", "scarney", "cry-me-a-river", "skoejarth"} <= built_in
([], True)
>>> game_for_variant("NT")[0].name, game_for_variant("NT")[1].value
('holdem', 'no-limit')
"""

from __future__ import annotations

from pathlib import Path

from engine.rules.games.base import GameSpec, Structure
from engine.rules.games.description import VARIANTS_DIR, DescriptionError, load_description


def _discover() -> dict[str, GameSpec]:
    games: dict[str, GameSpec] = {}
    for path in sorted(VARIANTS_DIR.glob("*.toml")):
        spec = load_description(path)
        games[spec.name] = spec
    return games


GAMES: dict[str, GameSpec] = _discover()


def clashes(spec: GameSpec) -> list[str]:
    """What keeps a described game from joining the known games, one line each, all at once: its
    name or a PHH variant code another game already has (a copy of a game clashes in both).

    >>> from dataclasses import replace
    >>> clashes(replace(GAMES["razz"], source="mine.toml"))
    ["the name 'razz' is taken by the built-in Razz", "PHH variant code FR is Razz's"]
    """
    return name_clashes(spec.name, list(spec.variant_codes), spec.source)


def name_clashes(name: str, codes: list[str], source: str) -> list[str]:
    """``clashes`` of a description's name and codes alone (said even where the rest has problems)."""
    problems = []
    known = GAMES.get(name)
    if known is not None and not _versions_of_one_game(known, name, source):
        problems.append(f"the name {name!r} is taken by {_where(known)}")
    for code in codes:
        other = next((g for g in GAMES.values() if code in g.variant_codes
                      and not (g.name == name and _versions_of_one_game(g, name, source))), None)  # fmt: skip
        if other is not None:
            problems.append(f"PHH variant code {code} is {other.title}'s")
    return problems


def _versions_of_one_game(known: GameSpec, name: str, source: str) -> bool:
    """Whether two descriptions are one file, or two versions of one game: files of a folder named
    after the game, the built-in ones apart; or one game saved in two warehouses
    (``games/NAME/v0001.toml``: the one asked for last is the one known by name).

    >>> from dataclasses import replace
    >>> mine = replace(GAMES["razz"], name="mine", source="wh/games/mine/v0001.toml")
    >>> _versions_of_one_game(mine, "mine", "wh/games/mine/v0002.toml")
    True
    >>> _versions_of_one_game(GAMES["razz"], "razz", "razz/v0001.toml")
    False
    """
    here, there = Path(known.source).resolve(), Path(source).resolve()
    if here == there:
        return True
    saved = [p.parent.name == name and p.parent.parent.name == "games" for p in (here, there)]
    return all(saved) or (
        here.parent == there.parent and here.parent.name == name and here.parent != VARIANTS_DIR
    )


def _where(game: GameSpec) -> str:
    built_in = Path(game.source).parent == VARIANTS_DIR
    return f"the built-in {game.title}" if built_in else str(game.source)


def register(spec: GameSpec) -> GameSpec:
    """Make a game read from a file known by name (to replays and statistics of this process)."""
    problems = clashes(spec)
    if problems:
        raise ValueError(f"{spec.source}: {'; '.join(problems)}")
    GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    """The game called ``name``, or the game described in the file ``name`` (a ``.toml`` path).

    A clear error lists the known games, or every problem of a bad file.
    """
    if name in GAMES:
        return GAMES[name]
    path = Path(name)
    if name.endswith(".toml") or path.is_file():
        if not path.is_file():
            raise ValueError(f"no description file {name}")
        try:
            return register(load_description(path))
        except DescriptionError as error:
            raise ValueError("; ".join(f"{error.source}: {p}" for p in error.problems)) from None
    raise ValueError(
        f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))} (or a .toml description)"
    )


def game_for_variant(code: str) -> tuple[GameSpec, Structure]:
    """The game and betting structure of a PHH variant code."""
    for game in GAMES.values():
        if code in game.variant_codes:
            return game, game.variant_codes[code]
    known = ", ".join(sorted(c for g in GAMES.values() for c in g.variant_codes))
    raise ValueError(f"unknown variant {code!r}; scooplab plays {known}")


def variant_code(game: GameSpec, structure: Structure) -> str:
    """The PHH variant code of a game played with a betting structure."""
    for code, value in game.variant_codes.items():
        if value == structure:
            return code
    raise ValueError(f"{game.title} is not played {structure.value}")
