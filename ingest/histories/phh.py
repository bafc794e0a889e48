"""PHH hand histories: read .phh and .phhs files, folders and .tar.gz archives; write them.

Reading never stops at a bad hand: every hand comes back as a ``RawHand`` with
either its parsed fields or the one-line reason it could not be parsed.

Reading is bounded whatever the input (docs/reliability.md, "Bad input at scale"): a hand
larger than ``MAX_HAND_BYTES`` is rejected without being held in memory, a .phhs file or
member is read a block at a time, values nested deeper than ``MAX_NESTING`` and keys of more
than ``MAX_KEY_PARTS`` parts are rejected before anything recurses through them, and an
archive that expands past ``ARCHIVE_EXPANSION`` times its compressed size (beyond
``ARCHIVE_FLOOR``) is a bomb: reading it stops with one reject naming it and its member
(``ingest.histories.archives`` reads archives; this module reads the hands of their members).

>>> hand = parse_hand_text('variant = "NT"\\nactions = ["d dh p1 AcAd"]', "x.phh", 0)
>>> hand.fields["variant"], hand.error
('NT', None)
>>> print(write_hand({"variant": "NT", "antes": [0, 0], "_options": {"burns": True}}), end="")
variant = "NT"
antes = [0, 0]
_options = { burns = true }
"""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.histories import sites
from ingest.histories.archives import READ_ERRORS, Member, members, printable_name

PHH_SUFFIXES = (".phh", ".phhs")
_SECTION = re.compile(r"^\s*\[\s*([^\]\s]+)\s*\]\s*(#.*)?$")

# Field order when writing: the required fields, then the rest alphabetically.
FIELD_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "_starting_bet",
    "_options",
    "starting_stacks",
    "actions",
)


NOT_TEXT = "not UTF-8 text"  # the reject reason of a file that is not text
NO_FORMAT = "no hand history scooplab reads (PHH, PokerStars, GGPoker, OHH)"  # a text file of no known format
GZIP_MAGIC = b"\x1f\x8b"  # the first two bytes of every gzip file


def gzip_named(name: str) -> str:
    """The reject reason of a gzip file named as a hand history (no colon: the rejects view counts
    reasons by what follows the last one).

    >>> gzip_named("hands.phh")
    'a gzip archive named .phh (rename it .tar.gz)'
    """
    return f"a gzip archive named {Path(name).suffix} (rename it .tar.gz)"


# -- limits: what reading any input may cost (docs/reliability.md, "Bad input at scale") ----------

MAX_HAND_BYTES = 1 << 20
"""The largest hand read, 1 MiB: the bytes of a .phh file or member, the characters of a .phhs hand.

Real hands are 1 to 5 KB. A larger one is rejected (``TOO_BIG``) without ever being held whole:
a .phh file is not read, a .phhs hand is skipped a block at a time, so a 50 MB field costs no
memory. The slowest 1 MiB of TOML ``tomllib`` parses takes about a second and a half."""

MAX_NESTING = 16
"""How deep a hand's values may nest (arrays in arrays, tables in tables); PHH needs two levels.

Deeper is rejected before the content hash and JSON recurse through it; ``tomllib`` itself gives
up at Python's recursion limit (a few hundred levels), which is rejected the same way."""

MAX_KEY_PARTS = 64
"""The most dotted parts of a TOML key (``a.b.c`` has three).

``tomllib``'s time and memory grow with the square of a key's parts (100,000 parts would take
tens of GB), so a hand with a longer key is rejected without being parsed."""

MAX_NUMBER_DIGITS = 4300
"""The longest integer a hand may hold, in decimal digits: the most Python converts between an
int and text. A longer decimal does not parse; a hexadecimal, octal or binary literal of more
is rejected too, since the content hash writes every number out."""

