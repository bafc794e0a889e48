"""A hand read by ``stars_lines`` written as the PHH text ``phh.write_hand`` writes of the Python
reader's fields (``to_phh.phh_fields``): the fields in ``phh.FIELD_ORDER``, then by name; numbers
as TOML writes ``to_phh.number`` (an int, or the float whose shortest text is the decimal), bets
as ``to_phh._text``; strings between double quotes (``stars_lines`` let through only names that
need no escape). The pieces every hand of a kind of header shares come written by Python
(``stars_headers``); a number no float writes as its decimal makes the hand the Python reader's.
"""

from __future__ import annotations

from numba import njit

from ingest.histories.sites.stars_bytes import DECIMALS, UNIT, literal
from ingest.histories.sites.stars_checks import bet_after
from ingest.histories.sites.stars_hand import (
    FOLD,
    H_BIG_POSTED,
    H_BOARD,
    H_DEALT,
    H_FEES,
    H_HOLE,
    H_MOVES,
    H_SEAT_COUNT,
    H_SHOWS,
    H_STREET,
    H_TABLE_A,
    H_TABLE_B,
    M_SEAT,
    M_STREET,
    M_UNITS,
    M_VERB,
    RAISE,
    S_ANTE,
    S_BLIND,
    S_BOUNTY_D,
    S_BOUNTY_M,
    S_COLLECTED,
    S_FOLDED,
    S_KNOWN,
    S_NAME_A,
    S_NAME_B,
    S_NUMBER,
    S_PLACE,
    S_STACK,
    S_STREET_BET,
)

# the pieces of a kind of header (``stars_headers.PARTS``): its variant, its bets (``min_bet`` or the
# fixed-limit bets), its ``_`` fields before ``_bounties``, before ``_fees``, before ``_hand_id`` and
# after it, its currency, its venue
P_VARIANT, P_BETS, P_BEFORE_BOUNTIES, P_BEFORE_FEES, P_BEFORE_ID, P_AFTER_ID, P_CURRENCY, P_VENUE = range(8)
PARTS = 8
MOST_SIGNIFICANT = 15  # digits of a decimal whose float's shortest text it is


@njit(cache=True)
def put(out, n, src, a, b) -> int:
    """``src[a:b]`` into ``out`` from n; where it ends."""
    for i in range(a, b):
        out[n] = src[i]
        n += 1
    return n


@njit(cache=True)
def put_lit(out, n, lit) -> int:
    for i in range(len(lit)):
        out[n + i] = lit[i]
    return n + len(lit)


@njit(cache=True)
def put_int(out, n, value) -> int:
    """A whole number at least 0 in decimal digits."""
    digits, scale = 1, 10
    while scale <= value:
        digits, scale = digits + 1, scale * 10
    for k in range(digits - 1, -1, -1):
        out[n + k] = 48 + value % 10
        value //= 10
    return n + digits


@njit(cache=True)
def _put_fraction(out, n, digits, places) -> int:
    """``digits`` as ``places`` decimal digits (leading zeros kept)."""
    for k in range(places - 1, -1, -1):
        out[n + k] = 48 + digits % 10
        digits //= 10
    return n + places


@njit(cache=True)
def put_units(out, n, units, number) -> int:
    """An amount in units as its normalized decimal (``to_phh._text``); with ``number``, as TOML
    writes ``to_phh.number`` of it, -1 when that float's shortest text is not the decimal (more than
    15 significant digits, or below 0.0001: an exponent)."""
    whole_part, fraction = units // UNIT, units % UNIT
    if fraction == 0:
        return put_int(out, n, whole_part)
    places = DECIMALS
    while fraction % 10 == 0:
        fraction //= 10
        places -= 1
    if number:
        significant, rest = 0, units // 10 ** (DECIMALS - places)
        while rest > 0:
            significant, rest = significant + 1, rest // 10
        if significant > MOST_SIGNIFICANT or units < UNIT // 10_000:
            return -1
    n = put_int(out, n, whole_part)
    out[n] = 46
    return _put_fraction(out, n + 1, fraction, places)


