"""The compiled replay against the state machine: the same verdict and the same rows, hand by hand.

Every hand the compiled replay accepts must be accepted by ``ingest.histories.replay`` with exactly the
same ``hands``, ``players`` and ``actions`` rows; every hand it hands back must either be one
the state machine rejects, or one it accepts for a reason the kernel leaves to it (unknown
cards, fractional stacks...).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.hands.cards import format_cards
from engine.rules.dealer import Deck
from engine.rules.games import GAMES, game_for_variant
from engine.rules.games.base import Structure
from engine.rules.games.description import most_players
from engine.rules.state import HandState, IllegalAction
from ingest.histories.fast_replay import _variants, prepare, replay_batch
from ingest.histories.phh import iter_hands, parse_hand_text, write_hand
from ingest.histories.record import hand_fields
from ingest.histories.replay import HandError, replay
from ingest.histories.rows import HandRows, hand_id
from tests.test_properties import GAME_STRUCTURES, play_randomly, random_hands

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"


def _python_replay(raw):
    try:
        return replay(raw.fields)
    except (HandError, ValueError, TypeError):
        return None


def _left_to_the_state_machine(raw, replayed) -> bool:
    """Unknown cards, comments or half chips (a showdown where every hand was mucked is not), a
    stud deck that ran short."""
    unusual = "??" in raw.text or "#" in raw.text or replayed.fractional_stacks
    return unusual or _deck_ran_short(replayed.state)


def _deck_ran_short(state) -> bool:
    """A burn skipped or a community card dealt because the deck could not give every seat a card."""
    game = state.game
    if game.deck_runs_short is None:
        return False
    reached = {action.street for action in state.actions if action.kind == "deal"}
    burns = sum(game.burns(street, state.options) for street in state.streets if street.name in reached)
    return state.burned < burns or any(state.boards)


def _python_rows(raw, identity):
    replayed = _python_replay(raw)
    if replayed is None:
        return None
    rows = HandRows()
    rows.add(replayed, hand_id=identity, run_id="t", source="phh", source_file=raw.source_file,
             hand_index=raw.hand_index, phh_text=raw.text.strip() + "\n")  # fmt: skip
    return rows


def _by_hand(table):
    out: dict[str, list] = {}
    for row in table.to_pylist():
        out.setdefault(row["hand_id"], []).append(row)
    return out


def assert_both_ways_agree(raws) -> tuple[int, int]:
    """Replay ``raws`` both ways; returns (hands the kernel took, hands it handed back)."""
    groups: dict = {}
    for raw in raws:
        if raw.error is None:
            prepared = prepare(raw, hand_id(raw.fields))
            if prepared is not None:
                groups.setdefault(prepared.key, []).append(prepared)
    taken = back = 0
    for batch in groups.values():
        tables, fallback = replay_batch(batch, "t")
        for prepared in fallback:
            back += 1
            replayed = _python_replay(prepared.raw)
            if replayed is not None:  # the state machine accepts it: for a reason the kernel leaves to it
                assert _left_to_the_state_machine(prepared.raw, replayed), prepared.raw.text
        if tables is None:
            continue
        fast = [_by_hand(t) for t in tables]
        for prepared in batch:
            if prepared.identity not in fast[0]:
                continue
            taken += 1
            rows = _python_rows(prepared.raw, prepared.identity)
            assert rows is not None, prepared.raw.text
            expected = [_by_hand(t.to_arrow()) for t in (rows.hands, rows.players, rows.actions)]
            for got, want, name in zip(fast, expected, ("hands", "players", "actions"), strict=True):
                assert got[prepared.identity] == want[prepared.identity], (name, prepared.raw.text)
    return taken, back


ODD_HANDS = {
    "a starting bet in hold'em is only a min_bet default": """variant = "NT"
starting_stacks = [200, 200, 200]
blinds_or_straddles = [1, 2, 0]
_starting_bet = 1
actions = ["d dh p1 AhKd", "d dh p2 2c3c", "d dh p3 7d8d", "p3 cbr 6", "p1 f", "p2 f"]
""",
    "a starting bet in hold'em does not change who acts": """variant = "NT"
starting_stacks = [200, 200, 200]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
_starting_bet = 1
actions = ["d dh p1 AhKd", "d dh p2 2c3c", "d dh p3 7d8d", "p3 f", "p2 f"]
""",
    "negative blinds": """variant = "NT"
starting_stacks = [200, 200, 200]
blinds_or_straddles = [-1, -2, -2]
min_bet = 2
actions = ["d dh p1 AhKd", "d dh p2 2c3c", "d dh p3 7d8d", "p1 cbr 10", "p2 f", "p3 f"]
""",
    "a boolean among the finishing stacks": """variant = "NT"
starting_stacks = [200, 1]
blinds_or_straddles = [1, 2]
actions = ["d dh p1 AhKd", "d dh p2 7c8c", "d db Ac4h5h", "d db 5s", "d db 9s", "p1 sm AhKd", "p2 sm 7c8c"]
finishing_stacks = [201, false]
""",
    "a bet past what scooplab counts, at three decimals": """variant = "NT"
