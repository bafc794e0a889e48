"""Saved game descriptions: the warehouse's ``games/`` folder, every save a new version.

``games/NAME/v0001.toml``, ``v0002.toml``, ... (docs/warehouse.md, "Saved games"): a version is
never changed once written; a run simulated from a saved game records the version's path among
its ``sources``. Two saves at once never overwrite each other: each takes the next free number
(the file is created exclusively), and a save made from an older version than the newest says so.

>>> import tempfile
>>> root = tempfile.mkdtemp()
>>> first = save_version(root, "scarney-five", 'name = "scarney-five"\\n')
>>> first.version, first.path.name, first.note
(1, 'v0001.toml', '')
>>> second = save_version(root, "scarney-five", 'name = "scarney-five"\\n', based_on=1)
>>> late = save_version(root, "scarney-five", 'name = "scarney-five"\\n', based_on=1)
>>> late.version, late.note
(3, 'saved as version 3: version 2 was saved meanwhile, after the version 1 this was made from')
>>> [p.name for p in versions(root, "scarney-five")], saved_names(root)
(['v0001.toml', 'v0002.toml', 'v0003.toml'], ['scarney-five'])
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

FOLDER = "games"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
VERSION = re.compile(r"v(\d{4,})\.toml")


@dataclass(frozen=True)
class Saved:
    """One saved version: its number, its file, and what the saver should be told (else "")."""

    version: int
    path: Path
    note: str


def check_name(name: str) -> str | None:
    """Why ``name`` cannot name a saved game (a folder of the warehouse), or None.

    >>> check_name("scarney-five"), check_name("../etc")
    (None, "a saved game's name is lower-case letters, digits and '-' (at most 64), not '../etc'")
    """
    if NAME.fullmatch(name):
        return None
    return f"a saved game's name is lower-case letters, digits and '-' (at most 64), not {name!r}"


def game_folder(root: str | Path, name: str) -> Path:
    """The folder of a saved game's versions (ValueError for a name that is not a plain slug)."""
    problem = check_name(name)
    if problem:
        raise ValueError(problem)
    return Path(root) / FOLDER / name


def versions(root: str | Path, name: str) -> list[Path]:
    """Every saved version of ``name``, oldest first ([] when none)."""
    folder = game_folder(root, name)
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := VERSION.fullmatch(p.name))]
    return [p for _, p in sorted(found)]


def version_of(path: str | Path) -> int | None:
    """The version number of a saved version's file (None for any other file).

    >>> version_of("wh/games/scarney-five/v0012.toml"), version_of("mine.toml")
    (12, None)
    """
    found = VERSION.fullmatch(Path(path).name)
    return int(found.group(1)) if found and Path(path).parent.parent.name == FOLDER else None


def saved_names(root: str | Path) -> list[str]:
    """The names of the games saved in this warehouse, sorted."""
    folder = Path(root) / FOLDER
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if NAME.fullmatch(p.name) and versions(root, p.name))


def save_version(root: str | Path, name: str, text: str, based_on: int | None = None) -> Saved:
    """Write ``text`` as the next version of ``name``: a temporary file, then linked to the first
    free version number (a link never replaces a file, so a concurrent save takes the next one).

    ``based_on``: the version the text was made from (0: a new game); a newer one saved since is
    said in the note.
    """
    folder = game_folder(root, name)
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".saving-", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        existing = versions(root, name)
        number = version_of(existing[-1]) + 1 if existing else 1
        while True:
            path = folder / f"v{number:04d}.toml"
            try:
                os.link(temporary, path)
                break
            except FileExistsError:
                number += 1
    finally:
        os.unlink(temporary)
    return Saved(number, path, _note(number, based_on))


def _note(number: int, based_on: int | None) -> str:
    """What a save made from version ``based_on`` that became ``number`` should say."""
    if based_on is None or number == based_on + 1:
        return ""
    if number <= based_on:  # made from another game's version (renamed): a game of its own
        return f"saved as version {number} of this name"
    if based_on == 0:  # made as a new game
        return f"saved as version {number}: a game of this name was saved already ({number - 1} versions)"
    between = list(range(based_on + 1, number))
    which = f"version {between[0]} was" if len(between) == 1 else f"versions {between[0]}-{between[-1]} were"
    return (
        f"saved as version {number}: {which} saved meanwhile, after the version {based_on} this was made from"
    )
