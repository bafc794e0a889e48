"""Fast replay: PHH hands replayed in batches by the compiled kernel, rows built column-wise.

``prepare`` takes a parsed hand the compiled replay can handle (a game without forced
discards, plain whole-number fields, or plain money amounts read as whole units of the hand's
10^-k: ``ingest.histories.money.quick_units``) and returns None for anything else, which the
caller replays through the state machine as before. ``replay_batch`` replays a batch of prepared
hands of one game and options with ``engine.compiled.replay_kernel.replay_hands`` and returns the
rows of the hands it accepted, plus the hands it hands back to the state machine (an
illegal action, hidden cards at a showdown, stacks that differ from ``finishing_stacks``, a
record of winnings the rules' pots do not allow...), whose verdict and message then come from
``ingest.histories.replay`` as always. A money hand's record is checked here as
``HandState.finish_by_record`` checks it where the shown cards decide. A test holds the rows of
both paths equal on every real hand history, on random hands of every game, and on random hands
written as cash-game hands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa

from engine.compiled import betting_kernel as bk
from engine.compiled import replay_kernel as rk
from engine.compiled.hand_state import RECORD_WIDTH, Streets, game_streets
from engine.rules.betting import bets_per_round, forced_bets
from engine.rules.games import GAMES
from engine.rules.games.base import GameSpec, Structure
from engine.rules.games.description import replay_gaps
from engine.rules.record import (
    CHECKED,
    UNCHECKED,
    collected_from_stacks,
    rake_problem,
    returned_note,
    returned_reading,
    winners_problem,
)
from ingest.histories.metadata import hand_metadata, table_seats
from ingest.histories.money import MONEY_FIELDS, STAKE_LISTS, money_text, quick_units
from ingest.histories.phh import RawHand
from ingest.histories.replay import (
    MAX_CHIPS,
    chips_record,
    hand_number,
    hand_number_problem,
    unknown_field_notes,
)
from ingest.histories.rows import REQUIRED_FIELDS, SORTED_JSON
from ingest.storage.array_rows import Hands, Settled, actions_table, players_table, settle, showdown_columns
from ingest.storage.schema import HANDS, METADATA_COLUMNS, SEAT_ARRAYS


@cache
def _variants() -> dict[str, tuple[GameSpec, Structure]]:
    """Variant codes the compiled replay plays: every game without forced discards that the
    compiled core plays (no ``compiled_gaps`` or ``replay_gaps``; a bring-in only in fixed-limit);
    the state machine replays the others."""
    return {
        code: (game, structure)
        for game in GAMES.values()
        if game.discard_board is None and not game.compiled_gaps and not replay_gaps(game)
        for code, structure in game.variant_codes.items()
        if not (game.bring_in and structure is not Structure.FIXED_LIMIT)  # (a bring-in: fixed-limit)
    }


@dataclass
class Prepared:
    """A hand ready for the compiled replay."""

    raw: RawHand
    identity: str
    game: GameSpec
    structure: Structure
    options: dict[str, Any]
    options_text: str
    settings: tuple[int, ...]  # N, STRUCT, MIN_BET, SMALL_BET, BIG_BET, START_BET, CAP, DECIMALS, BRING_IN
    antes: list[int]  # in the state machine's seat order (reversed heads-up)
    blinds: list[int]
    stacks: list[int]
    big_blind: int
    notes: list[str]
    money: dict[str, Any] | None = None  # a money hand's fields in units (its record's too)

    @property
    def key(self) -> tuple[str, str]:
        """Hands of one key are replayed together."""
        return self.game.name, self.options_text


def _whole(value: Any) -> bool:
    return type(value) is int and -MAX_CHIPS <= value <= MAX_CHIPS


def _all_whole(values: list) -> bool:
    """Every value a plain int within the chips scooplab counts (``values`` is not empty)."""
    return set(map(type, values)) == {int} and min(values) >= -MAX_CHIPS and max(values) <= MAX_CHIPS


def _amounts(fields: dict[str, Any], name: str, n: int) -> list[int] | None:
    value = fields.get(name)
    if value is None:
        return [0] * n
    if type(value) is not list or len(value) != n or not _all_whole(value):
        return None
    return value


def _amount(fields: dict[str, Any], name: str) -> int | None:
    value = fields.get(name)
    if value is None:
        return 0
    return value if _whole(value) else None


def _in_units(fields: dict[str, Any]) -> tuple[dict[str, Any], int] | None:
    """A money hand's fields in units and its decimals, or None when the state machine must read
    it (RULINGS, "Real-money hand histories": money names a currency, ``winnings``, or shows decimals)."""
    converted = quick_units(fields)
    if converted is None or not converted[2]:
        return None  # a negative or odd amount; or chips (whole-chip floats, half chips in the record)
    return converted[0], converted[1]


def _is_money(fields: dict[str, Any]) -> bool:
    if MONEY_FIELDS & fields.keys():
        return True
    return any(type(values) is list and float in set(map(type, values))
               for values in (fields.get(name) for name in STAKE_LISTS))  # fmt: skip


def prepare(raw: RawHand, identity: str) -> Prepared | None:
    """The hand as the compiled replay takes it, or None when the state machine must replay it."""
    fields = raw.fields
    assert fields is not None
    variant = fields.get("variant")
    found = _variants().get(variant) if type(variant) is str else None
    if found is None or type(fields.get("actions")) is not list or "_runs" in fields:
        return None  # (a board run twice: the state machine's)
    money, decimals = None, 0
    if _is_money(fields):
        converted = _in_units(fields)
        if converted is None:
            return None
        money, decimals = converted
        fields = money
    stacks, actions = fields.get("starting_stacks"), fields["actions"]
    if type(stacks) is not list:
        return None
    game, structure = found
    n = len(stacks)
    if not game.min_players <= n <= game.max_players or not _all_whole(stacks) or min(stacks) <= 0:
        return None
    if (actions and set(map(type, actions)) != {str}) or hand_number_problem(fields) is not None:
        return None
    antes, blinds = _amounts(fields, "antes", n), _amounts(fields, "blinds_or_straddles", n)
    min_bet, small_bet, big_bet = (
        _amount(fields, "min_bet"),
        _amount(fields, "small_bet"),
        _amount(fields, "big_bet"),
    )
    starting_bet, bring_in = _amount(fields, "_starting_bet"), _amount(fields, "bring_in")
    given = fields.get("_options", {})
    if None in (antes, blinds, min_bet, small_bet, big_bet, starting_bet, bring_in):
        return None
    if type(given) is not dict:
        return None
    if bring_in < 0 or (bring_in and (not game.bring_in or bring_in >= small_bet)):
        return None  # the state machine names what is wrong (HandState._set_bring_in)
    if game.bring_in and any(blinds):
        return None  # (a bring-in game takes no blinds)
    if min(antes) < 0 or min(blinds) < 0 or min(min_bet, small_bet, big_bet, starting_bet) < 0:
        return None  # negative forced bets: the state machine decides what they mean
    try:
        typed = tuple((name, type(value), value) for name, value in given.items())  # 9 and 9.0 differ
        options, options_text = _resolved(game.name, typed) if given else _defaults(game.name)
    except (ValueError, TypeError):
        return None
    if any(s.big_bet_on_open_pair and options.get(s.big_bet_on_open_pair) for s in game.streets):
        return None  # an open pair's big bet: the state machine's
    try:
        bets = forced_bets(game, structure, n, antes, blinds, min_bet, small_bet, big_bet, starting_bet)
    except ValueError:
        return None
    cap = bets_per_round(game, structure, options)
    settings = (n, bk.STRUCTURE_CODES[structure], bets.min_bet, bets.small_bet, bets.big_bet,
                bets.starting_bet, -1 if cap is None else cap, decimals, bring_in)  # fmt: skip
    big_blind = max(max(bets.blinds), bets.min_bet)
    return Prepared(raw, identity, game, structure, options, options_text, settings, bets.antes, bets.blinds,
                    stacks, big_blind, unknown_field_notes(fields), money)  # fmt: skip


@cache
def _defaults(game_name: str) -> tuple[dict[str, Any], str]:
    return _resolved(game_name, ())


@cache
def _resolved(game_name: str, given: tuple) -> tuple[dict[str, Any], str]:
    """A game's options from (name, type, value) triples: the type keeps 9 and 9.0 apart, which
    a cache would take for one key (their texts differ)."""
    options = GAMES[game_name].resolve_options({name: value for name, _, value in given})
    return options, json.dumps(options, sort_keys=True)


@cache
def card_table(game_name: str) -> np.ndarray:
    """Card id by its two characters' codes in a game's deck; -1 for anything else (``??`` included)."""
    table = np.full((128, 128), -1, dtype=np.int16)
    for text, card in GAMES[game_name].deck._index.items():
        if card >= 0:
            table[ord(text[0]), ord(text[1])] = card
    return table


@cache
def _streets(game_name: str, options_text: str) -> Streets:
    """The street plan the replay kernel reads (no discard board: such games go elsewhere)."""
    return game_streets(GAMES[game_name], json.loads(options_text))


def _pad(rows: list[list[int]], width: int) -> np.ndarray:
    if all(len(row) == width for row in rows):
        return np.array(rows, dtype=np.int64).reshape(len(rows), width)
    out = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def replay_arrays(game: GameSpec, options_text: str, given: rk.ReplayInput):
    """Replay hands of one game and options (a ``ReplayInput``); their ``Hands``, action records,
    each hand's first record, status (``rk.OK`` or ``rk.FALLBACK``) and the uncalled bets each seat
    got back (hands, width)."""
    count, width = given.stacks.shape
    n_boards = len(game.board_names)
    capacity = len(given.action_bounds) * n_boards + count * (2 * width + 1) + 1
    records = np.zeros((capacity, RECORD_WIDTH), dtype=np.int64)
    record_cards = np.full((capacity, bk.MAX_CARDS), -1, dtype=np.int8)
    hand_start = np.zeros(count + 1, dtype=np.int64)
    status = np.zeros(count, dtype=np.int64)
    hands = Hands.empty(count, width, n_boards)
    refunded = np.zeros((count, width), np.int64)
    out = rk.ReplayedHands(
        records, record_cards, hand_start, status, hands.ending, hands.stacks, hands.contributed,
        hands.antes_paid, hands.folded, hands.mucked, hands.hole, hands.hole_n, hands.boards, hands.board_n,
        refunded,
    )  # fmt: skip
    used = rk.replay_hands(given, _streets(game.name, options_text), out)
    if used < 0:
        raise AssertionError("replay_hands ran out of room for actions")
    hands.dealt = hands.hole  # no discards: the hole cards are the cards dealt
    hands.seats = given.settings[:, rk.N].copy()
    return hands, records[:used], record_cards[:used], hand_start, status, refunded


def replay_batch(batch: list[Prepared], run_id: str) -> tuple[tuple[pa.Table, pa.Table, pa.Table] | None,
                                                                list[Prepared]]:  # fmt: skip
    """Replay hands of one game and options; (rows of the accepted hands, hands to replay in Python)."""
    game, options = batch[0].game, batch[0].options
    count = len(batch)
    width = max(p.settings[0] for p in batch)
    actions = [p.raw.fields["actions"] for p in batch]
    flat = list(chain.from_iterable(actions))
    text = "\n".join(flat)
    ascii_only = text.isascii()
    lengths = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat))
    ends = np.cumsum(lengths + 1) - 1
    bounds = np.stack([ends - lengths, ends], axis=1) if len(flat) else np.zeros((0, 2), np.int64)
    hand_actions = np.zeros(count + 1, dtype=np.int64)
    np.cumsum([len(a) for a in actions], out=hand_actions[1:])
    settings = np.array([p.settings for p in batch], dtype=np.int64)
    if not ascii_only:  # character offsets are not byte offsets: such hands go to the state machine
        settings[[not "".join(a).isascii() for a in actions], 0] = 0
        text = text.encode("ascii", "replace").decode()
    given = rk.ReplayInput(
        np.frombuffer(text.encode("ascii"), dtype=np.uint8), hand_actions, bounds, settings,
        _pad([p.antes for p in batch], width), _pad([p.blinds for p in batch], width),
        _pad([p.stacks for p in batch], width), card_table(game.name), game.raise_rule == "double",
    )  # fmt: skip
    hands, records, record_cards, hand_start, status, refunded = replay_arrays(game, batch[0].options_text,
                                                                               given)  # fmt: skip
    unseen = (
        (hands.hole == rk.HIDDEN).any(axis=2) & ~hands.folded & (hands.mucked == 0)
    )  # a muck hides nothing
    ok = (status == rk.OK) & ~((hands.ending == bk.SHOWDOWN) & unseen.any(axis=1))  # hidden cards decide
    settled = settle(game, hands, options, ok)  # hands the state machine takes back are not settled
    finishing = settled.stacks.tolist()
    records_of = Records(np.zeros(count, np.int64), [UNCHECKED] * count)
    for h in np.flatnonzero(ok).tolist():
        if batch[h].money is not None:
            ok[h] = _settle_by_record(batch[h], h, hands, settled, records_of, refunded[h])
            continue
        recorded = batch[h].raw.fields.get("finishing_stacks")
        if recorded is None:
            continue
        if (
            type(recorded) is not list
            or set(map(type, recorded)) - {int, float}
            or (recorded != finishing[h][: batch[h].settings[0]])
        ):
            ok[h] = False  # fractions, a mismatch or odd values: the state machine says which
    fallback = [batch[h] for h in np.flatnonzero(~ok).tolist()]
    if not ok.any():
        return None, fallback
    keep = ok.tolist()
    kept = [p for p, k in zip(batch, keep, strict=True) if k]
    money = Records(records_of.rake[ok], [r for r, k in zip(records_of.state, keep, strict=True) if k])
    return _tables(game, kept, hands, settled, records, record_cards, hand_start, ok, run_id, money), fallback


@dataclass
class Records:
    """Each hand's rake (units) and record state (``engine.rules.record``), for the hands table."""

    rake: np.ndarray
    state: list[str]


