"""Money amounts in a hand history, exactly: every amount an integer of the hand's unit.

Real hand histories write amounts in money (``starting_stacks = [200.3, 181.85]``, ``p1 cbr
2.5``). By ``RULINGS.md`` ("Real-money hand histories") a hand's unit is 10^-k of its currency,
k the most decimals any of its amounts shows, and every amount becomes a whole number of that
unit before the hand is replayed. No float is ever added: TOML reads ``200.3`` as the float
nearest to it, whose shortest text (``repr``) is ``200.3`` again, so the decimal read from that
text is the one the file wrote. More than ``MAX_DECIMALS`` decimals, a negative or a non-numeric
amount is refused with a one-line reason; only an entry of ``blinds_or_straddles`` may be negative
(PokerKit's live post by a player who just sat down: ``engine.rules.state``).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

MAX_DECIMALS = 6  # a millionth of the currency: finer amounts are not money
STAKE_LISTS = ("starting_stacks", "antes", "blinds_or_straddles")  # what is played for
AMOUNT_LISTS = (*STAKE_LISTS, "finishing_stacks", "winnings")  # and what the record says
AMOUNT_VALUES = ("min_bet", "small_bet", "big_bet", "bring_in")
POSTS = "blinds_or_straddles["  # its negative entries are posts (PokerKit), not negative amounts
MONEY_FIELDS = frozenset({"winnings", "currency", "currency_symbol"})  # a hand naming one is money
_LIMIT = Decimal(2**53)  # whole units a float holds exactly: far within int64


class AmountError(ValueError):
    """An amount that is not money (the message names the field)."""


class Token(str):
    """An amount as an action writes it (``p1 cbr 2.5``): text, where a field holds a number."""


def decimal_of(value: Any, what: str) -> Decimal:
    """The exact decimal a file wrote for an amount: a TOML number, or an action's ``Token``
    (negative only for an entry of ``blinds_or_straddles``: a post).

    >>> decimal_of(200.3, "starting_stacks[0]")
    Decimal('200.3')
    >>> decimal_of(Token("0.25"), "the amount")
    Decimal('0.25')
    >>> decimal_of("2", "min_bet")
    Traceback (most recent call last):
    ...
    ingest.histories.money.AmountError: min_bet must be a number, not '2'
    >>> decimal_of(True, "antes[1]")
    Traceback (most recent call last):
    ...
    ingest.histories.money.AmountError: antes[1] must be a number, not True
    >>> decimal_of(-0.5, "blinds_or_straddles[2]")
    Decimal('-0.5')
    """
    if isinstance(value, bool) or not isinstance(value, int | float | Token):
        raise AmountError(f"{what} must be a number, not {value!r}")
    text = repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str) and (not text.isascii() or "_" in text or not text.strip()):
        raise AmountError(f"{what} is {value!r}: not an amount")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise AmountError(f"{what} is {value!r}: not an amount") from None
    if not amount.is_finite():
        raise AmountError(f"{what} is {value}: an unknown amount cannot be replayed")
    if amount < 0 and not what.startswith(POSTS):
        raise AmountError(f"{what} is {value}: amounts are not negative")
    return amount


def decimals(amount: Decimal) -> int:
    """How many decimals an amount shows once trailing zeros go (``200.30`` shows one).

    >>> decimals(Decimal("200.30")), decimals(Decimal("5")), decimals(Decimal("1E+2"))
    (1, 0, 0)
    """
    exponent = amount.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def is_money(fields: dict[str, Any]) -> bool:
    """Whether a hand is played for money: an amount of its stakes shows decimals, or it names a
    currency, or it records ``winnings`` (what online rooms record). A hand of whole chips whose
    ``finishing_stacks`` alone show halves is a tournament splitting an odd chip
    (``docs/phh-extensions.md``, "Half chips"), not money.

    >>> is_money({"starting_stacks": [200.3, 100]}), is_money({"starting_stacks": [100], "winnings": [5]})
    (True, True)
    >>> is_money({"starting_stacks": [10000, 10000], "finishing_stacks": [10112.5, 9887.5]})
    False
    """
    if MONEY_FIELDS & fields.keys():
        return True
    try:
        return any(decimals(decimal_of(v, what)) for what, v in _amounts(fields, with_record=False))
    except AmountError:
        return True  # not an amount: ``fields_in_units`` names it


def _amounts(fields: dict[str, Any], with_record: bool = True) -> list[tuple[str, Any]]:
    """Every amount of a hand with its name: the amount fields (the record's too, unless not
    ``with_record``), then each bet's token."""
    found: list[tuple[str, Any]] = []
    for name in AMOUNT_LISTS if with_record else STAKE_LISTS:
        values = fields.get(name)
        if isinstance(values, list):
            found += [(f"{name}[{i}]", v) for i, v in enumerate(values)]
    found += [(name, fields[name]) for name in AMOUNT_VALUES if fields.get(name) is not None]
    actions = fields.get("actions")
    for number, text in enumerate(actions if isinstance(actions, list) else [], start=1):
        parts = text.split("#", 1)[0].split() if isinstance(text, str) else []
        if len(parts) == 3 and parts[1] in ("cbr", "pb"):
            found.append((f"action {number} {text.strip()!r}: the amount", Token(parts[2])))
    return found


