"""Winamax hand histories: euros, play money and tournament chips; hold'em, Omaha (4 and 5 cards,
hi/lo), stud, razz and 2-7 triple draw; Winamax's own ways (the uncalled bet counted in what was
collected, posts out of position, raises written as bets). Fixtures: tests/fixtures/sites/winamax-*.txt
(written for these tests)."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.pipeline import ingest
from ingest.histories.sites import site_format, site_hands
from ingest.histories.sites.text import SiteError
from ingest.histories.sites.winamax import read_hand
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    """Every Winamax fixture ingested once: (report, rejects, {hand id: row}, {(hand id, player): row})."""
    files = sorted(SITES.glob("winamax-*.txt"))
    store = Warehouse(tmp_path_factory.mktemp("winamax") / "wh")
    rejected: list[str] = []
    report = ingest(files, store, on_reject=rejected.append)
    hands = {}
    for row in store.read("hands").to_pylist():
        extra = json.loads(row["extra_fields"] or "{}")
        hands[extra["_hand_id"]] = row | {"extra": extra}
    by_id = {row["hand_id"]: key for key, row in hands.items()}
    players = {(by_id[p["hand_id"]], p["player"]): p for p in store.read("players").to_pylist()}
    return report, rejected, hands, players


def nets(warehouse, hand_id: str) -> dict[str, Decimal]:
    _, _, hands, players = warehouse
    scale = hands[hand_id]["amount_decimals"]
    return {
        name: Decimal(row["net"]).scaleb(-scale) for (key, name), row in players.items() if key == hand_id
    }


def test_every_fixture_hand_is_stored_but_the_two_refused(warehouse):
    report, rejected, hands, _ = warehouse
    assert report.hands == len(hands) == 13
    assert len(rejected) == 2
    assert any(
        "#5550999-1-1700004000" in r and "Hold-up to Pot puts money in the pot that no player posted" in r
        for r in rejected
    )
    # five-card draw has a description now (engine/variants/five-card-draw.toml); this hand's streets
    # are written as a hold'em hand's, which that game has not
    street = "does not know in this game 'PRE-FLOP'"
    assert any("#5550888-8-1700005100" in r and street in r for r in rejected)


def test_cash_euros_rake_shown_cards_and_seats_not_dealt_in(warehouse):
    _, _, hands, players = warehouse
    hand = hands["5550001-11-1700000001"]
    assert (hand["venue"], hand["currency"], hand["table_name"]) == ("Winamax", "EUR", "Lutetia")
    assert Decimal(hand["rake"]).scaleb(-hand["amount_decimals"]) == Decimal("2.50")
    assert nets(warehouse, "5550001-11-1700000001") == {
        "quiet_quokka": Decimal("84.50"), "Hero": Decimal("-80"), "frost_fern": Decimal("-6"),
        "olive_oyster": Decimal("-1"),
    }  # fmt: skip
    assert ("5550001-11-1700000001", "napping_nate") not in players  # seated, never in the hand
    assert ("5550001-11-1700000001", "rusty_rook") not in players  # no chips
    assert players["5550001-11-1700000001", "Hero"]["hole_cards"] == "AhKd"
    assert players["5550001-11-1700000001", "quiet_quokka"]["hole_cards"] == "7h7d"


def test_the_uncalled_bet_counted_in_what_was_collected_and_posts_out_of_position(warehouse):
    # Hero collected 29.50 of which 10 was his own bet nobody called; frost_fern posted both blinds
    # (3: 1 dead, 2 live), Hero a live big blind out of position
    assert nets(warehouse, "5550001-12-1700000090") == {
        "Hero": Decimal("11.50"), "late_larry": Decimal("-8"), "frost_fern": Decimal("-3"),
        "olive_oyster": Decimal("-1"), "quiet_quokka": Decimal("0"),
    }  # fmt: skip


def test_five_card_omaha_side_pot_and_play_money_omaha_hi_lo(warehouse):
    assert nets(warehouse, "5550777-3-1700003000") == {
        "amber_ant": Decimal("78"), "Hero": Decimal("-18.50"), "cedar_cat": Decimal("-61.50"),
    }  # fmt: skip
    _, _, hands, _ = warehouse
    hi_lo = hands["5550888-7-1700005000"]
    assert hi_lo["currency"] is None and hi_lo["extra"]["_chips"] == "play money"
    assert nets(warehouse, "5550888-7-1700005000") == {
        "Hero": Decimal("-0.02"),
        "marble_moth": Decimal("-0.02"),
    }


def test_a_knockout_tournament_its_buy_in_bounties_and_a_raise_nobody_could_call(warehouse):
    _, _, hands, _ = warehouse
    extra = hands["9990001234-42-1700100000"]["extra"]
    assert (extra["_tournament"], extra["_buy_in"], extra["_bounty"], extra["_fee"], extra["_level"]) == (
        "777001", "4.50", "4.50", "1", 6,
    )  # fmt: skip
    assert extra["_chips"] == "tournament" and extra["_buy_in_currency"] == "EUR"
    assert extra["_bounties"] == ["6.75", "4.50", "9", "4.50"]  # PHH order: Hero first, the button last
    assert any("raise to 7975 where everyone else is all in" in n for n in extra["_notes"])
    assert nets(warehouse, "9990001234-42-1700100000") == {
        "Hero": Decimal("3650"), "gale_gus": Decimal("-3100"), "dune_dot": Decimal("-525"),
        "bramble_bo": Decimal("-25"),
    }  # fmt: skip


def test_a_freeroll_big_blind_bet_is_a_raise_and_a_short_all_in_blind(warehouse):
    _, _, hands, _ = warehouse
    freeroll = hands["9990005678-3-1700200000"]["extra"]
    assert freeroll["_buy_in_text"] == "Ticket only" and "_buy_in" not in freeroll
    assert any("thistle_tom's raise by 60 as a bet" in n for n in freeroll["_notes"])
    assert nets(warehouse, "9990005678-3-1700200000") == {
        "Hero": Decimal("120"), "thistle_tom": Decimal("-80"), "sorrel_sam": Decimal("-20"),
        "pebble_pip": Decimal("-20"),
    }  # fmt: skip
    double_up = hands["9990009999-31-1700300000"]["extra"]
    assert (double_up["_buy_in"], double_up["_fee"]) == ("0.92", "0.08")
    assert nets(warehouse, "9990009999-31-1700300000") == {
        "Hero": Decimal("420"), "tansy_ted": Decimal("-190"), "fennel_fay": Decimal("-190"),
        "yarrow_yo": Decimal("-40"),
    }  # fmt: skip


def test_half_chips_and_the_uncalled_bet_winamax_writes_in_whole_chips(warehouse):
    _, _, hands, _ = warehouse
    notes = hands["9990009999-12-1700299000"]["extra"]["_notes"]
    assert notes == ["the file counts the uncalled bet of 40.5 returned to Hero as 41 in what Hero collected"]
    assert nets(warehouse, "9990009999-12-1700299000") == {
        "Hero": Decimal("-1479.50"),
        "fennel_fay": Decimal("1479.50"),
    }


def test_stud_hi_lo_and_razz(warehouse):
    _, _, hands, _ = warehouse
    stud = hands["5551234-88-1700400000"]
    assert stud["variant"] != hands["5551234-90-1700400300"]["variant"]
    assert any("leaving out the bring-in of 2 hazel_hob posted" in n for n in stud["extra"]["_notes"])
    assert nets(warehouse, "5551234-88-1700400000") == {
        "hazel_hob": Decimal("38"), "Hero": Decimal("-30"), "juniper_jo": Decimal("-9"),
    }  # fmt: skip
    assert nets(warehouse, "5551234-90-1700400300") == {"Hero": Decimal("16.50"), "hazel_hob": Decimal("-17")}
    assert nets(warehouse, "5559999-4-1700500000") == {"Hero": Decimal("0.08"), "quill_qi": Decimal("-0.08")}


def test_triple_draw_standing_pat_and_discarding(warehouse):
    assert nets(warehouse, "5551234-95-1700400900") == {"Hero": Decimal("3.60"), "hazel_hob": Decimal("-4")}
    assert nets(warehouse, "5557777-2-1700600000") == {
        "Hero": Decimal("3.10"), "wren_wu": Decimal("-3"), "ivy_ike": Decimal("-0.50"),
    }  # fmt: skip


FIRST = (SITES / "winamax-cash.txt").read_text(encoding="utf-8").split("\n\n\n")[0]


def test_the_format_is_found_from_the_text_and_a_cp1252_file_reads_the_same():
    data = FIRST.encode("utf-8")
    assert site_format(data) == "Winamax"
    assert [h[3] for h in site_hands(FIRST.encode("cp1252"))] == [h[3] for h in site_hands(data)]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("Hero calls 44€", "Hero sings 44€"), "a line scooplab does not know 'Hero sings 44€'"),
        (("*** SUMMARY ***", "*** RABBIT ***"), "a street scooplab does not know in this game 'RABBIT'"),
        (("Hero raises 4€ to 6€", "Hero raises 4€"), "Hero raises '4€' has no amount raised to"),
        (("Holdem no limit", "Courchevel pot limit"), 'Winamax game "Courchevel pot limit" has no scooplab'),
    ],
)
def test_a_hand_that_cannot_be_read_is_refused_with_its_reason(change, reason):
    with pytest.raises(SiteError, match=reason.replace("(", r"\(").replace("*", r"\*")):
        read_hand(FIRST.replace(*change))


def test_a_cut_off_hand_is_refused_and_a_rounded_total_that_disagrees_is_a_note():
    with pytest.raises(SiteError, match="no summary"):
        read_hand(FIRST.split("*** SUMMARY ***")[0])
    tournament = (SITES / "winamax-tournament.txt").read_text(encoding="utf-8").split("\n\n\n")[0]
    assert not any("total pot" in note for note in read_hand(tournament).notes)  # 11650 is 11.65k
    hand = read_hand(tournament.replace("Total pot 11.65k", "Total pot 11.70k"))
    assert hand.notes[-1] == "the file's total pot 11.70k is not what it says was collected, 11650"


def test_a_name_holding_an_action_word_is_read_by_the_names_seated():
    hand = read_hand(FIRST.replace("quiet_quokka", "Le Roi calls 2"))
    assert hand.collected == {"Le Roi calls 2": Decimal("164.50")}
    assert [m.verb for m in hand.moves if m.name == "Le Roi calls 2"] == ["cc", "cbr", "cbr"]
