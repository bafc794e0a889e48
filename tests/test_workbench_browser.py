"""The designer's whole path in Chromium on a real server, without a terminal: derive "Scarney with
five hole cards" from Scarney in the form, see a problem at its field and fix it, save, simulate
200,000 hands with the progress bar moving, cancel and resume a second run, open the new game's
page without a restart, compare it with Scarney (independent samples) and a rule-option pair of
it (paired). Screenshots of each step go to tests/artifacts/workbench/ (docs/images/ holds copies).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.generation.simulation import SimSpec, simulate
from scooplab import jobs
from tests.dashboard_server import dashboard_server, wait_for_script_run
from tests.patience import BROWSER_WAIT_MS, wait_until
from tests.test_dashboard import CHROMIUM, CHROMIUM_FLAGS

NAME, TITLE = "scarney-five", "Scarney with five hole cards"
BAR = "[data-testid='stProgress'] [role='progressbar']"
pytestmark = pytest.mark.skipif(
    not shutil.which(CHROMIUM), reason="Debian's chromium is not installed (make test installs it)"
)


# the newest job's hands done, read from its progress text: past a number, of a run of that total
HANDS_DONE_PAST = """([past, total]) => {
  const text = document.querySelector("[data-testid='stProgress']")?.innerText || "";
  const found = text.match(/^([\\d,]+) of ([\\d,]+)/);
  const number = (digits) => Number(digits.replaceAll(",", ""));
  return found !== null && number(found[2]) === total && number(found[1]) > past;
}"""


TOML_HOLDS = (
    """(text) => document.querySelector("textarea[aria-label='Description (TOML)']")?.value.includes(text)"""
)


def set_field(page, label: str, value: str, toml: str | None = None) -> None:
    """Type a value into a text or number field (by its label) and commit it (Enter); with ``toml``,
    wait until the Workbench's TOML holds that text (the page has taken the change)."""
    field = page.get_by_label(label, exact=True)
    field.fill(value)
    field.press("Enter")
    if toml:
        page.wait_for_function(TOML_HOLDS, arg=toml)


def choose(page, label: str, option: str) -> None:
    """Pick an option of a select box by the box's label."""
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def job_box(page, run_id: str):
    """The box of one job in the Runs page's list (its line names the run)."""
    return page.locator("[data-testid='stVerticalBlock']", has_text=f"run {run_id}:").last


def bar_value(box) -> float:
    """A job's progress bar, 0-100."""
    return float(box.locator(BAR).get_attribute("aria-valuenow") or 0)


def fill_in(page, label: str, value: str) -> None:
    """Type a value into a field of a form (Tab, not Enter: Enter would submit the form)."""
    field = page.get_by_label(label, exact=True)
    field.fill(value)
    field.press("Tab")


def start_run(page, warehouse: Path, hands: int, rule: str | None = None) -> str:
    """Fill the Runs page's form, start the run; its run id once the page shows it started."""
    before = {j.job_id for j in jobs.jobs(warehouse)}
    fill_in(page, "Hands", str(hands))
    fill_in(page, "Players", "4")
    fill_in(page, "Seed (runs of one seed deal the same cards: paired)", "2026")
    if rule:
        choose(page, f"Rule option {rule}", "True")
    page.get_by_role("button", name="Simulate in the background").click()
    assert wait_until(lambda: len(jobs.jobs(warehouse)) > len(before)), "no job started"
    (started,) = [j for j in jobs.jobs(warehouse) if j.job_id not in before]
    page.get_by_text(f"(job {started.job_id})").wait_for()
    return started.request["run_id"]


def test_a_designer_derives_checks_saves_simulates_and_compares_in_the_browser(tmp_path):
    warehouse = tmp_path / "warehouse"
    simulate(SimSpec("scarney", 200_000, players=4, seed=2026), str(warehouse), "scarney-base")
    flags = ("--max-hands", "100000000", "--max-minutes", "1000")
    try:
        walk_the_path(warehouse, tmp_path, flags)
    finally:
        for job in jobs.running(warehouse):  # nothing the test started is left, even when it fails
            jobs.cancel(warehouse, job.job_id)
    assert not jobs.running(warehouse)
    first = jobs.jobs(warehouse)[-1].request["run_id"]  # the oldest
    command = ["stats", "--variant", NAME, "--data", str(warehouse), "--run", first, "--format", "json"]
    found = subprocess.run([sys.executable, "-m", "scooplab.cli", *command], capture_output=True, text=True)
    assert found.returncode == 0 and json.loads(found.stdout)["hands"] == 200_000  # the CLI finds it by name


