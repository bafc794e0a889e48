"""Players as a tracker shows them (analytics/tracker.py, docs/statistics.md "Players"): every count
and opportunity of five hands worked out by hand, positions by table size, money added in currency
to the unit, unchecked hands left out of results, filters, the derived rows kept current, and the
``scooplab players`` command."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import scooplab
from analytics import tracker
from analytics.db import VIEWS_DIR, connect
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

HANDS = Path(__file__).parent / "fixtures" / "money" / "tracker.phhs"
VALID = Path(__file__).parent / "fixtures" / "money" / "valid.phhs"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("tracker")
    assert ingest([HANDS], Warehouse(root), run_id="cash").rejected == 0
    with scooplab.open(root) as opened:
        yield opened


def _row(frame, **keys) -> dict:
    rows = [r for r in frame.to_dicts() if all(r[k] == v for k, v in keys.items())]
    assert len(rows) == 1, rows
    return rows[0]


# (count, opportunities) of each statistic, worked out from the hands' comments
EXPECTED = {
    "A": {"vpip": (2, 4), "pfr": (2, 4), "three_bet": (1, 1), "fold_to_three_bet": (0, 0), "cbet": (1, 1),
          "fold_to_cbet": (0, 0), "wtsd": (1, 2), "wsd": (1, 1)},
    "B": {"vpip": (0, 3), "pfr": (0, 3), "three_bet": (0, 1), "fold_to_three_bet": (0, 0), "cbet": (0, 0),
          "fold_to_cbet": (0, 0), "wtsd": (0, 0), "wsd": (0, 0)},
    "C": {"vpip": (3, 4), "pfr": (1, 4), "three_bet": (0, 1), "fold_to_three_bet": (1, 1), "cbet": (0, 0),
          "fold_to_cbet": (0, 1), "wtsd": (1, 2), "wsd": (0, 1)},
}  # fmt: skip


def test_each_count_is_over_its_opportunities_as_worked_out_by_hand(lab):
    table = lab.tracker(venues=["V"])
    assert table.height == 3
    for player, expected in EXPECTED.items():
        row = _row(table, player=player)
        assert row["hands"] == 4 and row["results_hands"] == 3  # hand 4 has no record
        found = {key: (row[f"{key}_n"], row[f"{key}_of"]) for key in expected}
        assert found == expected, player
        for key, (count, chances) in expected.items():
            assert row[key] == (count / chances if chances else None)
    a, c = _row(table, player="A"), _row(table, player="C")
    assert (a["aggressive"], a["calls"], a["af"]) == (1, 1, 1.0)  # the flop bet; the river call
    assert (c["aggressive"], c["calls"], c["af"]) == (2, 1, 2.0)  # river and flop bets; the flop call


def test_net_is_exact_currency_across_units_and_the_rake_is_all_that_leaves(lab):
    table = lab.tracker(venues=["V"])
    nets = {r["player"]: r["net"] for r in table.to_dicts()}
    # hand 3 counts thousandths (a stack of 50.125), the others cents: added in dollars, exactly
    assert nets == {"A": Decimal("13.5"), "B": Decimal("-1.5"), "C": Decimal("-13")}
    assert sum(nets.values()) == -Decimal("1")  # the rake of hand 2
    a = _row(table, player="A")
    assert a["net_bb"] == pytest.approx(4 + 10 - 1)  # +4 bb, +10 bb, -0.5 at a 0.5 big blind
    assert a["bb_per_100"] == pytest.approx(100 * 13 / 3)  # over the three hands with a record
    assert a["bb_per_100_low"] < a["bb_per_100"] < a["bb_per_100_high"]


def test_one_name_at_two_venues_is_two_players_and_filters_pick_hands(lab):
    everyone = lab.tracker()
    assert sorted(zip(everyone["venue"], everyone["player"], strict=True)) == [
        ("V", "A"), ("V", "B"), ("V", "C"), ("W", "A"), ("W", "B"), ("W", "C")]  # fmt: skip
    assert _row(lab.tracker(venues="W"), player="A")["net"] == Decimal("-0.5")
    cheap = lab.tracker(stakes=["0.5 USD"])  # hand 3 alone
    assert set(cheap["hands"].to_list()) == {1}
    assert lab.tracker(first_day=date(2010, 2, 2), last_day=date(2010, 2, 3))["hands"].max() == 2
    assert lab.tracker(table_sizes=[6]).height == 0
    every_day = lab.tracker(first_day=date(2000, 1, 1), by_position=True)  # counted from every seat row
    assert every_day.equals(lab.tracker(by_position=True))  # the same as from the runs' totals
    assert lab.tracker(min_hands=2).height == 3
    assert lab.tracker_choices()["stakes"] == ["0.5 USD", "1 USD"]


def test_a_players_lines_by_position_add_up_to_all(lab):
    lines = lab.tracker_player("C", "V")["lines"]
    assert lines["position"].to_list() == ["button", "small blind", "big blind", "all"]
    every = _row(lines, position="all")
    parts = lines.filter(lines["position"] != "all")
    for column in ("hands", "vpip_n", "vpip_of", "pfr_n", "aggressive", "calls"):
        assert parts[column].sum() == every[column]
    assert sum(parts["net"].to_list()) == every["net"] == Decimal("-13")
    net = lab.tracker_player("A", "V")["net"]
    assert net["hand"].to_list() == [1, 2, 3]  # hand 4 has no record; in the order played
    assert net["net"].to_list() == [Decimal("4"), Decimal("14"), Decimal("13.5")]


@pytest.mark.parametrize(
    ("seats", "positions"),
    [
        (2, ["big blind", "button"]),
        (3, ["small blind", "big blind", "button"]),
        (4, ["small blind", "big blind", "late", "button"]),
        (6, ["small blind", "big blind", "early", "middle", "late", "button"]),
        (9, ["small blind", "big blind", "early", "early", "middle", "middle", "late", "late", "button"]),
    ],
)
def test_positions_by_table_size(seats, positions):
    con = duckdb.connect()
    con.sql((VIEWS_DIR / "macros.sql").read_text())
    found = con.sql(
        f"SELECT list(seat_position(s, {seats}) ORDER BY s) FROM range({seats}) AS t(s)"
    ).fetchall()
    assert found[0][0] == positions


def test_every_seat_is_counted_once_with_chips_conserved_on_real_format_hands(tmp_path):
    ingest([VALID, HANDS], Warehouse(tmp_path), run_id="both")
    con = connect(tmp_path)
    seats, players = con.sql("SELECT (SELECT count(*) FROM tracker_seats), count(*) FROM players").fetchall()[
        0
    ]
    assert seats == players
    net, rake = con.sql(
        "SELECT sum(net_currency), (SELECT sum(in_currency(rake, amount_decimals)) FROM hands "
        "WHERE record <> 'unchecked') FROM tracker_seats WHERE counted"
    ).fetchall()[0]
    assert net == -rake


def test_the_derived_rows_follow_the_runs(tmp_path):
    ingest([HANDS], Warehouse(tmp_path), run_id="one")
    with scooplab.open(tmp_path) as lab:
        assert lab.tracker()["hands"].sum() == 15
    derived = sorted(p.name for p in (tmp_path / tracker.DERIVED).iterdir())
    assert derived == ["run=one.json", "run=one.parquet"]
    ingest([VALID], Warehouse(tmp_path), run_id="two")  # a new run is counted when asked
    seats = Warehouse(tmp_path).read("players").num_rows
    assert seats > 15
    with scooplab.open(tmp_path) as lab:
        assert lab.tracker()["hands"].sum() == seats
    Warehouse(tmp_path).remove_run("one")  # a removed run's rows go with it
    with scooplab.open(tmp_path) as lab:
        assert lab.tracker()["hands"].sum() == seats - 15
    assert not (tmp_path / tracker.DERIVED / "run=one.parquet").exists()
    assert not (tmp_path / tracker.TOTALS / "run=one.parquet").exists()
    assert (tmp_path / tracker.TOTALS / "run=two.parquet").exists()
    from ingest.histories.parallel import _drop

    hands = Warehouse(tmp_path).read("hands").to_pylist()
    first = hands[0]
    _drop(Warehouse(tmp_path), first["variant"], "two", Path(Warehouse(tmp_path).files("hands")[0]).stem,
          [first["hand_id"]])  # a file written again under its name  # fmt: skip
    with scooplab.open(tmp_path) as lab:
        assert lab.tracker()["hands"].sum() == seats - 15 - first["n_players"]
    manifest = tmp_path / tracker.DERIVED / "run=two.json"
    manifest.write_text(json.dumps({"version": 0, "sources": []}))  # an older definition: counted again
    with scooplab.open(tmp_path) as lab:
        assert lab.tracker()["hands"].sum() == seats - 15 - first["n_players"]
    assert json.loads(manifest.read_text())["version"] == tracker.TRACKER_VERSION


def test_the_players_command(tmp_path):
    ingest([HANDS], Warehouse(tmp_path), run_id="cash")
    runner = CliRunner()
    out = runner.invoke(app, ["players", "--data", str(tmp_path), "--format", "json"])
    assert out.exit_code == 0
    rows = json.loads(out.stdout)
    assert {(r["venue"], r["player"]) for r in rows} == {(v, p) for v in "VW" for p in "ABC"}
    one = runner.invoke(app, ["players", "--data", str(tmp_path), "--player", "C", "--venue", "V"])
    assert one.exit_code == 0 and "small blind" in one.stdout and "-13 USD" in one.stdout
    bad = runner.invoke(app, ["players", "--data", str(tmp_path), "--since", "2010-13-01"])
    assert bad.exit_code == 2 and "is not a day" in bad.stderr
    nobody = runner.invoke(app, ["players", "--data", str(tmp_path), "--player", "Z"])
    assert nobody.exit_code == 2 and "no hands with betting of 'Z'" in nobody.stderr
