"""Replay a PHH hand through the state machine and check it.

``replay(fields)`` builds the ``HandState`` from the hand's fields, applies every
action, finishes the hand and compares the stacks with ``finishing_stacks``
when the file records them. Anything wrong raises ``HandError`` with a one-line
reason that names the action (``action 12 'p3 cbr 150': below the minimum raise to 200``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from engine.hands.cards import CardError, card_list
from engine.rules.games import game_for_variant
from engine.rules.games.base import GameSpec, Structure
from engine.rules.record import CHECKED, DECIDED_BY_RECORD, UNCHECKED, returned_note
from engine.rules.state import HandResult, HandState, IllegalAction
from ingest.histories.money import AmountError, is_money, money_in_units, money_text

# Standard PHH fields (phh-std 0.0.2) that scooplab keeps without using.
STANDARD_FIELDS = frozenset(
    {
        "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
        "small_bet", "big_bet", "min_bet", "starting_stacks", "actions", "author", "event",
        "url", "address", "city", "region", "postal_code", "country", "time", "time_zone",
        "time_zone_abbreviation", "day", "month", "year", "hand", "level", "seats",
        "seat_count", "table", "players", "venue", "finishing_stacks", "winnings", "currency",
        "currency_symbol", "time_limit", "time_banks",
    }
)  # fmt: skip
_SEAT = re.compile(r"^p([1-9][0-9]*)$")
MAX_CHIPS = 2**53  # whole numbers a float holds exactly, far within int64
UNSEEN_UNCHECKED = (
    "hidden cards at the showdown and no winnings or finishing_stacks: who won is unknown, "
    "the result is unchecked"
)


class HandError(ValueError):
    """A hand that cannot be replayed, with the reason."""


@dataclass
class Replay:
    """A replayed hand: its fields (as the file wrote them), game, final state (amounts in units of
    10^-``decimals``) and result."""

    fields: dict[str, Any]
    game: GameSpec
    structure: Structure
    state: HandState
    result: HandResult
    notes: list[str] = field(default_factory=list)
    fractional_stacks: bool = False  # the file records an odd chip split in halves
    decimals: int = 0  # amounts are whole units of 10^-decimals of the currency (0: chips)
    record: str = UNCHECKED  # CHECKED, DECIDED_BY_RECORD or UNCHECKED (engine.rules.record)
    rake: int = 0  # the pot less what the record has collected, in units
    unseen_showdown: bool = False  # hidden cards left the showdown to the record, or to nobody


def chips(value: Any, what: str) -> int:
    """An amount of chips: an integer, or a float with no fraction."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise HandError(f"{what} must be a number, not {value!r}")
    if isinstance(value, float):
        if math.isinf(value) or math.isnan(value):
            raise HandError(f"{what} is {value}: an unknown amount cannot be replayed")
        if value != int(value):
            raise HandError(f"{what} is {value}: chips are whole numbers")
    if not -MAX_CHIPS <= value <= MAX_CHIPS:
        raise HandError(f"{what} is {value}: more chips than scooplab counts (at most {MAX_CHIPS:,})")
    return int(value)


def chip_list(fields: dict[str, Any], name: str, n: int | None, default: int | None = None) -> list[int]:
    value = fields.get(name)
    if value is None:
        if default is None:
            raise HandError(f"the field {name} is missing")
        if n is None:
            raise HandError(f"the field {name} is missing")
        return [default] * n
    if not isinstance(value, list):
        raise HandError(f"{name} must be an array, not {type(value).__name__}")
    if n is not None and len(value) != n:
        raise HandError(f"{name} lists {len(value)} amounts for {n} players")
    return [chips(v, f"{name}[{i}]") for i, v in enumerate(value)]


def optional_chips(fields: dict[str, Any], name: str) -> int | None:
    return None if fields.get(name) is None else chips(fields[name], name)


def run_count(fields: dict[str, Any]) -> int:
    """How many times the board is run once nobody can bet (``_runs``, docs/phh-extensions.md): 1
    when the field is absent."""
    runs = fields.get("_runs", 1)
    if isinstance(runs, bool) or not isinstance(runs, int):
        raise HandError(f"_runs must be a whole number of runs, not {runs!r}")
    return runs