TOO_BIG = f"the hand is larger than {MAX_HAND_BYTES:,} bytes, the most scooplab reads of one hand"
NESTED = f"values nested more than {MAX_NESTING} deep"
LONG_KEY = f"a key of more than {MAX_KEY_PARTS} dotted parts"
LONG_NUMBER = f"bad TOML: a number of more than {MAX_NUMBER_DIGITS:,} digits"

_BLOCK = 1 << 20  # bytes read at a time from a .phhs stream
_FIRST_READ = 1 << 16  # bytes of a .phh file read first (the rest, to MAX_HAND_BYTES, if it has more)
BLOCK_FILE_BYTES = 64 << 20  # a larger .phhs file is always streamed line by line
MEMBERS_PER_BLOCK = 50_000  # archive members given to the block reader at a time (and 64 MB at most)
_TOO_LONG = 10**MAX_NUMBER_DIGITS
_SURROGATE = re.compile("[\ud800-\udfff]")
_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')[ \t]*+\.[ \t]*+"""  # a part and a dot
_DOTTED_KEY = re.compile(r"""(?<![\w.'"-])(?:""" + _KEY_PART + "){" + str(MAX_KEY_PARTS) + "}")  # too many
# what sends a hand to tomllib: escapes, comments, inline tables, and characters TOML forbids
# (control characters but tab) or takes as no line break where JSON or ``str.splitlines`` would
# take them otherwise (a lone \r, \x0b, \x85, \u2028...); and both kinds of quotes in one hand
_NOT_FAST = re.compile("[\\\\#{\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]")
_LOCAL_TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(?:\.([0-9]{1,6}))?")


@dataclass(frozen=True)
class RawHand:
    """One hand as read: where it came from, its text, and its fields or why they failed."""

    source_file: str
    hand_index: int  # 0-based position of the hand in its file
    text: str
    fields: dict[str, Any] | None
    error: str | None = None
    whole_file: bool = False  # the error is the file's (unread, not an archive...), not one hand's
    label: str | None = None  # how a reject names the hand, where its file has its own ids ("#2345")


_BARE_KEY_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def fast_loads(text: str) -> dict[str, Any] | None:
    """The TOML most PHH files use, parsed quickly; None when the text needs the full parser.

    Handles one ``key = value`` per line whose value is a number, boolean, a string
    without escapes (single quotes, or double quotes, not both kinds in one hand), a local time
    (``time = 21:15:03``, as real hand histories write it), or a one-line array of those;
    anything else (escapes, comments, tables, dates, multi-line or nested arrays...) returns
    None so that ``tomllib`` parses it, and reports its errors.

    >>> fast_loads("variant = 'NT'\\nantes = [0, 0]\\nstacks = [1.5, 2]")
    {'variant': 'NT', 'antes': [0, 0], 'stacks': [1.5, 2]}
    >>> fast_loads('venue = "Full Tilt"\\ntime = 21:15:03')
    {'venue': 'Full Tilt', 'time': datetime.time(21, 15, 3)}
    >>> fast_loads("a = 'x'\\nb = 1") is not None, fast_loads("a = 'x'\\nb = \\"y\\"") is None
    (True, True)
    >>> fast_loads("players = ['A\\x7fB']") is None
    True
    """
    if _NOT_FAST.search(text.replace("\r\n", "\n") if "\r" in text else text):
        return None
    single = "'" in text
    if single and '"' in text:
        return None  # a quote of one kind inside a string of the other: tomllib tells them apart
    keys: list[str] = []
    values: list[str] = []
    times: dict[int, dt.time] = {}
    arrays = 0
    for line in text.splitlines():
        key, equals, value = line.partition("=")
        if not equals:
            if line and not line.isspace():
                return None
            continue
        key, value = key.strip(), value.strip()
        if not key or key.strip(_BARE_KEY_CHARACTERS) or not value:
            return None  # not a bare key, or no value
        if value[0] == "[":
            if value[-1] != "]":
                return None  # a multi-line array
            arrays += 1
        elif ":" in value and value[0].isdigit():
            time = _local_time(value)
            if time is None:
                return None
            times[len(values)] = time
            value = "0"
        keys.append(key)
        values.append(value)
    if len(set(keys)) != len(keys):
        return None
    document = "[" + ",".join(values) + "]"  # one parse for the whole hand
    if single:
        document = document.replace("'", '"')
    if document.count("[") != 1 + arrays:
        return None  # an array in an array (or a bracket in a string): tomllib, then the depth check
    try:
        parsed = _JSON.decode(document)
    except ValueError:
        return None
    if len(parsed) != len(keys):
        return None
    if "null" in document and (None in parsed or any(isinstance(v, list) and None in v for v in parsed)):
        return None  # TOML has no null
    for index, time in times.items():
        parsed[index] = time
    return dict(zip(keys, parsed, strict=True))


