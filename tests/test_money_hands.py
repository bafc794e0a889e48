"""Real-format hands (RULINGS, "Real-money hand histories"): money amounts in exact units, hidden
cards kept unknown, the record checked against the pots, the rake and the metadata stored."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules.record import CHECKED, DECIDED_BY_RECORD, UNCHECKED
from ingest.histories.export import export_hands
from ingest.histories.money import MAX_DECIMALS, AmountError, Token, fields_in_units, in_units, money_text
from ingest.histories.phh import iter_hands
from ingest.histories.pipeline import ingest
from ingest.histories.replay import HandError, replay
from ingest.storage.warehouse import Warehouse

MONEY = Path(__file__).parent / "fixtures" / "money"
EXPECT = re.compile(r"^# expect: (.+)$", re.MULTILINE)


def _stored(tmp_path: Path) -> tuple[Warehouse, list[dict], list[dict]]:
    warehouse = Warehouse(tmp_path / "wh")
    report = ingest([MONEY / "valid.phhs"], warehouse, run_id="money")
    assert report.rejected == 0
    hands = sorted(warehouse.read("hands").to_pylist(), key=lambda h: h["hand_index"])
    players = warehouse.read("players").to_pylist()
    return warehouse, hands, players


def test_every_valid_hand_is_stored_in_exact_units_with_its_record_rake_and_metadata(tmp_path):
    _, hands, players = _stored(tmp_path)
    assert len(hands) == len(list(iter_hands([MONEY / "valid.phhs"])))
    by_no = {h["hand_no"]: h for h in hands}
    folded_round = by_no[5106644]  # blinds 0.50/1: cents
    assert (folded_round["amount_decimals"], folded_round["record"], folded_round["rake"]) == (2, CHECKED, 0)
    assert (folded_round["currency"], folded_round["venue"], folded_round["table_name"]) == (
        "USD",
        "Ultimate Bet",
        "Zeta 12",
    )
    assert folded_round["played_on"] == dt.date(2009, 3, 14)
    assert folded_round["played_time"] == dt.time(21, 15, 3)
    assert folded_round["time_zone"] == "ET"
    assert by_no[5106645]["rake"] == 15  # 7.25 in the pot, 7.10 collected
    assert (by_no[88123]["record"], by_no[88123]["rake"]) == (DECIDED_BY_RECORD, 150)
    assert by_no[771]["amount_decimals"] == 3  # antes of 0.125
    assert by_no[9]["record"] == UNCHECKED
    assert by_no[10]["rake"] == 2  # from finishing_stacks: 0.20 in the pot, 0.18 back
    seats = {(p["hand_id"], p["seat"]): p for p in players}
    first = folded_round["hand_id"]
    assert [seats[first, s]["table_seat"] for s in range(6)] == [1, 2, 3, 4, 6, 9]
    assert [seats[first, s]["player"] for s in range(2)] == ["a1f3", "b7c2"]


def test_chips_are_conserved_to_the_unit_with_the_rake(tmp_path):
    _, hands, players = _stored(tmp_path)
    for hand in hands:
        seated = [p for p in players if p["hand_id"] == hand["hand_id"]]
        start = sum(p["starting_stack"] for p in seated)
        assert sum(p["finishing_stack"] for p in seated) + hand["rake"] == start, hand["hand_no"]
        assert sum(p["won"] for p in seated) + hand["rake"] == hand["pot"], hand["hand_no"]


def test_hidden_cards_stay_unknown(tmp_path):
    _, hands, players = _stored(tmp_path)
    decided = next(h for h in hands if h["record"] == DECIDED_BY_RECORD)
    seated = sorted((p for p in players if p["hand_id"] == decided["hand_id"]), key=lambda p: p["seat"])
    assert [p["hole_cards"] for p in seated] == ["????", "????"]
    assert [p["won"] for p in seated] == [0, 29960]
    assert all(p["high_strength"] is None for p in seated)


def test_each_invalid_hand_is_one_reject_with_its_reason(tmp_path):
    text = (MONEY / "invalid.phhs").read_text()
    expected = EXPECT.findall(text)
    messages: list[str] = []
    warehouse = Warehouse(tmp_path / "wh")
    report = ingest([MONEY / "invalid.phhs"], warehouse, run_id="bad", on_reject=messages.append)
    assert (report.hands, report.rejected) == (0, len(expected))
    rejects = sorted(warehouse.read("rejects").to_pylist(), key=lambda r: r["hand_index"])
    for reject, reason in zip(rejects, expected, strict=True):
        assert reason in reject["error"], reject["error"]
    assert all("\n" not in m and "invalid.phhs" in m for m in messages)


def test_export_then_ingest_gives_the_same_rows(tmp_path):
    first, hands, _ = _stored(tmp_path)
    out = tmp_path / "again.phhs"
    assert export_hands(first, "holdem", out) == len(hands)
    second = Warehouse(tmp_path / "second")
    ingest([out], second, run_id="money")
    keep = ("hand_id", "pot", "rake", "record", "amount_decimals", "currency", "venue", "played_on")
    again = sorted(second.read("hands").to_pylist(), key=lambda h: h["hand_id"])
    assert [[h[k] for k in keep] for h in again] == [
        [h[k] for k in keep] for h in sorted(hands, key=lambda h: h["hand_id"])
    ]


def _hand(**fields):
    base = {"variant": "NT", "blinds_or_straddles": [0.5, 1], "min_bet": 1, "starting_stacks": [100, 100]}
    return base | fields


def test_a_collector_who_folded_is_refused_when_the_record_decides():
    fields = _hand(
        starting_stacks=[20, 20, 20],
        blinds_or_straddles=[0.5, 1, 0],
        actions=["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 20", "p1 f", "p2 cc",
                 "d db 2c3d4h", "d db 5s", "d db 9c"],
        winnings=[40.5, 0, 0],
    )  # fmt: skip
    with pytest.raises(HandError, match="p1 collect, who may win no pot"):
        replay(fields)


def test_a_winner_may_not_collect_more_than_the_rules_give():
    """p1's big blind wins a pot of 1 and 0.5 comes back: collecting 1.5 counts the return (some
    sites do, tests/test_real_money_records.py), 1.6 is more than both."""
    fields = _hand(actions=["d dh p1 ????", "d dh p2 ????", "p2 f"], winnings=[1.6, 0])
    with pytest.raises(HandError, match=r"collect 1\.6, more than the pot of 1$"):
        replay(fields)


def test_winnings_and_finishing_stacks_must_agree():
    fields = _hand(actions=["d dh p1 ????", "d dh p2 ????", "p2 f"], winnings=[1, 0],
                   finishing_stacks=[100.4, 99.5])  # fmt: skip
    with pytest.raises(HandError, match=r"disagree: by the winnings the stacks are \[100.5, 99.5\]"):
        replay(fields)


def test_chip_hands_keep_their_half_chip_reading():
    fields, k = fields_in_units({"starting_stacks": [10000, 10000], "finishing_stacks": [10112.5, 9887.5]})
    assert k == 0 and fields["finishing_stacks"] == [10112.5, 9887.5]


@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, MAX_DECIMALS)), min_size=2, max_size=6))
def test_units_are_exact_and_read_back_as_written(amounts):
    """Amounts of up to 10 digits and 6 decimals, read as TOML reads them (floats), are whole
    numbers of the hand's unit, and those units are the amounts written, to the last digit."""
    written = [Decimal(units).scaleb(-places) for units, places in amounts]
    fields = {"starting_stacks": [float(w) for w in written], "winnings": [0] * len(written)}
    hand, k = fields_in_units(fields)
    assert k == max([0] + [-w.normalize().as_tuple().exponent for w in written if w])
    assert [Decimal(money_text(u, k)) for u in hand["starting_stacks"]] == written


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=0, max_value=MAX_DECIMALS))
def test_money_text_and_units_round_trip(units, k):
    assert in_units(Token(money_text(units, k)), k, "x") == units