def _settle_by_record(p: Prepared, h: int, hands: Hands, settled: Settled, out: Records,
                      refunded: np.ndarray) -> bool:  # fmt: skip
    """A money hand's end by its record, as ``HandState.finish_by_record`` ends it where the shown
    cards decide (hidden ones went to the state machine): the record's collectors must be the
    rules' winners, each taking at most what the rules give, the rest being the rake; winnings
    may count a returned bet (``returned_reading``). False when the record does not fit, or is odd
    (both records, a wrong length): the state machine says why."""
    fields, n = p.money, p.settings[0]
    winnings, finishing = fields.get("winnings"), fields.get("finishing_stacks")
    if winnings is None and finishing is None:
        p.notes.append("no winnings or finishing_stacks: the result is unchecked")
        return True
    record = winnings if winnings is not None else finishing
    if (winnings is not None and finishing is not None) or len(record) != n:
        return False
    won = settled.won[h, :n].tolist()

    def problem_of(taken: list[int]) -> str | None:
        return rake_problem(sum(won), taken) or winners_problem(won, taken)

    counted = [0] * n
    if winnings is None:
        collected = collected_from_stacks(p.stacks, hands.contributed[h, :n].tolist(), finishing)
        problem = problem_of(collected)
    else:
        collected, counted, problem = returned_reading(winnings, refunded[:n].tolist(), sum(won), problem_of)
    if problem:
        return False
    if any(counted):
        p.notes.append(returned_note(counted, lambda units: money_text(units, p.settings[rk.DECIMALS])))
    settled.stacks[h, :n] += np.subtract(collected, won)
    settled.won[h, :n] = collected
    out.rake[h], out.state[h] = sum(won) - sum(collected), CHECKED
    return True