def hand_decimals(fields: dict[str, Any]) -> int:
    """k of the hand's unit 10^-k: the most decimals any of its amounts shows.

    >>> hand_decimals({"starting_stacks": [200.3, 181.85], "actions": ["p1 cbr 2.5"]})
    2
    >>> hand_decimals({"starting_stacks": [0.0000001]})
    Traceback (most recent call last):
    ...
    ingest.histories.money.AmountError: starting_stacks[0] is 1e-07: more than 6 decimals
    """
    most = 0
    for what, value in _amounts(fields):
        shown = decimals(decimal_of(value, what))
        if shown > MAX_DECIMALS:
            raise AmountError(f"{what} is {value}: more than {MAX_DECIMALS} decimals")
        most = max(most, shown)
    return most


def in_units(value: Any, k: int, what: str) -> int:
    """An amount as a whole number of 10^-k.

    >>> in_units(181.85, 2, "starting_stacks[1]"), in_units(3, 2, "antes[0]")
    (18185, 300)
    """
    units = decimal_of(value, what).scaleb(k)
    if units != units.to_integral_value():
        raise AmountError(f"{what} is {value}: more than {k} decimals")
    if abs(units) > _LIMIT:
        raise AmountError(f"{what} is {value}: more than scooplab counts (at most {_LIMIT:,} units)")
    return int(units)


