"""Malformed PHH hands for the ingest fuzz tests (tests/test_fuzz_ingest.py): mutations of real hands.

Everything comes from one seeded ``random.Random``, so a seed always writes the same corpus.
``make_cases`` mutates the fixture hands, cycling through every kind in ``KINDS``;
``write_corpus`` lays the cases out as .phh files, sections of .phhs files and members of
.tar.gz archives, and records where each one is; ``write_giants``, ``write_bombs`` and
``write_crowded_archive`` write the big inputs. Each case says what ingest must do with it:
``REJECT`` it (one reject row, at its place), ``STORE`` it (a new hand), or see the ``SAME``
fields as a real hand's (that hand is stored once, every other copy is a duplicate).
"""

from __future__ import annotations

import gzip
import io
import os
import random
import re
import tarfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
SEED_FOLDERS = (FIXTURES / "phh", FIXTURES / "examples")  # always present: the real hands mutated

REJECT, STORE, SAME = "reject", "store", "same"
MAX_DEPTH = 100_000  # the deepest nesting the fuzzer writes (arrays, inline tables, dotted keys)
_SECTION = re.compile(r"^\s*\[\s*([^\]\s]+)\s*\]\s*(#.*)?$")  # a .phhs section header, as ingest reads it


@dataclass(frozen=True)
class Seed:
    """A real hand: its file name, text and fields."""

    name: str
    text: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One fuzzed hand: its bytes, and what ingest must do with it."""

    kind: str
    data: bytes
    outcome: str  # REJECT, STORE or SAME
    reason: str = ""  # a regular expression the reject reason must match
    alone: bool = False  # a file of its own: some line of it would start a .phhs section
    suffix: str = ".phh"  # the file name's ending when it is a file of its own

    @property
    def fields(self) -> dict[str, Any]:
        """The fields of a hand ingest stores (STORE and SAME cases)."""
        return tomllib.loads(self.data.decode())


@dataclass(frozen=True)
class Placed:
    """A case where the corpus put it: its file (``archive!member`` in an archive) and hand index."""

    case: Case
    source_file: str
    hand_index: int


def load_seeds() -> list[Seed]:
    """The real hands of tests/fixtures/phh and tests/fixtures/examples, by file name."""
    paths = sorted(p for folder in SEED_FOLDERS for p in folder.rglob("*.phh"))
    return [Seed(p.name, p.read_text(), tomllib.loads(p.read_text())) for p in paths]


# -- where values are in a hand's text ----------------------------------------------------------


def value_span(text: str, key: str) -> tuple[int, int] | None:
    """Start and end of the value of a top-level ``key = value`` (a multi-line array included)."""
    match = re.search(rf"(?m)^[ \t]*{re.escape(key)}[ \t]*=[ \t]*", text)
    if match is None:
        return None
    i, depth, quote = match.end(), 0, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return match.end(), i + 1
        elif c == "#":
            if depth == 0:
                break
            i = text.find("\n", i) - 1 if "\n" in text[i:] else len(text)
        elif c == "\n" and depth == 0:
            break
        i += 1
    return match.end(), len(text[:i].rstrip())


def set_value(text: str, key: str, value: str) -> str:
    """The text with ``key``'s value replaced by ``value`` (TOML), or the field added at the end."""
    span = value_span(text, key)
    if span is None:
        return text.rstrip("\n") + f"\n{key} = {value}\n"
    return text[: span[0]] + value + text[span[1] :]


def toml_list(values: list[Any]) -> str:
    return "[" + ", ".join(v if isinstance(v, str) else repr(v) for v in values) + "]"


def splits_phhs(data: bytes) -> bool:
    """Whether some line of the text would start a new section in a .phhs file."""
    lines = data.decode("utf-8", "surrogateescape").splitlines()
    return any(_SECTION.match(line) and not line.lstrip().startswith("[[") for line in lines)


# -- the mutations ------------------------------------------------------------------------------

CHIP_LISTS = ("starting_stacks", "antes", "blinds_or_straddles")
CHIP_SCALARS = ("min_bet", "small_bet", "big_bet", "_starting_bet")
CHECKED = ("variant", *CHIP_LISTS, *CHIP_SCALARS, "actions", "finishing_stacks", "_options")

