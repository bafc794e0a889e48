"""What real records hold that scooplab once refused (issue 53; docs/phh-extensions.md, "What a
record may hold"): winnings that count the uncalled bet returned, a live post by a player just
seated (a negative blind), a show by the player everyone folded to, a showdown of hidden cards with
no record, and a draw dealing a card the rulings' stub would not have offered. Every hand is written
here by hand (made-up players), stored, and replayed the same every way: the state machine, the
compiled replay (``assert_both_ways_agree``) and the block reader (``both_ways``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tests.pokerkit_peer as peer
from engine.rules.record import CHECKED, DECIDED_BY_RECORD, UNCHECKED
from engine.rules.state import HandState
from ingest.histories import replay as replay_module
from ingest.histories.phh import parse_hand_text
from ingest.histories.pipeline import ingest
from ingest.histories.replay import UNSEEN_UNCHECKED, HandError, replay
from ingest.storage.warehouse import Warehouse
from tests.test_bulk_read import both_ways
from tests.test_fast_replay import assert_both_ways_agree

HEAD = """variant = "NT"
blinds_or_straddles = [0.5, 1, 0]
min_bet = 1
players = ["Ada", "Bea", "Cy"]
currency = "USD"
"""
RETURNED = "the winnings count the uncalled bet returned to p3 (2) in what p3 collected"

HANDS = {
    # p3 raises to 3 and both blinds fold: 2 comes back, the pot is 2.5, the site says 4.5 collected
    "returned, uncontested": HEAD
    + """hand = 1
starting_stacks = [50, 80.25, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 3", "p1 f", "p2 f"]
winnings = [0, 0, 4.5]
""",
    # p3 bets 50 on the flop, p2 calls all in for 17: 33 comes back to p3, who loses a pot of 40.5 to
    # p2's aces; the site says p3 collected his 33 and p2 39 (a rake of 1.5)
    "returned, showdown": HEAD
    + """hand = 2
starting_stacks = [50, 20, 100]
actions = ["d dh p1 ????", "d dh p2 AhAd", "d dh p3 KcKd", "p3 cbr 3", "p1 f", "p2 cc", "d db 7c8d3s",
           "p2 cc", "p3 cbr 50", "p2 cc", "d db Td", "d db 2s", "p2 sm AhAd", "p3 sm KcKd"]
winnings = [0, 39, 33]
""",
    # the same hand, nobody's cards shown: the record decides, and it counted the return
    "returned, hidden": HEAD
    + """hand = 3
starting_stacks = [50, 20, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 3", "p1 f", "p2 cc", "d db 7c8d3s",
           "p2 cc", "p3 cbr 50", "p2 cc", "d db Td", "d db 2s"]
winnings = [0, 39, 33]
""",
    # p4 has just sat down and posts 1 live (PokerKit's -1): p3, left of the big blind, acts first, and
    # p4 checks his option
    "post, money": """variant = "NT"
hand = 4
blinds_or_straddles = [0.5, 1, 0, -1, 0]
min_bet = 1
starting_stacks = [40, 60, 80, 100, 120]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "d dh p5 ????", "p3 f", "p4 cc",
           "p5 f", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "p4 cbr 2", "p1 f", "p2 f"]
winnings = [0, 0, 0, 2.85, 0]
currency_symbol = "$"
""",
    # the same in chips, every card known (PokerKit's own files)
    "post, chips": """variant = "NT"
hand = 5
blinds_or_straddles = [1, 2, 0, -2]
min_bet = 2
starting_stacks = [200, 200, 200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7c2d", "d dh p3 9h9d", "d dh p4 QcJc", "p3 cbr 6", "p4 cc", "p1 f",
           "p2 f", "d db Ah8c3d", "p3 cc", "p4 cbr 10", "p3 f"]
finishing_stacks = [199, 198, 194, 209]
""",
    # everyone folds to p3, who shows his aces: they become known, nothing else changes
    "show after folds, hidden": HEAD
    + """hand = 6
starting_stacks = [50, 80.25, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 3", "p1 f", "p2 f", "p3 sm AsAh"]
winnings = [0, 0, 2.5]
""",
    "show after folds, chips": """variant = "NT"
hand = 7
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c2d", "d dh p2 8h3s", "d dh p3 AsAh", "p3 cbr 6", "p1 f", "p2 f", "p3 sm AsAh"]
finishing_stacks = [99, 98, 103]
""",
    # checked down, p1 shows, the others' cards never seen, and no record says who won
    "hidden showdown, no record": HEAD
    + """hand = 8
starting_stacks = [50, 80.25, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h",
           "p1 cc", "p2 cc", "p3 cc", "d db 9s", "p1 cc", "p2 cc", "p3 cc", "d db Kd", "p1 cc", "p2 cc",
           "p3 cc", "p1 sm AsKs"]
""",
    # p3 folds his kings; p1 draws one and is dealt p3's king of spades (PokerKit and some sites
    # shuffle folded hands back into the stub)
    "draw, a folded card": """variant = "F2L3D"
hand = 9
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c5d4h3s9h", "d dh p2 8d6c5s4c2d", "d dh p3 KsKhQdJcTd", "p3 f", "p1 cc", "p2 cc",
           "p1 sd 9h", "p2 sd", "d dh p1 Ks", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cc",
           "p1 sd", "p2 sd", "p1 cc", "p2 cc", "p1 sm 7c5d4h3sKs", "p2 sm 8d6c5s4c2d"]
