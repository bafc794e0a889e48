"""The designer's workbench without a browser: saved descriptions and their versions, the check
beside each part, background jobs (cancelled, resumed, nothing left running), the limits, the
Workbench, Runs and game pages, and the CLI finding a saved game by name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analytics.stats import game_stats
from dashboards import jobs_view
from ingest.generation.simulation import SimSpec, simulate
from ingest.storage.descriptions import save_version, versions
from scooplab import designs, jobs
from scooplab.cli import app as cli
from tests.patience import wait_until
from tests.test_dashboard import app, game_page

runner = CliRunner()
FIVE = "scarney-five"


def five_hole_cards(root: Path | None = None, name: str = FIVE) -> str:
    """Scarney with five hole cards, as the Workbench derives and edits it."""
    text = designs.derive("scarney", root).replace("hole_cards = 6", "hole_cards = 5")
    return text.replace('name = "scarney-derived"', f'name = "{name}"')


def test_two_saves_at_once_keep_both_and_the_later_is_told(tmp_path):
    barrier, saved = threading.Barrier(8), []

    def save() -> None:
        barrier.wait()
        saved.append(save_version(tmp_path, "g", f"# {threading.get_ident()}\n", based_on=0))

    threads = [threading.Thread(target=save) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(s.version for s in saved) == list(range(1, 9))  # none overwritten
    assert {p.read_text() for p in versions(tmp_path, "g")} == {s.path.read_text() for s in saved}
    assert sum("saved already" in s.note for s in saved) == 7  # all but the first are told
    assert not [p for p in (tmp_path / "games" / "g").iterdir() if p.name.startswith(".")]


def test_a_saved_name_is_a_plain_folder_name(tmp_path):
    with pytest.raises(ValueError, match="lower-case letters"):
        save_version(tmp_path, "../outside", "x")
    assert not (tmp_path.parent / "outside").exists()


def test_each_problem_is_put_beside_its_part_and_fixing_it_clears_it(tmp_path):
    text = five_hole_cards(tmp_path)
    assert designs.check(text, tmp_path).ok
    crowded = designs.check(text.replace("players = [2, 6]", "players = [2, 10]"), tmp_path)
    assert crowded.at("players") == ["10 players x 5 hole cards + 10 board cards + 3 burns = 63: needs 63 "
                                     "cards, the deck has 52"]  # fmt: skip
    fixed = designs.check(text.replace("players = [2, 6]", "players = [2, 7]"), tmp_path)
    assert (
        fixed.ok
        and fixed.budget == "7 players x 5 hole cards + 10 board cards + 3 burns = 48: fits the 52-card deck"
    )
    taken = designs.check(text.replace(f'name = "{FIVE}"', 'name = "scarney"'), tmp_path)
    assert taken.at("name") == ["the name 'scarney' is taken by the built-in Scarney"]
    bad_role = designs.check(text.replace('role = "discard-trigger"', 'role = "trigger"'), tmp_path)
    assert bad_role.at("boards") and not bad_role.ok
    assert designs.check("name = ", tmp_path).at("toml")


def test_derived_codes_are_fresh_and_a_saved_game_s_codes_are_taken_by_it(tmp_path):
    text = five_hole_cards(tmp_path)
    codes = designs.parse(text)[0]["phh_codes"]
    assert set(codes.values()) == {"no-limit", "pot-limit", "fixed-limit"} and "NSCR" not in codes
    designs.save(tmp_path, text, 0)
    other = designs.parse(five_hole_cards(tmp_path, "scarney-six"))[0]
    assert not set(other["phh_codes"]) & set(codes)  # fresh: the saved game has those
    other["phh_codes"] = codes
    clashes = designs.check(designs.to_text(other), tmp_path).at("phh_codes")
    assert len(clashes) == 3 and all("is Scarney (derived)'s" in line for line in clashes)


def test_versions_of_a_saved_game_replace_each_other_and_runs_record_theirs(tmp_path):
    first = designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    simulate(
        SimSpec(designs.known_game(tmp_path, FIVE).source, 2_000, players=4, seed=1), str(tmp_path), "v1"
    )
    second = designs.save(
        tmp_path, five_hole_cards(tmp_path).replace("players = [2, 6]", "players = [2, 5]"), 1
    )
    assert (first.version, second.version, second.note) == (1, 2, "")
    assert designs.known_game(tmp_path, FIVE).max_players == 5  # the newest version by name
    simulate(
        SimSpec(designs.known_game(tmp_path, FIVE).source, 3_000, players=4, seed=1), str(tmp_path), "v2"
    )
    newest = game_stats(tmp_path, FIVE)  # the newest version's runs unless runs are chosen: never a blend
    assert newest["hands"] == 3_000 and newest["description_versions"] == {"shown": 2, "others": [1]}
    assert game_stats(tmp_path, FIVE, ["v1"])["hands"] == 2_000
    with pytest.raises(ValueError, match="saved version"):  # a v1 run goes on under v1 only
        simulate(
            SimSpec(designs.known_game(tmp_path, FIVE).source, 2_000, players=4, seed=1), str(tmp_path), "v1"
        )
    result = runner.invoke(cli, ["query", "--data", str(tmp_path), "--format", "json",
                                 "SELECT unnest(sources) AS source FROM runs"])  # fmt: skip
    assert json.loads(result.stdout)[0]["source"].endswith(f"games/{FIVE}/v0001.toml")


def test_the_cli_finds_a_saved_game_by_name(tmp_path):
    designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    data = ["--data", str(tmp_path)]
    made = runner.invoke(cli, ["simulate", "--variant", FIVE, "--hands", "2000", "--players", "4", *data])
    assert made.exit_code == 0, made.output
    stats = runner.invoke(cli, ["stats", "--variant", FIVE, *data, "--format", "json"])
    assert stats.exit_code == 0 and json.loads(stats.stdout)["hands"] == 2_000
    listed = runner.invoke(cli, ["variants", *data, "--format", "json"])
    assert any(
        row["name"] == FIVE and row["file"].endswith("v0001.toml") for row in json.loads(listed.stdout)
    )


def test_limits_refuse_with_the_reason_and_are_said(tmp_path):
    designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    tight = jobs.Limits(max_hands=1_000_000, max_jobs=1, max_minutes=1)
    asked = {"variant": FIVE, "hands": 2_000_000, "players": 4, "seed": 1, "mode": "showdown"}
    assert "at most 1,000,000 per run" in jobs.start_run(tmp_path, asked, tight)[0]
    slow = asked | {"hands": 500_000, "mode": "betting"}
    assert "minutes of work" in jobs.start_run(tmp_path, slow, tight)[0]
    bad = asked | {"players": 9}
    assert "seats 2 to 6" in jobs.start_run(tmp_path, bad, tight)[0]
    assert not (tmp_path / "jobs").exists()  # nothing refused was started


def _wait(condition, what: str) -> None:
    assert wait_until(condition), what  # (a safety bound: each step here comes within seconds)


def test_a_run_goes_on_alone_is_cancelled_resumes_and_leaves_no_process(tmp_path):
    designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    wide = jobs.Limits(max_hands=10**9, max_jobs=2, max_minutes=10**6)
    asked = {"variant": FIVE, "hands": 100_000_000, "players": 4, "seed": 3, "mode": "showdown",
             "shard_size": 20_000}  # fmt: skip
    problem, job = jobs.start_run(tmp_path, asked, wide)  # a run that cannot end while the test looks
    assert problem is None and job.running
    _wait(lambda: jobs.job(tmp_path, job.job_id).done > 0, "the run's first shard")
    pid = json.loads((tmp_path / "jobs" / job.job_id / "pid.json").read_text())["pid"]
    stopped = jobs.cancel(tmp_path, job.job_id)
    assert stopped.state == "cancelled" and not jobs._alive(pid)
    before = stopped.done
    resumed = jobs.resume(tmp_path, job.job_id)
    assert resumed.running and resumed.request["run_id"] == job.request["run_id"]
    _wait(lambda: jobs.job(tmp_path, job.job_id).done > before, "the resumed run going on")
    log = (tmp_path / "jobs" / job.job_id / "log").read_text()
    again = jobs.cancel(tmp_path, job.job_id)
    assert again.state == "cancelled" and "Traceback" not in log
    pid = json.loads((tmp_path / "jobs" / job.job_id / "pid.json").read_text())["pid"]
    _wait(lambda: not jobs._alive(pid), "the job's process gone")
    assert not jobs.running(tmp_path)


def test_a_failed_job_says_one_line(tmp_path):
    job = jobs.start(tmp_path, "simulate", {"variant": "no-such-game", "hands": 10})
    _wait(lambda: not jobs.job(tmp_path, job.job_id).running, "the job's end")
    ended = jobs.job(tmp_path, job.job_id)
    assert ended.state == "failed" and "unknown game 'no-such-game'" in ended.message
    assert "\n" not in ended.message


def test_a_run_s_job_says_each_phase_after_dealing_and_its_time_from_the_ask_to_the_end(tmp_path):
    """#52: the bar stood at 100% while the job went on (counting the players' rows), and "Done in"
    said the dealing's time alone."""
    asked = {"variant": "holdem", "hands": 2_000, "players": 3, "seed": 1, "mode": "betting",
             "policies": ["tag", "random"], "shard_size": 1_000}  # fmt: skip
    problem, job = jobs.start_run(tmp_path, asked)
    assert problem is None and job.running and job.started and not job.ended and job.seconds is None
    _wait(lambda: not jobs.job(tmp_path, job.job_id).running, "the job's end")
    ended = jobs.job(tmp_path, job.job_id)
    assert ended.state == "done" and ended.started == job.started, ended.message
    assert [name for name, _ in ended.phases][:4] == ["starting", "dealing", "writing", "counting players"]
    moments = [ended.started, *(when for _, when in ended.phases), ended.ended]
    assert moments == sorted(moments)  # each phase after the one before; the end after the last
    assert (ended.done, ended.total) == (2_000, 2_000) and ended.phase == ""
    assert ended.seconds == pytest.approx(ended.ended - ended.started)
    assert ended.seconds >= ended.result["seconds"]  # the dealing is a part of the wait
    assert sum(ended.phase_seconds().values()) == pytest.approx(ended.seconds)
    assert jobs_view.done_text(ended).startswith(f"Done in {ended.seconds:,.1f} s")
    counting = jobs.Job(job.job_id, "simulate", ended.request, "running", 2_000, 2_000, 1_000.0,
                        started=ended.started, phases=ended.phases[:4])  # fmt: skip
    assert counting.phase == "counting players" and counting.seconds is None
    assert jobs_view.describe(counting).endswith("· counting the Players page's rows")
    assert jobs_view._progress_text(counting).endswith("now counting the Players page's rows…")
    test = app(tmp_path, "screens/runs.py", {"variant": "holdem"})
    assert not test.exception and any(c.value.startswith("Done in ") for c in test.caption)


