"""Odds paced to a time limit: the work said before it starts, its rate measured on first batches
(the very first untimed: it loads the kernels, or compiles them once), the time it takes
estimated, and past the limit a sample of what fits instead (refused when every runout or a
number of samples was asked for). The caller hears of each step and draws what it likes; the
batches change no figure (``engine.odds.situations.OddsWork``).

>>> asked = Estimate(exact=False, runouts=200_000)
>>> asked.size()
'200,000 sampled runouts'
>>> fitted = fit(asked, rate=133.0, max_seconds=60)
>>> fitted.runouts, fitted.cut, duration(fitted.asked_seconds)
(7980, True, '25 min')
>>> fitted.margin() < 0.011
True
>>> fit(Estimate(exact=True, runouts=1_712_304), rate=2e6, max_seconds=60).cut
False
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from math import sqrt
from typing import Protocol

from engine.odds.equity import CHUNK, OddsError

FIRST = 32  # runouts settled first and not timed: they load the kernels (or compile them, once)
TIMED = 0.25  # seconds of timed batches the rate is measured over
STEP = 0.5  # seconds a batch takes after that: how often progress is heard of
FEWEST = 100  # a sample cut to the time limit keeps at least these runouts
Z95 = 1.959964


class Work(Protocol):
    """Odds settled batch by batch (``engine.odds.situations.OddsWork``)."""

    exact: bool
    total: int
    done: int

    def settle(self, n: int) -> int: ...

    def cut(self, total: int) -> None: ...


@dataclass(frozen=True)
class Estimate:
    """What odds settle: every runout (``exact``) or a sample, ``runouts`` of them; once measured,
    the ``rate`` (runouts a second); and when a time limit cut the work, what was asked."""

    exact: bool
    runouts: int
    rate: float | None = None
    max_seconds: float | None = None
    asked_exact: bool | None = None  # (a cut) what was asked: every runout, or a sample
    asked_runouts: int | None = None

    @property
    def cut(self) -> bool:
        """Fewer runouts than asked, to fit the time limit."""
        return self.asked_runouts is not None

    @property
    def seconds(self) -> float | None:
        """The time the runouts take at the rate measured."""
        return None if not self.rate else self.runouts / self.rate

    @property
    def asked_seconds(self) -> float | None:
        """The time what was asked would have taken."""
        return None if not self.rate else (self.asked_runouts or self.runouts) / self.rate

    def size(self, exact: bool | None = None, runouts: int | None = None) -> str:
        """``every runout (1,712,304)`` or ``200,000 sampled runouts`` (by default these runouts)."""
        exact = self.exact if exact is None else exact
        runouts = self.runouts if runouts is None else runouts
        return f"every runout ({runouts:,})" if exact else f"{runouts:,} sampled runouts"

    def asked(self) -> str:
        """The work asked for, before a cut."""
        return self.size(self.asked_exact, self.asked_runouts) if self.cut else self.size()

    def margin(self) -> float | None:
        """A sample's widest 95% half-interval of a figure between 0 and 1 (an equity, a share, a
        rate): every figure is known at least this closely. None when exact."""
        return None if self.exact else Z95 * sqrt(0.25 / self.runouts)

    def timing(self) -> str:
        """``about 25 min at 133 runouts a second`` (what was asked, once measured)."""
        if not self.rate:
            return ""
        return f"about {duration(self.asked_seconds or 0)} at {self.rate:,.0f} runouts a second"


class OverBudget(OddsError):
    """Every runout, or the number of samples asked for, would take longer than the time limit."""

    def __init__(self, estimate: Estimate, fits: int):
        self.estimate, self.fits = estimate, fits
        super().__init__(f"{estimate.size()} would take {estimate.timing()}, past the time limit of "
                         f"{estimate.max_seconds:g} s ({fits:,} sampled runouts fit)")  # fmt: skip


def duration(seconds: float) -> str:
    """A time to read: ``0.4 s``, ``25 s``, ``4 min 10 s``, ``25 min``, ``2 h 5 min``.

    >>> [duration(s) for s in (0.42, 25.3, 250, 1504, 7500)]
    ['0.4 s', '25 s', '4 min 10 s', '25 min', '2 h 5 min']
    """
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 600:
        return f"{whole // 60} min {whole % 60} s" if whole % 60 else f"{whole // 60} min"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min" if minutes % 60 else f"{minutes // 60} h"


def fit(asked: Estimate, rate: float, max_seconds: float, forced: bool = False) -> Estimate:
    """The work asked for as it fits ``max_seconds`` at ``rate`` runouts a second: as asked when it
    does, else a sample of the runouts that fit (at least ``FEWEST``); ``forced`` (every runout or
    a number of samples was asked for) refuses instead, with ``OverBudget``.

    >>> fit(Estimate(False, 50_000), rate=1_000.0, max_seconds=60).runouts
    50000
    >>> fit(Estimate(True, 1_712_304), rate=10_000.0, max_seconds=60).size()
    '600,000 sampled runouts'
    >>> try:
    ...     fit(Estimate(True, 1_712_304), rate=10_000.0, max_seconds=60, forced=True)
    ... except OverBudget as refused:
    ...     print(refused.estimate.timing(), refused.fits)
    about 2 min 51 s at 10,000 runouts a second 600000
    """
    measured = replace(asked, rate=rate, max_seconds=max_seconds)
    if asked.runouts <= rate * max_seconds:
        return measured
    fits = max(int(rate * max_seconds), FEWEST)
    if fits >= asked.runouts:
        return measured
    if forced:
        raise OverBudget(measured, fits)
    return replace(measured, exact=False, runouts=fits, asked_exact=asked.exact, asked_runouts=asked.runouts)


def measure(work: Work, clock: Callable[[], float] = time.perf_counter) -> float | None:
    """Runouts a second, timed on batches after a first untimed one (it loads the kernels, or
    compiles them); None when these batches finish the work."""
    work.settle(FIRST)
    n, count, seconds = FIRST, 0, 0.0
    while work.done < work.total and seconds < TIMED:
        if count and seconds > 0:  # as many as should take the rest of the timed seconds
            n = min(4 * n, max(1, int(count / seconds * (TIMED - seconds)) + 1))
        else:
            n = 4 * n
        start = clock()
        count += work.settle(min(n, CHUNK))
        seconds += clock() - start
    return None if work.done >= work.total else count / max(seconds, 1e-9)


def paced(work: Work, max_seconds: float | None, resample: Callable[[int], Work], *, forced: bool = False,
          on_estimate: Callable[[Estimate], None] | None = None,
          progress: Callable[[int, int], None] | None = None,
          clock: Callable[[], float] = time.perf_counter) -> Work:  # fmt: skip
    """Settle ``work`` to the end, within about ``max_seconds`` (None: however long it takes).

    ``on_estimate`` hears the work before it starts, then (with a limit, unless the first batches
    finish it) its estimate: as asked, or cut to what fits (``resample(k)`` gives the sample of
    ``k`` runouts that replaces every runout); ``forced`` refuses instead (``fit``).
    ``progress(done, total)`` hears of each batch after that. Returns the work settled.
    """
    asked = Estimate(work.exact, work.total, max_seconds=max_seconds)
    if on_estimate is not None:
        on_estimate(asked)
    batch = CHUNK
    if max_seconds is not None:
        rate = measure(work, clock)
        if rate is not None:
            estimate = fit(asked, rate, max_seconds, forced)
            if estimate.exact != work.exact:  # every runout does not fit: a sample of what does
                work = resample(estimate.runouts)
            elif estimate.cut:  # a sample keeps the runouts settled already
                estimate = replace(estimate, runouts=max(estimate.runouts, work.done))
                work.cut(estimate.runouts)
            if on_estimate is not None:
                on_estimate(estimate)
            batch = max(1, min(CHUNK, int(rate * STEP)))
    while work.done < work.total:
        work.settle(batch)
        if progress is not None:
            progress(work.done, work.total)
    return work