currency = "USD"
starting_stacks = [10.005, 10, 10]
blinds_or_straddles = [0.05, 0.1, 0]
min_bet = 0.1
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 18446744073709552", "p1 f", "p2 f"]
""",
    "money stacks written as text": """variant = "NT"
currency = "USD"
starting_stacks = ["100", "100"]
blinds_or_straddles = [0.5, 1]
min_bet = 1
actions = ["d dh p1 ????", "d dh p2 ????", "p2 f"]
winnings = [1, 0]
""",
    "half chips in the record of a hand of whole-chip floats": """variant = "NT"
starting_stacks = [1000.0, 1000.0, 1000.0]
blinds_or_straddles = [25, 50, 0]
min_bet = 50
actions = ["d dh p1 7c2d", "d dh p2 AhKh", "d dh p3 AdKd", "p3 cbr 100", "p1 f", "p2 cc", "d db 2h3s4c",
           "p2 cc", "p3 cc", "d db 9s", "p2 cc", "p3 cc", "d db Tc", "p2 cc", "p3 cc",
           "p2 sm AhKh", "p3 sm AdKd"]
finishing_stacks = [975, 1012.5, 1012.5]
""",
    "a variant that is not a string": """variant = ["NT"]
starting_stacks = [200, 200]
actions = []
""",
}


@pytest.mark.parametrize("name", ODD_HANDS)
def test_odd_fields_get_the_state_machines_verdict(name):
    raw = parse_hand_text(ODD_HANDS[name], "odd.phh", 0)
    assert raw.error is None
    assert_both_ways_agree([raw])


def test_fixture_hands_replay_the_same_both_ways():
    raws = list(iter_hands([FIXTURES]))
    taken, _ = assert_both_ways_agree(raws)
    assert taken >= 5


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data is absent")
@pytest.mark.soak  # every shared file; test_ingest replays Pluribus and WSOP in the default suite
def test_every_shared_hand_history_replays_the_same_both_ways():
    raws = list(iter_hands([SHARED]))
    taken, back = assert_both_ways_agree(raws)
    assert taken > 10_000 and back < taken / 100


# the compiled replay plays games without forced discards (a discard board replays through the reference)
FAST_GAMES = [  # the compiled replay's: every variant code ``prepare`` takes (the rest: the state machine)
    (name, structure)
    for name, structure in GAME_STRUCTURES
    if any(GAMES[name] is game and s is structure for game, s in _variants().values())
]


@pytest.mark.parametrize(("name", "structure"), FAST_GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_hands_replay_the_same_both_ways(name, structure, data):
    raws = []
    for index in range(8):
        state = data.draw(random_hands(name, structure))
        fields = hand_fields(state, players=[f"p{s}" for s in range(state.n)], hand=index + 1)
        if state.result.ending == "showdown" and data.draw(st.booleans()):
            # some seats show, some muck (then the payouts differ from the recorded stacks)
            for seat in state.live_seats:
                if data.draw(st.booleans()):
                    fields["actions"].append(
                        f"p{seat + 1} sm {format_cards(state.hole[seat], state.game.deck)}"
                    )
                else:
                    fields["actions"].append(f"p{seat + 1} sm")
            del fields["finishing_stacks"]
        raws.append(parse_hand_text(write_hand(fields), "random.phh", index))
    taken, back = assert_both_ways_agree(raws)
    assert taken + back == len(raws) - sum(map(_open_pair_option_on, raws))


def _open_pair_option_on(raw) -> bool:
    """A hand under the option of an open pair's big bet: the state machine's (``prepare`` says None)."""
    game, _ = game_for_variant(raw.fields["variant"])
    options = raw.fields.get("_options", {})
    return any(s.big_bet_on_open_pair and options.get(s.big_bet_on_open_pair) for s in game.streets)


@st.composite
def hands_with_odd_forced_bets(draw, name: str, structure: Structure):
    """Straddles, uneven antes, tiny stacks and blinds, heads-up: what real tables do."""
    game = GAMES[name]
    options = {option.name: draw(st.sampled_from(option.choices)) for option in game.options}
    n = draw(st.integers(game.min_players, most_players(game, options)))  # the tables the deck deals
    stacks = draw(st.lists(st.integers(1, 60), min_size=n, max_size=n))
    antes = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    blinds = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)) if not game.starting_bet else None
    try:
        state = HandState(
            game, structure, stacks, antes=antes, blinds=blinds,
            min_bet=draw(st.none() | st.integers(1, 6)), small_bet=draw(st.integers(1, 4)),
            big_bet=draw(st.integers(2, 8)), starting_bet=draw(st.integers(1, 6)), options=options,
        )  # fmt: skip
    except IllegalAction:
        assume(False)
    play_randomly(state, Deck(game.deck.size, np.random.default_rng(draw(st.integers(0, 2**32 - 1)))),
                  draw(st.randoms(use_true_random=False)))  # fmt: skip
    return state


@pytest.mark.parametrize(("name", "structure"), FAST_GAMES)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(data=st.data())
def test_hands_with_odd_forced_bets_replay_the_same_both_ways(name, structure, data):
    states = [data.draw(hands_with_odd_forced_bets(name, structure)) for _ in range(6)]
    raws = [
        parse_hand_text(write_hand(hand_fields(state, hand=i + 1)), "odd.phh", i)
        for i, state in enumerate(states)
    ]
    taken, back = assert_both_ways_agree(raws)
    left_out = sum(map(_open_pair_option_on, raws))
    assert taken + back == len(raws) - left_out and (taken > 0 or left_out == len(raws))


def _in_money(fields: dict, cents: int, shown: set[int], rake: int, record: str) -> dict:
    """A hand of chips written as a cash hand: every amount over ``cents`` (a decimal), the hole
    cards of seats not in ``shown`` hidden, the record as ``winnings`` less ``rake`` from the largest
    winner, as ``finishing_stacks`` or none."""

    def money(chips: int) -> str:
        return format(Decimal(chips) / cents, "f")

    out = {k: v for k, v in fields.items() if k != "finishing_stacks"}
    for name in ("starting_stacks", "antes", "blinds_or_straddles"):
        if name in fields:
            out[name] = [float(money(v)) for v in fields[name]]
    for name in ("min_bet", "small_bet", "big_bet"):
        if fields.get(name) is not None:
            out[name] = float(money(fields[name]))
    actions = []
    for text in fields["actions"]:
        parts = text.split()
        if parts[:2] == ["d", "dh"] and int(parts[2][1:]) - 1 not in shown:
            parts[3] = "?" * len(parts[3])
        elif len(parts) == 3 and parts[1] == "cbr":
            parts[2] = money(int(parts[2]))
        actions.append(" ".join(parts))
    out["actions"], out["currency"] = actions, "USD"
    finishing = fields["finishing_stacks"]
    if record == "winnings":
        kept = [s - c for s, c in zip(fields["starting_stacks"], fields["_contributed"], strict=True)]
        collected = [f - k for f, k in zip(finishing, kept, strict=True)]
        collected[collected.index(max(collected))] -= min(rake, max(collected))
        out["winnings"] = [float(money(c)) for c in collected]
    elif record == "finishing_stacks":
        out["finishing_stacks"] = [float(money(f)) for f in finishing]
    return out


@pytest.mark.parametrize(
    ("name", "structure"), [(n, s) for n, s in FAST_GAMES if n in ("holdem", "skoejarth")]
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cash_hands_in_money_replay_the_same_both_ways(name, structure, data):
    """Real-format hands (amounts in money, hidden cards, winnings less a rake, or no record): the
    compiled replay takes those the shown cards decide, with the state machine's rows."""
    raws = []
    for index in range(8):
        state = data.draw(random_hands(name, structure))
        fields = hand_fields(state, players=[f"p{s}" for s in range(state.n)], hand=index + 1)
        fields["_contributed"] = list(state.contributed)
        shown = (
            {s for s in state.live_seats if data.draw(st.booleans())}
            if state.result.ending == "showdown"
            else set()
        )
        if shown and state.result.ending == "showdown":
            shown = set(state.live_seats)  # the rules decide: every seat left shows
        record = data.draw(st.sampled_from(["winnings", "winnings", "finishing_stacks", "none"]))
        money = _in_money(fields, data.draw(st.sampled_from([100, 1000, 8])), shown,
                          data.draw(st.integers(0, 3)), record)  # fmt: skip
        del money["_contributed"]
        raws.append(parse_hand_text(write_hand(money), "cash.phhs", index))
    taken, back = assert_both_ways_agree(raws)
    assert taken + back == len(raws)


def test_an_option_given_as_a_whole_number_and_as_a_float_keeps_its_own_text():
    """The resolved options are cached: 9 and 9.0 hash alike, but the state machine writes each as
    given, so the compiled replay must too (CI found a hand of 9 stored with 9.0's text)."""
    texts = []
    for value in ("9.0", "9"):
        hand = f"""variant = "NSKJ"
antes = [1, 1]
_starting_bet = 2
_options = {{ raises_per_round = {value}, tiebreak = "kickers" }}
starting_stacks = [1, 1]
actions = ["d dh p1 5s3oKs", "d dh p2 2b3s1o", "d db Ko2o", "d db 5b", "d db 6s"]
finishing_stacks = [2, 0]
"""
        raw = parse_hand_text(hand, "options.phh", 0)
        assert_both_ways_agree([raw])
        texts.append(prepare(raw, hand_id(raw.fields)).options_text)
    assert texts == [
        '{"raises_per_round": 9.0, "tiebreak": "kickers"}',
        '{"raises_per_round": 9, "tiebreak": "kickers"}',
    ]
