"""Open Hand History (OHH, PokerTracker's JSON interchange format, spec 1.4.x at
hh-specs.handhistory.org): one ``{"ohh": {...}}`` object a hand, objects separated by a blank line.

Each object becomes a ``SiteHand`` (``to_phh`` writes its PHH fields), so an OHH hand is stored as
a site's text hand is. OHH amounts are what each action adds (a raise to 20 after a bet of 2 is
``"amount": 18``); its pots hold the rake and jackpot, with no line for an uncalled bet (the reader
works it out to check the file's own arithmetic). ``Post Dead`` is a dead blind (an ante of its
poster), ``Post Extra Blind`` and a second ``Post BB`` a live blind posted out of turn. The
``start_date_utc`` is UTC. ``Omaha`` and ``OmahaHiLo`` hands hold as many hole cards as the most
any player is dealt or shows (4 at least). scooplab's own OHH (``scooplab export --format ohh``)
adds a ``_phh`` object: the PHH fields OHH has no place for (the local time and zone, the level,
notes), restored on reading; it never holds the game, the stakes, the stacks or the actions.

Reading is bounded (``ohh_json``): an object larger than ``MAX_OBJECT_CHARS`` is refused unparsed, one
nested deeper than ``MAX_DEPTH`` refused; a bad object is one refusal and the next one is read.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ingest.histories.sites.ohh_json import json_objects
from ingest.histories.sites.site_hand import ZERO, Forced, Move, Seat, SiteHand, later_run
from ingest.histories.sites.text import MOST_DIGITS, SiteError, cards, number_text, refusal
from ingest.histories.sites.to_phh import phh_fields

NAME = "Open Hand History"
EXTENSION = "_phh"  # scooplab's object of the PHH fields OHH has no place for
# what the extension never sets: the game and its play come from the OHH fields themselves (but
# ``ante_trimming_status`` where it changes nothing: false, or antes all equal)
FIXED = frozenset({"variant", "antes", "blinds_or_straddles", "bring_in",
                   "small_bet", "big_bet", "min_bet", "starting_stacks", "actions", "_starting_bet",
                   "_options"})  # fmt: skip
# (OHH game_type, hole cards): the PHH code without its structure letter; Omaha's hole cards are counted
GAMES = {("Holdem", 2): "T", ("Omaha", 4): "O", ("Omaha", 5): "O5", ("Omaha", 6): "O6",
         ("OmahaHiLo", 4): "O/8", ("OmahaHiLo", 5): "O5/8"}  # fmt: skip
KINDS = {"Holdem": 2, "Omaha": 4, "OmahaHiLo": 4}  # OHH game_type: its fewest hole cards
LIMITS = {"NL": "N", "PL": "P", "FL": "F"}
STREETS = {"Preflop": 0, "Flop": 1, "Turn": 2, "River": 3, "Showdown": 4}
POSTS = {"Post Ante": "ante", "Post SB": "small", "Post BB": "big", "Straddle": "straddle",
         "Post Dead": "dead", "Post Extra Blind": "live"}  # fmt: skip
IGNORED = frozenset({"Sits Down", "Stands Up", "Added Chips", "Player Adjustment"})  # nothing in the pot
PLAY_MONEY = frozenset({"XPM", "Play Money", "PM"})
_CURRENCY = re.compile(r"^[A-Z]{3}$")


def ohh_hands(text: str) -> Iterator[tuple[int, str, str, dict[str, Any] | None, str | None]]:
    """Every hand of an OHH file's text, as ``sites.site_hands`` gives them: (its place, how to name
    it, its text, its PHH fields or None, the reason it is refused or None)."""
    for index, (line, chunk, value, error) in enumerate(json_objects(text)):
        game = value.get("ohh") if isinstance(value, dict) else None
        ident = game.get("game_number") if isinstance(game, dict) else None
        label = (
            f"#{ident} (line {line})" if isinstance(ident, str | int) and ident != "" else f"at line {line}"
        )
        if error is None:
            try:
                yield index, label, chunk, hand_fields(value), None
                continue
            except (ValueError, ArithmeticError) as failure:  # (a SiteError says why)
                error = refusal(failure)
        yield index, label, chunk, None, error


def hand_fields(value: Any) -> dict[str, Any]:
    """The PHH fields of one parsed ``{"ohh": {...}}`` object (the extension's fields restored)."""
    game = _get(value, "ohh", dict, "the object") if isinstance(value, dict) else None
    if game is None:
        raise SiteError('no "ohh" object')
    hand, play = _read(game)
    fields = phh_fields(hand)
    fields["actions"] = _shows_in_place(fields["actions"], fields["players"], play.early)
    extension = _get(game, EXTENSION, dict, "the hand")
    return fields if extension is None else restored(fields, extension)


def read_hand(game: dict[str, Any]) -> SiteHand:
    """One ``ohh`` object as a ``SiteHand``; ``SiteError`` names what is wrong."""
    return _read(game)[0]


@dataclass
class _Play:
    """What reading the rounds keeps: the players' names by OHH id, what each has bet on this street,
    and the street of each show made before the last board (an all-in player's)."""

    names: dict[int, str]
    bets: dict[str, Decimal] = field(default_factory=dict)
    early: dict[str, int] = field(default_factory=dict)


def _read(game: dict[str, Any]) -> tuple[SiteHand, _Play]:
    hand = _header(game)
    play = _Play(_players(game, hand))
    hand.boards = _rounds(game, hand, play)
    _pots(game, hand, play.names)
    _seated_out_but_playing(hand)
    hand.returned = uncalled(hand)
    return hand, play


# -- the header: game, stakes, money or chips, table, time ---------------------------------------


def _game(game: dict[str, Any]) -> tuple[str, int, str]:
    """The hand's PHH code, its hole cards (Omaha's: the most any player is dealt or shows, 4 at
    least) and its OHH bet type."""
    kind = _get(game, "game_type", str, "the hand", required=True)
    limit = _get(_get(game, "bet_limit", dict, "the hand") or {}, "bet_type", str, "bet_limit") or "NL"
    if kind not in KINDS:
        raise SiteError(f'OHH game "{_plain(kind)}" has no scooplab reading (hold\'em and Omaha only)')
    if limit not in LIMITS:
        raise SiteError(f'OHH bet type "{_plain(limit)}" is not NL, PL or FL')
    hole = KINDS[kind] if kind == "Holdem" else max(KINDS[kind], _most_cards(game))
    if (kind, hole) not in GAMES:
        raise SiteError(f"OHH {kind} with {hole} hole cards has no scooplab description")
    return LIMITS[limit] + GAMES[kind, hole], hole, limit


def _most_cards(game: dict[str, Any]) -> int:
    """The most cards any one action deals or shows a player (no check: reading the rounds checks)."""
    rounds = game.get("rounds")
    most = 0
    for game_round in rounds if isinstance(rounds, list) else ():
        actions = game_round.get("actions") if isinstance(game_round, dict) else None
        for action in actions if isinstance(actions, list) else ():
            shown = action.get("cards") if isinstance(action, dict) else None
            if isinstance(shown, list) and action.get("action") != "Post Ante":
                most = max(most, len(shown))
    return most


def _header(game: dict[str, Any]) -> SiteHand:
    code, hole, limit = _game(game)
    ident = _get(game, "game_number", str | int, "the hand")
    venue = _get(game, "site_name", str, "the hand") or _get(game, "network_name", str, "the hand") or ""
    hand = SiteHand(venue, "" if ident is None else str(ident), code, hole)
    hand.table = _get(game, "table_name", str, "the hand") or ""
    hand.seat_count = _get(game, "table_size", int, "the hand") or None
    hand.button = _get(game, "dealer_seat", int, "the hand")
    small = _amount(game, "small_blind_amount", "the hand")
    big = _amount(game, "big_blind_amount", "the hand")
    hand.small_blind, hand.big_blind = small, big
    if limit == "FL":
        hand.small_bet, hand.big_bet = big, 2 * big
    _money(game, hand)
    hand.when = _when(_get(game, "start_date_utc", str, "the hand"), hand)
    return hand


def _money(game: dict[str, Any], hand: SiteHand) -> None:
    """Money (its currency), play money or tournament chips (with the tournament's id and buy-in)."""
    info = _get(game, "tournament_info", dict, "the hand")
    currency = _get(game, "currency", str, "the hand") or ""
    if _get(game, "tournament", bool, "the hand") or info is not None:
        hand.chips = "tournament"
        _tournament(info or {}, hand)
    elif currency in PLAY_MONEY:
        hand.chips = "play money"
    elif _CURRENCY.match(currency):
        hand.currency = currency


def _tournament(info: dict[str, Any], hand: SiteHand) -> None:
    where = "tournament_info"
    ident = _get(info, "tournament_number", str | int, where)
    if ident is not None and ident != "":
        hand.extra["tournament"] = str(ident)
    for key, name in (("buyin_amount", "buy_in"), ("bounty_fee_amount", "bounty"), ("fee_amount", "fee")):
        if info.get(key) is not None:
            value = _amount(info, key, where)
            if value or name != "bounty":
                hand.extra[name] = format(value, "f")
    currency = _get(info, "currency", str, where)
    if currency and _CURRENCY.match(currency) and currency not in PLAY_MONEY:
        hand.extra["buy_in_currency"] = currency


def _when(text: str | None, hand: SiteHand) -> dict[str, object]:
    """PHH's date and time fields of ``start_date_utc`` (UTC); a text that is no date is a note."""
    if not text:
        return {}
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        hand.notes.append("the start date is not a date")
        return {}
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return {"year": moment.year, "month": moment.month, "day": moment.day, "time": moment.time(),
            "time_zone": "UTC", "time_zone_abbreviation": "UTC"}  # fmt: skip


# -- players, rounds, pots ------------------------------------------------------------------------------


def _players(game: dict[str, Any], hand: SiteHand) -> dict[int, str]:
    """The seats, and each player's name by OHH id."""
    players = _get(game, "players", list, "the hand", required=True)
    names: dict[int, str] = {}
    for k, player in enumerate(players):
        where = f"players[{k}]"
        if not isinstance(player, dict):
            raise SiteError(f"{where} is {_kind(player)}, not an object")
        ident = _get(player, "id", int, where, required=True)
        name = _get(player, "name", str, where, required=True)
        seat = _get(player, "seat", int, where, required=True)
        if ident in names or name in names.values() or any(s.number == seat for s in hand.seats):
            raise SiteError(f"{where} repeats an id, a name or a seat of another player")
        bounty = _amount(player, "player_bounty", where)
        out = bool(_get(player, "is_sitting_out", bool, where))
        hand.seats.append(Seat(seat, name, _amount(player, "starting_stack", where, required=True),
                               number_text(bounty) if bounty else None, out))  # fmt: skip
        names[ident] = name
    return names


def _rounds(game: dict[str, Any], hand: SiteHand, play: _Play) -> list[str]:
    """Read the rounds' posts, moves, deals and shows into ``hand``; the board cards of each street."""
    rounds = [_round(r, k) for k, r in enumerate(_get(game, "rounds", list, "the hand", required=True))]
    rounds.sort(key=lambda r: r[0])
    boards: list[str] = [""]
    last, run = 0, 1
    for _, street, board, actions in rounds:
        if 0 < street < 4 and board and (street <= last or run > 1):  # the board run again, run by run
            if len(boards) < 4:
                raise SiteError("the board's runs are written street by street, not run by run")
            run += 1 if street <= last else 0
            later_run(hand, run, street, board)
            last = street
            for action in actions:  # (shows at a later run's showdown; nobody can bet)
                if action.get("action") not in ("Shows Cards", "Mucks Cards"):
                    raise SiteError("a round of play follows the board run again")
                _action(hand, 4, action, play)
            continue
        if run > 1 and street < 4:
            raise SiteError("a round of play follows the board run again")
        if street < last:
            raise SiteError("the rounds are out of order")
        if street != last:
            play.bets.clear()
        last = street
        if board and 0 < street < 4:  # (cards on the Preflop round deal no board)
            boards += [""] * (street + 1 - len(boards))
            boards[street] = board
        for action in actions:
            _action(hand, street, action, play)
    return boards


def _round(value: Any, k: int) -> tuple[int, int, str, list[dict[str, Any]]]:
    """A round as (its id, its street's number, its board cards, its actions in order)."""
    where = f"rounds[{k}]"
    if not isinstance(value, dict):
        raise SiteError(f"{where} is {_kind(value)}, not an object")
    street = _get(value, "street", str, where, required=True)
    if street not in STREETS:
        raise SiteError(f'{where} street "{_plain(street)}" is not Preflop, Flop, Turn, River or Showdown')
    board = value.get("cards")
    board_text = "" if board in (None, "") else _cards(board, f"{where}.cards")
    actions = _get(value, "actions", list, where) or []
    for n, action in enumerate(actions):
        if not isinstance(action, dict):
            raise SiteError(f"{where}.actions[{n}] is {_kind(action)}, not an object")
    numbers = [a.get("action_number") for a in actions]
    if all(type(n) is int for n in numbers):
        actions = [a for _, a in sorted(zip(numbers, actions, strict=True), key=lambda pair: pair[0])]
    ident = _get(value, "id", int, where)
    return (k if ident is None else ident), STREETS[street], board_text, actions


def _action(hand: SiteHand, street: int, action: dict[str, Any], play: _Play) -> None:
    """One action into ``hand`` (``play.bets``: what each player has bet on this street)."""
    names, bets = play.names, play.bets
    where = f"action {action.get('action_number', '?')} of {_street_name(street)}"
    verb = _get(action, "action", str, where, required=True)
    if verb in IGNORED:
        return
    if verb == "Add to Pot":
        raise SiteError("the site adds money to the pot; scooplab does not replay it")
    ident = _get(action, "player_id", int, where, required=True)
    if ident not in names:
        raise SiteError(f"{where} names player {ident}, who is not at the table")
    name, amount = names[ident], _amount(action, "amount", where)
    if verb in POSTS:
        _post(hand, street, name, POSTS[verb], amount, bets)
    elif verb in ("Dealt Cards", "Shows Cards", "Mucks Cards"):
        _cards_action(hand, name, verb, action.get("cards"), where)
        if verb != "Dealt Cards" and street < 4:
            play.early.setdefault(name, street)
    elif street == 4 or verb not in ("Fold", "Check", "Call", "Bet", "Raise"):
        raise SiteError(f'{where} "{_plain(verb)}" is an action scooplab does not know here')
    elif verb in ("Bet", "Raise"):
        bets[name] = bets.get(name, ZERO) + amount  # OHH: what the action adds; PHH: the street's bet
        hand.moves.append(Move(street, name, "cbr", bets[name]))
    elif verb == "Call":
        bets[name] = bets.get(name, ZERO) + amount
        hand.moves.append(Move(street, name, "cc", amount))
    else:
        hand.moves.append(Move(street, name, "f" if verb == "Fold" else "cc"))


def _post(
    hand: SiteHand, street: int, name: str, kind: str, amount: Decimal, bets: dict[str, Decimal]
) -> None:
    if street != 0:
        raise SiteError(f"{name} posts on the {_street_name(street)}")
    if kind in ("small", "big") and any(p.kind == kind for p in hand.forced):
        kind = "dead" if kind == "small" else "live"  # a second blind: a player posting to come in
    hand.forced.append(Forced(name, kind, amount))
    if kind not in ("ante", "dead"):
        bets[name] = bets.get(name, ZERO) + amount


def _cards_action(hand: SiteHand, name: str, verb: str, shown: Any, where: str) -> None:
    """A deal, a show or a muck: the cards it makes known, and at a showdown who showed or mucked."""
    text = "" if shown in (None, "", []) else _cards(shown, f"{where}.cards")
    if len(text) > 2 * hand.hole_cards:
        raise SiteError(
            f"{name} holds {len(text) // 2} cards; an OHH {hand.variant} hand has {hand.hole_cards}"
        )
    if text:
        known = hand.known.get(name)
        if (
            len(text) < 2 * hand.hole_cards
            and known
            and all(text[i : i + 2] in known for i in range(0, len(text), 2))
        ):
            text = known  # one card shown of those already known
        hand.known[name] = text + "??" * (hand.hole_cards - len(text) // 2)
    if verb != "Dealt Cards" and all(n != name for n, _ in hand.shows):
        hand.shows.append((name, hand.known.get(name, "") if verb == "Shows Cards" else ""))


def _pots(game: dict[str, Any], hand: SiteHand, names: dict[int, str]) -> None:
    """What each player collected and cashed out, and the file's total pot, rake and jackpot."""
    pots = _get(game, "pots", list, "the hand", required=True)
    total = rake = fees = ZERO
    for k, pot in enumerate(pots):
        where = f"pots[{k}]"
        if not isinstance(pot, dict):
            raise SiteError(f"{where} is {_kind(pot)}, not an object")
        total += _amount(pot, "amount", where, required=True)
        rake += _amount(pot, "rake", where)
        fees += _amount(pot, "jackpot", where)
        for n, win in enumerate(_get(pot, "player_wins", list, where) or []):
            _player_win(hand, win, names, f"{where}.player_wins[{n}]")
    if pots:
        hand.total_pot, hand.rake, hand.fees = total, rake, fees


def _player_win(hand: SiteHand, win: Any, names: dict[int, str], where: str) -> None:
    if not isinstance(win, dict):
        raise SiteError(f"{where} is {_kind(win)}, not an object")
    ident = _get(win, "player_id", int, where, required=True)
    if ident not in names:
        raise SiteError(f"{where} names player {ident}, who is not at the table")
    name = names[ident]
    hand.collected[name] = hand.collected.get(name, ZERO) + _amount(win, "win_amount", where, required=True)
    cash, fee = _amount(win, "cashout_amount", where), _amount(win, "cashout_fee", where)
    if cash or fee:
        before = hand.cash_outs.get(name, (ZERO, ZERO))
        hand.cash_outs[name] = (before[0] + cash, before[1] + fee)


def _shows_in_place(actions: list[str], players: list[str], early: dict[str, int]) -> list[str]:
    """The PHH actions with each show made before the last board put back where it was made: after
    its street's moves, before the next board (``to_phh`` writes every show at the end).

    >>> _shows_in_place(["p1 cc", "d db AhKd7c", "d db 2s", "p2 sm 9h9c"], ["A", "B"], {"B": 0})
    ['p1 cc', 'p2 sm 9h9c', 'd db AhKd7c', 'd db 2s']
    """
    seat = {name: f"p{k + 1}" for k, name in enumerate(players)}
    moved = {seat[name]: street for name, street in early.items() if name in seat}
    if not moved:
        return actions
    kept, shows = [], {}
    for action in actions:
        who, verb = [*action.split(), "", ""][:2]
        if verb == "sm" and who in moved and who not in shows:
            shows[who] = action
        else:
            kept.append(action)
    placed, boards = [], 0
    for action in kept:
        if action.startswith("d db "):
            placed += [show for who, show in shows.items() if moved[who] == boards]
            boards += 1
        placed.append(action)
    return placed + [show for who, show in shows.items() if moved[who] >= boards]


def _seated_out_but_playing(hand: SiteHand) -> None:
    """A player marked sitting out who posts, acts or is dealt cards was dealt in."""
    playing = {p.name for p in hand.forced} | {m.name for m in hand.moves} | set(hand.known)
    for seat in hand.seats:
        seat.out = seat.out and seat.name not in playing


def uncalled(hand: SiteHand) -> dict[str, Decimal]:
    """The bet returned uncalled (OHH writes no line for it): what the player who bet most put in
    beyond the next most, counting bets and live blinds (antes and dead blinds are no bet).

    >>> blinds = [Forced("a", "small", Decimal(1)), Forced("b", "big", Decimal(2))]
    >>> moves = [Move(0, "a", "cbr", Decimal(6)), Move(0, "b", "f")]
    >>> hand = SiteHand("x", "1", "NT", 2, forced=blinds, moves=moves)
    >>> uncalled(hand)
    {'a': Decimal('4')}
    """
    put: dict[str, Decimal] = {}
    street_bets: dict[tuple[int, str], Decimal] = {}
    for post in hand.forced:
        if post.kind not in ("ante", "dead"):
            street_bets[0, post.name] = street_bets.get((0, post.name), ZERO) + post.amount
    for move in hand.moves:
        key = (move.street, move.name)
        if move.verb == "cbr":
            street_bets[key] = move.amount
        elif move.verb == "cc":
            street_bets[key] = street_bets.get(key, ZERO) + move.amount
    for (_, name), amount in street_bets.items():
        put[name] = put.get(name, ZERO) + amount
    ranked = sorted(put.items(), key=lambda item: item[1], reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return {}
    excess = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else ZERO)
    return {ranked[0][0]: excess} if excess > 0 else {}


# -- scooplab's extension ----------------------------------------------------------------------------


def restored(fields: dict[str, Any], extension: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with the extension's ``set`` fields and without its ``unset`` ones (never a field
    of ``FIXED``: the game and its play are the OHH fields' alone)."""
    fields = dict(fields)
    unset = extension.get("unset")
    for key in unset if isinstance(unset, list) else ():
        if isinstance(key, str) and key not in FIXED:
            fields.pop(key, None)
    chosen = extension.get("set")
    for key, value in chosen.items() if isinstance(chosen, dict) else ():
        trimmed = key == "ante_trimming_status" and value is not False and len(set(fields["antes"])) > 1
        if key in FIXED or key == EXTENSION or trimmed:
            continue  # the play is the OHH fields' (unequal antes trimmed would be another play)
        if key == "time" and isinstance(value, str):
            try:
                value = dt.time.fromisoformat(value)
            except ValueError:
                raise SiteError(f"the {EXTENSION} time is not a time") from None
        fields[key] = _phh_value(value)
    return fields


def _phh_value(value: Any) -> Any:
    """A JSON value as TOML would give it: a number with a point a float (whose text it is), else an int.

    >>> _phh_value([Decimal("9775.0"), Decimal("0.05"), 7])
    [9775.0, 0.05, 7]
    """
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        exponent = value.as_tuple().exponent
        return float(value) if isinstance(exponent, int) and exponent < 0 else int(value)
    if isinstance(value, list):
        return [_phh_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _phh_value(v) for k, v in value.items()}
    return value


# -- values, checked ---------------------------------------------------------------------------------


def _get(obj: dict[str, Any], key: str, kind: Any, where: str, required: bool = False) -> Any:
    """``obj[key]`` when it is of ``kind`` (None when absent or null, unless ``required``)."""
    value = obj.get(key)
    if value is None:
        if required:
            raise SiteError(f"{where} has no {key}")
        return None
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        wanted = {
            str: "text",
            int: "a whole number",
            bool: "true or false",
            list: "a list",
            dict: "an object",
        }
        raise SiteError(f"{where} {key} is {_kind(value)}, not {wanted.get(kind, 'text or a number')}")
    return value


def _amount(obj: dict[str, Any], key: str, where: str, required: bool = False) -> Decimal:
    """An amount (a JSON number, not negative); zero when absent or null, unless ``required``."""
    value = obj.get(key)
    if value is None:
        if required:
            raise SiteError(f"{where} has no {key}")
        return ZERO
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise SiteError(f"{where} {key} is {_kind(value)}, not a number")
    amount = Decimal(value)
    if amount < 0:
        raise SiteError(f"{where} {key} is negative")
    exponent = amount.as_tuple().exponent
    if amount.adjusted() >= MOST_DIGITS or not isinstance(exponent, int) or abs(exponent) > MOST_DIGITS:
        raise SiteError(f"{where} {key} is not an amount scooplab reads")  # 1e999999999, 0e-999999999
    return amount


def _cards(value: Any, where: str) -> str:
    """Cards as PHH writes them (``AhKd``) from an OHH list of card strings (``XX``: one nobody saw)."""
    if not isinstance(value, list) or not all(isinstance(c, str) and c.strip() for c in value):
        raise SiteError(f"{where} is {_kind(value)}, not a list of cards")
    try:
        return cards("[" + " ".join(value) + "]")
    except SiteError:
        raise SiteError(f"{where} holds something that is not a card") from None


def _kind(value: Any) -> str:
    """What a JSON value is, in words (never its text: a reason holds no colon)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    names = {str: "text", int: "a number", Decimal: "a number", list: "a list", dict: "an object"}
    return names.get(type(value), "a value")


def _plain(text: str) -> str:
    return text[:40].replace(":", " ").replace("\n", " ")


def _street_name(street: int) -> str:
    return next(name for name, k in STREETS.items() if k == street)
