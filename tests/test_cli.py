"""The scooplab command line: help texts, eval and rankings, errors."""

import json
import re
import subprocess
import sys
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scooplab.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_help_lists_every_subcommand_and_each_has_an_example():
    result = invoke("--help")
    assert result.exit_code == 0
    commands = [c.name for c in app.registered_commands]
    assert commands
    for command in commands:
        assert command in result.output
        sub = invoke(command, "--help")
        assert sub.exit_code == 0
        assert "Examples" in sub.output
        assert any(line.strip().startswith(f"• scooplab {command} ") for line in sub.output.splitlines())


def test_eval_holdem_json():
    result = invoke("eval", "--game", "holdem", "AhKh", "QhJhTh2c3d", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["category"] == "straight flush"
    assert data["description"] == "straight flush, A high"


def test_eval_scarney_reports_high_and_low():
    result = invoke("eval", "-g", "scarney", "2c3d4h5s6c7d", "AhKhQhJhTh", "--format", "json")
    data = json.loads(result.output)
    assert data["category"] == "straight flush"
    assert data["low_points"] == 2 + 3 + 4 + 5 + 6 + 7
    forced = json.loads(
        invoke(
            "eval",
            "-g",
            "scarney",
            "--must-use-hole-card",
            "2c3d4h5s6c7d",
            "AhKhQhJhTh",
            "--format",
            "json",
        ).output
    )
    assert forced["description"] == "flush, A K Q J 4"


def test_eval_skoejarth_table():
    result = invoke("eval", "-g", "skoejarth", "KbKcKo", "Ks1b")
    assert result.exit_code == 0
    assert "Four Kings" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "AhAh2c3d4s"], "'Ah' appears twice"),
        (["eval", "Ah1x2c3d4s"], "'1x' is not a card of the standard deck"),
        (["eval", "-g", "skoejarth", "Ah2b3b4b5b"], "'Ah' is not a card of the Skœjarth deck"),
        (["eval", "AhKd"], "'AhKd' has 2 cards; a holdem hand is evaluated from 5 to 11 cards"),
        (
            ["eval", "-g", "scarney", "AhKd", "QhJhTh9h"],
            "Top Board holds 5 cards at showdown, 'QhJhTh9h' has 4",
        ),
        (["eval", "-g", "scarney", "AhKdQc2s3s4s5s", "QhJhTh9h8h"], "has 7 cards, more than 6"),
        (["eval", "-g", "scarney", "AhKdQc2s3s4s5s"], "Scarney takes two card lists"),
        (["eval", "-g", "scarney", "", "AhKhQhJhTh"], "no hole cards left is dead"),
        (["eval", "--tiebreak", "kickers", "AhKhQhJhTh"], "--tiebreak is a Skœjarth option"),
        (
            ["eval", "--must-use-hole-card", "AhKhQhJhTh"],
            "--must-use-hole-card is a Scarney or Scarney Hi-Lo option",
        ),
    ],
)
def test_eval_errors_are_one_line_with_exit_code_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]
    assert lines[0].startswith("scooplab: error: ")


