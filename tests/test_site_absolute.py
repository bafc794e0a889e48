"""Absolute Poker / UltimateBet ("Stage #") hand histories: read as written, replayed, stored.
Fixtures: tests/fixtures/sites/absolute-*.txt (written for these tests; players, tables, ids made up)."""

import datetime as dt
from decimal import Decimal

import pytest

from ingest.histories.replay import replay
from ingest.histories.sites import absolute, site_format
from ingest.histories.sites.text import SiteError
from tests.site_helpers import SITES, fields_of, nets, stored

CASH = SITES / "absolute-cash.txt"
OMAHA_STUD = SITES / "absolute-omaha-stud.txt"
TOURNAMENT = SITES / "absolute-tournament.txt"


def test_the_files_are_found_as_absolute_hands_and_broken_ones_are_refused_by_name(tmp_path):
    assert site_format(CASH.read_bytes()) == site_format(TOURNAMENT.read_bytes()) == "Absolute"
    read = fields_of(CASH)
    assert len(read) == 7
    assert read["736000002"].startswith("WREN_BOX timed out and the site played him all in")
    assert read["4100000003"] == 'Absolute game "5 Card Draw": scooplab does not read this site\'s draw games'
    _, rejected, hands, _ = stored(tmp_path, CASH)
    assert len(rejected) == 2 and len(hands) == 5  # the file's other hands are stored


def test_cash_nets_rake_jackpot_dead_post_and_mucked_cards(tmp_path):
    _, _, hands, players = stored(tmp_path, CASH)
    hand = hands["4100000001"]
    assert (hand["venue"], hand["currency"], hand["table_name"]) == ("Absolute", "USD", "PEBBLE LN")
    assert nets(hands, players, "4100000001") == {
        "Hero": Decimal("103.50"), "LATE_LARK": Decimal("-105"), "BRAMBLEJAY": Decimal("-2"),
        "OTTER_POND": Decimal("0"), "KESTREL77": Decimal("0"),
    }  # fmt: skip
    assert Decimal(hand["rake"]).scaleb(-hand["amount_decimals"]) == Decimal("3.50")  # rake and jackpot
    assert hand["extra"]["_fees"] == "0.5"
    assert players["4100000001", "LATE_LARK"]["hole_cards"] == "KhQh"  # mucked: the summary shows them
    assert players["4100000001", "Hero"]["hole_cards"] == "AhKd"
    assert str(hand["played_on"]) == "2011-03-05" and hand["time_zone"] == "America/New_York"


def test_the_seven_deuce_proposition_is_a_note_not_in_the_pot(tmp_path):
    _, _, hands, players = stored(tmp_path, CASH)
    hand = hands["4100000002"]
    assert nets(hands, players, "4100000002")["MOTH_MAN"] == Decimal("14.70")  # 26.70 of the pot less 12
    assert hand["extra"]["_seven_deuce"] is True
    assert any("7-2 proposition" in note and "20" in note for note in hand["extra"]["_notes"])


def test_limit_posts_dead_then_live_and_a_new_players_live_post(tmp_path):
    read = fields_of(CASH)
    limit = read["736000001"]  # ``Posts dead $15 dead $5``: of $15, $5 dead and $10 live
    assert (limit["variant"], limit["small_bet"], limit["big_bet"]) == ("FT", 10, 20)
    assert limit["players"][2] == "NEWCOMER9" and limit["antes"][2] == 5
    assert limit["blinds_or_straddles"] == [5, 10, -10, 0]
    new = read["C500000001"]  # ``Posts $0.50``: a live blind out of turn; the one sitting out is not dealt
    assert "NAPPING_NED" not in new["players"] and new["blinds_or_straddles"][2] == -0.5
    assert new["_hand_id"] == "C500000001"
    _, _, hands, players = stored(tmp_path, CASH)
    assert nets(hands, players, "736000001") == {
        "WREN_BOX": Decimal("67"), "GLASSFROG": Decimal("-5"), "TEAPOT_TOM": Decimal("-20"),
        "NEWCOMER9": Decimal("-45"),
    }  # fmt: skip
    assert nets(hands, players, "C500000001")["Hero"] == Decimal("3.90")


def test_an_all_in_big_blind_short_of_the_stakes(tmp_path):
    hand = fields_of(CASH)["C500000002"]
    assert hand["blinds_or_straddles"] == [0.25, 0.3, 0, 0] and hand["min_bet"] == 0.5
    replay(hand)
    _, _, hands, players = stored(tmp_path, CASH)
    assert nets(hands, players, "C500000002") == {
        "Hero": Decimal("0.51"), "LOAM": Decimal("-0.30"), "PIPISTRELLE": Decimal("-0.25"),
        "FERNWOOD": Decimal("0"),
    }  # fmt: skip


