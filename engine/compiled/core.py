"""The compiled rules core: a described game as codes and arrays, and the numba functions that read them.

``compile_rules`` turns a ``GameSpec`` and its options into ``Rules``, the one named structure
every compiled path takes (showdown-mode simulation, betting-mode settlement,
compiled replay). The functions here are the rules themselves: evaluate a seat's hand
under the ranking and hole-card use, kill boards, and divide one pot among its shares.
No function here names a game; ``engine.rules.games.showdown`` is the readable reference.

>>> from engine.rules.games import get_game
>>> rules = compile_rules(get_game("scarney"), {"must_use_hole_card": True})
>>> rules.hole_use == AT_LEAST_ONE, rules.discard_board, rules.share_kind.tolist()
(True, 1, [0, 1])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from engine.hands.kernels import card_bit, key_strength
from engine.hands.low_hands import best_low_any, best_low_exactly_two, qualifying_ranks
from engine.hands.low_kernel import bit_count
from engine.hands.rankings import RANKINGS
from engine.rules.games.base import GameSpec, HoleUse, ShareKind, hole_range

HOLE_ANY, AT_LEAST_ONE, EXACTLY_TWO = 0, 1, 2
HOLE_USES = {HoleUse.ANY: HOLE_ANY, HoleUse.AT_LEAST_ONE: AT_LEAST_ONE, HoleUse.EXACTLY_TWO: EXACTLY_TWO}
HOLE_RANGE = 16  # any other use: HOLE_RANGE + 8 * fewest + most hole cards of the five (``hole_use_code``)


def hole_use_code(use: str) -> int:
    """The compiled code of a ``hole_use`` value.

    >>> hole_use_code("any"), hole_use_code("exactly-2"), hole_use_code("at-most-2")
    (0, 2, 18)
    """
    if use in HOLE_USES:
        return HOLE_USES[HoleUse(use)]
    fewest, most = hole_range(use)
    return HOLE_RANGE + 8 * fewest + most


KILL_NONE, KILL_LOWEST_RIVER = 0, 1
SHARE_HIGH, SHARE_POINTS, SHARE_LOW = 0, 1, 2
EACH_SURVIVING_BOARD = -1  # share_board of a share that stands for one per surviving board
ANY_SURVIVING_BOARD = -2  # share_board of a share to the best hand on any surviving board
SHARE_KINDS = {
    ShareKind.BEST_HIGH: SHARE_HIGH,
    ShareKind.LOWEST_POINTS: SHARE_POINTS,
    ShareKind.BEST_LOW: SHARE_LOW,
}
NO_VALUE = -1
MAX_BOARDS = 3  # boards a game may deal


class Rules(NamedTuple):
    """A game under its options, as the compiled core reads it (one structure every kernel takes)."""

    ranking: int
    kickers: bool
    hole_use: int
    kill: int
    discard_board: int  # -1: none
    community: np.ndarray  # (boards,) bool: the board makes hands
    share_kind: np.ndarray  # (shares,) SHARE_HIGH, SHARE_POINTS or SHARE_LOW
    share_board: np.ndarray  # (shares,) board index, EACH_SURVIVING_BOARD or ANY_SURVIVING_BOARD
    points: np.ndarray  # (ranks,) low points of each rank
    tables: tuple
    board_shares: bool  # boards take shares of their own: per-board chips and the triple scoop
    low_share: bool  # some share goes to the fewest low points
    one_share: bool  # the whole pot is one high share on one board (its best hand takes it)
    low_hands: bool  # some share goes to the best ace-to-five low
    low_allowed: int  # the ace-to-five rank mask a low may hold (engine.hands.low_hands.qualifying_ranks)
    share_least: np.ndarray  # (shares,) a best-high share's qualifier, the least strength (-1: none)
    unqualified_split: bool  # no part of a pot qualified: its claimants split it (else: high, unqualified)


class PotWinnings(NamedTuple):
    """Where ``divide_pot`` adds one hand's chips: each seat's total, its high and low parts (a game
    with a low half), and its chips per board (a game whose boards take shares)."""

    won: np.ndarray  # (seats,)
    won_high: np.ndarray  # (seats,)
    won_low: np.ndarray  # (seats,)
    board_won: np.ndarray  # (seats, boards)


class SeatScratch(NamedTuple):
    """Room the pot functions work in, one value per seat: winners marked, chips paid, scores."""

    winners: np.ndarray  # (seats,) bool
    paid: np.ndarray  # (seats,) int64
    scores: np.ndarray  # (seats,) int64


def compile_rules(game: GameSpec, options: Mapping[str, Any]) -> Rules:
    """The codes and arrays of ``game`` under ``options`` (defaults filled in)."""
    options = game.resolve_options(options)
    game = game.under(options)
    ranking = RANKINGS[game.ranking]
    places = game.category_places(options)
    only = game.community_boards[0]
    kinds, boards, points = [], [], np.zeros(len(game.deck.ranks), np.int64)
    low_allowed = 0
    least = []
    for share in game.shares:
        least.append(-1 if not share.least else ranking.least_strength(*share.least, game.deck, places))
        kinds.append(SHARE_KINDS[share.kind])
        boards.append(
            EACH_SURVIVING_BOARD if share.per_surviving_board
            else ANY_SURVIVING_BOARD if share.across_surviving_boards
            else only if share.board is None
            else share.board
        )  # fmt: skip
        if share.points:
            points = np.array(share.points, np.int64)
        if share.kind == ShareKind.BEST_LOW:
            low_allowed = qualifying_ranks(share.qualifier)
    return Rules(
        ranking=ranking.code,
        kickers=game.tiebreak.value(options) == "kickers",
        hole_use=hole_use_code(game.hole_use.value(options)),
        kill=KILL_NONE if game.kill is None else KILL_LOWEST_RIVER,
        discard_board=-1 if game.discard_board is None else game.discard_board,
        community=np.array([i in game.community_boards for i in range(len(game.boards))], np.bool_),
        share_kind=np.array(kinds, np.int64),
        share_board=np.array(boards, np.int64),
        points=points,
        tables=ranking.tables(game.deck, places),
        board_shares=game.board_shares,
        low_share=game.low_share,
        one_share=kinds == [SHARE_HIGH] and boards[0] >= 0 and least == [-1],  # (a qualifier: divide_pot)
        low_hands=game.low_hands,
        low_allowed=low_allowed,
        share_least=np.array(least, np.int64),
        unqualified_split=game.unqualified == "split",
    )


@njit(cache=True)
def strengths_with_hole_card(hole_keys, hole_counts, alive, board_key, boards, b, n_board, ranking, kickers,
                             tables, out) -> None:  # fmt: skip
    """``board_strengths`` under ``AT_LEAST_ONE``: each hand holds at most four board cards.

    With four board cards or fewer every hand of the seven holds a hole card; with more, the
    search runs over the board's four-card subsets.
    """
    for s in range(alive.shape[0]):
        out[b, s] = NO_VALUE
        if not alive[s] or hole_counts[s] == 0 or hole_counts[s] + min(n_board, 4) < 5:
            continue
        if n_board <= 4:
            out[b, s] = key_strength(hole_keys[s] | board_key, ranking, kickers, tables)
            continue
        for i in range(n_board):
            for j in range(i + 1, n_board):
                for k in range(j + 1, n_board):
                    for m in range(k + 1, n_board):
                        key = hole_keys[s] | card_bit(boards[b, i]) | card_bit(boards[b, j])
                        key |= card_bit(boards[b, k]) | card_bit(boards[b, m])
                        out[b, s] = max(out[b, s], key_strength(key, ranking, kickers, tables))


@njit(cache=True)
def strengths_with_two_hole_cards(
    hole_keys, hole_counts, alive, boards, b, n_board, ranking, kickers, tables, out
) -> None:
    """``out[b, s]`` under ``EXACTLY_TWO``: the best hand of exactly two hole cards and three of board b's.

    A seat with fewer than two hole cards, or a board with fewer than three cards, makes no hand.
    """
    for s in range(alive.shape[0]):
        out[b, s] = NO_VALUE
        if not alive[s] or hole_counts[s] < 2 or n_board < 3:
            continue
        first_cards = hole_keys[s]
        while first_cards:  # every pair of the seat's hole cards, as single-bit keys
            first = first_cards & -first_cards
            first_cards ^= first
            second_cards = first_cards
            while second_cards:
                second = second_cards & -second_cards
                second_cards ^= second
                pair = first | second
                for x in range(n_board):
                    for y in range(x + 1, n_board):
                        for z in range(y + 1, n_board):
                            key = (
                                pair
                                | card_bit(boards[b, x])
                                | card_bit(boards[b, y])
                                | card_bit(boards[b, z])
                            )
                            out[b, s] = max(out[b, s], key_strength(key, ranking, kickers, tables))


@njit(cache=True)
def strengths_in_range(hole_use, hole_keys, alive, boards, b, n_board, ranking, kickers, tables, out) -> None:
    """``out[b, s]`` under a ``HOLE_RANGE`` code: the best five cards of k hole cards and 5 - k of
    board b's, k from the fewest to the most the code says (``NO_VALUE``: no such five)."""
    fewest, most = ((hole_use - HOLE_RANGE) >> 3) & 7, (hole_use - HOLE_RANGE) & 7
    for s in range(alive.shape[0]):
        out[b, s] = NO_VALUE
        if not alive[s]:
            continue
        held = hole_keys[s]
        key = held
        while True:  # every subset of the seat's hole cards (one key bit each), the whole first
            k = bit_count(key)
            if fewest <= k <= most and k <= 5 and 5 - k <= n_board:
                for shown in range(1 << n_board):
                    n_shown, five = 0, key
                    for j in range(n_board):
                        if shown >> j & 1:
                            n_shown += 1
                            five |= card_bit(boards[b, j])
                    if n_shown == 5 - k:
                        out[b, s] = max(out[b, s], key_strength(five, ranking, kickers, tables))
            if key == 0:
                break
            key = (key - 1) & held


