"""The actions of a PokerStars-family hand read by compiled code (``stars_family.Body._action``):
posts, folds, checks, calls, bets, raises, shows and mucks, what was collected, and the lines the
Python reader ignores; False wherever that reader might read a line otherwise or refuse it.
"""

from __future__ import annotations

from numba import njit

from ingest.histories.sites.stars_bytes import (
    SPACE,
    amount,
    at,
    blank_to,
    cards,
    find,
    literal,
    space,
    token_end,
)
from ingest.histories.sites.stars_hand import (
    CALL,
    CARD_BYTES,
    FOLD,
    H_BIG_POSTED,
    H_BIGS,
    H_HOLE,
    H_MOVES,
    H_SHOWS,
    H_SMALLS,
    H_STREET,
    M_SEAT,
    M_STREET,
    M_UNITS,
    M_VERB,
    MAX_MOVES,
    MAX_SHOWS,
    RAISE,
    S_ANTE,
    S_BLIND,
    S_COLLECTED,
    S_FOLDED,
    S_KNOWN,
    S_PLAYS,
    SCRATCH,
    amount_group,
    exact_amount,
)


@njit(cache=True)
def ignored(buf, p, e, tables) -> bool:
    """Whether ``stars_family._IGNORED`` finds ``buf[p:e]`` (the line from ``p``), by the rules of
    ``stars_headers.IGNORED``: a literal in it, opening it, followed by another, or by a word and
    another."""
    for k in range(len(tables.ignored_rules)):
        kind, size, second = (
            tables.ignored_rules[k, 0],
            tables.ignored_rules[k, 1],
            tables.ignored_rules[k, 2],
        )
        first, then = tables.ignored[k, 0, :size], tables.ignored[k, 1, :second]
        if kind == 1:
            if at(buf, p, e, first):
                return True
            continue
        found = find(buf, p, e, first)
        while found >= 0:
            after = found + size
            if kind == 0 or (kind == 2 and find(buf, after, e, then) >= 0):
                return True
            if kind == 3:
                word = after
                while word < e and not space(buf[word]) and buf[word] < 128:
                    word += 1
                if word > after and at(buf, word, e, then):
                    return True
            found = find(buf, found + 1, e, first)
    return False


_POSTS = literal("posts ")
_FOLDS, _CHECKS, _CALLS = literal("folds"), literal("checks"), literal("calls")
_BETS, _RAISES = literal("bets"), literal("raises")
_SHOWS_VERB, _MUCKS = literal("shows"), literal("mucks")
_BRINGS, _COMPLETES, _DISCARDS, _STANDS = (
    literal("brings"),
    literal("completes"),
    literal("discards"),
    literal("stands"),
)
_ALL_IN, _REACHED, _ALL_IN_WORD = (
    literal(" and is all-in"),
    literal(" and has reached the"),
    literal("all-in"),
)
_AND = literal(" and ")
_STRADDLE, _INSURED, _PREMIUM = literal("straddle "), literal("get an all-in insurance"), \
    literal("pay premium of all-in insurance")  # fmt: skip


@njit(cache=True)
def _verb(buf, p, e, lit) -> bool:
    """Whether the word before the first space (or the end) of ``buf[p:e]`` is ``lit``."""
    return at(buf, p, e, lit) and (p + len(lit) == e or buf[p + len(lit)] == SPACE)


@njit(cache=True)
def _tail_end(buf, p, e) -> int:
    """Where what an action's words say ends: before a last `` and is all-in`` (white space after
    it only), else the line's end; -1 where ``str.replace`` of those words (or of `` and has reached
    the``) could make of the rest something else than what is written."""
    if find(buf, p, e, _AND) < 0:
        return e  # (most lines)
    if find(buf, p, e, _REACHED) >= 0:
        return -1
    found = find(buf, p, e, _ALL_IN)
    if found < 0:
        return e
    if find(buf, found + 1, e, _ALL_IN) >= 0 or not blank_to(buf, found + len(_ALL_IN), e):
        return -1
    return found


@njit(cache=True)
def _add_move(w, s, verb, units) -> bool:
    m = w.hand[H_MOVES]
    if m >= MAX_MOVES:
        return False
    w.move[M_STREET, m], w.move[M_SEAT, m], w.move[M_VERB, m], w.move[M_UNITS, m] = (
        w.hand[H_STREET],
        s,
        verb,
        units,
    )
    w.hand[H_MOVES] = m + 1
    w.seat[S_PLAYS, s] = 1
    w.seat[S_FOLDED, s] = w.seat[S_FOLDED, s] or verb == FOLD
    return True


