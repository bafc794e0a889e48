"""Short-deck hold'em, a house variant of RULINGS.md written as data alone
(engine/variants/short-deck.toml): exact category counts of every 5- and 7-card set of the 36
cards against an independent brute-force count, both rule options, both modes, its own
exported PHH replayed to the same rows, PokerKit's short-deck hands as a peer, statistics, the
dashboard page, and the documented example hand."""

import itertools
import json
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import SHORT, format_cards
from engine.hands.evaluate import HIGH_CATEGORIES, count_ranking_categories, evaluate_high, high_category
from engine.rules.games import GAMES
from ingest.histories.phh import iter_hands
from ingest.histories.replay import replay
from scooplab.cli import app
from tests.test_betting_kernel import assert_replays_to_the_same_rows

NAME = "short-deck"
GAME = GAMES[NAME]
EXAMPLE = Path(__file__).parent / "fixtures" / "examples" / "short-deck.phh"
ON, OFF = {"trips_beat_straight": True}, {"trips_beat_straight": False}
runner = CliRunner()

# The rules, written out by hand from RULINGS.md: categories weakest first under each option.
ORDER = {
    True: ["high card", "pair", "two pair", "straight", "three of a kind", "full house", "flush",
           "four of a kind", "straight flush"],
    False: ["high card", "pair", "two pair", "three of a kind", "straight", "full house", "flush",
            "four of a kind", "straight flush"],
}  # fmt: skip
RANKS = "6789TJQKA"
RUNS = [{8, 0, 1, 2, 3}] + [set(range(low, low + 5)) for low in range(5)]  # A-6-7-8-9, then 6-T .. T-A


def _category_of_five(cards: tuple[int, ...]) -> str:
    """The category of five short-deck cards (id = rank * 4 + suit), from counts alone."""
    ranks = [c >> 2 for c in cards]
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    straight = set(ranks) in RUNS
    if straight and flush:
        return "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    return {3: "three of a kind", 2: "two pair" if counts[1] == 2 else "pair"}.get(counts[0], "high card")


@pytest.fixture(scope="module")
def five_card_categories() -> np.ndarray:
    """The category index (HIGH_CATEGORIES) of every 5-card set, in colexicographic order."""
    out = np.empty(comb(36, 5), dtype=np.int8)
    for cards in itertools.combinations(range(36), 5):
        rank = sum(comb(c, i + 1) for i, c in enumerate(cards))  # colex rank of the sorted set
        out[rank] = HIGH_CATEGORIES.index(_category_of_five(cards))
    return out


def test_the_rulings_as_described():
    assert GAME.deck.size == 36 and GAME.deck.ranks == RANKS
    assert (GAME.min_players, GAME.max_players) == (2, 9) and GAME.structure.value == "no-limit"
    assert GAME.resolve_options()["trips_beat_straight"] is True
    result = runner.invoke(app, ["variants", "check", GAME.source])
    assert "9 players x 2 hole cards + 5 board cards + 3 burns = 26: fits the 36-card deck" in result.output
    assert " < ".join(ORDER[True]) in result.output and " < ".join(ORDER[False]) in result.output


def test_exact_five_card_counts_against_a_brute_force_count(five_card_categories):
    ours = count_ranking_categories(
        0, 5, deck=SHORT, places=GAME.category_places(ON)
    )  # five cards: one category
    assert ours.tolist() == np.bincount(five_card_categories, minlength=9).tolist()
    assert ours[8] == 24 and ours[7] == 9 * 32 and ours[5] == comb(9, 5) * 4 - 24  # by hand
    assert ours[4] == 6 * (4**5 - 4) and ours.sum() == comb(36, 5)


@pytest.mark.slow
def test_exact_seven_card_counts_against_a_brute_force_count(five_card_categories):
    """Every 7-card set: the categories its 21 five-card subsets make; the best under each order."""
    sets = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(36), 7)), dtype=np.int64,
                       count=comb(36, 7) * 7).reshape(-1, 7)  # fmt: skip
    binomial = np.array([[comb(n, k) for k in range(6)] for n in range(36)], dtype=np.int64)
    made = np.zeros(len(sets), dtype=np.int16)  # bit c: some five of the seven make category c
    for five in itertools.combinations(range(7), 5):
        rank = sum(binomial[sets[:, column], i + 1] for i, column in enumerate(five))
        made |= np.int16(1) << five_card_categories[rank].astype(np.int16)
    for trips_first, order in ORDER.items():
        place_of = [order.index(name) for name in HIGH_CATEGORIES]
        best_of_mask = np.array([max((c for c in range(9) if m >> c & 1), key=place_of.__getitem__, default=0)
                                 for m in range(512)])  # fmt: skip
        expected = np.bincount(best_of_mask[made], minlength=9)
        places = GAME.category_places({"trips_beat_straight": trips_first})
        assert count_ranking_categories(0, 7, deck=SHORT, places=places).tolist() == expected.tolist()
        rule = f"trips_beat_straight={trips_first}"
        result = runner.invoke(app, ["rankings", "--game", NAME, "--rule", rule, "--format", "json"])
        rows = json.loads(result.output)["categories"]
        assert [r["category"] for r in rows] == order  # weakest first, in the game's order
        assert {r["category"]: r["count"] for r in rows} == dict(zip(HIGH_CATEGORIES, expected.tolist(),
                                                                    strict=True))  # fmt: skip


