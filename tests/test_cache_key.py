"""numba's cache follows every engine source (engine/__init__.py): a change to any file, in a subfolder
too, or a new one, names a new cache folder, so no kernel runs machine code of older sources."""

from __future__ import annotations

import shutil
from pathlib import Path

import engine
from engine import source_key
from tests.patience import COMMAND_SECONDS

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


def test_the_kernels_outside_the_engine_name_the_cache_too():
    from engine import kernel_sources

    root = ENGINE.parent
    kernels = kernel_sources(root)
    assert root / "analytics" / "tracker_kernel.py" in kernels
    assert root / "ingest" / "histories" / "sites" / "stars_lines.py" in kernels
    assert root / "ingest" / "histories" / "pipeline.py" not in kernels  # no kernel: no recompiling


def test_every_kernel_caches_in_the_sources_folder_whichever_module_imports_numba_first():
    import os
    import subprocess
    import sys

    code = (
        "import os, analytics.tracker_kernel as t, engine.compiled.sim_kernels as k\n"  # numba before engine
        "print(os.environ['NUMBA_CACHE_DIR'])\n"
        "print(t._line_counts._cache._cache_path)\n"
        "print(k.simulate_hands._cache._cache_path)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SCOOPLAB_NUMBA_KEY")}
    said = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parent, env=env, capture_output=True,
                          text=True, check=True, timeout=COMMAND_SECONDS).stdout.split("\n")  # fmt: skip
    folder, *paths = [line for line in said if line]
    assert Path(folder).parent == ENGINE / "__pycache__" / "numba" and len(paths) == 2
    assert all(path.startswith(folder) for path in paths), (folder, paths)