@njit(cache=True)
def restricted_strengths(
    hole_use, hole_keys, hole_counts, alive, board_key, boards, b, n_board, ranking, kickers, tables, out
) -> None:
    """``out[b, s]`` for every seat under a hole-card rule other than ``HOLE_ANY``."""
    if hole_use == EXACTLY_TWO:
        strengths_with_two_hole_cards(
            hole_keys, hole_counts, alive, boards, b, n_board, ranking, kickers, tables, out
        )
    elif hole_use >= HOLE_RANGE:
        strengths_in_range(hole_use, hole_keys, alive, boards, b, n_board, ranking, kickers, tables, out)
    else:
        strengths_with_hole_card(
            hole_keys, hole_counts, alive, board_key, boards, b, n_board, ranking, kickers, tables, out
        )


@njit(cache=True)
def one_seat_restricted(
    hole_use, hole_key, n_hole, board_key, boards, b, n_board, ranking, kickers, tables
) -> int:
    """``restricted_strengths`` for one seat."""
    out = np.empty((b + 1, 1), np.int64)
    keys, counts, seat = np.full(1, hole_key), np.full(1, n_hole), np.ones(1, np.bool_)
    restricted_strengths(
        hole_use, keys, counts, seat, board_key, boards, b, n_board, ranking, kickers, tables, out
    )
    return out[b, 0]


