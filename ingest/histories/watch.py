"""``scooplab ingest --watch FOLDER``: hands imported as a poker client writes them, the way
trackers auto-import.

The folder is looked at (recursively, ``os.scandir``, sizes and modification times) every few
seconds. A file of hands that grows (a site's text file, a ``.phhs``) is read from where the last
look stopped, and only its whole hands are taken (``sites.complete.complete_prefix``,
``phhs_complete_prefix``): a hand still being written waits for the rest. A ``.phh`` file, an
archive or an iPoker session (XML: each game needs the session's header) is read whole, once its
size and time stay the same from one look to the next (at the first look, at once). A file that
shrinks, is replaced (another inode) or is rewritten before the place the last look stopped is read
again from its start: the content id keeps its hands from being stored twice. Each look that finds
hands stores them as one ingest run (``pipeline.ingest_hands``), at most ``BATCH_BYTES`` of input at
a time.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ingest.histories.archives import printable_name
from ingest.histories.hand_ids import HandIds
from ingest.histories.phh import ARCHIVE_SUFFIXES, SITE_SUFFIXES, RawHand, hands_of_bytes, iter_hands
from ingest.histories.pipeline import ingest_hands
from ingest.histories.sites import SNIFF_BYTES, site_format
from ingest.histories.sites.complete import complete_prefix, ends_blank, hand_starts
from ingest.histories.sites.ipoker import NAME as IPOKER
from ingest.histories.sites.text import normalized_text
from ingest.storage.schema import new_run_id
from ingest.storage.warehouse import Warehouse

POLL_SECONDS = 2.0  # between two looks at the folder
BATCH_BYTES = 16 << 20  # the most input one run takes: a large folder comes in several runs, each soon done
CHECK_BYTES = 64  # a file's first bytes and those before its read place, compared at each read: a file
# rewritten where it was read is read again
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_PHHS_SECTION = re.compile(rb"^[ \t]*\[(?!\[)[ \t]*[^\]\s]+[ \t]*\][ \t]*(?:#[^\n]*)?$", re.M)
_LINE = re.compile(r"(?<=line )(\d+)")


def phhs_complete_prefix(data: bytes) -> int:
    """How many bytes at the start of ``data`` (a ``.phhs`` file, or what follows its last whole
    hand) are whole hands: up to the last section's ``[n]`` line, or to the end when a blank line
    ends that section; 0 when no section is whole.

    >>> phhs_complete_prefix(b"[1]\\na\\n\\n[2]\\nb\\n"), phhs_complete_prefix(b"[1]\\na = 1\\r\\n\\r\\n")
    (7, 13)
    >>> phhs_complete_prefix(b"# notes\\n[1]\\na = 1\\n"), phhs_complete_prefix(b"[[x]]\\n\\n")
    (0, 0)
    """
    starts = phhs_sections(data)
    if not starts:
        return 0
    last = data[starts[-1] :].decode("latin-1").replace("\r", "")
    end = len(data) if ends_blank(last) else starts[-1]
    return 0 if end <= starts[0] else end


def phhs_sections(data: bytes) -> list[int]:
    """Where each section of a ``.phhs`` file's bytes begins (its ``[n]`` line), as ``phh.split_phhs``
    splits its text."""
    return [found.start() for found in _PHHS_SECTION.finditer(data)]


@dataclass
class Seen:
    """What the watch knows of one file: which file it is, what it looked like, where reading stopped."""

    identity: tuple[int, int]  # device and inode: another file under the same name is read anew
    kind: str | None  # "site", "phhs", "whole" (.phh, archive), "text" (not known yet), None (no hands)
    size: int = -1  # at the last look
    mtime: int = -1
    offset: int = 0  # bytes read as whole hands (site, phhs)
    hands: int = 0  # hands read before the offset: the next one's index in its file
    lines: int = 0  # line ends before the offset: a site hand's reject names its line in the file
    head: bytes = b""  # the file's byte-order mark, given again before each later part
    start: bytes = b""  # the file's first bytes, as read
    tail: bytes = b""  # the bytes just before the offset, as read
    more: bool = False  # the last read stopped at the batch's limit: read on without waiting for a change
    read_as: tuple[int, int] | None = None  # a whole file: the size and time it was read at


@dataclass
class Piece:
    """What one file gives a batch: its new whole hands' bytes, or (``data`` None) the file to read
    whole, or the one-line reason it cannot be read."""

    path: str
    name: str
    seen: Seen  # told how many hands the piece held, once they are read
    hands: int = 0  # the file's hands before the piece
    lines: int = 0  # and its line ends (a site's file)
    data: bytes | None = None
    error: str | None = None


class FolderWatch:
    """The files of a folder and what has been read of each (in memory: a new watch reads every
    file from its start, and the content id finds the hands stored before)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).resolve()
        self.files: dict[str, Seen] = {}
        self.first = True  # the first look reads whole files at once
        self.behind = False  # the last look left input for the next one (the batch was full)

    def poll(self) -> list[Piece]:
        """One look at the folder: what each new or grown file gives, ``BATCH_BYTES`` at most."""
        pieces: list[Piece] = []
        budget, present, self.behind = BATCH_BYTES, set(), False
        for entry in sorted(watched_entries(self.folder), key=lambda e: e.path):
            present.add(entry.path)
            try:
                status = entry.stat()
            except OSError:
                continue  # gone since the listing
            if budget <= 0:
                self.behind = True  # looked at in the next batch
                continue
            piece = self._look(entry.path, status, budget)
            self.behind |= entry.path in self.files and self.files[entry.path].more
            if piece is not None:
                pieces.append(piece)
                budget -= len(piece.data) if piece.data is not None else status.st_size
        for gone in set(self.files) - present:
            del self.files[gone]
        self.first = False
        return pieces

    def _look(self, path: str, status: os.stat_result, budget: int) -> Piece | None:
        seen = self.files.get(path)
        identity = (status.st_dev, status.st_ino)
        if seen is None or seen.identity != identity or status.st_size < seen.size:
            seen = self.files[path] = Seen(identity, kind_of(path))  # new, replaced or shrunk: from the start
        now = (status.st_size, status.st_mtime_ns)
        changed, (seen.size, seen.mtime) = now != (seen.size, seen.mtime), now
        if seen.kind == "text" and changed:
            seen.kind = _sniffed(path, status.st_size)
        if seen.kind == "whole":
            settled = self.first or not changed
            if not settled or seen.read_as == now:
                return None
            seen.read_as = now
            return Piece(path, printable_name(path), seen)
        if seen.kind in ("site", "phhs") and (changed or seen.more) and status.st_size > seen.offset:
            return self._read_on(path, seen, budget)
        return None

    def _read_on(self, path: str, seen: Seen, budget: int) -> Piece | None:
        """The whole hands a site or ``.phhs`` file has gained since the last read (its offset
        moved past them), or None while none is whole."""
        try:
            with open(path, "rb") as file:
                start = file.read(len(seen.start))
                file.seek(seen.offset - len(seen.tail))
                data = file.read(len(seen.tail) + budget)
        except FileNotFoundError:
            return None
        except OSError as error:
            seen.kind = None  # said once, read again when replaced
            return Piece(path, printable_name(path), seen, seen.hands, error=f"cannot read: {error.strerror}")
        if start != seen.start or data[: len(seen.tail)] != seen.tail:  # rewritten where it was read
            self.files[path] = Seen(seen.identity, seen.kind, seen.size, seen.mtime)
            return self._read_on(path, self.files[path], budget)
        data = data[len(seen.tail) :]
        seen.more = len(data) == budget
        if seen.offset == 0:
            seen.head = next((bom for bom in _BOMS if data.startswith(bom)), b"")
            seen.start = data[:CHECK_BYTES]
            data = data[len(seen.head) :]
            seen.offset = len(seen.head)
        whole = _whole(seen, data)
        if whole <= 0 and seen.more and budget == BATCH_BYTES:  # no hand in the most a batch takes
            return self._skip(path, seen, data)
        if whole <= 0:
            return None
        first = (
            max(hand_starts(seen.head + data[:whole])[0] - len(seen.head), 0) if seen.kind == "site" else 0
        )
        lines = seen.lines + (normalized_text(seen.head + data[:first]).count("\n") if first else 0)
        piece = Piece(path, printable_name(path), seen, seen.hands, lines, seen.head + data[first:whole])
        _advance(seen, data[:whole])
        return piece

    def _skip(self, path: str, seen: Seen, data: bytes) -> Piece:
        """Input in which no hand ends: passed over, with one reject saying so."""
        reason = f"{len(data):,} bytes without a whole hand; skipped"
        piece = Piece(path, printable_name(path), seen, seen.hands, error=reason)
        _advance(seen, data)
        begun = len(phhs_sections(data) if seen.kind == "phhs" else hand_starts(seen.head + data))
        seen.hands += begun  # a hand begun there and never ended has its place in the file
        return piece


