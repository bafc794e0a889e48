"""What a long command says on standard error while it works: that numba compiles kernels, said
as a compile starts (each command's first, on a fresh cache), and how long compiling took, so
that rates can leave it out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import typer

NOTICE = "compiling the kernels into numba's cache (once; up to about four minutes on 2 cores)…"


class Compiles:
    """numba's compiles in this process while ``compile_notices`` listens: the notice said once, at
    the first, and the seconds of the outermost ones (a kernel compiles the functions it calls
    inside its own compile)."""

    def __init__(self) -> None:
        self.seconds, self.count, self._depth, self._start = 0.0, 0, 0, 0.0

    def on_start(self) -> None:
        if self._depth == 0:
            if not self.count:
                typer.echo(NOTICE, err=True)
            self.count += 1
            self._start = time.perf_counter()
        self._depth += 1

    def on_end(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._start


@contextmanager
def compile_notices() -> Iterator[Compiles]:
    """Listen to numba's compiles in this process (its ``numba:compile`` events, which a load from
    its cache does not send): a notice before the first, and their seconds."""
    from numba.core import event

    compiles = Compiles()

    class Listener(event.Listener):
        def on_start(self, event: object) -> None:
            compiles.on_start()

        def on_end(self, event: object) -> None:
            compiles.on_end()

    with event.install_listener("numba:compile", Listener()):
        yield compiles


def compile_note(compiles: Compiles) -> str:
    """What follows a rate that leaves the compiles out: their seconds (nothing when none).

    >>> compiles = Compiles()
    >>> compile_note(compiles)
    ''
    >>> compiles.count, compiles.seconds = 3, 207.62
    >>> compile_note(compiles)
    ' (after 207.6 s compiling the kernels, not counted)'
    """
    return f" (after {compiles.seconds:.1f} s compiling the kernels, not counted)" if compiles.count else ""
