"""The views ``tracker_lines`` and ``tracker_reached`` written once more, compiled: what counting a run's
derived tracker rows uses (``analytics.tracker``), a pass over the run's actions in the order they are
stored instead of DuckDB's windows over them. The SQL files stay the definition to read;
``tests/test_tracker_kernel.py`` holds the two equal, row for row.

The actions are streamed in batches (memory stays bounded whatever the run's size); a hand is counted
once all its actions have come. Actions not stored hand by hand, in order (``NotInOrder``), are left to
the SQL views.

>>> [ACTION_CODES[a] for a in ("fold", "raise")]
[1, 5]
"""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numba import njit

import engine  # noqa: F401  (numba's cache folder, named after the kernels' sources, before any kernel)

ACTION_CODES = {"fold": 1, "check": 2, "call": 3, "bet": 4, "raise": 5}  # any other action: 0
FOLD, CHECK, CALL, BET, RAISE = 1, 2, 3, 4, 5
CHANCES = (
    "vpip_chances", "vpip", "pfr_chances", "pfr", "three_bet_chances", "three_bet",
    "fold_to_three_bet_chances", "fold_to_three_bet", "cbet_chances", "cbet",
    "fold_to_cbet_chances", "fold_to_cbet",
)  # fmt: skip
MOVES = ("postflop_aggressive", "postflop_calls")
BATCH_ROWS = 1 << 20
ACTIONS = "SELECT hand_id, seq, seat, action, automatic, street, variant FROM actions_raw"


class NotInOrder(Exception):
    """The actions are not stored hand by hand with their sequence numbers rising."""


@njit(cache=True)
def _line_counts(starts: np.ndarray, seat: np.ndarray, code: np.ndarray, street: np.ndarray,
                 round_: np.ndarray, raise_round: np.ndarray, bet_round: np.ndarray,
                 seats: int, rounds: int, streets: int) -> tuple:  # fmt: skip
    """Per hand (actions ``starts[h]`` to ``starts[h + 1]``, in order) and per seat that chose: its
    hand, seat, fold round (0: none), the 12 chances and takes, its 2 counts of moves; and per hand
    the round reached after the raise round (0: none). A round or street of 0 or less is null."""
    n_hands = len(starts) - 1
    out_hand = np.empty(len(code), np.int64)
    out_seat = np.empty(len(code), np.int64)
    out_fold = np.zeros(len(code), np.int64)
    out_flags = np.zeros((len(code), 12), np.int8)
    out_moves = np.zeros((len(code), 2), np.int64)
    reached = np.zeros(n_hands, np.int64)
    before = np.zeros(len(code), np.int64)
    raises = np.zeros(streets + 1, np.int64)
    chose = np.zeros(seats, np.bool_)
    fold_in = np.zeros(seats, np.int64)
    flags = np.zeros((seats, 12), np.int8)
    moves = np.zeros((seats, 2), np.int64)
    nth = np.zeros((seats, rounds + 1), np.int64)
    rows = 0
    for h in range(n_hands):
        a, b = starts[h], starts[h + 1]
        rr, br = raise_round[a], bet_round[a]
        raises[:] = 0
        opener, aggressor, first_bettor = -1, -1, -1
        for i in range(a, b):  # raises before each move in its street; who opened, raised last, bet first
            r = round_[i]
            if r > 0 and rr > 0 and r > rr and (reached[h] == 0 or r < reached[h]):
                reached[h] = r
            if code[i] == 0:
                continue
            before[i] = raises[street[i] + 1]
            if code[i] >= BET:
                raises[street[i] + 1] += 1
                if rr > 0 and r == rr:
                    aggressor = seat[i]
                    if opener < 0:
                        opener = seat[i]
                elif rr > 0 and r == rr + 1 and first_bettor < 0:
                    first_bettor = seat[i]
        chose[:] = False
        fold_in[:] = 0
        flags[:] = 0
        moves[:] = 0
        nth[:] = 0
        for i in range(a, b):
            if code[i] == 0:
                continue
            s, r, c = seat[i], round_[i], code[i]
            chose[s] = True
            if r > 0:
                nth[s, r] += 1
            if c == FOLD and r > 0 and (fold_in[s] == 0 or r < fold_in[s]):
                fold_in[s] = r
            _flag(flags[s], 0, 1, br > 0 and r == br, c == CALL or c >= BET)
            in_raise_round = rr > 0 and r == rr
            _flag(flags[s], 2, 3, in_raise_round, c >= BET)
            _flag(flags[s], 4, 5, in_raise_round and before[i] == 1, c >= BET)
            _flag(flags[s], 6, 7, in_raise_round and s == opener and before[i] == 2, c == FOLD)
            after = rr > 0 and r == rr + 1
            _flag(flags[s], 8, 9, after and s == aggressor and before[i] == 0 and nth[s, r] == 1, c == BET)
            faces_cbet = after and aggressor >= 0 and s != aggressor and first_bettor == aggressor
            _flag(flags[s], 10, 11, faces_cbet and before[i] == 1, c == FOLD)
            if rr > 0 and r > rr:
                if c >= BET:
                    moves[s, 0] += 1
                elif c == CALL:
                    moves[s, 1] += 1
        for s in range(seats):
            if chose[s]:
                out_hand[rows], out_seat[rows], out_fold[rows] = h, s, fold_in[s]
                out_flags[rows] = flags[s]
                out_moves[rows] = moves[s]
                rows += 1
    return out_hand[:rows], out_seat[:rows], out_fold[:rows], out_flags[:rows], out_moves[:rows], reached


