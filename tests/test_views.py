"""The SQL views give showdown-mode hands (stored wide) the documented players and actions columns."""

import pytest

from analytics.db import connect
from engine.compiled.simulate import random_words, simulate_chunk, words_per_hand
from engine.rules.games import GAMES
from engine.rules.games.base import Structure
from ingest.generation.simulation import SimSpec, simulate
from ingest.histories.replay import Replay
from ingest.histories.rows import HandRows
from ingest.storage.warehouse import Warehouse
from tests.test_simulate_agreement import play_through_state_machine

COMPARED = [
    "hole_cards", "final_hole_cards", "discarded", "discarded_cards", "dead", "folded", "showdown",
    "starting_stack", "finishing_stack", "net", "won", "high_category", "high_strength", "low_points",
    "won_high", "won_low", "board_won", "scoop", "triple_scoop",
]  # fmt: skip

COMPILED_GAMES = sorted(n for n, g in GAMES.items() if not g.compiled_gaps)  # the rest: tests/test_stud.py


@pytest.mark.parametrize("stake", [100, 1])  # 1: some parts of a pot are worth no chip
@pytest.mark.parametrize("name", COMPILED_GAMES)
def test_players_view_of_simulated_hands_matches_the_state_machine(tmp_path, name, stake):
    game = GAMES[name]
    players = 3 if name != "scarney" else 2  # heads-up Scarney: dead hands and early ends are common
    spec = SimSpec(name, 400, players=players, seed=12, shard_size=400, stake=stake)
    simulate(spec, str(tmp_path), run_id="v")
    view = connect(tmp_path).sql("SELECT * FROM players").pl().to_dicts()
    rows = {(r["hand_id"], r["seat"]): r for r in view}
    # the same hands dealt again from the shard's generator, played by the state machine
    spec = spec.check()
    u = random_words(spec.generator(0), 400, words_per_hand(game, players, spec.options))
    batch = simulate_chunk(game, players, spec.stake, spec.options, u)
    expected = HandRows()
    for h in range(len(batch)):
        state, result = play_through_state_machine(batch, h)
        expected.add(Replay({"variant": "x"}, game, Structure.NO_LIMIT, state, result),
                     hand_id=f"v:0:{h}", run_id="v", source="simulation", source_file=None,
                     hand_index=h, phh_text="")  # fmt: skip
    hands = {r["hand_id"]: r for r in connect(tmp_path).sql("SELECT * FROM hands").pl().to_dicts()}
    for row in expected.hands.to_arrow().to_pylist():
        ours = hands[row["hand_id"]]
        for column in ("boards", "surviving_boards", "ending", "showdown", "pot", "n_players", "notes"):
            assert ours[column] == row[column], (name, row["hand_id"], column)
    # the statistics views agree whichever way a hand is stored (wide, or row by row)
    other = Warehouse(tmp_path / "rows")
    for table_name in ("hands", "players", "actions"):
        other.write(table_name, name, "v", getattr(expected, table_name).to_arrow(), name="part")
    for view, order in (("hand_outcomes", "hand_id"), ("showdown_seats", "hand_id, seat")):
        columns = "* EXCLUDE (source, structure)"
        wide = connect(tmp_path).sql(f"SELECT {columns} FROM {view} ORDER BY {order}").fetchall()
        by_rows = connect(tmp_path / "rows").sql(f"SELECT {columns} FROM {view} ORDER BY {order}").fetchall()
        assert wide == by_rows, (name, view)
    table = expected.players.to_arrow().to_pylist()
    assert len(table) == len(rows) == 400 * players
    for row in table:
        ours = rows[(row["hand_id"], row["seat"])]
        for column in COMPARED:
            assert ours[column] == row[column], (name, row["hand_id"], row["seat"], column)


def test_actions_view_lists_stakes_and_scarney_discards(tmp_path):
    simulate(SimSpec("scarney", 300, players=2, seed=3, shard_size=300), str(tmp_path), run_id="a")
    con = connect(tmp_path)
    posts = con.sql("SELECT count(*) FROM actions WHERE action = 'post'").fetchall()[0][0]
    assert posts == 600
    discarded = con.sql("SELECT sum(length(cards)) / 2 FROM actions WHERE action = 'discard'").fetchall()[0][
        0
    ]
    assert discarded == con.sql("SELECT sum(discarded) FROM players").fetchall()[0][0] > 0
    seqs = con.sql("SELECT hand_id, list(seq ORDER BY seq) FROM actions GROUP BY hand_id").fetchall()
    assert all(s == list(range(len(s))) for _, s in seqs)


