"""An OHH file's JSON objects read one after another, bounded: what ``ohh`` makes hands of.

An object larger than ``MAX_OBJECT_CHARS`` is refused unparsed, one nested deeper than ``MAX_DEPTH``
refused (without recursion), ``NaN`` and ``Infinity`` are no amounts; after an object that does not
parse, reading goes on at the next one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

MAX_OBJECT_CHARS = 1 << 20  # an OHH hand is a few KB
MAX_DEPTH = 16  # an OHH hand nests 7 deep
_OHH_KEY = re.compile(r'"ohh"\s*:\s*\{')
_NEXT_OBJECT = re.compile(r"\n[ \t]*\n\s*(?=\{)|\n(?=\{)")  # after a blank line, or at a line's start
_NOT_SPACE = re.compile(r"\S")


def is_ohh(text: str) -> bool:
    """Whether a file's first text (decoded) is OHH: a JSON object holding an "ohh" object.

    >>> is_ohh('\\n{"ohh": {"spec_version": "1.4.6"}}'), is_ohh("PokerStars Hand #1"), is_ohh('{"a": 1}')
    (True, False, False)
    """
    return text.lstrip().startswith("{") and _OHH_KEY.search(text) is not None


def json_objects(text: str) -> Iterator[tuple[int, str, Any, str | None]]:
    """The JSON values of a text one after another, blank lines or not between them: (the line each
    starts on, its text, the value or None, why it is refused or None). After a value that does not
    parse, reading goes on at the next object (a ``{`` after a blank line or opening a line)."""
    decoder = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constant)
    position, line, counted = 0, 1, 0
    while (found := _NOT_SPACE.search(text, position)) is not None:
        start = found.start()
        line, counted = line + text.count("\n", counted, start), start
        bound = _next_object(text, start)
        if bound - start > MAX_OBJECT_CHARS:
            yield (
                line,
                text[start : start + 200],
                None,
                f"the hand is larger than {MAX_OBJECT_CHARS:,} characters",
            )
            position = bound
            continue
        value, end, error = _decoded(decoder, text, start)
        if error is None and end - start > MAX_OBJECT_CHARS:
            value, error = None, f"the hand is larger than {MAX_OBJECT_CHARS:,} characters"
        if error is None and _depth(value) > MAX_DEPTH:
            value, error = None, f"values nested more than {MAX_DEPTH} deep"
        end = bound if end is None else end
        yield line, text[start:end], value, error
        position = end


def _decoded(decoder: json.JSONDecoder, text: str, start: int) -> tuple[Any, int | None, str | None]:
    """The JSON value at ``start`` and where it ends, or why it does not parse."""
    if text[start] != "{":
        return None, None, "not a JSON object"
    try:
        value, end = decoder.raw_decode(text, start)
    except RecursionError:
        return None, None, f"values nested more than {MAX_DEPTH} deep"
    except json.JSONDecodeError as error:
        message = error.msg.replace("':'", "a colon").replace(":", ";").lower()
        return None, None, f"bad JSON, {message} at column {error.colno}"
    except ValueError:  # an integer of more digits than Python converts, a NaN
        return None, None, "bad JSON, a number that is no amount"
    return value, end, None


def _next_object(text: str, start: int) -> int:
    found = _NEXT_OBJECT.search(text, start + 1)
    return len(text) if found is None else found.end()


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def _depth(value: Any) -> int:
    """How deep a parsed value nests (no recursion: the depth is what is checked)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return deepest
