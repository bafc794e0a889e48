"""The plain hands of a ``Block`` replayed by the compiled replay, every step on arrays.

What ``fast_replay.prepare`` decides hand by hand from a parsed dict (money or chips, the
hand's unit 10^-k, the amounts in units, the forced bets), this module decides for a whole
block at once from the scanner's numbers; what ``fast_replay.replay_batch`` then does (replay,
settle, check the record, build rows) it does with the same kernels. A hand it cannot decide
this way goes back to the caller, which reads it as before: tests hold the rows of both ways
equal, hand by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from engine.compiled import betting_kernel as bk
from engine.compiled import replay_kernel as rk
from engine.rules.betting import bets_per_round
from engine.rules.games.base import GameSpec, Structure
from engine.rules.pots import pots_with_antes
from engine.rules.record import (
    CHECKED,
    DECIDED_BY_RECORD,
    UNCHECKED,
    claim_problem,
    rake_problem,
    returned_note,
    returned_reading,
)
from ingest.histories import scan_kernel as sk
from ingest.histories.bulk_read import KEY, Block, arrow_strings, stripped_spans
from ingest.histories.fast_replay import _defaults, _subset, _variants, card_table, replay_arrays
from ingest.histories.money import AMOUNT_LISTS, MAX_DECIMALS, MONEY_FIELDS, STAKE_LISTS, money_text
from ingest.histories.replay import MAX_CHIPS
from ingest.storage.array_rows import Hands, Settled, actions_table, players_table, settle, showdown_columns
from ingest.storage.schema import HANDS, SEAT_ARRAYS
from ingest.storage.sim_rows import constant

NO_RECORD = "no winnings or finishing_stacks: the result is unchecked"
DECIDED_NOTE = "hidden cards at the showdown: the record decides who won"
BET_VALUES = ("min_bet", "small_bet", "big_bet")
LARGEST_HAND_NUMBER = 2**62


@dataclass
class Units:
    """Every number of a block in units of its hand's 10^-k: items and scalars, k and whether
    the hand is money; ``usable`` is False for a hand whose numbers need ``money``'s full reading."""

    items: np.ndarray
    scalars: np.ndarray  # (hands, keys)
    decimals: np.ndarray
    money: np.ndarray
    usable: np.ndarray


def _of_keys(keys: np.ndarray, names) -> np.ndarray:
    return np.isin(keys, [KEY[name] for name in names])


def units_of(block: Block) -> Units:
    """``money.quick_units`` (and the chips path of ``fast_replay.prepare``) for every hand at once."""
    sc, count = block.scanned, block.hands
    m = int(sc.counts[1])
    owner, key = sc.item_owner[:m], sc.item_key[:m]
    shown, written_float = sc.item_decimals[:m].astype(np.int64), sc.item_float[:m]
    present = sc.field[:count, :, 0] != sk.ABSENT
    bets = [KEY[name] for name in BET_VALUES]
    bet_shown = np.where(present[:, bets], sc.scalar_decimals[:count, bets], 0).max(axis=1).astype(np.int64)
    amount, stake, action = _of_keys(key, AMOUNT_LISTS), _of_keys(key, STAKE_LISTS), key == KEY["actions"]
    most, stakes = bet_shown.copy(), bet_shown.copy()
    np.maximum.at(most, owner[amount | action], shown[amount | action])
    np.maximum.at(stakes, owner[stake | action], shown[stake | action])
    named = present[:, [KEY[name] for name in sorted(MONEY_FIELDS)]].any(axis=1)
    float_stake = np.zeros(count, np.bool_)
    float_stake[owner[stake & written_float]] = True
    money = named | float_stake  # as ``fast_replay._is_money`` decides which reading a hand takes
    floats = np.zeros(count, np.bool_)  # a chips hand must be whole numbers throughout
    floats[owner[amount & written_float]] = True
    floats |= (present[:, bets] & sc.scalar_float[:count, bets]).any(axis=1)
    usable = np.where(money, (most <= MAX_DECIMALS) & ((stakes > 0) | named), ~floats)
    k = np.where(money & usable, most, 0)
    numbers = ~action & (key >= 0)
    items, too_big = _scaled(sc.item_mantissa[:m], shown, k[owner], numbers)
    usable[owner[too_big]] = False
    scalars, too_big = _scaled(sc.scalar_mantissa[:count], sc.scalar_decimals[:count].astype(np.int64),
                               k[:, None], present)  # fmt: skip
    usable &= ~too_big[:, bets].any(axis=1)
    return Units(items, scalars, k, money, usable)