@njit(cache=True)
def seat_lows(hole_keys, alive, board_keys, board_alive, rules, out) -> None:
    """``out[s]``: seat s's best qualifying ace-to-five low on any surviving community board
    (``NO_VALUE``: none), under the game's hole-card use (any five cards, or exactly two hole
    cards and three board cards)."""
    community, exactly_two, allowed = rules.community, rules.hole_use == EXACTLY_TWO, rules.low_allowed
    for s in range(alive.shape[0]):
        out[s] = NO_VALUE
        if not alive[s]:
            continue
        for b in range(board_alive.shape[0]):
            if not (board_alive[b] and community[b]):
                continue
            if exactly_two:
                value = best_low_exactly_two(hole_keys[s], board_keys[b], allowed)
            else:
                value = best_low_any(hole_keys[s] | board_keys[b], allowed)
            if value >= 0 and (out[s] < 0 or value < out[s]):
                out[s] = value


@njit(cache=True, inline="always")
def seat_strength(hole_key, n_hole, board_key, boards, b, n_board, rules) -> int:
    """A seat's best hand from its hole cards (a key) and the first ``n_board`` cards of board ``b``.

    ``boards`` holds the hand's boards, one per row; ``board_key`` is the key of board ``b``'s
    cards. Any hole cards: the best five of them all; ``AT_LEAST_ONE``: see
    ``strengths_with_hole_card``; ``EXACTLY_TWO``: ``strengths_with_two_hole_cards``. (The
    kernels that evaluate many seats test ``hole_use == HOLE_ANY`` once per board around an
    inlined ``key_strength`` loop and call ``restricted_strengths`` otherwise: in numba, that
    keeps the common loop fastest.)
    """
    if rules.hole_use == HOLE_ANY:  # (no early return: inlined, one costs the caller's loop its speed)
        value = key_strength(hole_key | board_key, rules.ranking, rules.kickers, rules.tables)
    else:
        value = one_seat_restricted(
            rules.hole_use,
            hole_key,
            n_hole,
            board_key,
            boards,
            b,
            n_board,
            rules.ranking,
            rules.kickers,
            rules.tables,
        )
    return value