def _local_time(value: str) -> dt.time | None:
    """A TOML local time as ``tomllib`` reads it, or None for anything else (a leap second, an offset...).

    >>> _local_time("07:05:09.25"), _local_time("23:59:60")
    (datetime.time(7, 5, 9, 250000), None)
    """
    found = _LOCAL_TIME.fullmatch(value)
    if found is None or found[3] == "60":
        return None
    hour, minute, second, fraction = found.groups()
    return dt.time(int(hour), int(minute), int(second), int((fraction or "0").ljust(6, "0")))


def _not_toml(name: str) -> None:
    raise ValueError(f"{name} is not TOML")


_JSON = json.JSONDecoder(parse_constant=_not_toml)  # built once: ``json.loads`` builds one a call


def parse_hand_text(text: str, source_file: str, hand_index: int) -> RawHand:
    """Parse the TOML text of one hand; a hand past the limits above is rejected with the limit."""
    if not text.strip():
        return RawHand(source_file, hand_index, text, None, "the file is empty")
    if len(text) > MAX_HAND_BYTES:
        return RawHand(source_file, hand_index, "", None, TOO_BIG)
    fields = fast_loads(text)
    if fields is not None:
        return RawHand(source_file, hand_index, text, fields)
    if text.count(".") >= MAX_KEY_PARTS and _DOTTED_KEY.search(text):
        return RawHand(source_file, hand_index, text, None, LONG_KEY)
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return RawHand(source_file, hand_index, text, None, f"bad TOML: {error}")
    except RecursionError:
        return RawHand(source_file, hand_index, text, None, NESTED)
    except ValueError as error:  # a decimal integer of more digits than Python converts
        reason = LONG_NUMBER if "integer string conversion" in str(error) else f"bad TOML: {error}"
        return RawHand(source_file, hand_index, text, None, reason)
    problem = value_problem(fields)
    return RawHand(source_file, hand_index, text, None if problem else fields, problem)


def value_problem(fields: dict[str, Any]) -> str | None:
    """Why parsed TOML cannot be a hand's fields, or None: values nested deeper than
    ``MAX_NESTING``, or an integer longer than ``MAX_NUMBER_DIGITS``.

    >>> value_problem({"a": [[1], {"b": 2}]}), value_problem({"a": [0x1 << 20_000]})
    (None, 'bad TOML: a number of more than 4,300 digits')
    """
    stack: list[tuple[dict | list, int]] = [(fields, 0)]  # no recursion: depth is what is checked
    while stack:
        container, depth = stack.pop()
        if depth > MAX_NESTING:
            return NESTED
        for value in container.values() if isinstance(container, dict) else container:
            if isinstance(value, dict | list):
                stack.append((value, depth + 1))
            elif type(value) is int and not -_TOO_LONG < value < _TOO_LONG:
                return LONG_NUMBER
    return None


def split_phhs(text: str) -> list[tuple[str, str]]:
    """Split ``.phhs`` text into (section name, section text) per hand.

    Each hand is parsed on its own, so one broken hand does not lose the others.
    """
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines(keepends=True):
        match = _SECTION.match(line)
        if match and not line.lstrip().startswith("[["):
            sections.append((match.group(1), []))
        elif sections:
            sections[-1][1].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            sections.append(("", [line]))
    return [(name, "".join(lines)) for name, lines in sections]


