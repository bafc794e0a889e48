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
import sys
from pathlib import Path

_KEY = "SCOOPLAB_NUMBA_KEY"


def source_key(folder: Path, also: list[Path] = ()) -> str:
    """A hash of every Python source under ``folder``, subfolders included, and of the files ``also``,
    by path and content: the name of the numba cache those sources compile into."""
    sources = {}  # by path relative to ``folder``
    for parent, folders, files in os.walk(folder):  # never into __pycache__, where another process
        folders[:] = [name for name in folders if name != "__pycache__"]  # may be removing old caches
        sources |= {Path(parent, name).relative_to(folder).as_posix(): Path(parent, name)
                    for name in files if name.endswith(".py")}  # fmt: skip
    sources |= {Path(os.path.relpath(path, folder)).as_posix(): path for path in also}
    digest = hashlib.sha1()
    for name in sorted(sources):
        digest.update(name.encode() + b"\0" + sources[name].read_bytes())
    return digest.hexdigest()[:16]


def kernel_sources(root: Path) -> list[Path]:
    """The modules outside the engine that declare compiled kernels (they import numba): their
    sources name the cache too, since their kernels call one another across modules."""
    return sorted(path for folder in ("ingest", "analytics") for path in (root / folder).rglob("*.py")
                  if "__pycache__" not in path.parts and b"numba" in path.read_bytes())  # fmt: skip


def _cache_by_source() -> None:
    here = Path(__file__).resolve().parent
    key = source_key(here, kernel_sources(here.parent))
    if os.environ.get(_KEY) == key:  # set by a parent process with the same sources
        return
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or here / "__pycache__" / "numba")
    folder = base / key
    if not folder.exists() and base == here / "__pycache__" / "numba" and base.exists():
        for old in base.iterdir():  # caches of sources that are gone
            shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    os.environ[_KEY] = key
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba came first (a kernel module outside the engine): it read the
        config.CACHE_DIR = str(folder)  # variable then; its caches are placed as they are declared


_cache_by_source()
