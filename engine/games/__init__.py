"""The games scooplab knows, one module each; a module defines ``SPEC``, a ``GameSpec``.

Adding a game means adding a module here: it is found by name at import.

>>> sorted(GAMES)
['cry-me-a-river', 'holdem', 'scarney', 'skoejarth']
>>> game_for_variant("NT")[0].name, game_for_variant("NT")[1].value
('holdem', 'no-limit')
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.games.base import GameSpec, Structure

_HELPERS = {"base", "showdown"}


def _discover() -> dict[str, GameSpec]:
    games: dict[str, GameSpec] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name in _HELPERS or module.name.startswith("_"):
            continue
        spec = getattr(importlib.import_module(f"{__name__}.{module.name}"), "SPEC", None)
        if isinstance(spec, GameSpec):
            games[spec.name] = spec
    return games


GAMES: dict[str, GameSpec] = _discover()


def get_game(name: str) -> GameSpec:
    """The game called ``name``; a clear error lists the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None


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
