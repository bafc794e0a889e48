"""The lines of one PokerStars-family hand read by compiled code into ``Work`` (seats, posts,
moves, boards, cards shown, the summary), as ``stars_family.Body`` reads them; ``read_hand`` says
False wherever that reader might read a line otherwise (or refuse it), and the hand is then left to
it (``stars_kernel``). ``stars_write`` writes what is read as PHH.
"""

from __future__ import annotations

from numba import njit

from ingest.histories.sites.stars_actions import action, collected_line, ignored
from ingest.histories.sites.stars_bytes import (
    SPACE,
    at,
    blank_to,
    cards,
    literal,
    same,
    space,
    whole,
)
from ingest.histories.sites.stars_checks import finish
from ingest.histories.sites.stars_hand import (
    CASHES,
    COLLECTS,
    COLON,
    H_BOARD,
    H_BUTTON,
    H_SEAT_COUNT,
    H_SEATS,
    H_STREET,
    H_TABLE_A,
    H_TABLE_B,
    H_WHY,
    MAX_SEATS,
    S_BOUNTY_D,
    S_BOUNTY_M,
    S_KNOWN,
    S_NAME_A,
    S_NAME_B,
    S_NUMBER,
    S_OUT,
    S_PLAYS,
    S_RETURNED,
    S_STACK,
    SHOWS,
    WHY_CHECK,
    WHY_SEATS,
    amount_group,
    exact_amount,
    line_end,
    reset,
    seat_named,
)
from ingest.histories.sites.stars_summary import summary_line


@njit(cache=True)
def read_hand(buf, p, e, info, tables, w) -> bool:
    """Hand lines ``buf[p:e]`` (after its first line, to its text's end) into ``w``; False when the
    Python reader must read the hand."""
    reset(w, tables.info[info, 1], tables.info[info, 3])
    w.hand[H_WHY] = WHY_SEATS
    p = _seats(buf, p, e, w)
    if p < 0:
        return False
    summary = False
    while p < e:
        end = line_end(buf, p, e)
        if not blank_to(buf, p, end):
            w.hand[H_WHY] = p
            if at(buf, p, end, _SUMMARY):
                summary = True
            elif summary:
                if not summary_line(buf, p, end, w):
                    return False
            elif not _line(buf, p, end, tables, w):
                return False
        p = end + 1
    w.hand[H_WHY] = WHY_CHECK
    return finish(buf, w)


_SUMMARY = literal("*** SUMMARY ***")
_TABLE, _TABLE_ID, _MAX, _CAPITAL_MAX = (
    literal("Table '"),
    literal("Table ID '"),
    literal("-max"),
    literal("-Max"),
)
_BUTTON, _IS_BUTTON = literal("Seat #"), literal(" is the button")
_SEAT, _COLON_SPACE, _IN_CHIPS, _BOUNTY = (
    literal("Seat "),
    literal(": "),
    literal(" in chips"),
    literal(" bounty"),
)
_SITTING, _OUT_OF_HAND = literal("sitting out"), literal("out of hand")


@njit(cache=True)
def _seats(buf, p, e, w) -> int:
    """The table and seat lines (``Body._table_and_seats``): the first line after them, or -1."""
    while p < e:
        end = line_end(buf, p, e)
        found = _table_line(buf, p, end, w)
        if found == 0:
            found = _seat_line(buf, p, end, w)
        if found < 0:
            return -1
        if found == 0 and w.hand[H_SEATS] > 0:
            return p
        p = end + 1
    return e if w.hand[H_SEATS] > 0 else -1


