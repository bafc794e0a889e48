"""Starting-hand tables (#14): the classes up to suit symmetry, hold'em's figures against a published
table, Scarney's feature table against the seed's tips, intervals that hold what they claim, the
table stored once in the warehouse and read by plain DuckDB, and ``scooplab hands``."""

from __future__ import annotations

import itertools
import json
from math import comb

import duckdb
import numpy as np
import pytest
from typer.testing import CliRunner

from engine.hands.cards import STANDARD
from engine.odds.ranges import class_names
from engine.odds.situations import odds, situation
from engine.odds.starting_hands import hand_features, starting_hands
from engine.rules.games import GAMES, get_game
from engine.rules.hand_classes import hand_classes
from ingest.generation.starting_hands import compute_and_store, stored, table_key
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

runner = CliRunner()

# Equity of a hand all in before the flop against one random hand, heads-up, in percent, as
# published (to 0.1%) in "Hand Equity v Random Hand", Replay Poker forums,
# https://forums.replaypoker.com/t/hand-equity-v-random-hand/22406 (its top 20).
PUBLISHED_AGAINST_RANDOM = {
    "AA": 85.2, "KK": 82.4, "QQ": 79.9, "JJ": 77.5, "TT": 75.0, "99": 72.1, "88": 69.2, "AKs": 67.0,
    "77": 66.2, "AQs": 66.2, "AJs": 65.4, "AKo": 65.3, "ATs": 64.6, "AQo": 64.4, "AJo": 63.6, "KQs": 63.4,
    "66": 63.3, "A9s": 62.8, "ATo": 62.7, "KJs": 62.6,
}  # fmt: skip