def build_state(fields: dict[str, Any]) -> tuple[HandState, GameSpec, Structure]:
    """The initial state of a hand from its PHH fields."""
    variant = fields.get("variant")
    if not isinstance(variant, str):
        raise HandError("the field variant is missing" if variant is None else "variant must be a string")
    try:
        game, structure = game_for_variant(variant)
    except ValueError as error:
        raise HandError(str(error)) from None
    stacks = chip_list(fields, "starting_stacks", None)
    n = len(stacks)
    options = fields.get("_options", {})
    if not isinstance(options, dict):
        raise HandError("_options must be a table")
    try:
        state = HandState(
            game,
            structure,
            stacks,
            antes=chip_list(fields, "antes", n, default=0),
            blinds=chip_list(fields, "blinds_or_straddles", n, default=0),
            min_bet=optional_chips(fields, "min_bet"),
            small_bet=optional_chips(fields, "small_bet"),
            big_bet=optional_chips(fields, "big_bet"),
            starting_bet=optional_chips(fields, "_starting_bet"),
            bring_in=optional_chips(fields, "bring_in"),
            options=options,
            record_deals=True,  # the record decides the cards a draw deals (docs/phh-extensions.md, "Draws")
            runs=run_count(fields),
        )
    except (IllegalAction, ValueError) as error:
        raise HandError(str(error)) from None
    return state, game, structure


def _seat(token: str, state: HandState) -> int:
    match = _SEAT.match(token)
    if not match:
        raise IllegalAction(f"{token!r} is not a player (p1, p2, ...)")
    seat = int(match.group(1)) - 1
    if seat >= state.n:
        raise IllegalAction(f"there is no {token} in a hand of {state.n} players")
    return seat


def apply_action(state: HandState, text: str) -> None:
    """Apply one PHH action notation to the state."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return
    parts = body.split()
    deck = state.game.deck
    if parts[0] == "d":
        if len(parts) == 4 and parts[1] == "dh":
            state.deal_hole(_seat(parts[2], state), card_list(parts[3], deck))
            return
        if len(parts) == 3 and parts[1] == "db":
            boards = [card_list(cards, deck) for cards in parts[2].split("/")]
            state.deal_board(boards)
            return
        raise IllegalAction("not a dealer action (d dh pN cards, d db cards)")
    seat = _seat(parts[0], state)
    verb, args = (parts[1] if len(parts) > 1 else ""), parts[2:]
    if verb == "f" and not args:
        state.fold(seat)
    elif verb == "cc" and not args:
        state.check_or_call(seat)
    elif verb == "cbr" and len(args) == 1:
        if not args[0].isascii() or "_" in args[0]:  # int() would read "٣٠٠" or "7_000": PHH would not
            raise IllegalAction(f"{args[0]!r} is not an amount")
        try:
            amount = float(args[0]) if "." in args[0] or "e" in args[0].lower() else int(args[0])
        except ValueError:
            raise IllegalAction(f"{args[0]!r} is not an amount") from None
        try:
            state.bet_or_raise(seat, chips(amount, "the amount"))
        except HandError as error:
            raise IllegalAction(str(error)) from None
    elif verb == "sd" and len(args) <= 1:  # (no cards: a draw standing pat)
        state.discard(seat, card_list(args[0], deck) if args else [])
    elif verb == "sm" and len(args) <= 1:
        state.show_or_muck(seat, card_list(args[0], deck) if args else None)
    elif verb == "pb" and not args:
        state.post_bring_in(seat)
    else:
        raise IllegalAction("not a player action (f, cc, cbr amount, pb, sd cards, sm cards)")


def replay(fields: dict[str, Any]) -> Replay:
    """Replay one hand; raises ``HandError`` naming the first thing that is wrong. A hand played
    for money is replayed in whole units of its amounts (``ingest.histories.money``) and settled
    by its record (``winnings`` or ``finishing_stacks``), checked against the rules' pots."""
    money, given, decimals = is_money(fields), fields, 0
    try:
        if money:
            fields, decimals = money_in_units(fields)
    except AmountError as error:
        raise HandError(str(error)) from None
    state, game, structure = build_state(fields)
    actions = fields.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HandError("actions must be an array of strings")
    if (problem := hand_number_problem(fields)) is not None:
        raise HandError(problem)
    notes = unknown_field_notes(fields)
    for number, text in enumerate(actions, start=1):
        try:
            apply_action(state, text)
        except (IllegalAction, CardError) as error:
            raise HandError(f"action {number} {text.strip()!r}: {error}") from None
    if money:
        replayed = _settle_by_record(fields, game, structure, state, notes, decimals)
        replayed.fields, replayed.decimals = given, decimals  # the file's fields, amounts as written
    else:
        try:
            result = state.finish()
        except IllegalAction as error:
            raise HandError(str(error)) from None
        replayed = Replay(fields, game, structure, state, result, notes)
        _check_finishing_stacks(replayed)
    if game.discard_board is not None:
        for seat in range(state.n):
            if state.voided[seat]:
                replayed.notes.append(f"p{seat + 1} kept a card the Bottom Board forced out: voided")
    return replayed


