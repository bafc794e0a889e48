"""Writes done on a second thread while the caller makes the next batch (#57: the kernel never waits
for the writer).

Arrow encodes and compresses a table without holding Python's lock, so a compiled kernel dealing the
next batch on one core and the writer encoding the last one on the other run at once. At most
``depth`` batches wait for the writer (memory stays flat: the caller blocks when they are there).
An error on either side ends both: the writer's is raised in the caller at its next batch or at
the end; the caller's stops the writer before it is raised (the file is then the caller's to drop,
as it is when a write fails in line).

>>> written = []
>>> with BackgroundWrites(written.append, build=lambda n: n * n) as background:
...     for n in range(5):
...         background.put(n)
>>> written
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

_DONE = object()


def _as_it_is(item: Any) -> Any:
    return item


class BackgroundWrites:
    """``with BackgroundWrites(write, build) as background:`` each ``background.put(item)`` is given
    to ``write`` on a writer thread as ``build(item)``, in order; leaving the block waits for every
    item to be written. ``build`` (the rows of a chunk, say) runs on whichever thread is free: the
    writer's when it waits for work (a slow kernel), else the caller's, so neither waits long for
    the other; it must give the same whichever thread runs it."""

    def __init__(self, write: Callable[[Any], None], build: Callable[[Any], Any] = _as_it_is,
                 depth: int = 2) -> None:  # fmt: skip
        self._write, self._build = write, build
        self._waiting: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="scooplab-writer", daemon=True)

    def __enter__(self) -> BackgroundWrites:
        self._thread.start()
        return self

    def put(self, item: Any) -> None:
        """Queue ``item`` for the writer, built here if items already wait for it (waiting while
        ``depth`` of them wait); the writer's error, if it failed, is raised here."""
        queued = (item, None) if self._waiting.empty() else (item, (self._build(item),))
        while True:
            self._raise_error()
            try:
                self._waiting.put(queued, timeout=0.1)
                return
            except queue.Full:
                continue

    def __exit__(self, kind, error, trace) -> None:
        if kind is not None:
            self._stop.set()  # the caller failed: the writer stops at its next batch
        interrupted = False
        self._waiting_put_done()
        while self._thread.is_alive():  # (the file it writes must outlive it, even on a second Ctrl-C)
            try:
                self._thread.join()
            except KeyboardInterrupt:
                self._stop.set()
                interrupted = True
        if error is not None and self._error is not None:
            error.add_note(f"the writer failed too: {self._error}")
        if interrupted:
            raise KeyboardInterrupt
        if kind is None:
            self._raise_error()

    def _waiting_put_done(self) -> None:
        while self._thread.is_alive():
            try:
                self._waiting.put(_DONE, timeout=0.1)
                return
            except queue.Full:
                continue

    def _raise_error(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        while True:
            queued = self._waiting.get()
            if queued is _DONE or self._stop.is_set():
                return
            try:
                item, built = queued
                self._write(built[0] if built is not None else self._build(item))
            except BaseException as error:  # raised again in the caller's thread
                self._error = error
                self._drain()
                return

    def _drain(self) -> None:
        """Empty the queue (the caller may be waiting to put) after a failure."""
        while True:
            try:
                self._waiting.get_nowait()
            except queue.Empty:
                return