def test_the_order_follows_the_option():
    from engine.hands.cards import parse_card_rows

    texts = ("AhKh9h7h6h", "6c6d6s7c7d", "TcTdThAs8c", "6s7h8c9dTs")
    flush, full, trips, straight = (parse_card_rows([t], SHORT) for t in texts)
    for options, trips_wins in ((ON, True), (OFF, False)):
        places = GAME.category_places(options)
        values = [int(evaluate_high(hand, SHORT, places)[0]) for hand in (flush, full, trips, straight)]
        assert values[0] > values[1]  # a flush beats a full house either way
        assert (values[2] > values[3]) == trips_wins


def test_pokerkit_ranks_short_deck_hands_as_the_straight_over_trips_option_does():
    """PokerKit's short-deck hands put a straight over three of a kind (the original rule): with
    trips_beat_straight off, every pair of random 7-card hands compares the same way; with the
    RULINGS default on, they differ exactly where three of a kind meets a straight."""
    from pokerkit import ShortDeckHoldemHand

    rng = np.random.default_rng(8)
    hands = np.array([rng.permutation(36)[:7] for _ in range(1_500)], dtype=np.int8)
    peer = [ShortDeckHoldemHand.from_game(format_cards(h[:2], SHORT), format_cards(h[2:], SHORT))
            for h in hands]  # fmt: skip
    off = evaluate_high(hands, SHORT, GAME.category_places(OFF))
    on = evaluate_high(hands, SHORT, GAME.category_places(ON))
    disagreements = 0
    for i in range(0, len(hands) - 1, 2):
        j = i + 1
        by_peer = (peer[i] > peer[j]) - (peer[i] < peer[j])
        assert by_peer == np.sign(off[i] - off[j]), (
            format_cards(hands[i], SHORT),
            format_cards(hands[j], SHORT),
        )
        if by_peer != np.sign(on[i] - on[j]):
            disagreements += 1
            assert {int(high_category(on[i])), int(high_category(on[j]))} == {3, 4}  # trips and a straight
    assert disagreements > 0


def test_the_option_decides_showdowns_of_the_same_deals():
    u = random_words(np.random.default_rng(2), 3_000, words_per_hand(GAME, 6, {}))
    on, off = simulate_chunk(GAME, 6, 100, ON, u), simulate_chunk(GAME, 6, 100, OFF, u)
    assert np.array_equal(on.hole, off.hole)  # paired: the same cards
    changed = (on.won != off.won).any(axis=1)
    assert changed.any()
    for h in np.flatnonzero(changed):
        categories = set(high_category(on.strength[h]).tolist())
        assert {3, 4} <= categories, h  # only where three of a kind met a straight


@pytest.mark.parametrize("options", [ON, OFF])
def test_betting_mode_replays_its_own_phh_to_the_same_rows(options):
    hands, _ = assert_replays_to_the_same_rows(GAME, 6, options, ("tag", "random", "station"), 5, count=150,
                                                stake=1_000)  # fmt: skip
    assert "showdown" in set(hands.column("ending").to_pylist())
    wanted = "_options = { trips_beat_straight = false }"
    assert all((wanted in text) == (options == OFF) for text in hands.column("phh").to_pylist())


def test_the_documented_example_is_decided_by_the_trips_rule(tmp_path):
    (raw,) = iter_hands([EXAMPLE])
    replayed = replay(raw.fields)
    assert replayed.state.stacks == raw.fields["finishing_stacks"] == [116, 92, 92]
    assert [o.high_category for o in replayed.result.outcomes] == ["three of a kind", "straight", "straight"]
    other_rule = tmp_path / "straight.phh"  # the same hand under the other option: the straight wins
    text = EXAMPLE.read_text().replace("finishing_stacks = [116, 92, 92]", "finishing_stacks = [92, 116, 92]")
    other_rule.write_text(text + "_options = { trips_beat_straight = false }\n")
    (raw,) = iter_hands([other_rule])
    assert replay(raw.fields).state.stacks == [92, 116, 92]


def test_simulate_export_ingest_stats_and_its_dashboard_page(tmp_path):
    data = str(tmp_path / "w")
    for extra in ([], ["--rule", "trips_beat_straight=off"], ["--mode", "betting", "--policy", "tag"]):
        args = ["--hands", "4000", "--players", "6", "--seed", "4", "-w", "1", *extra]
        result = runner.invoke(app, ["simulate", "--variant", NAME, *args, "--data", data])
        assert result.exit_code == 0, result.output
    out = tmp_path / "sd.phhs"
    assert runner.invoke(app, ["export", "--variant", NAME, "--data", data, "--out", str(out)]).exit_code == 0
    result = runner.invoke(app, ["ingest", str(out), "--data", str(tmp_path / "again"), "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["rejected"] == 0
    for rule, trips_first in (([], True), (["--rule", "trips_beat_straight=off"], False)):
        result = runner.invoke(app, ["stats", "--variant", NAME, "--data", data, "--mode", "showdown", *rule,
                                     "--format", "json"])  # fmt: skip
        stats = json.loads(result.output)
        assert stats["hands"] == 4000
        assert stats["population"]["options"] == {"trips_beat_straight": trips_first}
        assert [c["category"] for c in stats["categories_showdown"]] == ORDER[trips_first]
        assert all(abs(c["z"]) < 4.5 for c in stats["categories_showdown"])  # beside the exact 7-card law
        rarity = {r["category"]: r["more_common_than"] for r in stats["rank_against_rarity"]}
        assert ("three of a kind" in rarity["straight"]) == (not trips_first)  # straights outnumber trips
    import os

    from tests.test_dashboard import game_page

    os.environ["SCOOPLAB_DATA"] = data
    page = game_page(NAME)
    assert not page.exception and page.title[0].value == "Short-deck Hold'em"
