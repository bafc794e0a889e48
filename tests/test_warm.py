"""The install-time compile (scooplab.warm, #52 item 15): every game the compiled core plays is warmed
in both phases once, in units of games whose kernels are compiled for one type of tables, and a game
that cannot be warmed is said, never an install's failure."""

from __future__ import annotations

from engine.rules.games import GAMES
from scooplab import warm


def test_every_compiled_game_is_warmed_in_each_phase_once_with_games_of_its_tables_type():
    names = warm.games_to_warm()
    assert sorted(names) == sorted(n for n, g in GAMES.items() if not g.compiled_gaps)
    work = warm.units(names)
    phases = sorted((name, phase) for games, unit_phases in work for name in games for phase in unit_phases)
    assert phases == sorted((name, phase) for name in names for phase in (warm.SHOWDOWN, warm.BETTING))
    for games, _ in work:  # the kernels are compiled for a type of tables: one type a unit
        assert len({warm.tables_type(name) for name in games}) == 1, games
    assert warm.tables_type("holdem") != warm.tables_type("razz")  # (ace-to-five's one table)
    assert work[0][1] == (warm.BETTING,) and len(work[0][0]) == max(len(games) for games, _ in work)


def test_a_game_that_cannot_be_warmed_is_said_not_raised():
    name, seconds, stopped = warm.warm_game("no-such-game")
    assert name == "no-such-game" and seconds >= 0 and stopped and "no-such-game" in stopped
