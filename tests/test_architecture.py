"""The import rules (pyproject.toml's ``[tool.importlinter]``, docs/architecture.md) hold, and would
catch a break: ``lint-imports`` passes on this tree, and fails on a copy given one upward import or
one circle. Anyone can run the same check: ``.venv/bin/lint-imports`` at the top of the tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.patience import COMMAND_SECONDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "ingest", "analytics", "scooplab", "dashboards")
LINT = Path(sys.executable).parent / "lint-imports"


def lint(tree: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` over ``tree`` (its own pyproject.toml), with no cache of an earlier run."""
    environment = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(LINT), "--no-cache"], cwd=tree, capture_output=True, text=True,
                          timeout=COMMAND_SECONDS, env=environment)  # fmt: skip


def copy_of_the_sources(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "*.toml")
        )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_import_rule():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        ("engine/hands/cards.py", "import pyarrow", "The engine knows no file format"),
        (
            "ingest/histories/phh.py",
            "from scooplab import lab",
            "The warehouse and generation know no statistic",
        ),
        (
            "analytics/stats.py",
            "from ingest.generation.simulation import simulate",
            "Analytics reads the warehouse",
        ),
        ("ingest/storage/schema.py", "from ingest.histories import phh", "Ingest's layers"),
        ("dashboards/widgets.py", "from ingest.generation import pushfold", "The dashboard computes and"),
        (
            "dashboards/data.py",
            "from scooplab import cli",
            "The Python API and the dashboard know no command",
        ),
        ("engine/hands/cards.py", "from engine.odds import situations", "No circles"),
        ("engine/rules/pots.py", "from engine.compiled import core", "The engine's layers"),
    ],
)
def test_one_wrong_import_breaks_a_rule(tmp_path, module, line, broken):
    tree = copy_of_the_sources(tmp_path)
    path = tree / module
    path.write_text(path.read_text() + f"\n\ndef _wrong():\n    {line}\n")  # even inside a function
    result = lint(tree)
    assert result.returncode == 1, result.stdout[-3000:]
    assert f"{broken}" in result.stdout.split("Broken contracts", 1)[1]