@njit(cache=True)
def surviving(rules, last_cards, alive) -> int:
    """``surviving_of`` under ``rules``."""
    return surviving_of(rules.kill, rules.community, last_cards, alive)


@njit(cache=True)
def surviving_of(kill, community, last_cards, alive) -> int:
    """Mark the boards that survive (``last_cards[b]``: board b's last card); returns how many.

    Boards that make no hands always survive. Under the lowest-river-rank kill, the community
    boards whose last card has the lowest rank die; all of one rank: the highest suit lives.
    """
    n = alive.shape[0]
    lowest, highest, same = 99, -1, True
    first_rank = -1
    for b in range(n):
        alive[b] = True
        if kill == KILL_NONE or not community[b]:
            continue
        rank = last_cards[b] >> 2
        if first_rank < 0:
            first_rank = rank
        same = same and rank == first_rank
        lowest = min(lowest, rank)
        if highest < 0 or (last_cards[b] & 3) > (last_cards[highest] & 3):
            highest = b
    count = 0
    for b in range(n):
        if kill != KILL_NONE and community[b]:
            alive[b] = b == highest if same else (last_cards[b] >> 2) > lowest
        count += alive[b]
    return count


@njit(cache=True)
def count_parts(rules, alive, low_claimed, among, high, low, scratch, waived) -> int:
    """How many parts a pot splits into: one per share, a per-board share once per surviving board,
    a best-low share only when some claimant holds a qualifying low (``low_claimed``), a best-high
    share with a qualifier only where some seat of ``among`` reaches it (unless ``waived``)."""
    community, share_board = rules.community, rules.share_board
    parts = 0
    for k in range(share_board.shape[0]):
        board = share_board[k]
        if board != EACH_SURVIVING_BOARD:
            parts += part_claimed(rules, k, board, among, high, low, alive, scratch, low_claimed, waived)
            continue
        for b in range(alive.shape[0]):
            if alive[b] and community[b]:
                parts += part_claimed(rules, k, b, among, high, low, alive, scratch, low_claimed, waived)
    return parts


@njit(cache=True)
def part_claimed(rules, k, board, among, high, low, alive, scratch, low_claimed, waived) -> bool:
    """Whether share k's part on ``board`` is in the pot (``count_parts``)."""
    kind = rules.share_kind[k]
    if kind == SHARE_LOW:
        return low_claimed
    if kind != SHARE_HIGH or rules.share_least[k] < 0 or waived:
        return True
    scores = part_scores(kind, board, high, low, alive, rules.community, scratch.scores)
    reached = False  # (numba compiles no generator for any())
    for s in range(among.shape[0]):
        reached = reached or (among[s] and scores[s] >= rules.share_least[k])
    return reached