@njit(cache=True)
def _flag(flags: np.ndarray, chance: int, taken: int, had: bool, took: bool) -> None:
    """Mark the chance (and whether it was taken) when the move had it."""
    if had:
        flags[chance] = 1
        if took:
            flags[taken] = 1


def streamed(con: duckdb.DuckDBPyConnection) -> Iterator[tuple[pa.Table, pa.Table]]:
    """``tracker_lines`` and ``tracker_reached`` of the connection's ``actions_raw``, batch by batch
    (each batch's hands whole); ``NotInOrder`` if the actions are not stored hand by hand in order."""
    games = _games(con)
    reader = con.sql(ACTIONS).to_arrow_reader(BATCH_ROWS)
    carried: pa.Table | None = None
    stretches = 0
    for batch in reader:
        table = pa.Table.from_batches([batch])
        table = pa.concat_tables([carried, table]) if carried is not None else table
        starts = _starts(table)
        cut = int(starts[-2]) if len(starts) > 1 else 0  # the last hand may go on in the next batch
        if cut > 0:
            stretches += len(starts) - 2
            yield _counted(table.slice(0, cut), starts[:-1], games)
        carried = table.slice(cut)
    if carried is not None and carried.num_rows:
        starts = _starts(carried)
        stretches += len(starts) - 1
        yield _counted(carried, starts, games)
    distinct = con.sql("SELECT count(DISTINCT hand_id) FROM actions_raw").fetchall()[0][0]
    if stretches != distinct:
        raise NotInOrder(f"{distinct} hands in {stretches} stretches of actions")


def _starts(table: pa.Table) -> np.ndarray:
    """The first row of each stretch of one hand's actions, and the row count at the end."""
    ids = table.column("hand_id")
    if table.num_rows == 0:
        return np.zeros(1, np.int64)
    changed = pc.not_equal(ids.slice(1), ids.slice(0, table.num_rows - 1)).to_numpy(zero_copy_only=False)
    return np.concatenate(([0], np.flatnonzero(changed) + 1, [table.num_rows])).astype(np.int64)


def _games(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[list[str], int, int]]:
    """Each game's streets and the rounds (1-based; 0: none) of its first raise and first bet."""
    rows = con.sql("SELECT variant, streets, first_raise_street, first_bet_street FROM variants").fetchall()
    return {v: (list(s or []), _round(s, raise_at), _round(s, bet_at)) for v, s, raise_at, bet_at in rows}


