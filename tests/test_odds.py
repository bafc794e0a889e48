"""Odds for any situation (engine.odds.situations, `scooplab odds`): the enumeration is complete and right
in every game (against every ordered runout played through the reference state machine),
hold'em against published exact counts, samples within their intervals, bad input one line."""

import itertools
import json
from collections import Counter
from math import comb, sqrt

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.compiled.runouts import binomials, enumerate_deals, words_for_deals
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.hands.cards import parse_cards
from engine.odds.situations import (
    STAKE,
    OddsError,
    exact_groups,
    free_cards,
    known_prefix,
    odds,
    runout_count,
    situation,
)
from engine.rules.games import GAMES
from scooplab.cli import app
from tests.test_simulate_agreement import play_through_state_machine

runner = CliRunner()
HOLDEM = GAMES["holdem"]


def test_words_for_deals_make_the_kernel_deal_exactly_those_cards():
    for name in ("holdem", "skoejarth", "cry-me-a-river"):
        game = GAMES[name]
        u = random_words(np.random.default_rng(1), 200, words_per_hand(game, 3, {}))
        dealt = simulate_chunk(game, 3, 10, {}, u).cards
        again = simulate_chunk(game, 3, 10, {}, words_for_deals(dealt, game.deck.size)).cards
        assert (again == dealt).all(), name


def test_the_enumeration_lists_every_combination_once():
    spot = situation(HOLDEM, ["AhAs", "random"], {"board": "2c7dTh"})
    known, lay = known_prefix(HOLDEM, spot, {})
    free = free_cards(HOLDEM, known, [])
    groups, sizes, burns = exact_groups(HOLDEM, lay, known)
    assert sorted(sizes.tolist()) == [2, 2]  # the opponent's two cards, the turn and river
    total = comb(47, 2) * comb(45, 2)
    assert len(free) == 47
    deals = np.empty((total, lay.n_cards), dtype=np.int8)
    enumerate_deals(known, free, groups, sizes, burns, binomials(52), 0, deals)
    assert all(len(set(row)) == lay.n_cards for row in deals[::997].tolist())  # no card twice
    opponent, turn_river = np.sort(deals[:, lay.hole[1]], axis=1), np.sort(deals[:, lay.board[0, 3:]], axis=1)
    keys = {tuple(row) for row in np.hstack([opponent, turn_river]).tolist()}
    assert len(keys) == total  # every opponent hand with every turn and river, once


def _lexicographic_runouts(free, groups, sizes, burns, known):
    """Every runout in the enumeration's order, by itertools: each group a combination of the
    cards the earlier groups left (the last group fastest), burns the lowest cards left."""
    rows = []

    def extend(g, left, row):
        if g == len(sizes):
            row = row.copy()
            row[burns] = left[: len(burns)]
            rows.append(row)
            return
        for pick in itertools.combinations(left, int(sizes[g])):
            placed = row.copy()
            placed[groups[g, : sizes[g]]] = pick
            extend(g + 1, [c for c in left if c not in pick], placed)

    extend(0, free.tolist(), known.copy())
    return np.array(rows, dtype=np.int8)


@pytest.mark.parametrize(
    "name, hands, boards",
    [
        ("holdem", ["AdAc", "random"], {"board": "2c3d4h"}),  # a seat's group, then the board's
        ("cry-me-a-river", ["AdAc", "KhKs"], {"top": "2c3d4h5s", "middle": "6c7d8h9s", "bottom": "TcJdQh2s"}),
        ("scarney", ["2d3d4d5d6dAd", "7c7d7h7s8c8d"], {"top": "AhKh2c", "bottom": "QsJsTs9c"}),
        ("skoejarth", ["Kb6b1c", "random"], {"community": "2b3c"}),
    ],
)
def test_chunks_of_the_enumeration_step_through_every_runout_in_order(name, hands, boards):
    """Each chunk is unranked at its first row and stepped from there (the last group's next
    combination, an earlier group's when one wraps): every chunk equals that slice of a plain
    lexicographic listing, whatever its start."""
    game = GAMES[name]
    spot = situation(game, hands, boards)
    known, lay = known_prefix(game, spot, {})
    free = free_cards(game, known, spot.dead)
    groups, sizes, burns = exact_groups(game, lay, known)
    expected = _lexicographic_runouts(free, groups, sizes, burns, known)
    assert len(expected) == runout_count(sizes, len(free)) and len(sizes) >= 2
    whole = np.empty_like(expected)
    enumerate_deals(known, free, groups, sizes, burns, binomials(game.deck.size), 0, whole)
    assert (whole == expected).all()
    rng = np.random.default_rng(len(expected))
    for start in [1, len(expected) - 1, *rng.integers(0, len(expected), 6).tolist()]:
        chunk = np.empty((min(257, len(expected) - start), lay.n_cards), dtype=np.int8)
        enumerate_deals(known, free, groups, sizes, burns, binomials(game.deck.size), start, chunk)
        assert (chunk == expected[start : start + len(chunk)]).all(), start


