"""ingest.processes.share_out: every item done once, by this process and its helpers; errors raised
here from either side (even one that does not read back); a helper killed, still warming up, or left
when the caller stops early is stopped, and nothing it started outlives the call."""

from __future__ import annotations

import os
import signal
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from ingest.processes import share_out
from tests.patience import wait_until
from tests.scale_helpers import children_of, interpreter_helper


class TwoArguments(Exception):
    """Pickles, but cannot be rebuilt from its pickle (its __init__ takes two arguments)."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"{a}, {b}")


def mark(folder: str, seconds: float, item: int) -> tuple[int, int]:
    """Do an item: make its file (failing if it exists: done twice), sleep; (item, pid)."""
    with open(Path(folder) / str(item), "x") as file:
        file.write(str(os.getpid()))
    time.sleep(seconds)
    return item, os.getpid()


def wait_for(path: Path) -> None:
    """Wait until ``path`` exists (another process makes it); a safety bound ends a broken test."""
    if not wait_until(path.exists):
        raise TimeoutError(f"{path} never came")


def after_a_helper(folder: str, parent: int, item: int) -> tuple[int, int]:
    """Do an item as ``mark`` does; this process's first waits until a helper has done one, so both
    work whatever a helper's start-up takes."""
    done = mark(folder, 0, item)
    if os.getpid() == parent and item == 0:
        assert wait_until(lambda: helper_did_one(folder, parent)), "no helper did an item"
    return done


def helper_did_one(folder: str, parent: int) -> bool:
    """Whether a file of ``mark``'s names another process than ``parent`` (files being written: not yet)."""
    return any(f.read_text() != str(parent) for f in Path(folder).iterdir() if f.stat().st_size)


def in_helper(folder: str, parent: int, what: str, item: int) -> int:
    """Do ``what`` in a helper (raise, die, send what will not read back) once this process has done an
    item; here, wait until a helper has one in hand, then take 0.1 s an item: the helper's failure
    comes within milliseconds, hundreds of times sooner than this process's last item."""
    if os.getpid() == parent:
        (Path(folder) / "here").touch()
        wait_for(Path(folder) / "helper")
        time.sleep(0.1)
        return item
    (Path(folder) / "helper").touch()
    wait_for(Path(folder) / "here")
    if what == "raise":
        raise ValueError(f"item {item} failed in a helper")
    if what == "eof":
        raise EOFError(f"item {item}: a truncated stream")
    if what == "unreadable":
        raise TwoArguments(1, 2)
    os.kill(os.getpid(), signal.SIGKILL)
    return item


def fail_on(bad: int, item: int) -> int:
    if item == bad:
        raise ValueError(f"item {item} is bad")
    time.sleep(0.05)
    return item


def fail_warming(folder: str) -> None:
    (Path(folder) / "warm-up failed").touch()
    raise ValueError("cannot warm up")


def after_warm_up_failed(folder: str, item: int) -> int:
    """Wait until the helper's warm-up has failed, then take 0.2 s: its error comes within
    milliseconds, while this process would need 12 s to do every item alone."""
    wait_for(Path(folder) / "warm-up failed")
    time.sleep(0.2)
    return item


def children() -> set[int]:
    """This process's live children, but the interpreter's resource tracker (it lives to the end)."""
    return {pid for pid in children_of(os.getpid()) if not interpreter_helper(pid)}


@pytest.fixture
def no_helper_left():
    """Fails a test after which a child started during it, or a thread, is still alive."""
    before, threads = children(), set(threading.enumerate())
    yield
    assert not children() - before
    assert not [t for t in threading.enumerate() if t not in threads and t.is_alive()]


def test_every_item_once_by_this_process_and_helpers(tmp_path, no_helper_left):
    results = list(share_out(partial(after_a_helper, str(tmp_path), os.getpid()), range(24), workers=3))
    assert (
        sorted(item for item, _ in results)
        == list(range(24))
        == sorted(int(f.name) for f in tmp_path.iterdir())
    )
    assert all(item == done for item, (done, _) in results)
    pids = {pid for _, (_, pid) in results}
    assert os.getpid() in pids and len(pids) >= 2  # this process took items, and a helper did


@pytest.mark.parametrize(("workers", "items"), [(1, 3), (4, 1)])
def test_one_worker_or_one_item_starts_no_helper(tmp_path, workers, items, no_helper_left):
    before = children()
    for _, (_, pid) in share_out(partial(mark, str(tmp_path), 0), range(items), workers):
        assert pid == os.getpid() and children() == before


def test_short_work_is_done_here_without_waiting_for_a_warming_helper(tmp_path, no_helper_left):
    start = time.monotonic()
    warm_up = partial(time.sleep, 3600)  # a helper that would be ready in an hour
    done = list(share_out(partial(mark, str(tmp_path), 0.01), range(5), 2, warm_up=warm_up))
    # the helper, still warming up, was stopped: done in ~0.1 s here, not in an hour
    assert time.monotonic() - start < 180
    assert {pid for _, (_, pid) in done} == {os.getpid()} and len(done) == 5


@pytest.mark.parametrize("bad", [0, 1, 5])
def test_an_error_here_is_raised_and_nothing_more_starts(bad, no_helper_left):
    seen = []
    with pytest.raises(ValueError, match=f"item {bad} is bad"):
        for item, _ in share_out(partial(fail_on, bad), range(60), workers=2):
            seen.append(item)
    assert bad not in seen and len(seen) < 59


@pytest.mark.parametrize(
    ("what", "error", "message"),
    [
        ("raise", ValueError, "failed in a helper"),
        ("eof", EOFError, "a truncated stream"),
        ("unreadable", RuntimeError, "TwoArguments: 1, 2 .cannot pass it on"),
        ("die", RuntimeError, "a worker process died"),
    ],
)
def test_what_goes_wrong_in_a_helper_is_raised_here(what, error, message, tmp_path, no_helper_left):
    seen = []
    with pytest.raises(error, match=message):
        for item, _ in share_out(partial(in_helper, str(tmp_path), os.getpid(), what), range(300), workers=2):
            seen.append(item)
    assert 0 < len(seen) < 299  # this process worked until the helper's error came, then stopped


def test_a_helper_that_cannot_warm_up_stops_the_work(tmp_path, no_helper_left):
    with pytest.raises(ValueError, match="cannot warm up"):
        work = partial(after_warm_up_failed, str(tmp_path))
        list(share_out(work, range(60), 2, warm_up=partial(fail_warming, str(tmp_path))))


def test_a_caller_that_stops_early_leaves_no_helper(tmp_path, no_helper_left):
    results = share_out(partial(mark, str(tmp_path), 0.1), range(100), workers=3)
    for item, _ in results:
        if item >= 20:
            break
    results.close()
    assert len(list(tmp_path.iterdir())) < 100
