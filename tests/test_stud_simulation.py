"""Stud in showdown mode (RULINGS.md, "Every game the PHH standard names"): the compiled core deals
hole cards street by street with their burns and, when eight stay in, the last card as one
community card; razz's ace-to-five low is a compiled ranking; odds take down and up cards.

The compiled core and the state machine settle the same deals alike hand by hand in
``tests/test_simulate_agreement.py`` (every game, stud included); here the lows and the odds are
held to independent references: PokerKit's low and high hands, and exact counts.
"""

from __future__ import annotations

from itertools import permutations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.ace_to_five import category_counts, rank_patterns, strength_of_counts
from engine.hands.cards import format_cards, parse_cards
from engine.hands.low_kernel import key_low_strength
from engine.hands.strengths import category_of
from engine.odds.equity import OddsError
from engine.odds.situations import odds, situation
from engine.rules.games import GAMES
from engine.rules.showing import split_up_and_down, up_pattern
from engine.rules.sim_layout import layout


def key_of(cards: list[int]) -> int:
    return sum(1 << (16 * (c & 3) + (c >> 2)) for c in cards)


def counts_of(cards: list[int]) -> np.ndarray:
    counts = np.zeros(13, np.int64)
    for card in cards:
        counts[((card >> 2) + 1) % 13] += 1  # ace first
    return counts


@settings(max_examples=300, deadline=None)
@given(st.integers(5, 8).flatmap(lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)))
def test_the_compiled_low_of_a_key_is_the_low_of_its_rank_counts(cards):
    assert key_low_strength(key_of(cards)) == strength_of_counts(counts_of(cards))


def test_the_compiled_low_equals_the_rank_count_low_over_every_pattern_of_five_to_eight_cards():
    """Every way 5 to 8 cards fall on the 13 ranks (193,830 patterns; a low depends on nothing else)."""
    checked = 0
    for k in range(5, 9):
        for counts in rank_patterns(k, 0):  # ace first
            key = sum(1 << (16 * suit + (r + 12) % 13) for r, c in enumerate(counts) for suit in range(c))
            assert key_low_strength(key) == strength_of_counts(np.array(counts, np.int64)), counts
            checked += 1
    assert checked == 193_830


def test_fewer_than_five_cards_make_no_low():
    assert key_low_strength(key_of(parse_cards("As2s3s4s").tolist())) == -1


@pytest.mark.parametrize("players", [2, 7, 8])
def test_the_deal_gives_each_seat_seven_cards_or_six_and_the_community_card(players):
    """Every card dealt once; burns before fourth to sixth street; seven players take the last 52nd
    card without a burn before seventh street; eight share one community card."""
    lay = layout(GAMES["seven-card-stud"], players, {})
    positions = np.concatenate([lay.hole.ravel(), lay.board.ravel()])
    assert len(set(positions.tolist())) == len(positions)
    assert lay.hole.shape == (players, 7 if players < 8 else 6)
    assert lay.board.shape == (1, 0 if players < 8 else 1)
    burns = lay.n_cards - len(positions)
    assert burns == {2: 4, 7: 3, 8: 3}[players]
    assert lay.n_cards <= 52 and (players < 7 or lay.n_cards == 52)


def test_razz_lows_at_seven_cards_fall_as_the_exact_counts_say():
    """Each seat's final low over 60,000 heads-up razz hands against the exact count of 7-card lows:
    a chi-square over the categories with at least 5 expected seats (a fixed seed: it fails only
    if the deal or the ranking is wrong, not by chance on a rerun)."""
    game = GAMES["razz"]
    u = random_words(np.random.default_rng(5), 60_000, words_per_hand(game, 2, {}))
    batch = simulate_chunk(game, 2, 100, {}, u)
    seen = np.bincount(category_of(batch.strength.ravel()), minlength=14)
    expected = np.array(category_counts(7)) / comb(52, 7) * batch.strength.size
    big = expected >= 5
    chi2 = float(((seen[big] - expected[big]) ** 2 / expected[big]).sum())
    assert chi2 < 36.0, (chi2, seen.tolist())  # 10 degrees of freedom: p < 1e-4 above 36
    assert seen[~big].sum() <= 5