def orbits_by_burnside(size: int, n_suits: int, held: int) -> int:
    """Classes of ``held`` cards up to suit permutations, counted by Burnside's lemma (fixed sets)."""
    perms = list(itertools.permutations(range(n_suits)))
    fixed = 0
    for perm in perms:
        for cards in itertools.combinations(range(size), held):
            moved = {c // n_suits * n_suits + perm[c % n_suits] for c in cards}
            fixed += moved == set(cards)
    return fixed // len(perms)


@pytest.mark.parametrize("name", ["holdem", "short-deck", "skoejarth", "cry-me-a-river"])
def test_classes_are_the_orbits_of_suit_symmetry(name):
    game = get_game(name)
    classes = hand_classes(game, {})
    held = len(classes[0].cards)
    assert len(classes) == orbits_by_burnside(game.deck.size, len(game.deck.suits), held)
    assert sum(c.combos for c in classes) == comb(game.deck.size, held)
    assert len({c.name for c in classes}) == len(classes)
    if held == 2:
        assert {c.name for c in classes} == set(class_names(game.deck))
        sizes = {c.name: c.combos for c in classes}
        assert sizes["AA" if "A" in game.deck.ranks else "KK"] == 6 and sizes[classes[1].name] in (4, 12)


def test_games_of_more_hole_cards_have_features_not_classes():
    for name in ("scarney", "scarney-hi-lo", "cry-me-a-river-omaha"):
        assert hand_classes(GAMES[name], {}) is None


def test_features_of_one_hand_are_counted_right():
    scarney = get_game("scarney")
    hole = np.array([STANDARD.card_id(c) for c in ("Ah", "Ad", "2c", "3c", "4c", "9s")], dtype=np.int64)
    features = {k: int(v) for k, v in hand_features(scarney, {}, hole).items()}
    assert features == {"all": 0, "pairs": 1, "suited": 3, "connected": 3, "aces": 2, "ranks_exposed": 5,
                        "low_points": 1 + 1 + 2 + 3 + 4 + 9, "low_cards": 3}  # fmt: skip


@pytest.fixture(scope="module")
def holdem_table():
    return starting_hands(get_game("holdem"), 2, samples=30_000, seed=1)


def test_holdem_classes_agree_with_a_published_table(holdem_table):
    rows = {r.group: r for r in holdem_table.rows}
    assert len(rows) == 169 and holdem_table.rows[0].group == "AA" and holdem_table.rows[0].rank == 1
    for name, published in PUBLISHED_AGAINST_RANDOM.items():
        equity, low, high = rows[name].figures["equity"]
        half = (high - low) / 2
        # 20 classes at once: a 4-sigma margin (2 half-intervals) plus the published rounding
        assert abs(100 * equity - published) <= 100 * 2 * half + 0.05, (name, equity, published)
    assert rows["72o"].figures["equity"][0] < 0.36 and holdem_table.rows[-1].group in ("32o", "42o", "52o")
    for r in holdem_table.rows:  # one part: win and tie add up to taking chips; scoop is winning alone
        assert r.figures["scoop"][0] == r.figures["win"][0] and r.figures["tie"][0] < 0.1


def test_a_class_row_agrees_with_the_odds_of_its_hand(holdem_table):
    """The table's path (a class's first combination in a batch) against ``odds`` on another
    combination of the class with another seed: two independent samples of one equity."""
    row = next(r for r in holdem_table.rows if r.group == "T9s")
    holdem = get_game("holdem")
    result = odds(holdem, situation(holdem, ["Th9h", "random"]), samples=200_000, seed=7)
    se_table = (row.figures["equity"][2] - row.figures["equity"][1]) / (2 * 1.96)
    interval = result.players[0].ci95["equity"]
    se_odds = (interval[1] - interval[0]) / (2 * 1.96)
    z = (row.figures["equity"][0] - result.players[0].equity) / np.hypot(se_table, se_odds)
    assert abs(z) < 4


@pytest.fixture(scope="module")
def scarney_tables():
    scarney = get_game("scarney")
    return [starting_hands(scarney, 2, samples=120_000, seed=seed) for seed in (0, 1)]


def _by(table, kind):
    return {r.value: r for r in table.rows if r.kind == kind}


def test_scarney_tips_low_cards_and_aces_win_the_low_half_more(scarney_tables):
    """The seed's tips, second test: low cards (2-6) and the Ace win more of the low half."""
    table = scarney_tables[0]
    for kind, values in (("aces", (0, 1, 2)), ("low_cards", (0, 1, 2, 3, 4))):
        rows = _by(table, kind)
        low_share = [next(s for s in rows[v].figures.items() if s[0] == "share.low")[1] for v in values]
        for weaker, stronger in itertools.pairwise(low_share):
            assert weaker[2] < stronger[1], (kind, low_share)  # intervals apart, in the tip's direction
    points = _by(table, "low_points")
    common = [v for v, r in points.items() if r.combos >= 2_000]
    shares = [points[v].figures["share.low"][0] for v in common]
    assert np.corrcoef(common, shares)[0, 1] < -0.95  # fewer points, more of the low half


def test_scarney_feature_rows_hold_together(scarney_tables):
    table = scarney_tables[0]
    everyone = _by(table, "all")[0]
    assert everyone.figures["equity"][0] == pytest.approx(0.5) and everyone.combos == 2 * 120_000
    for r in table.rows:
        parts = sum(v[0] for k, v in r.figures.items() if k.startswith("share."))
        assert parts == pytest.approx(r.figures["equity"][0])
        assert r.figures["equity"][1] <= r.figures["equity"][0] <= r.figures["equity"][2]


def test_feature_intervals_cover_as_claimed(scarney_tables):
    """Two tables of independent deals: their differences, over each row's two intervals, spread
    like a standard normal (their root mean square near 1), so the intervals neither hide nor
    inflate the spread of several seats of one deal in one group."""
    first, second = (dict(((r.kind, r.value), r) for r in t.rows) for t in scarney_tables)
    z = []
    for key, row in first.items():
        other = second.get(key)
        if key[0] == "all" or other is None or min(row.combos, other.combos) < 5_000:
            continue
        for name in ("equity", "scoop", "share.low"):
            (a, lo_a, hi_a), (b, lo_b, hi_b) = row.figures[name], other.figures[name]
            z.append((a - b) / np.hypot((hi_a - lo_a) / 3.92, (hi_b - lo_b) / 3.92))
    rms = float(np.sqrt(np.mean(np.square(z))))
    assert len(z) >= 60 and 0.7 < rms < 1.4, rms


def test_a_table_is_stored_once_and_read_by_plain_duckdb(tmp_path, monkeypatch):
    warehouse, holdem = Warehouse(tmp_path), get_game("holdem")
    assert stored(warehouse, holdem, 2, {}, samples=1_000) is None
    rows = compute_and_store(warehouse, holdem, 2, {}, samples=1_000)
    again = stored(warehouse, holdem, 2, {}, samples=1_000)
    assert again is not None and again.equals(rows)
    assert stored(warehouse, holdem, 2, {}, samples=1_000, seed=5) is None  # another key
    assert table_key(holdem, 2, {}, 1_000, 0) != table_key(holdem, 3, {}, 1_000, 0)
    files = list(tmp_path.glob("starting_hands/variant=holdem/run=players2-*/table.parquet"))
    assert len(files) == 1 and not list(tmp_path.rglob(".tmp-*"))
    plain = duckdb.sql(f"SELECT hand_group, rank, combos, equity, equity_low, equity_high FROM "
                       f"read_parquet('{files[0]}') ORDER BY rank LIMIT 1").fetchall()  # fmt: skip
    assert plain[0][:3] == ("AA", 1, 6) and plain[0][4] < plain[0][3] < plain[0][5]

    import ingest.generation.starting_hands as module

    monkeypatch.setattr(module, "starting_hands", lambda *a, **k: pytest.fail("computed again"))
    out = runner.invoke(app, ["hands", "--data", str(tmp_path), "--samples", "1000", "--format", "json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    assert answer["variant"] == "holdem" and len(answer["rows"]) == 169
    assert answer["rows"][0]["hand_group"] == "AA" and answer["samples"] == 1_000


def test_the_view_gives_each_half_and_the_cli_reads_bad_input(tmp_path):
    from analytics.db import connect

    compute_and_store(Warehouse(tmp_path), get_game("scarney"), 3, {}, samples=2_000)
    con = connect(tmp_path)
    low, high, equity = con.sql("SELECT low_share, high_share, equity FROM starting_hands "
                                "WHERE kind = 'aces' AND value = 1").fetchall()[0]  # fmt: skip
    assert low + high <= equity + 1e-9 and low > 0 and high > 0
    table = runner.invoke(app, ["hands", "--data", str(tmp_path), "--variant", "scarney", "--players", "3",
                                "--samples", "2000", "--feature", "aces"])  # fmt: skip
    assert table.exit_code == 0 and "aces" in table.output and "low share" in table.output
    for args, message in (
        (["--players", "1"], "seats 2 to 10"),
        (["--feature", "flush"], "the features are"),
        (["--variant", "nosuchgame"], "nosuchgame"),
    ):
        bad = runner.invoke(app, ["hands", "--data", str(tmp_path), *args])
        assert bad.exit_code == 2 and message in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize("name, players", [("scarney", 3), ("cry-me-a-river", 4), ("holdem", 2)])
def test_the_compiled_sums_of_the_odds_equal_the_figures_of_each_runout(name, players):
    """The odds' one-pass sums (``sum_outcomes``) against ``outcomes`` runout by runout, which the
    tables use: every figure, every seat."""
    from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
    from engine.odds.situations import STAKE, _Tally, outcomes

    game = get_game(name)
    words = random_words(np.random.default_rng(2), 5_000, words_per_hand(game, players, {}))
    batch = simulate_chunk(game, players, STAKE, {}, words)
    tally = _Tally(game, players, squares=True)
    tally.add(batch)
    for figure, values in outcomes(batch, players).items():
        assert np.allclose(tally.sums[figure], values.sum(axis=0)), figure
        if figure in tally.squares:
            assert np.allclose(tally.squares[figure], (values * values).sum(axis=0)), figure