def hands_from_text(text: str, source_file: str) -> list[RawHand]:
    """The hands of one file's text (``.phhs`` if the name says so, else one ``.phh`` hand)."""
    if not source_file.endswith(".phhs"):
        return [parse_hand_text(text, source_file, 0)]
    sections = split_phhs(text)
    if not sections:
        return [RawHand(source_file, 0, text, None, "the file holds no hands")]
    return [parse_hand_text(body, source_file, i) for i, (_, body) in enumerate(sections)]


def _decode(data: bytes, source_file: str) -> str | RawHand:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        return RawHand(source_file, 0, "", None, f"{NOT_TEXT}: {error}")  # no text to keep


def input_files(path: Path) -> list[Path]:
    """The files ``iter_hands`` reads for a path, in its order: a folder's inputs sorted, else the path."""
    return sorted(_input_files(path)) if path.is_dir() else [path]


def input_size(paths: Iterable[str | Path]) -> tuple[int, int, int | None]:
    """The files ``iter_hands`` reads under ``paths``, their bytes, and their hands when each file
    holds one (None when another file than a ``.phh`` is among them: counted only as read)."""
    files: list[Path | os.DirEntry] = []
    for path in map(Path, paths):
        files += _input_entries(path) if path.is_dir() else [path] if path.exists() else []
    one_hand = all(file.name.endswith(".phh") for file in files)  # (a site's file holds many)
    return len(files), sum(map(_size, files)), len(files) if one_hand else None


def _size(file: Path | os.DirEntry) -> int:
    try:
        return file.stat().st_size
    except OSError:  # gone since it was listed: reading it says so
        return 0


def iter_hands(paths: Iterable[str | Path], blocks: Callable[..., Any] | None = None,
               on_file: Callable[[int], None] | None = None) -> Iterator[Any]:  # fmt: skip
    """Every hand in files, folders (recursively) and ``.tar.gz``/``.tgz`` archives, in order
    (``on_file(1)`` told as each file has been read).

    With ``blocks``, a ``.phhs`` file of at most ``BLOCK_FILE_BYTES`` is read whole and given to
    it (bytes and name): what it returns comes instead of the file's hands, unless that is None.
    Runs of one-hand ``.phh`` files (a folder's, or given one after another) and of an archive's
    one-hand members are given to it the same way (``OneHandRun``): ``member_block``'s bytes, a
    name, and each file's name and size.
    """
    run = OneHandRun(blocks)
    for path in map(Path, paths):
        if not path.exists():
            yield from run.flush()
            yield RawHand(printable_name(str(path)), 0, "", None, "no such file or folder", whole_file=True)
            continue
        for file in input_files(path):
            yield from _hands_of_file(file, blocks, run, in_folder=path.is_dir())
            if on_file:
                on_file(1)
    yield from run.flush()


def has_hand_histories(path: str | Path) -> bool:
    """Whether a path is a hand-history file (.phh, .phhs, .tar.gz, .tgz, a site's text file), or a
    folder holding at least one."""
    path = Path(path)
    if not path.is_dir():
        return path.is_file() and (_is_input(path.name) or _site_file(path) is not None)
    return any(True for _ in _input_files(path))


def _input_files(folder: Path) -> Iterator[Path]:
    """The files under a folder (recursively, through links, as ``Path.rglob``) that ``iter_hands``
    reads, in no particular order."""
    return (Path(entry.path) for entry in _input_entries(folder))


def _input_entries(folder: Path) -> Iterator[os.DirEntry]:
    """``_input_files`` as directory entries: a listing tells files apart without a call for each."""
    folders = [str(folder)]
    while folders:
        try:
            with os.scandir(folders.pop()) as listing:
                entries = list(listing)
        except OSError:  # unreadable: skipped, as rglob skips it
            continue
        for entry in entries:
            if entry.is_dir():
                folders.append(entry.path)
            elif entry.is_file() and _is_input(entry.name):
                yield entry


ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")