@njit(cache=True)
def first_amount(buf, p, e) -> int:
    """The units of the amount that is the first space-separated word of ``buf[p:e]``, or -1."""
    end, units, _, _ = amount(buf, p, e)
    return units if end > 0 and token_end(buf, end, e) else -1


@njit(cache=True)
def action(buf, s, p, e, tables, w) -> bool:
    """What seat s did (``Body._action``): ``buf[p:e]`` follows its name and colon."""
    if at(buf, p, e, _POSTS):
        return _post(buf, s, p + len(_POSTS), e, w)
    if at(buf, p, e, _STRADDLE) or at(buf, p, e, _INSURED) or at(buf, p, e, _PREMIUM):
        return False  # a straddle, all-in insurance: the Python reader's
    tail = p
    while tail < e and buf[tail] != SPACE:
        tail += 1
    tail = min(tail + 1, e)
    if _verb(buf, p, e, _CHECKS):
        return _add_move(w, s, CALL, 0)
    if _verb(buf, p, e, _MUCKS):
        return _show(w, s, 0)
    if _verb(buf, p, e, _BRINGS) or _verb(buf, p, e, _COMPLETES) or _verb(buf, p, e, _DISCARDS) \
            or _verb(buf, p, e, _STANDS):  # fmt: skip
        return False  # stud and draw: the Python reader's
    end = _tail_end(buf, tail, e)
    if end < 0:
        return False
    if _verb(buf, p, e, _FOLDS):
        return _add_move(w, s, FOLD, 0) and _fold(buf, s, tail, end, w)
    if _verb(buf, p, e, _CALLS) or _verb(buf, p, e, _BETS):
        units = first_amount(buf, tail, end)
        return units >= 0 and _add_move(w, s, CALL if buf[p] == 99 else RAISE, units)
    if _verb(buf, p, e, _RAISES):
        return _raise(buf, s, tail, end, w)
    if _verb(buf, p, e, _SHOWS_VERB):
        return _shows(buf, s, tail, end, w)
    return ignored(buf, p, e, tables)


@njit(cache=True)
def _fold(buf, s, a, b, w) -> bool:
    """What follows ``folds``: cards shown as the player folds are known (``[...]``)."""
    while a < b and space(buf[a]):
        a += 1
    if a < b and buf[a] >= 128:
        return False  # Unicode white space, perhaps, before a ``[``
    if a == b or buf[a] != 91:
        return True
    while b > a and space(buf[b - 1]):
        b -= 1
    if buf[b - 1] >= 128:
        return False
    while a < b and buf[a] == 91:
        a += 1
    while b > a and buf[b - 1] == 93:
        b -= 1
    n = cards(buf, a, b, w.show_cards, SCRATCH)
    size = completed_show(w, s, n) if n >= 0 else -1
    if size <= 0:
        return False  # not cards, or none (``known`` empty: the Python reader's)
    w.known[s, :size] = w.show_cards[SCRATCH, :size]
    w.seat[S_KNOWN, s], w.seat[S_PLAYS, s] = size, 1
    return True


_TO = literal(" to ")


@njit(cache=True)
def _raise(buf, s, p, e, w) -> bool:
    """``raises X to Y``: a bet of Y on this street."""
    first, _, _, _ = amount(buf, p, e)
    if first < 0 or not at(buf, first, e, _TO):
        return False
    units = first_amount(buf, first + len(_TO), e)
    return units >= 0 and _add_move(w, s, RAISE, units)


@njit(cache=True)
def _shows(buf, s, p, e, w) -> bool:
    """``shows [cards] ...``: the cards, completed as ``Body._shown`` completes them, are known."""
    if p == e or buf[p] != 91:
        return p == e or (not space(buf[p]) and buf[p] < 128)  # no cards: nothing (``Body._action``)
    close = p + 1
    while close < e and buf[close] != 93:
        close += 1
    if close >= e:
        return True
    a = p + 1
    while a < close and buf[a] == 91:
        a += 1
    n = cards(buf, a, close, w.show_cards, SCRATCH)
    if n < 0:
        return False
    size = completed_show(w, s, n)
    if size < 0:
        return False
    _unshow(w, s)
    if not _show(w, s, size):
        return False
    k = w.hand[H_SHOWS] - 1
    w.show_cards[k, :size] = w.show_cards[SCRATCH, :size]
    w.known[s, :size] = w.show_cards[SCRATCH, :size]
    w.seat[S_KNOWN, s], w.seat[S_PLAYS, s] = size, 1
    return True


