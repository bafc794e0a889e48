"""Warehouse rows built column by column from the arrays of the compiled kernels.

Betting-mode simulation (``engine.compiled.betting_kernel``) and fast replay
(``engine.compiled.replay_kernel``) both end with per-hand, per-seat arrays and a flat list of
recorded actions; this module settles their showdowns (``engine.compiled.betting_showdown``, or
the games' Python rules) and turns them into ``players`` and ``actions`` rows and the
showdown columns of ``hands``, exactly as ``ingest.histories.rows.HandRows`` writes a replayed hand.
Seat arrays are (hands, width) with ``width`` the most seats of any hand; seats beyond a
hand's own count are padding and produce no row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa

from engine.compiled import betting_kernel as bk
from engine.compiled import betting_showdown as bs
from engine.compiled import hand_state as hs
from engine.compiled.core import compile_rules
from engine.compiled.simulate import ENDINGS
from engine.hands.rankings import RANKINGS
from engine.hands.strengths import category_of
from engine.rules.games.base import GameSpec, ShowdownInput
from engine.rules.games.showdown import settle as settle_showdown
from engine.rules.pots import claimants, pots_with_antes
from ingest.storage.schema import ACTIONS, PLAYERS
from ingest.storage.sim_rows import constant

ACTION_KINDS = bk.ACTION_KINDS  # record kinds 0..11 (engine.compiled.hand_state)


@dataclass
class Hands:
    """Per-hand and per-seat arrays where ``HandState.finish`` starts (seat arrays are (hands, width))."""

    seats: np.ndarray  # seats of each hand
    ending: np.ndarray  # index into ENDINGS
    stacks: np.ndarray  # after the betting (uncontested and everyone-dead hands: final)
    won: np.ndarray  # chips won by hands that end without a showdown
    contributed: np.ndarray
    antes_paid: np.ndarray
    folded: np.ndarray
    mucked: np.ndarray  # 0, or k for the k-th seat to muck (the last keeps a pot nobody else claims)
    dead: np.ndarray
    dealt: np.ndarray  # (hands, width, MAX_CARDS) hole cards as dealt, -1 padded
    hole: np.ndarray  # (hands, width, MAX_CARDS) remaining hole cards
    hole_n: np.ndarray
    discarded: np.ndarray  # (hands, width, MAX_CARDS)
    discarded_n: np.ndarray
    boards: np.ndarray  # (hands, boards, 5)
    board_n: np.ndarray

    @classmethod
    def empty(cls, count: int, width: int, n_boards: int, dealt_width: int = bk.MAX_CARDS) -> Hands:
        """Arrays for ``count`` hands of ``width`` seats, zero (cards: -1), for a kernel to fill
        (``dealt_width``: room for each seat's cards dealt, and for those it discarded)."""

        def seats(dtype, fill=0, cards=0):
            return np.full((count, width, cards) if cards else (count, width), fill, dtype)

        return cls(
            seats=np.full(count, width, np.int64), ending=np.zeros(count, np.int8), stacks=seats(np.int64),
            won=seats(np.int64), contributed=seats(np.int64), antes_paid=seats(np.int64),
            folded=seats(np.bool_), mucked=seats(np.int64), dead=seats(np.bool_),
            dealt=seats(np.int8, -1, dealt_width), hole=seats(np.int8, -1, bk.MAX_CARDS),
            hole_n=seats(np.int64), discarded=seats(np.int8, -1, dealt_width), discarded_n=seats(np.int64),
            boards=np.full((count, n_boards, bk.MAX_BOARD), -1, np.int8),
            board_n=np.zeros((count, n_boards), np.int64),
        )  # fmt: skip


@dataclass
class Settled:
    """Chips and showdown facts of the hands (seat arrays; -1: no showdown hand)."""

    stacks: np.ndarray
    won: np.ndarray
    strength: np.ndarray
    low: np.ndarray
    won_high: np.ndarray
    won_low: np.ndarray
    board_won: np.ndarray  # (hands, seats, boards): games whose boards take shares
    triple: np.ndarray
    survivors: np.ndarray  # bit mask of the surviving boards
    split: np.ndarray


def settle(game: GameSpec, hands: Hands, options: dict, chosen: np.ndarray | None = None,
           compiled: bool = True) -> Settled:  # fmt: skip
    """Chips won: an uncontested pot to the seat left, every other pot by the game's rule.

    Showdowns are compiled (``engine.compiled.betting_showdown`` on ``engine.compiled.core``);
    ``compiled=False`` calls the reference showdown (``engine.rules.games.showdown``) hand by hand.
    Mucked hands cannot win, unless every claimant of a pot mucked: then the last to muck takes
    it. ``chosen`` limits the hands settled (the others keep what the kernel left: their ``won``,
    if any).
    """
    count, width = hands.stacks.shape
    out = Settled(
        stacks=hands.stacks.copy(), won=hands.won.copy(), strength=np.full((count, width), -1, np.int64),
        low=np.full((count, width), -1, np.int64), won_high=np.zeros((count, width), np.int64),
        won_low=np.zeros((count, width), np.int64),
        board_won=np.zeros((count, width, len(game.boards)), np.int64),
        triple=np.zeros((count, width), np.bool_), survivors=np.zeros(count, np.int8),
        split=np.zeros(count, np.bool_),
    )  # fmt: skip
    chosen = np.ones(count, np.bool_) if chosen is None else chosen
    showdown = (hands.ending == bk.SHOWDOWN) & chosen
    folded = hands.folded | (np.arange(width)[None, :] >= hands.seats[:, None])
    won = np.zeros_like(out.won)
    uncontested = np.flatnonzero((hands.ending == bk.UNCONTESTED) & chosen)
    seated = np.arange(width)[None, :] < hands.seats[uncontested, None]
    winner = np.argmax(~hands.folded[uncontested] & seated, axis=1)  # the one seat left
    won[uncontested, winner] = hands.contributed[uncontested].sum(axis=1)
    if compiled:
        at_showdown = bs.HandsAtShowdown(showdown, hands.contributed, hands.antes_paid, folded, hands.mucked,
                                         hands.hole, hands.hole_n, hands.boards, hands.board_n)  # fmt: skip
        settlement = bs.Settlement(won, out.strength, out.low, out.won_high, out.won_low, out.board_won,
                                   out.triple, out.survivors, out.split)  # fmt: skip
        bs.settle_hands(compile_rules(game, options), at_showdown, settlement)
    else:
        _settle_in_python(game, hands, options, showdown, folded, won, out)
    out.won += won
    out.stacks += won
    return out


def _settle_in_python(game: GameSpec, hands: Hands, options: dict, showdown, folded, won, out) -> None:
    folded_all, hole_all, hole_n_all = folded.tolist(), hands.hole.tolist(), hands.hole_n.tolist()
    muck_all = hands.mucked.tolist()
    boards_all, board_n_all = hands.boards.tolist(), hands.board_n.tolist()
    contributed_all, antes_all = hands.contributed.tolist(), hands.antes_paid.tolist()
    for h in np.flatnonzero(showdown).tolist():
        seats = range(int(hands.seats[h]))
        folded, hole, hole_n = folded_all[h][: len(seats)], hole_all[h], hole_n_all[h]
        boards, board_n = boards_all[h], board_n_all[h]
        contenders = frozenset(s for s in seats if not folded[s] and not muck_all[h][s])
        pots = pots_with_antes(contributed_all[h][: len(folded)], antes_all[h][: len(folded)], folded)
        result = settle_showdown(
            game,
            ShowdownInput(
                pots=tuple(claimants(pots, contenders, muck_all[h])),
                hole_cards=tuple(tuple(hole[s][: hole_n[s]]) for s in seats),
                boards=tuple(tuple(boards[b][: board_n[b]]) for b in range(len(board_n))),
                contenders=contenders,
                options=options,
            ),
        )
        won[h, : len(seats)] = result.won
        out.survivors[h] = sum(1 << b for b in result.surviving_boards)
        out.split[h] = result.split
        for s, outcome in enumerate(result.outcomes):
            out.strength[h, s] = -1 if outcome.high_strength is None else outcome.high_strength
            low = outcome.low_hand if outcome.low_points is None else outcome.low_points
            out.low[h, s] = -1 if low is None else low
            out.won_high[h, s], out.won_low[h, s] = outcome.won_high, outcome.won_low
            out.board_won[h, s, : len(outcome.board_won)] = outcome.board_won
            out.triple[h, s] = outcome.triple_scoop


def card_texts(cards: np.ndarray, game: GameSpec) -> np.ndarray:
    """Text of each row of card ids along the last axis (-1 padding skipped, -2 a card nobody saw:
    ``??``), as an object array."""
    table = np.array(["??", ""] + [game.deck.card_text(c) for c in range(game.deck.size)], dtype=object)
    texts = table[cards.astype(np.int64) + 2]
    return texts.sum(axis=-1) if texts.shape[-1] else np.full(texts.shape[:-1], "", dtype=object)


@cache
def _card_pairs(deck) -> np.ndarray | None:
    """The two text bytes of ``??`` (index 0) and of each card id c (index c + 2) as uint16, or None
    when a card's text is not two ASCII characters."""
    texts = ["??", "  "] + [deck.card_text(c) for c in range(deck.size)]
    data = "".join(texts).encode("utf-8")
    return np.frombuffer(data, np.uint16).copy() if len(data) == 2 * len(texts) else None


def card_strings(cards: np.ndarray, game: GameSpec, valid: np.ndarray | None = None) -> pa.Array:
    """``card_texts`` of an (rows, k) array as an Arrow string array built in one gather (null where
    not ``valid``).

    >>> from engine.rules.games import GAMES
    >>> card_strings(np.array([[51, -2], [-1, -1]]), GAMES["holdem"]).to_pylist()
    ['As??', '']
    """
    pairs = _card_pairs(game.deck)
    if pairs is None:
        texts = card_texts(cards, game)
        return pa.array(np.where(valid, texts, None) if valid is not None else texts, pa.string())
    ids = cards.astype(np.int64).reshape(len(cards), -1)
    shown = ids != -1
    if valid is not None:
        shown &= valid[:, None]
    offsets = np.zeros(len(ids) + 1, np.int32)
    np.cumsum(2 * shown.sum(axis=1), out=offsets[1:])
    data = np.ascontiguousarray(pairs[ids[shown] + 2])
    mask = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little").tobytes())
    return pa.StringArray.from_buffers(len(ids), pa.py_buffer(offsets), pa.py_buffer(data), mask)


def repeated(values, index: np.ndarray) -> pa.Array:
    """Strings ``values[index]`` as an Arrow array, built in Arrow (far faster than Python objects)."""
    strings = values if isinstance(values, pa.Array) else pa.array(values, type=pa.string())
    return strings.take(pa.array(index, type=pa.int64()))


def actions_table(game: GameSpec, records: np.ndarray, record_cards: np.ndarray, hand_start: np.ndarray,
                  hand_ids: np.ndarray, run_id: str) -> pa.Table:  # fmt: skip
    """``actions`` rows: hand ``h`` owns ``records[hand_start[h]:hand_start[h + 1]]``."""
    owner = np.repeat(np.arange(len(hand_ids)), np.diff(hand_start))
    columns = (hs.R_KIND, hs.R_SEAT, hs.R_AMOUNT, hs.R_BOARD, hs.R_CARDS)
    kind, seat, amount, board, n_cards = (records[:, i] for i in columns)
    stack_after, pot_after = records[:, hs.R_STACK], records[:, hs.R_POT]  # -1 stack: no seat (a board deal)
    cards = card_strings(record_cards, game, valid=n_cards > 0)
    count = len(records)
    return pa.table(
        {
            "hand_id": repeated(hand_ids, owner),
            "run_id": constant(run_id, count),
            "variant": constant(game.name, count),
            "seq": np.arange(count) - hand_start[owner],
            "street": repeated([s.name for s in game.streets], records[:, hs.R_STREET]),
            "seat": pa.array(seat, mask=seat < 0, type=pa.int8()),
            "action": repeated(ACTION_KINDS, kind),
            "amount": pa.array(amount, mask=amount < 0, type=pa.int64()),
            "cards": cards,
            "board": pa.array(board, mask=board < 0, type=pa.int8()),
            "automatic": records[:, hs.R_AUTOMATIC].astype(bool),
            "stack_after": pa.array(stack_after, mask=stack_after < 0, type=pa.int64()),
            "pot_after": pot_after,
        },
        schema=ACTIONS,
    )


def players_table(game: GameSpec, hands: Hands, settled: Settled, hand_ids: np.ndarray, run_id: str,
                  names: np.ndarray, starting: np.ndarray, table_seats: np.ndarray | None = None,
                  contested: np.ndarray | None = None) -> pa.Table:  # fmt: skip
    """``players`` rows, seat by seat (``names``, ``starting`` stacks and ``table_seats``, each
    seat's number at the table, None or -1 where unknown, are (hands, width), or ``names`` one
    Arrow array of the seated seats in order; no ``table_seats``:
    all null). ``contested`` marks seats at a showdown the record decided, which show no hand."""
    count, width = hands.stacks.shape
    seated = np.arange(width)[None, :] < hands.seats[:, None]
    rows = int(seated.sum())
    showdown_hand = hands.ending == bk.SHOWDOWN
    won, stacks = settled.won, settled.stacks
    pot = hands.contributed.sum(axis=1)
    scooper = np.full(count, -1)
    scoop_hands = showdown_hand & ((won > 0).sum(axis=1) == 1) & (won.max(axis=1) == pot)
    scooper[scoop_hands] = won[scoop_hands].argmax(axis=1)
    strength, low = settled.strength[seated], settled.low[seated]
    no_hand = strength < 0
    categories = RANKINGS[game.ranking].categories
    category = pa.array(categories, type=pa.string()).take(
        pa.array(category_of(strength), mask=no_hand, type=pa.int64())
    )  # null where no hand
    at_showdown = np.broadcast_to(showdown_hand[:, None], seated.shape)[seated]
    if game.board_shares:
        per_seat = zip(settled.board_won[seated].tolist(), at_showdown.tolist(), strict=True)
        board_won = pa.array([row if shown else None for row, shown in per_seat], type=pa.list_(pa.int64()))
    else:
        board_won = pa.nulls(rows, pa.list_(pa.int64()))
    return pa.table(
        {
            "hand_id": repeated(hand_ids, np.broadcast_to(np.arange(count)[:, None], seated.shape)[seated]),
            "run_id": constant(run_id, rows),
            "variant": constant(game.name, rows),
            "seat": np.broadcast_to(np.arange(width, dtype=np.int8)[None, :], seated.shape)[seated],
            "player": names if isinstance(names, pa.Array) else names[seated],
            "hole_cards": card_strings(hands.dealt[seated], game),
            "final_hole_cards": card_strings(hands.hole[seated], game),
            "discarded": hands.discarded_n[seated].astype(np.int8),
            "discarded_cards": card_strings(hands.discarded[seated], game),
            "dead": hands.dead[seated],
            "voided": np.zeros(rows, np.bool_),
            "folded": hands.folded[seated],
            "mucked": hands.mucked[seated] > 0,
            "showdown": at_showdown & (~no_hand | (False if contested is None else contested[seated])),
            "starting_stack": starting[seated],
            "finishing_stack": stacks[seated],
            "net": stacks[seated] - starting[seated],
            "won": won[seated],
            "high_category": category,
            "high_strength": pa.array(strength, mask=no_hand, type=pa.int64()),
            "low_points": pa.array(low, mask=(low < 0) | (not game.low_share), type=pa.int16()),  # points
            "won_high": settled.won_high[seated],
            "won_low": settled.won_low[seated],
            "board_won": board_won,
            "scoop": (np.arange(width)[None, :] == scooper[:, None])[seated],
            "triple_scoop": settled.triple[seated],
            "table_seat": _table_seats(table_seats, seated, rows),
        },
        schema=PLAYERS,
    )


def _table_seats(table_seats: np.ndarray | None, seated: np.ndarray, rows: int) -> pa.Array:
    if table_seats is None:
        return pa.nulls(rows, pa.int16())
    if table_seats.dtype != object:
        values = table_seats[seated]
        return pa.array(values, mask=values < 0, type=pa.int16())
    return pa.array(table_seats[seated].tolist(), pa.int16())


def showdown_columns(game: GameSpec, hands: Hands, settled: Settled) -> dict:
    """The ``hands`` columns the showdown decides: pot, showdown, ending, split, boards, survivors."""
    showdown_hand = hands.ending == bk.SHOWDOWN
    n_boards = len(game.board_names)
    all_mask = (1 << n_boards) - 1
    masks = [[b for b in range(n_boards) if m >> b & 1] for m in range(all_mask + 1)]
    return {
        "pot": hands.contributed.sum(axis=1),
        "showdown": showdown_hand,
        "ending": repeated(ENDINGS, hands.ending),
        "split": settled.split,
        "boards": card_texts(hands.boards, game).tolist(),
        "surviving_boards": [masks[m] for m in np.where(showdown_hand, settled.survivors, all_mask).tolist()],
    }