def test_the_workbench_page_derives_checks_at_the_field_and_saves_a_version(tmp_path):
    os.environ["SCOOPLAB_DATA"] = str(tmp_path)
    test = app(tmp_path, "screens/workbench.py", {"from": "scarney"})
    assert not test.exception
    name = next(t for t in test.text_input if t.label.startswith("Name"))
    name.set_value(FIVE).run()
    next(n for n in test.number_input if n.label == "preflop: hole cards").set_value(5).run()
    next(n for n in test.number_input if n.label == "Most players").set_value(10).run()
    budget = "10 players x 5 hole cards + 10 board cards + 3 burns = 63: needs 63 cards, the deck has 52"
    assert [e.value for e in test.error] == [budget]
    assert next(b for b in test.button if b.label.startswith("Save")).disabled
    assert "players = [2, 10]" in test.text_area[-1].value  # the TOML follows the form
    next(n for n in test.number_input if n.label == "Most players").set_value(7).run()
    assert not test.error and not test.exception
    next(b for b in test.button if b.label.startswith("Save")).click().run()
    assert any(f"Saved {FIVE} version 1" in s.value for s in test.success)
    assert [p.name for p in versions(tmp_path, FIVE)] == ["v0001.toml"]
    toml = test.text_area[-1]
    toml.set_value(
        toml.value.replace("players = [2, 7]", "players = [2, 6]")
    ).run()  # the form follows the TOML
    assert next(n for n in test.number_input if n.label == "Most players").value == 6


