"""The compiled betting-mode loop against the state machine: same rules, same rows, same policies.

Every hand the kernel plays is replayed from its PHH text through ``engine.rules.state``; the
replay must accept every action and give exactly the rows the kernel's hand gave. At each
choice of a ``station`` or ``tag`` seat, the Python reference policy must choose what the
kernel chose (``random`` seats draw from another generator, so they are only checked legal).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.compiled.simulate import final_hand_scale
from engine.hands.cards import parse_cards
from engine.hands.rankings import RANKINGS
from engine.rules.draw_policy import standard_discards
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from engine.rules.policies import POLICIES
from ingest.generation.betting_sim import batch_tables, play_batch
from ingest.histories.phh import parse_hand_text
from ingest.histories.replay import apply_action, build_state, replay
from ingest.histories.rows import HandRows
from ingest.storage.array_rows import settle

CASES = [
    ("holdem", 6, {}, ("tag", "random", "station")),
    ("holdem", 2, {}, ("random", "tag")),
    ("holdem", 9, {}, ("random",)),
    ("cry-me-a-river", 6, {}, ("tag", "random", "station")),
    ("cry-me-a-river", 3, {"burns": False}, ("random", "tag")),
    ("scarney", 6, {}, ("tag", "random", "station")),
    ("scarney", 4, {"burns": True, "must_use_hole_card": True}, ("random",)),
    ("scarney", 2, {}, ("random", "tag")),
    ("skoejarth", 6, {}, ("tag", "random", "station")),
    ("skoejarth", 5, {"raises_per_round": 2, "tiebreak": "kickers"}, ("random", "tag")),
    ("deuce-to-seven-single-draw", 6, {}, ("tag", "random", "station")),
    ("deuce-to-seven-single-draw", 3, {"draw_policy": "sampled"}, ("random", "tag")),
]


def _options(game, given):
    known = {o.name for o in game.options}
    return game.resolve_options({k: v for k, v in given.items() if k in known})


def _rows(table, start, stop):
    return table.slice(start, stop - start).to_pylist()


def assert_replays_to_the_same_rows(
    game, players, options, policies, seed, count, stake, pick=None, decks=None, structure=Structure.NO_LIMIT
):
    options = game.resolve_options(options)  # as a run stores them: defaults included
    words = np.random.default_rng(seed).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, players, stake, options, list(policies), words, count, decks, structure)
    named = {"run_id": "k", "shard": 0, "first": 0, "stake": stake, "options": options}
    hands, seats, actions = batch_tables(game, batch, **named, policies=list(policies), structure=structure)
    starts = batch.hand_start.tolist()
    texts = hands.column("phh").to_pylist()
    chosen = range(count) if pick is None else np.flatnonzero(pick(batch)).tolist()
    for h in chosen:
        raw = parse_hand_text(texts[h], "kernel.phh", h)
        assert raw.error is None, raw.error
        replayed = replay(raw.fields)
        rows = HandRows()
        rows.add(replayed, hand_id=f"k:0:{h}", run_id="k", source="simulation", source_file=None,
                 hand_index=h, phh_text=texts[h])  # fmt: skip
        (ours,), (simulated,) = rows.hands.to_arrow().to_pylist(), _rows(hands, h, h + 1)
        assert (ours.pop("record"), simulated.pop("record")) == ("checked", "simulated")  # its stacks match
        assert ours == simulated, f"hand {h}"
        assert rows.players.to_arrow().to_pylist() == _rows(seats, h * players, (h + 1) * players), h
        assert rows.actions.to_arrow().to_pylist() == _rows(actions, starts[h], starts[h + 1]), h
    return hands, chosen


@pytest.mark.parametrize(("name", "players", "given", "policies"), CASES)
def test_kernel_hands_replay_to_the_same_rows(name, players, given, policies):
    game = GAMES[name]
    options = _options(game, given)
    hands, _ = assert_replays_to_the_same_rows(game, players, options, policies, len(name) * 7 + players,
                                                count=300, stake=1_000)  # fmt: skip
    endings = set(hands.column("ending").to_pylist())
    assert "showdown" in endings
    assert "station" in policies or "uncontested" in endings  # a calling station sees every showdown


STRUCTURE_CASES = [
    ("holdem", 6, Structure.FIXED_LIMIT, ("tag", "random", "station")),
    ("holdem", 3, Structure.POT_LIMIT, ("random", "tag")),
    ("cry-me-a-river", 5, Structure.FIXED_LIMIT, ("random",)),
    ("scarney", 4, Structure.POT_LIMIT, ("random", "station")),
    ("scarney", 6, Structure.FIXED_LIMIT, ("random", "tag")),
    # stud: up cards name the opener, a bring-in; eight stations in to the last card share a
    # community card, seven skip its burn
    ("seven-card-stud", 8, Structure.FIXED_LIMIT, ("station", "random", "tag")),
    ("stud-hi-lo", 7, Structure.FIXED_LIMIT, ("station", "tag", "random")),
    ("razz", 4, Structure.FIXED_LIMIT, ("tag", "random", "station")),
    # draws: eight stations in to the third draw run the stub out, and the discards are reshuffled
    ("deuce-to-seven-triple-draw", 8, Structure.FIXED_LIMIT, ("station", "random", "tag")),
    ("badugi", 6, Structure.FIXED_LIMIT, ("tag", "station", "random")),
    ("badugi", 10, Structure.FIXED_LIMIT, ("station",)),
]


@pytest.mark.parametrize(("name", "players", "structure", "policies"), STRUCTURE_CASES)
@pytest.mark.parametrize("stake", [30, 1_000])
def test_pot_limit_and_fixed_limit_hands_replay_to_the_same_rows(name, players, structure, policies, stake):
    """Betting mode in every structure; with 30 chips (15 big blinds) fixed-limit all-ins abound."""
    game = GAMES[name]
    hands, _ = assert_replays_to_the_same_rows(game, players, game.resolve_options({}), policies, players,
                                                count=300, stake=stake, structure=structure)  # fmt: skip
    assert set(hands.column("structure").to_pylist()) == {structure.value}
    assert "showdown" in set(hands.column("ending").to_pylist())


def test_scarney_hands_that_die_replay_to_the_same_rows():
    game = GAMES["scarney"]
    _, chosen = assert_replays_to_the_same_rows(
        game, 6, game.resolve_options({}), ["random"], 1, count=30_000, stake=1_000,
        pick=lambda batch: batch.hands.dead.any(axis=1),
    )  # fmt: skip
    assert len(chosen) >= 5  # about 1 hand in 2,000 has a seat whose hole cards all go


def test_scarney_players_who_die_together_share_the_pot_as_the_state_machine_says():
    """Heads-up, both hands lose their last cards to the same Bottom Board card (RULINGS: split equally)."""
    game = GAMES["scarney"]
    deck = game.deck
    first, second = parse_cards("AdAhKdKhQdJd", deck).tolist(), parse_cards("AsKsQhQsJhJs", deck).tolist()
    hole = [card for pair in zip(first, second, strict=True) for card in pair]  # dealt round-robin
    boards = parse_cards("3c4c5cAcKcQc" + "6cJc" + "7c2c", deck).tolist()  # flop top/bottom, turn, river
    rest = [c for c in range(deck.size) if c not in hole + boards]
    hands, _ = assert_replays_to_the_same_rows(
        game, 2, game.resolve_options({}), ["station"], 0, count=1, stake=1_001,
        decks=np.array([hole + boards + rest]),
    )  # fmt: skip
    assert hands.column("ending").to_pylist() == ["everyone_dead"]


@pytest.mark.parametrize(
    ("name", "structure"),
    [(n, Structure.NO_LIMIT) for n in ("holdem", "scarney", "cry-me-a-river", "skoejarth")]
    + [("holdem", Structure.FIXED_LIMIT), ("cry-me-a-river", Structure.POT_LIMIT)]
    + [(n, Structure.FIXED_LIMIT) for n in ("seven-card-stud", "stud-hi-lo", "razz")]
    + [(n, Structure.FIXED_LIMIT) for n in ("deuce-to-seven-triple-draw", "badugi")]
    + [("deuce-to-seven-single-draw", Structure.NO_LIMIT)],
)
def test_station_and_tag_seats_decide_like_the_python_policies(name, structure):
    """Bets as the reference policies decide them (tag reading opponents' draws too), and every
    seat's draw the reference standard drawing policy's."""
    game = GAMES[name]
    options = game.resolve_options({})
    policies = ["tag", "station", "random"]
    words = np.random.default_rng(11).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, 6, 10_000, options, policies, words, 200, structure=structure)
    hands, _, _ = batch_tables(game, batch, run_id="k", shard=0, first=0, stake=10_000, options=options,
                               policies=policies, structure=structure)  # fmt: skip
    rng = np.random.default_rng(0)
    checked = draws = 0
    scored = {"scale": final_hand_scale(game, options)} if game.draws else {}  # (tag's, in a draw game)
    for text in hands.column("phh").to_pylist():
        fields = parse_hand_text(text, "kernel.phh", 0).fields
        state, _, _ = build_state(fields)
        for action in fields["actions"]:
            parts = action.split()
            if parts[0] != "d" and parts[1] in ("f", "cc", "cbr", "pb"):
                seat = int(parts[0][1:]) - 1
                policy = policies[seat % len(policies)]
                if policy != "random":
                    decision = POLICIES[policy](state, seat, rng, **(scored if policy == "tag" else {}))
                    expected = {"fold": "f", "call": "cc", "raise": "cbr"}[decision[0]]
                    if state.bring_in_due and expected != "cbr":  # (a bring-in is due: it is posted)
                        expected = "pb"
                    assert parts[1] == expected, (text, action)
                    if expected == "cbr":
                        assert int(parts[2]) == decision[1], (text, action)
                    checked += 1
            if game.draws and parts[0] != "d" and parts[1] == "sd":  # (cards in id order, as the policy)
                seat = int(parts[0][1:]) - 1
                thrown = sorted(parse_cards(parts[2] if len(parts) > 2 else "", game.deck).tolist())
                ranking = RANKINGS[game.ranking]
                expected = standard_discards(ranking, state.hole[seat], game.deck, game.low_hands)
                assert thrown == expected, (text, action)
                draws += 1
            apply_action(state, action)
    assert checked > 1_000
    assert draws > 500 or not game.draws


def test_the_same_seed_words_give_the_same_hands_in_any_chunking():
    game = GAMES["scarney"]
    options = game.resolve_options({})
    words = np.random.default_rng(5).integers(0, 2**64, size=4, dtype=np.uint64)
    whole = play_batch(game, 5, 1_000, options, ["random"], words.copy(), 60)
    split_words = words.copy()
    parts = [play_batch(game, 5, 1_000, options, ["random"], split_words, size) for size in (25, 35)]
    assert np.array_equal(whole.records, np.concatenate([p.records for p in parts]))
    assert np.array_equal(whole.hands.stacks, np.concatenate([p.hands.stacks for p in parts]))


@pytest.mark.parametrize(("name", "players", "given", "policies"), CASES)
def test_compiled_showdowns_equal_the_python_rules(name, players, given, policies):
    game = GAMES[name]
    options = _options(game, given)
    words = np.random.default_rng(99).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, players, 1_000, options, list(policies), words, 2_000)
    compiled, python = settle(game, batch.hands, options), settle(game, batch.hands, options, compiled=False)
    for name_ in vars(compiled):
        assert np.array_equal(getattr(compiled, name_), getattr(python, name_)), name_
    assert (compiled.strength >= 0).any()  # seats at showdowns
    assert compiled.split.any() or game.draws  # (a tie of five deuce-to-seven ranks is rare)