def _ordered_reference(game, spot, options=None):
    """Every figure over every ordered assignment of the unknown dealt cards, each runout played
    through the state machine (burns take any card left: nobody sees them)."""
    options = game.resolve_options(options)
    played = game.under(options)
    known, lay = known_prefix(game, spot, options)
    free = free_cards(game, known, spot.dead).tolist()
    dealt = set(lay.hole.ravel().tolist()) | set(lay.board.ravel().tolist())
    unknown = [p for p in range(lay.n_cards) if known[p] < 0 and p in dealt]
    burns = [p for p in range(lay.n_cards) if p not in dealt]
    rows = []
    for cards in itertools.permutations(free, len(unknown)):
        row = known.copy()
        row[unknown] = cards
        row[burns] = [c for c in free if c not in cards][: len(burns)]
        rows.append(row)
    deals = np.array(rows, dtype=np.int8)
    batch = simulate_chunk(game, len(spot.hands), STAKE, options, words_for_deals(deals, game.deck.size))
    n, pot = len(spot.hands), len(spot.hands) * STAKE
    sums = {k: np.zeros(n) for k in ("equity", "win", "tie", "scoop", "dead")}
    shares, survives = Counter(), Counter()
    for h in range(len(batch)):
        state, result = play_through_state_machine(batch, h)
        outcomes = result.outcomes
        if played.low_half:
            parts = {"high": [o.won_high for o in outcomes], "low": [o.won_low for o in outcomes]}
        elif played.board_shares:
            parts = {
                played.board_names[b]: [o.board_won[b] for o in outcomes] for b in played.community_boards
            }
        else:
            parts = {"high": list(result.won)}
        if len(parts) > 1 and played.discard_board is not None:  # a pot that ended before a showdown
            parts["no_showdown"] = [w - sum(p[s] for p in parts.values()) for s, w in enumerate(result.won)]
        for s, won in enumerate(result.won):
            alone = any(part[s] > 0 and part[s] == sum(part) for part in parts.values())
            sums["equity"][s] += won / pot
            sums["scoop"][s] += won == pot
            sums["win"][s] += alone
            sums["tie"][s] += won > 0 and not alone
            sums["dead"][s] += state.dead[s]
            for name, part in parts.items():
                shares[s, name] += part[s] / pot
        survives.update(played.board_names[b] for b in result.surviving_boards)
    count = len(batch)
    figures = {k: (v / count).tolist() for k, v in sums.items()}
    figures["shares"] = [{name: shares[s, name] / count for name in parts} for s in range(n)]
    figures["survives"] = {played.board_names[b]: survives[played.board_names[b]] / count
                           for b in played.community_boards}  # fmt: skip
    return figures, count


def _free_only(game, hands, boards, free):
    """Dead cards that leave only ``free`` to deal besides the cards given: a small deck."""
    given = "".join(h for h in hands if h != "random").replace("?", "") + "".join(boards.values())
    used = set(parse_cards(given, game.deck).tolist()) | set(parse_cards(free, game.deck).tolist())
    return "".join(game.deck.card_text(c) for c in range(game.deck.size) if c not in used)


