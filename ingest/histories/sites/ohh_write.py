"""PHH fields written as Open Hand History (``scooplab export --format ohh``): one ``{"ohh": {...}}``
object a hand, on one line, a blank line after it (the spec's storage format).

Amounts are JSON numbers written from the hand's decimal text, every one with the hand's decimals
(``0.80``, ``2.00``), never through a float. Players are listed in PHH order (the button last, so
``dealer_seat`` is the last player's seat); the forced bets are posts (an ante ``Post Ante``, a dead
blind ``Post Dead``, a live blind out of turn ``Post Extra Blind``); a bet or raise is what it adds,
as OHH counts; cards known at the deal are ``Dealt Cards``, shown ones ``Shows Cards`` in a
``Showdown`` round. The record is one pot: the file's total pot, rake and jackpot where the hand
kept them, each winner's ``win_amount`` and cash-out. What OHH has no place for (the local time and
its zone, the level, notes...) is scooplab's ``_phh`` object (``ohh.EXTENSION``), so that reading
the OHH back gives the same fields. Each hand is read back as it is written: one that would not
come back the same is not written (``Unwritable`` names why).

OHH names hold'em, Omaha and Omaha hi/lo (``GAMES``: Omaha of 4, 5 or 6 hole cards, its readers
counting them); its stud and draw games have no streets in the spec, and other games no name: their
hands are not written.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from contextlib import suppress
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ingest.histories.money import AmountError, Token, decimal_of, decimals, hand_decimals
from ingest.histories.sites import ohh, ohh_json
from ingest.histories.sites.text import SiteError, amount

SPEC_VERSION = "1.4.6"
# a scooplab game: its OHH game_type and hole cards
GAMES = {"holdem": ("Holdem", 2), "omaha": ("Omaha", 4), "omaha-hi-lo": ("OmahaHiLo", 4),
         "five-card-omaha": ("Omaha", 5), "five-card-omaha-hi-lo": ("OmahaHiLo", 5),
         "six-card-omaha": ("Omaha", 6)}  # fmt: skip
_LIMITS = {letter: name for name, letter in ohh.LIMITS.items()}  # N: NL...
_ZERO = Decimal(0)


class Unwritable(ValueError):
    """A hand OHH cannot hold exactly, with the reason."""


def ohh_text(fields: dict[str, Any], game: str) -> str:
    """One hand's PHH fields (of the scooplab game ``game``) as the text of one OHH object, checked by
    reading it back; ``Unwritable`` when OHH cannot hold it exactly."""
    game_object = ohh_object(fields, game)
    text = dumps({"ohh": game_object})
    back = _read_back(text)
    extension = _difference(fields, back)
    if extension:  # added as its text: read back as the reader reads it
        extension_text = dumps(extension)
        text = f'{text[:-2]}, "{ohh.EXTENSION}": {extension_text}}}}}'
        back = ohh.restored(back, json.loads(extension_text, parse_float=Decimal))
    different = sorted(
        k for k in fields.keys() | back.keys() if _canonical(fields.get(k)) != _canonical(back.get(k))
    )
    if different:
        raise Unwritable(f"OHH cannot hold its {', '.join(different)} exactly")
    return text


def ohh_object(fields: dict[str, Any], game: str) -> dict[str, Any]:
    """The ``ohh`` object of a hand's PHH fields (no extension: ``ohh_text`` adds it)."""
    if game not in GAMES:
        raise Unwritable(f"OHH names no game for {game}")
    kind, hole = GAMES[game]
    variant = fields.get("variant")
    if not isinstance(variant, str) or variant[:1] not in _LIMITS or variant[1:] != ohh.GAMES[kind, hole]:
        raise Unwritable(f"variant {variant!r} is not an OHH {kind} game")
    table = _Table.of(fields, hole)
    rounds = table.play(fields)
    game_object = _header(fields, table, kind, _LIMITS[variant[0]])
    game_object["players"] = table.players(fields)
    game_object["rounds"] = rounds
    game_object["pots"] = [table.pot(fields)]
    if table.hero is not None:
        game_object["hero_player_id"] = table.hero
    return game_object


