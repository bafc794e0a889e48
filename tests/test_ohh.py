"""Open Hand History: OHH files read as the hands they record (nets to the cent, the forced bets as
posted, the raise amounts as OHH counts them), bad objects refused one at a time, and OHH written
by ``scooplab export --format ohh`` read back into the same rows."""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.rules.record import CHECKED
from ingest.histories import sites
from ingest.histories.export import export_ohh
from ingest.histories.phh import iter_hands
from ingest.histories.pipeline import ingest
from ingest.histories.sites import ohh, ohh_json
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

SITES = Path(__file__).parent / "fixtures" / "sites"
EXAMPLES = Path(__file__).parent / "fixtures" / "examples"
# (ohh-run-it-twice.ohh, a hand run twice and one refused, is test_run_it_twice.py's)
GOOD = sorted(p for p in SITES.glob("ohh-*.ohh") if p.name not in ("ohh-bad.ohh", "ohh-run-it-twice.ohh"))
NOT_COMPARED = {"run_id", "source", "source_file", "hand_index"}  # where a row came from, not what it says

# each hand of the fixtures: each player's net in the hand's currency (or chips), and the rake
EXPECTED = {
    "88412001": ("Moth 9.20 Brine -10.00 Tansy -0.05 Orrin -0.10 Quill 0 Vale 0", "0.95"),
    "LK88412002": ("Brine 0.51 Quill -0.40 Orrin -0.05 Vale -0.10 Tansy 0", "0.04"),
    "700214": ("Kestrel 1030 Juno -960 Pim -60 Marlow -10", "0"),
    "5500321": ("Ferro 39.00 Lumen 14.00 Stave -55.00", "2.00"),
    "5500388": ("Wick 6.40 Stave -5.00 Tarn -2.00", "0.60"),
    "90001": ("Flint 1.33 Ember -1.10 Cobalt -0.10 Dune -0.25 Birch 0", "0.12"),
    "90002": ("Gale 2.57 Cobalt -1.95 Ember -0.75 Dune -0.10 Flint 0 Birch 0", "0.23"),
    "4400017": ("Rye 147 Ash -150", "3"),
}


def _rows(warehouse: Warehouse, table: str, ignored: frozenset[str] = frozenset()) -> list[dict]:
    ignored = NOT_COMPARED | ignored
    rows = [{k: v for k, v in row.items() if k not in ignored} for row in warehouse.read(table).to_pylist()]
    return sorted(rows, key=lambda row: json.dumps(row, sort_keys=True, default=str))


def _hand_key(hand: dict) -> str:
    extra = json.loads(hand["extra_fields"])
    return str(extra["hand"]) if "hand" in extra else extra["_hand_id"]


def _nets(text: str) -> dict[str, Decimal]:
    """``"Moth 9.20 Brine -10.00"`` as each player's net."""
    words = text.split()
    return {name: Decimal(net) for name, net in zip(words[::2], words[1::2], strict=True)}


def _money(units: int, decimals: int) -> Decimal:
    return Decimal(units).scaleb(-decimals)


@pytest.fixture(scope="module")
def read(tmp_path_factory) -> Warehouse:
    warehouse = Warehouse(tmp_path_factory.mktemp("ohh") / "wh")
    report = ingest(GOOD, warehouse, run_id="ohh")
    assert (report.hands, report.rejected) == (len(EXPECTED), 0)
    return warehouse


def test_each_hand_is_stored_checked_with_its_nets_to_the_cent_and_its_rake(read):
    hands = {h["hand_id"]: h for h in read.read("hands").to_pylist()}
    nets: dict[str, dict[str, Decimal]] = {_hand_key(h): {} for h in hands.values()}
    for player in read.read("players").to_pylist():
        hand = hands[player["hand_id"]]
        nets[_hand_key(hand)][player["player"]] = _money(player["net"], hand["amount_decimals"])
    assert nets == {key: _nets(want) for key, (want, _) in EXPECTED.items()}
    for hand in hands.values():
        assert hand["record"] == CHECKED and hand["notes"] == [], _hand_key(hand)
        assert _money(hand["rake"], hand["amount_decimals"]) == Decimal(EXPECTED[_hand_key(hand)][1])