def _subset(hands: Hands, settled: Settled, keep: np.ndarray) -> tuple[Hands, Settled]:
    return (
        Hands(**{k: v[keep] for k, v in vars(hands).items()}),
        Settled(**{k: v[keep] for k, v in vars(settled).items()}),
    )


def _tables(game: GameSpec, kept: list[Prepared], hands: Hands, settled: Settled, records: np.ndarray,
            record_cards: np.ndarray, hand_start: np.ndarray, ok: np.ndarray, run_id: str,
            money: Records):  # fmt: skip
    owner = np.repeat(np.arange(len(ok)), np.diff(hand_start))
    keep_records = ok[owner]
    per_hand = np.diff(hand_start)[ok]
    starts = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(per_hand, out=starts[1:])
    hands, settled = _subset(hands, settled, ok)
    count, width = hands.stacks.shape
    hand_ids = np.array([p.identity for p in kept], dtype=object)
    actions = actions_table(game, records[keep_records], record_cards[keep_records], starts, hand_ids, run_id)
    names = np.full((count, width), None, dtype=object)
    listed = [p.raw.fields.get("players") for p in kept]
    plain = [
        type(x) is list and len(x) == p.settings[0] and set(map(type, x)) == {str}
        for x, p in zip(listed, kept, strict=True)
    ]
    if all(plain):  # every hand names its players with strings: one assignment
        names[np.arange(width)[None, :] < hands.seats[:, None]] = list(chain.from_iterable(listed))
    else:
        for h, (players, p) in enumerate(zip(listed, kept, strict=True)):
            if isinstance(players, list):
                for seat, name in enumerate(players[: p.settings[0]]):
                    names[h, seat] = None if name is None else str(name)
    played = game.under(kept[0].options if kept else {})  # one batch, one rule set
    fields = [p.raw.fields for p in kept]
    seats = np.full((count, width), None, dtype=object)
    for h, (f, p) in enumerate(zip(fields, kept, strict=True)):
        if "seats" in f:
            seats[h, : p.settings[0]] = table_seats(f, p.settings[0])
    players = players_table(played, hands, settled, hand_ids, run_id, names=names,
                            starting=_pad([p.stacks for p in kept], width), table_seats=seats)  # fmt: skip
    about = [hand_metadata(f) for f in fields]
    table = pa.table(
        {
            "hand_id": hand_ids,
            "run_id": np.full(count, run_id, dtype=object),
            "variant": np.full(count, game.name, dtype=object),
            "variant_code": [f["variant"] for f in fields],
            "structure": [p.structure.value for p in kept],
            "source": np.full(count, "phh", dtype=object),
            "source_file": [p.raw.source_file for p in kept],
            "hand_index": [p.raw.hand_index for p in kept],
            "hand_no": [hand_number(f, p.raw.hand_index) for f, p in zip(fields, kept, strict=True)],
            "n_players": hands.seats.astype(np.int8),
            "button": (hands.seats - 1).astype(np.int8),
            "big_blind": [p.big_blind for p in kept],
            **showdown_columns(game, hands, settled),
            "options": [p.options_text for p in kept],
            "fractional_stacks": np.zeros(count, np.bool_),
            "notes": [p.notes for p in kept],
            "extra_fields": [
                SORTED_JSON.encode({k: v for k, v in f.items() if k not in REQUIRED_FIELDS}) for f in fields
            ],
            "phh": [p.raw.text.strip() + "\n" for p in kept],
            "amount_decimals": [p.settings[rk.DECIMALS] for p in kept],
            "rake": money.rake,
            "record": [
                chips_record(f) if p.money is None else state
                for f, p, state in zip(fields, kept, money.state, strict=True)
            ],
            **{name: [a[name] for a in about] for name in METADATA_COLUMNS},
            **{name: pa.nulls(count, HANDS.field(name).type) for name in SEAT_ARRAYS},
        },
        schema=HANDS,
    )
    return table, players, actions