@dataclass
class _Table:
    """The hand played through: each player's stack, bet on this street, and total put in."""

    k: int  # the hand's decimals
    hole: int  # hole cards a player
    names: list[str]
    seats: list[int]
    starting: list[Decimal]
    stacks: list[Decimal]
    bets: list[Decimal]
    put: list[Decimal]
    live: list[Decimal]  # bets and live blinds: what an uncalled bet is counted from
    dealt: list[int] = field(default_factory=list)  # players whose dealt cards are known
    shown: dict[int, set[str]] = field(default_factory=dict)  # the cards each player shows at the end
    shows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def hero(self) -> int | None:
        """The player whose cards are known though he showed none (the one who wrote the history)."""
        return next((p for p in self.dealt if not self.shown.get(p)), None)

    @classmethod
    def of(cls, fields: dict[str, Any], hole: int) -> _Table:
        try:
            k = hand_decimals(fields)
            stacks = [decimal_of(v, f"starting_stacks[{i}]") for i, v in enumerate(fields["starting_stacks"])]
        except (AmountError, KeyError, TypeError) as error:
            raise Unwritable(f"its amounts cannot be read ({error})") from None
        n = len(stacks)
        names = fields.get("players") or [f"p{i + 1}" for i in range(n)]
        seats = fields.get("seats") or list(range(1, n + 1))
        if n < 2 or len(names) != n or len(seats) != n or not all(isinstance(s, int) for s in seats):
            raise Unwritable("its players, seats and stacks do not agree")
        zeros = [_ZERO] * n
        return cls(
            k, hole, [str(x) for x in names], seats, stacks, list(stacks), list(zeros), list(zeros), zeros
        )

    def money(self, value: Decimal) -> Decimal:
        """An amount with the hand's decimals (``2`` is ``2.00`` in a hand of cents)."""
        return value.quantize(Decimal(1).scaleb(-self.k)) if decimals(value) <= self.k else value

    def players(self, fields: dict[str, Any]) -> list[dict[str, Any]]:
        bounties = fields.get("_bounties") or []
        out = []
        for i, name in enumerate(self.names):
            player = {
                "id": i,
                "seat": self.seats[i],
                "name": name,
                "starting_stack": self.money(self.starting[i]),
            }
            bounty = _amount_text(bounties[i]) if i < len(bounties) else None
            if bounty:
                player["player_bounty"] = bounty
            out.append(player)
        return out

    def pay(self, player: int, value: Decimal, live: bool) -> tuple[Decimal, bool]:
        """``player`` puts ``value`` in (all of his stack at most): what he put, and whether he is all in."""
        value = min(value, self.stacks[player])
        self.stacks[player] -= value
        self.put[player] += value
        if live:
            self.bets[player] += value
            self.live[player] += value
        return value, self.stacks[player] == 0

    def action(self, player: int, verb: str, value: Decimal = _ZERO, allin: bool = False) -> dict[str, Any]:
        """An OHH action (numbered when its round is complete)."""
        return {"action_number": 0, "player_id": player, "action": verb, "amount": self.money(value),
                "is_allin": allin}  # fmt: skip

    def posts(self, fields: dict[str, Any]) -> list[dict[str, Any]]:
        """The antes and blinds as OHH posts: antes, then blinds in PHH's order, then live posts."""
        n = len(self.names)
        antes, blinds = _forced(fields, "antes", n), _forced(fields, "blinds_or_straddles", n)
        at = (lambda j: 1 - j) if n == 2 else (lambda j: j)  # heads-up PHH lists are reversed
        everyone = sum(1 for a in antes if a > 0) == n
        posts = []
        for j, ante in enumerate(antes):
            if ante > 0:
                player = at(j)
                dead = blinds[j] < 0 or (blinds[j] == 0 and not everyone)
                posts.append(
                    self.action(player, "Post Dead" if dead else "Post Ante", *self.pay(player, ante, False))
                )
        for j, blind in enumerate(blinds):
            if blind > 0:
                verb = ("Post SB", "Post BB")[j] if j < 2 else "Straddle"
                posts.append(self.action(at(j), verb, *self.pay(at(j), blind, True)))
        for j, blind in enumerate(blinds):
            if blind < 0:
                posts.append(self.action(at(j), "Post Extra Blind", *self.pay(at(j), -blind, True)))
        return posts

    def play(self, fields: dict[str, Any]) -> list[dict[str, Any]]:
        """The rounds: the posts and deals, then each street's board and moves, then the shows."""
        rounds = [{"id": 0, "street": "Preflop", "cards": [], "actions": self.posts(fields)}]
        actions = [
            text.split("#", 1)[0].split() if isinstance(text, str) else []
            for text in fields.get("actions") or []
        ]
        for parts in actions:
            if len(parts) == 3 and parts[1] == "sm":
                self.shown[_player(parts[0], self.names)] = {c for c in _cards(parts[2]) if c != "??"}
        boards_left = sum(1 for parts in actions if parts[:2] == ["d", "db"])
        streets = _board_streets(boards_left, fields.get("_runs", 1))
        for parts in actions:
            if parts[:2] == ["d", "db"] and len(parts) == 3:
                boards_left -= 1
                self.bets = [_ZERO] * len(self.names)
                street = streets[len(rounds) - 1]
                rounds.append({"id": len(rounds), "street": street, "cards": _cards(parts[2]), "actions": []})
            elif parts[:2] == ["d", "dh"] and len(parts) == 4:
                dealt = self.deal(_player(parts[2], self.names), parts[3])
                rounds[-1]["actions"] += [dealt] if dealt else []
            elif len(parts) >= 2 and parts[0] != "d":
                move = self.move(_player(parts[0], self.names), parts[1:], len(rounds) > 1)
                showdown = parts[1] == "sm" and not boards_left  # a show before a board: where it was made
                (self.shows if showdown else rounds[-1]["actions"]).append(move)
            else:
                raise Unwritable(f"a PHH action OHH has no word for ({' '.join(parts)!r})")
        if self.shows:
            rounds.append({"id": len(rounds), "street": "Showdown", "cards": [], "actions": self.shows})
        for game_round in rounds:
            for number, action in enumerate(game_round["actions"], start=1):
                action["action_number"] = number
        return rounds

    def deal(self, player: int, dealt: str) -> dict[str, Any] | None:
        if len(dealt) != 2 * self.hole:
            raise Unwritable(f"it deals {len(dealt) // 2} hole cards; OHH's game has {self.hole}")
        known = [c for c in _cards(dealt) if c != "??"]
        if not known or set(known) <= self.shown.get(player, set()):
            return None  # unknown, or known by the show at the end (``Shows Cards``)
        self.dealt.append(player)
        return self.action(player, "Dealt Cards") | {"cards": known}

    def move(self, player: int, parts: list[str], after_flop: bool) -> dict[str, Any]:
        """One PHH move as an OHH action (a show or a muck too)."""
        verb = parts[0]
        if verb == "f":
            return self.action(player, "Fold")
        if verb == "cc":
            owed = max(self.bets) - self.bets[player]
            if owed <= 0:
                return self.action(player, "Check")
            return self.action(player, "Call", *self.pay(player, owed, True))
        if verb == "cbr" and len(parts) == 2:
            to = _decimal(parts[1])
            opening = after_flop and max(self.bets) == 0
            return self.action(
                player, "Bet" if opening else "Raise", *self.pay(player, to - self.bets[player], True)
            )
        if verb == "sm":
            shown = [c for c in _cards(parts[1]) if c != "??"] if len(parts) == 2 else []
            show = self.action(player, "Shows Cards" if shown else "Mucks Cards")
            if shown:
                show["cards"] = shown
            return show
        raise Unwritable(f"a PHH action OHH has no word for ({' '.join(parts)!r})")

    def pot(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The one pot: the total (the file's, or what was put in less the uncalled bet), its rake and
        jackpot, and what each player won and cashed out."""
        ranked = sorted(self.live, reverse=True)
        returned = ranked[0] - ranked[1]
        top = self.live.index(ranked[0])
        won = self.won(fields, top, returned)
        total = _text_decimal(fields.get("_total_pot")) or sum(self.put, _ZERO) - returned
        fees = _text_decimal(fields.get("_fees")) or _ZERO
        rake = _text_decimal(fields.get("_rake"))
        rake = max(total - sum(won, _ZERO) - fees, _ZERO) if rake is None else rake
        cash = [_text_decimal(v) or _ZERO for v in fields.get("_cash_outs") or []]
        cash_fees = [_text_decimal(v) or _ZERO for v in fields.get("_cash_out_fees") or []]
        wins = []
        for i, value in enumerate(won):
            win = {"player_id": i, "win_amount": self.money(value)}
            if i < len(cash) and (cash[i] or (i < len(cash_fees) and cash_fees[i])):
                win["cashout_amount"] = self.money(cash[i])
                win["cashout_fee"] = self.money(cash_fees[i] if i < len(cash_fees) else _ZERO)
            if value or len(win) > 2:
                wins.append(win)
        return {"number": 0, "amount": self.money(total), "rake": self.money(rake),
                "jackpot": self.money(fees), "player_wins": wins}  # fmt: skip

    def won(self, fields: dict[str, Any], top: int, returned: Decimal) -> list[Decimal]:
        """What each player won: the record's ``winnings``, or by ``finishing_stacks`` what came back."""
        n = len(self.names)
        try:
            if fields.get("winnings") is not None:
                return [decimal_of(v, f"winnings[{i}]") for i, v in enumerate(fields["winnings"])][:n]
            finishing = fields.get("finishing_stacks")
            if finishing is None:
                return [_ZERO] * n
            left = [self.stacks[i] + (returned if i == top else _ZERO) for i in range(n)]
            return [
                max(decimal_of(v, f"finishing_stacks[{i}]") - left[i], _ZERO) for i, v in enumerate(finishing)
            ]
        except AmountError as error:
            raise Unwritable(str(error)) from None


def _board_streets(deals: int, runs: Any) -> tuple[str, ...]:
    """The street of each board deal: flop, turn and river, then each later run's streets again.

    >>> _board_streets(5, 3)
    ('Flop', 'Turn', 'River', 'River', 'River')
    >>> _board_streets(7, 3)
    ('Flop', 'Turn', 'River', 'Turn', 'River', 'Turn', 'River')
    """
    streets = ("Flop", "Turn", "River")
    runs = runs if type(runs) is int and runs > 1 else 1
    again, odd = divmod(deals - len(streets), runs - 1) if runs > 1 else (0, deals - len(streets))
    if odd > 0 or again > len(streets) or (deals < len(streets) and runs > 1):
        raise Unwritable("it deals more boards than OHH's flop, turn and river")
    return streets[:deals] + streets[len(streets) - again :] * (runs - 1)


def _header(fields: dict[str, Any], table: _Table, kind: str, limit: str) -> dict[str, Any]:
    venue = fields.get("venue") if isinstance(fields.get("venue"), str) else ""
    blinds = _forced(fields, "blinds_or_straddles", len(table.names))
    big = fields.get("small_bet") if limit == "FL" else fields.get("min_bet")
    antes = [a for a in _forced(fields, "antes", len(table.names)) if a > 0]
    header: dict[str, Any] = {
        "spec_version": SPEC_VERSION, "internal_version": SPEC_VERSION, "site_name": venue,
        "network_name": venue,
        "game_number": _game_number(fields), "table_name": str(fields.get("table") or ""),
        "table_size": fields.get("seat_count") or max(max(table.seats), len(table.names)),
        "game_type": kind, "bet_limit": {"bet_type": limit, "bet_cap": table.money(_ZERO)},
        "currency": _currency(fields), "dealer_seat": table.seats[-1],
        "small_blind_amount": table.money(max(blinds[0], _ZERO)),
        "big_blind_amount": table.money(_decimal(big) if big is not None else max(blinds[1], _ZERO)),
        "ante_amount": table.money(max(antes, key=antes.count) if antes else _ZERO),
        "flags": ["Run_It_Twice"] if fields.get("_runs", 1) != 1 else [],
    }  # fmt: skip
    start = _start(fields)
    if start:
        header["start_date_utc"] = start
    if fields.get("_chips") == "tournament":
        header["tournament"] = True
        header["tournament_info"] = _tournament_info(fields)
    return header


def _tournament_info(fields: dict[str, Any]) -> dict[str, Any]:
    info: dict[str, Any] = {"tournament_number": str(fields.get("_tournament") or "")}
    for key, name in (("_buy_in", "buyin_amount"), ("_fee", "fee_amount"), ("_bounty", "bounty_fee_amount")):
        value = _text_decimal(fields.get(key))
        if value is not None:
            info[name] = value
    currency = fields.get("_buy_in_currency")
    if isinstance(currency, str):
        info["currency"] = currency
    return info


def _currency(fields: dict[str, Any]) -> str:
    if fields.get("_chips") == "play money":
        return "XPM"
    currency = fields.get("currency")
    return currency if isinstance(currency, str) and fields.get("_chips") is None else ""


def _game_number(fields: dict[str, Any]) -> str:
    hand = fields.get("hand")
    if isinstance(hand, int | str) and not isinstance(hand, bool):
        return str(hand)
    return str(fields.get("_hand_id") or "")


def _start(fields: dict[str, Any]) -> str | None:
    """``start_date_utc``: the hand's date and time in UTC where its zone is known, else as written."""
    year, month, day = (fields.get(k) for k in ("year", "month", "day"))
    time = fields.get("time") if isinstance(fields.get("time"), dt.time) else dt.time(0)
    try:
        moment = dt.datetime.combine(dt.date(year, month, day), time)
    except (TypeError, ValueError):
        return None
    with suppress(KeyError, TypeError, ValueError, ZoneInfoNotFoundError):  # else the time as written
        moment = moment.replace(tzinfo=ZoneInfo(fields["time_zone"])).astimezone(dt.UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds")


# -- the extension: what reading the OHH back does not give ----------------------------------------------


def _read_back(text: str) -> dict[str, Any]:
    ((_, _, value, error),) = ohh_json.json_objects(text)
    if error is not None:
        raise Unwritable(f"its OHH does not read back ({error})")
    try:
        return ohh.hand_fields(value)
    except SiteError as failure:
        raise Unwritable(f"its OHH does not read back ({failure})") from None


def _difference(fields: dict[str, Any], back: dict[str, Any]) -> dict[str, Any]:
    """The extension: the fields to set and to unset so that reading back gives ``fields``."""
    chosen = {k: _json_value(v) for k, v in fields.items() if _canonical(v) != _canonical(back.get(k))}
    unset = sorted(k for k in back if k not in fields)
    fixed = sorted(k for k in [*chosen, *unset] if k in ohh.FIXED)
    if fixed:
        raise Unwritable(f"OHH cannot hold its {', '.join(fixed)} exactly")
    extension: dict[str, Any] = {}
    if chosen:
        extension["set"] = chosen
    if unset:
        extension["unset"] = unset
    return extension


def _json_value(value: Any) -> Any:
    """A PHH field's value for JSON: a time as its text, a float as the decimal it was written as."""
    if isinstance(value, dt.time | dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


# -- values -----------------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    """JSON text of a value whose amounts are ``Decimal``: each written as its decimal text (the
    encoder writes each as a marked string, then the marks and quotes go).

    >>> dumps({"amount": Decimal("0.50"), "cards": ["Ah"], "is_allin": False})
    '{"amount": 0.50, "cards": ["Ah"], "is_allin": false}'
    """
    marked = 0

    def amount_text(found: Any) -> str:
        nonlocal marked
        if not isinstance(found, Decimal) or not found.is_finite():
            raise Unwritable(f"a value OHH cannot hold ({type(found).__name__})")
        marked += 1
        return f"{_MARK_OPEN}{format(found, 'f')}{_MARK_CLOSE}"

    text = json.dumps(value, ensure_ascii=False, default=amount_text)
    if text.count(_MARK_OPEN) != marked:
        raise Unwritable("a text holds the character scooplab marks amounts with")
    return _MARKED.sub(r"\1", text)


_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"  # private-use characters
_MARKED = re.compile(f'"{_MARK_OPEN}(-?[0-9.]+){_MARK_CLOSE}"')


def _forced(fields: dict[str, Any], name: str, n: int) -> list[Decimal]:
    values = fields.get(name) or [0] * n
    if not isinstance(values, list) or len(values) != n:
        raise Unwritable(f"its {name} do not list {n} amounts")
    return [_decimal(v, f"{name}[{i}]") for i, v in enumerate(values)]


def _decimal(value: Any, what: str = "an amount") -> Decimal:
    try:
        return decimal_of(Token(value) if isinstance(value, str) else value, what)
    except AmountError as error:
        raise Unwritable(str(error)) from None


def _text_decimal(value: Any) -> Decimal | None:
    """A ``_`` field's amount text (``"5.86"``) as a decimal; None when absent or not one."""
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None
    try:
        found = Decimal(str(value))
    except InvalidOperation:
        return None
    return found if found.is_finite() else None


def _amount_text(value: Any) -> Decimal | None:
    """A bounty as written (``$2.50``) as an amount, or None."""
    try:
        return amount(value) if isinstance(value, str) and value else None
    except SiteError:
        return None


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _player(token: str, names: list[str]) -> int:
    if token[:1] != "p" or not token[1:].isdigit() or not 1 <= int(token[1:]) <= len(names):
        raise Unwritable(f"{token!r} is no player of the hand")
    return int(token[1:]) - 1