@njit(cache=True)
def _table_line(buf, a, e, w) -> int:
    """``Body._TABLE``: 1 when read (name, n-max, button), 0 when the line is no table's, -1."""
    if at(buf, a, e, _TABLE):
        name = a + len(_TABLE)
    elif at(buf, a, e, _TABLE_ID):
        name = a + len(_TABLE_ID)
    else:
        return 0
    q = name
    while q < e and buf[q] != 39:
        q += 1
    if q >= e:
        return 0
    for i in range(q, e):
        if buf[i] >= 128:
            return -1  # ``\\d`` and ``\\s`` of Unicode: the Python reader's to read
    w.hand[H_TABLE_A], w.hand[H_TABLE_B], w.hand[H_SEAT_COUNT], w.hand[H_BUTTON] = name, q, 0, -1
    r = q + 1
    if r < e and buf[r] == SPACE:
        end, count = whole(buf, r + 1, e, 6)
        if end == -2:
            return -1
        if end > 0 and (at(buf, end, e, _MAX) or at(buf, end, e, _CAPITAL_MAX)):
            w.hand[H_SEAT_COUNT], r = count, end + len(_MAX)
    for t in range(r, e + 1):
        if at(buf, t, e, _BUTTON):
            end, button = whole(buf, t + len(_BUTTON), e, 6)
            if end == -2:
                return -1
            if end > 0 and at(buf, end, e, _IS_BUTTON) and blank_to(buf, end + len(_IS_BUTTON), e):
                w.hand[H_BUTTON] = button
                return 1
        if blank_to(buf, t, e):
            return 1
    return 1


@njit(cache=True)
def _seat_line(buf, a, e, w) -> int:
    """``Body._SEAT``: 1 when read into a new seat, 0 when the line is no seat's, -1."""
    if not at(buf, a, e, _SEAT):
        return 0
    i, number = whole(buf, a + len(_SEAT), e, 6)
    if i == -2:
        return -1
    if i < 0 or not at(buf, i, e, _COLON_SPACE):
        return 0
    name = i + 2
    for p in range(name + 1, e - 1):
        if buf[p] != SPACE or buf[p + 1] != 40:
            continue
        run, after = amount_group(buf, p + 2, e, _IN_CHIPS)
        if run == -2:
            return -1
        if run < 0:
            continue
        close = after
        while close < e and buf[close] != 41:
            close += 1
        if close >= e:
            return 0
        return _new_seat(buf, name, p, number, run, after, close, e, w)
    return 0


@njit(cache=True)
def _new_seat(buf, name, name_end, number, run, after, close, e, w) -> int:
    """A seat line matched: its stack, bounty and sitting out (rest after ``)``) into a new seat."""
    n = w.hand[H_SEATS]
    if n >= MAX_SEATS:
        return -1
    units, _, _, ok = exact_amount(buf, name_end + 2, run)
    if not ok:
        return -1
    for s in range(n):
        if w.seat[S_NUMBER, s] == number or same(
            buf, w.seat[S_NAME_A, s], w.seat[S_NAME_B, s], name, name_end
        ):
            return -1  # two seats of one number or name: the Python reader's
    w.seat[S_NUMBER, n], w.seat[S_NAME_A, n], w.seat[S_NAME_B, n], w.seat[S_STACK, n] = (
        number,
        name,
        name_end,
        units,
    )
    if after + 1 < e and buf[after] == 44 and buf[after + 1] == SPACE:
        bounty, _ = amount_group(buf, after + 2, e, _BOUNTY)
        if bounty == -2:
            return -1
        if bounty >= 0:
            _, mantissa, decimals, ok = exact_amount(buf, after + 2, bounty)
            if not ok:
                return -1
            w.seat[S_BOUNTY_M, n], w.seat[S_BOUNTY_D, n] = mantissa, decimals
    w.seat[S_OUT, n] = _has(buf, close + 1, e, _SITTING) or _has(buf, close + 1, e, _OUT_OF_HAND)
    w.hand[H_SEATS] = n + 1
    return 1


@njit(cache=True)
def _has(buf, p, e, lit) -> bool:
    """Whether ``lit`` (lower case) is in ``buf[p:e]`` in any case (``str.lower``: no character
    past ASCII lowers to these letters)."""
    for i in range(p, e - len(lit) + 1):
        found = True
        for k in range(len(lit)):
            x = buf[i + k]
            if 65 <= x <= 90:
                x += 32
            if x != lit[k]:
                found = False
                break
        if found:
            return True
    return False