WRONG_TYPES = {  # values the replay refuses for each field it checks
    "variant": ["5", "true", '["NT"]', "1.5", "{ a = 1 }", "1979-05-27", "''", "nan"],
    "chip_list": [
        '"lots"',
        "100",
        '["1", "2"]',
        "[[1], [2]]",
        "{ a = 1 }",
        "[true, false]",
        "[1979-05-27]",
        "[]",
    ],
    "chip": ['"2"', "[2]", "true", "{ a = 1 }", "1979-05-27T07:32:00Z", "1.0000005", "nan"],
    "actions": ["5", '"d dh p1 AcAd"', "[1, 2]", '[["d dh p1 AcAd"]]', "{ a = 1 }", "[true]", "inf"],
    "finishing_stacks": ['"x"', "5", '["a", "b"]', "{ a = 1 }", "[[1]]", "[]"],
    "_options": ['"x"', "5", "[1]", "true", "{ not_an_option = 1 }"],
}
BIG = ["1" + "0" * 30, "-" + "1" + "0" * 30, "9007199254740993", "1e308", "nan", "inf", "-inf", "+inf",
       "1e400", "-1e400", "0x7fffffffffffffffffffffff", "1" + "0" * 400, "1" + "0" * 5000,
       "-9223372036854775809", "0b" + "1" * 20_000]  # fmt: skip
HUGE_NUMBERS = {  # numbers the replay refuses in each kind of place (money has at most 6 decimals)
    "starting_stacks": [*BIG, "1.0000005", "-1", "0", "-0.5"],
    "chips": [*BIG, "1.0000005", "0.00000025"],
    "finishing_stacks": BIG,
    "cbr": ["1" + "0" * 30, "1e400", "nan", "inf", "1.0000005", "-5", "0x10", "9" * 5000, "1e308", "1_000.5"],
}
MARKS = ["\u0301", "\u202e", "\u200d", "\u0000", "\U0001f0a1", "\ufeff", "\u2028", "\u00a0", "\U0001f600"]
LOOKALIKES = {"1": "\u0661", "2": "\uff12", "A": "\u0391", "c": "\u0441", "p": "\uff50", "T": "\u03a4"}
NAMES = ["\U0001f0a1 Ace", "\u202eevil\u202c", "e\u0301clair", "nul\\u0000byte", "\u05e2\u05d1\u05e8\u05d9",
         "\U0001d518\U0001d52b", "zw\u200dj", "tab\\tname", "\uff46\uff55\uff4c", "\\U0001F600"]  # fmt: skip


