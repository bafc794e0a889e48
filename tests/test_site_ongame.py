"""The Ongame network's hand histories (Bwin, Betfair, Unibet skins): read exactly, replayed, stored.
Fixtures: tests/fixtures/sites/ongame-*.txt (written for these tests; players and hands made up)."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.histories.sites import site_format, site_hands
from ingest.histories.sites.ongame import read_hand
from ingest.histories.sites.text import SiteError
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"
CASH, STUD, TOURNAMENT = (SITES / f"ongame-{name}.txt" for name in ("cash", "stud", "tournament"))


def hands_of(path: Path) -> dict[str, tuple[dict | None, str | None]]:
    """Each hand of a file by its id: (PHH fields or None, the reason it is refused or None)."""
    out = {}
    for _, label, _, fields, error in site_hands(path.read_bytes()):
        out[label.split(" ")[0].lstrip("#")] = (fields, error)
    return out


def replayed(path: Path, hand_id: str):
    fields, error = hands_of(path)[hand_id]
    assert error is None, error
    return fields, replay(fields)


def nets(fields: dict, result) -> dict[str, Decimal]:
    """Each player's net, in the currency (or chips), from the replay's final stacks."""
    unit = Decimal(10) ** -result.decimals
    start = [Decimal(str(s)) for s in fields["starting_stacks"]]
    return {name: result.state.stacks[k] * unit - start[k] for k, name in enumerate(fields["players"])}


def test_the_format_is_found_from_the_text():
    assert site_format(CASH.read_bytes()) == "Ongame"
    assert site_format(TOURNAMENT.read_bytes()) == "Ongame"


def test_cash_hold_em_thousands_split_pot_rake_and_the_zone_as_written():
    fields, result = replayed(CASH, "R5-40000001-7")
    assert (fields["venue"], fields["table"], fields["currency"], fields["variant"]) == (
        "Ongame", "[SPEED] Quimper", "EUR", "NT")  # fmt: skip
    assert fields["players"] == ["Sable Fox", "Marmot", "kiwi_k", "Otterly"]  # left of the button first
    assert fields["starting_stacks"] == [1250.5, 1980, 2000, 415.25]
    assert fields["actions"][1] == "d dh p2 AhKd" and "d dh p4 AsKs" in fields["actions"]
    assert "p2 cbr 90" in fields["actions"] and "p2 cbr 1770" in fields["actions"]  # raises X to Y: to Y
    assert nets(fields, result) == {"Sable Fox": Decimal("-5"), "Marmot": Decimal("1.25"),
                                    "kiwi_k": Decimal(0), "Otterly": Decimal("1.25")}  # fmt: skip
    assert result.rake * Decimal(10) ** -result.decimals == Decimal("2.50")
    assert (fields["time_zone"], fields["time_zone_abbreviation"]) == ("Etc/GMT-1", "GMT+0100")
    assert (fields["year"], fields["month"], fields["day"], str(fields["time"])) == (2011, 3, 14, "21:05:09")
    assert "_notes" not in fields


def test_a_dead_small_blind_goes_to_the_pot_and_the_button_s_big_blind_is_live():
    fields, result = replayed(CASH, "R5-40000002-3")
    assert fields["players"] == ["Badger_B", "Marmot"]
    assert fields["antes"] == [0.1, 0]  # heads-up: PHH's reversed order
    assert fields["blinds_or_straddles"] == [-0.25, 0.25]  # the button's, out of turn: live
    assert nets(fields, result) == {"Badger_B": Decimal("-0.75"), "Marmot": Decimal("0.67")}


def test_omaha_hi_lo_with_two_big_blinds_splits_high_and_low():
    fields, result = replayed(CASH, "R5-40000003-11")
    assert fields["variant"] == "PO/8" and fields["blinds_or_straddles"] == [0.5, 0.5, 0]
    assert fields["winnings"] == [0, 10.45, 10.45]
    assert nets(fields, result) == {"Heron": Decimal("-2"), "Lynx77": Decimal("0.45"),
                                    "Marmot": Decimal("0.45")}  # fmt: skip
    assert fields["time_zone"] == "EET" and fields["time_zone_abbreviation"] == "EEST"


def test_limit_hold_em_side_pot_and_a_street_written_twice_after_an_all_in():
    fields, result = replayed(CASH, "R5-40000004-2")
    assert (fields["small_bet"], fields["big_bet"], fields["variant"]) == (1, 2, "FT")
    assert fields["actions"].count("d db Jc") == 1
    assert fields["currency"] == "USD"  # amounts bare, the rake's symbol names it (Betfair)
    assert nets(fields, result) == {"Vole": Decimal("-1.25"), "Stoat": Decimal("-5"),
                                    "Marmot": Decimal("6.05")}  # fmt: skip


def test_five_card_draw_is_read_and_a_broken_hand_refused_by_its_line():
    hands = hands_of(CASH)
    fields, error = hands["R5-40000006-1"]  # fixed-limit five-card draw (engine/variants/five-card-draw.toml)
    assert error is None and fields["variant"] == "F5D" and fields["actions"][0] == "d dh p1 9dTsQc6c3c"
    assert hands["R5-40000008-9"] == (None, "Wren: 'dances a jig' is an action scooplab does not know")
    assert sum(error is None for _, error in hands.values()) == 7


def test_play_money_is_chips_and_the_hand_id_is_kept_as_written():
    fields, result = replayed(CASH, "R5-40000007-4")
    assert fields["_chips"] == "play money" and "currency" not in fields
    assert fields["_hand_id"] == "R5-40000007-4"
    assert nets(fields, result)["Crane"] == Decimal("0.25")


def test_stud_deals_street_by_street_with_the_opponents_down_cards_unknown():
    fields, result = replayed(STUD, "R5-50000001-12")
    actions = fields["actions"]
    assert (fields["variant"], fields["bring_in"], fields["antes"]) == ("F7S", 0.05, [0.02, 0.02, 0.02])
    assert actions[:4] == ["d dh p1 Jh9dAc", "d dh p2 ????3h", "d dh p3 ????Kd", "p2 pb"]
    assert "d dh p3 ??" in actions and "p3 sm 4d8cKdQs2cKh6s" in actions  # seventh street: down
    assert nets(fields, result) == {"Marmot": Decimal("0.63"), "Tern": Decimal("-0.07"),
                                    "Gull Ray": Decimal("-0.62")}  # fmt: skip


def test_a_big_bring_in_is_a_completion_with_a_note():
    fields, result = replayed(STUD, "R5-50000002-5")
    assert fields["variant"] == "F7S/8" and fields["actions"][2] == "p1 cbr 1"
    assert fields["_notes"] == ["Marmot brings in for the whole small bet (Ongame's big bring-in): a "
                                "completion; the file does not say the small bring-in"]  # fmt: skip
    assert nets(fields, result) == {"Marmot": Decimal("-2.10"), "Puffin": Decimal("1.90")}


def test_a_tournament_hand_its_id_buy_in_and_a_short_big_blind_written_small():
    fields, result = replayed(TOURNAMENT, "T5-60000001-14")
    tournament = [fields[f"_{k}"] for k in ("tournament", "tournament_name", "buy_in", "buy_in_currency")]
    assert tournament == ["R-301-77", "Sunday Owl Cup", "5", "EUR"]
    assert fields["_chips"] == "tournament" and "currency" not in fields
    assert fields["blinds_or_straddles"] == [125, 150, 0] and fields["antes"] == [25, 25, 25]
    assert fields["starting_stacks"] == [4210, 175, 12000]
    assert nets(fields, result) == {"Pelican": -175, "Marmot": 200, "Osprey": -25}


def test_a_tournament_without_its_number_and_an_ante_all_in_given_back():
    fields, result = replayed(TOURNAMENT, "T5-60000002-3")
    assert "_tournament" not in fields and fields["_chips"] == "tournament"
    assert nets(fields, result) == {"Albatross": -10, "Marmot": -20, "Shrike": 30}
    fields, result = replayed(TOURNAMENT, "T5-60000003-9")
    assert fields["players"] == ["Marmot", "Grebe"]
    assert fields["winnings"] == [0, 160]  # the pot and his unmatched ante
    assert fields["_notes"][0].startswith("the file gives Grebe back 40 it does not write in its pots")
    assert nets(fields, result) == {"Grebe": 60, "Marmot": -60} and result.rake == 0


def test_read_hand_refuses_a_hand_cut_off_before_its_summary():
    first = CASH.read_text(encoding="utf-8").split("\n***** History for hand R5-40000002-3")[0]
    with pytest.raises(SiteError, match="cut off before its summary"):
        read_hand(first.split("Summary:")[0].strip())


def test_the_files_are_stored_with_their_nets_and_refusals(tmp_path):
    warehouse = Warehouse(tmp_path / "wh")
    rejected: list[str] = []
    report = ingest([CASH, STUD, TOURNAMENT], warehouse, on_reject=rejected.append)
    assert report.hands == 12 and len(rejected) == 1 and report.variants["five-card-draw"] == 1
    assert any("dances a jig" in r for r in rejected)
    hands = {json.loads(h["extra_fields"])["_hand_id"]: h for h in warehouse.read("hands").to_pylist()}
    split = hands["R5-40000001-7"]
    assert [split[k] for k in ("currency", "time_zone", "table_name")] == [
        "EUR",
        "Etc/GMT-1",
        "[SPEED] Quimper",
    ]
    assert Decimal(split["rake"]).scaleb(-split["amount_decimals"]) == Decimal("2.50")
    by_id = {h["hand_id"]: key for key, h in hands.items()}
    stored = {}
    for row in warehouse.read("players").to_pylist():
        key = by_id[row["hand_id"]]
        stored[key, row["player"]] = Decimal(row["net"]).scaleb(-hands[key]["amount_decimals"])
    assert stored["R5-40000002-3", "Marmot"] == Decimal("0.67")
    assert stored["R5-40000004-2", "Vole"] == Decimal("-1.25")