_STARS = literal("*** ")
_UNCALLED, _DEALT = literal("Uncalled bet ("), literal("Dealt to ")
_RUN_WAS, _BOARD = literal("Hand was run"), literal("Board ")


@njit(cache=True)
def _line(buf, a, e, tables, w) -> bool:
    """A line before the summary (``Body._line``)."""
    if at(buf, a, e, _STARS):
        return _street(buf, a + len(_STARS), e, w)
    if at(buf, a, e, _UNCALLED):
        return _returned(buf, a + len(_UNCALLED), e, w)
    if at(buf, a, e, _DEALT):
        return _dealt(buf, a + len(_DEALT), e, w)
    s, kind, after = _who(buf, a, e, w)
    if s >= 0:
        if kind == COLON:
            return action(buf, s, after, e, tables, w)
        if kind == SHOWS:
            return action(buf, s, after - 6, e, tables, w)  # ``shows ...``
        if kind == COLLECTS:
            return collected_line(buf, s, after, e, w)
        return False  # a cash-out: the Python reader's
    if at(buf, a, e, _RUN_WAS) or at(buf, a, e, _BOARD):
        return True
    return ignored(buf, a, e, tables)


_COLLECTED, _CASHED, _SHOWS = literal(" collected "), literal(" cashed out "), literal(" shows ")


@njit(cache=True)
def _who(buf, a, e, w):
    """(the seat, what follows its name, where that ends) of the longest name opening the line
    and followed by ``: ``, `` collected ``, `` cashed out `` or `` shows ``; seat -1 when none."""
    best, kind, after, longest = -1, 0, 0, -1
    for s in range(w.hand[H_SEATS]):
        na, nb = w.seat[S_NAME_A, s], w.seat[S_NAME_B, s]
        size = nb - na
        if size <= longest or a + size > e or buf[a] != buf[na] or not same(buf, a, a + size, na, nb):
            continue
        q = a + size
        for k in range(4):
            lit = (
                _COLON_SPACE
                if k == COLON
                else _COLLECTED
                if k == COLLECTS
                else _CASHED
                if k == CASHES
                else _SHOWS
            )
            if at(buf, q, e, lit):
                best, kind, after, longest = s, k, q + len(lit), size
                break
    return best, kind, after


_FLOP, _TURN, _RIVER = literal("FLOP ***"), literal("TURN ***"), literal("RIVER ***")
_FIRST, _SECOND, _THIRD = literal("FIRST "), literal("SECOND "), literal("THIRD ")


@njit(cache=True)
def _street_at(buf, p, e) -> int:
    """The board street (1 to 3) whose name and `` ***`` open ``buf[p:e]``, else 0."""
    if at(buf, p, e, _FLOP):
        return 1
    if at(buf, p, e, _TURN):
        return 2
    return 3 if at(buf, p, e, _RIVER) else 0


@njit(cache=True)
def _street(buf, p, e, w) -> bool:
    """A ``*** ...`` line: a board street's cards (``Body._street``), else nothing."""
    run, q = 0, p
    if at(buf, p, e, _FIRST):
        run, q = 1, p + len(_FIRST)
    elif at(buf, p, e, _SECOND):
        run, q = 2, p + len(_SECOND)
    elif at(buf, p, e, _THIRD):
        run, q = 3, p + len(_THIRD)
    street = _street_at(buf, q, e) if run else 0
    if street == 0:
        run, street = 0, _street_at(buf, p, e)
        q = p
    if street == 0:
        return True  # the hole cards, a showdown, another game's street: nothing for a board game
    if run > 1 or street <= w.hand[H_STREET]:
        return False  # run twice, or streets out of order: the Python reader's
    rest = q + (len(_FLOP) if street < 3 else len(_RIVER))
    last_open, last_close, i = -1, -1, rest
    while i < e:
        if buf[i] == 91:
            close = i + 1
            while close < e and buf[close] != 93:
                close += 1
            if close >= e:
                break
            last_open, last_close, i = i, close, close + 1
        else:
            i += 1
    if last_open < 0:
        return False
    while last_open + 1 < last_close and buf[last_open + 1] == 91:
        last_open += 1
    n = cards(buf, last_open + 1, last_close, w.board, street)
    if n <= 0:
        return False
    for k in range(2 * n):
        if w.board[street, k] == 63:
            return False  # an unseen board card: the Python reader's
    w.hand[H_STREET], w.hand[H_BOARD + street] = street, 2 * n
    return True