@njit(cache=True, inline="always")
def part_scores(kind, board, high, low, alive, community, scratch):
    """The scores one part of a pot is won by (``scratch`` holds them when they must be worked out):
    a board's hands, the best hand on any surviving board, low points, or qualifying lows
    (seats without one score past every low)."""
    if kind == SHARE_HIGH and board != ANY_SURVIVING_BOARD:  # the common case first
        scores = high[board]
    elif kind == SHARE_POINTS:
        scores = low
    elif kind == SHARE_LOW:
        for s in range(scratch.shape[0]):
            scratch[s] = low[s] if low[s] >= 0 else np.int64(1 << 62)
        scores = scratch
    else:  # the best hand on any surviving board
        for s in range(scratch.shape[0]):
            scratch[s] = NO_VALUE
            for b in range(alive.shape[0]):
                if alive[b] and community[b]:
                    scratch[s] = max(scratch[s], high[b, s])
        scores = scratch
    return scores


@njit(cache=True, inline="always")
def board_key_of(board, n_board) -> int:
    """The key of a board's first ``n_board`` cards."""
    key = np.int64(0)
    for j in range(n_board):
        key |= card_bit(board[j])
    return key


@njit(cache=True, inline="always")
def share_out(amount, winners, paid) -> None:
    """``paid[s]``: seat s's share of ``amount`` split among ``winners`` (a seat mask), odd chips from
    seat 0 (``engine.rules.pots.split_among_seats``); 0 for the other seats."""
    count = 0
    for s in range(winners.shape[0]):
        count += winners[s]
    share = amount // count
    odd = amount - share * count
    k = 0
    for s in range(winners.shape[0]):
        paid[s] = 0
        if winners[s]:
            paid[s] = share + (1 if k < odd else 0)
            k += 1


@njit(cache=True, inline="always")
def award(amount, winners, won, paid) -> None:
    """``share_out`` and add the shares to ``won``."""
    share_out(amount, winners, paid)
    for s in range(winners.shape[0]):
        won[s] += paid[s]


@njit(cache=True, inline="always")
def best_score(scores, among, lowest) -> tuple[int, int, int]:
    """One pass over the seats of ``among``: the best score, how many hold it, and the last of them."""
    target = NO_VALUE
    count = 0
    seat = -1
    for s in range(among.shape[0]):
        if not among[s]:
            continue
        if count == 0 or (scores[s] < target if lowest else scores[s] > target):
            target, count, seat = scores[s], 1, s
        elif scores[s] == target:
            count += 1
            seat = s
    return target, count, seat


@njit(cache=True, inline="always")
def mark_best(scores, among, target, winners) -> None:
    """Mark in ``winners`` the seats of ``among`` whose score is ``target``."""
    for s in range(among.shape[0]):
        winners[s] = among[s] and scores[s] == target


@njit(cache=True, inline="always")
def best_seats(scores, among, lowest, winners) -> tuple[int, int]:
    """``best_of`` that also returns the last seat marked (the winner, when there is one)."""
    target, count, seat = best_score(scores, among, lowest)
    mark_best(scores, among, target, winners)
    return count, seat


@njit(cache=True, inline="always")
def best_of(scores, among, lowest, winners) -> int:
    """Mark in ``winners`` the seats of ``among`` with the best score; returns how many."""
    return best_seats(scores, among, lowest, winners)[0]


@njit(cache=True, inline="always")
def one_share_pot(amount, among, scores, won, winners, paid) -> int:
    """``divide_pot`` of a pot that is one high share (``Rules.one_share``): the best of ``scores``
    among the seats ``among`` takes it, tied hands split it; returns 2 for one winner, else 1.

    ``divide_pot`` gives the same result; the showdown-mode loop calls this one when
    ``one_share`` holds, a third faster per hand there. (It tests ``one_share`` itself: in numba,
    that test inside an inlined function costs the caller's loop the gain.) The loops have no
    branches on the scores: which seat is best is a coin toss to a branch predictor.
    """
    best = np.int64(NO_VALUE)
    for s in range(among.shape[0]):
        best = max(best, scores[s] if among[s] else np.int64(NO_VALUE))
    count = 0
    for s in range(among.shape[0]):
        winners[s] = among[s] & (scores[s] == best)
        count += winners[s]
    award(amount, winners, won, paid)
    return 2 if count == 1 else 1


