"""Deals that complete a partly known situation, as compiled kernels that never see a game.

A situation is the dealt prefix of a hand (``engine.rules.sim_layout``) with ``-1`` at every position
not known yet. ``sample_deals`` fills the unknown positions at random from the cards left;
``enumerate_deals`` lists every way to fill them, up to the order inside a group of positions
whose order does not change the outcome (a seat's hole cards; a board's cards, or a street's
when the game looks at streets). The one compiled rules core settles the deals as given
(``engine.compiled.simulate.simulate_chunk(..., dealt=deals)``); ``words_for_deals`` turns deals into the
random words with which the simulation kernel's Fisher–Yates deals exactly those cards (a check
that both ways of dealing agree).

>>> import numpy as np
>>> known = np.array([0, 1, -1, -1], dtype=np.int8)
>>> groups, sizes = np.array([[2, 3]], dtype=np.int64), np.array([2], dtype=np.int64)
>>> free = np.array([5, 6, 7], dtype=np.int8)
>>> deals = np.empty((3, 4), dtype=np.int8)
>>> enumerate_deals(known, free, groups, sizes, np.empty(0, np.int64), binomials(8), 0, deals)
>>> deals.tolist()
[[0, 1, 5, 6], [0, 1, 5, 7], [0, 1, 6, 7]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


def binomials(n: int) -> np.ndarray:
    """``table[a, b]`` = C(a, b) for a, b up to ``n``, as int64.

    >>> int(binomials(52)[52, 5])
    2598960
    """
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        table[a, 0] = 1
        for b in range(1, a + 1):
            table[a, b] = table[a - 1, b - 1] + table[a - 1, b]
    return table


@njit(cache=True)
def words_for_deals(deals: np.ndarray, deck_size: int) -> np.ndarray:
    """(N, ceil(K / 2)) uint64 words with which ``sim_kernels.shuffle_prefix`` deals each row of
    ``deals`` (N, K): at step i the card sits at index j, so 32 bits r with r * (size - i) >> 32
    equal to j - i (the middle of that interval) are written."""
    n, k = deals.shape
    words = np.zeros((n, (k + 1) // 2), dtype=np.uint64)
    deck = np.empty(deck_size, dtype=np.int64)
    where = np.empty(deck_size, dtype=np.int64)
    for h in range(n):
        for c in range(deck_size):
            deck[c] = c
            where[c] = c
        for i in range(k):
            card = deals[h, i]
            j = where[card]
            left = deck_size - i
            r = np.uint64(((2 * (j - i) + 1) << 32) // (2 * left))
            words[h, i >> 1] |= r << np.uint64(32 * (i & 1))
            other = deck[i]
            deck[i], deck[j] = card, other
            where[card], where[other] = i, j
    return words


@njit(cache=True)
def sample_deals(known: np.ndarray, free: np.ndarray, bits: np.ndarray, out: np.ndarray) -> None:
    """Fill each row of ``out`` with ``known`` and, at its unknown positions, a uniform random draw
    without replacement from ``free``; ``bits`` (N, unknown) gives 32 random bits per draw."""
    n_free = free.shape[0]
    pool = np.empty(n_free, dtype=np.int8)
    for h in range(out.shape[0]):
        pool[:] = free
        drawn = 0
        for i in range(known.shape[0]):
            if known[i] >= 0:
                out[h, i] = known[i]
                continue
            j = drawn + np.int64((bits[h, drawn] * np.uint64(n_free - drawn)) >> np.uint64(32))
            pool[drawn], pool[j] = pool[j], pool[drawn]
            out[h, i] = pool[drawn]
            drawn += 1


@njit(cache=True)
def enumerate_deals(
    known: np.ndarray, free: np.ndarray, groups: np.ndarray, sizes: np.ndarray, burns: np.ndarray,
    table: np.ndarray, start: int, out: np.ndarray,
) -> None:  # fmt: skip
    """Deals ``start`` .. ``start + len(out)`` of the enumeration: group g takes a combination of
    ``sizes[g]`` of the cards the earlier groups left (its positions ``groups[g, :sizes[g]]``, in
    ascending card order); the last group varies fastest. Burn positions take the lowest cards left
    (never seen, so any card will do). Row ``start`` is unranked, then each row steps to the
    next: the last group's next combination, an earlier group's when it wraps."""
    n_groups, n_free = sizes.shape[0], free.shape[0]
    radix = _radix(sizes, n_free, table)
    width = max(groups.shape[1], 1)
    comb = np.zeros((n_groups + 1, width), dtype=np.int64)
    avails = np.zeros((n_groups + 1, n_free), dtype=np.int64)
    m_of = np.zeros(n_groups + 1, dtype=np.int64)
    for x in range(n_free):
        avails[0, x] = x
    m_of[0] = n_free
    divisor = np.int64(1)
    for g in range(n_groups):
        divisor *= radix[g]
    for g in range(n_groups):
        divisor //= radix[g]
        _unrank_group((start // divisor) % radix[g], m_of[g], sizes[g], table, comb, g)
        _left_after(avails, m_of, comb, g, sizes)
    n_known, n_burns = known.shape[0], burns.shape[0]
    for row in range(out.shape[0]):
        for i in range(n_known):
            out[row, i] = known[i]
        for g in range(n_groups):
            for slot in range(sizes[g]):
                out[row, groups[g, slot]] = free[avails[g, comb[g, slot]]]
        if n_burns:
            _burns_into(avails, comb, n_groups, sizes, free, burns, out, row)
        g = n_groups - 1
        while g >= 0 and not _next_group(comb, g, sizes[g], m_of[g]):
            for i in range(sizes[g]):
                comb[g, i] = i
            g -= 1
        if g < 0:
            break
        for h in range(g, n_groups - 1):
            _left_after(avails, m_of, comb, h, sizes)


@njit(cache=True)
def _unrank_group(rank, m, k, table, comb, g):
    """The rank-th combination (lexicographic) of k of m indices into comb[g, :k]."""
    a = 0
    for slot in range(k):
        while True:
            later = table[m - a - 1, k - slot - 1]
            if rank < later:
                break
            rank -= later
            a += 1
        comb[g, slot] = a
        a += 1


@njit(cache=True, inline="always")
def _next_group(comb, g, k, m):
    """Step comb[g, :k] to the next combination of k of m (lexicographic); False if it was the last."""
    i = k - 1
    while i >= 0 and comb[g, i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    comb[g, i] += 1
    for j in range(i + 1, k):
        comb[g, j] = comb[g, j - 1] + 1
    return True


@njit(cache=True)
def _left_after(avails, m_of, comb, g, sizes):
    """avails[g + 1]: avails[g] less the picks of group g."""
    m, k, p, out = m_of[g], sizes[g], 0, 0
    for x in range(m):
        if p < k and comb[g, p] == x:
            p += 1
            continue
        avails[g + 1, out] = avails[g, x]
        out += 1
    m_of[g + 1] = out


@njit(cache=True, inline="always")
def _burns_into(avails, comb, n_groups, sizes, free, burns, out, row):
    """Burn positions take the lowest cards no group took (never seen: any card will do)."""
    g = n_groups - 1
    if g < 0:
        for b in range(burns.shape[0]):
            out[row, burns[b]] = free[b]
        return
    p, b, x = 0, 0, 0
    while b < burns.shape[0]:
        if p < sizes[g] and comb[g, p] == x:
            p += 1
        else:
            out[row, burns[b]] = free[avails[g, x]]
            b += 1
        x += 1


@njit(cache=True)
def enumerate_range_deals(
    known: np.ndarray, free: np.ndarray, seats: np.ndarray, tuples: np.ndarray, groups: np.ndarray,
    sizes: np.ndarray, burns: np.ndarray, table: np.ndarray, start: int, out: np.ndarray,
) -> None:  # fmt: skip
    """As ``enumerate_deals``, for each hole-card tuple in turn (``tuples[t]``: the cards of the
    positions ``seats``, taken from ``free``); the runouts of one tuple vary fastest."""
    n_left = free.shape[0] - tuples.shape[1]
    radix = _radix(sizes, n_left, table)
    per_tuple = np.int64(1)
    for r in radix:
        per_tuple *= r
    row_known = known.copy()
    row_free = np.empty(n_left, dtype=free.dtype)
    taken = np.zeros(n_left, dtype=np.bool_)
    avail = np.empty(n_left, dtype=np.int64)
    last = -1
    for row in range(out.shape[0]):
        t, index = (start + row) // per_tuple, (start + row) % per_tuple
        if t != last:
            row_known[seats] = tuples[t]
            m = 0
            for c in free:
                if not _holds(tuples[t], c):
                    row_free[m] = c
                    m += 1
            last = t
        _runout_into(index, row_known, row_free, groups, sizes, burns, table, radix, taken, avail, out[row])


@njit(cache=True, inline="always")
def _holds(cards: np.ndarray, card: int) -> bool:
    for c in cards:  # noqa: SIM110 (compiled: no generators)
        if c == card:
            return True
    return False


@njit(cache=True)
def _radix(sizes: np.ndarray, n_free: int, table: np.ndarray) -> np.ndarray:
    """How many combinations each group chooses among, the earlier groups' cards gone."""
    radix = np.empty(sizes.shape[0], dtype=np.int64)
    left = n_free
    for g in range(sizes.shape[0]):
        radix[g] = table[left, sizes[g]]
        left -= sizes[g]
    return radix


