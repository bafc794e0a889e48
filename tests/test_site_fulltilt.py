"""Full Tilt Poker hand histories (2004-2016 text): found from their text (UTF-16 files too), read
exactly, replayed and stored; what scooplab cannot replay is refused by name while the rest of the
file goes on. Fixtures: tests/fixtures/sites/fulltilt-*.txt (written for these tests)."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.phh import _site_file_hands
from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.histories.sites import site_format
from ingest.histories.sites.fulltilt import game_name, header_hand, read_hand
from ingest.histories.sites.text import SiteError
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"
CASH = SITES / "fulltilt-cash-utf16.txt"
GAMES = SITES / "fulltilt-games.txt"
TOURNAMENT = SITES / "fulltilt-tournament.txt"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    """The three fixture files ingested once: (report, rejects, {hand: row}, {(hand, player): row})."""
    store = Warehouse(tmp_path_factory.mktemp("fulltilt") / "wh")
    rejected: list[str] = []
    report = ingest([CASH, GAMES, TOURNAMENT], store, on_reject=rejected.append)
    hands = {}
    for row in store.read("hands").to_pylist():
        hands[str(json.loads(row["extra_fields"])["hand"])] = row | {"extra": json.loads(row["extra_fields"])}
    by_id = {row["hand_id"]: key for key, row in hands.items()}
    players = {(by_id[p["hand_id"]], p["player"]): p for p in store.read("players").to_pylist()}
    return report, rejected, hands, players


def net(players: dict, hands: dict, hand: str, name: str) -> Decimal:
    return Decimal(players[hand, name]["net"]).scaleb(-hands[hand]["amount_decimals"])


def test_a_utf16_file_is_found_as_full_tilt():
    data = CASH.read_bytes()
    assert data[:2] == b"\xff\xfe" and b"\r\x00\n\x00" in data  # as the client wrote it
    assert site_format(data) == "Full Tilt"
    assert site_format(GAMES.read_bytes()) == site_format(TOURNAMENT.read_bytes()) == "Full Tilt"


def test_every_hand_is_stored_or_refused_by_name(warehouse):
    report, rejected, hands, _ = warehouse
    assert report.hands == 13 and len(hands) == 13
    reasons = sorted(line.split(": ", 1)[1] for line in rejected)
    assert reasons == sorted([
        "Hero: 'juggles $5' is an action scooplab does not know",
        'Full Tilt game "PL Courchevel Hi" has no scooplab description',
        'Full Tilt game "Limit 5 Card Draw" has no scooplab description',
        "no seats (the file writes no stacks: an observed hand, or one written in part)",
    ])  # fmt: skip
    assert any("#90000000005 (line " in line for line in rejected)  # named by its id and line


def test_a_board_run_twice_pays_each_run_its_half(warehouse):
    """``Players agree to Run It Twice``, then ``TURN 1`` to ``RIVER 2``: the flush and the straight
    each win a run, $58.50 each of the $120 pot less $3 rake."""
    _, _, hands, players = warehouse
    hand = hands["90000000004"]
    assert hand["boards"] == ["9h8h2c3hKc", "9h8h2c7sTd"] and hand["record"] == "checked"
    assert net(players, hands, "90000000004", "Hero") == Decimal(57)
    assert net(players, hands, "90000000004", "kestrel") == Decimal(-60)


def test_cash_showdown_nets_rake_cards_chat_and_clock(warehouse):
    _, _, hands, players = warehouse
    hand = hands["90000000001"]
    assert (hand["venue"], hand["table_name"], hand["currency"]) == ("Full Tilt", "Brightwater", "USD")
    assert Decimal(hand["rake"]).scaleb(-hand["amount_decimals"]) == Decimal("0.15")
    assert net(players, hands, "90000000001", "Hero") == Decimal("2.00")
    assert net(players, hands, "90000000001", "Marlin Spike") == Decimal("-2.05")
    assert net(players, hands, "90000000001", "tern_again") == Decimal("-0.10")
    assert players["90000000001", "Hero"]["hole_cards"] == "AhKd"
    assert players["90000000001", "Marlin Spike"]["hole_cards"] == "KhQs"  # shown
    assert ("90000000001", "OwlEyes") not in players  # sitting out: not dealt in
    assert str(hand["played_on"]) == "2010-05-17" and hand["time_zone"] == "America/New_York"
    assert hand["extra"]["seat_count"] == 6


def test_sitting_out_player_who_acts_dead_blind_and_live_post(warehouse):
    _, _, hands, players = warehouse
    hand = hands["90000000002"]
    assert str(hand["played_on"]) == "2010-05-17" and str(hand["played_time"]) == "21:15:00"  # Mon, May 17
    assert net(players, hands, "90000000002", "OwlEyes") == Decimal("-1.20")  # marked out, played
    assert net(players, hands, "90000000002", "Ruddy Duck") == Decimal("-0.10")  # live post, checked
    assert net(players, hands, "90000000002", "Hero") == Decimal("1.20")  # dead 0.05, live 0.10
    assert hand["notes"] == []


def test_a_capped_table_plays_the_cap_as_the_stacks_in_play(warehouse):
    _, _, hands, players = warehouse
    hand = hands["90000000003"]
    assert [n for n in hand["notes"] if "capped table" in n] == [
        "a capped table: the cap 10 is the stack in play of Hero 30, sandpiper77 25, Gull Wing 14"
    ]
    assert net(players, hands, "90000000003", "Hero") == Decimal("9.75")
    assert net(players, hands, "90000000003", "sandpiper77") == Decimal("-10")


@pytest.mark.parametrize(
    ("hand", "code", "nets"),
    [
        ("90000000101", "FO/8", {"Hero": "1.50", "Bittern": "1.50", "wren_song": "-4"}),
        ("90000000102", "PO5", {"Hero": "40", "gadwall": "-35", "Pintail": "-5"}),
        ("90000000103", "PO6", {"Hero": "6.30", "Shoveler": "-7"}),
        ("90000000104", "F7S", {"Hero": "4.80", "Nightjar": "-0.90", "Ptarmigan": "-4.40"}),
        ("90000000105", "FR", {"Hero": "0.07", "Dunlin": "-0.05", "Curlew": "-0.02"}),
        ("90000000106", "FB", {"Hero": "0.90", "Knot 42": "-0.90", "Stint": "-0.05"}),
        ("90000000107", "F2L3D", {"Hero": "0.40", "Gannet": "-0.30", "Booby": "-0.10"}),
    ],
)
def test_each_game_family_replays_to_the_files_amounts(warehouse, hand, code, nets):
    _, _, hands, players = warehouse
    assert hands[hand]["variant_code"] == code
    assert {name: net(players, hands, hand, name) for name in nets} == {
        name: Decimal(value) for name, value in nets.items()
    }


def test_draw_and_stud_cards_are_the_heros_and_the_shown(warehouse):
    _, _, hands, players = warehouse
    assert players["90000000104", "Hero"]["hole_cards"].startswith("AcKcKd")  # down, down, up
    assert ("90000000105", "Sanderling") not in players  # stud: sitting out, not dealt
    assert players["90000000106", "Hero"]["final_hole_cards"] == "4s7h5c2d"
    assert players["90000000106", "Knot 42"]["final_hole_cards"] == "8c3dJh6s"
    play = hands["90000000102"]
    assert play["currency"] is None and play["extra"]["_chips"] == "play money"


def test_tournament_buy_in_antes_k_stakes_and_sitting_out_blind(warehouse):
    _, _, hands, players = warehouse
    extra = hands["90000000201"]["extra"]
    assert (extra["_tournament"], extra["_buy_in"], extra["_fee"], extra["_chips"]) == (
        "123456789", "4", "0.40", "tournament",
    )  # fmt: skip
    assert players["90000000201", "Hero"]["net"] == 3020 - 1480
    assert players["90000000201", "Goosander"]["net"] == -55  # marked out, posted: dealt in
    assert players["90000000201", "Merganser"]["net"] == -5
    ko = hands["90000000202"]
    assert ko["big_blind"] == 2000 and ko["extra"]["_tournament_name"] == "$9,000 KO Guarantee"
    assert ko["time_zone"] == "America/Chicago" and players["90000000202", "Hero"]["net"] == -6250


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Table Gaines (6 max) - $0.01/$0.02 - Pot Limit Omaha Hi - 11:33:17 ET - 2010/03/03",
         ("PO", Decimal("0.02"), "USD", 6)),
        ("Table Tree (heads up, deep) - 500K/1000K - No Limit Hold'em - 21:40:27 ET - 2011/04/15",
         ("NT", Decimal("1000000"), None, 2)),
        ("Table Douai (6 max) - €0.01/€0.02 - No Limit Hold'em - 21:59:02 CET - 2010/08/13",
         ("NT", Decimal("0.02"), "EUR", 6)),
        ("Table Pam (6 max) - $5/$10 - $400 Pot Limit Omaha Hi - 15:35:09 ET - 2010/10/02",
         ("PO", Decimal("10"), "USD", 6)),
        ("Table Mart - $0.10/$0.20 Ante $0.02 - Limit Stud H/L - 17:19:00 CCT - 2010/12/07 [04:19:00 ET]",
         ("F7S/8", Decimal("0.10"), "USD", None)),
        ("$26 Super Turbo Matrix (244669447), Match 2 - 15/30 - No Limit Hold'em - 09:22:39 EET - 2012/11/23",
         ("NT", Decimal("30"), None, None)),
        ("Table Ho (6 max) - $0.50/$1 Ante $0.25 - No Limit 2-7 Single Draw - 19:44:24 CET - 2011/04/07",
         ("N2L1D", Decimal("1"), "USD", 6)),
    ],
)  # fmt: skip
def test_header_forms(line, expected):
    hand = header_hand("1", line)
    assert (hand.variant, hand.big_blind, hand.currency, hand.seat_count) == expected


def test_a_capped_header_keeps_its_cap_and_games_without_description_are_named():
    assert header_hand("1", "Table Pam (6 max) - $5/$10 - $400 Pot Limit Omaha Hi - 15:35:09 ET - 2010/10/02"
                       ).extra["cap"] == "400"  # fmt: skip
    for name in ("No Limit Irish", "Limit A-5 Triple Draw", "Limit 5 Card Stud", "Pot Limit Courchevel H/L"):
        with pytest.raises(SiteError, match=f'"{name}" has no scooplab description'):
            game_name(name)


def test_a_partial_hand_and_an_unplayed_hand_are_refused_with_their_reason():
    head = "Full Tilt Poker Game #1: Table T - $20/$40 - Limit 2-7 Triple Draw - 03:32:00 ET - 2011/01/06"
    with pytest.raises(SiteError, match=r"in part \(partial\)"):
        read_hand(head + " (partial)\n*** SUMMARY ***\nTotal pot $100 | Rake $2")
    unplayed = "\nSeat 1: A ($500)\nSeat 2: B ($500)\nA posts the small blind of $10\nB is sitting out\n"
    with pytest.raises(SiteError, match="the hand was not played"):
        read_hand(head + unplayed + "*** SUMMARY ***\nTotal pot $0 | Rake $0")


def test_lines_the_body_lost_are_read_from_the_summary():
    text = "\n".join([
        "Full Tilt Poker Game #7: Table T - 20/40 - No Limit Hold'em - 09:25:30 EET - 2012/11/23",
        "Seat 1: A (1,000)", "Seat 4: B (125)", "Seat 6: C (675)",
        "B posts the small blind of 20", "C posts the big blind of 40", "The button is in seat #1",
        "*** HOLE CARDS ***", "A raises to 125", "B calls 105, and is all in",
        "*** FLOP *** [3h 9h 6s]", "*** TURN *** [3h 9h 6s] [Tc]",
        "*** SUMMARY ***", "Total pot 290 | Rake 0", "Board: [3h 9h 6s Tc 2c]",
        "Seat 1: A (button) showed [7d 7s] and won (290) with a pair of Sevens",
        "Seat 4: B (small blind) showed [5d 5s] and lost with a pair of Fives",
        "Seat 6: C (big blind) folded before the Flop",
    ])  # fmt: skip
    hand = read_hand(text)
    assert hand.boards[3] == "2c" and hand.collected == {"A": Decimal(290)}
    assert hand.notes == ["the river cards are written in the summary alone",
                          "C's fold is written in the summary alone"]  # fmt: skip
    (raw,) = _site_file_hands(text.encode(), "t.txt")
    assert replay(raw.fields) is not None


def test_an_ante_beyond_an_all_in_ante_is_returned_before_the_deal():
    streets = [("3RD", "[4c 8c] [8d]", "[3c]"), ("4TH", "[4c 8c 8d] [8s]", "[9d Td 3c] [Ks]"),
               ("5TH", "[4c 8c 8d 8s] [5s]", "[9d Td 3c Ks] [7d]"),
               ("6TH", "[4c 8c 8d 8s 5s] [Qd]", "[9d Td 3c Ks 7d] [Jh]"),
               ("7TH", "[4c 8c 8d 8s 5s Qd] [Qc]", "[9d Td 3c Ks 7d Jh] [3s]")]  # fmt: skip
    lines = [
        "Full Tilt Poker Game #8: $20 Heads-Up Sit & Go (5), Table 1 - 40/80 Ante 10 - Limit Razz - "
        "19:00:00 ET - 2012/11/08",
        "Seat 1: A (990)", "Seat 2: B (8)", "A antes 10", "B antes 8, and is all in",
        "Uncalled bet of 2 returned to A",
    ]  # fmt: skip
    for street, mine, his in streets:
        lines += [f"*** {street} STREET ***", f"Dealt to A {mine}", f"Dealt to B {his}"]
        if street == "3RD":
            lines += ["A shows [4c 8c 8d]", "B shows [9d Td 3c]"]
    lines += ["A shows [4c 8c 8d 8s 5s Qd Qc] a pair of Eights", "B shows [9d Td 3c Ks 7d Jh 3s] J,T,9,7,3",
              "B wins the pot (16) with J,T,9,7,3", "*** SUMMARY ***", "Total pot 16 | Rake 0"]  # fmt: skip
    hand = read_hand("\n".join(lines))
    assert [(p.name, p.amount) for p in hand.forced] == [("A", 8), ("B", 8)] and hand.returned == {}
    (raw,) = _site_file_hands("\n".join(lines).encode(), "t.txt")
    assert raw.fields["winnings"] == [0, 16] and replay(raw.fields) is not None
