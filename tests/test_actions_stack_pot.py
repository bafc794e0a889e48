"""Each action's stack and pot after it (the actions' ``stack_after`` and ``pot_after``), and the
hand replayer drawing its pots from them.

The rows are checked against the hand told again from their own amounts: a post or a call adds
its amount, a bet or raise its street total less the seat's street bet (an ante is dead: in the
pot, not in the bet), and the uncalled part of a round's largest bet goes back with the round's
last row (the last before the next street's rows, before the shows and mucks, or the hand's
last). The last row's pot is every chip the players table says was put in.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dashboards import story
from engine.rules.dealer import Deck, deal_due
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.policies import POLICIES, act
from ingest.generation.betting_sim import new_hand
from ingest.histories.phh import iter_hands
from ingest.histories.record import hand_fields
from ingest.histories.replay import HandError, Replay, replay
from ingest.histories.rows import HandRows
from tests.test_properties import GAME_STRUCTURES, new_state, play_randomly

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE_V2 = FIXTURES / "warehouse-v2"  # written before the columns
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"
MONEY = ("post", "bring_in", "call", "bet", "raise")


def told_again(rows: list[dict], starting: dict[int, int], antes: dict[int, int],
               dealing_only: frozenset[str] = frozenset()) -> list[tuple]:  # fmt: skip
    """Each row's (stack after, pot after), from the rows' amounts alone (the module docstring);
    ``dealing_only``: the streets before the first betting round, whose end returns nothing."""
    contributed = dict.fromkeys(starting, 0)
    bets = dict.fromkeys(starting, 0)
    ante_left = dict(antes)
    out = []
    for k, row in enumerate(rows):
        seat, kind, amount = row["seat"], row["action"], row["amount"]
        if kind == "post":
            dead = min(amount, ante_left.get(seat, 0))
            ante_left[seat] = ante_left.get(seat, 0) - dead
            contributed[seat] += amount
            bets[seat] += amount - dead
        elif kind in ("call", "bring_in"):
            contributed[seat] += amount
            bets[seat] += amount
        elif kind in ("bet", "raise"):
            contributed[seat] += amount - bets[seat]
            bets[seat] = amount
        following = rows[k + 1] if k + 1 < len(rows) else None
        closes = (
            following is None
            or following["street"] != row["street"]
            or (following["action"] in ("show", "muck") and kind not in ("show", "muck"))
        )
        if closes and row["street"] not in dealing_only:
            top = max(bets, key=lambda s: bets[s])
            second = max((b for s, b in bets.items() if s != top), default=0)
            contributed[top] -= max(0, bets[top] - second)
            bets = dict.fromkeys(starting, 0)
        stack = None if seat is None else starting[seat] - contributed[seat]
        out.append((stack, sum(contributed.values())))
    return out


def by_hand(table) -> dict[str, list[dict]]:
    hands: dict[str, list[dict]] = {}
    for row in table.to_pylist():
        hands.setdefault(row["hand_id"], []).append(row)
    return hands


def assert_stacks_and_pots(rows: HandRows, antes_of: dict[str, list[int]]) -> int:
    """Every hand's rows against the hand told again; the hands checked."""
    actions, players = by_hand(rows.actions.to_arrow()), by_hand(rows.players.to_arrow())
    hand_rows = rows.hands.to_arrow().to_pylist()
    pots = {row["hand_id"]: row["pot"] for row in hand_rows}
    games = {row["hand_id"]: GAMES[row["variant"]] for row in hand_rows}
    for hand_id, seats in players.items():
        hand = sorted(actions[hand_id], key=lambda row: row["seq"])
        starting = {p["seat"]: p["starting_stack"] for p in seats}
        put_in = sum(p["starting_stack"] - p["finishing_stack"] + p["won"] for p in seats)
        assert hand[-1]["pot_after"] == put_in == pots[hand_id], hand_id  # chips conserved
        game = games[hand_id]
        dealing_only = frozenset(street.name for street in game.streets[: game.forced_street])
        expected = told_again(hand, starting, dict(enumerate(antes_of[hand_id])), dealing_only)
        assert [(row["stack_after"], row["pot_after"]) for row in hand] == expected, hand_id
        assert all(row["stack_after"] is None for row in hand if row["seat"] is None)
        # the replayer's street pots are the data's, and its all-in marks too
        streets = story.tell(starting, hand)
        assert streets[-1].pot_after == pots[hand_id]
        last_of = {row["street"]: row["pot_after"] for row in hand}  # (a street's rows run together)
        before = 0
        for street in streets:
            assert (street.pot_before, street.pot_after) == (before, last_of[street.name]), hand_id
            before = street.pot_after
        moves = [move for street in streets for move in street.moves]
        acted = [row for row in hand if row["action"] != "deal" and row["seat"] is not None]
        assert len(moves) == len(acted)
        for move, row in zip(moves, acted, strict=True):
            assert move.all_in == (row["action"] in MONEY and row["stack_after"] == 0), (hand_id, row)
    return len(players)