ULTIMATE = {"showdown": "ultimate_hi_lo"}
SPOTS = [  # small situations of every game, where the rules of each bite; some on a small deck
    ("holdem", ["AhKh", "QsQd", "7c2d"], {"board": "Qh9h2h"}, {}, None),
    ("holdem", ["Ah??", "random"], {"board": "2c7dTh"}, {}, "3s4s5s6s9sJsQsKs"),
    ("short-deck", ["AhKh", "QsQd"], {"board": "Qh9h6h"}, {}, None),
    ("skoejarth", ["Kb1c2o", "3s4b5c", "6o6b1s"], {"community": "1b2b3o"}, {}, None),
    ("cry-me-a-river", ["AhKh", "QsQd"],
     {"top": "2c3c4c5c6c", "middle": "7d8d9dTd", "bottom": "2s3s4s5s"}, {}, None),
    ("cry-me-a-river", ["AhKh", "random"],
     {"top": "2c3c4c5c", "middle": "7d8d9dTd6d", "bottom": "2s3s4s5s9s"}, {}, "6c6h7c8c9hJhQh"),
    ("cry-me-a-river-omaha", ["AhKhQcJc", "QsQd7c7d"],
     {"top": "2c3c4c5c6c", "middle": "7h8h9hTh", "bottom": "2s3s4s5sTs"}, ULTIMATE, None),
    ("scarney", ["2d3d4d5d6dAd", "7c7d7h8c8dKs"], {"top": "AhKh2cQs", "bottom": "7s8s9cJh"}, {}, None),
    ("scarney", ["2d3d4d5d6dAd", "7c7d7h8c8dKs"], {"top": "AhKh2cQs"}, {}, "9c9dTcTdJcJd7s"),
    ("scarney-hi-lo", ["2d3d4d5dAd", "7c7d8c8dKs"], {"top": "AhKh2cQs", "bottom": "7s9sTcJh"}, {}, None),
    ("scarney-hi-lo", ["7c7d8c8d??", "2d3d4d5dAd"], {"top": "AhKh2cQs", "bottom": "9sTs"}, {},
     "7s8sKcKdQd3c"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "hands", "boards", "options", "free"), SPOTS,
                         ids=[f"{s[0]}-{i}" for i, s in enumerate(SPOTS)])  # fmt: skip
def test_exact_odds_equal_every_ordered_runout_through_the_state_machine(name, hands, boards, options, free):
    game = GAMES[name]
    dead = _free_only(game, hands, boards, free) if free else ""
    spot = situation(game, hands, boards, dead, options=options)
    result = odds(game, spot, options)
    expected, ordered = _ordered_reference(game, spot, options)
    # each grouped runout stands for the same number of ordered ones (one card a street: just one)
    merged = result.runouts < ordered or free is None or name == "scarney-hi-lo"  # small decks: groups
    assert result.exact and ordered % result.runouts == 0 and merged
    for key in ("equity", "win", "tie", "scoop"):
        assert [getattr(p, key) for p in result.players] == pytest.approx(expected[key], abs=1e-12), key
    assert [p.shares for p in result.players] == [pytest.approx(e, abs=1e-12) for e in expected["shares"]]
    for player in result.players:
        assert sum(player.shares.values()) == pytest.approx(player.equity, abs=1e-12)
    if game.discard_board is not None:
        assert [p.dead for p in result.players] == pytest.approx(expected["dead"], abs=1e-12)
    if game.kill is not None:
        assert result.survives == pytest.approx(expected["survives"], abs=1e-12)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)


# GNU poker-eval's hcmp2 over all 1,712,304 boards, as printed in "Texas Hold'em trivia",
# brainwagon.org, 2005-04-09 (https://brainwagon.org/2005/04/09/texas-holdem-trivia):
# wins, losses and ties of the first hand.
PUBLISHED = [
    (["AdAc", "KhKs"], (1_388_072, 317_694, 6_538)),
    (["AdAc", "Td9d"], (1_338_249, 367_143, 6_912)),
    (["AdAc", "QcJh"], (1_450_987, 254_763, 6_554)),
]