def pokerkit_low(cards: list[int]):
    from pokerkit import RegularLowHand

    return RegularLowHand.from_game(format_cards(cards), "")


def test_exact_razz_odds_with_one_card_to_come_equal_pokerkits_lows_over_every_runout():
    game = GAMES["razz"]
    hands = ["(Ah4c)7d8s9hKc", "(2s3d)TcJhQdKh"]
    spot = situation(game, hands)
    result = odds(game, spot, exact=True)
    known = [parse_cards(h.replace("(", "").replace(")", "")).tolist() for h in hands]
    free = sorted(set(range(52)) - set(known[0]) - set(known[1]))
    shares, runouts = [0.0, 0.0], 0
    for first, second in permutations(free, 2):
        a, b = pokerkit_low(known[0] + [first]), pokerkit_low(known[1] + [second])
        shares[0] += 1.0 if a > b else 0.5 if a == b else 0.0
        shares[1] += 1.0 if b > a else 0.5 if a == b else 0.0
        runouts += 1
    assert result.exact and result.runouts == runouts == 40 * 39
    assert [p.equity for p in result.players] == pytest.approx([s / runouts for s in shares], abs=1e-12)


def test_exact_stud_hi_lo_odds_equal_pokerkits_high_and_eight_or_better_lows():
    from pokerkit import EightOrBetterLowHand, StandardHighHand

    game = GAMES["stud-hi-lo"]
    hands = ["(Ah2c)3d4s9hKc", "(QsQd)QcJhTd9d"]
    result = odds(game, situation(game, hands), exact=True)
    known = [parse_cards(h.replace("(", "").replace(")", "")).tolist() for h in hands]
    free = sorted(set(range(52)) - set(known[0]) - set(known[1]))
    totals, runouts = np.zeros(2), 0
    for first, second in permutations(free, 2):
        texts = [format_cards(known[0] + [first]), format_cards(known[1] + [second])]
        high = [StandardHighHand.from_game(t, "") for t in texts]
        low = []
        for t in texts:
            try:
                low.append(EightOrBetterLowHand.from_game(t, ""))
            except ValueError:  # no eight-or-better low
                low.append(None)
        halves = [high] if all(x is None for x in low) else [high, low]
        for half in halves:
            value = 1.0 / len(halves)
            best = max(x for x in half if x is not None)
            winners = [s for s in range(2) if half[s] is not None and half[s] == best]
            for s in winners:
                totals[s] += value / len(winners)
        runouts += 1
    assert [p.equity for p in result.players] == pytest.approx((totals / runouts).tolist(), abs=1e-12)


def test_down_cards_go_in_parentheses_and_a_card_written_face_wrong_is_named():
    pattern = up_pattern(GAMES["seven-card-stud"].streets)
    assert split_up_and_down("(Ah2c)3d4s5h6c(7d)", pattern) == "Ah2c3d4s5h6c7d"
    with pytest.raises(ValueError, match=r"card 3 \(3d\) is dealt face up"):
        split_up_and_down("(Ah2c3d)", pattern)
    with pytest.raises(ValueError, match=r"card 7 \(7d\) is dealt face down"):
        split_up_and_down("(Ah2c)3d4s5h6c7d", pattern)
    with pytest.raises(ValueError, match="unbalanced"):
        split_up_and_down("(Ah2c", pattern)
    game = GAMES["razz"]
    written, plain = situation(game, ["(Ah2c)3d", "random"]), situation(game, ["Ah2c3d", "random"])
    assert written.hands == plain.hands
    with pytest.raises(OddsError, match=r"hand 'Ah\(2c\)3d': card 1 \(Ah\) is dealt face down"):
        situation(game, ["Ah(2c)3d", "random"])