def test_a_derived_game_s_page_compares_it_with_its_base_most_changed_first(tmp_path):
    os.environ["SCOOPLAB_DATA"] = str(tmp_path)
    designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    simulate(
        SimSpec(designs.known_game(tmp_path, FIVE).source, 4_000, players=4, seed=1), str(tmp_path), "five"
    )
    simulate(SimSpec("scarney", 4_000, players=4, seed=1), str(tmp_path), "six")
    test = game_page(FIVE)
    assert not test.exception and [h.value for h in test.header] == ["Design"]
    changed = next(m.value for m in test.markdown if "statistics changed" in m.value)
    table = test.dataframe[0].value
    assert int(changed.split("**")[1].split(" of ")[0].replace(",", "")) > 10
    assert table["significant"].iloc[0] == "yes" and list(table.columns)[:3] == ["statistic", "A", "B"]


def test_the_runs_page_says_its_limits_and_refuses_past_them(tmp_path):
    os.environ["SCOOPLAB_DATA"] = str(tmp_path)
    os.environ["SCOOPLAB_MAX_HANDS"] = "50000"
    try:
        test = app(tmp_path, "screens/runs.py", {"variant": "holdem"})
        assert not test.exception and "at most 50,000 hands per run" in test.caption[0].value
        assert next(n for n in test.number_input if n.label == "Hands").max == 50_000
    finally:
        del os.environ["SCOOPLAB_MAX_HANDS"]


