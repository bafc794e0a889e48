"""The SQL views give showdown-mode hands (stored wide) the documented players and actions columns."""

import pytest

from analytics.db import connect
from engine.games import GAMES
from engine.games.base import Structure
from engine.simulate import random_words, simulate_chunk, words_per_hand
from ingest.replay import Replay
from ingest.rows import HandRows
from ingest.simulation import SimSpec, simulate
from ingest.warehouse import Warehouse
from tests.test_simulate_agreement import play_through_state_machine

COMPARED = [
    "hole_cards", "final_hole_cards", "discarded", "discarded_cards", "dead", "folded", "showdown",
    "starting_stack", "finishing_stack", "net", "won", "high_category", "high_strength", "low_points",
    "won_high", "won_low", "board_won", "scoop", "triple_scoop",
]  # fmt: skip


@pytest.mark.parametrize("name", sorted(GAMES))
def test_players_view_of_simulated_hands_matches_the_state_machine(tmp_path, name):
    game = GAMES[name]
    players = 3 if name != "scarney" else 2  # heads-up Scarney: dead hands and early ends are common
    spec = SimSpec(name, 400, players=players, seed=12, shard_size=400)
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
