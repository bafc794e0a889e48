"""The showdown of any described game: forced discards, the kill, hands, and the shares of each pot.

The readable reference of the rules core: ``engine.compiled.core`` does the same in compiled code,
and tests hold the two equal hand by hand.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.hands.cards import NO_CARD
from engine.hands.low_hands import NO_LOW, evaluate_low
from engine.hands.rankings import RANKINGS
from engine.rules.games.base import (
    GameSpec,
    KillRule,
    SeatOutcome,
    Share,
    ShareKind,
    ShowdownInput,
    ShowdownResult,
)
from engine.rules.pots import split_among_seats, split_chips


def forced_out(hole: list[int] | tuple[int, ...], trigger_cards: list[int] | tuple[int, ...]) -> list[int]:
    """Hole cards whose rank matches a card of the discard-trigger board (unknown cards never match).

    >>> from engine.hands.cards import parse_cards
    >>> forced_out(parse_cards("7c7hAs").tolist(), parse_cards("7d2c").tolist())
    [20, 22]
    """
    ranks = {card >> 2 for card in trigger_cards if card >= 0}
    return [card for card in hole if card >= 0 and card >> 2 in ranks]


def surviving_boards(kill: KillRule | None, last_cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Indices of the boards that survive, from the last card of each board.

    With the lowest-river-rank rule the boards whose last card has the lowest rank die;
    if all ranks are equal, only the board whose last card has the highest suit survives.

    >>> from engine.hands.cards import parse_cards
    >>> from engine.rules.games.base import KillKind
    >>> rule = KillRule(KillKind.LOWEST_RIVER_RANK)
    >>> surviving_boards(rule, parse_cards("2cKd9h").tolist())
    (1, 2)
    >>> surviving_boards(rule, parse_cards("2c2dAh").tolist())
    (2,)
    >>> surviving_boards(rule, parse_cards("7s7c7h").tolist())
    (0,)
    >>> surviving_boards(None, [3, 9])
    (0, 1)
    """
    if kill is None:
        return tuple(range(len(last_cards)))
    ranks = [card >> 2 for card in last_cards]
    if len(set(ranks)) == 1:
        return (max(range(len(last_cards)), key=lambda b: last_cards[b] & 3),)
    lowest = min(ranks)
    return tuple(b for b, rank in enumerate(ranks) if rank > lowest)


def seat_rows(
    seats: list[int], hole_cards: tuple[tuple[int, ...], ...], board: tuple[int, ...] = ()
) -> np.ndarray:
    """One row per seat: its hole cards, then ``board``, padded with ``NO_CARD``.

    >>> seat_rows([0, 2], ((1, 2), (), (3,)), (9,)).tolist()
    [[1, 2, 9], [3, 9, -1]]
    """
    width = max((len(hole_cards[s]) for s in seats), default=0) + len(board)
    rows = np.full((len(seats), width), NO_CARD, dtype=np.int8)
    for row, seat in enumerate(seats):
        cards = (*hole_cards[seat], *board)
        rows[row, : len(cards)] = cards
    return rows


def hand_values(game: GameSpec, options, seats: list[int], hole_cards, board) -> dict[int, int]:
    """Each seat's strength with one board under the game's ranking, hole use and tiebreak."""
    if not seats:
        return {}
    ranking = RANKINGS[game.ranking]
    hole = seat_rows(seats, hole_cards)
    boards = np.tile(np.array(board, dtype=np.int8), (len(seats), 1))
    values = ranking.evaluate(hole, boards, game.hole_use.value(options), game.tiebreak.value(options),
                              game.deck, game.category_places(options))  # fmt: skip
    return dict(zip(seats, values.tolist(), strict=True))


def _best(scores: dict[int, int], seats: list[int], lowest: bool = False) -> list[int]:
    values = [scores[s] for s in seats]
    target = min(values) if lowest else max(values)
    return [s for s in seats if scores[s] == target]


def _award(amount: int, winners: list[int], won: list[int]) -> dict[int, int]:
    shares = split_among_seats(amount, winners)
    for seat, chips in shares.items():
        won[seat] += chips
    return shares


def _share_list(
    game: GameSpec, survivors: tuple[int, ...], claimed: Callable[[Share, int | None], bool]
) -> list[tuple[ShareKind, int | None]]:
    """(kind, board) for each part of a pot, in odd-chip order; board None: any surviving board.

    A part is in the pot only when ``claimed(share, board)``: some claimant qualifies for it.
    """
    parts: list[tuple[ShareKind, int | None]] = []
    only_board = game.community_boards[0] if game.community_boards else None
    for share in game.shares:
        if share.per_surviving_board:
            boards: list[int | None] = list(survivors)
        elif share.across_surviving_boards:
            boards = [None]
        else:
            boards = [only_board if share.board is None else share.board]
        parts.extend((share.kind, board) for board in boards if claimed(share, board))
    return parts


def _claims(least: dict[Share, int], eligible: list[int], high, across, lows) -> Callable:
    """Whether some claimant of ``eligible`` qualifies for a share's part on a board: a best-low share
    when one holds a qualifying low, a best-high share with a qualifier (``least``: the strength it
    asks, ``_least``) when one's hand reaches it."""

    def claimed(share: Share, board: int | None) -> bool:
        if share.kind == ShareKind.BEST_LOW:
            return any(s in lows for s in eligible)
        if share in least:
            scores = across if board is None else high[board]
            return any(scores[s] >= least[share] for s in eligible if s in scores)
        return True

    return claimed


def _least(game: GameSpec, options, share: Share) -> int:
    """The strength a best-high share's qualifier asks for."""
    category, rank = share.least
    return RANKINGS[game.ranking].least_strength(category, rank, game.deck, game.category_places(options))