@njit(cache=True, inline="always")
def _credit(chips, seat, low_part, on_board, b, halves, into) -> None:
    """Add one part's ``chips`` to ``seat``: its total, its high or low half, its board's chips."""
    into.won[seat] += chips
    if low_part:
        into.won_low[seat] += chips
    elif halves:
        into.won_high[seat] += chips
    if on_board:
        into.board_won[seat, b] += chips


@njit(cache=True)
def _split_unqualified(amount, among, halves, into, scratch) -> int:
    """The pot split among ``among`` (no share qualified), as high chips: 1 if split, 2 if one seat
    took it."""
    count = 0
    for s in range(among.shape[0]):
        scratch.winners[s] = among[s]
        count += among[s]
    share_out(amount, scratch.winners, scratch.paid)
    for s in range(among.shape[0]):
        if scratch.winners[s]:
            _credit(scratch.paid[s], s, False, False, 0, halves, into)
    return 1 if count > 1 else 2


@njit(cache=True, inline="always")
def _low_claimed(rules, among, low) -> bool:
    """Whether a best-low share is a part of this pot: some seat of ``among`` holds a qualifying low."""
    claimed = False
    if rules.low_hands:
        for s in range(among.shape[0]):
            claimed = claimed or (among[s] and low[s] >= 0)
    return claimed


@njit(cache=True)
def divide_pot(amount, among, high, low, alive, rules, into, scratch) -> int:
    """Divide one pot among its shares, each to the best of the seats ``among`` (all holding hands).

    ``into`` is a ``PotWinnings`` (``won_high``/``won_low`` get the high and low parts in a game
    with a low half, ``board_won`` each board's part where boards take shares); ``scratch`` a
    ``SeatScratch``. Parts are equal, odd chips to the parts in order (shares in order, a
    per-board share's boards in board order). ``high[b, s]`` is seat s's hand on board b,
    ``low[s]`` its points or its best qualifying low (``NO_VALUE``: none).
    Returns 1 if some part was split among tied hands, 2 if one seat won
    every part alone (a scoop of this pot), 0 otherwise.
    """
    community, share_kind, share_board = rules.community, rules.share_kind, rules.share_board
    halves = rules.low_share or rules.low_hands
    low_claimed = _low_claimed(rules, among, low)
    n_parts = count_parts(rules, alive, low_claimed, among, high, low, scratch, False)
    waived = n_parts == 0 and not rules.unqualified_split  # the high shares, their qualifiers waived
    if waived:
        n_parts = count_parts(rules, alive, low_claimed, among, high, low, scratch, True)
    if n_parts == 0:  # no share qualified: the claimants holding hands split the pot
        return _split_unqualified(amount, among, halves, into, scratch)
    base = amount // n_parts
    odd = amount - base * n_parts
    part = 0
    split = False
    sole = -1
    for k in range(share_kind.shape[0]):
        across = share_board[k] == ANY_SURVIVING_BOARD
        each = share_board[k] == EACH_SURVIVING_BOARD
        first, last = (
            (0, alive.shape[0]) if each else (0, 1) if across else (share_board[k], share_board[k] + 1)
        )
        low_part = share_kind[k] != SHARE_HIGH
        on_board = rules.board_shares and not low_part and not across
        for b in range(first, last):
            if each and not (alive[b] and community[b]):
                continue
            board = ANY_SURVIVING_BOARD if across else b
            if not part_claimed(rules, k, board, among, high, low, alive, scratch, low_claimed, waived):
                continue
            chips = base + (1 if part < odd else 0)
            part += 1
            scores = part_scores(share_kind[k], board, high, low, alive, community, scratch.scores)
            target, count, seat = best_score(scores, among, low_part)
            if count == 1:  # one winner: no split to work out
                _credit(chips, seat, low_part, on_board, b, halves, into)
                sole = seat if sole in (-1, seat) else -2
                continue
            split = True
            sole = -2
            mark_best(scores, among, target, scratch.winners)
            share_out(chips, scratch.winners, scratch.paid)
            for s in range(among.shape[0]):
                if scratch.winners[s]:
                    _credit(scratch.paid[s], s, low_part, on_board, b, halves, into)
    return 1 if split else (2 if sole >= 0 else 0)