finishing_stacks = [98, 102, 100]
""",
}
REFUSED = {
    # more than the pot even with the returned 2 taken off
    "the record has players collect 5, more than the pot of 2.5": HEAD
    + """hand = 21
starting_stacks = [50, 80.25, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 3", "p1 f", "p2 f"]
winnings = [0, 0, 5]
""",
    # the return counted, but the wrong winner
    "the record has p3 win, the rules p2": HEAD
    + """hand = 22
starting_stacks = [50, 20, 100]
actions = ["d dh p1 ????", "d dh p2 AhAd", "d dh p3 KcKd", "p3 cbr 3", "p1 f", "p2 cc", "d db 7c8d3s",
           "p2 cc", "p3 cbr 50", "p2 cc", "d db Td", "d db 2s", "p2 sm AhAd", "p3 sm KcKd"]
winnings = [0, 0, 72]
""",
    # a show after the hand by a player who folded
    "p1 sm 7c2d: the hand is over": HEAD
    + """hand = 23
starting_stacks = [50, 80.25, 100]
actions = ["d dh p1 7c2d", "d dh p2 ????", "d dh p3 ????", "p3 cbr 3", "p1 f", "p2 f", "p1 sm 7c2d"]
winnings = [0, 0, 2.5]
""",
    # a draw dealing a card a live player holds
    "8d is in p2's hand": """variant = "F2L3D"
hand = 24
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7c5d4h3s9h", "d dh p2 8d6c5s4c2d", "d dh p3 KsKhQdJcTd", "p3 f", "p1 cc", "p2 cc",
           "p1 sd 9h", "p2 sd", "d dh p1 8d"]
