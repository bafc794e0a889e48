"""Compiles said and kept apart from rates (scooplab.cli.progress, `scooplab simulate`): a notice on
standard error as numba starts compiling, none for what it already has, and a run's rate over the
time dealing, with the compile said apart."""

import json

from numba import njit
from typer.testing import CliRunner

import ingest.generation.simulation as simulation
from scooplab.cli import app
from scooplab.cli.progress import NOTICE, compile_notices

runner = CliRunner()


def test_a_compile_is_said_as_it_starts_and_timed(capsys):
    add_one = njit(lambda x: x + 1)  # a function numba has never compiled (nor cached)
    with compile_notices() as compiles:
        assert add_one(1) == 2
        add_one(2)
    assert capsys.readouterr().err == NOTICE + "\n"
    assert compiles.count == 1 and compiles.seconds > 0
    with compile_notices() as again:
        add_one(3)  # compiled already: nothing said
    assert again.count == 0 and capsys.readouterr().err == ""


def test_a_run_says_its_compile_apart_from_its_rate(tmp_path, monkeypatch):
    warm_up = simulation.warm_up

    def compiling_warm_up(spec):  # as on a first run: the warm-up compiles
        njit(lambda x: x * 2)(3)
        warm_up(spec)

    monkeypatch.setattr(simulation, "warm_up", compiling_warm_up)
    args = ["simulate", "--variant", "holdem", "--hands", "2000", "--players", "3", "--seed", "1",
            "--workers", "1", "--data", str(tmp_path)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert NOTICE in result.stderr
    line = result.stdout.strip()
    assert line.startswith("run ") and ", seed 1" in line
    rate, note = line.split(" hands/s")  # the rate, then the compile apart from it
    assert rate.split(", ")[-1].replace(",", "").isdigit()
    assert note.startswith(" (after ") and note.endswith(" s compiling the kernels, not counted), seed 1")
    summary = json.loads(runner.invoke(app, [*args, "--run-id", "again", "--format", "json"]).stdout)
    assert summary["hands"] == 2000 and summary["warm_up_seconds"] > 0 and summary["hands_per_second"] > 0