def _advance(seen: Seen, read: bytes) -> None:
    """Reading goes on after ``read``, the bytes that followed the offset."""
    seen.offset += len(read)
    seen.tail = (seen.tail + read)[-CHECK_BYTES:]
    if seen.kind == "site":
        seen.lines += normalized_text(seen.head + read).count("\n")


def _whole(seen: Seen, data: bytes) -> int:
    """The bytes of whole hands at the start of ``data``, the next bytes of a site or .phhs file."""
    if seen.kind == "phhs":
        return phhs_complete_prefix(data)
    return max(complete_prefix(seen.head + data) - len(seen.head), 0)


def kind_of(path: str) -> str | None:
    """How a file is read: ``phhs`` and ``text`` (a site's when its text says so) as they grow,
    ``whole`` (a .phh file, an archive) once; None: not read."""
    if path.endswith(".phhs"):
        return "phhs"
    if path.endswith((".phh", *ARCHIVE_SUFFIXES)):  # (zip too: what ``scooplab ingest`` reads)
        return "whole"
    return "text" if path.endswith(SITE_SUFFIXES) else None


def _sniffed(path: str, size: int) -> str | None:
    """A text file's kind from its first bytes: ``site``, ``whole`` (an iPoker session: XML, whose
    games need its header; read whole whenever it settles, the content id passing over the hands
    stored before), ``text`` while too short to tell, else None."""
    try:
        with open(path, "rb") as file:
            head = file.read(SNIFF_BYTES)
    except OSError:
        return "text"  # looked at again when it changes
    found = site_format(head)
    if found is not None:
        return "whole" if found == IPOKER else "site"
    return "text" if size < SNIFF_BYTES else None