def _is_input(name: str) -> bool:
    return name.endswith(PHH_SUFFIXES) or name.endswith(ARCHIVE_SUFFIXES) or name.endswith(SITE_SUFFIXES)


# read when their text is a site's
SITE_SUFFIXES = (".txt", ".TXT", ".log", ".hh", ".ohh", ".OHH", ".json", ".xml", ".XML")
MAX_SITE_FILE_BYTES = 256 << 20  # a larger site file is refused unread (a client writes a file a day)


def _site_file(path: Path) -> bytes | None:
    """A file's bytes when its text opens like a site's hand history (``sites.site_format``), else None."""
    try:
        with open(path, "rb") as file:
            head = file.read(sites.SNIFF_BYTES)
            if sites.site_format(head) is None:
                return None
            return head + file.read(MAX_SITE_FILE_BYTES + 1 - len(head))
    except OSError:
        return None  # the PHH reader says why it cannot be read


def _site_file_hands(data: bytes, name: str, blocks: Callable[..., Any] | None = None) -> Iterator[Any]:
    """The hands of a site's file as PHH fields (their text: PHH as written), or refused with the reason
    (their text: the site's); with ``blocks``, as one block where the compiled reader may write it."""
    if len(data) > MAX_SITE_FILE_BYTES:
        too_big = f"larger than {MAX_SITE_FILE_BYTES >> 20} MiB, the most scooplab reads of a site's file"
        yield RawHand(name, 0, "", None, too_big, whole_file=True)
        return
    block = None if blocks is None else _site_block(data, name, blocks)
    if block is not None:
        yield block
        return
    for index, label, text, fields, error in sites.site_hands(data):
        yield RawHand(name, index, text if fields is None else write_hand(fields), fields, error, label=label)


def _site_block(data: bytes, name: str, blocks: Callable[..., Any]) -> Any:
    """A site file's hands as a block (``blocks`` of the PHH ``sites.stars_kernel`` writes of them, in
    their places), each hand it leaves read as ``sites.site_hands`` reads it; or None."""
    from ingest.histories.sites import stars_kernel  # compiled: loads only to ingest

    read = stars_kernel.read_site(data, write_hand)
    block = None if read is None else blocks(read.sections, name)
    if block is not None:

        def site_hand(h: int) -> RawHand | str:  # a written hand's label, or the hand as the reader reads it
            if read.taken(h):
                return read.label(h)
            label, text, fields, error = read.hand(h)
            text = text if fields is None else write_hand(fields)
            return RawHand(name, h, text, fields, error, label=label)

        block.site = site_hand
    return block


def hands_of_bytes(data: bytes, name: str) -> Iterator[RawHand]:
    """The hands of a file's bytes, or of the part of them from a hand's start on, read under the
    file's name as ``iter_hands`` reads the file: a site's text, a ``.phhs``'s sections, else one
    hand (``ingest.histories.watch`` reads what a watched file has gained)."""
    if name.endswith(".phhs"):
        yield from _phhs_hands(io.BytesIO(data).read, name)
    elif sites.site_format(data) is not None:
        yield from _site_file_hands(data, name)
    else:
        yield _single_hand(data, name)


