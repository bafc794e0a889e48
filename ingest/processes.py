"""Worker processes that end with the process that started them, and work shared with them.

A process killed with SIGKILL cannot stop its children; on Linux each child asks the kernel to
kill it when its parent dies, so a killed ``scooplab simulate`` (or a dashboard running a query)
leaves no process behind.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

PR_SET_PDEATHSIG = 1  # prctl option: the signal this process gets when its parent dies
STOP_SECONDS = 5  # a helper told to stop (SIGTERM) and still alive after this is killed


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) dies: Linux sends it SIGKILL; if
    the parent is gone already, end now. Elsewhere only the second check is made."""
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def share_out(
    task: Callable[[T], R], items: Iterable[T], workers: int, warm_up: Callable[[], Any] | None = None
) -> Iterator[tuple[T, R]]:
    """Yield ``(item, task(item))`` for every item as each finishes, on ``workers`` processes:
    this one and ``workers - 1`` helpers started for the call (spawned, ending with this one).

    This process works from the start; a helper first runs ``warm_up`` (imports, compiled code
    from the cache), then takes items one at a time as long as any remain. So a run pays no
    helper's start-up in its time (a short run is done here before a helper is ready, and the
    helper is stopped), and no process idles while items remain. ``task`` and ``warm_up`` must
    pickle (top-level functions, or ``functools.partial`` of them). The first error raised by a
    task, here or in a helper, is raised here; nothing more is started after it, and helpers
    still at work are stopped (a task must leave nothing half done that a rerun cannot redo).
    """
    pending = deque(items)
    total = len(pending)
    helpers = min(workers, total) - 1
    if helpers <= 0:
        for item in pending:
            yield item, task(item)
        return
    lock = threading.Lock()
    finished: queue.SimpleQueue = queue.SimpleQueue()

    def take() -> tuple[bool, Any]:
        with lock:
            return (True, pending.popleft()) if pending else (False, None)

    def stop() -> None:
        with lock:
            pending.clear()

    context = multiprocessing.get_context("spawn")  # a fork would copy this process's threads and state
    started, feeders = [], []
    try:
        for _ in range(helpers):  # started by this thread, which lives to the end: a helper dies with it
            ours, theirs = context.Pipe()
            process = context.Process(target=_helper, args=(theirs, task, warm_up, os.getpid()), daemon=True)
            process.start()
            theirs.close()
            started.append((process, ours))
        feeders = [threading.Thread(target=_feed, args=(ours, take, stop, finished)) for _, ours in started]
        for feeder in feeders:
            feeder.start()
        yield from _collect(task, take, finished, total)
    finally:
        stop()
        for process, _ in started:
            process.terminate()  # idle, warming up, or (after an error) at work: not needed any more
        for process, _ in started:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        for feeder in feeders:  # their helpers are gone: each ends at its next message
            feeder.join()
        for _, ours in started:
            ours.close()


def _helper(connection: Connection, task: Callable, warm_up: Callable | None, parent: int) -> None:
    """A helper process: warm up, say so, then do each item sent until told to stop (None)."""
    die_with_parent(parent)
    try:
        if warm_up is not None:
            warm_up()
        _send(connection, ("ready", None))
        while True:
            try:
                message = connection.recv()
            except EOFError:
                return  # the parent is done with this helper
            if message is None:
                return
            _send(connection, ("done", task(message[0])))
    except BaseException as error:  # handed to the parent, which raises it
        _send(connection, ("error", error))


def _send(connection: Connection, message: tuple[str, Any]) -> None:
    """Send a message the parent can read back: what would not pickle and unpickle whole goes as a
    RuntimeError with its text."""
    try:
        data = pickle.dumps(message)
        pickle.loads(data)
    except Exception as error:
        what = f"{type(message[1]).__name__}: {message[1]}"
        data = pickle.dumps(("error", RuntimeError(f"{what} (cannot pass it on: {error!r})")))
    connection.send_bytes(data)


def _feed(connection: Connection, take, stop, finished: queue.SimpleQueue) -> None:
    """One helper's side in this process: once it is ready, hand it items one at a time."""
    item = None
    try:
        kind, value = pickle.loads(connection.recv_bytes())
        while kind in ("ready", "done"):
            if kind == "done":
                finished.put((item, value, None))
            more, item = take()
            if not more:
                connection.send(None)
                return
            connection.send((item,))
            kind, value = pickle.loads(connection.recv_bytes())
        error = value
    except (EOFError, OSError):  # the helper died, or was stopped once the call ended
        error = RuntimeError("a worker process died")
    except Exception as failure:  # a message that does not read back: never leave the caller waiting
        error = RuntimeError(f"cannot read a worker's message: {failure!r}")
    stop()
    finished.put((item, None, error))


def _collect(task, take, finished: queue.SimpleQueue, total: int) -> Iterator[tuple[Any, Any]]:
    """This process's side of ``share_out``: results the helpers finished, else an item of its own,
    else wait for a helper; until all ``total`` items are done."""
    for _ in range(total):
        try:
            item, result, error = finished.get_nowait()
        except queue.Empty:
            more, item = take()
            if more:
                yield item, task(item)
                continue
            item, result, error = finished.get()
        if error is not None:
            raise error
        yield item, result
