"""Tar and zip archives read as a stream, bounded: every regular file in order, a bomb stopped.

Plain ustar and GNU headers are read here, several times faster than ``tarfile`` for
thousands of small files; anything else goes to ``tarfile``. Every byte read, compressed and
expanded, counts in a ``Budget``: an archive that expands past ``ARCHIVE_EXPANSION`` times its
compressed size (beyond ``ARCHIVE_FLOOR``) raises ``ArchiveBomb`` naming the member being read
(docs/reliability.md, "Bad input at scale"). Nothing here knows hand histories
(``ingest.histories.phh`` reads them from the members).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ARCHIVE_EXPANSION = 100
"""An archive may expand to this many times the compressed bytes read so far (or to
``ARCHIVE_FLOOR``, if more); past both it is a bomb and reading it stops with one reject.

Real hand archives expand 5 to 20 times (pluribus.tar.gz: 18.5); zeros expand a thousand times."""

ARCHIVE_FLOOR = 256 << 20
"""Bytes any archive may expand to whatever its ratio: small archives are never judged, and a
bomb is stopped after at most this much work (a fraction of a second of decompression)."""

BLOCK = 1 << 20  # bytes skipped at a time in a member a reader leaves
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


def printable_name(name: str) -> str:
    """A file name as one line of text Arrow can store: bytes that are not UTF-8 become U+FFFD,
    control characters and line separators Python's escapes.

    >>> print(printable_name("a\\nb\\udcff\\u2028c.phh"))
    a\\nb�\\u2028c.phh
    """
    if name.isascii() and name.isprintable():
        return name
    name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode(), name)


READ_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile)
"""What reading a broken archive may raise (``ArchiveBomb`` is a ``tarfile.TarError``)."""


class ArchiveBomb(tarfile.TarError):
    """An archive that expands past ``ARCHIVE_EXPANSION`` times its compressed size."""


class Budget:
    """The bytes an archive was read as (compressed) and expanded to; ``check`` stops a bomb."""

    def __init__(self) -> None:
        self.compressed = 0
        self.expanded = 0
        self.member = ""  # the member being read, named in the reject

    def check(self) -> None:
        if self.expanded > ARCHIVE_FLOOR and self.expanded > ARCHIVE_EXPANSION * self.compressed:
            where = f" in {self.member}" if self.member else ""
            raise ArchiveBomb(f"it expands to more than {ARCHIVE_EXPANSION} times its compressed size "
                              f"(stopped after {self.expanded:,} bytes{where})")  # fmt: skip


class _Compressed:
    """The archive file as read from disk, its bytes counted in a budget."""

    def __init__(self, raw: io.BufferedReader, budget: Budget) -> None:
        self.raw, self.budget = raw, budget

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.budget.compressed += len(data)
        return data


class _Expanded:
    """The tar stream decompressed from an archive, its bytes counted: a read past the budget
    raises ``ArchiveBomb``."""

    def __init__(self, stream: Any, budget: Budget) -> None:
        self.stream, self.budget = stream, budget

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        budget = self.budget
        budget.expanded += len(data)
        if budget.expanded > ARCHIVE_FLOOR:
            budget.check()
        return data


class _Region:
    """The next ``size`` bytes of a stream: one member's data."""

    def __init__(self, stream: _Expanded, size: int) -> None:
        self.stream, self.left = stream, size

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        data = self.stream.read(size) if size else b""
        self.left -= len(data)
        if len(data) < size:
            raise tarfile.ReadError("unexpected end of data")
        return data

    def skip(self) -> None:
        while self.left:
            self.read(BLOCK)


@dataclass
class Member:
    """A regular file of an archive: its name (printable), size, and a reader of its data."""

    name: str
    size: int
    sparse: bool
    data: Any  # read(size) -> bytes


class _NotPlainTar(Exception):
    """An archive member that ``members`` leaves to ``tarfile``."""


@contextmanager
def _tar_stream(path: Path, budget: Budget) -> Iterator[_Expanded]:
    """The tar stream of an archive, decompressed as its first bytes say (gzip, bzip2, xz or none)."""
    with open(path, "rb") as raw, ExitStack() as stack:
        magic = raw.read(6)
        raw.seek(0)
        compressed = _Compressed(raw, budget)
        stream: Any = compressed
        if magic[:2] == b"\x1f\x8b":
            stream = stack.enter_context(gzip.GzipFile(fileobj=compressed, mode="rb"))
        elif magic[:3] == b"BZh":
            stream = stack.enter_context(bz2.BZ2File(compressed))
        elif magic == b"\xfd7zXZ\x00":
            stream = stack.enter_context(lzma.LZMAFile(compressed))
        yield _Expanded(stream, budget)


