"""Random legal hold'em and Omaha hands played by PokerKit, with scooplab's rules alongside, as PHH.

``peer_hands(seed, count)`` plays no-limit and fixed-limit hold'em hands (2 to 9 players,
antes, short and tiny stacks, all-ins, folds to all-ins, mucks) in PokerKit, and writes each
with PokerKit's own PHH writer. Every action is one both rule sets allow: where PokerKit and
scooplab's state machine (``engine.rules.state.HandState``, fed the same actions) disagree on what
is legal, the generator keeps to the intersection and counts the disagreement by name, so a
differential test can report it. PokerKit deals the cards (seeded), so a seed gives the same
hands every run. ``peer_hands(seed, count, "omaha")`` plays pot-limit Omaha (``PO``) and
fixed-limit Omaha hi-lo eight or better (``FO/8``) hands, 2 to 8 players, the same way;
``"stud"`` seven-card stud, stud hi-lo and razz (``F7S``, ``F7S/8``, ``FR``), 2 to 6 players (six
never run the deck short: RULINGS deals a community card then, PokerKit deals folded cards again),
with antes, bring-ins and completions; ``"draw"`` deuce-to-seven single and triple draw and badugi
(``N2L1D``, ``F2L3D``, ``FB``), 2 to 6 players, with random discards kept within what the stub holds
(PokerKit reshuffles burns and folded hands with the discards, and may deal a player back the cards
he just threw: RULINGS reshuffles only the discards made before the draw, so a hand that would need
a reshuffle draws fewer cards).
"""

from __future__ import annotations

import copy
import random
import warnings
from collections import Counter
from dataclasses import dataclass

from pokerkit import (
    Automation,
    BoardDealing,
    BringInPosting,
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    Folding,
    HandHistory,
    HoleDealing,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    StandingPatOrDiscarding,
)

from engine.hands.cards import STANDARD, parse_cards
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.state import HandState

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

# legality disagreements the generator steps around: each a named, counted difference
HALF_BET_REOPENS = "fixed-limit: an all-in of half a bet reopens the betting (RULINGS); PokerKit refuses"
CAP_COUNT = "fixed-limit: PokerKit counts an all-in of less than half a bet against the raise cap"
UNCALLABLE = "a raise nobody left can call (returned as uncalled): scooplab allows it, PokerKit refuses it"
ISSUE_45 = "PokerKit lets a player who acted reraise a short all-in (its issue #45)"
NO_CAP = "fixed-limit Omaha hi-lo: PokerKit's class has no raise cap (RULINGS); scooplab caps at four bets"
SHORT_COMPLETION = (
    "stud: after an all-in for less than half the bet on third street, scooplab completes to "
    "the bet (TDA), PokerKit raises a whole bet over the all-in"
)
KNOWN_REFUSALS = {  # (who refuses, the start of the refusal) -> the named difference
    ("PokerKit", "Short all-in cannot be raised"): HALF_BET_REOPENS,
    ("PokerKit", "No more completion, betting, or raising"): CAP_COUNT,
    ("PokerKit", "There is no reason to complete, bet, or raise"): UNCALLABLE,
    ("scooplab", "the betting was not reopened"): ISSUE_45,
    ("scooplab", "the betting is capped at"): NO_CAP,
}
UNNAMED = "unnamed difference"
PEER_CANNOT_SETTLE = "PokerKit cannot settle a pot whose every claimant mucked (the muck was not taken)"


@dataclass
class PeerHand:
    """One hand: its PHH text as PokerKit writes it (no finishing stacks) and PokerKit's result."""

    text: str
    structure: Structure
    starting: list[int]
    finishing: list[int]  # PokerKit's finishing stacks
    mucked: bool  # some seat mucked at the showdown


def _structure_and_sizes(rnd: random.Random, family: str) -> tuple[Structure, int, int]:
    if family == "stud":
        structure = Structure.FIXED_LIMIT
    elif family == "omaha":  # PO, or FO/8
        structure = Structure.FIXED_LIMIT if rnd.random() < 0.5 else Structure.POT_LIMIT
    else:
        structure = Structure.FIXED_LIMIT if rnd.random() < 0.4 else Structure.NO_LIMIT
    small_blind = rnd.choice([1, 1, 2, 3, 5])
    return structure, small_blind, small_blind * 2


def _stacks(rnd: random.Random, n: int, big: int, ante: int) -> list[int]:
    """Deep, short and tiny stacks (some all in for the ante or a blind alone)."""
    stacks = []
    for _ in range(n):
        roll = rnd.random()
        if roll < 0.15:
            stacks.append(rnd.randint(1, max(1, ante + big)))
        elif roll < 0.5:
            stacks.append(rnd.randint(big, 12 * big))
        else:
            stacks.append(rnd.randint(20 * big, 100 * big))
    return stacks