def _hands_of_file(path: Path, blocks: Callable[..., Any] | None, run: OneHandRun, in_folder: bool = False
                   ) -> Iterator[Any]:  # fmt: skip
    name = printable_name(str(path))
    site = None if name.endswith((".phhs", *ARCHIVE_SUFFIXES)) else _site_file(path)
    if site is not None:  # a poker client's file, found from its text
        yield from run.flush()
        yield from _site_file_hands(site, name, blocks)
        return
    if name.endswith(SITE_SUFFIXES) and in_folder:
        return  # a folder's text file that is no hand history (a tournament summary, notes)
    if name.endswith(SITE_SUFFIXES):
        yield from run.flush()
        yield RawHand(name, 0, "", None, NO_FORMAT, whole_file=True)
        return
    if not name.endswith((".phhs", *ARCHIVE_SUFFIXES)):  # one hand (a file of any other name too)
        yield from _one_hand_file(path, name, run)
        return
    yield from run.flush()  # the hands of the files before it come first
    if name.endswith(ARCHIVE_SUFFIXES):
        yield from _hands_of_archive(path, name, blocks)
        return
    hands = 0  # hands given so far: a read error is rejected as the next one
    try:
        with open(path, "rb") as file:
            if file.peek(2)[:2] == GZIP_MAGIC:  # an archive renamed: said so, not "not UTF-8 text"
                yield RawHand(name, 0, "", None, gzip_named(name), whole_file=True)
                return
            status = os.fstat(file.fileno())
            regular = stat.S_ISREG(status.st_mode) and status.st_size <= BLOCK_FILE_BYTES  # not a pipe
            if blocks is not None and regular:
                data = file.read()
                block = blocks(data, name)
                if block is not None:
                    yield block
                    return
                file = io.BytesIO(data)  # read line by line after all
            for raw in _phhs_hands(file.read, name):
                hands += 1
                yield raw
    except OSError as error:
        yield RawHand(name, hands, "", None, f"cannot read: {error.strerror}", whole_file=not hands)


def _one_hand_file(path: Path, name: str, run: OneHandRun) -> Iterator[Any]:
    """The hand of a one-hand file: into the run, or read alone (``OneHandRun.add``)."""
    try:
        with open(path, "rb") as file:
            data = file.read(_FIRST_READ)  # a hand is 1-5 KB: no buffer of a megabyte for each
            if len(data) == _FIRST_READ:
                data += file.read(MAX_HAND_BYTES + 1 - _FIRST_READ)  # a larger hand is rejected unread
    except OSError as error:
        yield from run.flush()
        yield RawHand(name, 0, "", None, f"cannot read: {error.strerror}", whole_file=True)
        return
    yield from run.add(data, name)


def _single_hand(data: bytes, source: str) -> RawHand:
    """The hand of a .phh file or member, from its first ``MAX_HAND_BYTES + 1`` bytes."""
    if data[:2] == GZIP_MAGIC:  # an archive renamed: said so, not "not UTF-8 text"
        return RawHand(source, 0, "", None, gzip_named(source), whole_file=True)
    if len(data) > MAX_HAND_BYTES:
        return RawHand(source, 0, "", None, TOO_BIG)
    text = _decode(data, source)
    return text if isinstance(text, RawHand) else parse_hand_text(text, source, 0)


class _LongLine(str):
    """The start of a line longer than a hand may be; the rest of the line was skipped."""


def _stream_lines(read: Callable[[int], bytes]) -> Iterator[str]:
    """The lines of a byte stream (ends kept, bytes that are not UTF-8 as surrogate escapes),
    a block at a time; a line longer than ``MAX_HAND_BYTES`` comes as a ``_LongLine``."""
    pending, skipping = b"", False
    while block := read(_BLOCK):
        if skipping:  # in a line too long to keep: drop up to its end
            ends = [end for end in (block.find(b"\n"), block.find(b"\r")) if end >= 0]
            if not ends:
                continue
            block, skipping = block[min(ends) + 1 :], False
        data = pending + block
        # whole lines only, so no character is cut; not after a last \r, which a \n may follow
        cut = max(data.rfind(b"\n"), data.rfind(b"\r", 0, len(data) - 1)) + 1
        pending = data[cut:]
        if cut:
            yield from data[:cut].decode("utf-8", "surrogateescape").splitlines(keepends=True)
        if len(pending) > MAX_HAND_BYTES:
            yield _LongLine(pending[:80].decode("utf-8", "surrogateescape"))
            pending, skipping = b"", True
    if pending:
        yield from pending.decode("utf-8", "surrogateescape").splitlines(keepends=True)