NOT_TAR = "not a tar archive, plain or compressed"  # no digit: the rejects view counts numbers as N


ZIP_MAGIC = b"PK\x03\x04"  # the first bytes of a zip archive


def members(path: Path) -> Iterator[Member]:
    """Every regular file of a tar archive (or a zip archive: ``zip_members``), in order, its data
    read as it goes.

    Plain ustar and GNU headers are read here, several times faster than ``tarfile`` for
    thousands of small files; anything else (long names, pax headers, base-256 sizes, a bad
    checksum) hands the archive to ``tarfile``, read again as a stream from the first file not
    yet given. Every byte read counts in one ``Budget``: past it, ``ArchiveBomb``. A file whose
    first header is not one raises ``tarfile.ReadError`` saying it is ``NOT_TAR``.
    """
    with open(path, "rb") as head:
        if head.read(4) == ZIP_MAGIC:
            yield from zip_members(path)
            return
    given = 0
    try:
        for member in _members(path):
            given += 1
            yield member
    except tarfile.ReadError as error:
        if given:
            raise
        raise tarfile.ReadError(f"{NOT_TAR} ({error})") from error  # the reason's kind: its last part


def _members(path: Path) -> Iterator[Member]:
    budget = Budget()
    given = 0
    with _tar_stream(path, budget) as stream:
        try:
            for member in _plain_members(stream):
                given += 1
                budget.member = member.name
                yield member
            return
        except _NotPlainTar:
            pass
    budget.compressed = budget.expanded = 0  # read again from the start
    with _tar_stream(path, budget) as stream, tarfile.open(fileobj=stream, mode="r|") as archive:
        files = 0
        while (info := archive.next()) is not None:
            archive.members = []  # a stream of members, not a list of them: memory stays flat
            if info.isfile():
                files += 1
                if files > given:
                    budget.member = name = printable_name(info.name)
                    yield Member(name, max(info.size, 0), info.issparse(), archive.extractfile(info))


def _plain_members(stream: _Expanded) -> Iterator[Member]:
    """The regular files of a plain ustar/GNU tar stream; ``_NotPlainTar`` at a header it leaves to
    ``tarfile``. What the reader leaves of a member's data is skipped (and counted) after it."""
    while True:
        header = stream.read(512)
        if len(header) < 512 or not any(header):
            if any(header):
                raise tarfile.ReadError("unexpected end of data")
            return  # the end-of-archive zero block, or the end of the stream
        kind = header[156:157]
        checksum = header[148:156].split(b"\0", 1)[0].strip()
        size_field = header[124:136].split(b"\0", 1)[0].strip() or b"0"
        if kind not in (b"0", b"\0", b"5") or not checksum.isdigit() or not size_field.isdigit():
            raise _NotPlainTar  # base-256 sizes and other headers: tarfile reads them or refuses them
        try:
            if int(checksum, 8) != sum(header[:148]) + 256 + sum(header[156:]):
                raise _NotPlainTar
            size = int(size_field, 8)
        except ValueError:  # an 8 or a 9: not octal
            raise _NotPlainTar from None
        name = header[:100].split(b"\0", 1)[0]
        prefix = header[345:500].split(b"\0", 1)[0] if header[257:262] == b"ustar" else b""
        data = _Region(stream, size)
        if kind != b"5":
            path = (prefix + b"/" + name if prefix else name).decode("utf-8", "replace")
            yield Member(printable_name(path), size, False, data)
        data.skip()
        stream.read(-size % 512)


class _ZipData:
    """A zip member's data as it expands, counted in the archive's budget (a bomb stops)."""

    def __init__(self, stream: Any, budget: Budget) -> None:
        self.stream, self.budget = stream, budget

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.budget.expanded += len(data)
        self.budget.check()
        return data


def zip_members(path: Path) -> Iterator[Member]:
    """Every regular file of a zip archive, in its order; each member's compressed bytes count in
    the budget as it is opened, what it expands to as it is read (past the budget: ``ArchiveBomb``)."""
    budget = Budget()
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            budget.member = name = printable_name(info.filename)
            budget.compressed += info.compress_size
            with archive.open(info) as stream:
                yield Member(name, info.file_size, False, _ZipData(stream, budget))


def archive_files(path: str | Path) -> Iterator[tuple[str, bytes]]:
    """Name and bytes of every regular file of a tar archive (gzip, bzip2, xz or none), in order.

    A cut stream gives every file before the cut, then ``EOFError`` (or ``tarfile.ReadError``);
    an archive that expands past the budget raises ``ArchiveBomb``.
    """
    for member in members(Path(path)):
        yield member.name, member.data.read(member.size)
