"""Writes done on a second thread while the caller makes the next batch (#57: the kernel never waits
for the writer).

Arrow encodes and compresses a table without holding Python's lock, so a compiled kernel dealing the
next batch on one core and the writer encoding the last one on the other run at once. At most
``depth`` batches wait for the writer (memory stays flat: the caller blocks when they are there).
An error on either side ends both: the writer's is raised in the caller at its next batch or at
the end; the caller's stops the writer before it is raised (the file is then the caller's to drop,
as it is when a write fails in line).

>>> written = []
>>> with BackgroundWrites(written.append) as background:
...     for n in range(5):
...         background.put(n)
>>> written
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

_DONE = object()


class BackgroundWrites:
    """``with BackgroundWrites(write) as background:`` each ``background.put(batch)`` is given to
    ``write`` on a writer thread, in order; leaving the block waits for every batch to be written."""

    def __init__(self, write: Callable[[Any], None], depth: int = 2) -> None:
        self._write = write
        self._waiting: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="scooplab-writer", daemon=True)

    def __enter__(self) -> BackgroundWrites:
        self._thread.start()
        return self

    def idle(self) -> bool:
        """Whether no batch waits for the writer (it writes its last one, or waits for the next)."""
        return self._waiting.empty()

    def put(self, batch: Any) -> None:
        """Queue ``batch`` for the writer (waiting while ``depth`` batches wait); the writer's error, if
        it failed, is raised here."""
        while True:
            self._raise_error()
            try:
                self._waiting.put(batch, timeout=0.1)
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
            batch = self._waiting.get()
            if batch is _DONE or self._stop.is_set():
                return
            try:
                self._write(batch)
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