def test_stud_simulates_aggregates_and_shows_its_page_from_the_cli(tmp_path, monkeypatch):
    import json

    from typer.testing import CliRunner

    from scooplab.cli import app
    from tests.test_dashboard import game_page

    runner, data = CliRunner(), str(tmp_path / "w")
    for name in ("seven-card-stud", "stud-hi-lo", "razz"):
        result = runner.invoke(app, ["simulate", "--variant", name, "--hands", "3000", "--players", "8",
                                     "--seed", "2", "--data", data])  # fmt: skip
        assert result.exit_code == 0, result.output
    stats = json.loads(
        runner.invoke(app, ["stats", "--variant", "razz", "--data", data, "--format", "json"]).output
    )
    lows = {row["category"]: row for row in stats["categories_showdown"]}
    assert lows["five low"]["n"] == 3000 * 8 and lows["five low"]["exact"] == pytest.approx(
        category_counts(7)[-1] / comb(52, 7)
    )  # (eight seats: six hole cards each and the community card, dealt as at the table)
    hi_lo = json.loads(
        runner.invoke(app, ["stats", "--variant", "stud-hi-lo", "--data", data, "--format", "json"]).output
    )
    assert 0 < hi_lo["low_paid_rate"]["count"] < 3000 and hi_lo["scoop_rate"]["n"] == 3000
    monkeypatch.setenv("SCOOPLAB_DATA", data)
    for name, title in (("razz", "Razz"), ("stud-hi-lo", "Seven-Card Stud Hi-Lo Eight or Better")):
        page = game_page(name)
        assert not page.exception and not page.error, [e.value for e in page.exception]
        assert page.title[0].value == title


def test_with_eight_players_the_last_card_is_given_as_the_community_board():
    game = GAMES["razz"]
    hands = ["(Ah2c)3d4s5h6c"] + ["random"] * 7
    spot = situation(game, hands, {"community": "7d"})
    assert spot.boards == ((parse_cards("7d")[0],),)
    with pytest.raises(OddsError, match=r"deals 6 hole cards to 8 players \(the last card is one community"):
        situation(game, ["(Ah2c)3d4s5h6c(7d)"] + ["random"] * 7)
    with pytest.raises(OddsError, match="Razz deals it no card to 7 players"):
        situation(game, ["(Ah2c)3d4s5h6c"] + ["random"] * 6, {"community": "7d"})
    assert len(situation(game, ["(Ah2c)3d4s5h6c(7d)", "random"]).hands[0]) == 7


def test_stud_has_no_push_fold_game_and_says_why(tmp_path):
    from typer.testing import CliRunner

    from scooplab.cli import app
    from scooplab.lab import Lab

    result = CliRunner().invoke(app, ["solve", "pushfold", "--variant", "razz", "--data", str(tmp_path)])
    assert result.exit_code == 2 and "Razz has no push/fold game" in result.output
    assert "Traceback" not in result.output
    compared = Lab(tmp_path).pushfold_comparison()
    assert {v for v, _ in compared["missing"]} == {n for n, g in GAMES.items() if not g.bring_in}


def test_stud_in_betting_mode_brings_in_and_its_statistics_come_from_the_hands(tmp_path):
    import json

    from typer.testing import CliRunner

    from scooplab.cli import app

    runner, data = CliRunner(), str(tmp_path / "w")
    policies = ["--policy", "tag", "--policy", "random", "--policy", "station"]
    result = runner.invoke(app, ["simulate", "--variant", "razz", "--mode", "betting", "--hands", "1500",
                                 "--players", "6", *policies, "--seed", "3", "--data", data])  # fmt: skip
    assert result.exit_code == 0, result.output
    asked = ["stats", "--variant", "razz", "--mode", "betting", "--data", data, "--format", "json"]
    stats = json.loads(runner.invoke(app, asked).output)
    posted = stats["bring_in_posted_rate"]
    assert posted["n"] == 1500 and 0 < posted["count"] < 1500  # tag and random seats complete at once
    assert 0 < stats["bring_in_completed_rate"]["count"] < posted["count"]
    assert [r["street"] for r in stats["first_to_act_won_by_street"]] == [
        "fourth",
        "fifth",
        "sixth",
        "seventh",
    ]
