"""The doctested helpers of the benchmark scripts (they are scripts, outside the collected packages)."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize("script", ["against_kernel", "dashboard_load"])
def test_doctests_of_benchmark_scripts(script):
    spec = importlib.util.spec_from_file_location(f"bench_{script}", BENCHMARKS / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        result = doctest.testmod(module)
    finally:
        del sys.modules[spec.name]
    assert result.attempted > 0 and result.failed == 0