@njit(cache=True)
def put_exact(out, n, mantissa, decimals) -> int:
    """An amount as written, its decimals kept (``format(Decimal, "f")``: a bounty's text)."""
    scale = 10**decimals
    n = put_int(out, n, mantissa // scale)
    if decimals == 0:
        return n
    out[n] = 46
    return _put_fraction(out, n + 1, mantissa % scale, decimals)


@njit(cache=True)
def part(tables, info, k, out, n) -> int:
    """Piece k of a kind of header's PHH text (``stars_headers``)."""
    return put(out, n, tables.text, tables.parts[info, k, 0], tables.parts[info, k, 1])


@njit(cache=True)
def _numbers(out, n, lit, w, row, reverse) -> int:
    """``name = [a, b, ...]`` of a seat row's amounts, dealt seats in order (heads-up reversed)."""
    n = put_lit(out, n, lit)
    dealt = w.hand[H_DEALT]
    for k in range(dealt):
        if k:
            n = put_lit(out, n, _COMMA)
        place = dealt - 1 - k if reverse and dealt == 2 else k
        n = put_units(out, n, w.seat[row, w.order[place]], True)
        if n < 0:
            return -1
    return put_lit(out, n, _CLOSE_LINE)


_COMMA, _CLOSE_LINE, _QUOTE = literal(", "), literal("]\n"), literal('"')
_ANTES, _BLINDS, _STACKS = literal("antes = ["), literal("blinds_or_straddles = ["), \
    literal("starting_stacks = [")  # fmt: skip
_MIN_BET = literal("min_bet = ")


@njit(cache=True)
def write_head(tables, info, w, out, n) -> int:
    """The fields before the actions (``phh.FIELD_ORDER``); -1 when a number cannot be written."""
    n = part(tables, info, P_VARIANT, out, n)
    n = _numbers(out, n, _ANTES, w, S_ANTE, True)
    if n >= 0:
        n = _numbers(out, n, _BLINDS, w, S_BLIND, True)
    if n >= 0 and tables.info[info, 2] and w.hand[H_BIG_POSTED] >= 0:
        n = put_lit(out, n, _MIN_BET)  # ``to_phh.phh_fields``: the big blind as posted
        n = put_units(out, n, w.hand[H_BIG_POSTED], True)
        n = put_lit(out, n, _NEWLINE) if n >= 0 else -1
    elif n >= 0:
        n = part(tables, info, P_BETS, out, n)
    if n >= 0:
        n = _numbers(out, n, _STACKS, w, S_STACK, False)
    return n


_ACTIONS, _ACTION, _ACTION_END = literal("actions = [\n"), literal('  "'), literal('",\n')
_DH, _DB, _FOLD, _CC, _CBR, _SM = literal("d dh p"), literal("d db "), literal(" f"), literal(" cc"), \
    literal(" cbr "), literal(" sm")  # fmt: skip


@njit(cache=True)
def _board(out, n, w, street) -> int:
    n = put_lit(out, n, _ACTION)
    n = put_lit(out, n, _DB)
    n = put(out, n, w.board[street], 0, w.hand[H_BOARD + street])
    return put_lit(out, n, _ACTION_END)


@njit(cache=True)
def write_actions(w, out, n) -> int:
    """``actions = [...]``: the hole cards dealt, then the moves with each street's board before its
    first, the boards left, and at a showdown each show or muck of a player still in
    (``to_phh._actions``)."""
    n = put_lit(out, n, _ACTIONS)
    dealt = w.hand[H_DEALT]
    for k in range(dealt):
        s = w.order[k]
        n = put_lit(out, n, _ACTION)
        n = put_lit(out, n, _DH)
        n = put_int(out, n, k + 1)
        out[n] = 32
        n += 1
        if w.seat[S_KNOWN, s] > 0:
            n = put(out, n, w.known[s], 0, w.seat[S_KNOWN, s])
        else:
            for _ in range(w.hand[H_HOLE]):
                out[n], out[n + 1] = 63, 63
                n += 2
        n = put_lit(out, n, _ACTION_END)
    street = 0
    w.seat[S_STREET_BET] = w.seat[S_BLIND]  # ``to_phh._forced_bets``
    for m in range(w.hand[H_MOVES]):
        while street < w.move[M_STREET, m]:
            street += 1
            w.seat[S_STREET_BET] = 0
            n = _board(out, n, w, street)
        n = _move(w, m, out, n)
    while street < w.hand[H_STREET]:
        street += 1
        n = _board(out, n, w, street)
    n = _showdown(w, out, n)
    return put_lit(out, n, _CLOSE_LINE)


@njit(cache=True)
def _move(w, m, out, n) -> int:
    """Move m: ``pN f``, ``pN cc``, or ``pN cbr X``, which a call is too where it puts in more than
    every bet before the flop, all short of the big blind (``site_hand.bet_after``: a short blind's);
    the street's bets kept."""
    s, verb, units = w.move[M_SEAT, m], w.move[M_VERB, m], w.move[M_UNITS, m]
    n = put_lit(out, n, _ACTION)
    out[n] = 112
    n = put_int(out, n + 1, w.seat[S_PLACE, s] + 1)
    above = bet_after(w, s, verb, units, w.move[M_STREET, m])
    if verb == RAISE or above >= 0:
        n = put_lit(out, n, _CBR)
        n = put_units(out, n, units if above < 0 else above, False)
    else:
        n = put_lit(out, n, _FOLD if verb == FOLD else _CC)
    return put_lit(out, n, _ACTION_END)


@njit(cache=True)
def _showdown(w, out, n) -> int:
    """``pN sm CARDS`` (or ``pN sm``: a muck) of each show by a dealt player who did not fold, when
    more than one did not."""
    dealt, live = w.hand[H_DEALT], 0
    for k in range(dealt):
        live += not w.seat[S_FOLDED, w.order[k]]
    if live < 2:
        return n
    for k in range(w.hand[H_SHOWS]):
        s, size = w.show[0, k], w.show[1, k]
        if w.seat[S_PLACE, s] < 0 or w.seat[S_FOLDED, s]:
            continue
        n = put_lit(out, n, _ACTION)
        out[n] = 112
        n = put_int(out, n + 1, w.seat[S_PLACE, s] + 1)
        n = put_lit(out, n, _SM)
        if size:
            out[n] = 32
            n = put(out, n + 1, w.show_cards[k], 0, size)
        n = put_lit(out, n, _ACTION_END)
    return n


_BOUNTIES, _EMPTY, _FEES, _HAND_ID = literal("_bounties = ["), literal('""'), literal('_fees = "'), \
    literal('_hand_id = "')  # fmt: skip
_QUOTE_LINE = literal('"\n')


@njit(cache=True)
def write_site_fields(buf, id_span, tables, info, w, out, n) -> int:
    """The ``_`` fields in order of their names: the kind of header's, each seat's bounty, the fees
    that are not rake, the hand id when it is not a number (``id_span``: its bytes, or (0, 0))."""
    n = part(tables, info, P_BEFORE_BOUNTIES, out, n)
    dealt, bounties = w.hand[H_DEALT], False
    for k in range(dealt):
        bounties = bounties or w.seat[S_BOUNTY_D, w.order[k]] >= 0
    if bounties:
        n = put_lit(out, n, _BOUNTIES)
        for k in range(dealt):
            s = w.order[k]
            if k:
                n = put_lit(out, n, _COMMA)
            if w.seat[S_BOUNTY_D, s] < 0:
                n = put_lit(out, n, _EMPTY)
            else:
                n = put_lit(out, n, _QUOTE)
                n = put_exact(out, n, w.seat[S_BOUNTY_M, s], w.seat[S_BOUNTY_D, s])
                n = put_lit(out, n, _QUOTE)
        n = put_lit(out, n, _CLOSE_LINE)
    n = part(tables, info, P_BEFORE_FEES, out, n)
    if w.hand[H_FEES]:
        n = put_lit(out, n, _FEES)
        n = put_units(out, n, w.hand[H_FEES], False)
        n = put_lit(out, n, _QUOTE_LINE)
    n = part(tables, info, P_BEFORE_ID, out, n)
    if id_span[1] > id_span[0]:
        n = put_lit(out, n, _HAND_ID)
        n = put(out, n, buf, id_span[0], id_span[1])
        n = put_lit(out, n, _QUOTE_LINE)
    return part(tables, info, P_AFTER_ID, out, n)


_PLAYERS, _SEAT_COUNT = literal("players = ["), literal("seat_count = ")
_SEATS, _TABLE = literal("seats = ["), literal('table = "')
_WINNINGS, _NEWLINE = literal("winnings = ["), literal("\n")


@njit(cache=True)
def write_players(buf, w, out, n) -> int:
    """``players``, ``seat_count``, ``seats`` and ``table``, in that order."""
    n = put_lit(out, n, _PLAYERS)
    dealt = w.hand[H_DEALT]
    for k in range(dealt):
        s = w.order[k]
        if k:
            n = put_lit(out, n, _COMMA)
        n = put_lit(out, n, _QUOTE)
        n = put(out, n, buf, w.seat[S_NAME_A, s], w.seat[S_NAME_B, s])
        n = put_lit(out, n, _QUOTE)
    n = put_lit(out, n, _CLOSE_LINE)
    if w.hand[H_SEAT_COUNT] > 0:
        n = put_lit(out, n, _SEAT_COUNT)
        n = put_int(out, n, w.hand[H_SEAT_COUNT])
        n = put_lit(out, n, _NEWLINE)
    n = put_lit(out, n, _SEATS)
    for k in range(dealt):
        if k:
            n = put_lit(out, n, _COMMA)
        n = put_int(out, n, w.seat[S_NUMBER, w.order[k]])
    n = put_lit(out, n, _CLOSE_LINE)
    if w.hand[H_TABLE_B] > w.hand[H_TABLE_A]:
        n = put_lit(out, n, _TABLE)
        n = put(out, n, buf, w.hand[H_TABLE_A], w.hand[H_TABLE_B])
        n = put_lit(out, n, _QUOTE_LINE)
    return n


@njit(cache=True)
def write_winnings(w, out, n) -> int:
    """``winnings``: what each dealt player collected."""
    return _numbers(out, n, _WINNINGS, w, S_COLLECTED, False)