def rows_of(replays: list[Replay]) -> tuple[HandRows, dict[str, list[int]]]:
    rows, antes = HandRows(), {}
    for i, replayed in enumerate(replays):
        rows.add(replayed, hand_id=f"h{i}", run_id="t", source="test", source_file=None, hand_index=i,
                 phh_text="")  # fmt: skip
        antes[f"h{i}"] = list(replayed.state.antes)
    return rows, antes


def test_replayed_hand_histories_record_each_stack_and_pot():
    paths = [FIXTURES / "phh", FIXTURES / "examples"] + ([SHARED] if SHARED.exists() else [])
    replays = []
    for raw in iter_hands(paths):
        if raw.error is None:
            try:
                replays.append(replay(raw.fields))
            except HandError:
                continue
    assert len(replays) > (20 if SHARED.exists() else 10)  # the fixtures hold 19 (no ../shared on CI)
    assert assert_stacks_and_pots(*rows_of(replays)) == len(replays)


POLICY_CASES = [
    ("holdem", 6, Structure.NO_LIMIT, ("tag", "random", "station")),
    ("holdem", 3, Structure.FIXED_LIMIT, ("random", "tag")),
    ("cry-me-a-river", 4, Structure.POT_LIMIT, ("random", "tag", "station")),
    ("scarney", 3, Structure.NO_LIMIT, ("random", "tag")),
    ("skoejarth", 5, Structure.NO_LIMIT, ("random", "station", "tag")),
]


@pytest.mark.parametrize(("name", "players", "structure", "policies"), POLICY_CASES)
def test_simulated_betting_hands_record_each_stack_and_pot(name, players, structure, policies):
    """Betting-mode hands as the state machine plays them, seats deciding by the Python policies."""
    game = GAMES[name]
    rng = np.random.default_rng(len(name) + players)
    replays, endings = [], set()
    for _ in range(60):
        state = new_hand(game, players, 200, game.resolve_options({}), structure)
        deck = Deck(game.deck.size, rng)
        while not state.is_over and state.phase != "showdown":
            if state.phase in ("deal", "draw"):
                deal_due(state, deck)
                continue
            seat = state.next_seat
            act(state, seat, POLICIES[policies[seat % len(policies)]](state, seat, rng))
        result = state.finish()
        endings.add(result.ending)
        replays.append(Replay(hand_fields(state), game, structure, state, result))
    assert "showdown" in endings
    assert assert_stacks_and_pots(*rows_of(replays)) == 60


@pytest.mark.parametrize(("name", "structure"), GAME_STRUCTURES)
def test_random_play_with_short_stacks_and_antes_records_each_stack_and_pot(name, structure):
    """All in for a blind or an ante, uncalled bets, dead hands: every way a round or a hand ends."""
    game = GAMES[name]
    rnd = random.Random(name + structure.value)
    replays = []
    for _ in range(80):
        options = {option.name: rnd.choice(option.choices) for option in game.options}
        n = rnd.randint(game.min_players, min(game.max_players, 5))
        stacks = [rnd.choice([1, 2, 3, 5, 8, 40, 300]) for _ in range(n)]
        antes = rnd.randint(1, 3) if game.starting_bet else rnd.randint(0, 3)
        state = new_state(game, structure, stacks, antes, options)
        play_randomly(state, Deck(game.deck.size, np.random.default_rng(rnd.getrandbits(32))), rnd)
        replays.append(Replay(hand_fields(state), game, structure, state, state.result))
    assert assert_stacks_and_pots(*rows_of(replays)) == 80