@pytest.mark.parametrize(("hands", "counts"), PUBLISHED)
def test_heads_up_preflop_matches_the_published_exact_counts(hands, counts):
    result = odds(HOLDEM, situation(HOLDEM, hands))
    assert result.exact and result.runouts == 1_712_304
    first, second = result.players
    assert round(first.win * result.runouts) == counts[0] and round(second.win * result.runouts) == counts[1]
    assert round(first.tie * result.runouts) == counts[2] == round(second.tie * result.runouts)
    assert first.equity == pytest.approx((counts[0] + counts[2] / 2) / 1_712_304, abs=1e-12)


def test_samples_fall_within_their_interval_of_the_exact_answer():
    spot = situation(HOLDEM, ["AhKh", "QsQd", "random"], {"board": "Qh9h2c"})
    exact = odds(HOLDEM, spot)
    sampled = odds(HOLDEM, spot, samples=40_000, seed=3)
    assert exact.exact and not sampled.exact and sampled.runouts == 40_000
    for ours, truth in zip(sampled.players, exact.players, strict=True):
        for key in ("equity", "win", "tie", "scoop"):  # within 1.5 half-widths (about 3 standard errors)
            low, high = ours.ci95[key]
            assert abs(getattr(ours, key) - getattr(truth, key)) <= 1.5 * (high - low) / 2 + 1e-12, key


def test_scarney_knows_who_dies_and_cry_me_a_river_which_boards_survive():
    scarney = GAMES["scarney"]
    dead = odds(scarney, situation(scarney, ["7c7d7h8c8d8h", "random"], {"bottom": "7s8s9c"}), samples=2_000)
    assert dead.players[0].dead == 1.0 and dead.players[0].equity == 0.0 and dead.players[1].scoop == 1.0
    assert dead.players[1].win == 1.0 and dead.players[1].tie == 0.0  # alone when the other hand died
    assert dead.players[1].shares == {"high": 0.0, "low": 0.0, "no_showdown": 1.0}
    cry = GAMES["cry-me-a-river"]
    hands, boards = ["AhKh", "QsQd"], {"top": "2c3c4c5c6c", "middle": "7d8d9dTd", "bottom": "2s3s4s5s"}
    result = odds(cry, situation(cry, hands, boards))
    free = [c for c in range(52) if c not in parse_cards("".join(hands) + "".join(boards.values())).tolist()]
    survived, rivers = Counter(), list(itertools.permutations(free, 2))
    for (
        middle,
        bottom,
    ) in rivers:  # RULINGS: the lowest river rank dies; all three of one rank: the highest suit lives
        cards = {"top": parse_cards("6c")[0], "middle": middle, "bottom": bottom}
        lowest = min(card >> 2 for card in cards.values())
        if all(card >> 2 == lowest for card in cards.values()):
            survived[max(cards, key=cards.get)] += 1
        else:
            survived.update(name for name, card in cards.items() if card >> 2 != lowest)
    assert result.exact and result.runouts == len(rivers)
    assert result.survives == pytest.approx(
        {name: survived[name] / len(rivers) for name in boards}, abs=1e-12
    )


@pytest.mark.parametrize(
    ("hands", "boards", "dead", "message"),
    [
        (["AhKh", "AhQd"], {}, "", "Ah is given twice"),
        (["AhKh", "QsQd"], {"board": "2c3c4c5c6c7c"}, "", "at most 5 known cards"),
        (["AhKhQh", "QsQd"], {}, "", "has 3 cards: Hold'em deals 2 hole cards"),
        (["AhKh"], {}, "", "seats 2 to 10 players, not 1"),
        (["AhKh", "QsQd"], {"top": "2c"}, "", "has no board 'top'"),
        (["AhKh", "QsQd"], {}, "2c2c", "2c is given twice"),
        (["AhKx", "QsQd"], {}, "", "Kx"),
    ],
)
def test_bad_situations_are_one_clear_line(hands, boards, dead, message):
    with pytest.raises(OddsError) as raised:
        situation(HOLDEM, hands, boards, dead)
    assert message in str(raised.value)