@njit(cache=True)
def _runout_into(index, known, free, groups, sizes, burns, table, radix, taken, avail, out) -> None:
    """Runout ``index`` (mixed radix over the groups, the last fastest) written into ``out``."""
    n_groups, n_free = sizes.shape[0], free.shape[0]
    out[:] = known
    taken[:] = False
    divisor = np.int64(1)
    for g in range(n_groups - 1, -1, -1):
        divisor *= radix[g]
    for g in range(n_groups):
        divisor //= radix[g]
        rank = (index // divisor) % radix[g]
        m = 0
        for x in range(n_free):
            if not taken[x]:
                avail[m] = x
                m += 1
        k, a = sizes[g], 0  # unrank: the rank-th combination of the m cards left
        for slot in range(k):
            while True:
                later = table[m - a - 1, k - slot - 1]  # the combinations that take avail[a] here
                if rank < later:
                    break
                rank -= later
                a += 1
            out[groups[g, slot]] = free[avail[a]]
            taken[avail[a]] = True
            a += 1
    x = 0
    for b in range(burns.shape[0]):
        while taken[x]:
            x += 1
        out[burns[b]] = free[x]
        x += 1


@njit(cache=True)
def sample_range_deals(
    known: np.ndarray, free: np.ndarray, seats: np.ndarray, combos: np.ndarray, starts: np.ndarray,
    counts: np.ndarray, seed: int, out: np.ndarray,
) -> bool:  # fmt: skip
    """Fill each row of ``out``: each range seat q (its two positions ``seats[2q:2q+2]``) a
    combination drawn uniformly from ``combos[starts[q]:starts[q]+counts[q]]``, the whole tuple
    drawn again when two seats share a card (uniform over the tuples that can be dealt), then the
    other unknown positions a uniform draw from the cards left. False if a row found no tuple in
    a million tries (ranges that card removal nearly empties)."""
    np.random.seed(seed)
    n_free = free.shape[0]
    used = np.zeros(256, dtype=np.bool_)
    pool = np.empty(n_free, dtype=free.dtype)
    for h in range(out.shape[0]):
        for attempt in range(1_000_000):
            used[:] = False
            clash = False
            for q in range(starts.shape[0]):
                pick = starts[q] + np.random.randint(0, counts[q])
                for j in range(2):
                    card = combos[pick, j]
                    clash = clash or used[card]
                    used[card] = True
                    out[h, seats[2 * q + j]] = card
            if not clash:
                break
            if attempt == 999_999:
                return False
        for i in range(known.shape[0]):
            if known[i] >= 0:
                out[h, i] = known[i]
        m = 0
        for c in free:
            if not used[c]:
                pool[m] = c
                m += 1
        drawn = 0
        for i in range(known.shape[0]):
            if known[i] >= 0 or _holds(seats, i):
                continue
            j = drawn + np.random.randint(0, m - drawn)
            pool[drawn], pool[j] = pool[j], pool[drawn]
            out[h, i] = pool[drawn]
            drawn += 1
    return True


@njit(cache=True)
def sum_outcomes(won: np.ndarray, parts: np.ndarray, pot: int, has_dead: bool, dead: np.ndarray,
                 sums: np.ndarray, squares: np.ndarray) -> None:  # fmt: skip
    """Add up settled runouts per seat, in one pass: ``won`` (N, seats) chips, ``parts`` (P, N,
    seats) chips of each part of the pot, ``dead`` (N, seats) when ``has_dead`` (else a placeholder).

    ``sums`` rows: 0 chips won, 1 runouts won (some part alone), 2 tied (chips, no part alone),
    3 scooped (the whole pot), 4 dead, 5 + p chips of part p. ``squares`` rows: 0 chips won
    squared, 1 + p chips of part p squared.
    """
    n, seats = won.shape
    n_parts = parts.shape[0]
    for h in range(n):
        for s in range(seats):
            chips = won[h, s]
            sums[0, s] += chips
            squares[0, s] += np.float64(chips) * chips
            sums[3, s] += chips == pot
            alone = False
            for p in range(n_parts):
                part = parts[p, h, s]
                total = 0
                for t in range(seats):
                    total += parts[p, h, t]
                alone = alone or (part > 0 and part == total)
                sums[5 + p, s] += part
                squares[1 + p, s] += np.float64(part) * part
            if alone:
                sums[1, s] += 1
            elif chips > 0:
                sums[2, s] += 1
            if has_dead and dead[h, s]:
                sums[4, s] += 1


@njit(cache=True)
def sample_matchups(
    members: np.ndarray, starts: np.ndarray, counts: np.ndarray, cells: np.ndarray, samples: int,
    positions: np.ndarray, deck_size: int, seed: int, out: np.ndarray,
) -> None:  # fmt: skip
    """Deals of class against class: for each cell (i, j) of ``cells``, ``samples`` rows in which
    seat 0 holds a member of class i (``members[starts[i]:starts[i]+counts[i]]``, cards at
    ``positions[0]``) and seat 1 a member of class j sharing no card (drawn again until none is
    shared: uniform over the pairs the cards allow), every other position a uniform draw from
    the cards left (by rejection: a card drawn again until it is free)."""
    np.random.seed(seed)
    held, width = members.shape[1], out.shape[1]
    used = np.zeros(deck_size, dtype=np.bool_)
    others = np.empty(width, dtype=np.int64)
    n_others = 0
    for i in range(width):
        if not (_holds(positions[0], i) or _holds(positions[1], i)):
            others[n_others] = i
            n_others += 1
    row = 0
    for k in range(cells.shape[0]):
        first, second = cells[k, 0], cells[k, 1]
        for _ in range(samples):
            while True:
                a = starts[first] + np.random.randint(0, counts[first])
                b = starts[second] + np.random.randint(0, counts[second])
                clash = False
                for c in range(held):
                    for d in range(held):
                        clash = clash or members[a, c] == members[b, d]
                if not clash:
                    break
            for c in range(held):
                out[row, positions[0, c]] = members[a, c]
                out[row, positions[1, c]] = members[b, c]
                used[members[a, c]] = True
                used[members[b, c]] = True
            for o in range(n_others):
                card = np.random.randint(0, deck_size)
                while used[card]:
                    card = np.random.randint(0, deck_size)
                used[card] = True
                out[row, others[o]] = card
            for i in range(width):
                used[out[row, i]] = False
            row += 1