@njit(cache=True)
def _show(w, s, size) -> bool:
    """Seat s shows ``size`` bytes of cards at the showdown (0: mucks); the cards are the caller's."""
    k = w.hand[H_SHOWS]
    if k >= MAX_SHOWS:
        return False
    w.show[0, k], w.show[1, k] = s, size
    w.hand[H_SHOWS] = k + 1
    return True


@njit(cache=True)
def _unshow(w, s) -> None:
    """Seat s's earlier shows and mucks dropped (``Body._action``: a player shown again shows once)."""
    kept = 0
    for k in range(w.hand[H_SHOWS]):
        if w.show[0, k] != s:
            w.show[0, kept], w.show[1, kept] = w.show[0, k], w.show[1, k]
            w.show_cards[kept] = w.show_cards[k]
            kept += 1
    w.hand[H_SHOWS] = kept


@njit(cache=True)
def completed_show(w, s, n) -> int:
    """``Body._shown`` of the n cards read into the scratch row: all of them, the seat's known cards
    when those hold every one, else them and an unseen card for each missing; their bytes there."""
    hole, row = w.hand[H_HOLE], w.show_cards[SCRATCH]
    if n == hole:
        return 2 * n
    k = w.seat[S_KNOWN, s]
    if k > 0:
        every = True
        for c in range(n):
            found = False
            for j in range(0, k - 1, 2):
                if w.known[s, j] == row[2 * c] and w.known[s, j + 1] == row[2 * c + 1]:
                    found = True
            every = every and found
        if every:
            row[:k] = w.known[s, :k]
            return k
    if hole <= n:
        return 2 * n
    if 2 * hole > CARD_BYTES:
        return -1
    row[2 * n : 2 * hole] = 63
    return 2 * hole


_SMALL_BIG, _SMALL = literal("small & big blinds "), literal("small blind ")
_BIG, _ANTE = literal("big blind "), literal("the ante ")


@njit(cache=True)
def _post(buf, s, p, e, w) -> bool:
    """``posts small blind X`` (a second is dead: an ante), ``posts big blind X`` (the first: a second
    is a live blind, the Python reader's), ``posts the ante X``; any other post is the Python
    reader's. The first big blind, posted not all in, is the hand's ``min_bet``."""
    if at(buf, p, e, _SMALL_BIG):
        return False
    kind = 0 if at(buf, p, e, _SMALL) else 1 if at(buf, p, e, _BIG) else 2 if at(buf, p, e, _ANTE) else -1
    if kind < 0 or (kind == 1 and w.hand[H_BIGS] > 0):
        return False
    dead = kind == 0 and w.hand[H_SMALLS] > 0
    q = p + (len(_SMALL) if kind == 0 else len(_BIG) if kind == 1 else len(_ANTE))
    end = _tail_end(buf, q, e)
    units = first_amount(buf, q, end) if end >= 0 else -1
    if units < 0:
        return False
    if kind == 2 or dead:
        w.seat[S_ANTE, s] += units
    else:
        w.seat[S_BLIND, s] += units
    w.hand[H_SMALLS] += kind == 0
    if kind == 1:
        w.hand[H_BIGS] = 1
        if find(buf, p, e, _ALL_IN_WORD) < 0:  # ``Forced.all_in``: "all-in" in what follows ``posts``
            w.hand[H_BIG_POSTED] = units
    w.seat[S_PLAYS, s] = 1
    return True


_FROM, _THE, _MAIN, _SIDE, _POT = (
    literal(" from "),
    literal("the "),
    literal("main "),
    literal("side "),
    literal("pot"),
)


@njit(cache=True)
def collected_line(buf, s, p, e, w) -> bool:
    """``NAME collected X from [the] [main |side ]pot`` (``Body._COLLECTED``); ``p`` after `` collected ``."""
    run, after = amount_group(buf, p, e, _FROM)
    if run < 0:
        return False
    units, _, _, ok = exact_amount(buf, p, run)
    if at(buf, after, e, _THE):
        after += len(_THE)
    if at(buf, after, e, _MAIN) or at(buf, after, e, _SIDE):
        after += len(_MAIN)
    if not ok or not at(buf, after, e, _POT):
        return False
    w.seat[S_COLLECTED, s] += units
    return True
