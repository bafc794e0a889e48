"""numba's cache for the compiled PokerStars reader (the ``SOURCES`` here), stamped with all of
their sources at once.

numba stamps a cached function with its own file only, and a function's machine code holds the
code of the functions it calls in other files: ``stars_kernel.read_hands`` would keep running an
older ``stars_lines`` after it changed (``engine/__init__.py`` solves it for the engine by a cache
folder per engine sources). Importing this module (``stars_bytes`` does, before any of them
compiles) puts a locator first in numba's list that gives each function of these files the
stamp of every one of them, and the cache place numba would have given it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

from numba.core import caching

HERE = Path(__file__).resolve().parent
SOURCES = (
    "stars_bytes.py",
    "stars_hand.py",
    "stars_actions.py",
    "stars_summary.py",
    "stars_checks.py",
    "stars_lines.py",
    "stars_write.py",
    "stars_kernel.py",
)  # fmt: skip  (every module with compiled code)
FOLDER = "stars-"  # a cache folder's name: this, then the start of its sources' stamp


def sources_stamp(folder: Path = HERE) -> str:
    """A hash of the ``SOURCES`` of ``folder``, by name and content."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def _stamp() -> str:
    return sources_stamp()


class SourcesLocator(caching._CacheLocator):
    """numba's own locator for the function, in a folder of its cache folder named after the stamp of
    all the sources (numba reads a cache's index before it compares stamps: an index of older
    sources may name classes that are gone), and stamped with them."""

    def __init__(self, inner: caching._CacheLocator) -> None:
        self.inner = inner

    def ensure_cache_path(self) -> None:
        path = Path(self.get_cache_path())
        if not path.exists():
            for old in path.parent.glob(f"{FOLDER}*"):  # caches of sources that are gone
                shutil.rmtree(old, ignore_errors=True)
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()  # writable, as numba's own locators check

    def get_cache_path(self) -> str:
        return os.path.join(self.inner.get_cache_path(), FOLDER + _stamp()[:16])

    def get_source_stamp(self) -> str:
        return _stamp()

    def get_disambiguator(self) -> str:
        return self.inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        if path.parent != HERE or path.name not in SOURCES:
            return None
        for other in caching.CacheImpl._locator_classes:
            if other is not cls and (inner := other.from_function(py_func, py_file)) is not None:
                locator = cls(inner)
                try:
                    locator.ensure_cache_path()
                except OSError:
                    return None  # (numba then tries its next locator)
                return locator
        return None


if SourcesLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, SourcesLocator)