def test_the_stored_hands_keep_game_money_table_and_time(read):
    hands = {_hand_key(h): h for h in read.read("hands").to_pylist()}
    assert {k: (h["variant"], h["structure"]) for k, h in hands.items() if k.startswith("55")} == {
        "5500321": ("omaha", "pot-limit"),
        "5500388": ("omaha-hi-lo", "fixed-limit"),
    }
    cash = hands["88412001"]
    assert (cash["venue"], cash["table_name"], cash["currency"]) == ("Lakeside Poker", "Aster", "EUR")
    when = (cash["played_on"], cash["played_time"], cash["time_zone"])
    assert when == (dt.date(2024, 3, 9), dt.time(20, 15, 42), "UTC")
    tournament = hands["700214"]
    extra = json.loads(tournament["extra_fields"])
    assert tournament["currency"] is None
    keys = ("_chips", "_tournament", "_buy_in", "_bounty", "_fee", "_buy_in_currency")
    assert [extra[k] for k in keys] == ["tournament", "31415926", "5.00", "5.00", "1.00", "USD"]
    assert extra["_bounties"] == ["5", "5", "7.5", "5"]  # in PHH order: Pim, Juno, Kestrel, Marlow
    assert tournament["played_time"] == dt.time(18, 0, 5)  # "...T18:00:05Z"


def _fields(name: str) -> list[dict]:
    return [fields for _, _, _, fields, _ in sites.site_hands((SITES / name).read_bytes())]


def test_forced_bets_are_read_as_posted_dead_blinds_as_antes_live_ones_negative():
    returning, newcomer = _fields("ohh-dead-blind.ohh")
    assert returning["players"] == ["Cobalt", "Dune", "Ember", "Flint", "Birch"]  # left of the button first
    assert (returning["antes"], returning["blinds_or_straddles"]) == (
        [0, 0, 0.1, 0, 0],
        [0.1, 0.25, -0.25, 0, 0],
    )
    assert returning["actions"][5:7] == ["p3 cbr 1", "p4 cc"]  # "Raise" 0.75 over a live 0.25: to 1
    assert newcomer["blinds_or_straddles"] == [0.1, 0.25, 0, -0.25, 0, 0]
    (tournament,) = _fields("ohh-tournament-antes.ohh")
    assert (tournament["antes"], tournament["blinds_or_straddles"]) == ([10] * 4, [50, 100, 0, 0])


def test_heads_up_the_button_posts_the_small_blind_and_raises_are_what_they_add():
    (hand,) = _fields("ohh-heads-up.ohh")
    assert (hand["players"], hand["seats"]) == (["Rye", "Ash"], [2, 1])
    assert hand["blinds_or_straddles"] == [1, 2]  # reversed heads-up, as PHH assigns them
    assert hand["actions"][:6] == [
        "d dh p1 KsTs",
        "d dh p2 QcQd",
        "p2 cbr 6",
        "p1 cbr 18",
        "p2 cc",
        "d db Qh9s4d",
    ]
    assert hand["actions"][6:9] == ["p1 cbr 20", "p2 cbr 60", "p1 cc"]  # "Raise" 60 after a bet of 20: to 60
    assert hand["winnings"] == [297, 0]


def test_a_bad_object_is_one_reject_line_and_the_rest_of_the_file_goes_on(tmp_path):
    messages: list[str] = []
    warehouse = Warehouse(tmp_path / "wh")
    report = ingest([SITES / "ohh-bad.ohh"], warehouse, run_id="bad", on_reject=messages.append)
    assert (report.hands, report.rejected) == (2, 3)
    broken = (SITES / "ohh-bad.ohh").read_text().splitlines()[50]
    column = broken.index('"game_type": ,') + len('"game_type": ') + 1
    assert [m.split("ohh-bad.ohh hand ", 1)[1] for m in messages] == [
        "#4400102 (line 25): the hand has no players",
        "#4400103 (line 27): players[1] starting_stack is text, not a number",
        f"at line 51: bad JSON, expecting value at column {column}",
    ]
    assert sorted(h["hand_no"] for h in warehouse.read("hands").to_pylist()) == [4400101, 4400105]