""",
}


def _file(tmp_path: Path, hands: dict[str, str]) -> Path:
    path = tmp_path / "records.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i, text in enumerate(hands.values(), start=1)))
    return path


@pytest.fixture
def stored(tmp_path, monkeypatch) -> dict[int, tuple[dict, list[dict], list[dict]]]:
    """Each hand's row, players and actions by its number, the block reader's (``both_ways`` holds
    them equal to the line reader's, which replays by the compiled replay and the state machine)."""
    tables, report = both_ways([_file(tmp_path, HANDS)], tmp_path, monkeypatch)
    assert (report["hands"], report["rejected"]) == (len(HANDS), 0)
    by_id = {h["hand_id"]: h["hand_no"] for h in tables["hands"]}
    return {
        h["hand_no"]: (
            h,
            [p for p in tables["players"] if by_id[p["hand_id"]] == h["hand_no"]],
            sorted(
                (a for a in tables["actions"] if by_id[a["hand_id"]] == h["hand_no"]), key=lambda a: a["seq"]
            ),
        )
        for h in tables["hands"]
    }


def _column(players: list[dict], name: str) -> list:
    return [p[name] for p in sorted(players, key=lambda p: p["seat"])]


def test_the_compiled_replay_and_the_state_machine_agree_on_every_hand():
    raws = [parse_hand_text(text, "records.phhs", i) for i, text in enumerate(HANDS.values())]
    taken, _ = assert_both_ways_agree(raws)
    assert taken >= 3  # the returned bets of shown or folded hands, and the show after folds in chips
    for raw in raws:
        replay(raw.fields)  # (the state machine takes every hand the kernel hands back)


def test_winnings_that_count_the_returned_bet_are_read_without_it(stored):
    row, players, _ = stored[1]
    assert (row["record"], row["rake"], row["pot"], row["amount_decimals"]) == (CHECKED, 0, 250, 2)
    assert _column(players, "won") == [0, 0, 250]
    assert _column(players, "net") == [-50, -100, 150]
    assert row["notes"] == [RETURNED]
    row, players, _ = stored[2]  # p3 collected only his own 33: p2's 39 is the pot less a rake of 1.5
    assert (row["record"], row["rake"], row["pot"]) == (CHECKED, 15, 405)
    assert _column(players, "won") == [0, 390, 0]
    assert _column(players, "net") == [-5, 190, -200]
    assert row["notes"] == ["the winnings count the uncalled bet returned to p3 (33) in what p3 collected"]


def test_a_record_deciding_hidden_cards_may_count_the_returned_bet_too(stored):
    row, players, _ = stored[3]
    assert (row["record"], row["rake"]) == (DECIDED_BY_RECORD, 15)
    assert _column(players, "won") == [0, 390, 0]
    assert row["notes"] == [
        "hidden cards at the showdown: the record decides who won",
        "the winnings count the uncalled bet returned to p3 (33) in what p3 collected",
    ]


@pytest.mark.parametrize(("reason", "text"), REFUSED.items(), ids=list(REFUSED))
def test_a_record_that_fits_neither_way_is_refused_with_its_reason(reason, text):
    with pytest.raises(HandError, match=re.escape(reason) + "$"):
        replay(parse_hand_text(text, "refused.phhs", 0).fields)


def test_refusals_are_the_same_every_way(tmp_path, monkeypatch):
    _, report = both_ways([_file(tmp_path, REFUSED)], tmp_path, monkeypatch)
    assert (report["hands"], report["rejected"]) == (0, len(REFUSED))


def test_a_negative_blind_is_a_live_post_that_does_not_move_the_first_to_act(stored):
    for number, posts, big_blind in (
        (4, [(0, 50), (1, 100), (3, 100)], 100),
        (5, [(0, 1), (1, 2), (3, 2)], 2),
    ):
        row, players, actions = stored[number]
        assert [(a["seat"], a["amount"]) for a in actions if a["action"] == "post"] == posts
        first = next(a for a in actions if a["action"] not in ("deal", "post"))
        assert first["seat"] == 2  # left of the big blind, not of the post
        assert row["big_blind"] == big_blind
    row, players, actions = stored[4]
    assert (row["record"], row["rake"]) == (CHECKED, 15)
    assert _column(players, "net") == [-100, -100, 0, 185, 0]
    assert [a["action"] for a in actions if a["seat"] == 3 and a["street"] == "preflop"][-1] == "check"
    _, players, _ = stored[5]
    assert _column(players, "net") == [-1, -2, -6, 9]


def test_the_player_everyone_folded_to_may_show_and_nothing_else_changes(stored):
    for number, behind in ((6, 9900), (7, 98)):  # p3's stack less what he put in: before the pot he won
        row, players, actions = stored[number]
        show = actions[-1]
        assert [show[k] for k in ("seat", "action", "cards", "stack_after")] == [2, "show", "AsAh", behind]
        assert row["ending"] == "uncontested"
        assert _column(players, "hole_cards")[2] == "AsAh"
        assert _column(players, "showdown") == [False, False, False]
    row, players, _ = stored[6]
    assert (row["record"], row["rake"], row["notes"]) == (CHECKED, 0, [])
    assert _column(players, "won") == [0, 0, 250]


def test_hidden_cards_at_a_showdown_with_no_record_store_the_hand_unchecked(stored):
    row, players, actions = stored[8]
    assert (row["record"], row["rake"], row["ending"], row["pot"]) == (UNCHECKED, 0, "showdown", 300)
    assert row["notes"] == [UNSEEN_UNCHECKED]
    assert _column(players, "won") == [0, 0, 0]  # who won is unknown: nobody is paid
    assert _column(players, "net") == [-100, -100, -100]
    assert _column(players, "showdown") == [True, True, True]
    assert _column(players, "hole_cards") == ["AsKs", "????", "????"]
    assert len(actions) > 20  # its play is stored


def test_a_draw_may_deal_a_card_a_folded_player_held(stored):
    row, players, _ = stored[9]
    assert row["record"] == CHECKED
    assert _column(players, "final_hole_cards")[0] == "7c5d4h3sKs"
    assert _column(players, "net") == [-2, 2, 0]


def _any_draw(state, rnd) -> None:
    """Throw away any number of cards, past what the stub holds: PokerKit then reshuffles the burns
    and the folded hands with the discards."""
    hole = list(state.hole_cards[state.stand_patter_or_discarder_index])
    state.stand_pat_or_discard(rnd.sample(hole, rnd.choice([0, 1, 2, 3, len(hole), len(hole)])))


def _rulings_stub(*args, **kwargs) -> HandState:
    return HandState(*args, **{**kwargs, "record_deals": False})


def test_pokerkit_draw_hands_that_reshuffle_burns_and_folded_hands_are_stored(tmp_path, monkeypatch):
    monkeypatch.setattr(peer, "_draw", _any_draw)
    monkeypatch.setattr(peer, "HandState", lambda *a, **k: HandState(*a, **k, record_deals=True))
    hands, _ = peer.peer_hands(2031, 120, "draw")
    source = tmp_path / "draw.phhs"
    source.write_text("\n".join(f"[{i}]\n{hand.text.strip()}\n" for i, hand in enumerate(hands, start=1)))
    rejects: list[str] = []
    report = ingest([source], Warehouse(tmp_path / "wh"), run_id="draw", on_reject=rejects.append)
    assert (report.hands, rejects) == (len(hands), [])
    monkeypatch.setattr(replay_module, "HandState", _rulings_stub)  # the stub of RULINGS' own deals
    refused = 0
    for i, hand in enumerate(hands):
        try:
            replay(parse_hand_text(hand.text, "draw.phhs", i).fields)
        except HandError as error:
            assert "is neither in the stub nor among the discards shuffled into it" in str(error)
            refused += 1
    print(f"\n{refused} of {len(hands)} PokerKit draw hands need the record to decide a draw")
    assert refused > 0  # hands the record decides that the rulings' stub alone would refuse