@pytest.mark.parametrize("name", COMPILED_GAMES)
def test_showdown_mode_parquet_reads_without_scooplab(tmp_path, name):
    """Plain Polars over the files: cards as PHH text, winnings as lists of chips, no private codes."""
    import polars as pl

    game = GAMES[name]
    simulate(SimSpec(name, 300, players=3, seed=5, shard_size=300), str(tmp_path), run_id="p")
    hands = pl.read_parquet(tmp_path / "hands" / "**" / "*.parquet", hive_partitioning=False)
    card = f"[{game.deck.ranks}][{game.deck.suits}]"
    n_hole = sum(street.hole_cards for street in game.streets)
    assert hands.schema["seat_hole"] == pl.List(pl.String) and hands.schema["boards"] == pl.List(pl.String)
    assert hands["seat_hole"].list.len().eq(3).all() and hands["seat_won"].list.len().eq(3).all()
    seats = hands["seat_hole"].explode()
    assert seats.str.contains(f"^({card}){{{n_hole}}}$").all(), seats.head(3)
    assert hands["boards"].list.len().eq(len(game.boards)).all()
    assert hands["boards"].explode().str.contains(f"^({card})*$").all()
    assert (hands["seat_won"].list.sum() == hands["pot"]).all()  # every chip of every pot, per seat
    dealt = hands.select(
        pl.concat_str([pl.col("seat_hole").list.join(""), pl.col("boards").list.join("")]).alias("cards")
    )["cards"]
    assert all(len(set(c[i : i + 2] for i in range(0, len(c), 2))) == len(c) // 2 for c in dealt)
    assert hands["surviving_boards"].list.len().ge(1).all()
    if game.discard_board is not None:
        fates = hands["seat_discard_street"].explode().explode()
        assert fates.is_between(0, len(game.streets) - 1).all() and (fates > 0).any()
    else:
        assert hands["seat_discard_street"].is_null().all()
    players = connect(tmp_path).sql("SELECT hand_id, seat, hole_cards FROM players").pl()
    stored = hands.select("hand_id", pl.col("seat_hole")).explode("seat_hole")["seat_hole"].to_list()
    if game.draws:  # every card dealt: the first ones, then those drawn; held at the end, once each
        rows = hands.select("seat_hole", "seat_received", "seat_final_hole").to_dicts()
        stored = [hole + "".join(drawn) for row in rows
                  for hole, drawn in zip(row["seat_hole"], row["seat_received"], strict=True)]  # fmt: skip
        held = ["".join(row["seat_final_hole"]) for row in rows]
        assert all(len(set(c[i : i + 2] for i in range(0, len(c), 2))) == len(c) // 2 for c in held)
    assert sorted(stored) == sorted(players["hole_cards"].to_list())


def test_runs_of_an_older_seat_layout_are_left_out_with_a_message(tmp_path, capsys):
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    simulate(SimSpec("holdem", 100, players=2, seed=1, shard_size=100), str(tmp_path), run_id="new")
    simulate(SimSpec("holdem", 100, players=2, seed=2, shard_size=100), str(tmp_path), run_id="old")
    warehouse = Warehouse(tmp_path)
    (manifest,) = [f for f in warehouse.files("runs") if "/run=old/" in f]
    runs = pq.read_table(manifest)
    details = json.loads(runs["details"][0].as_py())
    details.pop("seat_layout")  # as an earlier scooplab wrote it
    runs = runs.set_column(runs.schema.get_field_index("details"), "details", pa.array([json.dumps(details)]))
    pq.write_table(runs, manifest)
    (hands_file,) = [f for f in warehouse.files("hands") if "/run=old/" in f]
    pq.write_table(pa.table({"hand_id": ["old:0:0"], "seat_hole": ["0c<4"]}), hands_file)  # card codes
    con = connect(tmp_path)
    assert con.sql("SELECT DISTINCT run_id FROM players").fetchall() == [("new",)]
    assert con.sql("SELECT count(*) FROM hands").fetchall() == [(100,)]
    message = capsys.readouterr().err
    assert "left out 1 showdown-mode run(s) stored in an older layout" in message and "old" in message
    with pytest.raises(ValueError, match="seat layout"):  # and it is not resumed into the new layout
        simulate(SimSpec("holdem", 100, players=2, seed=2, shard_size=100), str(tmp_path), run_id="old")


def test_hands_files_written_before_the_seat_columns_existed_still_read(tmp_path):
    """A replayed hand stored by an earlier scooplab lacks the newer columns: they read as null."""
    import pyarrow.parquet as pq

    from ingest.histories.pipeline import ingest
    from tests.test_ingest import FIXTURES

    ingest([FIXTURES / "phh"], Warehouse(tmp_path), run_id="phh")
    newer = ("scoop", "triple_scoop", "seat_discard_street", "seat_won_low", "seat_board_won")
    for path in Warehouse(tmp_path).files("hands"):
        table = pq.read_table(path)
        pq.write_table(table.drop_columns(list(newer)), path)
    con = connect(tmp_path)
    hands = con.sql("SELECT count(*) FROM hands").fetchall()[0][0]
    assert hands > 0 and con.sql("SELECT count(*) FROM hand_outcomes").fetchall()[0][0] == hands
    assert con.sql("SELECT count(*) FROM players WHERE hole_cards IS NOT NULL").fetchall()[0][0] > 0