def test_more_units_than_a_float_counts_is_refused():
    """A billion and a millionth: 10^15 units is fine, 10^16 is past 2^53 and refused."""
    assert fields_in_units({"starting_stacks": [10.0**9, 0.000001], "winnings": [0, 0]})[1] == 6
    with pytest.raises(AmountError, match="more than scooplab counts"):
        fields_in_units({"starting_stacks": [10.0**10, 0.000001], "winnings": [0, 0]})


def test_more_than_six_decimals_is_refused():
    with pytest.raises(AmountError, match="more than 6 decimals"):
        fields_in_units({"starting_stacks": [1.0000001, 2], "winnings": [0, 0]})


def test_pots_of_hands_in_cents_and_thousandths_add_up_in_the_finer_unit(tmp_path):
    """``stats``' pot distribution over replayed money hands counts every pot in the finest unit
    among them (RULINGS: amounts are integers of a stated unit), and says which."""
    from scooplab.lab import Lab

    hand = ('variant = "NT"\ncurrency = "USD"\nblinds_or_straddles = [{0}, {1}]\nmin_bet = {1}\n'
            'starting_stacks = [50, 50]\nactions = ["d dh p1 ????", "d dh p2 ????", "p2 cbr {2}", "p1 f"]\n'
            "winnings = [0, {3}]\n")  # fmt: skip
    text = "[1]\n" + hand.format(0.25, 0.5, 1.5, 0.95) + "[2]\n" + hand.format(0.125, 0.25, 1, 0.475)
    (tmp_path / "two.phhs").write_text(text)
    report = ingest([tmp_path / "two.phhs"], Warehouse(tmp_path / "wh"), run_id="two")
    assert report.hands == 2
    stats = Lab(tmp_path / "wh").stats("holdem")
    assert stats["pot_unit"] == "0.001 USD"
    assert (stats["pot"]["min"], stats["pot"]["max"]) == (500, 1000)  # 0.500 and 1.00 (the raise uncalled)
    chips = hand.format(1, 2, 6, 0).replace('currency = "USD"\n', "").replace("winnings = [0, 0]\n", "")
    (tmp_path / "chips.phhs").write_text("[1]\n" + chips)
    ingest([tmp_path / "chips.phhs"], Warehouse(tmp_path / "wh"), run_id="chips")
    mixed = Lab(tmp_path / "wh").stats("holdem")  # chips beside dollars: not added up
    assert mixed["hands"] == 3 and mixed["pot_unit"] == "several currencies: pots not added up"
    assert mixed["pot"]["max"] is None