def _scaled(mantissa: np.ndarray, shown: np.ndarray, k: np.ndarray, chosen: np.ndarray):
    """mantissa * 10^(k - shown), and where that passes what scooplab counts (or k < shown)."""
    shift = np.clip(k - shown, 0, 18)
    scale = 10**shift
    big = chosen & ((k < shown) | (mantissa > MAX_CHIPS // scale))
    return np.where(big, 0, mantissa * np.where(big, 1, scale)), big


@dataclass
class Group:
    """The hands of a block one game and structure plays, as the replay kernel takes them."""

    game: GameSpec
    structure: Structure
    code: str  # the PHH variant code of every hand
    hands: np.ndarray  # indices into the block
    seats: np.ndarray
    antes: np.ndarray
    blinds: np.ndarray
    stacks: np.ndarray
    winnings: np.ndarray
    finishing: np.ndarray
    settings: np.ndarray
    big_blind: np.ndarray

    def only(self, chosen: np.ndarray) -> Group:
        """The group of its hands that ``chosen`` (a mask over the block) marks: every per-hand array
        cut alike (the kernel reads them row for row)."""
        keep = chosen[self.hands]
        rows = (self.hands, self.seats, self.antes, self.blinds, self.stacks, self.winnings, self.finishing,
                self.settings, self.big_blind)  # fmt: skip
        return Group(self.game, self.structure, self.code, *(values[keep] for values in rows))


def groups_of(block: Block, units: Units) -> tuple[list[Group], np.ndarray]:
    """The block's usable plain hands by game and structure, and the mask of the others."""
    count = block.hands
    spans = block.scanned.field[:count, KEY["variant"]].tolist()
    data = block.data
    codes = np.array([data[a:b] if a != sk.ABSENT else b"" for a, b in spans], dtype=object)
    codes[~block.plain] = b""
    found = _variants()
    taken = np.zeros(count, np.bool_)
    groups = []
    for code in sorted(set(codes.tolist())):
        text = code.decode()
        if text not in found or found[text][0].starting_bet:
            continue  # its starting bet is an option of the hand: read as before
        game, structure = found[text]
        chosen = np.flatnonzero((codes == code) & units.usable)
        group = _group(block, units, game, structure, chosen, text)
        if group is not None and len(group.hands):
            groups.append(group)
            taken[group.hands] = True
    return groups, ~taken


def _padded(block: Block, units: Units, name: str, hands: np.ndarray, width: int):
    """(values (hands, width), count of each hand's values, given) of an array field."""
    k = KEY[name]
    spans = block.scanned.field[hands, k]
    given = spans[:, 0] != sk.ABSENT
    counts = np.where(given, spans[:, 1] - spans[:, 0], 0)
    out = np.zeros((len(hands), width), np.int64)
    rows = np.repeat(np.arange(len(hands)), np.minimum(counts, width))
    cols = np.arange(len(rows)) - np.repeat(np.cumsum(np.minimum(counts, width)) - np.minimum(counts, width),
                                            np.minimum(counts, width))  # fmt: skip
    firsts = np.repeat(spans[:, 0], np.minimum(counts, width))
    out[rows, cols] = units.items[firsts + cols]
    return out, counts, given


def _group(block: Block, units: Units, game: GameSpec, structure: Structure, hands: np.ndarray, code: str
           ) -> Group | None:  # fmt: skip
    sc = block.scanned
    seats = np.where(
        sc.field[hands, KEY["starting_stacks"], 0] != sk.ABSENT,
        sc.field[hands, KEY["starting_stacks"], 1] - sc.field[hands, KEY["starting_stacks"], 0],
        0,
    )
    keep = (seats >= game.min_players) & (seats <= game.max_players)
    hands, seats = hands[keep], seats[keep]
    if not len(hands):
        return None
    width = int(seats.max())
    seated = np.arange(width)[None, :] < seats[:, None]
    stacks, _, _ = _padded(block, units, "starting_stacks", hands, width)
    keep = ~((stacks <= 0) & seated).any(axis=1)
    lists = {}
    for name in ("antes", "blinds_or_straddles", "winnings", "finishing_stacks"):
        values, counts, given = _padded(block, units, name, hands, width)
        keep &= ~given | (counts == seats)
        lists[name] = (values, given)
    keep &= ~(lists["winnings"][1] & lists["finishing_stacks"][1])
    number = sc.field[hands, KEY["hand"], 0] != sk.ABSENT
    keep &= ~number | (sc.scalar_mantissa[hands, KEY["hand"]] < LARGEST_HAND_NUMBER)
    settings, big_blind, playable = _forced_bets(game, structure, units, hands, seats, lists)
    keep &= playable
    antes, blinds = lists["antes"][0], lists["blinds_or_straddles"][0]
    two = seats == 2  # PHH: forced bets are reverse-assigned heads-up
    antes[two, :2], blinds[two, :2] = antes[two, 1::-1], blinds[two, 1::-1]
    return Group(game, structure, code, hands[keep], seats[keep], antes[keep], blinds[keep], stacks[keep],
                 lists["winnings"][0][keep], lists["finishing_stacks"][0][keep], settings[keep],
                 big_blind[keep])  # fmt: skip


def _forced_bets(game: GameSpec, structure: Structure, units: Units, hands, seats, lists):
    """``betting.forced_bets`` for many hands: (settings rows, big blind, playable)."""
    scalars = units.scalars[hands]
    min_bet, small_bet, big_bet = (scalars[:, KEY[name]] for name in BET_VALUES)
    top_blind = lists["blinds_or_straddles"][0].max(axis=1)
    if structure is Structure.FIXED_LIMIT:
        playable = (small_bet > 0) & (big_bet > 0)
        min_bet = small_bet
    else:
        min_bet = np.where(min_bet > 0, min_bet, top_blind)
        playable = min_bet > 0
        small_bet = big_bet = min_bet
    cap = bets_per_round(game, structure, _defaults(game.name)[0])
    every = np.ones(len(hands), np.int64)
    settings = np.stack([seats, every * bk.STRUCTURE_CODES[structure], min_bet, small_bet, big_bet, every * 0,
                         every * (-1 if cap is None else cap), units.decimals[hands]], axis=1)  # fmt: skip
    return settings.astype(np.int64), np.maximum(top_blind, min_bet), playable


def _actions(block: Block, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's first action and the actions' byte spans in the block (``ReplayInput``)."""
    spans = block.scanned.field[hands, KEY["actions"]]
    counts = np.where(spans[:, 0] != sk.ABSENT, spans[:, 1] - spans[:, 0], 0)
    hand_actions = np.zeros(len(hands) + 1, np.int64)
    np.cumsum(counts, out=hand_actions[1:])
    firsts = (
        np.repeat(spans[:, 0], counts) + np.arange(hand_actions[-1]) - np.repeat(hand_actions[:-1], counts)
    )
    return hand_actions, block.scanned.item[firsts]


def replay_group(block: Block, units: Units, group: Group, run_id: str):
    """(the rows of the hands the compiled replay takes, or None; the block's indices of the others)."""
    game = group.game
    options, options_text = _defaults(game.name)
    hand_actions, bounds = _actions(block, group.hands)
    given = rk.ReplayInput(block.buffer, hand_actions, bounds, group.settings, group.antes, group.blinds,
                           group.stacks, card_table(game.name), game.raise_rule == "double")  # fmt: skip
    hands, records, record_cards, hand_start, status, refunded = replay_arrays(game, options_text, given)
    unseen = ((hands.hole == rk.HIDDEN).any(axis=2) & ~hands.folded & (hands.mucked == 0)).any(axis=1)
    unseen &= (status == rk.OK) & (hands.ending == bk.SHOWDOWN)  # hidden cards: the record decides
    ok = (status == rk.OK) & ~unseen
    settled = settle(game, hands, options, ok)
    ended = _by_record(block, units, group, hands, settled, ok, refunded)
    if not game.board_shares:
        ok |= _decided_by_record(block, units, group, (hands, refunded), settled, unseen, ended)
    if not ok.any():
        return None, group.hands
    kept = group.hands[ok]
    contested = unseen[ok, None] & ~hands.folded[ok] & (hands.mucked[ok] == 0) & ~hands.dead[ok]
    hands, settled = _subset(hands, settled, ok)
    owner = np.repeat(np.arange(len(ok)), np.diff(hand_start))
    starts = np.zeros(len(kept) + 1, np.int64)
    np.cumsum(np.diff(hand_start)[ok], out=starts[1:])
    ids = np.array([block.ids[h] for h in kept.tolist()], dtype=object)
    actions = actions_table(game, records[ok[owner]], record_cards[ok[owner]], starts, ids, run_id)
    names, table_seats = _seat_columns(block, kept, hands.seats, hands.stacks.shape[1])
    players = players_table(game, hands, settled, ids, run_id, names=names, starting=group.stacks[ok],
                            table_seats=table_seats, contested=contested)  # fmt: skip
    ended = Ended(ended.rake[ok], ended.record[ok], ended.note[ok])
    table = _hands_table(block, units, group, ok, kept, ids, hands, settled, ended, run_id)
    return (table, players, actions), group.hands[~ok]


@dataclass
class Ended:
    """How each hand ended by its record: the rake, the record's state, its notes (a tuple each)."""

    rake: np.ndarray
    record: np.ndarray
    note: np.ndarray


def _collected(block: Block, group: Group, hands: Hands):
    """(what each seat collected by the record, has winnings, has finishing stacks)."""
    sc = block.scanned
    has_winnings = sc.field[group.hands, KEY["winnings"], 0] != sk.ABSENT
    has_finishing = sc.field[group.hands, KEY["finishing_stacks"], 0] != sk.ABSENT
    collected = np.where(has_winnings[:, None], group.winnings,
                         group.finishing - (group.stacks - hands.contributed))  # fmt: skip
    return collected, has_winnings, has_finishing


def _by_record(block: Block, units: Units, group: Group, hands: Hands, settled: Settled, ok: np.ndarray,
               refunded: np.ndarray) -> Ended:  # fmt: skip
    """Each hand ended by its record (``HandState.finish_by_record`` where the shown cards decide,
    ``replay._check_finishing_stacks`` for chips): ``ok`` is cleared where the record does not fit
    (the state machine then says why). Winnings that only fit with each seat's returned bet
    (``refunded``) taken off are read so (``engine.rules.record.returned_reading``)."""
    money = units.money[group.hands]
    collected, has_winnings, has_finishing = _collected(block, group, hands)
    won = settled.won
    wrong = _misfit(collected, won)
    reduced = collected - refunded  # winnings that count a returned bet (``returned_reading``)
    counted = has_winnings & wrong & refunded.any(axis=1) & (reduced >= 0).all(axis=1)
    counted &= ~_misfit(reduced, won)
    collected = np.where(counted[:, None], reduced, collected)
    wrong &= ~counted
    by_record = money & (has_winnings | has_finishing)
    ok &= ~(by_record & wrong) & ~(has_winnings & has_finishing)
    ok &= money | ~has_finishing | (group.finishing == settled.stacks).all(axis=1)
    taken = by_record & ok
    rake = np.where(taken, won.sum(axis=1) - collected.sum(axis=1), 0)
    settled.stacks[taken] += collected[taken] - won[taken]
    settled.won[taken] = collected[taken]
    unchecked = money & ~(has_winnings | has_finishing)
    notes = np.empty(len(ok), object)
    notes[:] = [(NO_RECORD,) if u else () for u in unchecked.tolist()]
    for h in np.flatnonzero(counted & taken).tolist():
        notes[h] = (_returned_note(units, group, h, refunded[h]),)
    return Ended(rake, np.where(has_winnings | has_finishing, CHECKED, UNCHECKED).astype(object), notes)


def _misfit(collected: np.ndarray, won: np.ndarray) -> np.ndarray:
    """Hands whose record does not fit the rules' winnings (``rake_problem``, ``winners_problem``)."""
    wrong = (collected < 0).any(axis=1) | (collected.sum(axis=1) > won.sum(axis=1))
    return wrong | ((won > 0) != (collected > 0)).any(axis=1) | (collected > won).any(axis=1)


def _returned_note(units: Units, group: Group, h: int, counted: np.ndarray) -> str:
    """``returned_note`` of hand ``h`` of a group, its amounts as money."""
    decimals = int(units.decimals[group.hands[h]])
    return returned_note(counted[: group.seats[h]].tolist(), lambda amount: money_text(amount, decimals))


def _decided_by_record(block: Block, units: Units, group: Group, replayed: tuple[Hands, np.ndarray],
                       settled: Settled, unseen: np.ndarray, ended: Ended) -> np.ndarray:  # fmt: skip
    """Hands whose hidden cards leave the winners open, ended as their record says
    (``HandState.finish_by_record``): what each collected must be within the pot and the pots it
    may win (winnings may count a returned bet: ``returned_reading``). Returns the hands so ended;
    the others go to the state machine, which says why."""
    hands, refunded = replayed
    collected, has_winnings, has_finishing = _collected(block, group, hands)
    chosen = unseen & units.money[group.hands] & (has_winnings != has_finishing)
    decided = np.zeros(len(unseen), np.bool_)
    everyone = (1 << len(group.game.board_names)) - 1
    for h in np.flatnonzero(chosen).tolist():
        n = int(hands.seats[h])
        pot = int(hands.contributed[h].sum())
        pots = pots_with_antes(hands.contributed[h, :n].tolist(), hands.antes_paid[h, :n].tolist(),
                               hands.folded[h, :n].tolist())  # fmt: skip

        def problem_of(taken: list[int], pot=pot, pots=pots) -> str | None:
            return rake_problem(pot, taken) or claim_problem(pots, taken)

        returned = refunded[h, :n].tolist() if has_winnings[h] else [0] * n
        taken, counted, problem = returned_reading(collected[h, :n].tolist(), returned, pot, problem_of)
        if problem:
            continue
        decided[h] = True
        settled.won[h, :n] = taken
        settled.stacks[h] = hands.stacks[h] + settled.won[h]
        settled.survivors[h] = everyone
        ended.rake[h], ended.record[h] = pot - sum(taken), DECIDED_BY_RECORD
        returned_notes = (_returned_note(units, group, h, np.array(counted)),) if any(counted) else ()
        ended.note[h] = (DECIDED_NOTE, *returned_notes)
    return decided


def _seat_columns(block: Block, kept: np.ndarray, seats: np.ndarray, width: int):
    """Each seated seat's player name, in the players table's order (``players``; a seat past
    the list's end: null), and each seat's number at the table, (hands, width) (``seats``, when it
    lists one number from 1 to 2^15 - 1 per player; else -1)."""
    sc = block.scanned
    seated = np.arange(width)[None, :] < seats[:, None]
    rows, cols = np.nonzero(seated)
    spans = sc.field[kept, KEY["players"]]
    listed = np.where(spans[:, 0] != sk.ABSENT, spans[:, 1] - spans[:, 0], 0)
    named = cols < listed[rows]
    items = np.where(named, spans[rows, 0] + cols, 0)
    names = arrow_strings(block.buffer, sc.item[items], named)
    spans = sc.field[kept, KEY["seats"]]
    whole = (spans[:, 0] != sk.ABSENT) & (spans[:, 1] - spans[:, 0] == seats)
    values = np.where(whole[rows], sc.item_mantissa[np.where(whole[rows], spans[rows, 0] + cols, 0)], -1)
    numbers = np.full((len(kept), width), -1, np.int64)
    numbers[rows, cols] = values
    numbers[((numbers == 0) | (numbers >= 2**15)).any(axis=1)] = -1
    return names, numbers


def _days(years: np.ndarray, months: np.ndarray, days: np.ndarray, given: np.ndarray) -> pa.Array:
    """``metadata.played_on`` for many hands: the day, null where it is not a date."""
    fine = given & (years >= 1) & (years <= 9999) & (months >= 1) & (months <= 12) & (days >= 1)
    year = np.where(fine, years, 1970) - 1970
    month_start = year.astype("datetime64[Y]").astype("datetime64[M]") + (np.where(fine, months, 1) - 1)
    first = month_start.astype("datetime64[D]")
    length = ((month_start + 1).astype("datetime64[D]") - first).astype(np.int64)
    fine &= days <= length
    since = first.astype(np.int64) + np.where(fine, days, 1) - 1
    return pa.array(since.astype(np.int32), mask=~fine, type=pa.date32())


def _times(buffer: np.ndarray, spans: np.ndarray) -> pa.Array:
    """``metadata.played_time`` of ``HH:MM:SS`` texts (the scanner checked them), null where absent."""
    given = spans[:, 0] != sk.ABSENT
    digits = (
        buffer[np.where(given, spans[:, 0], 0)[:, None] + np.array([0, 1, 3, 4, 6, 7])].astype(np.int64) - 48
    )
    seconds = (digits[:, 0] * 10 + digits[:, 1]) * 3600 + (digits[:, 2] * 10 + digits[:, 3]) * 60
    seconds += digits[:, 4] * 10 + digits[:, 5]
    return pa.array(seconds * 1_000_000, mask=~given, type=pa.time64("us"))


def _metadata(block: Block, kept: np.ndarray) -> dict[str, pa.Array]:
    """``metadata.hand_metadata`` of each kept hand (strings, a day, a time; null when absent)."""
    sc = block.scanned

    def strings(name: str, empty: int = 1) -> pa.Array:
        spans = sc.field[kept, KEY[name]]
        return arrow_strings(
            block.buffer, spans, (spans[:, 0] != sk.ABSENT) & (spans[:, 1] - spans[:, 0] >= empty)
        )

    parts = [KEY["year"], KEY["month"], KEY["day"]]
    year, month, day = sc.scalar_mantissa[kept][:, parts].T
    return {
        "currency": strings("currency"),
        "venue": strings("venue"),
        "table_name": strings("table", empty=0),  # a table's name may be empty
        "played_on": _days(year, month, day, (sc.field[kept][:, parts, 0] != sk.ABSENT).all(axis=1)),
        "played_time": _times(block.buffer, sc.field[kept, KEY["time"]]),
        "time_zone": strings("time_zone"),
    }


def _notes(notes: np.ndarray) -> pa.Array:
    """Each hand's notes (a tuple each, most often empty) as a list column built from offsets."""
    offsets = np.zeros(len(notes) + 1, np.int32)
    np.cumsum([len(n) for n in notes.tolist()], out=offsets[1:])
    values = [note for hand in notes.tolist() for note in hand]
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, pa.string()))


def _places(block: Block, kept: np.ndarray) -> dict:
    """Where each hand comes from: the block's file and its place in it, or its archive member."""
    if block.members is None:
        return {"source_file": constant(block.source_file, len(kept)), "hand_index": kept}
    return {"source_file": pa.array([block.members[h][0] for h in kept.tolist()], pa.string()),
            "hand_index": np.zeros(len(kept), kept.dtype)}  # fmt: skip


def _hands_table(block: Block, units: Units, group: Group, ok, kept, ids, hands: Hands, settled: Settled,
                 ended: Ended, run_id: str) -> pa.Table:  # fmt: skip
    count = len(kept)
    game = group.game
    sc = block.scanned
    number = sc.field[kept, KEY["hand"], 0] != sk.ABSENT
    places = _places(block, kept)
    return pa.table(
        {
            "hand_id": ids,
            "run_id": constant(run_id, count),
            "variant": constant(game.name, count),
            "variant_code": constant(group.code, count),
            "structure": constant(group.structure.value, count),
            "source": constant("phh", count),
            **places,
            "hand_no": np.where(number, sc.scalar_mantissa[kept, KEY["hand"]], places["hand_index"] + 1),
            "n_players": hands.seats.astype(np.int8),
            "button": (hands.seats - 1).astype(np.int8),
            "big_blind": group.big_blind[ok],
            **showdown_columns(game, hands, settled),
            "options": constant(_defaults(game.name)[1], count),
            "fractional_stacks": np.zeros(count, np.bool_),
            "notes": _notes(ended.note),
            "extra_fields": arrow_strings(block.extra_json, block.extra_spans[kept]),
            "phh": arrow_strings(block.buffer, stripped_spans(block.buffer, sc.text[kept]), suffix=b"\n"),
            "amount_decimals": units.decimals[kept],
            "rake": ended.rake,
            "record": ended.record,
            **_metadata(block, kept),
            **{name: pa.nulls(count, HANDS.field(name).type) for name in SEAT_ARRAYS},
        },
        schema=HANDS,
    )