def low_hands(game: GameSpec, hand: ShowdownInput, seats: list[int], survivors) -> dict[int, int]:
    """Each seat's best qualifying ace-to-five low on a surviving board (seats without one left out)."""
    share = next(s for s in game.shares if s.kind == ShareKind.BEST_LOW)
    hole = seat_rows(seats, hand.hole_cards)
    best: dict[int, int] = {}
    for b in survivors:
        board = np.tile(np.array(hand.boards[b], dtype=np.int8), (len(seats), 1))
        values = evaluate_low(hole, board, game.hole_use.value(hand.options), share.qualifier)
        for seat, value in zip(seats, values.tolist(), strict=True):
            if value != NO_LOW and (seat not in best or value < best[seat]):
                best[seat] = value
    return best


def _part_scores(kind: ShareKind, board: int | None, high, across, low, lows) -> dict[int, int]:
    """The scores of the seats that can win one part (a seat without a qualifying low is absent)."""
    if kind == ShareKind.LOWEST_POINTS:
        return low
    if kind == ShareKind.BEST_LOW:
        return lows
    return across if board is None else high[board]


def settle(game: GameSpec, hand: ShowdownInput) -> ShowdownResult:
    """Divide every pot among its shares, each share to its best hand; ties split a share."""
    game = game.under(hand.options)
    n = len(hand.hole_cards)
    seats = sorted(s for s in hand.contenders if hand.hole_cards[s])
    community = game.community_boards
    if game.kill is None:
        survivors = tuple(range(len(game.boards)))
    else:
        lasts = [hand.boards[b][-1] for b in community]
        survivors = tuple(community[i] for i in surviving_boards(game.kill, lasts))
    live_boards = tuple(b for b in survivors if b in community)
    high = {b: hand_values(game, hand.options, seats, hand.hole_cards, hand.boards[b]) for b in community}
    across = {s: max(high[b][s] for b in live_boards) for s in seats}  # the best hand on a surviving board
    holding = set(seats)
    low = {}
    low_share = next((s for s in game.shares if s.kind == ShareKind.LOWEST_POINTS), None)
    if low_share is not None:
        low = {s: sum(low_share.points[c >> 2] for c in hand.hole_cards[s]) for s in seats}
    lows = low_hands(game, hand, seats, live_boards) if game.low_hands and seats else {}
    least = {share: _least(game, hand.options, share) for share in game.shares if share.least}
    won, won_high, won_low = [0] * n, [0] * n, [0] * n
    board_won = [[0] * len(game.boards) for _ in range(n)]
    split = False
    for pot in hand.pots:
        eligible = list(pot.eligible)  # the pot's claimants (engine.rules.pots.claimants)
        if holding.isdisjoint(eligible):
            _award(pot.amount, eligible, won)  # no claimant holds a hand: they share it, on no board
            continue
        parts = _share_list(game, live_boards, _claims(least, eligible, high, across, lows))
        if not parts and game.unqualified == "best-high":  # its high shares, their qualifiers waived
            parts = _share_list(game, live_boards, lambda share, _: share.kind == ShareKind.BEST_HIGH)
        if not parts:  # no share qualified: the claimants holding hands split it, as high chips
            winners = [s for s in eligible if s in holding]
            split |= len(winners) > 1
            for seat, chips in _award(pot.amount, winners, won).items():
                won_high[seat] += chips
            continue
        amounts = split_chips(pot.amount, list(range(len(parts))))
        for (kind, board), amount in zip(parts, amounts, strict=True):
            low_part = kind != ShareKind.BEST_HIGH
            scores = _part_scores(kind, board, high, across, low, lows)
            live = [s for s in eligible if s in scores]
            winners = _best(scores, live, lowest=low_part)
            split |= len(winners) > 1
            for seat, chips in _award(amount, winners, won).items():
                (won_low if low_part else won_high)[seat] += chips
                if game.board_shares and board is not None:
                    board_won[seat][board] += chips
    outcomes = _outcomes(game, hand, high, low, lows, survivors, won_high, won_low, board_won)
    return ShowdownResult(tuple(won), outcomes, survivors, split)


def _outcomes(
    game, hand, high, low, lows, survivors, won_high, won_low, board_won
) -> tuple[SeatOutcome, ...]:
    """Each seat's hand (its best on a surviving board), low points or low hand, and share winnings."""
    ranking = RANKINGS[game.ranking]
    n = len(hand.hole_cards)
    shown = [b for b in survivors if b in high]
    sole = _sole_best_everywhere(high, hand.contenders) if game.board_shares else None
    outcomes = []
    for seat in range(n):
        facts: dict = {}
        if game.low_share or game.low_hands:
            facts |= {"won_high": won_high[seat], "won_low": won_low[seat]}
        if game.board_shares:
            facts["board_won"] = tuple(board_won[seat])
        if shown and seat in high[shown[0]]:
            best = max(high[b][seat] for b in shown)
            facts |= {"high_category": ranking.category_name(best), "high_strength": best}
            if game.low_share:
                facts["low_points"] = low[seat]
            if game.low_hands:
                facts["low_hand"] = lows.get(seat, NO_LOW)
            facts["triple_scoop"] = sole == seat
        outcomes.append(SeatOutcome(**facts))
    return tuple(outcomes)


def _sole_best_everywhere(high: dict[int, dict[int, int]], contenders) -> int | None:
    """The one contender alone holding the best hand on every board, killed ones included."""
    live = sorted(contenders)
    if len(live) < 2 or any(not all(s in scores for s in live) for scores in high.values()):
        return None
    bests = [_best(scores, live) for scores in high.values()]
    if all(len(best) == 1 for best in bests) and len({best[0] for best in bests}) == 1:
        return bests[0][0]
    return None