PEER_GAMES = {  # (family, structure) -> PokerKit's class, and scooplab's game
    ("holdem", Structure.NO_LIMIT): (NoLimitTexasHoldem, "holdem"),
    ("holdem", Structure.FIXED_LIMIT): (FixedLimitTexasHoldem, "holdem"),
    ("omaha", Structure.POT_LIMIT): (PotLimitOmahaHoldem, "omaha"),
    ("omaha", Structure.FIXED_LIMIT): (FixedLimitOmahaHoldemHighLowSplitEightOrBetter, "omaha-hi-lo"),
}
STUD_GAMES = (  # PokerKit's class and scooplab's game
    (FixedLimitSevenCardStud, "seven-card-stud"),
    (FixedLimitSevenCardStudHighLowSplitEightOrBetter, "stud-hi-lo"),
    (FixedLimitRazz, "razz"),
)


def _new_stud_hand(rnd: random.Random, small: int, big: int):
    """A stud hand: antes, a bring-in of the small blind's size, small and big bets."""
    n = rnd.randint(2, 6)
    ante = rnd.randint(0, small)
    stacks = _stacks(rnd, n, 2 * big, ante)
    peer, name = rnd.choice(STUD_GAMES)
    game = peer(AUTOMATIONS, True, ante, small, big, 2 * big)
    ours = HandState(GAMES[name], Structure.FIXED_LIMIT, stacks, antes=[ante] * n, bring_in=small,
                     small_bet=big, big_bet=2 * big)  # fmt: skip
    return game, game(tuple(stacks), n), ours, Structure.FIXED_LIMIT, stacks


DRAW_GAMES = (  # PokerKit's class, scooplab's game, its structure
    (NoLimitDeuceToSevenLowballSingleDraw, "deuce-to-seven-single-draw", Structure.NO_LIMIT),
    (FixedLimitDeuceToSevenLowballTripleDraw, "deuce-to-seven-triple-draw", Structure.FIXED_LIMIT),
    (FixedLimitBadugi, "badugi", Structure.FIXED_LIMIT),
)


def _new_draw_hand(rnd: random.Random, small: int, big: int):
    """A draw hand: blinds, an ante sometimes, no-limit or fixed-limit as the game is dealt."""
    n = rnd.randint(2, 6)
    ante = 0 if rnd.random() < 0.6 else rnd.randint(1, small)
    stacks = _stacks(rnd, n, big, ante)
    peer, name, structure = rnd.choice(DRAW_GAMES)
    return _with_blinds(peer, name, structure, stacks, ante, small, big)


def _with_blinds(peer, name: str, structure: Structure, stacks: list[int], ante: int, small: int, big: int):
    """PokerKit's game and state and scooplab's, with blinds, antes and the structure's sizes."""
    n = len(stacks)
    blinds = [small, big] + [0] * (n - 2)
    if structure is Structure.FIXED_LIMIT:
        game = peer(AUTOMATIONS, True, ante, (small, big), big, 2 * big)
        sizes = {"small_bet": big, "big_bet": 2 * big}
    else:
        game = peer(AUTOMATIONS, True, ante, (small, big), big)
        sizes = {"min_bet": big}
    ours = HandState(GAMES[name], structure, stacks, antes=[ante] * n, blinds=blinds, **sizes)
    return game, game(tuple(stacks), n), ours, structure, stacks


def _draw(state, rnd: random.Random) -> None:
    """Stand pat or throw away random cards, no more than the stub holds for every draw still to
    come this round (so no reshuffle: PokerKit's differs from RULINGS)."""
    seat = state.stand_patter_or_discarder_index
    hole = list(state.hole_cards[seat])
    room = len(state.deck_cards) - sum(map(len, state.hole_dealing_statuses)) - 1  # (the burn comes last)
    count = min(rnd.choice([0, 0, 1, 1, 2, 3, len(hole)]), max(room, 0))
    state.stand_pat_or_discard(rnd.sample(hole, count))


def _new_hand(rnd: random.Random, family: str):
    structure, small, big = _structure_and_sizes(rnd, family)
    if family == "stud":
        return _new_stud_hand(rnd, small, big)
    if family == "draw":
        return _new_draw_hand(rnd, small, big)
    n = rnd.randint(2, 8 if family == "omaha" else 9)
    ante = 0 if rnd.random() < 0.5 else rnd.randint(1, big)
    stacks = _stacks(rnd, n, big, ante)
    peer, name = PEER_GAMES[family, structure]
    return _with_blinds(peer, name, structure, stacks, ante, small, big)


def _mirror(operations, ours: HandState) -> None:
    """Apply PokerKit's new operations to scooplab's state (deals and betting)."""
    for op in operations:
        if isinstance(op, HoleDealing):
            ours.deal_hole(op.player_index, parse_cards("".join(map(repr, op.cards)), STANDARD).tolist())
        elif isinstance(op, BoardDealing):
            ours.deal_board([parse_cards("".join(map(repr, op.cards)), STANDARD).tolist()])
        elif isinstance(op, Folding):
            ours.fold(op.player_index)
        elif isinstance(op, BringInPosting):
            ours.post_bring_in(op.player_index)
        elif isinstance(op, CheckingOrCalling):
            ours.check_or_call(op.player_index)
        elif isinstance(op, CompletionBettingOrRaisingTo):
            ours.bet_or_raise(op.player_index, op.amount)
        elif isinstance(op, StandingPatOrDiscarding):
            ours.discard(op.player_index, parse_cards("".join(map(repr, op.cards)), STANDARD).tolist())


