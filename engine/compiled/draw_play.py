"""Draw rounds in betting-mode play: the live seats draw in turn, and the record says so.

``play_draw_round`` is ``engine.rules.state.HandState``'s draw (``_start_draw`` to
``_maybe_end_draw``) for the compiled hand of ``engine.compiled.hand_state``: after the street's
cards, each live seat from the left of the button throws what its drawing policy says
(``engine.compiled.draw_kernel.choose_discards``) and is dealt as many from the stub, all-in seats
too. The stub is the deck the deal left; when it cannot cover a draw, its last cards go first and
the discards made before are shuffled in (RULINGS, "Draw"). A draw is recorded as a ``DRAW`` of the
cards thrown (none: the seat stands pat), then a ``DEAL`` of the cards drawn, as the state machine
records ``pN sd`` and ``d dh``. ``draw_signal`` is what the ``tag`` policy reads of the draws
(``engine.rules.policies.draw_signal``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.compiled.draw_kernel import burn_stub, choose_discards, decision_seed_of, seat_draws
from engine.compiled.hand_state import (
    BOARD_DEALT,
    BURNED,
    DEAL,
    DRAW,
    DRAW_ROUND,
    DRAWS_DONE,
    DREW,
    FOLDED,
    HOLE_DEALT,
    LABEL,
    N_DEALT,
    N_HOLE,
    STREET,
    TOP,
    record,
)


@njit(cache=True, inline="always")
def draws_after(plan, street) -> int:
    """Draw rounds on the streets after ``street`` (``plan``: a ``Streets.plan``)."""
    count = 0
    for later in range(street + 1, plan.shape[1]):
        count += plan[DRAW_ROUND, later]
    return count


@njit(cache=True)
def start_stub(deck, top, work, seed) -> None:
    """The first draw's stub: the cards of ``deck`` from ``top`` on; ``seed`` seeds the reshuffles."""
    count = deck.shape[0] - top
    for i in range(count):
        work.stub[i] = deck[top + i]
    work.at[0], work.at[1], work.at[2], work.at[3] = 0, count, 0, np.int64(seed)


@njit(cache=True)
def play_draw_round(streets, players, hand, row, cards, work, deck, seed) -> None:
    """This street's draw (``streets.plan[DRAW_ROUND]``) for every live seat, in turn from seat 0
    (left of the button). ``players`` a ``Players``: its ``draw`` policy and ranking choose the
    discards; ``row`` a ``HandRow``: every card drawn joins ``dealt``, every card thrown
    ``discarded``; ``seed``: the round's random state (the first round's also seeds the stub)."""
    seats, at, s = hand.seats, hand.at, hand.at[STREET]
    if at[DRAWS_DONE] == 0:
        start_stub(deck, at[TOP], work, seed)
    if streets.plan[HOLE_DEALT, s] == 0 and streets.plan[BOARD_DEALT, s] == 0:
        burn_stub(work, streets.plan[BURNED, s])  # (a street that deals cards burned before them)
    draws_left = draws_after(streets.plan, s)
    received = work.sorted_cards  # (free once the seat's discards are chosen)
    for seat in range(seats.shape[1]):
        if seats[FOLDED, seat]:
            continue
        n_hole = seats[N_HOLE, seat]
        mask = choose_discards(hand.hole[seat], n_hole, players.draw, players.ranking, players.kickers,
                               players.tables, work, decision_seed_of(seed, s, seat), draws_left)  # fmt: skip
        count = seat_draws(hand.hole[seat], n_hole, mask, work, cards, received)
        for i in range(count):
            row.discarded[seat, row.discarded_n[seat]] = cards[i]
            row.discarded_n[seat] += 1
            row.dealt[seat, seats[N_DEALT, seat]] = received[i]
            seats[N_DEALT, seat] += 1
        record(hand, at[LABEL], seat, DRAW, -1, cards, count, -1, 0)
        if count:
            record(hand, at[LABEL], seat, DEAL, -1, received, count, -1, 0)
        seats[DREW, seat] = count
    at[DRAWS_DONE] += 1


@njit(cache=True)
def draw_signal(seats, at, n, seat) -> int:
    """-1 when a live opponent drew fewer cards than ``seat`` at the latest draw, +1 when every live
    opponent drew more, else 0 (0 before the first draw)."""
    if at[DRAWS_DONE] == 0:
        return 0
    mine, others, more = seats[DREW, seat], 0, 0
    for o in range(n):
        if o != seat and not seats[FOLDED, o]:
            others += 1
            if seats[DREW, o] < mine:
                return -1
            more += seats[DREW, o] > mine
    return 1 if others and more == others else 0