def walk_the_path(warehouse: Path, tmp_path: Path, flags: tuple[str, ...]) -> None:
    from playwright.sync_api import sync_playwright

    shots = Path(__file__).parent / "artifacts" / "workbench"
    shots.mkdir(parents=True, exist_ok=True)
    with (
        dashboard_server(warehouse, tmp_path / "server.log", flags=flags) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(BROWSER_WAIT_MS)  # a safety bound: each step comes within seconds

        def shot(name: str) -> None:
            wait_for_script_run(page)
            page.screenshot(path=str(shots / f"{name}.png"))

        # 1. derive from Scarney in the form; a problem at its field; fixed; saved
        page.goto(f"{server.url}/workbench?from=scarney")
        page.get_by_role("heading", name="Workbench").wait_for()
        page.wait_for_function(TOML_HOLDS, arg='name = "scarney-derived"')
        set_field(page, "Name (the game's id: lower-case letters, digits and -)", NAME, f'name = "{NAME}"')
        set_field(page, "Title", TITLE, f'title = "{TITLE}"')
        set_field(page, "preflop: hole cards", "5", "hole_cards = 5")
        page.get_by_text("Cards: 6 players x 5 hole cards").wait_for()  # the card budget follows the form
        set_field(page, "Most players", "10", "players = [2, 10]")
        problem = page.locator("[data-testid='stAlertContentError']", has_text="10 players x 5 hole cards")
        problem.wait_for()
        save = page.get_by_role("button", name=re.compile("^Save"))
        assert save.is_disabled()
        shot("workbench-1-problem-at-its-field")
        set_field(page, "Most players", "7", "players = [2, 7]")
        page.get_by_text("Cards: 7 players x 5 hole cards + 10 board cards + 3 burns = 48: fits").wait_for()
        assert problem.count() == 0 and save.is_enabled()
        assert "players = [2, 7]" in page.get_by_label("Description (TOML)").input_value()
        shot("workbench-2-fixed")
        save.click()
        page.get_by_text(f"Saved {NAME} version 1").wait_for()
        shot("workbench-3-saved")

        # 2. a run of 200,000 hands, its bar moving; a second run cancelled and resumed; the pair
        page.get_by_role("link", name=f"Simulate {NAME}").click()
        page.get_by_role("heading", name="Runs").wait_for()
        first = start_run(page, warehouse, 200_000)
        box = job_box(page, first)
        box.locator(BAR).wait_for()
        assert bar_value(box) < 100  # drawn as the run starts: a process of its own takes seconds to begin
        shot("runs-1-moving")
        box.get_by_text("Done in").wait_for()
        assert bar_value(box) == 100
        shot("runs-2-done")
        long = start_run(page, warehouse, 100_000_000)  # a run that cannot end while the test looks
        page.wait_for_function(HANDS_DONE_PAST, arg=[0, 100_000_000])
        job_box(page, long).get_by_role("button", name="Cancel").click()
        job_box(page, long).get_by_role("button", name="Resume").wait_for()
        shot("runs-3-cancelled")
        stopped = jobs.jobs(warehouse)[0]
        assert stopped.state == "cancelled" and 0 < stopped.done < stopped.total
        job_box(page, long).get_by_role("button", name="Resume").click()
        job_box(page, long).get_by_role("button", name="Cancel").wait_for()
        page.wait_for_function(HANDS_DONE_PAST, arg=[stopped.done, 100_000_000])  # on from where it stopped
        shot("runs-4-resumed")
        job_box(page, long).get_by_role("button", name="Cancel").click()
        job_box(page, long).get_by_role("button", name="Resume").wait_for()
        pair = start_run(page, warehouse, 200_000, rule="must_use_hole_card")  # the same seed: the same deals
        job_box(page, pair).get_by_text("Done in").wait_for()

        # 3. the new game's page, without a restart: what changed against Scarney
        page.goto(f"{server.url}/{NAME.replace('-', '_')}")
        page.get_by_role("heading", name=TITLE).first.wait_for()
        page.get_by_text("Against Scarney, the game it was derived from").wait_for()
        changed = page.get_by_text(re.compile(r"\d+ of \d+ statistics changed"))
        changed.wait_for()
        assert int(changed.inner_text().split(" of ")[0].replace(",", "")) > 10
        page.get_by_text("The runs dealt different cards, so they are independent samples").wait_for()
        assert page.get_by_text("different populations").count() == 0  # a run of the same rule set
        page.get_by_text("Against Scarney").evaluate("(e) => e.scrollIntoView({block: 'start'})")
        shot("game-1-against-scarney")

        # 4. the rule-option pair of the new game, paired
        page.goto(f"{server.url}/compare?variant={NAME}&run_a={first}&run_b={pair}")
        page.get_by_text("The two runs dealt the same cards").wait_for()
        shot("compare-1-rule-option-pair")
        browser.close()
        assert "Traceback" not in (tmp_path / "server.log").read_text()
