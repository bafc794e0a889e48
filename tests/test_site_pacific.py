"""888poker (Pacific Poker, Cassava) hand histories: found by their two-line header (never
PartyPoker's), read exactly (amounts in the client's language, what each action put in, all-ins from
the stacks, uncalled bets the collected amount holds), replayed and stored. Fixtures:
tests/fixtures/sites/pacific-*.txt (written for these tests)."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.phh import iter_hands
from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.histories.sites import pacific, site_format
from ingest.histories.sites.pacific_body import decimal_mark, deck_of, money
from ingest.histories.sites.text import SiteError
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"
CASH, TOURNAMENT = SITES / "pacific-cash.txt", SITES / "pacific-tournament.txt"
LANGUAGES, RUSSIAN = SITES / "pacific-languages.txt", SITES / "pacific-russian-cp1251.txt"


def stored(tmp_path: Path, *files: Path):
    """Ingest files into a new warehouse: (rejects, {hand number: hand row}, {(hand, player): row})."""
    warehouse = Warehouse(tmp_path / "wh")
    rejected: list[str] = []
    ingest(files, warehouse, on_reject=rejected.append)
    hands = {}
    for row in warehouse.read("hands").to_pylist():
        hands[row["hand_no"]] = row | {"extra": json.loads(row["extra_fields"] or "{}")}
    by_id = {row["hand_id"]: number for number, row in hands.items()}
    players = {(by_id[p["hand_id"]], p["player"]): p for p in warehouse.read("players").to_pylist()}
    return rejected, hands, players


def nets(hands: dict, players: dict, number: int) -> dict[str, Decimal]:
    scale = hands[number]["amount_decimals"]
    return {p: Decimal(row["net"]).scaleb(-scale) for (n, p), row in players.items() if n == number}


def fields_of(path: Path) -> dict[int, dict]:
    return {raw.fields["hand"]: raw.fields for raw in iter_hands([path]) if raw.fields}


@pytest.mark.parametrize(
    "second",
    [
        "Cassava Hand History for Game 7",
        "888poker Hand History for Game 7",
        "888poker.ca-on Hand History for Game 7",
        "888.ro BLAST Hand History for Game 7",
        "888poker Snap Poker Hand History for Game 7",
    ],
)
def test_the_header_claims_the_888_second_lines(second):
    assert pacific.HEADER.match(f"#Game No : 7\n***** {second} *****")


@pytest.mark.parametrize("second", ["Hand History for Game 7", "Hand History For Game 7"])
def test_the_header_leaves_partypokers_hands_alone(second):
    party = (
        f"#Game No : 7\n***** {second} *****\n$2 USD NL Texas Hold'em - Monday, May 7, 10:00:00 EDT 2012\n"
    )
    assert pacific.HEADER.search(party) is None
    assert site_format(CASH.read_bytes()) == "888" and site_format(party.encode()) != "888"


def test_cash_hands_are_stored_with_the_files_amounts_and_cards(tmp_path):
    _, hands, players = stored(tmp_path, CASH)
    first = hands[900000001]
    assert (first["venue"], first["table_name"], first["currency"]) == ("888poker", "Tarragona", "USD")
    assert str(first["played_on"]) == "2012-03-14" and first["time_zone"] is None  # day month year, no zone
    assert first["extra"]["_site"] == "Cassava" and first["extra"]["seat_count"] == 6
    assert nets(hands, players, 900000001) == {
        "Lemmy77": Decimal("6.95"), "bluff.daddy": Decimal("-7.35"), "tortilla": Decimal("-0.30"),
        "Wyvern": Decimal("-0.05"), "quokka_queen": Decimal("0.00"),
    }  # fmt: skip
    assert Decimal(first["rake"]).scaleb(-2) == Decimal("0.75")  # bluff.daddy's 2.55 unmatched came back
    assert players[900000001, "bluff.daddy"]["hole_cards"] == "QsQh"  # "mucks [ Qs, Qh ]": shown
    assert players[900000001, "Wyvern"]["starting_stack"] == 120410  # $1,204.10
    # a raise nobody called: "collected [ $0.50 ]" holds his own 0.25 back
    assert nets(hands, players, 900000002)["Lemmy77"] == Decimal("0.15")
    assert hands[900000002]["notes"] == ["Lemmy77's collected 0.5 holds the uncalled 0.25 returned to him"]
    # a dead blind [$0.05 + $0.10]: the small to the pot, the big live; a fold before the deal sits out
    assert nets(hands, players, 900000003) == {
        "Lemmy77": Decimal("0.60"), "newcomer_ned": Decimal("-0.15"), "Wyvern": Decimal("-0.40"),
        "quokka_queen": Decimal("-0.10"), "tortilla": Decimal("0.00"),
    }  # fmt: skip
    assert (900000003, "bluff.daddy") not in players
    assert hands[900000003]["rake"] == 5


def test_omaha_hi_lo_fixed_limit_jackpot_and_canadian_hands(tmp_path):
    _, hands, players = stored(tmp_path, CASH)
    split = hands[900000004]  # practice play: no currency, play money
    assert split["currency"] is None and split["extra"]["_chips"] == "play money"
    assert split["variant_code"] == "PO/8"
    low = Decimal(players[900000004, "Mirabelle"]["won_low"]).scaleb(-split["amount_decimals"])
    assert low == Decimal("227.50") and players[900000004, "zugzwang"]["won_high"]
    assert nets(hands, players, 900000004) == {
        "zugzwang": Decimal("42.50"), "Mirabelle": Decimal("42.50"), "sea_otter": Decimal("-85.00"),
    }  # fmt: skip
    # fixed limit: the all in is the stacks' (Gannet's last 0.50); a "mucks" that collected a side pot
    assert hands[900000005]["variant_code"] == "FT"
    assert nets(hands, players, 900000005) == {
        "penguin_pal": Decimal("0.10"), "Gannet": Decimal("6.50"), "skua": Decimal("-7.50"),
    }  # fmt: skip
    assert players[900000005, "penguin_pal"]["hole_cards"] == "9s9d"
    assert hands[900000006]["extra"]["_jackpot_table"] is True and hands[900000006]["rake"] == 10
    assert nets(hands, players, 900000006)["Kookaburra"] == Decimal("0.90")
    canada = hands[900000007]
    assert (canada["venue"], canada["currency"]) == ("888poker.ca-on", "CAD")
    assert nets(hands, players, 900000007)["toque"] == Decimal("0.10")


def test_broken_hands_are_refused_by_name_and_the_rest_stored(tmp_path):
    rejected, hands, _ = stored(tmp_path, CASH)
    assert sorted(hands) == list(range(900000001, 900000008))
    assert [r.split(": ", 1)[1] for r in rejected] == [
        "the hand was cancelled: nobody posts the big blind and no cards are dealt",
        "seat 2 has no player name",
        "a line scooplab does not know: 'quokka_queen sings [ loudly ]'",
    ]
    assert "hand #900000008 (line 232)" in rejected[0]


def test_tournaments_antes_side_pots_blast_and_freerolls(tmp_path):
    rejected, hands, players = stored(tmp_path, TOURNAMENT)
    assert rejected == []
    freeroll = hands[910000001]
    assert freeroll["currency"] is None and freeroll["amount_decimals"] == 0
    extra = freeroll["extra"]
    assert (extra["_chips"], extra["_tournament"], extra["_buy_in_text"]) == (
        "tournament",
        "48000001",
        "Free",
    )
    assert freeroll["table_name"] == "48000001 17"
    # dugong all in on his big blind wins the main pot; aardvark's collected is his unmatched bet back
    assert nets(hands, players, 910000001) == {
        "dugong": 420,
        "Bilby": 2180,
        "aardvark": -2480,
        "cassowary": -120,
    }
    assert hands[910000001]["notes"] == ["aardvark's collected 2520 holds the uncalled 2520 returned to him"]
    sit_and_go = hands[910000002]["extra"]
    assert (sit_and_go["_buy_in"], sit_and_go["_fee"], sit_and_go["_buy_in_currency"]) == (
        "2.50",
        "0.25",
        "USD",
    )
    blast = hands[910000003]  # every player all in on his ante; 12.345,60/0 are not the hand's blinds
    assert (blast["venue"], blast["extra"]["_format"], blast["extra"]["_buy_in"]) == (
        "888.ro",
        "BLAST",
        "4.57",
    )
    assert blast["played_on"] is None
    assert nets(hands, players, 910000003) == {"Iele": 3500, "Zmeu": -1500, "Balaur": -2000}
    assert nets(hands, players, 910000004)["Jaguarundi"] == 200  # no collected line: the pot is his
    assert "the file writes no pot collected" in hands[910000004]["notes"][0]
    assert hands[910000005]["extra"]["_buy_in_text"] == "Gratuit"
    assert nets(hands, players, 910000005) == {"Blaireau": 1036500, "Renard": -980500, "Hibou": -56000}


def test_the_clients_languages_cards_and_amounts(tmp_path):
    rejected, hands, players = stored(tmp_path, LANGUAGES, RUSSIAN)
    assert rejected == []
    assert players[920000001, "Igel"]["hole_cards"] == "8sQh"  # 8Pik, QHerz
    assert players[920000001, "Dachs"]["hole_cards"] == "5h5c"
    assert nets(hands, players, 920000001) == {"Igel": Decimal("0.17"), "Dachs": Decimal("-0.16"),
                                               "Ente": Decimal("-0.02")}  # fmt: skip
    assert players[920000002, "Kikker"]["hole_cards"] == "KcKd7s2c"  # Dutch: Heer
    dutch = Decimal(players[920000002, "Vlinder"]["starting_stack"]).scaleb(
        -hands[920000002]["amount_decimals"]
    )
    assert dutch == 1243  # "$ 1.243" beside "$ 402,50"
    assert nets(hands, players, 920000002)["Kikker"] == Decimal("88.20")
    assert players[920000003, "Lo"]["hole_cards"] == "AdJs6c6h"  # Swedish: Ess, Knekt
    swede = Decimal(players[920000003, "Älg"]["starting_stack"]).scaleb(-hands[920000003]["amount_decimals"])
    assert swede == Decimal("2150.75")  # 2 150,75 with non-breaking spaces
    assert nets(hands, players, 920000003) == {"Lo": Decimal("2027.50"), "Älg": Decimal("-2020.00"),
                                               "Järv": Decimal("-10.00")}  # fmt: skip
    spanish = hands[920000004]
    assert players[920000004, "Hero"]["hole_cards"] == "AsKc"  # Ap, Kt: picas, tréboles
    assert (spanish["extra"]["_buy_in"], spanish["extra"]["_buy_in_currency"]) == ("0.90", "EUR")
    assert players[920000005, "Hero"]["hole_cards"] == "AsKs"  # Т, К of a Windows-1251 file
    assert nets(hands, players, 920000005)["Hero"] == Decimal("1.10")


def test_exact_amounts_through_the_replay():
    fields = fields_of(TOURNAMENT)[910000001]
    assert fields["antes"] == [20, 20, 20, 20] and fields["blinds_or_straddles"] == [100, 130, 0, 0]
    assert fields["winnings"] == [0, 570, 0, 4660]  # cassowary, dugong, aardvark, Bilby
    assert "p3 cbr 3380" in fields["actions"]  # bets [$3,380]: what it put in
    result = replay(fields)
    assert result.rake == 0
    board = fields_of(LANGUAGES)[920000002]["actions"]
    assert "d db QhJsKh" in board  # Dutch Vrouw, Boer, Heer


def test_amount_and_card_helpers():
    assert decimal_mark("[ 42.797,60 $ ] ( 3.530 $ )") == ","
    with pytest.raises(SiteError, match="both"):
        decimal_mark("( $1.50 ) [ 2,25 $ ]")
    assert money("1 123 698", None) == Decimal(1123698) and money("$0.02", ".") == Decimal("0.02")
    for bad in ("0.125", "12,3456", "1.23"):
        with pytest.raises(SiteError, match="not an amount"):
            money(bad, None if bad != "12,3456" else ",")
    assert deck_of(["Âh, Äc, Ês, Òd"]) == {"Âh": "Jh", "Äc": "Qc", "Ês": "Ks", "Òd": "Ad"}
    with pytest.raises(SiteError, match="ten or a queen"):
        deck_of(["Dp, 7t"])
    with pytest.raises(SiteError, match="not a card"):
        deck_of(["Zz"])


def test_a_hand_with_both_decimal_marks_is_refused():
    text = CASH.read_text().split("\n\n\n\n")[0].replace("( $10 )", "( 10,25 $ )")
    with pytest.raises(SiteError, match="decimal mark"):
        pacific.read_hand(text)
