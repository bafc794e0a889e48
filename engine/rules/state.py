"""One hand of any game as a state machine: deals, bets, discards, showdown.

The machine reads the game's ``GameSpec`` and never names a game. Actions are
applied one at a time; an illegal one raises ``IllegalAction`` naming the seat,
the action and why (``p3 cbr 150: below the minimum raise to 200``). Seats are
0-based internally and written ``p1``, ``p2``... (PHH order: seat 0 is first left
of the button).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.hands.cards import UNKNOWN_CARD, format_cards
from engine.rules.betting import (
    RoundLimits,
    bets_per_round,
    forced_bets,
    full_raise_size,
    is_full_raise,
    over_short_all_in,
    raise_bounds,
    reopens,
)
from engine.rules.drawing import Stub
from engine.rules.games.base import (
    GameSpec,
    Opener,
    SeatOutcome,
    ShowdownInput,
    ShowdownResult,
    Street,
    Structure,
)
from engine.rules.games.description import budget_line, card_budget
from engine.rules.games.showdown import forced_out, settle
from engine.rules.pots import Pot, claimants, pots_with_antes, split_among_seats
from engine.rules.record import (
    claim_problem,
    collected_from_stacks,
    rake_problem,
    returned_reading,
    winners_problem,
)
from engine.rules.runs import MOST_RUNS, cannot_run, combined, pots_of_run
from engine.rules.showing import opener_seat, shows_pair


class IllegalAction(ValueError):
    """An action that breaks the rules of the hand."""


class Action(NamedTuple):
    """One recorded action; ``seat`` is the actor, or the seat dealt to (None: a board deal).

    ``stack_after`` (the seat's; None for a board deal) and ``pot_after`` (every chip put in,
    antes included) are those once the action is applied, with the uncalled bet it sends back
    when it closes a betting round or ends the hand; what the pots pay out never counts.
    """

    street: str
    seat: int | None
    kind: str  # post, bring_in, fold, check, call, bet, raise, discard, draw, deal, show, muck
    amount: int | None = None
    cards: tuple[int, ...] = ()
    board: int | None = None
    automatic: bool = False  # posted or applied by the rules, not chosen
    stack_after: int | None = None
    pot_after: int | None = None


@dataclass
class HandResult:
    """How the hand ended and who won what."""

    ending: str  # "showdown", "uncontested" or "everyone_dead"
    won: list[int]
    outcomes: tuple[SeatOutcome, ...]
    surviving_boards: tuple[int, ...]
    refunded: list[int] = field(default_factory=list)
    split: bool = False  # some pot or share was divided among tied hands


def seat_name(seat: int) -> str:
    return f"p{seat + 1}"


class HandState:
    """The state of one hand; see the module docstring."""

    def __init__(
        self,
        game: GameSpec,
        structure: Structure,
        starting_stacks: list[int],
        *,
        antes: list[int] | None = None,
        blinds: list[int] | None = None,
        min_bet: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
        starting_bet: int | None = None,
        bring_in: int | None = None,
        options: Mapping[str, Any] | None = None,
        raise_cap: int = 4,
        record_deals: bool = False,
        runs: int = 1,
    ) -> None:
        n = len(starting_stacks)
        if not game.min_players <= n <= game.max_players:
            raise IllegalAction(
                f"{game.title} seats {game.min_players} to {game.max_players} players, not {n}"
            )
        if any(stack <= 0 for stack in starting_stacks):
            raise IllegalAction("every starting stack must be positive")
        self.game = game
        self.structure = structure
        self.options = game.resolve_options(options)
        self.streets = game.streets_under(self.options)  # hole-card counts of these options
        # the forced bets belong to the first street with a betting round (a street before it deals
        # only: Courchevel's first board card); none: the last street's index past the end
        self.forced_street = next((i for i, s in enumerate(self.streets) if s.betting), len(self.streets))
        if not card_budget(game, self.options, n)[-1]:  # e.g. too many players for five hole cards each
            raise IllegalAction(budget_line(game, self.options, n))
        self.n = n
        self.starting_stacks = list(starting_stacks)
        self.stacks = list(starting_stacks)
        self.bets = [0] * n
        self.contributed = [0] * n  # every chip put in: antes (dead) and bets (live)
        self.antes_paid = [0] * n
        self.folded = [False] * n
        self.n_live = n  # seats not folded
        self.dead = [False] * n
        self.voided = [False] * n
        self.mucked = [False] * n
        self.muck_order = [0] * n  # k for the k-th seat to muck: the last keeps an unclaimed pot
        self.shown = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.up: list[list[int]] = [[] for _ in range(n)]  # hole cards dealt face up (everyone sees them)
        self.dealt_hole: list[list[int]] = [[] for _ in range(n)]
        self.discarded: list[list[int]] = [[] for _ in range(n)]
        self.boards: list[list[int]] = [[] for _ in game.board_names]
        self.seen: set[int] = set()
        self.actions: list[Action] = []
        self.result: HandResult | None = None
        self.street_index = 0
        self._street = self.streets[0]
        self.phase = "deal"  # deal, bet, showdown, over
        self.pending: set[int] = set()
        self.acted: dict[int, int] = {}  # seat -> the largest bet when it last acted
        self.next_seat: int | None = None
        self.raise_count = 0
        self.raise_cap = raise_cap
        self.refunded = [0] * n
        self.rake = 0  # what the house took: the pot less what the record has collected
        self.counted_returns = [0] * n  # returned bets the record's winnings count (RULINGS)
        self._hole_due = [0] * n
        self._board_due = 0
        self._discards_unsettled = False
        self._due: dict[int, set[int]] = {}
        self._discard_street = self.streets[0].name
        self._set_bet_sizes(antes, blinds, min_bet, small_bet, big_bet, starting_bet)
        self._set_bring_in(bring_in)
        self.completion_due = False  # a bring-in is posted or due and nobody has completed it
        self.open_choice: set[int] = set()  # seats the record may name to act first (hidden up cards)
        self.big_bet_allowed = False  # an open pair lets this street bet the big bet
        self.burned = 0  # cards the streets so far burned (the deck's count when it runs short)
        self.stub = Stub(game.deck.size) if game.draws else None  # a draw game's cards left to deal
        self.record_deals = record_deals  # a replay: the record decides the cards a draw deals
        self.drawers: list[int] = []  # seats still to draw this street, in turn
        self._drawn = False  # this street's draw is over
        self._draw_turn: dict[int, int] = {}  # each seat's place in the hand's draws (its latest)
        self._draw_turn_log: list[int] = []  # the seat of each draw, in turn
        self._dealing_seat = 0
        if not 1 <= runs <= MOST_RUNS:
            raise IllegalAction(f"the board is run 1 to {MOST_RUNS} times, not {runs}")
        self.runs = runs  # the board run this many times once no more betting can happen
        self.run = 0  # the run being dealt
        self.run_street: int | None = None  # the first street run again (None: not begun)
        self._post_forced_bets()
        self._start_deals()

    # -- set-up -------------------------------------------------------------------------------

    def _set_bet_sizes(self, antes, blinds, min_bet, small_bet, big_bet, starting_bet) -> None:
        n = self.n
        self.phh_antes = list(antes) if antes is not None else [0] * n  # as written
        self.phh_blinds = list(blinds) if blinds is not None else [0] * n
        try:
            sizes = forced_bets(self.game, self.structure, n, antes, blinds, min_bet, small_bet, big_bet,
                                starting_bet)  # fmt: skip
        except ValueError as error:
            raise IllegalAction(str(error)) from None
        self.antes, self.blinds, self.starting_bet = sizes.antes, sizes.blinds, sizes.starting_bet
        self.min_bet, self.small_bet, self.big_bet = sizes.min_bet, sizes.small_bet, sizes.big_bet
        self.round_cap = bets_per_round(self.game, self.structure, self.options, self.raise_cap)

    def _set_bring_in(self, bring_in: int | None) -> None:
        self.bring_in = bring_in or 0
        if self.bring_in < 0:
            raise IllegalAction(f"the bring-in {self.bring_in} is negative")
        if self.bring_in and not self.game.bring_in:
            raise IllegalAction(f"{self.game.title} has no bring-in")
        if self.bring_in and self.bring_in >= self.min_bet:
            raise IllegalAction(
                f"the bring-in {self.bring_in} must be less than the first bet ({self.min_bet})"
            )
        if self.game.bring_in and any(self.blinds):
            raise IllegalAction(f"{self.game.title} has a bring-in, not blinds or straddles")

    def _post(self, seat: int, amount: int, live: bool) -> None:
        amount = min(amount, self.stacks[seat])
        if amount <= 0:
            return
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        if live:
            self.bets[seat] += amount
        else:
            self.antes_paid[seat] += amount
        self._record(seat, "post", amount=amount, automatic=True)

    def _post_forced_bets(self) -> None:
        for seat, ante in enumerate(self.antes):
            self._post(seat, ante, live=False)
        for seat, blind in enumerate(self.blinds):  # negative: a live post by a player just seated
            self._post(seat, abs(blind), live=True)
        if self.game.starting_bet:
            self._post(0, self.starting_bet, live=True)
        self.last_increment = max(max(self.bets), self.min_bet)

    # -- properties ----------------------------------------------------------------------------

    @property
    def street(self) -> Street:
        """The current street (the last one once the hand reaches the showdown)."""
        return self._street

    @property
    def live_seats(self) -> list[int]:
        return [s for s in range(self.n) if not self.folded[s]]

    @property
    def pot(self) -> int:
        return sum(self.contributed)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def hole_due(self, seat: int) -> int:
        """Hole cards the seat is due now."""
        return self._hole_due[seat] if self.phase in ("deal", "draw") else 0

    @property
    def board_due(self) -> int:
        """Cards due to each board now (0 while hole cards are still due)."""
        return self._board_due if self.phase == "deal" and not any(self._hole_due) else 0

    def _record(
        self,
        seat: int | None,
        kind: str,
        amount: int | None = None,
        cards: tuple[int, ...] = (),
        board: int | None = None,
        automatic: bool = False,
        street: str | None = None,
    ) -> None:
        name = street or self._street.name
        stack = None if seat is None else self.stacks[seat]
        self.actions.append(Action(name, seat, kind, amount, cards, board, automatic, stack, self.pot))

    def _fail(self, text: str | Callable[[], str], why: str) -> None:
        raise IllegalAction(f"{text() if callable(text) else text}: {why}")

    # -- dealing -------------------------------------------------------------------------------

    def _start_deals(self) -> None:
        street = self.street
        self.phase = "deal"
        if self.runs > 1 and self.run_street is None and self._runs_begin_here():
            self._begin_runs()
        self._hole_due = [street.hole_cards if not self.folded[s] else 0 for s in range(self.n)]
        self._board_due = street.board_cards
        burn = (
            self.game.burns(street, self.options)
            if street.board_cards or street.hole_cards or street.draw
            else 0
        )
        self._drawn = False
        if self.stub is not None:
            burn = self.stub.burn(burn)
        if self._deck_runs_short():  # one community card for everyone instead (RULINGS), burning none
            self._hole_due, self._board_due = [0] * self.n, 1
        elif not self._deck_runs_short(burn):  # (a burn that would leave the deck short is skipped)
            self.burned += burn
        self._street_hole = list(self._hole_due)  # hole cards this street deals each seat
        self._maybe_start_betting()

    def _runs_begin_here(self) -> bool:
        """Whether this street is the first dealt once nobody can bet: after the first betting round,
        betting is closed; up to it (Courchevel's first board card), nobody may act against the blinds
        either."""
        if not self.betting_is_closed():
            return False
        if self.street_index > self.forced_street:
            return True
        return bool(self.street.board_cards) and not self._betting_needed()

    def _begin_runs(self) -> None:
        """The streets from this one on are dealt once per run, each run's boards starting from the
        cards dealt so far (``engine.rules.runs``)."""
        problem = cannot_run(self.streets, self.street_index, len(self.game.board_names))
        if problem:
            raise IllegalAction(f"the board is run {self.runs} times, but {problem}")
        self.run_street = self.street_index
        shared = [list(board) for board in self.boards]
        self.boards += [list(board) for _ in range(self.runs - 1) for board in shared]

    def _deck_runs_short(self, burn: int = 0) -> bool:
        """Whether the deck, after ``burn`` more cards, cannot give every live seat this street's hole
        cards (a game whose deck may run short deals one community card instead)."""
        if self.game.deck_runs_short is None or not any(self._hole_due):
            return False
        dealt = sum(map(len, self.dealt_hole)) + sum(map(len, self.boards)) + self.burned + burn
        return sum(self._hole_due) > self.game.deck.size - dealt

    def _check_new_cards(self, cards: list[int], text: str | Callable[[], str], dealt: bool = True) -> None:
        known = [c for c in cards if c != UNKNOWN_CARD]
        if len(set(known)) != len(known):
            self._fail(text, "a card appears twice")
        if self.stub is not None and dealt:  # a draw game deals from its stub (reshuffled discards too)
            seat_turn = self._draw_turn.get(self._dealing_seat) if self.phase == "draw" else None
            if self.record_deals and self.phase == "draw" and (problem := self._held_or_shown(known)):
                self._fail(text, problem)
            problem = self.stub.take(cards, self.seen, seat_turn, lambda c: format_cards([c], self.game.deck))
            if problem and self.record_deals and self.phase == "draw":
                self.seen.update(known)  # the record's card, not the rulings' stub's: it decides
            elif problem:
                self._fail(text, problem)
            return
        for card in known:
            if card in self.seen:
                self._fail(text, f"{format_cards([card], self.game.deck)} was already dealt")
        self.seen.update(known)

    def _held_or_shown(self, cards: list[int]) -> str | None:
        """Why a replayed draw cannot deal one of these known cards: a live seat holds it or a board
        shows it. The record decides any other (sites and PokerKit shuffle burned cards and folded
        hands back into the stub, and may deal a player a card he just threw)."""
        for card in cards:
            shown = format_cards([card], self.game.deck)
            holder = next((s for s in self.live_seats if card in self.hole[s]), None)
            if holder is not None:
                return f"{shown} is in {seat_name(holder)}'s hand"
            if any(card in board for board in self.boards):
                return f"{shown} is on the board"
        return None

    def deal_hole(self, seat: int, cards: list[int]) -> None:
        """Deal hole cards to a seat (``d dh pN cards``); unknown cards allowed."""

        def text() -> str:
            return f"d dh {seat_name(seat)} {format_cards(cards, self.game.deck)}"

        self._settle_discards()
        if self.phase == "over":
            self._fail(text, "the hand is over")
        if not 0 <= seat < self.n:
            self._fail(text, f"there is no seat {seat_name(seat)}")
        if self.phase not in ("deal", "draw") or len(cards) > self._hole_due[seat]:
            due = self.hole_due(seat)
            self._fail(text, f"{seat_name(seat)} is due {due} hole card(s) now, not {len(cards)}")
        first_up = self._street_hole[seat] - self.street.up_cards  # the street's last cards go face up
        dealt_before = self._street_hole[seat] - self._hole_due[seat]
        up = [card for i, card in enumerate(cards, dealt_before) if i >= first_up]  # unknown ones too
        if self.phase == "draw":
            up = []  # (drawn cards are dealt face down)
        self._dealing_seat = seat
        self._check_new_cards(cards, text)
        self.hole[seat].extend(cards)
        self.dealt_hole[seat].extend(cards)
        self.up[seat].extend(up)
        self._hole_due[seat] -= len(cards)
        self._record(seat, "deal", cards=tuple(cards))
        if self.phase == "draw":
            self._maybe_end_draw()
        else:
            self._maybe_start_betting()

    def deal_board(self, per_board: list[list[int]]) -> None:
        """Deal this street's cards to every board (``d db`` with one card list per board)."""

        def text() -> str:
            return "d db " + "/".join(format_cards(cards, self.game.deck) for cards in per_board)

        self._settle_discards()
        self._close_idle_round()
        if self.phase != "deal" or self._board_due == 0:
            self._fail(text, "no board cards are due now")
        if any(self._hole_due):
            self._fail(text, "hole cards are still due")
        n_boards = len(self.game.board_names)
        if len(per_board) != n_boards:
            self._fail(text, f"{self.game.title} deals to {n_boards} board(s), not {len(per_board)}")
        for cards in per_board:
            if len(cards) != self._board_due:
                self._fail(
                    text,
                    f"the {self.street.name} deals {self._board_due} card(s) to each board",
                )
            if UNKNOWN_CARD in cards:
                self._fail(text, "board cards cannot be unknown")
        self._check_new_cards([c for cards in per_board for c in cards], text)
        first = self.run * n_boards  # (run it twice: this run's boards)
        for board, cards in enumerate(per_board, first):
            self.boards[board].extend(cards)
            self._record(None, "deal", cards=tuple(cards), board=board)
        self._board_due = 0
        if self.game.discard_board is not None:
            self._discards_unsettled = True
            self._discard_street = self._street.name
            # what must go before the next action; a card still held then voids its hand
            self._due = {seat: set(cards) for seat, cards in self.forced_discards().items()}
        self._maybe_start_betting()

    # -- forced discards (a discard-trigger board) -------------------------------------------------

    def forced_discards(self) -> dict[int, list[int]]:
        """Known hole cards that the discard board forces out now, by seat."""
        if self.game.discard_board is None:
            return {}
        bottom = self.boards[self.game.discard_board]
        return {seat: cards for seat in self.live_seats if (cards := forced_out(self.hole[seat], bottom))}

    def discard(self, seat: int, cards: list[int]) -> None:
        """``pN sd cards``: in a draw, the cards a seat throws away to draw as many (none: it stands
        pat); otherwise a forced discard, each card matching a discard-board rank."""

        def text() -> str:
            return f"{seat_name(seat)} sd {format_cards(cards, self.game.deck)}".rstrip()

        if self.game.draws:
            self._close_idle_round()  # (everyone else all in: the round's last check may go unwritten)
        if self.phase == "draw" or (self.game.draws and self.game.discard_board is None):
            self._draw(seat, cards, text)
            return
        if not cards:
            return

        if self.game.discard_board is None:
            self._fail(text, f"{self.game.title} has no discards")
        if self.phase == "over" or not 0 <= seat < self.n or self.folded[seat]:
            self._fail(text, f"{seat_name(seat)} is not in the hand")
        bottom_ranks = {c >> 2 for c in self.boards[self.game.discard_board]}
        for card in cards:
            shown = format_cards([card], self.game.deck)
            if card == UNKNOWN_CARD:
                self._fail(text, "a discard is face up, so its card must be known")
            if card >> 2 not in bottom_ranks:
                self._fail(text, f"{shown} does not match a Bottom Board rank")
            if card in self.hole[seat]:
                self.hole[seat].remove(card)
            elif UNKNOWN_CARD in self.hole[seat] and card not in self.seen:
                self.hole[seat].remove(UNKNOWN_CARD)
                self.seen.add(card)
            else:
                self._fail(text, f"{shown} is not among {seat_name(seat)}'s hole cards")
            self.discarded[seat].append(card)
            self._due.get(seat, set()).discard(card)
        self._record(seat, "discard", cards=tuple(cards), street=self._discard_street)
        self._discards_unsettled = True

    def _draw(self, seat: int, cards: list[int], text: Callable[[], str]) -> None:
        """A seat's draw: it discards ``cards`` (known or hidden) and is due as many."""
        if self.phase != "draw":
            self._fail(text, f"no draw now ({self.street.name} {self.phase})")
        if not self.drawers:
            self._fail(text, "every seat has drawn this round; the cards drawn are due")
        if seat != self.drawers[0]:
            self._fail(text, f"not {seat_name(seat)}'s draw ({seat_name(self.drawers[0])} draws next)")
        self._take_from_hole(seat, cards, text)
        turn = len(self._draw_turn_log)
        self._draw_turn_log.append(seat)
        self._draw_turn[seat] = turn
        self.stub.discard(cards, turn)  # type: ignore[union-attr]
        self.discarded[seat].extend(cards)
        self._hole_due[seat] = len(cards)
        self.drawers.pop(0)
        self._record(seat, "draw", cards=tuple(cards))
        self._maybe_end_draw()

    def _take_from_hole(self, seat: int, cards: list[int], text: Callable[[], str]) -> None:
        """Remove cards a seat throws away from its hole cards; a known card it was dealt hidden is
        then known (and taken as seen)."""
        hole, revealed = list(self.hole[seat]), []
        for card in cards:
            if card in hole:
                hole.remove(card)
            elif UNKNOWN_CARD in hole and (card == UNKNOWN_CARD or card not in self.seen
                                           or self._recycled(card)):  # fmt: skip
                hole.remove(UNKNOWN_CARD)
                revealed.append(card)
            else:
                shown = format_cards([card], self.game.deck)
                self._fail(text, f"{shown} is not among {seat_name(seat)}'s hole cards")
        self.hole[seat] = hole
        self.seen.update(card for card in revealed if card != UNKNOWN_CARD)
        for card in revealed:
            if card != UNKNOWN_CARD and self.stub is not None:
                self.stub.claim_hidden(card)

    def _recycled(self, card: int) -> bool:
        """Whether a known card can be one dealt face down from reshuffled discards (a draw game)."""
        return self.stub is not None and card in self.stub.pool and self.stub.pool_gone > 0

    def _start_draw(self) -> None:
        """Open this street's draw: every live seat, from the left of the button, draws in turn."""
        self.phase = "draw"
        self.drawers = list(self.live_seats)
        self._maybe_end_draw()

    def _maybe_end_draw(self) -> None:
        if self.drawers or any(self._hole_due):
            return
        self._drawn = True
        self.phase = "deal"
        self._maybe_start_betting()

    def apply_forced_discards(self) -> dict[int, list[int]]:
        """Discard every forced card now (what players do in simulation)."""
        forced = self.forced_discards()
        for seat, cards in forced.items():
            self.discard(seat, cards)
        self._settle_discards()
        return forced

    def _settle_discards(self) -> None:
        """Fold the players whose hole cards are all gone (dead); end the hand if needed."""
        if not self._discards_unsettled or self.phase == "over":
            return
        self._discards_unsettled = False
        for seat, kept in self._due.items():
            if kept and not self.folded[seat]:
                self.voided[seat] = True  # did not discard in time: the hand is voided
        self._due = {}
        live = self.live_seats
        dying = [s for s in live if not self.hole[s] and self.dealt_hole[s]]
        if not dying:
            return
        if len(dying) == len(live):  # everyone left dies at once: they share the pot
            for seat in dying:
                self.dead[seat] = True
            self._end_everyone_dead(dying)
            return
        for seat in dying:
            self.dead[seat] = True
            self.folded[seat] = True
            self.n_live -= 1
            self.pending.discard(seat)
            self._record(seat, "fold", automatic=True)
        if self.n_live == 1:
            self._finish_uncontested()
        elif self.phase == "bet":
            if not self.pending or not self._betting_needed():
                self._next_street()
            elif self.next_seat not in self.pending:
                self.next_seat = self._next_pending(self.next_seat)

    # -- betting -------------------------------------------------------------------------------

    def _maybe_start_betting(self) -> None:
        if self.phase != "deal" or any(self._hole_due) or self._board_due:
            return
        street = self.street
        live = self.live_seats
        if len(live) <= 1:
            self._finish_uncontested()
            return
        if street.draw and not self._drawn:
            self._start_draw()
            return
        if not street.betting or not self._betting_needed():
            self._next_street()
            return
        self.phase = "bet"
        self.pending = {s for s in live if self.stacks[s] > 0}
        self.acted = {}
        self.raise_count = 0
        self.round_big = False  # a big bet was made this round (an open pair's street)
        pair_option = street.big_bet_on_open_pair
        live = [not f for f in self.folded]
        unwritten = [s for s in range(self.n) if live[s] and UNKNOWN_CARD in self.up[s]]
        paired = shows_pair(self._known_up(), live) or bool(unwritten)  # unwritten up cards may pair
        self.big_bet_allowed = bool(pair_option and self.options.get(pair_option) and paired)
        self.open_choice = set()
        self.completion_due = False  # (a bring-in is due on its own street only)
        if street.opener != Opener.POSITION:  # by the up cards (stud): the first street's brings in
            first = self._opener_by_cards(street.opener, live)
            self.completion_due = self.street_index == self.forced_street and self.bring_in > 0
            if self.street_index > self.forced_street:
                self.last_increment = 0
        elif self.street_index == self.forced_street:
            # first to act: left of the largest blind or straddle (heads-up: the button)
            forced = list(self.blinds)
            if self.game.starting_bet:
                forced[0] = max(forced[0], self.starting_bet)
            largest = max(forced)
            first = (max(s for s in range(self.n) if forced[s] == largest) + 1) % self.n if largest else 0
            if self.game.starting_bet:  # the starting bet needs no answer from its poster
                self.pending.discard(0)
        else:
            first = 0
            self.last_increment = 0
        self.next_seat = self._next_pending(first - 1)

    def _known_up(self) -> list[list[int]]:
        return [[c for c in cards if c != UNKNOWN_CARD] for cards in self.up]

    def _opener_by_cards(self, opener: Opener, live: list[bool]) -> int:
        """The seat the up cards name to act first. Where a live seat's up cards are unknown (a record
        that never wrote them), the record decides among it and the seat the known cards name
        (``open_choice``)."""
        first = opener_seat(opener.value, self._known_up(), live, len(self.game.deck.ranks))
        hidden = {s for s in range(self.n) if live[s] and UNKNOWN_CARD in self.up[s]}
        if hidden:
            self.open_choice = (hidden | {first}) & self.pending
        return first

    def _close_idle_round(self) -> None:
        """End a betting round whose seats left to act can only check (everyone else is all in).

        Hand histories differ on whether such a check is written (PokerKit leaves it out when
        the big blind is called all in): both are accepted, the check being a no-op.
        """
        if self.phase == "bet" and not self._betting_needed():
            self._next_street()

    def _betting_needed(self) -> bool:
        """Whether a betting round has anyone to bet against or a bet to answer."""
        can_act = [s for s in self.live_seats if self.stacks[s] > 0]
        current = max(self.bets)
        return len(can_act) > 1 or any(self.bets[s] < current for s in can_act)

    def _next_pending(self, after: int | None) -> int | None:
        start = -1 if after is None else after
        for step in range(1, self.n + 1):
            seat = (start + step) % self.n
            if seat in self.pending:
                return seat
        return None

    def _check_turn(self, seat: int, text: str) -> None:
        self._settle_discards()
        if self.phase == "over":
            self._fail(text, "the hand is over")
        if not 0 <= seat < self.n:
            self._fail(text, f"there is no seat {seat_name(seat)}")
        if self.phase != "bet":
            self._fail(text, f"no betting now ({self.street.name} {self.phase})")
        if seat in self.open_choice:  # the record names the opener the hidden up cards leave open
            self.next_seat = seat
        self.open_choice = set()
        if seat != self.next_seat:
            self._fail(text, f"not {seat_name(seat)}'s turn ({seat_name(self.next_seat)} acts next)")

    def _limits(self) -> RoundLimits:
        street_bet = self.big_bet if self.street.big_bet or self.round_big else self.small_bet
        min_bet = street_bet if self.structure is Structure.FIXED_LIMIT else self.min_bet
        if self.game.starting_bet:
            min_bet = self.starting_bet
        return RoundLimits(max(self.bets), self.last_increment, min_bet)

    def options_for(self, seat: int) -> dict[str, int | bool]:
        """What ``seat`` may do now: call amount, and raise bounds if it may raise."""
        current = max(self.bets)
        call = min(current - self.bets[seat], self.stacks[seat])
        can_raise = self._may_raise(seat) and self.stacks[seat] > call
        low = high = 0
        if can_raise:
            low, high = self._bet_bounds(seat, self._limits())
            all_in = self.bets[seat] + self.stacks[seat]
            low, high = min(low, all_in), min(high, all_in)
        return {"call": call, "can_raise": can_raise, "min_to": low, "max_to": high,
                "bring_in": self.bring_in_due}  # fmt: skip

    @property
    def bring_in_due(self) -> bool:
        """Whether the seat to act must post the bring-in (pb) or complete: nothing is bet yet."""
        return self.completion_due and max(self.bets) == 0

    def _refuse_while_bring_in_due(self, text: str) -> None:
        if self.bring_in_due:
            self._fail(text, f"the bring-in is due (pb), or completing to {self.min_bet}")

    def _may_raise(self, seat: int) -> bool:
        return self.raise_refusal(seat) is None

    def raise_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not bet or raise now (the rule that forbids it), or None if it may."""
        if self.street.call_only:
            return f"the {self.street.name} round allows only call or fold"
        if self.round_cap is not None and self.raise_count >= self.round_cap:
            if self.game.max_raises_option is not None:
                return f"a round allows one bet and {self.round_cap - 1} raise(s)"
            return f"the betting is capped at {self.round_cap} bets and raises"
        if seat in self.acted:
            # reopened only by raises adding up to a full raise since this seat acted (TDA Rule 47;
            # in fixed-limit, half a full bet or raise)
            full = full_raise_size(self.structure, self._limits())
            if not reopens(self.structure, full, max(self.bets) - self.acted[seat]):
                if self.structure is Structure.FIXED_LIMIT:
                    return "the betting was not reopened (a short all-in of less than half a bet)"
                return "the betting was not reopened (a short all-in is not a full raise)"
        others = [s for s in self.live_seats if s != seat and self.stacks[s] > 0]
        if not others:
            return "everyone else is all-in"
        return None

    def fold(self, seat: int) -> None:
        """``pN f`` (not while a bring-in is due: nothing has been bet)."""
        self._check_turn(seat, f"{seat_name(seat)} f")
        self._refuse_while_bring_in_due(f"{seat_name(seat)} f")
        self.folded[seat] = True
        self.n_live -= 1
        self._record(seat, "fold")
        self._after_action(seat)

    def post_bring_in(self, seat: int) -> None:
        """``pN pb``: the first street's opener posts the bring-in (or as much of it as it has)."""
        text = f"{seat_name(seat)} pb"
        self._check_turn(seat, text)
        if not self.bring_in_due:
            self._fail(text, "no bring-in is due")
        amount = min(self.bring_in, self.stacks[seat])
        self._move(seat, amount)
        self._record(seat, "bring_in", amount=amount)
        self._after_action(seat)

    def check_or_call(self, seat: int) -> None:
        """``pN cc``: match the largest bet, or as much of it as the stack allows."""
        self._check_turn(seat, f"{seat_name(seat)} cc")
        self._refuse_while_bring_in_due(f"{seat_name(seat)} cc")
        amount = min(max(self.bets) - self.bets[seat], self.stacks[seat])
        self._move(seat, amount)
        self._record(seat, "call" if amount else "check", amount=amount or None)
        self._after_action(seat)

    def bet_or_raise(self, seat: int, to: int) -> None:
        """``pN cbr to``: bet, or raise the largest bet, to a street total of ``to``."""
        text = f"{seat_name(seat)} cbr {to}"
        self._check_turn(seat, text)
        current = max(self.bets)
        refusal = self.raise_refusal(seat)
        if refusal:
            self._fail(text, refusal)
        if to <= current:
            self._fail(text, f"not above the current bet of {current} (cc calls it)")
        all_in_to = self.bets[seat] + self.stacks[seat]
        if to > all_in_to:
            self._fail(text, f"more than the stack ({all_in_to} at most)")
        limits = self._limits()
        low, high = self._bet_bounds(seat, limits)
        completing = self._completing(limits)
        word = "raise" if current and not completing else "bet"
        if self.big_bet_allowed and not self.round_big and to == current + self.big_bet:
            low = high = to  # an open pair: the big bet instead of the small one
            self.round_big = True
            limits = self._limits()
        if not completing and over_short_all_in(self.structure, limits, to):
            low = high = to  # a card room's bet over a short all-in (a record's: read as written)
        covered = max((self.bets[s] + self.stacks[s] for s in self.live_seats if s != seat), default=0)
        capped = self.structure is Structure.FIXED_LIMIT and to == covered  # all any opponent can match
        if to < low and to != all_in_to and not capped:
            self._fail(text, f"below the minimum {word} to {low}")
        if to > high:
            self._fail(text, f"above the maximum {word} to {high}")
        self._move(seat, to - self.bets[seat])
        self._record(seat, word, amount=to)
        others = {s for s in self.live_seats if s != seat and self.stacks[s] > 0}
        if completing:  # from nothing: in fixed-limit an all-in of half the bet completes too (TDA Rule 47)
            full = reopens(self.structure, limits.min_bet, to)
        else:
            full = is_full_raise(self.structure, limits, to, self.game.raise_rule)
        if full:
            self.raise_count += 1  # a short all-in uses up a bet or raise only if it counts as full
            self.last_increment = limits.min_bet if completing else to - current
            self.completion_due = False
            self.acted = {seat: to}
        else:
            self.acted[seat] = to
        self.pending = others
        self._after_action(seat, raised=True)

    def _completing(self, limits: RoundLimits) -> bool:
        """Whether a bet now completes a bring-in (less than the street's bet is in)."""
        return self.completion_due and max(self.bets) < limits.min_bet

    def _bet_bounds(self, seat: int, limits: RoundLimits) -> tuple[int, int]:
        """The smallest and largest bet or raise to now; a completion of a bring-in is to the
        street's bet (in fixed-limit exactly)."""
        low, high = raise_bounds(self.structure, limits, self.bets[seat], self.stacks[seat], self.pot,
                                 self.game.raise_rule)  # fmt: skip
        if self._completing(limits):
            low = limits.min_bet
            high = low if self.structure is Structure.FIXED_LIMIT else max(high, low)
        return low, high

    def _move(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        self.contributed[seat] += amount

    def _after_action(self, seat: int, raised: bool = False) -> None:
        if not raised:
            self.pending.discard(seat)
            self.acted[seat] = max(self.bets)
        if self.n_live == 1:
            self._finish_uncontested()
            return
        if not self.pending:
            self._next_street()
            return
        self.next_seat = self._next_pending(seat)

    def _next_street(self) -> None:
        if self.street_index >= self.forced_street:  # (before it, the forced bets wait for their round)
            self._refund_uncalled()
            self.bets = [0] * self.n
        self.pending = set()
        self.next_seat = None
        self.street_index += 1
        if (
            self.street_index >= len(self.streets)
            and self.run_street is not None
            and self.run < self.runs - 1
        ):
            self.run += 1  # the next run deals its streets
            self.street_index = self.run_street
        if self.street_index >= len(self.streets):
            self.phase = "showdown"
            return
        self._street = self.streets[self.street_index]
        self._start_deals()

    # -- showdown ------------------------------------------------------------------------------

    def betting_is_closed(self) -> bool:
        """Whether no more betting can happen in this hand."""
        if self.phase in ("showdown", "over"):
            return True
        if self.phase in ("bet", "draw"):
            return False
        return sum(1 for s in self.live_seats if self.stacks[s] > 0) <= 1

    def show_or_muck(self, seat: int, cards: list[int] | None) -> None:
        """``pN sm cards`` shows the hole cards; ``pN sm`` (no cards) mucks them. The seat everyone
        folded to may show after the hand is over: its cards become known, nothing else changes."""

        def text() -> str:
            return f"{seat_name(seat)} sm {format_cards(cards or [], self.game.deck)}".rstrip()

        self._settle_discards()
        self._close_idle_round()
        if self.phase == "over" and not (cards and self._won_uncontested(seat)):
            self._fail(text, "the hand is over")
        if not self.betting_is_closed():
            self._fail(text, "the showdown has not been reached")
        if self.folded[seat]:
            self._fail(text, f"{seat_name(seat)} is not in the hand")
        if not cards:
            self.mucked[seat] = True
            self.muck_order[seat] = 1 + max(self.muck_order)
            self._record(seat, "muck")
            return
        if sorted(cards) != sorted(self.hole[seat]):
            unknown = [c for c in self.hole[seat] if c == UNKNOWN_CARD]
            known = [c for c in self.hole[seat] if c != UNKNOWN_CARD]
            revealed = [c for c in cards if c not in known]
            if (
                len(cards) != len(self.hole[seat])
                or len(revealed) != len(unknown)
                or any(c not in cards for c in known)
            ):
                held = format_cards(self.hole[seat], self.game.deck) or "no cards"
                self._fail(text, f"{seat_name(seat)} holds {held}")
            recycled = [c for c in revealed if self._recycled(c)]  # dealt face down from reshuffled discards
            self._check_new_cards([c for c in revealed if c not in recycled], text, dealt=False)
            for card in recycled:
                self.stub.claim_hidden(card)  # type: ignore[union-attr]
            self.hole[seat] = list(cards)
            for card in revealed:  # what was dealt as unknown is now known
                self.dealt_hole[seat][self.dealt_hole[seat].index(UNKNOWN_CARD)] = card
        self.shown[seat] = True
        self._record(seat, "show", cards=tuple(cards))
        if self.phase == "over":  # (shown after the hand: its stack before the pot it won, as ever)
            assert self.result is not None
            last = self.actions[-1]
            self.actions[-1] = last._replace(stack_after=self.stacks[seat] - self.result.won[seat])

    def _won_uncontested(self, seat: int) -> bool:
        """Whether the hand is over and ``seat`` won it with everyone else folded."""
        return self.result is not None and self.result.ending == "uncontested" and not self.folded[seat]

    def finish(self) -> HandResult:
        """End the hand after its last action: refund, pots, showdown, stacks."""
        self._settle_discards()
        self._close_idle_round()
        if self.phase == "over":
            assert self.result is not None
            return self.result
        if self.phase != "showdown":
            if self.phase == "bet":
                where = f"{seat_name(self.next_seat)} to act on the {self.street.name}"
            elif self.phase == "draw" and self.drawers:
                where = f"{seat_name(self.drawers[0])} to draw on the {self.street.name}"
            else:
                where = f"{self.street.name} cards not dealt"
            raise IllegalAction(f"the hand ends before it is over ({where})")
        refunded = self._refund_uncalled()
        contenders = self._contenders()
        # a voided hand's chips play like a fold's (unless every hand left is voided: they share);
        # a mucked hand wins nothing, but a pot every claimant of which mucked stays with the last
        out = [self.folded[s] or self.voided[s] for s in range(self.n)]
        pots = self._pots(self.folded if all(out) else out)
        pots = claimants(pots, set(contenders), self.muck_order)
        showdown = self._settle(pots, contenders)
        result = self._close(
            "showdown", list(showdown.won), showdown.outcomes, showdown.surviving_boards, refunded
        )
        result.split = showdown.split
        return result

    def _settle(self, pots: list[Pot], contenders: list[int]) -> ShowdownResult:
        """The showdown's result; run it twice: each run's part of every pot by its own boards."""
        runs = self.runs if self.run_street is not None else 1
        per_run = len(self.game.board_names)
        results = [
            settle(
                self.game,
                ShowdownInput(
                    pots=pots_of_run(pots, run, runs),
                    hole_cards=tuple(tuple(h) for h in self.hole),
                    boards=tuple(tuple(b) for b in self.boards[run * per_run : (run + 1) * per_run]),
                    contenders=frozenset(contenders),
                    options=self.options,
                ),
            )
            for run in range(runs)
        ]
        return results[0] if runs == 1 else combined(results, per_run)

    def hidden_at_showdown(self) -> bool:
        """Whether a hand still claiming at the showdown was never shown (``????``): the rules
        cannot name the winners, the record must."""
        self._settle_discards()
        self._close_idle_round()
        return self.phase == "showdown" and any(
            UNKNOWN_CARD in self.hole[s] for s in self.live_seats if not self.mucked[s]
        )

    def finish_by_record(self, collected: list[int] | None = None, finishing: list[int] | None = None,
                         show: Callable[[int], str] = str) -> tuple[HandResult, bool]:  # fmt: skip
        """End the hand as its record says (RULINGS, "Real-money hand histories"): ``collected``
        is what each seat took (``winnings``), else ``finishing`` each seat's stack after the hand
        (what it took is the stack less what it kept); the pot less all of it is the rake. Where
        the rules can name the winners (cards shown, or one seat left) the record must name the
        same ones, each taking at most what the rules give it; where hidden cards leave them open,
        the record decides, within the pots each collector may win. Winnings that count a returned
        bet in what its seat collected are read without it (``counted_returns`` says how much).
        Returns the result and whether the record decided; raises ``IllegalAction`` with the reason
        when the record does not fit (amounts written by ``show``)."""
        record = collected if collected is not None else finishing
        if record is None or len(record) != self.n:
            raise IllegalAction(f"the record lists {len(record or [])} amounts for {self.n} players")
        if not self.hidden_at_showdown():
            result = self.finish()
            won = result.won

            def against_the_rules(taken: list[int]) -> str | None:
                return rake_problem(sum(won), taken, show) or winners_problem(won, taken, show)

            collected = self._read_record(collected, finishing, sum(won), against_the_rules)
            for seat in range(self.n):
                self.stacks[seat] += collected[seat] - won[seat]
            self.rake = sum(won) - sum(collected)
            result.won = list(collected)
            return result, False
        refunded = self._refund_uncalled()
        pots = self._pots(self.folded)

        def against_the_pots(taken: list[int]) -> str | None:
            return rake_problem(self.pot, taken, show) or claim_problem(pots, taken, show)

        collected = self._read_record(collected, finishing, self.pot, against_the_pots)
        outcomes = tuple(SeatOutcome() for _ in range(self.n))
        return self._close(
            "showdown", list(collected), outcomes, tuple(range(len(self.boards))), refunded
        ), True

    def finish_unchecked(self) -> HandResult:
        """End a hand whose hidden cards leave the showdown open and that has no record (RULINGS:
        stored unchecked): who won is unknown, so nobody is paid and the chips put in stay in the
        pot (no rake either); its actions count, its result does not."""
        if not self.hidden_at_showdown():
            raise IllegalAction("the cards shown decide this showdown: the rules settle it")
        refunded = self._refund_uncalled()
        outcomes = tuple(SeatOutcome() for _ in range(self.n))
        result = self._close("showdown", [0] * self.n, outcomes, tuple(range(len(self.boards))), refunded)
        self.rake = 0
        return result

    def _read_record(self, collected: list[int] | None, finishing: list[int] | None, pot: int,
                     problem_of: Callable[[list[int]], str | None]) -> list[int]:  # fmt: skip
        """What each seat took from the pots by the record (``engine.rules.record.returned_reading``:
        ``winnings`` may count a returned bet); raises ``IllegalAction`` when it does not fit."""
        if collected is None:
            taken = self._collected_from(finishing)
            problem = problem_of(taken)
        else:
            taken, self.counted_returns, problem = returned_reading(collected, self.refunded, pot, problem_of)
        if problem:
            raise IllegalAction(problem)
        return taken

    def _collected_from(self, finishing: list[int] | None) -> list[int]:
        """What each seat took, from its recorded stack after the hand (chips put in are final)."""
        assert finishing is not None
        return collected_from_stacks(self.starting_stacks, self.contributed, finishing)

    def _pots(self, folded: list[bool]) -> list[Pot]:
        return pots_with_antes(self.contributed, self.antes_paid, folded)

    def _contenders(self) -> list[int]:
        contenders = []
        for seat in self.live_seats:
            if self.mucked[seat]:
                continue
            if UNKNOWN_CARD in self.hole[seat]:
                raise IllegalAction(f"{seat_name(seat)}'s hole cards are unknown at the showdown")
            if self.game.discard_board is not None:
                kept = forced_out(self.hole[seat], self.boards[self.game.discard_board])
                if kept:
                    self.voided[seat] = True
                    continue
            if not self.hole[seat] and self.game.discard_board is not None:
                continue
            contenders.append(seat)
        return contenders

    def _refund_uncalled(self) -> list[int]:
        """Return the part of this street's largest bet that nobody matched; the last recorded
        action (the one that closed the round or ended the hand) shows the pot, and its seat's
        stack if that seat got the chips back, as they are after the return."""
        top = max(range(self.n), key=lambda s: self.bets[s])
        second = max((self.bets[s] for s in range(self.n) if s != top), default=0)
        excess = self.bets[top] - second
        if excess > 0:
            self.bets[top] -= excess
            self.contributed[top] -= excess
            self.stacks[top] += excess
            self.refunded[top] += excess
            if self.actions:
                last = self.actions[-1]
                stack = self.stacks[top] if last.seat == top else last.stack_after
                self.actions[-1] = last._replace(stack_after=stack, pot_after=self.pot)
        return self.refunded

    def _finish_uncontested(self) -> None:
        refunded = self._refund_uncalled()
        winner = self.live_seats[0]
        won = [0] * self.n
        won[winner] = self.pot
        self._close("uncontested", won, tuple(SeatOutcome() for _ in range(self.n)), (), refunded)

    def _end_everyone_dead(self, seats: list[int]) -> None:
        refunded = self._refund_uncalled()
        won = [0] * self.n
        for seat, chips in split_among_seats(self.pot, seats).items():  # RULINGS: equally
            won[seat] += chips
        for seat in seats:
            self.folded[seat] = True
        self.n_live = 0
        self._close("everyone_dead", won, tuple(SeatOutcome() for _ in range(self.n)), (), refunded)

    def _close(self, ending, won, outcomes, surviving, refunded) -> HandResult:
        if self.runs > 1 and self.run_street is None:
            raise IllegalAction(f"the board is run {self.runs} times, but no board card was dealt once "
                                "no more betting could happen")  # fmt: skip
        for seat, chips in enumerate(won):
            self.stacks[seat] += chips
        self.rake = sum(self.contributed) - sum(won)
        if sum(self.stacks) + self.rake != sum(self.starting_stacks) or self.rake < 0:
            raise AssertionError(f"chips not conserved: {sum(self.stacks)} + rake {self.rake} != "
                                 f"{sum(self.starting_stacks)}")  # fmt: skip
        self.phase = "over"
        self.pending = set()
        self.next_seat = None
        self.result = HandResult(ending, won, outcomes, tuple(surviving), refunded)
        return self.result
