"""Buckets for games of many hole cards (#15): opponents that share no card, a bucket matrix that
adds up, best responses on real hands computed by hand, and Scarney solved, stored and read."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.solving.buckets import Bucketing, Check, from_pool, full_exploitability, opponents, random_hands
from scooplab.cli import app

runner = CliRunner()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_opponents_never_share_a_card_and_hands_are_sorted_and_distinct(seed, held):
    rng = np.random.default_rng(seed)
    hands, pool = random_hands(rng, 40, held, 28), random_hands(rng, 60, held, 28)
    assert (np.diff(hands.astype(int), axis=1) > 0).all()  # sorted, no card twice
    drawn = opponents(rng, hands, pool, 25)
    for row, picks in zip(hands, drawn, strict=True):
        assert all(not set(row) & set(pool[k]) for k in picks)


def test_a_pool_every_hand_of_which_clashes_is_named_not_drawn_forever():
    hands = np.array([[0, 1, 2]], dtype=np.int8)
    pool = np.array([[0, 5, 6], [1, 7, 8]], dtype=np.int8)  # each shares a card with the hand
    with pytest.raises(ValueError, match="a larger --pool"):
        opponents(np.random.default_rng(0), hands, pool, 3)


def test_bucket_indices_follow_scores_strongest_first():
    edges = np.array([0.3, 0.5, 0.7])
    bucketing = Bucketing(("B01", "B02", "B03", "B04"), edges, np.zeros((0, 2)), np.zeros(0), 1, 0)
    scores = np.linspace(0, 1, 101)
    found = bucketing.bucket(scores)
    assert (np.diff(found) <= 0).all() and found[0] == 3 and found[-1] == 0
    assert found[np.searchsorted(scores, 0.6)] == 1


def test_real_hands_best_responses_worked_out_by_hand():
    """Stacks of 2 bb, one bucket a side, the big blind calling 3/4 of the time: a small-blind
    sample of equity e gains (1/4)·1.5 + (3/4)·(2·2·e - 2 + 0.5) = 3e - 0.75 over folding. Half the
    hands have samples e = (0.5, 0.5, 0, 0): gains (0.75, 0.75, -0.75, -0.75), mean 0, so the
    in-sample best response gains nothing over never pushing while the cross-fitted one, choosing
    on (0.75, 0.75) and paying (-0.75, -0.75), loses 0.375; the other half always win (e = 1):
    2.25 gained both ways. The big blind never faces a push: nothing. Means over the hands and
    their standard errors follow from the two values alone."""
    n = 10
    noisy, sure = np.array([0.5, 0.5, 0.0, 0.0]), np.ones(4)
    small = np.array([noisy if h % 2 == 0 else sure for h in range(n)])
    check = Check(np.zeros((2, n), dtype=int), np.zeros((2, n, 4), dtype=int), np.stack([small, 1 - small]))
    found = full_exploitability(check, np.array([0.0]), np.array([0.75]), 2.0)
    assert found.upper == pytest.approx((0 + 2.25) / 2) and found.lower == pytest.approx((-0.375 + 2.25) / 2)
    assert found.upper_error == pytest.approx(np.std([0, 2.25] * 5, ddof=1) / np.sqrt(n))
    assert found.lower_error == pytest.approx(np.std([-0.375, 2.25] * 5, ddof=1) / np.sqrt(n))
    # pushing everything: a big-blind sample of equity 1 - e gains 2·2·(1 - e) - 2 + 1 over folding
    pushed = full_exploitability(check, np.array([1.0]), np.array([0.75]), 2.0)
    expected_big = np.mean([max(g.mean(), 0) - 0.75 * g.mean() for g in 4 * (1 - small) - 1])
    expected_small = np.mean([max(g.mean(), 0) - g.mean() for g in 3 * small - 0.75])
    assert pushed.upper == pytest.approx(expected_big + expected_small) and expected_big > 0


def test_a_pool_whose_scores_cannot_tell_buckets_apart_is_named():
    hands = np.zeros((100, 2), dtype=np.int8)
    with pytest.raises(ValueError, match="do not tell them apart"):
        from_pool(hands, np.full(100, 0.5), 4, 10, 0)


def test_scarney_is_solved_over_buckets_stored_and_read_again(tmp_path, monkeypatch):
    args = ["solve", "pushfold", "--variant", "scarney", "--pool", "1000", "--runouts", "40",
            "--buckets", "5", "--data", str(tmp_path), "--format", "json"]  # fmt: skip
    out = runner.invoke(app, [*args, "--stack", "10"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    assert answer["abstraction"] == "buckets" and answer["exploitability"] < 0.001
    assert [b["bucket"] for b in answer["buckets"]] == ["B01", "B02", "B03", "B04", "B05"]
    scores = [(b["score_low"], b["score_high"]) for b in answer["buckets"]]
    assert all(a[0] >= b[1] for a, b in itertools.pairwise(scores))  # B01 the strongest
    assert all(b["share"] == pytest.approx(0.2) for b in answer["buckets"])  # ties broken: equal shares
    full = answer["full_exploitability"]
    assert full["low"] > 2 * full["error"] > 0  # five buckets of Scarney give something away
    assert "B01" in answer["push"] and "B01" in answer["call"]
    for table in ("bucket_pool", "class_matchups", "pushfold"):
        assert list(tmp_path.glob(f"{table}/variant=scarney/run=headsup-*/*.parquet")), table
    import engine.solving.buckets

    for name in ("pool_buckets", "bucket_matchups", "check_hands"):
        monkeypatch.setattr(engine.solving.buckets, name, lambda *a, **k: pytest.fail("computed again"))
    again = runner.invoke(app, [*args, "--stack", "10"])
    assert again.exit_code == 0 and json.loads(again.output) == answer
    monkeypatch.undo()
    sweep = json.loads(runner.invoke(app, [*args, "--stack", "5:15:5"]).output)
    assert [f["stack"] for f in sweep["full_exploitability"]] == [5, 10, 15]
    assert sweep["chart"]["B01"] == {"push_max": 15, "call_max": 15}
    table = runner.invoke(app, [*args[:-2], "--stack", "10"])
    assert table.exit_code == 0 and "B01" in table.output and "on real hands" in table.output
