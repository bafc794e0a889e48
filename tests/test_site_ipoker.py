"""The iPoker network's XML hand histories: sessions of ``<game>`` elements read game by game, stored
as the files' made-up hands say (tests/fixtures/sites/ipoker-*.xml)."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.histories.sites import site_format, site_hands
from ingest.histories.sites.ipoker_game import money
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"


def stored(tmp_path: Path, *names: str):
    """Ingest fixtures into a new warehouse: (hands stored, rejects, {hand: row}, {(hand, player): row})."""
    warehouse = Warehouse(tmp_path / "wh")
    rejected: list[str] = []
    report = ingest([SITES / name for name in names], warehouse, on_reject=rejected.append)
    hands = {}
    for row in warehouse.read("hands").to_pylist():
        extra = json.loads(row["extra_fields"] or "{}")
        hands[str(extra.get("hand"))] = row | {"extra": extra}
    by_id = {row["hand_id"]: key for key, row in hands.items()}
    players = {(by_id[p["hand_id"]], p["player"]): p for p in warehouse.read("players").to_pylist()}
    return report.hands, rejected, hands, players


def nets(hands: dict, players: dict, hand: str) -> dict[str, Decimal]:
    scale = -hands[hand]["amount_decimals"]
    return {name: Decimal(row["net"]).scaleb(scale) for (key, name), row in players.items() if key == hand}


def rake(hands: dict, hand: str) -> Decimal:
    return Decimal(hands[hand]["rake"]).scaleb(-hands[hand]["amount_decimals"])


def test_cash_holdem_uncalled_bet_in_the_win_sitting_out_post_both_and_a_cut_off_game(tmp_path):
    count, rejected, hands, players = stored(tmp_path, "ipoker-cash-holdem.xml")
    assert count == 3 and len(rejected) == 1
    assert "#900000004" in rejected[0] and rejected[0].endswith("cut off before its end (no </game>)")
    first = hands["900000001"]
    assert (first["venue"], first["currency"], first["table_name"]) == (
        "iPoker",
        "USD",
        "Testville, 100000001",
    )
    assert str(first["played_on"]) == "2024-03-05" and str(first["played_time"]) == "20:01:02"
    # the win ($1.22) holds Hero's uncalled $0.50: he collected $0.72 of a $0.75 pot
    assert nets(hands, players, "900000001") == {
        "Alpha": Decimal("-0.35"), "Bravo": Decimal("0"), "Hero": Decimal("0.37"), "Echo": Decimal("-0.05")
    }  # fmt: skip
    assert rake(hands, "900000001") == Decimal("0.03")
    assert ("900000001", "Delta") not in players  # sitting out (type 9, no cards): not dealt in
    assert players["900000001", "Hero"]["hole_cards"] == "AhKs"
    # Delta comes back posting $0.15: $0.10 live, $0.05 dead; Alpha's nines shown at the showdown win
    assert nets(hands, players, "900000002") == {
        "Alpha": Decimal("1.68"), "Bravo": Decimal("-0.10"), "Hero": Decimal("-1.60"),
        "Delta": Decimal("-0.15"), "Echo": Decimal("0"),
    }  # fmt: skip
    assert rake(hands, "900000002") == Decimal("0.17")
    assert players["900000002", "Alpha"]["hole_cards"] == "9c9s"
    # Bravo posts the small blind, then sits out: his fold at his turn, his blind in the pot
    assert nets(hands, players, "900000003") == {
        "Alpha": 0, "Bravo": Decimal("-0.05"), "Hero": Decimal("-0.10"), "Delta": 0, "Echo": Decimal("0.15")
    }  # fmt: skip
    assert any("sat out" in note for note in hands["900000003"]["extra"]["_notes"])


def test_five_card_omaha_in_the_euro_locale_of_a_cp1252_file_and_a_partial_export(tmp_path):
    count, rejected, hands, players = stored(tmp_path, "ipoker-plo5-eur-cp1252.xml")
    assert count == 1 and len(rejected) == 1
    assert "#910000002" in rejected[0] and "partial export" in rejected[0]
    hand = hands["910000001"]
    assert (hand["variant"], hand["currency"], str(hand["played_on"])) == (
        "five-card-omaha",
        "EUR",
        "2024-05-18",
    )
    assert Decimal(players["910000001", "Fox"]["starting_stack"]).scaleb(-2) == Decimal("1234.56")
    # the client_version export: the win (€10) is the pot less the rake, the uncalled €7,50 apart
    assert nets(hands, players, "910000001") == {
        "Fox": Decimal("6.50"), "Hero": Decimal("-3.50"), "Golf": Decimal("-3.50")
    }  # fmt: skip
    assert rake(hands, "910000001") == Decimal("0.50")
    assert players["910000001", "Hero"]["hole_cards"] == "AsKsQhJhTd"


def test_seven_card_stud_hi_lo_bring_in_completion_and_a_split_pot(tmp_path):
    count, rejected, hands, players = stored(tmp_path, "ipoker-stud-hilo.xml")
    assert (count, rejected) == (1, [])
    hand = hands["920000001"]
    assert hand["variant"] == "stud-hi-lo" and hand["currency"] == "EUR"  # the table's, not <currency>
    assert nets(hands, players, "920000001") == {
        "Hotel": Decimal("-0.22"), "Hero": Decimal("0.08"), "India": Decimal("0.08")
    }  # fmt: skip
    assert rake(hands, "920000001") == Decimal("0.06")


def test_tournaments_chips_antes_all_ins_an_unmarked_button_and_a_stud_tournament(tmp_path):
    count, rejected, hands, players = stored(tmp_path, "ipoker-tournaments.xml")
    assert (count, rejected) == (3, [])
    sng = hands["930000001"]
    assert sng["currency"] is None and sng["amount_decimals"] == 0 and sng["pot"] == 3060
    extra = sng["extra"]
    assert (extra["_chips"], extra["_tournament"], extra["_buy_in"], extra["_fee"]) == (
        "tournament", "500000001", "5", "0.5"
    )  # fmt: skip
    assert nets(hands, players, "930000001") == {"Juliet": 1560, "Kilo": -1500, "Hero": -60}
    # no seat marked the dealer: heads-up, the small blind's seat is the button
    assert nets(hands, players, "930000002") == {"Juliet": -60, "Hero": 60}
    assert hands["930000002"]["pot"] == 120
    stud = hands["930000003"]  # the second session's header: no stakes, the completion sizes the bets
    assert stud["variant"] == "seven-card-stud" and stud["extra"]["_tournament"] == "500000002"
    assert stud["extra"]["_buy_in_currency"] == "EUR"
    assert nets(hands, players, "930000003") == {"Lima": -70, "Hero": 70}


def test_an_archive_of_sessions_languages_and_currencies_refuses_by_name_and_goes_on(tmp_path):
    count, rejected, hands, players = stored(tmp_path, "ipoker-archive.xml")
    assert count == 3 and len(rejected) == 2
    assert "#940000002" in rejected[0] and "not well-formed XML" in rejected[0]
    assert "#940000004" in rejected[1] and "'5 Card Stud Limit' has no scooplab description" in rejected[1]
    assert hands["940000001"]["table_name"] == "Тест, 600000001"  # "Holdem БЛ": no limit, in Russian
    assert nets(hands, players, "940000001") == {"Mike": Decimal("1.35"), "November": Decimal("-1.50")}
    assert hands["940000003"]["variant"] == "short-deck"  # Six Plus Holdem, with blinds
    assert nets(hands, players, "940000003") == {"Oscar": Decimal("-0.50"), "Papa": Decimal("0.45")}
    assert hands["940000005"]["currency"] == "RSD"
    assert nets(hands, players, "940000005") == {"Sierra": -1, "Tango": 1}


def test_the_format_is_found_and_a_file_ending_after_a_closed_round_keeps_its_last_game():
    data = (SITES / "ipoker-cash-holdem.xml").read_bytes()
    assert site_format(data) == "iPoker"
    cut = data[: data.rindex(b"</round>", 0, data.index(b'gamecode="900000003"')) + len(b"</round>")]
    read = list(site_hands(cut))
    assert [label.split(" ")[0] for _, label, _, _, _ in read] == ["#900000001", "#900000002"]
    fields = read[-1][3]
    assert fields is not None and "without </game>" in fields["_notes"][0]
    replay(fields)  # (refuses what the rules cannot play)


@pytest.mark.parametrize(
    ("text", "value"),
    [("€1,50", "1.50"), ("1.234,56", "1234.56"), ("$1,295", "1295"), ("1.500", "1500"),
     ("$55,756.00", "55756.00"), ("RSD1", "1"), ("â‚¬0.10", "0.10"), ("£0", "0")],
)  # fmt: skip
def test_amounts_in_every_locale(text, value):
    assert money(text) == Decimal(value)
