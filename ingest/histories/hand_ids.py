"""The hand ids an ingest has seen, in 10 bytes each, so that a corpus of millions stays small.

A content id (``rows.hand_id``) is 20 hex digits: 10 bytes. ``HandIds`` keeps the newest ids in
a set and the others in sorted arrays of those bytes, merged as they grow (each array at least
twice the size of the next), so a lookup is a set probe and a binary search per array, and a
million ids take about 10 MB instead of the 100 MB a set of strings takes. An id of another form
(an old or a simulated run's) is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

NEWEST = 1 << 16  # ids kept in a set before they are sorted into an array
_HEX_ID = re.compile(r"[0-9a-f]{20}")
KEY = np.dtype("S10")


def keys_of(ids: list[str]) -> np.ndarray:
    """Content ids (20 hex digits each) as their 10 bytes (an ``S10`` array).

    >>> keys_of(["00ff" * 5]).tolist()
    [b'\\x00\\xff\\x00\\xff\\x00\\xff\\x00\\xff\\x00\\xff']
    """
    return np.frombuffer(bytes.fromhex("".join(ids)), KEY)


def ids_of(keys: np.ndarray) -> list[str]:
    """``keys_of`` undone (a key's trailing zero bytes kept).

    >>> ids_of(keys_of(["00ff" * 4 + "0000", "ab" * 10]))
    ['00ff00ff00ff00ff0000', 'abababababababababab']
    """
    text = np.ascontiguousarray(keys).tobytes().hex()
    return [text[i : i + 20] for i in range(0, len(text), 20)]


class HandIds:
    """A set of hand ids: ``in``, ``add``, ``update`` and ``len``.

    >>> ids = HandIds(["00ff" * 5, "sim-1"])
    >>> "00ff" * 5 in ids, "sim-1" in ids, "ab" * 10 in ids, len(ids)
    (True, True, False, 2)
    >>> ids.update("%020x" % n for n in range(100_000))
    >>> "%020x" % 99_999 in ids, "%020x" % 100_000 in ids, len(ids)
    (True, False, 100002)
    >>> ids.contains_many(["%020x" % 5, "%020x" % 100_001, "00ff" * 5]).tolist()
    [True, False, True]
    """

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self._newest: set[str] = set()
        self._sorted: list[tuple[np.ndarray, np.ndarray]] = []  # levels, largest first
        self._other: set[str] = set()
        self.update(ids)

    def __contains__(self, identity: object) -> bool:
        if identity in self._newest or identity in self._other:
            return True
        if not self._sorted or not isinstance(identity, str) or not _HEX_ID.fullmatch(identity):
            return False  # (no sorted ids yet: nothing more to look in)
        return bool(self._in_sorted(keys_of([identity]))[0])

    def __len__(self) -> int:
        return len(self._newest) + len(self._other) + sum(len(high) for high, _ in self._sorted)

    def contains_many(self, ids: list[str]) -> np.ndarray:
        """``id in self`` for each of ``ids`` (content ids, 20 hex digits each), at once."""
        found = np.array([identity in self._newest or identity in self._other for identity in ids], np.bool_)
        if not self._sorted or not ids:
            return found
        return found | self._in_sorted(keys_of(ids))

    def contains_keys(self, keys: np.ndarray) -> np.ndarray:
        """``contains_many`` of ids given as their keys (``keys_of``)."""
        found = np.zeros(len(keys), np.bool_)
        if self._newest:
            found[:] = [identity in self._newest for identity in ids_of(keys)]
        return found | self._in_sorted(keys)

    def add_keys(self, keys: np.ndarray) -> None:
        """Keep ids given as their keys (none kept yet)."""
        if len(keys):
            self._push(keys)

    def _in_sorted(self, keys: np.ndarray) -> np.ndarray:
        high, low = _halves(keys)
        found = np.zeros(len(keys), np.bool_)
        for sorted_high, sorted_low in self._sorted:
            first = np.searchsorted(sorted_high, high, "left")
            after = np.searchsorted(sorted_high, high, "right")
            one = after - first == 1
            found[one] |= sorted_low[first[one]] == low[one]
            for i in np.flatnonzero(after - first > 1).tolist():  # ids sharing their first 8 bytes
                found[i] |= bool((sorted_low[first[i] : after[i]] == low[i]).any())
        return found

    def add(self, identity: str) -> None:
        """Keep ``identity`` (one not kept yet: ``len`` counts what was added)."""
        if not _HEX_ID.fullmatch(identity):
            self._other.add(identity)
            return
        self._newest.add(identity)
        if len(self._newest) >= NEWEST:
            self._settle()

    def update(self, ids: Iterable[str]) -> None:
        """Keep each of ``ids`` (none kept yet); many at once go straight into a sorted array."""
        ids = list(ids)
        if len(ids) < NEWEST:
            for identity in ids:
                self.add(identity)
            return
        hex_ids = [i for i in ids if _HEX_ID.fullmatch(i)]
        self._other.update(i for i in ids if not _HEX_ID.fullmatch(i))
        self._push(keys_of(hex_ids))

    def _settle(self) -> None:
        """The newest ids into a sorted array."""
        keys = keys_of(list(self._newest))
        self._newest = set()
        self._push(keys)

    def _push(self, keys: np.ndarray) -> None:
        """Keys in, as a sorted level (first 8 bytes, last 2 as numbers); levels merged while one is
        not twice the next."""
        high, low = _halves(keys)
        while self._sorted and len(self._sorted[-1][0]) < 2 * len(high):
            last_high, last_low = self._sorted.pop()
            high, low = np.concatenate([last_high, high]), np.concatenate([last_low, low])
        order = np.lexsort((low, high))
        high, low = high[order], low[order]
        new = np.ones(len(high), np.bool_)
        new[1:] = (high[1:] != high[:-1]) | (low[1:] != low[:-1])
        self._sorted.append((high[new], low[new]))


def _halves(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys as numbers that sort as their bytes do: the first 8 bytes and the last 2."""
    raw = np.ascontiguousarray(keys).view(np.uint8).reshape(-1, 10)
    high = np.ascontiguousarray(raw[:, :8]).view(">u8").ravel().astype(np.uint64)
    low = np.ascontiguousarray(raw[:, 8:]).view(">u2").ravel().astype(np.uint16)
    return high, low
