"""The compiled tracker count (``analytics.tracker_kernel``) held equal to the SQL views it replaces
(``tracker_lines``, ``tracker_reached``), row for row: on hands replayed from real formats, on hands
simulated in betting mode of games whose first bet and first raise fall in different rounds, and on
random streams of actions that no game would write (moves on unknown streets and games, automatic
moves, several bets a round). Actions stored out of order are left to the views, and still counted
right."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scooplab
from analytics import tracker, tracker_kernel
from analytics.db import connect
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse

MONEY = Path(__file__).parent / "fixtures" / "money"
SITES = Path(__file__).parent / "fixtures" / "sites"
# (game, players): skoejarth bets first on fan and raises first on trunk; razz opens with a bring-in
SIMULATED = (("holdem", 6), ("skoejarth", 4), ("razz", 5), ("deuce-to-seven-triple-draw", 3))
FILLED = ", ".join(
    f"coalesce({c}, 0) AS {c}" for c in (*tracker_kernel.CHANCES, *tracker_kernel.MOVES)
)  # the views' bool_or is null where every round compared was null; the seat rows count it 0


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("tracker-kernel")
    ingest([*MONEY.glob("*.phhs"), *sorted(SITES.iterdir())], Warehouse(data), run_id="real")
    with scooplab.open(data) as lab:
        for game, players in SIMULATED:
            lab.simulate(game, 300, players=players, seed=3, mode="betting", run_id=f"sim-{game}")
    return data


def _compiled(con) -> tuple[pa.Table, pa.Table]:
    parts = list(tracker_kernel.streamed(con))
    return pa.concat_tables([p[0] for p in parts]), pa.concat_tables([p[1] for p in parts])


def _differences(con, ours: str, views: str) -> tuple[int, int, int]:
    """Rows of each side, and rows of ours not in the views' (and the other way), as multisets."""
    counts = [con.sql(f"SELECT count(*) FROM ({q})").fetchall()[0][0] for q in (ours, views)]
    apart = con.sql(f"SELECT count(*) FROM (({ours}) EXCEPT ALL ({views}))").fetchall()[0][0]
    apart += con.sql(f"SELECT count(*) FROM (({views}) EXCEPT ALL ({ours}))").fetchall()[0][0]
    return counts[0], counts[1], apart


def _equal_to_views(con) -> int:
    lines, reached = _compiled(con)
    con.register("compiled_lines", lines)
    con.register("compiled_reached", reached)
    keys = "hand_id, seat, folded_in"
    ours, theirs, apart = _differences(
        con, f"SELECT {keys}, {FILLED} FROM compiled_lines", f"SELECT {keys}, {FILLED} FROM tracker_lines"
    )
    assert ours == theirs and apart == 0
    ours_r, theirs_r, apart_r = _differences(
        con, "SELECT * FROM compiled_reached", "SELECT * FROM tracker_reached"
    )
    assert ours_r == theirs_r and apart_r == 0
    return ours


def test_each_game_and_format_counts_as_the_views_do(warehouse):
    con = connect(warehouse)
    by_game = dict(
        con.sql("SELECT variant, count(DISTINCT hand_id) FROM actions_raw GROUP BY ALL").fetchall()
    )
    assert {game for game, _ in SIMULATED} <= set(by_game) and len(by_game) > len(SIMULATED)
    assert _equal_to_views(con) > 1000
    # the seat chances are not all 0: the comparison compares something
    took = con.sql("SELECT sum(three_bet), sum(cbet), sum(fold_to_cbet), sum(vpip) FROM tracker_lines")
    assert all(n > 0 for n in took.fetchall()[0])


def test_a_batch_ending_inside_a_hand_carries_it_to_the_next(warehouse, monkeypatch):
    monkeypatch.setattr(tracker_kernel, "BATCH_ROWS", 7)  # every batch cuts a hand
    assert _equal_to_views(connect(warehouse)) > 1000


def test_the_derived_rows_equal_the_view(warehouse, tmp_path):
    made = tmp_path / "seats.parquet"
    tracker._derive(Warehouse(warehouse), "sim-skoejarth", made, {"version": 0, "sources": []})
    con = connect(warehouse, only_paths=["/run=sim-skoejarth/"])
    ours, theirs, apart = _differences(
        con, f"SELECT * FROM read_parquet('{made}')", "SELECT * FROM tracker_seats"
    )
    assert ours == theirs > 0 and apart == 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]  # its temporary files gone


def test_actions_out_of_order_are_left_to_the_views(warehouse, tmp_path):
    con = connect(warehouse)
    con.sql("CREATE TABLE shuffled AS SELECT * FROM actions_raw ORDER BY hash(hand_id, seq)")
    con.sql("CREATE OR REPLACE VIEW actions_raw AS SELECT * FROM shuffled")
    with pytest.raises(tracker_kernel.NotInOrder):
        _compiled(con)
    lines, reached = tmp_path / "lines.parquet", tmp_path / "reached.parquet"
    tracker._compiled_lines(con, lines, reached)  # the views stay the SQL ones
    assert (
        "read_parquet"
        not in con.sql("SELECT sql FROM duckdb_views() WHERE view_name = 'tracker_lines'").fetchall()[0][0]
    )


@cache
def _empty():
    """One connection over no warehouse, whose actions each example replaces."""
    return connect("/nonexistent-warehouse")


ACTIONS = st.sampled_from(["fold", "check", "call", "bet", "raise", "post", "deal", "show"])
STREETS = st.sampled_from(["preflop", "flop", "turn", "river", "fan", "trunk", "flower", "nowhere", None])
GAMES = st.sampled_from(["holdem", "skoejarth", "no-such-game"])


@st.composite
def action_streams(draw) -> pa.Table:
    """Hands of random moves (hands contiguous, sequence numbers rising), whatever a game allows."""
    rows: dict[str, list] = {
        k: [] for k in ("hand_id", "seq", "seat", "action", "automatic", "street", "variant")
    }
    for hand in range(draw(st.integers(1, 6))):
        game = draw(GAMES)
        for seq in range(draw(st.integers(1, 30))):
            rows["hand_id"].append(f"h{hand}")
            rows["seq"].append(seq)
            rows["seat"].append(draw(st.integers(0, 3)))
            rows["action"].append(draw(ACTIONS))
            rows["automatic"].append(draw(st.booleans()) and draw(st.booleans()))
            rows["street"].append(draw(STREETS))
            rows["variant"].append(game)
    types = {"seq": pa.int16(), "seat": pa.int8(), "automatic": pa.bool_()}
    return pa.table({k: pa.array(v, types.get(k, pa.string())) for k, v in rows.items()})


@settings(max_examples=60, deadline=None)
@given(action_streams())
def test_random_streams_of_moves_count_as_the_views_do(actions):
    con = _empty()
    con.register("random_actions", actions)
    con.sql("CREATE OR REPLACE VIEW actions_raw AS SELECT * FROM random_actions")
    _equal_to_views(con)