def _settle_by_record(fields: dict[str, Any], game: GameSpec, structure: Structure, state: HandState,
                      notes: list[str], decimals: int) -> Replay:  # fmt: skip
    """A money hand's end: by its record when it has one (``winnings`` first), else by the rules
    alone, unchecked."""
    winnings, finishing = fields.get("winnings"), fields.get("finishing_stacks")

    def show(units: int) -> str:
        return money_text(units, decimals)

    try:
        if winnings is None and finishing is None:
            if state.hidden_at_showdown():  # nobody can say who won: stored for its play alone
                replayed = Replay(fields, game, structure, state, state.finish_unchecked(), notes,
                                  record=UNCHECKED, unseen_showdown=True)  # fmt: skip
                replayed.notes.append(UNSEEN_UNCHECKED)
                return replayed
            replayed = Replay(fields, game, structure, state, state.finish(), notes, record=UNCHECKED)
            replayed.notes.append("no winnings or finishing_stacks: the result is unchecked")
            return replayed
        for name, values in (("winnings", winnings), ("finishing_stacks", finishing)):
            if values is not None and (not isinstance(values, list) or len(values) != state.n):
                raise HandError(f"{name} must list {state.n} amounts")
        if winnings is not None:
            result, decided = state.finish_by_record(collected=winnings, show=show)
        else:
            result, decided = state.finish_by_record(finishing=finishing, show=show)
    except IllegalAction as error:
        raise HandError(str(error)) from None
    if winnings is not None and finishing is not None and state.stacks != finishing:
        stacks = ", ".join(map(show, state.stacks))
        raise HandError(f"winnings and finishing_stacks disagree: by the winnings the stacks are [{stacks}]")
    record = DECIDED_BY_RECORD if decided else CHECKED
    replayed = Replay(fields, game, structure, state, result, notes, record=record, rake=state.rake,
                      unseen_showdown=decided)  # fmt: skip
    if decided:
        replayed.notes.append("hidden cards at the showdown: the record decides who won")
    if any(state.counted_returns):
        replayed.notes.append(returned_note(state.counted_returns, show))
    return replayed


def hand_number_problem(fields: dict[str, Any]) -> str | None:
    """Why the ``hand`` field cannot be a hand number, or None."""
    hand = fields.get("hand")
    if isinstance(hand, int) and not 0 <= hand < 2**62:
        return f"hand is {hand}: a hand number must be between 0 and 2**62"
    return None


def hand_number(fields: dict[str, Any], hand_index: int) -> int:
    """The hand's number: its ``hand`` field when that is an integer, else its place in its file."""
    hand = fields.get("hand")
    return hand if type(hand) is int else hand_index + 1  # a boolean is not a number here


def unknown_field_notes(fields: dict[str, Any]) -> list[str]:
    """A note for each field that is neither standard PHH nor ``_``-prefixed (kept all the same), after
    the notes a reader left in ``_notes`` (a site file that disagrees with itself says so there)."""
    given = fields.get("_notes")
    notes = [n for n in given if isinstance(n, str)] if isinstance(given, list) else []
    return notes + [
        f"unknown field {name!r} kept" for name in fields if name not in STANDARD_FIELDS and name[:1] != "_"
    ]


def _check_finishing_stacks(replayed: Replay) -> None:
    recorded = replayed.fields.get("finishing_stacks")
    if recorded is None:
        return
    ours = replayed.state.stacks
    replayed.record = chips_record(replayed.fields)
    if not isinstance(recorded, list) or len(recorded) != len(ours):
        raise HandError(f"finishing_stacks must list {len(ours)} amounts")
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in recorded):
        raise HandError("finishing_stacks must be numbers")
    if list(recorded) == ours:
        return
    halves = (
        sum(recorded) == sum(ours)
        and any(v != int(v) for v in recorded)
        and all(abs(v - o) < 1 for v, o in zip(recorded, ours, strict=True))
    )
    if halves:
        replayed.fractional_stacks = True
        replayed.notes.append(
            f"the file splits an odd chip into fractions {_show(recorded)}; scooplab gives whole chips {ours}"
        )
        return
    raise HandError(f"finishing stacks differ: file {_show(recorded)}, computed {ours}")


def chips_record(fields: dict[str, Any]) -> str:
    """The record state of a hand of chips: checked when it has ``finishing_stacks`` (they must
    match), else unchecked."""
    return CHECKED if fields.get("finishing_stacks") is not None else UNCHECKED


def _show(values: list[Any]) -> str:
    return "[" + ", ".join(str(int(v)) if v == int(v) else str(v) for v in values) + "]"
