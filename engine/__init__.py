"""The engine: game descriptions, the readable state machine and the compiled rules core.

numba caches each compiled function beside its own source file and only notices changes
to that file, so a kernel that calls into another module would keep running stale machine
code after that module changed. Importing ``engine`` therefore points numba's cache at a
folder named after a hash of every engine source file, in subfolders too: any change compiles
afresh.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

_KEY = "SCOOPLAB_NUMBA_KEY"


def source_key(folder: Path) -> str:
    """A hash of every Python source under ``folder``, subfolders included, by path and content: the
    name of the numba cache those sources compile into."""
    sources = {}  # by path relative to ``folder``
    for parent, folders, files in os.walk(folder):  # never into __pycache__, where another process
        folders[:] = [name for name in folders if name != "__pycache__"]  # may be removing old caches
        sources |= {Path(parent, name).relative_to(folder).as_posix(): Path(parent, name)
                    for name in files if name.endswith(".py")}  # fmt: skip
    digest = hashlib.sha1()
    for name in sorted(sources):
        digest.update(name.encode() + b"\0" + sources[name].read_bytes())
    return digest.hexdigest()[:16]


def _cache_by_source() -> None:
    here = Path(__file__).resolve().parent
    key = source_key(here)
    if os.environ.get(_KEY) == key:  # set by a parent process with the same sources
        return
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or here / "__pycache__" / "numba")
    folder = base / key
    if not folder.exists() and base == here / "__pycache__" / "numba" and base.exists():
        for old in base.iterdir():  # caches of sources that are gone
            shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    os.environ[_KEY] = key


_cache_by_source()