def _phhs_hands(read: Callable[[int], bytes], source: str) -> Iterator[RawHand]:
    """The hands of a .phhs stream, split as ``split_phhs`` splits text, one hand in memory at a time.

    A hand larger than ``MAX_HAND_BYTES`` is rejected unkept; a hand with bytes that are not
    UTF-8 is rejected alone (bytes outside every hand, in comments before the first, are ignored).
    """
    hands, size = 0, 0
    lines: list[str] | None = None  # the hand being read; None before the first
    for line in _stream_lines(read):
        plain, head = type(line) is str, line.lstrip()
        if plain and head[:1] == "[" and head[:2] != "[[" and _SECTION.match(line):
            if lines is not None:
                yield _section_hand(lines, size, source, hands)
                hands += 1
            lines, size = [], 0
            continue
        if lines is None:
            if not head or head[0] == "#":
                continue  # a blank line or a comment before the first hand
            lines = []
        size += len(line) if plain else MAX_HAND_BYTES + 1
        if size <= MAX_HAND_BYTES:
            lines.append(line)
        elif lines:
            lines.clear()
    if lines is not None:
        yield _section_hand(lines, size, source, hands)
    elif not hands:
        yield RawHand(source, 0, "", None, "the file holds no hands")


def section_hand(text: str, source: str, index: int) -> RawHand:
    """Hand ``index`` of a .phhs file from its text (the lines after its header), as the line reader
    gives it."""
    return _section_hand([text], len(text), source, index)


def _section_hand(lines: list[str], size: int, source: str, index: int) -> RawHand:
    if size > MAX_HAND_BYTES:
        return RawHand(source, index, "", None, TOO_BIG)
    text = "".join(lines)
    if not text.isascii() and _SURROGATE.search(text):  # escapes of bytes that are not UTF-8
        try:
            text.encode("utf-8", "surrogateescape").decode("utf-8")
        except UnicodeDecodeError as error:
            return RawHand(source, index, "", None, f"{NOT_TEXT}: {error}")
    return parse_hand_text(text, source, index)


# -- archives: hands of their members (ingest.histories.archives reads them) --------------------------------


def _hands_of_archive(path: Path, name: str, blocks: Callable[..., Any] | None = None) -> Iterator[Any]:
    """The hands of an archive's members; with ``blocks``, runs of small ``.phh`` members are given
    to it together (``OneHandRun``), read one by one where it returns None."""
    run = OneHandRun(blocks, name)
    try:
        for member in members(path):
            source = f"{name}!{member.name}"
            if not member.name.endswith(PHH_SUFFIXES):
                yield from run.flush()
                yield from _site_member(member, source, blocks)  # a site's file, or passed over
                continue
            if blocks is None or not _may_join(member):
                yield from run.flush()
                yield from _hands_of_member(member, source)
                continue
            yield from run.add(member.data.read(member.size), source)
        yield from run.flush()
    except READ_ERRORS as error:
        yield from run.flush()  # what was read before the error
        yield RawHand(name, 0, "", None, f"cannot read the archive: {error}", whole_file=True)


def _site_member(member: Member, source: str, blocks: Callable[..., Any] | None = None) -> Iterator[Any]:
    """The hands of an archive member that is a site's file (found from its text), else none."""
    if member.sparse or member.size > MAX_SITE_FILE_BYTES:
        return
    head = member.data.read(min(member.size, sites.SNIFF_BYTES))
    if sites.site_format(head) is None:
        return
    yield from _site_file_hands(head + member.data.read(member.size - len(head)), source, blocks)


def _may_join(member: Member) -> bool:
    """Whether a member may join a run of one-hand texts (``_plain_one_hand`` then decides)."""
    return not member.sparse and member.name.endswith(".phh") and member.size <= MAX_HAND_BYTES