def test_a_json_file_is_found_from_its_text_and_never_read_as_another_format():
    text = (SITES / "ohh-heads-up.ohh").read_text()
    encoded = [
        ("#4400017 (line 1)", text.encode()),
        ("#4400017 (line 2)", b"\xef\xbb\xbf\r\n" + text.replace("\n", "\r\n").encode()),  # a mark, CRLF
        ("#4400017 (line 1)", text.encode("utf-16")),
    ]
    for label, data in encoded:
        assert sites.site_format(data) == ohh.NAME
        ((_, found, _, fields, error),) = sites.site_hands(data)
        assert (found, fields["hand"], error) == (label, 4400017, None)
    stars_inside = b'{"note": "PokerStars Hand #1: Hold\'em No Limit ($0.01/$0.02 USD)"}'
    assert sites.site_format(stars_inside) is None and list(sites.site_hands(stars_inside)) == []


def test_one_line_objects_without_blank_lines_and_limits_on_size_and_depth():
    one = (SITES / "ohh-heads-up.ohh").read_text().replace("\n", "")
    deep = '{"ohh": {"x": ' + "[" * 40 + "]" * 40 + "}}"
    huge = '{"ohh": {"x": "' + "a" * (ohh_json.MAX_OBJECT_CHARS + 10) + '"}}'
    text = "\n".join([one, deep, one.replace("4400017", "4400018"), huge, one.replace("4400017", "4400019")])
    found = [(fields and fields["hand"], error) for _, _, _, fields, error in ohh.ohh_hands(text)]
    assert found == [
        (4400017, None),
        (None, f"values nested more than {ohh_json.MAX_DEPTH} deep"),
        (4400018, None),
        (None, f"the hand is larger than {ohh_json.MAX_OBJECT_CHARS:,} characters"),
        (4400019, None),
    ]
    ((_, _, _, _, error),) = ohh.ohh_hands('{"ohh": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert error == f"values nested more than {ohh_json.MAX_DEPTH} deep"


@pytest.mark.parametrize("value", ["1e999999999", "0e-999999999", "1234567890123456", "1e9999999"])
def test_an_amount_of_a_giant_exponent_is_one_refusal_at_once(value):
    """JSON reads these as decimals at once; writing or normalizing them would take gigabytes or raise."""
    text = (
        (SITES / "ohh-heads-up.ohh")
        .read_text()
        .replace('"starting_stack": 200.00', f'"starting_stack": {value}')
    )
    ((_, _, _, fields, error),) = ohh.ohh_hands(text)
    assert fields is None and error == "players[0] starting_stack is not an amount scooplab reads"


def test_games_ohh_cannot_read_are_refused_by_name():
    stud = '{"ohh": {"game_type": "Stud", "bet_limit": {"bet_type": "FL"}, "players": [], "rounds": []}}'
    run_twice = (
        (SITES / "ohh-heads-up.ohh")
        .read_text()
        .replace('"street": "River", "cards": ["Jh"]', '"street": "Flop", "cards": ["Jh", "Js", "2h"]')
    )
    assert [error for *_, error in ohh.ohh_hands(stud + "\n\n" + run_twice)] == [
        'OHH game "Stud" has no scooplab reading (hold\'em and Omaha only)',
        "the board's runs are written street by street, not run by run",  # a flop after the turn
    ]


def _same_rows(first: Warehouse, second: Warehouse, ignored: frozenset[str] = frozenset()) -> None:
    for table in ("hands", "players", "actions"):
        assert _rows(second, table, ignored) == _rows(first, table, ignored), table


def test_pokerstars_hands_written_as_ohh_and_read_back_give_the_same_rows(tmp_path):
    first = Warehouse(tmp_path / "first")
    assert ingest([SITES / "stars-for-ohh.txt"], first, run_id="stars").hands == 3
    out = tmp_path / "stars.ohh"
    assert export_ohh(first, out) == 3
    text = out.read_text()
    assert text.count("\n\n") == 3 and text.startswith('{"ohh": {"spec_version": "1.4.6"')
    assert (
        '"starting_stack": 25.00' in text and '"amount": 2.65' in text
    )  # the hand's decimals; what a raise adds
    for _, _, chunk, _, error in ohh.ohh_hands(text):
        assert error is None
        extension = json.loads(chunk)["ohh"].get(ohh.EXTENSION, {})
        assert set(extension) <= {"set"}  # nothing to remove: totals, rake and winnings are OHH's own
        assert set(extension["set"]) <= {"time", "time_zone", "time_zone_abbreviation", "day", "_level"}
    second = Warehouse(tmp_path / "second")
    assert ingest([out], second, run_id="ohh").hands == 3
    _same_rows(first, second)


def test_ohh_read_written_and_read_again_gives_the_same_rows(read, tmp_path):
    out = tmp_path / "again.ohh"
    assert export_ohh(read, out) == len(EXPECTED)
    again = Warehouse(tmp_path / "again")
    assert ingest([out], again, run_id="ohh").hands == len(EXPECTED)
    _same_rows(read, again)


def test_phh_hold_em_round_trips_and_games_ohh_cannot_name_are_counted(tmp_path):
    first = Warehouse(tmp_path / "first")
    files = [
        *sorted((SITES.parent / "phh" / "wsop").glob("*.phh")),
        EXAMPLES / "razz.phh",
        EXAMPLES / "omaha.phh",
    ]
    stored = ingest(files, first, run_id="phh").hands
    skipped: list[tuple[int, str]] = []
    out = tmp_path / "phh.ohh"
    assert export_ohh(first, out, on_skipped=lambda count, why: skipped.append((count, why))) == stored - 1
    assert skipped == [(1, "OHH names only hold'em, Omaha and Omaha hi/lo (razz 1)")]
    second = Warehouse(tmp_path / "second")
    ingest([out], second, run_id="phh")
    # a PHH file's text is kept as written (OHH's as PHH writes it), and a hand without a number is
    # numbered by its place in its file: the fields and every other column are the same
    ignored = frozenset({"hand_no", "phh"})
    for table in ("hands", "players", "actions"):
        written = [row for row in _rows(first, table, ignored) if row["variant"] != "razz"]
        assert _rows(second, table, ignored) == written, table
    histories = {h["hand_id"]: tomllib.loads(h["phh"]) for h in first.read("hands").to_pylist()}
    assert {h["hand_id"]: tomllib.loads(h["phh"]) for h in second.read("hands").to_pylist()} == {
        key: fields for key, fields in histories.items() if fields["variant"] != "FR"
    }
    with pytest.raises(ValueError, match="OHH names no game for razz"):
        export_ohh(first, tmp_path / "razz.ohh", variant="razz")


def test_the_command_writes_ohh_and_says_what_it_left_out(tmp_path):
    data = tmp_path / "wh"
    ingest([SITES / "ohh-heads-up.ohh", EXAMPLES / "razz.phh"], Warehouse(data), run_id="mixed")
    out = tmp_path / "hands.ohh"
    result = CliRunner().invoke(app, ["export", "--format", "ohh", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 hold'em and Omaha hands written to" in result.output
    assert "1 hands left out: OHH names only hold'em, Omaha and Omaha hi/lo (razz 1)" in result.output
    assert [fields["hand"] for *_, fields, _ in sites.site_hands(out.read_bytes())] == [4400017]
    assert len(list(iter_hands([out]))) == 1


def test_a_folder_s_ohh_and_json_files_are_read_and_other_json_passed_over(tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "duel.ohh").write_bytes((SITES / "ohh-heads-up.ohh").read_bytes())
    (folder / "omaha.json").write_bytes((SITES / "ohh-omaha.ohh").read_bytes())
    (folder / "package.json").write_text('{"name": "not hands", "version": "1.0.0"}\n')
    messages: list[str] = []
    report = ingest([folder], Warehouse(tmp_path / "wh"), run_id="folder", on_reject=messages.append)
    assert (report.hands, report.rejected, messages) == (3, 0, [])
