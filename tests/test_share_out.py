"""ingest.processes.share_out: every item done once, by this process and its helpers; errors raised
here; a helper still warming up when the work is done is stopped, and none outlives the call."""

from __future__ import annotations

import os
import time
from functools import partial

import psutil
import pytest

from ingest.processes import share_out
from tests.conftest import INTERPRETER_HELPERS


def pid_after(seconds: float, item: int) -> tuple[int, int]:
    """Who did the item: (item, pid), after ``seconds`` of sleep (so work is spread)."""
    time.sleep(seconds)
    return item, os.getpid()


def fail_on(bad: int, item: int) -> int:
    if item == bad:
        raise ValueError(f"item {item} is bad")
    time.sleep(0.05)
    return item


def fail_in_helper(parent: int, item: int) -> int:
    if os.getpid() != parent:
        raise ValueError(f"item {item} failed in a helper")
    time.sleep(0.1)
    return item


def fail_warming() -> None:
    raise ValueError("cannot warm up")


def helpers() -> list[psutil.Process]:
    """This process's children but the interpreter's own (its resource tracker lives to the end)."""
    return [
        p for p in psutil.Process().children(recursive=True)
        if p.is_running() and not any(h in " ".join(p.cmdline()) for h in INTERPRETER_HELPERS)
    ]  # fmt: skip


def test_every_item_once_by_this_process_and_helpers():
    results = list(share_out(partial(pid_after, 0.3), range(16), workers=3))
    assert sorted(item for item, _ in results) == list(range(16))
    assert all(item == done for item, (done, _) in results)
    pids = {pid for _, (_, pid) in results}
    assert os.getpid() in pids  # this process took items itself
    assert len(pids) == 3  # and each of the two helpers took some
    assert not helpers()


@pytest.mark.parametrize(("workers", "items"), [(1, 3), (4, 1)])
def test_one_worker_or_one_item_starts_no_helper(workers, items):
    done = share_out(partial(pid_after, 0), range(items), workers)
    assert {pid for _, (_, pid) in done} == {os.getpid()}


def test_short_work_is_done_here_without_waiting_for_a_warming_helper():
    start = time.perf_counter()
    done = list(share_out(partial(pid_after, 0.01), range(5), 2, warm_up=partial(time.sleep, 30)))
    assert time.perf_counter() - start < 10  # the helper, still warming up, was stopped
    assert {pid for _, (_, pid) in done} == {os.getpid()} and len(done) == 5
    assert not helpers()


@pytest.mark.parametrize("bad", [0, 1, 5])
def test_an_error_in_any_process_is_raised_here_and_no_helper_remains(bad):
    seen = []
    with pytest.raises(ValueError, match=f"item {bad} is bad"):
        for item, _ in share_out(partial(fail_on, bad), range(60), workers=2):
            seen.append(item)
    assert bad not in seen and len(seen) < 59  # nothing more was started after the error
    assert not helpers()


def test_an_error_in_a_helper_is_raised_here():
    seen = []
    with pytest.raises(ValueError, match="failed in a helper"):
        for item, _ in share_out(partial(fail_in_helper, os.getpid()), range(200), workers=2):
            seen.append(item)
    assert 0 < len(seen) < 199  # this process worked until the helper's error came, then stopped
    assert not helpers()


def test_a_helper_that_cannot_warm_up_stops_the_work():
    with pytest.raises(ValueError, match="cannot warm up"):
        list(share_out(partial(pid_after, 0.2), range(40), 2, warm_up=fail_warming))
    assert not helpers()