def test_omaha_hi_lo_heads_up_splits_pot_limit_all_in_and_stud_hi_lo_mucked(tmp_path):
    _, rejected, hands, players = stored(tmp_path, OMAHA_STUD)
    assert rejected == []
    assert nets(hands, players, "1828000001") == {"Hero": Decimal("-0.50"), "MARMOT": Decimal("-0.50")}
    heads_up = fields_of(OMAHA_STUD)["1828000001"]
    assert (heads_up["variant"], heads_up["seat_count"], heads_up["small_bet"]) == ("FO/8", 2, 2)  # (1 on 1)
    assert nets(hands, players, "1900000003") == {
        "Hero": Decimal("19"), "SLOTH_9": Decimal("-20"), "HEDGEHOG": Decimal("-1"),
    }  # fmt: skip
    assert nets(hands, players, "1300000101") == {
        "GECKO": Decimal("0.68"), "BADGER": Decimal("-0.57"), "Hero": Decimal("-0.17"),
    }  # fmt: skip
    stud = fields_of(OMAHA_STUD)["1300000101"]
    assert (stud["variant"], stud["bring_in"], stud["small_bet"], stud["big_bet"]) == (
        "F7S/8",
        0.05,
        0.1,
        0.2,
    )
    assert stud["actions"][0] == "d dh p1 9dTh2s"  # BADGER mucked; the summary's cards fill his hole cards
    assert "d dh p3 ????Kh" in stud["actions"] and "d dh p3 ??" in stud["actions"]


def test_a_tournament_is_chips_with_side_pots_and_a_fold_that_shows(tmp_path):
    _, rejected, hands, players = stored(tmp_path, TOURNAMENT)
    assert rejected == []
    hand = hands["525000001"]
    assert hand["currency"] is None and hand["amount_decimals"] == 0
    assert (hand["extra"]["_chips"], hand["extra"]["_tournament"]) == ("tournament", "5900001")
    assert nets(hands, players, "525000001") == {
        "BIRCH_B": Decimal("1300"), "Hero": Decimal("50"), "CYPRESS": Decimal("-1330"),
        "ALDER": Decimal("-20"),
    }  # fmt: skip
    assert hand["pot"] == 3320
    assert players["525000002", "BIRCH_B"]["hole_cards"] == "JhTh"  # Fold & Show
    assert nets(hands, players, "525000002")["ALDER"] == Decimal("80")


def test_the_header_names_the_games_and_stakes():
    hand = absolute.header_hand("1", "HOLDEM NORMAL $25/$50 - 2007-08-17 06:49:16 (ET)")
    assert (hand.variant, hand.small_bet, hand.big_bet, hand.big_blind) == ("FT", 25, 50, 25)
    hand = absolute.header_hand(
        "2", "Omaha Hi/Lo (1 on 1)  Normal $30/$60 - 2009-12-31 18:23:36.005 (ET) [ x ]"
    )
    assert (hand.variant, hand.seat_count, hand.when["time"]) == ("FO/8", 2, dt.time(18, 23, 36))
    assert hand.when["time_zone"] == "America/New_York"  # (after the time's thousandths)
    hand = absolute.header_hand("3", "Holdem  No Limit $0.10 Turbo - 2011-02-21 05:08:53.010 (ET)")
    assert (hand.big_blind, hand.extra["speed"]) == (Decimal("0.10"), "turbo")
    horse = "Stage #9: HORSE Normal $2/$4 - 2010-05-01 10:00:00 (ET)\nGame Type: Limit Omaha Hi/Lo\n"
    hand = absolute.header_hand("9", "HORSE Normal $2/$4 - 2010-05-01 10:00:00 (ET)", horse)
    assert (hand.variant, hand.small_bet, hand.big_bet) == ("FO/8", 2, 4)


def test_a_line_or_post_the_reader_does_not_know_is_refused_with_it():
    hand = CASH.read_text().split("\n\n\n")[0]
    with pytest.raises(SiteError, match="Hero: 'Dances' is an action scooplab does not know"):
        absolute.read_hand(hand.replace("Hero - Checks", "Hero - Dances"))
    with pytest.raises(SiteError, match="LATE_LARK posts 'straddle \\$4': a post scooplab does not know"):
        absolute.read_hand(hand.replace("Posts $2 dead $1", "Posts straddle $4"))
