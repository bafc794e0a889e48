"""Differential test: random hold'em and Omaha hands played by PokerKit, ingested by scooplab, same stacks.

``tests.pokerkit_peer`` plays random legal no-limit and fixed-limit hands in PokerKit (2 to 9
players, antes, tiny stacks, all-ins, folds, mucks) and writes them with PokerKit's PHH
writer. scooplab ingests them (the compiled replay and the state machine, as a user's ingest
does) and every hand must be stored with PokerKit's finishing stacks, or differ only in a
way named here, where PokerKit is known to depart from RULINGS.md:

- odd chips: PokerKit places the odd chips of a split pot its own way (RULINGS: one at a
  time clockwise from the button; between a high and a low half, to the high), so stacks may
  differ by a chip per pot among tied seats or between the halves' winners;
- burned chips: PokerKit burns the chips of a pot whose contributors all folded, or whose
  claimants all mucked (RULINGS: the first joins the next smaller pot, the second stays with
  the last to muck): stacks then differ only by chips scooplab gave and PokerKit burned;
- and, counted while the hands are played (``tests.pokerkit_peer``): raises one side allows
  and the other refuses (fixed-limit reopening by half a bet, PokerKit's cap counting, raises
  nobody can call, PokerKit's issue #45), and showdowns PokerKit cannot settle because every
  claimant of a pot mucked. A refusal of any other kind fails the test;
- Omaha hi-lo (RULINGS, "Every game the PHH standard names"): PokerKit's fixed-limit class plays
  with no raise cap (counted where scooplab refuses the fifth bet), and it pays the low half of
  a side pot none of whose claimants holds a qualifying low to some of them, where the high
  hand takes the whole pot.
- stud (seven-card stud, stud hi-lo, razz; 2 to 6 players, so the deck never runs short): after
  an all-in for less than half the bet on third street, scooplab lets the next player complete
  to the bet (TDA), where PokerKit raises a whole bet over the all-in (counted while played);
  stud hi-lo's side pots with no qualifying low are paid as Omaha hi-lo's (above).
- draw (deuce-to-seven single and triple draw, badugi; 2 to 6 players): when the stub runs out,
  PokerKit reshuffles the burns and folded hands with the discards, and may deal a player back a
  card he just threw (RULINGS: only the discards made before the draw): the generator keeps every
  draw within the stub, so no hand needs a reshuffle (scooplab's is tested in
  ``tests/test_draw_games.py``).

Each count is printed (``pytest -s`` shows it); a difference of any other kind fails.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ingest.histories.phh import parse_hand_text
from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.storage.warehouse import Warehouse
from tests.pokerkit_peer import HALF_BET_REOPENS, ISSUE_45, NO_CAP, UNNAMED, PeerHand, peer_hands
from tests.test_fast_replay import assert_both_ways_agree

SAME, ODD_CHIPS = "same stacks", "odd chips placed otherwise"
LOW_SHARED = (
    "hi-lo (Omaha, stud): PokerKit pays the low half of a side pot none of whose claimants holds a "
    "qualifying low to some of them (RULINGS: the high hand takes the whole pot)"
)
DROPPED = "PokerKit burned the chips of a pot whose contenders all folded or mucked"


def _variant(hand: PeerHand) -> str:
    """The PHH variant code of a peer hand (``variant = 'FR'``)."""
    return next(
        line.split("=", 1)[1].strip(" '\"") for line in hand.text.splitlines() if line.startswith("variant")
    )


def _write_phhs(hands: list[PeerHand], path) -> None:
    path.write_text("".join(f"[{i + 1}]\n{hand.text}\n" for i, hand in enumerate(hands)))


def _stored_stacks(warehouse: Warehouse) -> dict[int, list[int]]:
    rows = warehouse.read("players", ["hand_id", "seat", "finishing_stack"]).to_pylist()
    hands = warehouse.read("hands", ["hand_id", "hand_index"]).to_pylist()
    index = {r["hand_id"]: r["hand_index"] for r in hands}
    stacks: dict[int, dict[int, int]] = {}
    for row in rows:
        stacks.setdefault(index[row["hand_id"]], {})[row["seat"]] = row["finishing_stack"]
    return {h: [seats[s] for s in sorted(seats)] for h, seats in stacks.items()}


def classify(hand: PeerHand, ours: list[int]) -> str:
    """Which named difference explains PokerKit's stacks against scooplab's, or a failure."""
    theirs = hand.finishing
    if ours == theirs:
        return SAME
    assert sum(ours) == sum(hand.starting), "scooplab lost or made chips"
    replayed = replay(parse_hand_text(hand.text, "peer.phhs", 0).fields)
    gap = [a - b for a, b in zip(ours, theirs, strict=True)]
    burned = sum(hand.starting) - sum(theirs)
    if burned > 0:
        assert min(gap) >= 0 and sum(gap) == burned, f"PokerKit burned {burned}, stacks differ by {gap}"
        # the burned chips went to players still in: a pot's contenders, or its last to muck
        state = replayed.state
        assert all(not state.folded[s] for s, chips in enumerate(gap) if chips), (gap, hand.text)
        assert any(state.folded) or any(state.mucked)
        return DROPPED
    if _low_half_shared_by_the_peer(replayed, gap):
        return LOW_SHARED
    pots = len({p for p in replayed.state.contributed if p > 0})  # at most one pot per level
    halves = any(o.won_low for o in replayed.result.outcomes)  # a pot divided high and low
    if (replayed.result.split or halves) and sum(gap) == 0 and max(map(abs, gap)) <= pots:
        return ODD_CHIPS
    raise AssertionError(f"stacks differ: scooplab {ours}, PokerKit {theirs}\n{hand.text}")


def _low_half_shared_by_the_peer(replayed, gap: list[int]) -> bool:
    """Whether the seats PokerKit paid more are all claimants of a pot with no qualifying low among
    its claimants, each by less than that pot's half, with no chip made or lost."""
    state, outcomes = replayed.state, replayed.result.outcomes
    if not state.game.low_hands or sum(gap) != 0:
        return False
    held = [c for s, c in enumerate(state.contributed) if c > 0 and not state.folded[s]]
    levels, below, lowless = sorted(set(held)), 0, []  # a pot ends where a claimant is all in
    for level in levels:
        claimants = {s for s in range(state.n) if state.contributed[s] >= level and not state.folded[s]}
        pot = sum(min(c, level) - min(c, below) for c in state.contributed)
        if len(claimants) > 1 and all((outcomes[s].low_hand or -1) < 0 for s in claimants):
            lowless.append((claimants, pot))
        below = level
    paid_more = {s: -g for s, g in enumerate(gap) if g < 0}
    return any(set(paid_more) <= seats and max(paid_more.values()) <= pot // 2 for seats, pot in lowless)


def run_differential(tmp_path, seed: int, count: int, family: str = "holdem") -> Counter:
    hands, differences = peer_hands(seed, count, family)
    source = tmp_path / "peer.phhs"
    _write_phhs(hands, source)
    warehouse = Warehouse(tmp_path / "warehouse")
    rejects: list[str] = []
    report = ingest([source], warehouse, run_id="peer", on_reject=rejects.append)
    assert rejects == [] and report.hands == count, rejects[:5]
    stored = _stored_stacks(warehouse)
    outcomes = [classify(hand, stored[i]) for i, hand in enumerate(hands)]
    kinds = Counter(outcomes)
    by_game = Counter((_variant(hand), outcome) for hand, outcome in zip(hands, outcomes, strict=True))
    kinds.update(differences)
    assert not [k for k in kinds if k.startswith(UNNAMED)], kinds
    kinds["fixed-limit hands"] = sum(hand.structure == "fixed-limit" for hand in hands)
    kinds["hands with a muck"] = sum(hand.mucked for hand in hands)
    counts = ", ".join(f"{kind}: {number}" for kind, number in kinds.items())
    print(f"\nPokerKit differential, {family}, seed {seed}, {count} hands: {counts}")
    print("by game: " + ", ".join(f"{game} {kind}: {n}" for (game, kind), n in sorted(by_game.items())))
    return kinds


def test_random_pokerkit_hands_are_stored_with_pokerkits_stacks_or_a_named_difference(tmp_path):
    kinds = run_differential(tmp_path, seed=2026, count=400)
    assert kinds[SAME] > 0.9 * 400
    assert kinds["fixed-limit hands"] > 100 and kinds["hands with a muck"] > 10
    assert kinds[HALF_BET_REOPENS] > 0 and kinds[ISSUE_45] > 0, "the known differences were not met"


def test_random_pokerkit_omaha_hands_are_stored_with_pokerkits_stacks_or_a_named_difference(tmp_path):
    """Pot-limit Omaha and fixed-limit Omaha hi-lo (whose PokerKit class has no raise cap)."""
    kinds = run_differential(tmp_path, seed=2027, count=300, family="omaha")
    assert kinds[SAME] > 0.9 * 300
    assert kinds["fixed-limit hands"] > 100 and kinds["hands with a muck"] > 5
    assert kinds[NO_CAP] > 0, "the known difference was not met"


def test_random_pokerkit_stud_hands_are_stored_with_pokerkits_stacks_or_a_named_difference(tmp_path):
    """Seven-card stud, stud hi-lo and razz: bring-ins, completions, openers by the up cards."""
    kinds = run_differential(tmp_path, seed=2028, count=300, family="stud")
    assert kinds[SAME] > 0.9 * 300
    assert kinds["hands with a muck"] > 5


def test_random_pokerkit_draw_hands_are_stored_with_pokerkits_stacks_or_a_named_difference(tmp_path):
    """Deuce-to-seven single and triple draw and badugi: stand pat or random discards, every game."""
    kinds = run_differential(tmp_path, seed=2029, count=300, family="draw")
    assert kinds[SAME] > 0.9 * 300
    assert kinds["hands with a muck"] > 5


def test_generated_hands_replay_the_same_both_ways():
    hands, _ = peer_hands(7, 150)
    raws = [parse_hand_text(hand.text, "peer.phhs", i) for i, hand in enumerate(hands)]
    taken, back = assert_both_ways_agree(raws)
    assert taken + back == len(raws) and taken > 0.9 * len(raws)


@pytest.mark.soak  # a minute or two each: make soak (the default suite's random-hands tests play 300 to 400)
@pytest.mark.parametrize(("family", "count"), [("holdem", 3000), ("omaha", 2000), ("stud", 1500),
                                               ("draw", 1500)])  # fmt: skip
def test_thousands_of_random_pokerkit_hands(tmp_path, family, count):
    kinds = run_differential(tmp_path, seed=11, count=count, family=family)
    assert kinds[SAME] > 0.9 * count