def fields_in_units(fields: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A money hand (``is_money``) with every amount in whole units of 10^-k, and k: a copy, its
    bets' tokens rewritten (``p1 cbr 2.5`` is ``p1 cbr 250`` at k = 2). A hand of chips comes
    back as it is, with k = 0.

    >>> hand, k = fields_in_units({"starting_stacks": [200.3, 181.85], "blinds_or_straddles": [0.5, 1],
    ...                            "actions": ["p1 cbr 2.5 # open"]})
    >>> k, hand["starting_stacks"], hand["blinds_or_straddles"], hand["actions"]
    (2, [20030, 18185], [50, 100], ['p1 cbr 250 # open'])
    """
    if not is_money(fields):
        return fields, 0  # whole chips: the replay reads them as they are
    return money_in_units(fields)


def money_in_units(fields: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``fields_in_units`` for a hand already known to be money (``is_money``)."""
    k = hand_decimals(fields)
    hand = dict(fields)
    for name in AMOUNT_LISTS:
        values = fields.get(name)
        if isinstance(values, list):
            hand[name] = [in_units(v, k, f"{name}[{i}]") for i, v in enumerate(values)]
    for name in AMOUNT_VALUES:
        if fields.get(name) is not None:
            hand[name] = in_units(fields[name], k, name)
    actions = fields.get("actions")
    if isinstance(actions, list):
        hand["actions"] = [_action_in_units(text, k, n) for n, text in enumerate(actions, start=1)]
    return hand, k


def _action_in_units(text: Any, k: int, number: int) -> Any:
    if not isinstance(text, str):
        return text
    body, hash_, comment = text.partition("#")
    parts = body.split()
    if len(parts) != 3 or parts[1] not in ("cbr", "pb"):
        return text
    units = in_units(Token(parts[2]), k, f"action {number} {text.strip()!r}: the amount")
    return " ".join((*parts[:2], str(units))) + (f" {hash_}{comment}" if hash_ else "")


def money_text(units: int, k: int) -> str:
    """Units of 10^-k as the amount they are, with no trailing zeros.

    >>> money_text(20030, 2), money_text(18185, 2), money_text(300, 0), money_text(5, 3)
    ('200.3', '181.85', '300', '0.005')
    """
    amount = Decimal(units).scaleb(-k)
    text = format(amount.normalize(), "f") if k else str(units)
    return text


def _shown(value: Any) -> tuple[int, str] | None:
    """``_plain_shown`` of a field's number (an int or a float); None for anything else (a text, a
    list...: ``decimal_of`` names it).

    >>> _shown([1]), _shown("2"), _shown(2.5)
    (None, None, (1, '25'))
    """
    return _plain_shown(value) if type(value) in (int, float) else None


@lru_cache(maxsize=65_536, typed=True)  # hands repeat their amounts (stacks, blinds, zeros)
def _plain_shown(value: int | float | str) -> tuple[int, str] | None:
    """(decimals shown, the digits without the point) of a plain non-negative amount: an int, a
    float's shortest text, or an action's text; None for anything else (the full reading names it).

    >>> [_plain_shown(v) for v in (200.3, 7, "6.40", -1, 1e16, "2.")]
    [(1, '2003'), (0, '7'), (1, '64'), None, None, None]
    """
    if type(value) is int:
        return (0, str(value)) if value >= 0 else None
    text = repr(value) if type(value) is float else value if type(value) is str else ""
    whole, point, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    digits = whole + fraction
    if not (whole and digits.isascii() and digits.isdigit()) or (point and not text[-1].isdigit()):
        return None
    return len(fraction), digits


def quick_units(fields: dict[str, Any]) -> tuple[dict[str, Any], int, bool] | None:
    """``money_in_units`` for a plain hand, without decimals arithmetic: its amount fields (the
    record's too) in units, k, and whether it is money by ``is_money`` (decimals shown outside the
    record, or a money field); its actions stay as written (the compiled replay reads their
    amounts at k decimals). None for anything the full reading must judge (a negative, a text or
    any non-number, more than ``MAX_DECIMALS`` decimals, a huge amount...).

    >>> hand, k, money = quick_units({"starting_stacks": [200.3, 181.85], "winnings": [0, 1.5],
    ...                               "min_bet": 1, "actions": ["p1 cbr 2.125"]})
    >>> k, money, hand["starting_stacks"], hand["winnings"], hand["min_bet"]
    (3, True, [200300, 181850], [0, 1500], 1000)
    >>> quick_units({"starting_stacks": [1000, 1000], "finishing_stacks": [999.5, 1000.5]})[1:]
    (1, False)
    """
    shown: dict[str, Any] = {}
    most = stakes = 0
    for name in AMOUNT_LISTS:
        values = fields.get(name)
        if values is not None:
            found = list(map(_shown, values)) if type(values) is list else [None]
            if None in found:
                return None
            shown[name] = found
            most = max(most, max(found)[0]) if found else most
            stakes = max(stakes, max(found)[0]) if found and name in STAKE_LISTS else stakes
    for name in AMOUNT_VALUES:
        if fields.get(name) is not None:
            found = _shown(fields[name])
            if found is None:
                return None
            shown[name] = found
            most, stakes = max(most, found[0]), max(stakes, found[0])
    for text in fields.get("actions") or ():
        parts = text.split() if type(text) is str and "." in text else ()
        if len(parts) == 3 and parts[1] in ("cbr", "pb"):
            found = _plain_shown(parts[2])
            if found is None:
                return None
            most, stakes = max(most, found[0]), max(stakes, found[0])
    if most > MAX_DECIMALS:
        return None
    hand = dict(fields)
    for name, found in shown.items():
        units = [int(digits) * 10 ** (most - k) for k, digits in found] if isinstance(found, list) else None
        hand[name] = units if units is not None else int(found[1]) * 10 ** (most - found[0])
        if max(units if units is not None else [hand[name]], default=0) > _LIMIT:
            return None
    return hand, most, stakes > 0 or bool(MONEY_FIELDS & fields.keys())
