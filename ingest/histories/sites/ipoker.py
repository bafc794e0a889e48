"""The iPoker network's XML hand histories: a ``<session>`` whose ``<general>`` names the game, the
table, the currency and the tournament, then a ``<game gamecode=...>`` a hand (``ipoker_game`` reads
one). A file may hold several sessions (tracker archives); each game is read with the header of the
session it follows.

The file is cut at its ``<game`` tags, not parsed whole: a file cut off mid-game (the client writes
as it plays) keeps its whole games and refuses the last by name, and one malformed game does not
take the others with it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import Any

from ingest.histories.sites.ipoker_game import Session, read_game
from ingest.histories.sites.text import SiteError, refusal
from ingest.histories.sites.to_phh import phh_fields

NAME = "iPoker"

_SESSION = re.compile(r"<session\b")
_GAME = re.compile(r"<game\b[^>]*?gamecode=\"([^\"]*)\"|<game\b")
_GAME_END = "</game>"
_FIELD = re.compile(r"<(\w+)>([^<]*)</\1>")


def is_ipoker(head: str) -> bool:
    """Whether a file's first text is an iPoker session.

    >>> is_ipoker('<?xml version="1.0"?><session sessioncode="1"><general>'), is_ipoker("PokerStars Hand")
    (True, False)
    """
    return "<session" in head and ("<general" in head or "<game" in head)


def session_fields(header: str) -> dict[str, str]:
    """A session's ``<general>`` header as its fields' text (the first of each name).

    >>> session_fields("<general><mode>real</mode><gametype>Holdem NL $1/$2</gametype><x></x></general>")
    {'mode': 'real', 'gametype': 'Holdem NL $1/$2', 'x': ''}
    """
    fields: dict[str, str] = {}
    for found in _FIELD.finditer(header):
        fields.setdefault(found.group(1), found.group(2).strip())
    return fields


def ipoker_hands(text: str) -> Iterator[tuple[int, str, str, dict[str, Any] | None, str | None]]:
    """Every ``<game>`` of a file's sessions as ``sites.site_hands`` gives hands: (its place, its label,
    its text, its PHH fields or None, the reason it is refused or None)."""
    sessions = [m.start() for m in _SESSION.finditer(text)]
    games = list(_GAME.finditer(text))
    headers: dict[int, Session] = {}
    line, counted, place = 1, 0, 0
    for index, found in enumerate(games):
        begin = found.start()
        limit = games[index + 1].start() if index + 1 < len(games) else len(text)
        at = bisect.bisect_left(sessions, begin)  # the sessions before this game: the last is its own
        if at < len(sessions) and sessions[at] < limit:  # the next session's header is not this game's
            limit = sessions[at]
        owner = sessions[at - 1] if at else -1
        if owner not in headers:
            headers[owner] = Session(session_fields(text[max(owner, 0) : begin]) if owner >= 0 else {})
        line, counted = line + text.count("\n", counted, begin), begin
        label = f"#{found.group(1)} (line {line})" if found.group(1) else f"at line {line}"
        end = text.find(_GAME_END, begin, limit)
        game, notes = text[begin : end + len(_GAME_END)], []
        if end < 0:
            game = text[begin:limit].rstrip()
            if limit < len(text) or not game.endswith("</round>"):
                yield place, label, game, None, "the game is cut off before its end (no </game>)"
                place += 1
                continue
            game, notes = game + _GAME_END, ["the file ends after the game's last round, without </game>"]
        try:
            hand = read_game(game, headers[owner])
            hand.notes = notes + hand.notes
            fields = phh_fields(hand)
        except (ValueError, ArithmeticError) as error:  # (a SiteError says why; anything else, one line)
            yield place, label, game, None, refusal(error)
        else:
            yield place, label, game, fields, None
        place += 1
    if not games and sessions:
        yield 0, "the session", text[:200], None, refusal(SiteError("an iPoker session without a game"))