def test_a_starting_hand_table_computed_in_the_background_is_stored(tmp_path):
    job = jobs.start(tmp_path, "starting_hands", {"variant": "short-deck", "players": 2})
    _wait(lambda: not jobs.job(tmp_path, job.job_id).running, "the job's end")
    ended = jobs.job(tmp_path, job.job_id)
    assert ended.state == "done" and (ended.done, ended.total) == (1, 1), ended.message
    assert list(tmp_path.glob("starting_hands/variant=short-deck/run=players2-*/table.parquet"))


def test_a_notebook_s_lab_knows_the_warehouse_s_saved_games_by_name(tmp_path):
    designs.save(tmp_path, five_hole_cards(tmp_path), 0)
    simulate(SimSpec(designs.known_game(tmp_path, FIVE).source, 2_000, players=4, seed=1), str(tmp_path), "r")
    code = f"import scooplab; print(scooplab.open({str(tmp_path)!r}).stats({FIVE!r})['hands'])"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1]
    )
    assert done.returncode == 0 and done.stdout.split()[-1] == "2000", done.stderr[-500:]


def test_a_derived_game_that_deals_alike_is_compared_hand_by_hand(tmp_path):
    """A derived game that changes what wins, not what is dealt: Scarney whose high hand must always
    use a hole card (the option must_use_hole_card, written into the game)."""
    text = designs.derive("scarney", tmp_path).replace('name = "scarney-derived"', 'name = "scarney-must"')
    data = designs.parse(text)[0]
    data["hole_use"] = "at-least-1"
    data["options"].pop("must_use_hole_card")
    designs.save(tmp_path, designs.to_text(data), 0)
    must = designs.known_game(tmp_path, "scarney-must")
    simulate(SimSpec(must.source, 4_000, players=4, seed=9, shard_size=1_000), str(tmp_path), "must")
    simulate(SimSpec("scarney", 4_000, players=4, seed=9, shard_size=1_000), str(tmp_path), "plain")
    on = {"must_use_hole_card": True}
    simulate(
        SimSpec("scarney", 4_000, players=4, seed=9, shard_size=1_000, options=on),
        str(tmp_path),
        "plain-must",
    )
    from analytics.compare import compare_games, compare_runs

    derived = compare_games(tmp_path, ("scarney", "plain"), ("scarney-must", "must"))
    same_game = compare_runs(tmp_path, "scarney", "plain", "plain-must")
    assert derived["paired"] and same_game["paired"]
    by_rule = {
        r["statistic"]: (r["only_a"], r["only_b"]) for r in same_game["rows"] if r["only_a"] is not None
    }
    by_game = {r["statistic"]: (r["only_a"], r["only_b"]) for r in derived["rows"] if r["only_a"] is not None}
    assert by_game == by_rule and len(by_game) > 5  # the same rule, as an option or as a game: one answer


def test_the_form_says_forced_bets_and_a_street_without_betting(tmp_path):
    os.environ["SCOOPLAB_DATA"] = str(tmp_path)
    test = app(tmp_path, "screens/workbench.py", {"from": "omaha"})
    assert not test.exception
    next(c for c in test.checkbox if c.label == "preflop: betting").uncheck().run()
    next(s for s in test.selectbox if s.label.startswith("Blinds")).set_value("none").run()
    ante = next(t for t in test.text_input if t.label.startswith("Ante"))
    ante.set_value("2").run()
    toml = test.text_area[-1].value
    assert "betting = false" in toml and 'blinds = "none"' in toml and "ante = 2" in toml, toml
    assert not test.error and not test.exception  # a bomb pot checks out
    next(t for t in test.text_input if t.label.startswith("Ante")).set_value("lots").run()
    assert any("ante is big blinds a seat antes" in e.value for e in test.error)


def test_the_form_sets_a_high_share_s_qualifier(tmp_path):
    os.environ["SCOOPLAB_DATA"] = str(tmp_path)
    test = app(tmp_path, "screens/workbench.py", {"from": "archie"})
    assert not test.exception
    nines = next(s for s in test.selectbox if s.label.startswith("Share 1: qualifier"))
    assert nines.value == "pair" and "rank 9" in nines.label  # Archie's pair of nines
    nines.set_value("two pair").run()
    toml = test.text_area[-1].value
    assert 'qualifier = { category = "two pair", rank = "9" }' in toml, toml
    next(s for s in test.selectbox if s.label.startswith("Share 1: qualifier")).set_value("none").run()
    assert "two pair" not in test.text_area[-1].value and not test.error and not test.exception