def test_the_last_row_before_a_returned_bet_shows_it():
    """Heads-up: p2 raises to 100, p1 folds: the fold's row has the 98 uncalled chips back."""
    game = GAMES["holdem"]
    state = new_hand(game, 2, 1_000, {}, Structure.NO_LIMIT, big_blind=2)
    deal_due(state, Deck(game.deck.size, np.random.default_rng(1)))
    first = state.next_seat
    state.bet_or_raise(first, 100)
    folder = state.next_seat
    state.fold(folder)
    raise_row, fold_row = state.actions[-2:]
    assert (raise_row.kind, raise_row.stack_after, raise_row.pot_after) == ("raise", 900, 100 + 2)
    blind = state.starting_stacks[folder] - state.stacks[folder]
    assert (fold_row.kind, fold_row.stack_after, fold_row.pot_after) == ("fold", 1_000 - blind, 2 * blind)
    assert state.result.won[first] == 2 * blind  # what the pot paid is not in the rows


def test_the_replayer_says_an_older_run_predates_the_columns(tmp_path):
    """The version-2 fixture's actions have no stack or pot: null in the views, the hand still told."""
    import shutil

    from analytics.db import connect
    from tests.test_dashboard import app

    shutil.copytree(FIXTURE_V2, tmp_path / "wh")
    con = connect(tmp_path / "wh")
    ((hand_id,),) = con.sql("SELECT hand_id FROM hands WHERE run_id = 'replayed'").fetchall()
    stored = "SELECT count(pot_after), count(*) FROM actions WHERE run_id <> 'sd'"  # not showdown mode
    ((recorded, rows),) = con.sql(stored).fetchall()
    assert recorded == 0 < rows
    test = app(tmp_path / "wh", query={"hand": hand_id})
    test.switch_page("screens/replayer.py").run()
    assert not test.exception, [e.value for e in test.exception]
    assert "Run replayed was stored before the actions recorded each stack and pot" in test.info[0].value
    text = " ".join(m.value for m in test.markdown)
    assert "calls 262,400" in text and "all in" not in text and "· pot" not in text  # moves, no pots


def test_the_replayer_draws_a_new_runs_pots(tmp_path):
    from ingest.histories.pipeline import ingest
    from ingest.storage.warehouse import Warehouse
    from tests.test_dashboard import app

    ingest([FIXTURES / "phh" / "dwan-ivey-2009.phh"], Warehouse(tmp_path / "wh"), run_id="phh")
    test = app(tmp_path / "wh", "screens/replayer.py")
    assert not test.exception, [e.value for e in test.exception]
    assert not test.info  # no line about an older run
    text = " ".join(m.value for m in test.markdown)
    # Dwan calls all in (553,500 in all), 572,100 of Ivey's raise to 1,067,100 goes back, 2,500 folded
    assert "River · pot 1,109,500" in text and "calls 262,400 **all in**" in text


@pytest.mark.parametrize("name", ["scarney", "skoejarth"])
def test_showdown_mode_actions_put_each_whole_stake_in(tmp_path, name):
    """The views' rows of hands stored wide: each post leaves a stack of 0, the pot grows by a stake."""
    from analytics.db import connect
    from ingest.generation.simulation import SimSpec, simulate

    simulate(SimSpec(name, 200, players=3, seed=4, shard_size=200), str(tmp_path), run_id="sd")
    con = connect(tmp_path)
    wrong = con.sql(
        "SELECT a.hand_id, a.seq FROM actions AS a JOIN hands AS h USING (hand_id) "
        "WHERE a.stack_after <> 0 OR a.pot_after <> h.big_blind * least(a.seq + 1, h.n_players)"
    ).fetchall()
    assert wrong == []
    last = con.sql(
        "SELECT bool_and(a.pot_after = h.pot), count(*) FROM hands AS h JOIN actions AS a USING (hand_id) "
        "WHERE a.seq = (SELECT max(seq) FROM actions WHERE hand_id = h.hand_id)"
    ).fetchall()
    assert last == [(True, 200)]