def _plain_one_hand(data: bytes) -> bool:
    """Whether the block reader may take a one-hand text in a run: at most ``MAX_HAND_BYTES`` of
    UTF-8 text without carriage returns or lines opening with ``[`` (a header would split it)."""
    if len(data) > MAX_HAND_BYTES or b"\r" in data or not data.strip():
        return False
    if data.lstrip().startswith(b"[") or b"\n[" in data or b"\n [" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def member_block(parts: list[bytes]) -> bytes:
    """Archive members of one hand each as one ``.phhs`` text: each after a header line of its own,
    ended by a line break if it had none.

    >>> member_block([b"a = 1", b"b = 2\\n"])
    b'[1]\\na = 1\\n[2]\\nb = 2\\n'
    """
    return b"".join(b"[%d]\n%s%s" % (i + 1, part, b"" if part.endswith(b"\n") else b"\n")
                    for i, part in enumerate(parts))  # fmt: skip


class OneHandRun:
    """One-hand texts (the ``.phh`` files of a folder, an archive's members) waiting to go to the
    block reader together, each after a header of its own (``member_block``), up to
    ``MEMBERS_PER_BLOCK`` of them or ``BLOCK_FILE_BYTES``: each hand keeps its own file's name as
    its source. A text the block reader may not take (``_plain_one_hand``) is read alone, after
    the run before it; a run the block reader refuses is read hand by hand."""

    def __init__(self, blocks: Callable[..., Any] | None, name: str | None = None) -> None:
        self.blocks, self.name = blocks, name  # the name of the blocks (default: their first file's)
        self.pending: list[tuple[bytes, str]] = []
        self.size = 0  # bytes pending

    def add(self, data: bytes, source: str) -> Iterator[Any]:
        """What comes before the hand of ``data`` (the run, when it ends here), then, if it is read
        alone, the hand itself."""
        if self.blocks is None or not _plain_one_hand(data):
            yield from self.flush()
            yield _single_hand(data, source)
            return
        if len(self.pending) >= MEMBERS_PER_BLOCK or self.size + len(data) > BLOCK_FILE_BYTES:
            yield from self.flush()
        self.pending.append((data, source))
        self.size += len(data)

    def flush(self) -> Iterator[Any]:
        """The pending hands (the run is emptied): one block, or hand by hand."""
        if not self.pending:
            return
        pending, self.pending, self.size = self.pending, [], 0
        if len(pending) > 1 and self.blocks is not None:
            name, sized = self.name or pending[0][1], [(source, len(data)) for data, source in pending]
            block = self.blocks(member_block([data for data, _ in pending]), name, sized)
            if block is not None:
                yield block
                return
        for data, source in pending:
            yield _single_hand(data, source)


def _hands_of_member(member: Member, source: str) -> Iterator[RawHand]:
    if member.sparse:
        yield RawHand(source, 0, "", None, "a sparse file in the archive: not read")
    elif member.name.endswith(".phhs"):
        yield from _phhs_hands(member.data.read, source)
    elif member.size > MAX_HAND_BYTES:
        yield RawHand(source, 0, "", None, TOO_BIG)  # not read: its data is skipped, and counted
    else:
        yield _single_hand(member.data.read(member.size), source)


# -- writing ------------------------------------------------------------------------------------


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def toml_value(value: Any) -> str:
    """One value in TOML syntax (strings, numbers, booleans, arrays, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if math.isnan(value):
            return "nan"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, dt.time | dt.date):  # a local time or date, as TOML writes them
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def write_hand(fields: dict[str, Any]) -> str:
    """TOML text of one hand, fields in a stable order (required first, then by name)."""
    order = [k for k in FIELD_ORDER if k in fields]
    order += sorted(k for k in fields if k not in FIELD_ORDER)
    out = io.StringIO()
    for key in order:
        value = fields[key]
        if value is None:
            continue
        if key == "actions" and value:
            out.write("actions = [\n")
            for action in value:
                out.write(f"  {_toml_string(action)},\n")
            out.write("]\n")
        else:
            out.write(f"{_toml_key(key)} = {toml_value(value)}\n")
    return out.getvalue()