def _round(streets: list[str] | None, street: str | None) -> int:
    return streets.index(street) + 1 if streets and street in streets else 0


def _counted(table: pa.Table, starts: np.ndarray, games: dict[str, tuple[list[str], int, int]]
             ) -> tuple[pa.Table, pa.Table]:  # fmt: skip
    """The two views' rows of the whole hands in ``table`` (each hand's first row in ``starts``, then
    the row count)."""
    seq = table.column("seq").to_numpy(zero_copy_only=False)
    rising = np.diff(seq) > 0
    rising[starts[1:-1] - 1] = True  # from one hand to the next
    if not rising.all():
        raise NotInOrder("a hand's actions are not stored in the order they were made")
    round_, raise_round, bet_round, street, known = _rounds(table, games)
    codes = _codes(table.column("action"))
    automatic = table.column("automatic").fill_null(True).to_numpy(zero_copy_only=False)
    codes[automatic | ~known] = 0  # the views count a move made by the player, of a known game
    seat = table.column("seat").fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    if np.any(seat[codes > 0] < 0):
        raise NotInOrder("a move without a seat")
    seats = int(seat.max()) + 1 if len(seat) else 1
    rounds = max((len(s) for s, _, _ in games.values()), default=0)
    hand, seat_of, fold_in, flags, moves, reached = _line_counts(
        starts,
        seat,
        codes,
        street,
        round_,
        raise_round,
        bet_round,
        max(seats, 1),
        rounds,
        int(street.max()) + 1,
    )
    ids = table.column("hand_id").take(pa.array(starts[hand]))
    lines = {"hand_id": ids, "seat": pa.array(seat_of, pa.int8()),
             "folded_in": pa.array(fold_in, pa.int32(), mask=fold_in == 0)}  # fmt: skip
    lines |= {name: pa.array(flags[:, k], pa.int32()) for k, name in enumerate(CHANCES)}
    lines |= {name: pa.array(moves[:, k], pa.int64()) for k, name in enumerate(MOVES)}
    got = np.flatnonzero(reached)
    hands_reached = {"hand_id": table.column("hand_id").take(pa.array(starts[got])),
                     "second_round": pa.array(reached[got], pa.int32())}  # fmt: skip
    return pa.table(lines), pa.table(hands_reached)


def _codes(actions: pa.ChunkedArray) -> np.ndarray:
    """Each action's code (``ACTION_CODES``; any other action 0)."""
    encoded = pc.dictionary_encode(actions).combine_chunks()
    lookup = np.array([ACTION_CODES.get(a, 0) for a in encoded.dictionary.to_pylist()] + [0], np.int64)
    indices = encoded.indices.fill_null(len(lookup) - 1).to_numpy(zero_copy_only=False)
    return lookup[indices]


def _rounds(table: pa.Table, games: dict[str, tuple[list[str], int, int]]) -> tuple[np.ndarray, ...]:
    """Each action's round, its game's raise and bet rounds (0: none), its street's code (-1: none) and
    whether its game is known."""
    variants = pc.dictionary_encode(table.column("variant")).combine_chunks()
    streets = pc.dictionary_encode(table.column("street")).combine_chunks()
    names, street_names = variants.dictionary.to_pylist(), streets.dictionary.to_pylist()
    of_game = [games.get(v, ([], 0, 0)) for v in names] + [([], 0, 0)]
    per = np.array([[_round(g[0], s) for s in street_names] + [0] for g in of_game], np.int64).reshape(
        len(of_game), len(street_names) + 1
    )
    v = variants.indices.fill_null(len(names)).to_numpy(zero_copy_only=False)
    s = streets.indices.fill_null(len(street_names)).to_numpy(zero_copy_only=False)
    raise_round = np.array([g[1] for g in of_game], np.int64)[v]
    bet_round = np.array([g[2] for g in of_game], np.int64)[v]
    street = np.where(s == len(street_names), -1, s).astype(np.int64)
    known = np.array([v in games for v in names] + [False])[v]
    return per[v, s], raise_round, bet_round, street, known
