"""PHH hand histories: read .phh and .phhs files, folders and .tar.gz archives; write them.

Reading never stops at a bad hand: every hand comes back as a ``RawHand`` with
either its parsed fields or the one-line reason it could not be parsed.

>>> hand = parse_hand_text('variant = "NT"\\nactions = ["d dh p1 AcAd"]', "x.phh", 0)
>>> hand.fields["variant"], hand.error
('NT', None)
>>> print(write_hand({"variant": "NT", "antes": [0, 0], "_options": {"burns": True}}), end="")
variant = "NT"
antes = [0, 0]
_options = { burns = true }
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import math
import re
import tarfile
import tomllib
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class RawHand:
    """One hand as read: where it came from, its text, and its fields or why they failed."""

    source_file: str
    hand_index: int  # 0-based position of the hand in its file
    text: str
    fields: dict[str, Any] | None
    error: str | None = None


_BARE_KEY_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


def fast_loads(text: str) -> dict[str, Any] | None:
    """The TOML most PHH files use, parsed quickly; None when the text needs the full parser.

    Handles one ``key = value`` per line whose value is a number, boolean,
    single-quoted string, or a one-line array of those; anything else (double
    quotes, comments, tables, dates, multi-line arrays...) returns None so that
    ``tomllib`` parses it, and reports its errors.

    >>> fast_loads("variant = 'NT'\\nantes = [0, 0]\\nstacks = [1.5, 2]")
    {'variant': 'NT', 'antes': [0, 0], 'stacks': [1.5, 2]}
    >>> fast_loads('variant = "NT"') is None
    True
    """
    if '"' in text or "\\" in text or "#" in text or "{" in text:
        return None
    keys: list[str] = []
    values: list[str] = []
    for line in text.splitlines():
        key, equals, value = line.partition("=")
        if not equals:
            if line and not line.isspace():
                return None
            continue
        key, value = key.strip(), value.strip()
        if not key or key.strip(_BARE_KEY_CHARACTERS) or not value:
            return None  # not a bare key, or no value
        if value[0] == "[" and value[-1] != "]":
            return None  # a multi-line array
        keys.append(key)
        values.append(value)
    if len(set(keys)) != len(keys):
        return None
    document = "[" + ",".join(values).replace("'", '"') + "]"  # one parse for the whole hand
    try:
        parsed = json.loads(document, parse_constant=_not_toml)
    except ValueError:
        return None
    if len(parsed) != len(keys):
        return None
    if "null" in document and (None in parsed or any(isinstance(v, list) and None in v for v in parsed)):
        return None  # TOML has no null
    return dict(zip(keys, parsed, strict=True))


def _not_toml(name: str) -> None:
    raise ValueError(f"{name} is not TOML")


def parse_hand_text(text: str, source_file: str, hand_index: int) -> RawHand:
    """Parse the TOML text of one hand."""
    if not text.strip():
        return RawHand(source_file, hand_index, text, None, "the file is empty")
    fields = fast_loads(text)
    if fields is not None:
        return RawHand(source_file, hand_index, text, fields)
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return RawHand(source_file, hand_index, text, None, f"bad TOML: {error}")
    return RawHand(source_file, hand_index, text, fields)


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


def iter_hands(paths: Iterable[str | Path]) -> Iterator[RawHand]:
    """Every hand in files, folders (recursively) and ``.tar.gz``/``.tgz`` archives, in order."""
    for path in map(Path, paths):
        if path.is_dir():
            for file in sorted(_input_files(path)):
                yield from _hands_of_file(file)
        elif path.exists():
            yield from _hands_of_file(path)
        else:
            yield RawHand(str(path), 0, "", None, "no such file or folder")


def has_hand_histories(path: str | Path) -> bool:
    """Whether a path is a file, or a folder holding at least one file ``iter_hands`` reads."""
    path = Path(path)
    if not path.is_dir():
        return path.exists()
    return any(True for _ in _input_files(path))


def _input_files(folder: Path) -> Iterator[Path]:
    """The files under a folder (recursively) that ``iter_hands`` reads, in no particular order."""
    return (p for p in folder.rglob("*") if p.is_file() and _is_input(p.name))


def _is_input(name: str) -> bool:
    return name.endswith(PHH_SUFFIXES) or name.endswith((".tar.gz", ".tgz"))


def _hands_of_file(path: Path) -> Iterator[RawHand]:
    name = str(path)
    if name.endswith((".tar.gz", ".tgz")):
        yield from _hands_of_archive(path)
        return
    try:
        data = path.read_bytes()
    except OSError as error:
        yield RawHand(name, 0, "", None, f"cannot read: {error.strerror}")
        return
    text = _decode(data, name)
    if isinstance(text, RawHand):
        yield text
        return
    yield from hands_from_text(text, name)


def _hands_of_archive(path: Path) -> Iterator[RawHand]:
    try:
        for name, data in archive_files(path):
            if not name.endswith(PHH_SUFFIXES):
                continue
            source = f"{path}!{name}"
            text = _decode(data, source)
            if isinstance(text, RawHand):
                yield text
            else:
                yield from hands_from_text(text, source)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as error:
        yield RawHand(str(path), 0, "", None, f"cannot read the archive: {error}")


class _NotPlainTar(Exception):
    """An archive member that ``archive_files`` leaves to ``tarfile``."""


def archive_files(path: str | Path) -> Iterator[tuple[str, bytes]]:
    """Name and bytes of every regular file of a tar archive, in order.

    A gzip-compressed archive of plain ustar and GNU headers is read here, several times
    faster than ``tarfile`` for thousands of small files; anything else (long names, pax
    headers, no or other compression, a bad checksum) hands the archive to ``tarfile`` from
    the first file not yet given. A cut gzip stream gives every file before the cut, then
    ``EOFError``.
    """
    given = 0
    try:
        with open(path, "rb") as raw:
            magic = raw.read(2)
        if magic != b"\x1f\x8b":
            raise _NotPlainTar
        with gzip.open(path, "rb") as stream:
            while True:
                header = stream.read(512)
                if len(header) < 512 or not any(header):
                    return  # the end-of-archive zero block
                kind = header[156:157]
                checksum = header[148:156].split(b"\0", 1)[0].strip()
                if kind not in (b"0", b"\0", b"5") or header[124] & 0x80 or not checksum.isdigit():
                    raise _NotPlainTar
                if int(checksum, 8) != sum(header[:148]) + 256 + sum(header[156:]):
                    raise _NotPlainTar
                name = header[:100].split(b"\0", 1)[0]
                prefix = header[345:500].split(b"\0", 1)[0] if header[257:262] == b"ustar" else b""
                size = int(header[124:136].split(b"\0", 1)[0].strip() or b"0", 8)
                data = stream.read(size)
                stream.read(-size % 512)
                if len(data) < size:
                    raise tarfile.ReadError("unexpected end of data")
                if kind != b"5":
                    given += 1
                    yield (prefix + b"/" + name if prefix else name).decode("utf-8", "replace"), data
    except _NotPlainTar:
        pass
    with tarfile.open(path, "r:*") as archive:
        files = (member for member in archive if member.isfile())
        for member in itertools.islice(files, given, None):
            extracted = archive.extractfile(member)
            if extracted is not None:
                yield member.name, extracted.read()


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
