"""The install-time compile (scooplab.warm, #52 item 15): every game the compiled core plays is warmed
once, by families of one shape (one process compiles a family's kernels), and a game that cannot be
warmed is said, never an install's failure."""

from __future__ import annotations

from engine.rules.games import GAMES
from scooplab import warm


def test_every_compiled_game_is_warmed_once_in_a_family_of_its_shape():
    names = warm.games_to_warm()
    assert sorted(names) == sorted(n for n, g in GAMES.items() if not g.compiled_gaps)
    grouped = warm.families(names)
    assert sorted(n for family in grouped for n in family) == sorted(names)
    for family in grouped:  # one shape a family: the same boards, kinds of streets and ranking
        shapes = {
            (len(GAMES[n].boards), GAMES[n].ranking, GAMES[n].discard_board is not None) for n in family
        }
        assert len(shapes) == 1, family
    assert any({"scarney", "scarney-hi-lo"} <= set(f) for f in grouped)  # one shape: compiled together


def test_a_game_that_cannot_be_warmed_is_said_not_raised():
    name, seconds, stopped = warm.warm_game("no-such-game")
    assert name == "no-such-game" and seconds >= 0 and stopped and "no-such-game" in stopped
