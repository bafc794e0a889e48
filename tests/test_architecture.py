"""The import rules (pyproject.toml's ``[tool.importlinter]``, docs/architecture.md) hold, and would
catch a break: ``lint-imports`` passes on this tree, and fails on a copy given one upward import or
one circle. Anyone can run the same check: ``.venv/bin/lint-imports`` at the top of the tree. No
compiled function is long or takes many parameters either."""

from __future__ import annotations

import ast
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
        (
            "scooplab/cli/simulate.py",
            "from ingest.generation import simulation",
            "The commands store and compute",
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


LONGEST_COMPILED, MOST_PARAMETERS = 120, 12  # lines, parameters (issue #35: a core built for change)


def oversized_compiled_functions(source: str, name: str) -> list[str]:
    """The numba-compiled functions of ``source`` over ``LONGEST_COMPILED`` lines or
    ``MOST_PARAMETERS`` parameters, as ``name:function (lines, parameters)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any("jit" in ast.unparse(decorator) for decorator in node.decorator_list):
            continue
        lines = node.end_lineno - node.lineno + 1
        parameters = len(node.args.args) + len(node.args.kwonlyargs)
        if lines > LONGEST_COMPILED or parameters > MOST_PARAMETERS:
            found.append(f"{name}:{node.name} ({lines} lines, {parameters} parameters)")
    return found


def test_no_compiled_function_is_long_or_takes_many_parameters():
    found = []
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "ingest").rglob("*.py")]):
        found += oversized_compiled_functions(path.read_text(), str(path.relative_to(ROOT)))
    assert found == []


def test_the_size_check_finds_a_long_kernel_and_one_with_many_parameters():
    body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST_COMPILED))
    long_kernel = f"@njit(cache=True)\ndef long_kernel():\n{body}\n"
    many = ", ".join(f"a{i}" for i in range(MOST_PARAMETERS + 1))
    wide_kernel = f"@njit\ndef wide_kernel({many}):\n    return a0\n"
    plain = f"def plain({many}):\n{body}\n"  # not compiled: not counted
    found = oversized_compiled_functions(long_kernel + wide_kernel + plain, "made.py")
    assert [entry.split(" ")[0] for entry in found] == ["made.py:long_kernel", "made.py:wide_kernel"]
