"""The ``pushfold`` betting policy: the compiled kernel against the reference policy, and the
equilibrium it plays measured in simulated hands.

The kernel and the reference draw from different generators, so a decision of a pure class
(probability 0 or 1) must be the same, and the mixed ones must come at their probability.
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.betting_kernel import chart_class
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.policies import pushfold
from engine.rules.pushfold_play import NO_SPOT, PUSH_SPOT, PushFoldChart, spot_of, why_not_played
from engine.solving.pushfold import Plan
from ingest.generation.betting_sim import batch_tables, chart_arrays, new_hand, play_batch
from ingest.generation.simulation import SimSpec
from ingest.histories.phh import parse_hand_text
from ingest.histories.replay import apply_action, build_state
from scooplab.cli import app

runner = CliRunner()


def _names(game):
    from engine.rules.hand_classes import hand_classes

    return [c.name for c in hand_classes(game, {})]


def _chart(game, stack, seed):
    """A chart whose classes are pure (0 or 1) or mixed at 0.3, drawn at random."""
    names = _names(game)
    rng = np.random.default_rng(seed)
    levels = np.array([0.0, 1.0, 0.3])
    push = dict(zip(names, levels[rng.integers(0, 3, len(names))], strict=True))
    call = dict(zip(names, levels[rng.integers(0, 3, len(names))], strict=True))
    return PushFoldChart.of(game, {}, stack, push, call)


@pytest.mark.parametrize("name", ["holdem", "short-deck", "cry-me-a-river"])
def test_the_kernel_finds_the_class_of_every_starting_hand_in_any_order(name):
    game = GAMES[name]
    chart = _chart(game, 10.0, 0)
    reference = new_hand(game, 2, 1_000, {}, big_blind=100)
    _, _, held, class_of, binomial, _, _ = chart_arrays(chart, reference, game.deck.size)
    names = _names(game)
    seen = set()
    for pair in combinations(range(game.deck.size), 2):
        expected = chart.class_index(list(pair))
        for cards in (pair, pair[::-1]):
            assert chart_class(np.array(cards, np.int8), held, class_of, binomial) == expected
        seen.add(names[expected])
    assert seen == set(names)


def _decisions(game, policies, chart, count, seed):
    """Every decision of a pushfold seat in kernel hands: (kernel's, reference's, chance or None)."""
    options = game.resolve_options({})
    words = np.random.default_rng(seed).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, 2, 1_000, options, policies, words, count, big_blind=100, chart=chart)
    hands, _, _ = batch_tables(game, batch, run_id="k", shard=0, first=0, stake=1_000, options=options,
                               policies=policies)  # fmt: skip
    rng = np.random.default_rng(seed)
    found = []
    for text in hands.column("phh").to_pylist():
        fields = parse_hand_text(text, "kernel.phh", 0).fields
        state, _, _ = build_state(fields)
        for action in fields["actions"]:
            parts = action.split()
            seat = int(parts[0][1:]) - 1 if parts[0] != "d" else -1
            if seat >= 0 and parts[1] in ("f", "cc", "cbr") and policies[seat] == "pushfold":
                chance = _chance(state, seat, chart)
                found.append((action.split(" ", 1)[1], pushfold(state, seat, rng, chart), chance))
            apply_action(state, action)
    return found


def _chance(state, seat, chart):
    """The chart's probability at a seat's decision, or None where tag decides."""
    others_all_in = all(state.stacks[o] == 0 for o in state.live_seats if o != seat)
    small_blind = min((s for s in range(state.n) if state.blinds[s]), key=lambda s: state.blinds[s])
    spot = spot_of(state.street_index, seat, small_blind, state.raise_count, seat in state.acted,
                   state.options_for(seat)["call"], others_all_in)  # fmt: skip
    if spot == NO_SPOT:
        return None
    index = chart.class_index([c for c in state.hole[seat] if c >= 0])
    return float(chart.push[index] if spot == PUSH_SPOT else chart.call[index])


def _word(action):
    return action.split()[0] if action else action


@pytest.mark.parametrize("name", ["holdem", "short-deck", "cry-me-a-river"])
def test_pure_classes_decide_as_the_reference_and_mixed_ones_at_their_frequency(name):
    game = GAMES[name]
    chart = _chart(game, 10.0, 3)
    found = _decisions(game, ["pushfold", "pushfold"], chart, 3_000, 21)
    pure = [(k, d) for k, d, c in found if c in (0.0, 1.0)]
    mixed = [k for k, d, c in found if c not in (0.0, 1.0, None)]
    assert len(pure) > 2_000 and len(mixed) > 500
    expected = {"fold": "f", "call": "cc", "raise": "cbr"}
    for kernel, decision in pure:
        assert _word(kernel) == expected[decision[0]], (kernel, decision)
        if decision[0] == "raise":
            assert int(kernel.split()[1]) == decision[1] == 1_000  # all in
    played = sum(_word(k) != "f" for k in mixed)
    assert abs(played - 0.3 * len(mixed)) < 4.5 * np.sqrt(0.21 * len(mixed))


def test_spots_outside_the_chart_are_played_by_tag():
    """A pushfold big blind (seat 0) facing a tag small blind's raise short of all in plays tag;
    a pushfold small blind only ever pushes or folds."""
    game = GAMES["holdem"]
    chart = _chart(game, 10.0, 5)
    found = _decisions(game, ["pushfold", "tag"], chart, 1_500, 8)
    by_tag = [(k, d) for k, d, c in found if c is None]
    assert len(by_tag) > 100
    expected = {"fold": "f", "call": "cc", "raise": "cbr"}
    for kernel, decision in by_tag:
        assert _word(kernel) == expected[decision[0]], (kernel, decision)
        if decision[0] == "raise":
            assert int(kernel.split()[1]) == decision[1]
    as_small_blind = _decisions(game, ["tag", "pushfold"], chart, 500, 9)
    assert len(as_small_blind) >= 500 and all(c is not None for _, _, c in as_small_blind)


def test_the_tables_push_fold_does_not_fit_say_why():
    holdem, scarney, skoejarth = GAMES["holdem"], GAMES["scarney"], GAMES["skoejarth"]
    assert "heads-up" in why_not_played(holdem, {}, 6, Structure.NO_LIMIT, 10)
    assert "pot-limit" in why_not_played(holdem, {}, 2, Structure.POT_LIMIT, 10)
    assert "bucketed" in why_not_played(scarney, {}, 2, Structure.NO_LIMIT, 10)
    assert "starting bet" in why_not_played(skoejarth, {}, 2, Structure.NO_LIMIT, 10)
    assert why_not_played(holdem, {}, 2, Structure.NO_LIMIT, 20) is None
    assert "deeper than 20" in why_not_played(holdem, {}, 2, Structure.NO_LIMIT, 20.5)


def test_the_big_blind_is_checked():
    base = {"game": "holdem", "hands": 10, "players": 2, "mode": "betting", "stake": 100}
    assert SimSpec(**base, big_blind=10).check().depth == 10
    assert SimSpec(**base).check().big_blind == 2  # 2% of the stake, as before
    for bad in (3, 0.5, 102, -2):
        with pytest.raises(ValueError, match="even number of chips"):
            SimSpec(**base, big_blind=bad).check()
    with pytest.raises(ValueError, match="for betting mode"):
        SimSpec(**(base | {"mode": "showdown"}), big_blind=10).check()


@pytest.fixture
def small_plan(monkeypatch):
    """Class matchups of 300 runouts a pair: seconds, not the default plan's minute."""
    import ingest.generation.pushfold as module

    monkeypatch.setattr(module, "default_plan", lambda game, options, seed=0: Plan(samples=300, seed=seed))