def test_rankings_json_counts_every_set_and_flags_rank_against_rarity():
    result = invoke("rankings", "--game", "skoejarth", "--cards", "7", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["total"] == comb(28, 7) == sum(c["count"] for c in data["categories"])
    by_name = {c["category"]: c for c in data["categories"]}
    assert by_name["Orphan"]["count"] == 0
    assert "Fourfold" in by_name["Stairs"]["more_common_than"]


def test_rankings_rejects_an_out_of_range_card_count():
    assert invoke("rankings", "--cards", "9").exit_code == 2


def test_installed_entry_point_runs():
    script = Path(sys.executable).parent / "scooplab"
    result = subprocess.run(
        [str(script), "eval", "As2d3h4c5s", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["category"] == "straight"


NO_PANDAS_RUN = """
import sys
from scooplab.cli import run
sys.argv = ["scooplab", "ingest", sys.argv[1], "--data", sys.argv[2]]
try:
    run()
except SystemExit as exit:
    assert not exit.code, exit.code
print("pandas loaded" if "pandas" in sys.modules else "no pandas")
"""


def test_the_command_ingests_without_loading_pandas(tmp_path):
    """pyarrow would import pandas (0.2 s) on its first array; the command stores the hand without it."""
    phh = Path(__file__).parent / "fixtures" / "phh" / "dwan-ivey-2009.phh"
    data = tmp_path / "wh"
    command = [sys.executable, "-c", NO_PANDAS_RUN, str(phh), str(data)]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "no pandas"
    assert "1 hands stored" in result.stdout and list((data / "hands").rglob("*.parquet"))


def test_ingest_of_nothing_to_read_fails_and_records_no_run(tmp_path):
    data = tmp_path / "wh"
    result = invoke("ingest", str(tmp_path / "nosuch.phh"), "--data", str(data))
    assert result.exit_code == 2 and "no such file or folder" in result.output
    (tmp_path / "empty").mkdir()
    result = invoke("ingest", str(tmp_path / "empty"), "--data", str(data))
    assert result.exit_code == 2 and "no hand histories" in result.output
    assert not (data / "runs").exists()


def test_ingest_says_its_size_then_files_and_hands_read_in_plain_lines_off_a_terminal(tmp_path, monkeypatch):
    import scooplab.cli.ingest as command

    monkeypatch.setattr(command, "PROGRESS_EVERY", 0.0)  # a line at every step (they are seconds apart)
    fixtures = Path(__file__).parent / "fixtures"
    one_hand = sorted((fixtures / "phh").rglob("*.phh"))
    size = sum(path.stat().st_size for path in one_hand)
    for sources, files, hands in (
        ([fixtures / "phh"], len(one_hand), len(one_hand)),
        ([*one_hand, fixtures / "money" / "tracker.phhs"], len(one_hand) + 1, None),
    ):
        result = invoke("ingest", *map(str, sources), "--data", str(tmp_path / "wh"), "--format", "json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        read = report["hands"] + report["rejected"] + report["duplicates"]
        lines = result.stderr.splitlines()
        if hands is not None:  # each file a hand: the hands are known before they are read
            assert lines[0] == f"ingesting {files} files ({size / 1000:,.0f} kB, {hands} hands)"
        else:
            assert re.fullmatch(rf"ingesting {files} files \([0-9,]+ kB\)", lines[0]), lines[0]
        progress = [line for line in lines if line.startswith("ingesting: ")]
        of = f" of {hands}" if hands is not None else ""
        assert (
            len(progress) > 2 and progress[-1] == f"ingesting: {read:,}{of} hands, {files} of {files} files"
        )
        assert report["hands_per_second"] > 0 and report["seconds"] >= report["compile_seconds"] >= 0


def test_ingest_where_every_hand_is_rejected_exits_3_and_says_how_to_list_reasons(tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text('variant = "NT"\n')
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = invoke("ingest", str(bad), str(binary), "--data", str(tmp_path / "wh"))
    assert result.exit_code == 3, result.output
    assert "every hand was rejected" in result.output and "FROM rejects" in result.output
    # the reasons counted, numbers and quoted values folded: one line for both files' kinds
    assert re.search(r"^\s+1\s+the field starting_stacks is missing$", result.output, re.MULTILINE)
    from ingest.storage.warehouse import Warehouse

    rejects = {r["source_file"]: r["raw"] for r in Warehouse(tmp_path / "wh").read("rejects").to_pylist()}
    assert rejects[str(bad)] == 'variant = "NT"\n' and rejects[str(binary)] is None  # text only


def test_reasons_fold_numbers_but_keep_the_variant_codes_they_name(tmp_path):
    for k, variant in enumerate(("5CD", "XYZ")):  # codes no game plays: listed beside the codes played
        text = f'variant = "{variant}"\nstarting_stacks = [200, 1]\nactions = []\n'
        (tmp_path / f"{k}.phh").write_text(text)
    result = invoke("ingest", str(tmp_path), "--data", str(tmp_path / "wh"))
    assert result.exit_code == 3, result.output
    line = r"^\s+2\s+unknown variant '…'; scooplab plays .*F2L3D, .*F7S, F7S/8, .*FB, .*FO/8"
    assert re.search(line, result.output, re.MULTILINE)


def test_stats_of_an_unknown_run_and_a_zero_stake_name_the_problem(tmp_path):
    result = invoke("stats", "--variant", "scarney", "--run", "nosuch", "--data", str(tmp_path))
    assert result.exit_code == 2 and "no scarney run 'nosuch'" in result.output
    result = invoke("simulate", "-v", "holdem", "--stake", "0", "--hands", "9", "--data", str(tmp_path))
    assert result.exit_code == 2 and "--stake must be positive" in result.output


def test_stats_brief_shows_only_game_wide_rates_and_a_first_run_says_it_compiles(tmp_path, capsys):
    from ingest.generation.simulation import SimSpec, simulate
    from scooplab.cli.common import compiling_notice

    simulate(SimSpec("holdem", 2_000, players=3, seed=1), str(tmp_path), run_id="h")
    result = invoke("stats", "--variant", "holdem", "--brief", "--data", str(tmp_path))
    assert result.exit_code == 0 and "Scoops: one player took every chip" in result.output
    assert "Hands at the showdown" not in result.output  # (categories: not game-wide)
    compiling_notice("no_such_kernel_module")
    assert "compiling the kernels (first run only" in capsys.readouterr().err
    compiling_notice("sim_kernels")  # compiled by the simulation above: nothing said
    assert capsys.readouterr().err == ""


def test_stats_rule_picks_the_rule_set_and_the_others_are_listed(tmp_path):
    from ingest.generation.simulation import SimSpec, simulate

    for run, hole in (("four", 4), ("five", 5)):
        simulate(SimSpec("cry-me-a-river-omaha", 600 if hole == 4 else 400, players=3, seed=1,
                         options={"hole_cards": hole}), str(tmp_path), run_id=run)  # fmt: skip
    result = invoke("stats", "-v", "cry-me-a-river-omaha", "--rule", "hole_cards=5", "--format", "json",
                    "--data", str(tmp_path))  # fmt: skip
    stats = json.loads(result.output)
    assert stats["hands"] == 400 and stats["population"]["changed"] == "hole_cards=5"
    result = invoke("stats", "-v", "cry-me-a-river-omaha", "--format", "json", "--data", str(tmp_path))
    assert json.loads(result.output)["hands"] == 600  # the largest rule set alone, not 1,000 blended
    result = invoke("stats", "-v", "cry-me-a-river-omaha", "--brief", "--data", str(tmp_path))
    assert result.exit_code == 0
    assert "other populations (--mode, --players, --structure, --rule, --play): showdown mode (all in), " \
           "3 players, hole_cards=5 (400)" in result.output  # fmt: skip
    result = invoke("stats", "-v", "cry-me-a-river-omaha", "--rule", "hole_cards=5", "--brief", "--data",
                    str(tmp_path))  # fmt: skip
    # the one not shown is listed, not the one shown
    assert "other populations (--mode, --players, --structure, --rule, --play): showdown mode (all in), " \
           "3 players (600)" in result.output  # fmt: skip
    result = invoke("stats", "-v", "cry-me-a-river-omaha", "--rule", "hole_cards=6", "--data", str(tmp_path))
    assert result.exit_code == 2 and "hole_cards" in result.output and "Traceback" not in result.output


def test_a_wide_query_result_is_shown_one_row_at_a_time(tmp_path):
    result = invoke("query", "SELECT 1 AS " + ", 2 AS ".join(f"column_number_{i}" for i in range(12)),
                    "--data", str(tmp_path))  # fmt: skip
    assert result.exit_code == 0 and "-- row 1 --" in result.output
    assert "column_number_11" in result.output and "…" not in result.output


def test_numba_keeps_its_cache_where_engine_points_it():
    """Nothing imports numba before ``engine`` names the cache folder (stale machine code otherwise)."""
    import importlib
    import os
    import subprocess as sp

    importlib.import_module("engine")  # first, as every scooplab module imports it before numba
    numba = importlib.import_module("numba")
    assert numba.config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"] != ""
    # and in a fresh pytest process, whose start-up (say, its warning filters) must not import numba
    collect = "['--co', '-q', '-p', 'no:cacheprovider', 'engine/rules/pots.py']"
    probe = f"import _pytest.config as c; c.main({collect});"
    code = probe + "import os, numba; print(numba.config.CACHE_DIR == os.environ['NUMBA_CACHE_DIR'])"
    result = sp.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1]
    )
    assert result.stdout.strip().endswith("True"), result.stdout[-300:]
