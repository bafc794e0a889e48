"""The suite keeps its waits machine-proof (#34, ``tests/patience.py``): no test times an operation
against a bound, sleeps to let something happen, or writes a time limit as a bare number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ALLOWED = {"patience.py", "test_patience.py", "conftest.py"}  # conftest is copied alone into an inner run
FORBIDDEN = {
    "a duration timed in a test": re.compile(r"perf_counter\(|time\.time\(\)"),
    "a sleep in the browser instead of waiting for the page": re.compile(r"wait_for_timeout\("),
    "a time limit written as a bare number": re.compile(r"\b(default_)?timeout=\d|\bready_seconds=\d"),
    "a deadline written as a bare number": re.compile(r"monotonic\(\) \+ \d"),
}


def offences(source: str) -> list[str]:
    """Each line of ``source`` (comments aside) that does one of the forbidden things, with why."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        found += [
            f"line {number}: {why}: {line.strip()}" for why, rule in FORBIDDEN.items() if rule.search(code)
        ]
    return found


@pytest.mark.parametrize(
    "line",
    [
        "    start = time.perf_counter()",
        "    page.wait_for_timeout(1500)",
        "    done = subprocess.run(args, timeout=120)",
        "    test = AppTest.from_file(APP, default_timeout=90)",
        "    deadline = time.monotonic() + 30",
    ],
)
def test_each_rule_finds_what_it_forbids(line):
    assert offences(f"x = 1\n{line}\n") and not offences(f"x = 1\n# {line}\n")


def test_no_test_depends_on_how_fast_the_machine_is():
    found = {
        path.name: offences(path.read_text())
        for path in sorted(TESTS.glob("*.py"))
        if path.name not in ALLOWED
    }
    assert not {name: lines for name, lines in found.items() if lines}
