"""Who and where a hand was played, from its PHH fields: the columns the ruling asks stored
(``RULINGS.md``, "Real-money hand histories": venue, table, seats, date and time, currency).

Both replays (the state machine's and the compiled one) take their columns from here, so a hand
stores the same facts whichever replays it. A field of the wrong type is left out (null), with
the hand kept: these facts describe the hand, they do not decide it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _whole(value: Any) -> int | None:
    return value if type(value) is int else None


def played_on(fields: dict[str, Any]) -> dt.date | None:
    """The day the hand was played (``year``, ``month``, ``day``), if all three make a date.

    >>> played_on({"year": 2009, "month": 3, "day": 14})
    datetime.date(2009, 3, 14)
    >>> played_on({"year": 2009, "month": 2, "day": 30}) is None
    True
    """
    parts = [_whole(fields.get(name)) for name in ("year", "month", "day")]
    if None in parts:
        return None
    try:
        return dt.date(*parts)  # type: ignore[arg-type]
    except ValueError:
        return None


def played_time(fields: dict[str, Any]) -> dt.time | None:
    """The file's ``time`` (a TOML local time) without its date or zone.

    >>> played_time({"time": dt.time(21, 15, 3)})
    datetime.time(21, 15, 3)
    """
    value = fields.get("time")
    if isinstance(value, dt.datetime):
        return value.time().replace(tzinfo=None)
    if isinstance(value, dt.time):
        return value.replace(tzinfo=None)
    return None


def hand_metadata(fields: dict[str, Any]) -> dict[str, Any]:
    """The ``hands`` columns of where and when: venue, table, day, time, time zone, currency.

    >>> hand_metadata({"venue": "Ultimate Bet", "table": "Zeta 12", "currency": "USD", "table_x": 1})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'currency': 'USD', 'venue': 'Ultimate Bet', 'table_name': 'Zeta 12', 'played_on': None,
     'played_time': None, 'time_zone': None}
    """
    table = fields.get("table")
    columns = {  # in the order of METADATA_COLUMNS
        "currency": _text(fields.get("currency")),
        "venue": _text(fields.get("venue")),
        "table_name": str(table) if isinstance(table, str | int) and not isinstance(table, bool) else None,
        "played_on": played_on(fields),
        "played_time": played_time(fields),
        "time_zone": _text(fields.get("time_zone")),
    }
    return columns


def table_seats(fields: dict[str, Any], n: int) -> list[int | None]:
    """Each player's seat number at the table (``seats``), or nulls when the file has none.

    >>> table_seats({"seats": [1, 2, 3, 4, 6, 9]}, 6), table_seats({}, 2)
    ([1, 2, 3, 4, 6, 9], [None, None])
    """
    seats = fields.get("seats")
    if isinstance(seats, list) and len(seats) == n and all(type(s) is int and 0 < s < 2**15 for s in seats):
        return list(seats)
    return [None] * n