def _signature(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "list:" + ",".join(sorted({_signature(v) for v in value}))
    return type(value).__name__


def seed_copy(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A real hand as it is."""
    return Case("seed", seed.text.encode(), SAME)


def same_fields(rng: random.Random, seed: Seed, serial: int) -> Case:
    """Comments (unicode ones too), blank lines, a field moved: the same fields as the real hand."""
    text = seed.text
    single = [k for k in seed.fields if (s := value_span(text, k)) and "\n" not in text[s[0] : s[1]]]
    if single and rng.random() < 0.5:
        key = rng.choice(single)
        start, end = value_span(text, key)
        line_start = text.rfind("\n", 0, start) + 1
        line = text[line_start:end]
        moved = text[:line_start] + text[end:].lstrip(" \t") + "\n" + line + "\n"
        if tomllib.loads(moved) == seed.fields:
            text = moved
    comment = "# " + "".join(rng.choice(MARKS[1:3] + MARKS[4:5] + ["\u0301x", "RTL"]) for _ in range(8))
    text = f"\n{comment}\n\n{text}\n# {serial}\n"
    return Case("same", text.encode(), SAME)


def new_hand(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A real hand with one more field: a new hand that ingest stores."""
    return Case("good", (seed.text.rstrip("\n") + f"\n_fuzz = {serial}\n").encode(), STORE)


def unicode_names(rng: random.Random, seed: Seed, serial: int) -> Case:
    """Player names of emoji, right-to-left text, combining marks and escaped NULs: stored as they are."""
    players = seed.fields.get("players")
    n = len(players) if isinstance(players, list) else 2
    names = toml_list([f'"{rng.choice(NAMES)} {serial}-{i}"' for i in range(n)])
    text = set_value(seed.text, "players" if players is not None else "_names", names)
    return Case("unicode_good", (text.rstrip("\n") + f"\n_fuzz = {serial}\n").encode(), STORE)


def truncate(rng: random.Random, seed: Seed, serial: int) -> Case:
    """The bytes cut anywhere before the end of the actions array."""
    data = seed.text.encode()
    end = value_span(seed.text, "actions")[1] - 1
    return Case("truncate", data[: rng.randrange(0, len(seed.text[:end].encode()))], REJECT)


def wrong_type(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A checked field given a value of another type (a string for a list of chips, ...)."""
    key = rng.choice([k for k in CHECKED if k in seed.fields] + ["_options", "min_bet", "antes"])
    group = "chip_list" if key in CHIP_LISTS else "chip" if key in CHIP_SCALARS else key
    return Case("wrong_type", set_value(seed.text, key, rng.choice(WRONG_TYPES[group])).encode(), REJECT)


def swap(rng: random.Random, seed: Seed, serial: int) -> Case:
    """The values of two fields of different types swapped, one of them a field the replay checks."""
    keys = list(seed.fields)
    pairs = [(a, b) for a in keys if a in CHECKED for b in keys
             if a != b and _signature(seed.fields[a]) != _signature(seed.fields[b])]  # fmt: skip
    a, b = rng.choice(pairs)
    (a0, a1), (b0, b1) = value_span(seed.text, a), value_span(seed.text, b)
    first, second = sorted([(a0, a1), (b0, b1)])
    text = seed.text
    text = (text[: first[0]] + text[second[0] : second[1]] + text[first[1] : second[0]]
            + text[first[0] : first[1]] + text[second[1] :])  # fmt: skip
    return Case("swap", text.encode(), REJECT)


def huge_number(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A number of the hand made huge, negative, finer than money (7 decimals), nan or infinite
    (raises included)."""
    fields, text = seed.fields, seed.text
    slots = [(k, i) for k in (*CHIP_LISTS, "finishing_stacks") if isinstance(fields.get(k), list)
             for i in range(len(fields[k]))]  # fmt: skip
    slots += [(k, None) for k in CHIP_SCALARS if k in fields]
    raises = [m for m in re.finditer(r"cbr (\d+)", text)]
    if raises and rng.random() < 0.3:
        match = rng.choice(raises)
        text = text[: match.start(1)] + rng.choice(HUGE_NUMBERS["cbr"]) + text[match.end(1) :]
        return Case("huge_number", text.encode(), REJECT)
    key, index = rng.choice(slots)
    group = key if key in ("starting_stacks", "finishing_stacks") else "chips"
    number = rng.choice(HUGE_NUMBERS[group])
    if index is None:
        return Case("huge_number", set_value(text, key, number).encode(), REJECT)
    values: list[Any] = list(fields[key])
    values[index] = number
    return Case("huge_number", set_value(text, key, toml_list(values)).encode(), REJECT)


def bad_unicode(rng: random.Random, seed: Seed, serial: int) -> Case:
    """Unicode where PHH wants ASCII: in the variant, a card, a seat, a verb, an amount; raw NULs;
    escapes of lone surrogates or of no character."""
    text = seed.text
    choice = rng.randrange(7)
    if choice == 0:  # a mark inside the variant code
        variant = seed.fields["variant"]
        at = rng.randrange(len(variant) + 1)
        text = set_value(
            text, "variant", f'"{variant[:at]}{rng.choice(MARKS)}{variant[at:]}"'.replace("\0", "\\u0000")
        )
    elif choice == 1:  # a lookalike in an action's card, seat, verb or amount
        spots = [
            m.start(m.lastindex)
            for m in re.finditer(r"d dh p\d+ ([2-9TJQKA])|[\"'](p)\d+ |p\d+ (c)c\b|cbr (\d)", text)
        ]
        at = rng.choice(spots)
        text = text[:at] + LOOKALIKES.get(text[at], text[at] + "\u0301") + text[at + 1 :]
    elif choice == 2:  # a raw NUL or other control character anywhere
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(["\0", "\x01", "\x7f", "\x1b[31m\0"]) + text[at:]
    elif choice == 3:  # a lone surrogate written as an escape, in a free-text field
        surrogate = rng.choice(["\\ud800", "\\udfff", "\\uDBFF", "\\uD83D"])
        key = "players" if "players" in seed.fields else "_name"
        n = len(seed.fields.get("players", [0, 0]))
        text = set_value(text, key, toml_list([f'"x{surrogate}{i}"' for i in range(n)]))
    elif choice == 4:  # escapes of no character at all
        text = set_value(text, "_note", rng.choice(['"\\U00110000"', '"\\uZZZZ"', '"\\x41"', '"\\u12"']))
    elif choice == 5:  # a key name with a mark: the field it was is missing
        key = rng.choice(["variant", "starting_stacks", "actions"])
        text = re.sub(rf"(?m)^{key}\b", f'"{key}{rng.choice(MARKS[:3])}"', text, count=1)
    else:  # an amount in other digits (Arabic-Indic, fullwidth), which int() would read
        match = rng.choice(list(re.finditer(r"cbr (\d+)", text)) or [None])
        if match is None:
            return bad_unicode(rng, seed, serial)
        digits = "".join(
            chr(0x660 + int(d)) if rng.random() < 0.5 else chr(0xFF10 + int(d)) for d in match.group(1)
        )
        text = text[: match.start(1)] + digits + text[match.end(1) :]
    return Case("unicode", text.encode(), REJECT)


def random_bytes(rng: random.Random, seed: Seed, serial: int) -> Case:
    """Bytes that are not UTF-8: a few inserted anywhere, one overwritten, or a whole binary file."""
    data = seed.text.encode()
    choice = rng.randrange(3)
    if choice == 0:
        at = rng.randrange(len(data) + 1)
        data = (
            data[:at]
            + rng.choice([b"\xff", b"\xfe", b"\xc0", b"\xed\xa0\x80"])
            + rng.randbytes(rng.randrange(16))
            + data[at:]
        )
    elif choice == 1:
        at = rng.choice([i for i in range(len(data)) if data[i] < 0x80])
        data = data[:at] + bytes([rng.randrange(0x80, 0xC0)]) + data[at + 1 :]
    else:
        data = b"\xfe" + rng.randbytes(rng.randrange(64, 4096))
    return Case("random_bytes", data, REJECT, reason="^not UTF-8 text", alone=splits_phhs(data))


NESTED_REASON = "nested|parts|^bad TOML"  # too deep, a key of too many parts, or unclosed


def _depth(rng: random.Random) -> int:
    return rng.choice([20, 40, 300, 1000, 5000, rng.randrange(20, 3000), MAX_DEPTH])


def deep_nesting(rng: random.Random, seed: Seed, serial: int) -> Case:
    """Arrays and inline tables nested thousands deep, unclosed ones, keys of thousands of parts."""
    d, choice = _depth(rng), rng.randrange(6)
    key = rng.choice(["_deep", "starting_stacks", "actions", "_options"])
    if choice == 0:
        text = set_value(seed.text, key, "[" * d + "1" + "]" * d)
    elif choice == 1:
        text = set_value(seed.text, key, "{ a = " * d + "1" + " }" * d)
    elif choice == 2:
        text = set_value(seed.text, key, rng.choice(["[", "{ a = ", "[{ b = "]) * d)
    elif choice == 3:
        text = set_value(seed.text, key, "[{ a = " * (d // 2) + "[1]" + " }]" * (d // 2))
    elif choice == 4:
        text = seed.text.rstrip("\n") + "\n" + ".".join(["_deep"] + ["a"] * d) + " = 1\n"
    else:
        header = "[" + ".".join(["_deep"] + [rng.choice(["a", '"b"', "'c'"]) for _ in range(d)]) + "]"
        text = seed.text.rstrip("\n") + f"\n{header}\nx = 1\n"
        return Case("nesting", text.encode(), REJECT, reason=NESTED_REASON, alone=True)
    return Case("nesting", text.encode(), REJECT, reason=NESTED_REASON)


def duplicate_key(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A field given twice: the same line again, another value, or a quoted spelling of its key."""
    key = rng.choice(list(seed.fields))
    start, end = value_span(seed.text, key)
    value = seed.text[start:end] if rng.random() < 0.5 else rng.choice(['"x"', "1", "[]", "{}"])
    spelled = rng.choice([key, f'"{key}"', f"'{key}'", f" {key}  "])
    if rng.random() < 0.5:
        text = seed.text.rstrip("\n") + f"\n{spelled} = {value}\n"
    else:
        text = f"{spelled} = {value}\n{seed.text}"
    return Case("duplicate_key", text.encode(), REJECT, reason="^bad TOML")


def bad_file(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A file that holds no hand: a .phhs of comments, a .tar.gz of garbage."""
    choice = rng.randrange(4)
    if choice == 0:
        return Case("bad_file", b"# only comments\n\n# " + seed.name.encode() + b"\n", REJECT,
                    reason="holds no hands", alone=True, suffix=".phhs")  # fmt: skip
    junk = rng.randbytes(rng.randrange(10, 5000))
    data = [junk.replace(b"\x1f\x8b", b"") or b"x", b"\x1f\x8b" + junk, gzip.compress(b"\x01" + junk)][
        choice - 1
    ]
    return Case("bad_file", data, REJECT, reason="^cannot read the archive", alone=True, suffix=".tar.gz")


def money_good(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A real hand as a cash game's history: a currency, a venue, a table, seat numbers and a time
    (its amounts, whole, are then money of that currency): stored, its record checked."""
    n = len(seed.fields["starting_stacks"])
    fields = {
        "currency": f'"{rng.choice(["USD", "EUR", "GBP"])}"',
        "venue": f'"Fuzz {serial}"',
        "table": str(rng.randrange(1, 999)),
        "seats": toml_list(sorted(rng.sample(range(1, 11), n))),
        "day": str(rng.randrange(1, 29)),
        "month": str(rng.randrange(1, 13)),
        "year": "2009",
        "time": f"21:{rng.randrange(60):02}:00",
    }
    text = seed.text
    for key, value in fields.items():
        text = set_value(text, key, value)
    return Case("money_good", text.encode(), STORE)


def money_bad(rng: random.Random, seed: Seed, serial: int) -> Case:
    """A cash game's record that cannot be: ``winnings`` of the wrong length, collecting more than
    every chip at the table, or finer than money."""
    stacks = seed.fields["starting_stacks"]
    n, total = len(stacks), sum(stacks)
    choice = rng.randrange(3)
    if choice == 0:
        values, reason = [0] * (n + rng.choice([-1, 1])), "winnings must list"
    elif choice == 1:
        values, reason = [total + 1] + [0] * (n - 1), "more than the pot"
    else:
        values, reason = ["0.0000001"] + [0] * (n - 1), "more than 6 decimals"
    return Case("money_bad", set_value(seed.text, "winnings", toml_list(values)).encode(), REJECT, reason)


MUTATORS: dict[str, Callable[[random.Random, Seed, int], Case]] = {
    "seed": seed_copy,
    "same": same_fields,
    "good": new_hand,
    "unicode_good": unicode_names,
    "truncate": truncate,
    "wrong_type": wrong_type,
    "swap": swap,
    "huge_number": huge_number,
    "unicode": bad_unicode,
    "random_bytes": random_bytes,
    "nesting": deep_nesting,
    "duplicate_key": duplicate_key,
    "bad_file": bad_file,
    "money_good": money_good,
    "money_bad": money_bad,
}
KINDS = tuple(MUTATORS)


def make_cases(rng: random.Random, count: int, seeds: list[Seed]) -> list[Case]:
    """``count`` cases, every kind in turn, each from a seed drawn at random."""
    return [MUTATORS[KINDS[i % len(KINDS)]](rng, rng.choice(seeds), i) for i in range(count)]


# -- laying a corpus out ------------------------------------------------------------------------


def write_corpus(folder: Path, cases: list[Case], rng: random.Random) -> list[Placed]:
    """Write the cases under ``folder``: files of their own, .phhs sections, archive members.

    Archives alternate GNU and pax headers, and every other one has a member with a non-ASCII
    name, so both of ingest's archive readers see cases.
    """
    placed: list[Placed] = []
    phhs: list[list[Case]] = [[]]
    archives: list[list[tuple[str, list[Case]]]] = [[]]
    for number, case in enumerate(cases):
        roll = rng.random()
        if case.alone or roll < 0.35:
            path = folder / "files" / f"{number:05d}-{case.kind}{case.suffix}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(case.data)
            placed.append(Placed(case, str(path), 0))
        elif roll < 0.7:
            if len(phhs[-1]) >= 40:
                phhs.append([])
            phhs[-1].append(case)
        else:
            members = archives[-1]
            if len(members) >= 150:
                archives.append(members := [])
            if roll < 0.85 or not members or members[-1][0].endswith(".phh") or len(members[-1][1]) >= 8:
                suffix = ".phhs" if roll >= 0.85 else ".phh"
                name = f"{'ü' if len(archives) % 2 and len(members) == 3 else 'm'}-{number:05d}{suffix}"
                members.append((name, []))
            members[-1][1].append(case)
    for number, sections in enumerate(s for s in phhs if s):
        path = folder / "phhs" / f"{number:04d}.phhs"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(phhs_bytes(sections))
        placed += [Placed(case, str(path), i) for i, case in enumerate(sections)]
    for number, members in enumerate(m for m in archives if m):
        path = folder / "archives" / f"{number:04d}.tar.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        tar_format = tarfile.GNU_FORMAT if number % 2 else tarfile.PAX_FORMAT
        files = [(name, phhs_bytes(cs) if name.endswith(".phhs") else cs[0].data) for name, cs in members]
        write_archive(path, files, tar_format)
        placed += [Placed(case, f"{path}!{name}", i) for name, cs in members for i, case in enumerate(cs)]
    return placed


def phhs_bytes(cases: list[Case]) -> bytes:
    """A .phhs file of the cases, one section each, numbered from 1."""
    return b"".join(b"[%d]\n%s\n" % (i + 1, case.data) for i, case in enumerate(cases))


def write_archive(path: Path, members: list[tuple[str, bytes]], tar_format: int = tarfile.GNU_FORMAT) -> None:
    """A .tar.gz of the members, names and bytes."""
    with tarfile.open(path, "w:gz", format=tar_format) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


ODD_NAMES = [
    b"bytes-\xff\xfe",
    b"new\nline",
    b"rtl-\xe2\x80\xae-lhp",
    b"emoji-\xf0\x9f\x82\xa1",
    b"tab\there",
    b"sep\xe2\x80\xa8line",
    b"cr\rlf",
]  # fmt: skip  (names of the odd-name files)


def shown_name(name: bytes) -> str:
    """A file name as ingest names it: bytes that are not UTF-8 as U+FFFD, control characters and
    line separators as Python escapes (``\\n``, ``\\u2028``)."""
    text = name.decode("utf-8", "replace")
    return re.sub(
        "[\x00-\x1f\x7f\x85\u2028\u2029]", lambda m: m.group().encode("unicode_escape").decode(), text
    )


def write_odd_names(folder: Path, seeds: list[Seed], serial: int) -> list[Placed]:
    """Files and archive members named with bytes that are not UTF-8, newlines, right-to-left marks,
    emoji: a new hand and a truncated one under each name."""
    rng = random.Random(serial)
    folder.mkdir(parents=True, exist_ok=True)
    archive = bytes(folder) + b"/odd-members.tar.gz"
    placed, members = [], []
    for number, odd in enumerate(ODD_NAMES):
        good, bad = new_hand(rng, rng.choice(seeds), serial + number), truncate(rng, rng.choice(seeds), 0)
        for case, suffix in ((good, b".phh"), (bad, b"-cut.phh")):
            path = bytes(folder) + b"/" + odd + suffix
            Path(os.fsdecode(path)).write_bytes(case.data)
            placed.append(Placed(case, shown_name(path), 0))
        member, inner = b"m/" + odd + b".phhs", new_hand(rng, rng.choice(seeds), serial + 100 + number)
        members.append((os.fsdecode(member), phhs_bytes([bad, inner])))
        shown = shown_name(archive + b"!" + member)
        placed += [Placed(bad, shown, 0), Placed(inner, shown, 1)]
    write_archive(Path(os.fsdecode(archive)), members)
    return placed


# -- the big inputs -----------------------------------------------------------------------------


def giant_case(seed: Seed, size: int) -> Case:
    """A real hand with one field of ``size`` bytes."""
    return Case("giant", (seed.text.rstrip("\n") + f"\n_giant = '{'x' * size}'\n").encode(), REJECT,
                reason="larger than")  # fmt: skip


def write_giants(folder: Path, seeds: list[Seed], size: int, serial: int) -> list[Placed]:
    """The giant field in a .phh file, in a .phhs between two good hands, in an archive's .phh and .phhs."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(serial)
    giant = giant_case(seeds[0], size)
    before, after = (new_hand(rng, rng.choice(seeds), serial + i) for i in (1, 2))
    single, phhs, archive = folder / "giant.phh", folder / "giant.phhs", folder / "giant.tar.gz"
    single.write_bytes(giant.data)
    phhs.write_bytes(phhs_bytes([before, giant, after]))
    inner_before, inner_after = (new_hand(rng, rng.choice(seeds), serial + i) for i in (3, 4))
    write_archive(archive, [("a/giant.phh", giant.data), ("b/giant.phhs", phhs_bytes([inner_before, giant])),
                            ("c/after.phh", inner_after.data)])  # fmt: skip
    return [Placed(giant, str(single), 0), Placed(before, str(phhs), 0), Placed(giant, str(phhs), 1),
            Placed(after, str(phhs), 2), Placed(giant, f"{archive}!a/giant.phh", 0),
            Placed(inner_before, f"{archive}!b/giant.phhs", 0), Placed(giant, f"{archive}!b/giant.phhs", 1),
            Placed(inner_after, f"{archive}!c/after.phh", 0)]  # fmt: skip


def zeros_gzip(out: io.BufferedWriter, expanded: int) -> None:
    """Append gzip members that expand to ``expanded`` zero bytes (about a thousandth on disk)."""
    chunk_size = 16 << 20
    chunk = gzip.compress(bytes(chunk_size), compresslevel=9, mtime=0)
    for _ in range(expanded // chunk_size):
        out.write(chunk)
    if expanded % chunk_size:
        out.write(gzip.compress(bytes(expanded % chunk_size), mtime=0))


def _header(name: str, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    return info.tobuf(tarfile.GNU_FORMAT)


def write_bombs(folder: Path, seeds: list[Seed], expanded: int, serial: int) -> list[Placed]:
    """Archives that expand without end: a .phh member of 8 GiB of zeros after a good hand, a .phhs
    member of a TiB (a size only GNU's base-256 field holds), and a gzip stream of nothing but zeros.

    Each gives ``expanded`` bytes of zeros at most (the tar header promises more): a reader that
    went on would need that much time, and the .phh member that much memory.
    """
    folder.mkdir(parents=True, exist_ok=True)
    good = new_hand(random.Random(serial), seeds[0], serial)
    endless, endless_gnu, zeros = (
        folder / "endless.tar.gz",
        folder / "endless-gnu.tar.gz",
        folder / "zeros.tar.gz",
    )
    padding = bytes(-len(good.data) % 512)
    member = _header("good.phh", len(good.data)) + good.data + padding + _header("endless.phh", 8**11 - 1)
    with open(endless, "wb") as out:
        out.write(gzip.compress(member, mtime=0))
        zeros_gzip(out, expanded)
    with open(endless_gnu, "wb") as out:
        out.write(gzip.compress(_header("endless.phhs", 1 << 40), mtime=0))
        zeros_gzip(out, expanded)
    with open(zeros, "wb") as out:
        zeros_gzip(out, expanded)
    stop = Case("bomb", b"", REJECT, reason="^cannot read the archive: it expands")
    too_big = Case("bomb", b"", REJECT, reason="larger than")
    return [Placed(good, f"{endless}!good.phh", 0), Placed(too_big, f"{endless}!endless.phh", 0),
            Placed(stop, str(endless), 0), Placed(stop, str(endless_gnu), 0)]  # fmt: skip


def write_crowded_archive(path: Path, seeds: list[Seed], members: int, serial: int) -> list[Placed]:
    """An archive of ``members`` empty files with long names (GNU long-name headers), a real hand
    every thousandth member, and a new hand last."""
    rng = random.Random(serial)
    path.parent.mkdir(parents=True, exist_ok=True)
    placed = []
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT, compresslevel=1) as archive:
        for number in range(members):
            info = tarfile.TarInfo(f"crowd/{rng.getrandbits(128):032x}/{'n' * 80}-{number}.txt")
            archive.addfile(info)
            if number % 1000 == 999:
                case = seed_copy(rng, rng.choice(seeds), serial + number)
                placed.append(_add(archive, path, f"crowd/{'s' * 100}-{number}.phh", case))
        placed.append(_add(archive, path, "crowd/last.phh", new_hand(rng, rng.choice(seeds), serial)))
    return placed


def _add(archive: tarfile.TarFile, path: Path, name: str, case: Case) -> Placed:
    info = tarfile.TarInfo(name)
    info.size = len(case.data)
    archive.addfile(info, io.BytesIO(case.data))
    return Placed(case, f"{path}!{name}", 0)
