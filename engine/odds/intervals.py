"""95% intervals of sampled figures: a proportion (Wilson), a mean, and a ratio of sums over
clusters (several seats of one deal counted in one group).

>>> [round(x, 4) for x in wilson(0.5, 100)]
[0.4038, 0.5962]
>>> [round(x, 4) for x in mean_interval(0.5, 0.5, 100)]
[0.402, 0.598]
"""

from __future__ import annotations

from math import sqrt

import numpy as np

Z95 = 1.959964


def wilson(rate: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``rate`` observed over ``n`` trials."""
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(centre - half, 0.0), min(centre + half, 1.0)
    return (0.0 if rate == 0 else low), (1.0 if rate == 1 else high)


def mean_interval(mean: float, mean_sq: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The normal interval of a mean of values in [0, 1], from the mean and the mean of squares."""
    half = z * sqrt(max(mean_sq - mean * mean, 0.0) / n)
    return max(mean - half, 0.0), min(mean + half, 1.0)


def ratio_intervals(sums: np.ndarray, sums_sq: np.ndarray, cross: np.ndarray, counts: np.ndarray,
                    counts_sq: np.ndarray, z: float = Z95) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Means ``R = sum S / sum C`` over clusters, with intervals by linearization.

    Per cluster (a deal) S is the sum of the values and C the count of the group's members;
    the arguments are sums over clusters of S, S², S·C, C and C². Members of one cluster may be
    correlated, which this variance allows for:
    ``var R = (sum S² - 2 R sum S·C + R² sum C²) / (sum C)²``.

    >>> mean, low, high = ratio_intervals(np.array([50.0]), np.array([50.0]), np.array([50.0]),
    ...                                   np.array([100.0]), np.array([100.0]))
    >>> round(float(mean[0]), 3), round(float(low[0]), 3), round(float(high[0]), 3)
    (0.5, 0.402, 0.598)
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        variance = (sums_sq - 2 * mean * cross + mean * mean * counts_sq) / (counts * counts)
        half = z * np.sqrt(np.maximum(variance, 0.0))
    return mean, np.clip(mean - half, 0.0, 1.0), np.clip(mean + half, 0.0, 1.0)