def test_the_command_prints_json_a_table_and_one_line_errors():
    args = ["odds", "--hand", "AhAs", "--hand", "KdKc", "--board", "2c7dTh8s", "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)  # (standard error says the work: every runout, 44 of them)
    assert set(out) == {"variant", "options", "exact", "runouts", "players"}
    assert out["exact"] and out["runouts"] == 44 and [p["hand"] for p in out["players"]] == ["AhAs", "KdKc"]
    assert out["players"][1]["equity"] == pytest.approx(2 / 44) and out["players"][0]["ci95"] is None
    assert set(out["players"][0]) == {"hand", "equity", "win", "tie", "scoop", "shares", "ci95"}
    table = runner.invoke(app, ["odds", "--variant", "scarney", "--hand", "2d3d4d5d6dAd", "--hand", "random",
                                "--samples", "3000"])  # fmt: skip
    assert table.exit_code == 0 and "sampled runouts" in table.output and "low share" in table.output
    bad = runner.invoke(app, ["odds", "--hand", "AhKh", "--hand", "AhQd"])
    assert bad.exit_code == 2 and bad.output.strip().splitlines() == ["scooplab: error: Ah is given twice"]


def test_the_batch_api_gives_each_situation_its_equities():
    from engine.odds.situations import equities

    rows = []
    for hands, board in ((["AhAs", "KdKc"], "2c7dTh8s9s"), (["AhAs", "KdKc"], ""), (["Ah??", "7c2d"], "")):
        known, _ = known_prefix(HOLDEM, situation(HOLDEM, hands, {"board": board}), {})
        rows.append(known)
    result = equities(HOLDEM, 2, np.array(rows), samples=20_000, seed=5)
    assert result.shape == (3, 2) and np.allclose(result.sum(axis=1), 1.0)
    assert result[0].tolist() == [1.0, 0.0]  # every card known: aces win
    aces = (1_388_072 + 6_538 / 2) / 1_712_304  # the published count above
    assert abs(result[1, 0] - aces) < 4.5 * sqrt(aces * (1 - aces) / 20_000)
    other = odds(HOLDEM, situation(HOLDEM, ["Ah??", "7c2d"]), samples=200_000, seed=9)  # a partly known hand
    share = other.players[0].equity
    assert not other.exact and abs(result[2, 0] - share) < 4.5 * sqrt(
        share * (1 - share) * (1 / 20_000 + 1 / 200_000)
    )
    with pytest.raises(OddsError, match="given twice"):
        equities(HOLDEM, 2, np.array([[50, 50] + [-1] * 10]), samples=10)


@pytest.mark.parametrize(
    ("text", "combos"),
    [("TT+", 30), ("A5s+", 36), ("K9o+", 48), ("22-55", 24), ("A5s-A2s", 16), ("KQo", 12), ("AK", 16),
     ("AhKh", 1), ("TT+,AKs,AKs", 34), ("random", 1326)],
)  # fmt: skip
def test_ranges_hold_their_combinations(text, combos):
    from engine.hands.cards import SHORT, STANDARD
    from engine.odds.ranges import parse_range

    assert len(parse_range(text, STANDARD)) == combos
    assert len(parse_range("random", SHORT)) == comb(36, 2) and len(parse_range("A6s+", SHORT)) == 8 * 4


def test_range_against_range_weighs_every_pair_of_hands_the_cards_allow():
    from engine.hands.cards import STANDARD, format_cards
    from engine.odds.ranges import parse_range

    result = odds(HOLDEM, situation(HOLDEM, ["AA", "KK,AKs"], {"board": "2c7dTh"}))
    total, pairs = 0.0, 0
    for first, second in itertools.product(*(parse_range(r, STANDARD).tolist() for r in ("AA", "KK,AKs"))):
        if len(set(first + second)) == 4:  # card removal: AKs shares an ace with some AA combinations
            hands = [format_cards(first), format_cards(second)]
            total += odds(HOLDEM, situation(HOLDEM, hands, {"board": "2c7dTh"})).players[0].equity
            pairs += 1
    assert pairs == 48 and result.exact and result.runouts == pairs * comb(45, 2)
    assert result.players[0].equity == pytest.approx(total / pairs, abs=1e-12)


def test_aces_against_kings_as_ranges_match_the_published_figure():
    # Kevin Gong, "Calling Pre-Flop All-In with KK or AK" (2007,
    # http://www.kevingong.com/Math/KKPreflop.html): AA against KK, suits unknown, 81.946031%
    result = odds(HOLDEM, situation(HOLDEM, ["AA", "KK"]), samples=200_000, seed=1)
    low, high = result.players[0].ci95["equity"]
    assert not result.exact and low - (high - low) / 4 < 0.81946031 < high + (high - low) / 4


def test_a_share_of_hands_takes_the_strongest_classes_first():
    from engine.odds.ranged import class_ranking
    from engine.odds.ranges import parse_range

    ranking = class_ranking(HOLDEM, {})
    assert len(ranking) == 169 and ranking[0] == "AA" and ranking.index("72o") > 150
    top = parse_range("15%", HOLDEM.deck, lambda: ranking)
    assert 0.15 * 1326 <= len(top) < 0.15 * 1326 + 12


@pytest.mark.parametrize(
    ("name", "hands", "boards", "message"),
    [("holdem", ["AA", "KK"], {"board": "AhAsAd"}, "range of seat 1 leaves no hand"),
     ("holdem", ["AX", "KK"], {}, "'AX'"),
     ("scarney", ["AA", "random"], {}, "ranges are for two-card games"),
     ("holdem", ["AsAh", "AA"], {"board": "Ad"}, "leaves no hand")],
)  # fmt: skip
def test_bad_ranges_are_one_clear_line(name, hands, boards, message):
    game = GAMES[name]
    with pytest.raises(OddsError) as raised:
        odds(game, situation(game, hands, boards), samples=100)
    assert message in str(raised.value)


def test_pokerkit_calculate_equities_agrees_within_its_sampling_error():
    """PokerKit's Monte Carlo (``calculate_equities``, 4,000 samples) against our exact answer."""
    from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range

    ours = odds(HOLDEM, situation(HOLDEM, ["AhKh", "QsQd"])).players[0].equity
    theirs = calculate_equities((parse_range("AhKh"), parse_range("QsQd")), (), 2, 5, Deck.STANDARD,
                                (StandardHighHand,), sample_count=4_000)[0]  # fmt: skip
    assert abs(theirs - ours) < 4 * sqrt(ours * (1 - ours) / 4_000)


# Exact three-way enumerations of class against class against class, every combination the cards
# allow and every board, from CandyPoker's regression script (sweeterthancandy/CandyPoker,
# reg_script.sh): "AA QQ 93o" over 592,165,728 games, "A2o 88 QJs" over 394,777,152.
PUBLISHED_THREE_WAY = [
    (("AA", "QQ", "93o"), (0.70739, 0.18304, 0.10957)),
    (("A2o", "88", "QJs"), (0.24514, 0.36900, 0.38586)),
]


@pytest.mark.parametrize("hands, published", PUBLISHED_THREE_WAY)
def test_three_way_ranges_match_a_published_exact_enumeration(hands, published):
    holdem = GAMES["holdem"]
    result = odds(holdem, situation(holdem, list(hands)), samples=400_000, seed=3)
    assert not result.exact and sum(p.equity for p in result.players) == pytest.approx(1.0)
    for player, exact in zip(result.players, published, strict=True):
        low, high = player.ci95["equity"]
        assert abs(player.equity - exact) <= (high - low) + 5e-6, (player.hand, exact)  # 4 sigma


def test_deals_given_to_the_rules_core_are_checked_before_they_are_narrowed():
    holdem = GAMES["holdem"]
    deals = np.tile(np.arange(12, dtype=np.int64), (3, 1))  # two hands, burns and the board
    assert simulate_chunk(holdem, 2, STAKE, {}, None, dealt=deals).cards.tolist() == deals.tolist()
    deals[1, 4] = 300  # an int64 id past the deck: 44 once narrowed to int8, so checked first
    with pytest.raises(ValueError, match="not one of the deck's 52"):
        simulate_chunk(holdem, 2, STAKE, {}, None, dealt=deals)
    with pytest.raises(ValueError, match="integer card ids"):
        simulate_chunk(holdem, 2, STAKE, {}, None, dealt=deals[:, :5])