def _raise_range(state, ours: HandState, seat: int, differences: Counter) -> tuple[int, int] | None:
    """Raise-to amounts both rule sets allow now, or None; counts a one-sided refusal."""
    theirs = state.can_complete_bet_or_raise_to()
    mine = ours.options_for(seat)
    if theirs and mine["can_raise"]:
        low = max(state.min_completion_betting_or_raising_to_amount, mine["min_to"])
        high = min(state.max_completion_betting_or_raising_to_amount, mine["max_to"])
        if low <= high:
            return low, high
        if ours.completion_due and max(ours.bets) < mine["min_to"] and low == max(ours.bets) + mine["min_to"]:
            differences[SHORT_COMPLETION] += 1
        else:
            differences[f"{UNNAMED}: the two allowed raise sizes do not overlap ({low} > {high})"] += 1
        return None
    if theirs and not mine["can_raise"]:
        differences[_named("scooplab", ours.raise_refusal(seat) or "")] += 1
    elif mine["can_raise"] and not theirs:
        try:
            state.verify_completion_betting_or_raising_to()
        except ValueError as error:
            differences[_named("PokerKit", str(error))] += 1
    return None


def _named(refuser: str, reason: str) -> str:
    for (who, start), name in KNOWN_REFUSALS.items():
        if who == refuser and reason.startswith(start):
            return name
    return f"{UNNAMED}: {refuser} refuses a raise: {reason}"


def _act(state, ours: HandState, rnd: random.Random, differences: Counter) -> None:
    seat = state.actor_index
    bounds = _raise_range(state, ours, seat, differences)
    roll = rnd.random()
    if state.can_post_bring_in():  # bring in, or complete at once
        state.post_bring_in() if roll < 0.6 or bounds is None else state.complete_bet_or_raise_to(bounds[0])
    elif roll < 0.2 and state.can_fold():
        state.fold()
    elif roll < 0.55 and bounds is not None:
        low, high = bounds
        state.complete_bet_or_raise_to(high if rnd.random() < 0.3 else rnd.randint(low, high))
    else:
        state.check_or_call()


def _showdown(state, rnd: random.Random, differences: Counter):
    """Show or muck every hand PokerKit asks for; returns the state and whether a seat mucked.

    Mucks come only at the river's showdown (PokerKit fails on one during an all-in runout).
    Where mucks leave a pot every claimant of which mucked, PokerKit cannot settle it (it
    asserts): the showdown is then taken back and played with every hand shown.
    """
    before = copy.deepcopy(state)
    mucked = False
    try:
        while state.status and state.can_show_or_muck_hole_cards():
            show = state.street_index != len(state.streets) - 1 or rnd.random() < 0.85
            mucked |= not show
            state.show_or_muck_hole_cards(show)
        return state, mucked
    except AssertionError:
        differences[PEER_CANNOT_SETTLE] += 1
        while before.status and before.can_show_or_muck_hole_cards():
            before.show_or_muck_hole_cards(True)
        return before, False


def play_hand(rnd: random.Random, differences: Counter, family: str = "holdem") -> PeerHand:
    """One random hand, played to its end by both rule sets."""
    game, state, ours, structure, stacks = _new_hand(rnd, family)
    seen = 0
    mucked = False
    while state.status:
        _mirror(state.operations[seen:], ours)
        seen = len(state.operations)
        if state.actor_index is not None:
            _act(state, ours, rnd, differences)
        elif state.stand_patter_or_discarder_index is not None:
            _draw(state, rnd)
        elif state.can_show_or_muck_hole_cards():
            state, did_muck = _showdown(state, rnd, differences)
            mucked |= did_muck
        else:
            raise AssertionError("a PokerKit hand with nothing to do")
    text = HandHistory.from_game_state(game, state).dumps()
    return PeerHand(text, structure, stacks, list(state.stacks), mucked)


def peer_hands(seed: int, count: int, family: str = "holdem") -> tuple[list[PeerHand], Counter]:
    """``count`` hands of a family (``holdem`` or ``omaha``) from ``seed``, and the legality
    disagreements met while playing them."""
    rnd = random.Random(seed)
    saved = random.getstate()
    random.seed(seed)  # PokerKit shuffles with the module's generator
    differences: Counter = Counter()
    try:
        with warnings.catch_warnings():  # "some chips will be burned": the test counts those hands
            warnings.simplefilter("ignore", UserWarning)
            return [play_hand(rnd, differences, family) for _ in range(count)], differences
    finally:
        random.setstate(saved)