_RETURNED_TO = literal(") returned to ")


@njit(cache=True)
def _returned(buf, q, e, w) -> bool:
    """``Uncalled bet (X) returned to NAME`` (``Body._RETURNED``)."""
    run, after = amount_group(buf, q, e, _RETURNED_TO)
    if run < 0:
        return False
    units, _, _, ok = exact_amount(buf, q, run)
    name_end = e
    while name_end > after and space(buf[name_end - 1]):
        name_end -= 1
    if not ok or name_end <= after or buf[after] <= SPACE or buf[after] >= 128 or buf[name_end - 1] >= 128:
        return False
    s = seat_named(buf, after, name_end, w)
    if s < 0:
        return False
    w.seat[S_RETURNED, s] += units
    return True


@njit(cache=True)
def _bracket(buf, p, e) -> int:
    """The end of `` [...]`` at ``p`` (after its ``]``), or -1."""
    if p + 1 >= e or buf[p] != SPACE or buf[p + 1] != 91:
        return -1
    for i in range(p + 2, e):
        if buf[i] == 93:
            return i + 1
    return -1


@njit(cache=True)
def _dealt(buf, p, e, w) -> bool:
    """``Dealt to NAME [cards]`` (``Body._dealt``): the name is the shortest before `` [..]``,
    `` [..] [..]`` or white space to the end; a board game's first cards are known."""
    end = e
    while end > p and space(buf[end - 1]):
        end -= 1
    if end > p and buf[end - 1] >= 128:
        return False  # it may end with Unicode white space
    if end == p or buf[end - 1] != 93:
        return True  # no cards: nothing to read (GGPoker's hidden opponents)
    for q in range(p + 1, end + 1):
        first = _bracket(buf, q, end)
        if first >= 0:
            second = _bracket(buf, first, end)
            if (second >= 0 and second == end) or first == end:
                return _dealt_cards(buf, p, q, q + 2, first - 1, w)
        if q == end:
            return True  # no group: no cards
    return True


@njit(cache=True)
def _dealt_cards(buf, name, name_end, a, b, w) -> bool:
    """The known cards ``buf[a:b]`` of the seat named ``buf[name:name_end]``."""
    if b <= a:
        return True  # ``[]``: no cards
    s = seat_named(buf, name, name_end, w)
    if s < 0:
        return False
    return _know(buf, a, b, s, w)


@njit(cache=True)
def _know(buf, a, b, s, w) -> bool:
    """Seat s's hole cards are the cards in ``buf[a:b]`` (``text.cards``: white space, then ``[``
    and ``]``, stripped off its ends)."""
    while a < b and space(buf[a]):
        a += 1
    while b > a and space(buf[b - 1]):
        b -= 1
    if a < b and (buf[a] >= 128 or buf[b - 1] >= 128):
        return False  # it may end with Unicode white space
    while a < b and buf[a] == 91:
        a += 1
    while b > a and buf[b - 1] == 93:
        b -= 1
    n = cards(buf, a, b, w.known, s)
    if n <= 0:
        return False  # not cards, or none (``known`` empty: the Python reader's)
    w.seat[S_KNOWN, s], w.seat[S_PLAYS, s] = 2 * n, 1
    return True