def test_equilibrium_play_wins_the_game_value_and_stats_keep_its_population_apart(tmp_path, small_plan):
    data = str(tmp_path)
    args = ["simulate", "--variant", "holdem", "--mode", "betting", "--players", "2", "--stake", "1000",
            "--seed", "4", "--data", data, "--format", "json"]  # fmt: skip
    out = runner.invoke(app, [*args, "--big-blind", "100", "--policy", "pushfold", "--hands", "40000",
                              "--run-id", "pf"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "push/fold equilibrium at 10 big blinds" in out.output
    deep = runner.invoke(app, [*args, "--policy", "pushfold", "--hands", "2000", "--run-id", "deep"])
    assert deep.exit_code == 0 and "pushfold plays tag: stacks of 50 big blinds" in deep.output
    import duckdb

    solved = f"'{data}/pushfold/**/*.parquet' WHERE stack = 10"
    seats = f"'{data}/players/variant=holdem/run=pf/*.parquet' WHERE seat = 1"
    solution = duckdb.sql(f"SELECT any_value(value) FROM {solved}").fetchall()[0]
    sb = duckdb.sql(  # heads-up the forced bets go in reverse (PHH): seat 1 posts the small blind
        f"SELECT avg(net / 100), stddev_samp(net / 100), count(*) "
        f"FROM {seats}"
    ).fetchall()[0]  # fmt: skip
    mean, sd, n = sb
    assert n == 40_000 and abs(mean - solution[0]) < 4.5 * sd / np.sqrt(n), (mean, solution)
    pushed = duckdb.sql(f"SELECT sum(share * push) FROM {solved}").fetchall()[0][0]
    folded = duckdb.sql(f"SELECT count(*) FILTER (net = -50) FROM {seats}").fetchall()[0][0]  # lost the blind
    share = (n - folded) / n
    assert abs(share - pushed) < 4.5 * np.sqrt(pushed * (1 - pushed) / n), (share, pushed)
    # the big blind calls a push as often as the solution says, card removal included
    calls = duckdb.sql(
        f"SELECT sum(m.pairs * s.push * b.call) / sum(m.pairs * s.push) "
        f"FROM '{data}/class_matchups/**/*.parquet' m JOIN (FROM {solved}) s ON s.hand_group = m.hand_group "
        f"JOIN (FROM {solved}) b ON b.hand_group = m.against"
    ).fetchall()[0][0]  # fmt: skip
    pushes = n - folded
    hands = f"'{data}/hands/variant=holdem/run=pf/*.parquet'"
    called = duckdb.sql(f"SELECT count(*) FILTER (showdown) FROM {hands}").fetchall()[0][0] / pushes
    assert abs(called - calls) < 4.5 * np.sqrt(calls * (1 - calls) / pushes), (called, calls)
    asked = ["stats", "--variant", "holdem", "--data", data, "--mode", "betting", "--format", "json"]
    stats = json.loads(runner.invoke(app, asked).output)
    labels = [p["label"] for p in stats["populations"]]
    assert "betting mode, no-limit, 2 players, pushfold, 10 bb" in labels
    assert "betting mode, no-limit, 2 players, pushfold, 50 bb" in labels
    assert stats["hands"] == 40_000  # the largest population alone, never the two blended
    deep_stats = json.loads(runner.invoke(app, [*asked, "--play", "pushfold, 50 bb"]).output)
    assert deep_stats["hands"] == 2_000 and deep_stats["population"]["play"] == "pushfold, 50 bb"
    none = runner.invoke(app, [*asked, "--play", "tag, 50 bb"])
    assert none.exit_code == 2 and "pushfold, 50 bb (2,000 hands)" in none.output
    again = runner.invoke(app, [*args, "--big-blind", "50", "--policy", "pushfold", "--hands", "40000",
                                "--run-id", "pf"])  # fmt: skip
    assert again.exit_code == 2 and "big blind 100 (asked: 50)" in again.output
    assert not list(tmp_path.glob("pushfold/**/stack-20-*.parquet"))  # refused before anything was solved
    same = [*args, "--big-blind", "100", "--hands", "40000", "--run-id", "pf"]
    resumed = runner.invoke(app, [*same, "--policy", "pushfold", "--policy", "pushfold"])  # the same seats
    assert resumed.exit_code == 0, resumed.output
    other = runner.invoke(app, [*same, "--policy", "pushfold", "--policy", "tag"])
    assert other.exit_code == 2 and "policies ['pushfold'] (asked: ['pushfold', 'tag'])" in other.output


def test_a_small_blind_that_cannot_raise_pushes_by_calling_all_in():
    """One big blind deep the small blind's call already puts it all in."""
    game = GAMES["holdem"]
    options = game.resolve_options({})
    words = np.random.default_rng(2).integers(0, 2**64, size=4, dtype=np.uint64)
    names = _names(game)
    for push, expected in ((1.0, "cc"), (0.0, "f")):
        chart = PushFoldChart.of(game, {}, 1.0, dict.fromkeys(names, push), dict.fromkeys(names, 1.0))
        seats = ["tag", "pushfold"]
        batch = play_batch(game, 2, 100, options, seats, words, 200, big_blind=100, chart=chart)
        hands, _, _ = batch_tables(game, batch, run_id="k", shard=0, first=0, stake=100, options=options,
                                   policies=seats)  # fmt: skip
        firsts = [next(a for a in parse_hand_text(t, "k", 0).fields["actions"] if a.startswith("p2 "))
                  for t in hands.column("phh").to_pylist()]  # fmt: skip
        assert {a.split()[1] for a in firsts} == {expected}
