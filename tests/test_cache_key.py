"""numba's cache follows every engine source (engine/__init__.py): a change to any file, in a subfolder
too, or a new one, names a new cache folder, so no kernel runs machine code of older sources."""

from __future__ import annotations

import shutil
from pathlib import Path

import engine
from engine import source_key

ENGINE = Path(engine.__file__).resolve().parent


def test_any_change_to_an_engine_source_names_a_new_cache(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    first = source_key(copy)
    assert source_key(copy) == first == source_key(ENGINE)  # the same sources, the same key
    keys = {first}
    nested = copy / "rules" / "games" / "base.py"
    nested.write_text(nested.read_text() + "\n# a change in a subfolder\n")
    keys.add(source_key(copy))
    (copy / "extra").mkdir()
    (copy / "extra" / "phases.py").write_text("X = 1\n")  # a module in a new subfolder
    keys.add(source_key(copy))
    (copy / "extra" / "phases.py").rename(copy / "extra" / "deal.py")  # the same content, renamed
    keys.add(source_key(copy))
    assert len(keys) == 4
    (copy / "__pycache__").mkdir()
    (copy / "__pycache__" / "stale.py").write_text("compiled leftovers\n")
    assert source_key(copy) in keys  # what Python leaves in __pycache__ is not a source