def watched_entries(folder: Path) -> Iterator[os.DirEntry]:
    """The files under a folder (recursively, through links, each folder once) that a watch reads."""
    folders, visited = [str(folder)], set()
    while folders:
        try:
            status = os.stat(path := folders.pop())
            if (status.st_dev, status.st_ino) in visited:
                continue  # a link back to a folder already listed
            visited.add((status.st_dev, status.st_ino))
            with os.scandir(path) as listing:
                entries = list(listing)
        except OSError:
            continue  # gone, or not ours to read
        for entry in entries:
            try:
                if entry.is_dir():
                    folders.append(entry.path)
                elif entry.is_file() and kind_of(entry.name) is not None:
                    yield entry
            except OSError:
                continue


def hands_of(pieces: list[Piece]) -> Iterator[RawHand]:
    """The hands of a look's pieces, each named by its file, its place in the file and (a site's) its
    line there, as reading the whole file would name it."""
    for piece in pieces:
        if piece.error is not None:
            yield RawHand(piece.name, piece.hands, "", None, piece.error, whole_file=True)
        elif piece.data is None:
            yield from iter_hands([piece.path])
        else:
            count = 0
            for raw in hands_of_bytes(piece.data, piece.name):
                count += 1
                label = raw.label and shifted_lines(raw.label, piece.lines)
                yield replace(raw, hand_index=raw.hand_index + piece.hands, label=label)
            piece.seen.hands = piece.hands + count


def shifted_lines(label: str, lines: int) -> str:
    """A site hand's label read from a part of its file, naming its line in the whole file.

    >>> shifted_lines("#2345 (line 3)", 40)
    '#2345 (line 43)'
    """
    return _LINE.sub(lambda found: str(int(found[1]) + lines), label)


@dataclass
class WatchTotals:
    """What a watch stored until it was stopped."""

    runs: int = 0
    hands: int = 0
    duplicates: int = 0
    rejected: int = 0


def watch(folder: str | Path, warehouse: Warehouse, every: float = POLL_SECONDS,
          stopped: Callable[[], bool] = lambda: False, on_batch: Callable[..., None] | None = None,
          on_reject: Callable[[str], None] | None = None) -> WatchTotals:  # fmt: skip
    """Store the hands of ``folder`` as they are written, until ``stopped()``: a look every ``every``
    seconds, each look's hands one run (``watch-<when>-<n>``), ``on_batch(report, files)`` told of it
    (also a look whose hands were all stored before: no run then). ``stopped`` is asked between looks
    and while waiting: a batch begun is finished."""
    watcher, known, prefix = FolderWatch(folder), HandIds(warehouse.hand_ids()), new_run_id("watch")
    totals = WatchTotals()
    while not stopped():
        began = time.monotonic()
        pieces = watcher.poll()
        if pieces:
            run_id = f"{prefix}-{totals.runs + 1:04d}"
            names = sorted({piece.path for piece in pieces})
            report = ingest_hands(hands_of(pieces), warehouse, names, run_id, on_reject, known)
            totals.runs += bool(report.hands + report.rejected)
            totals.hands += report.hands
            totals.duplicates += report.duplicates
            totals.rejected += report.rejected
            if on_batch is not None:
                on_batch(report, len(names))
        if not watcher.behind:
            _pause(began + every, stopped)
    return totals


def _pause(until: float, stopped: Callable[[], bool]) -> None:
    """Wait until the monotonic clock reaches ``until``, or ``stopped()``, looking every 0.1 s."""
    while not stopped() and (left := until - time.monotonic()) > 0:
        time.sleep(min(left, 0.1))
