"""The warehouse on an S3-compatible server (moto's, started on 127.0.0.1 by the test): simulate
(both modes), ingest, stats, query and the dashboard with ``--data s3://bucket/prefix``, credentials
from the environment; a run killed mid-way leaves nothing half-written that a reader counts, and
runs again to the same tables."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.dashboard_server import dashboard_server
from tests.patience import BROWSER_WAIT_MS, COMMAND_SECONDS, SERVER_START_SECONDS, wait_until
from tests.scale_helpers import (
    BIN,
    SCOOPLAB,
    free_port,
    kill_group,
    run_digest,
    running,
    start,
    wait_for_port,
)
from tests.test_dashboard import CHROMIUM, CHROMIUM_FLAGS, FIXTURES

BUCKET = "scooplab-test"
DATA = f"s3://{BUCKET}/lab"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """An S3-compatible server on loopback and the environment that reaches it (a fresh bucket)."""
    port = free_port()
    env = {"AWS_ACCESS_KEY_ID": "scooplab", "AWS_SECRET_ACCESS_KEY": "scooplab-secret",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}  # fmt: skip
    with running(start([str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)])):
        wait_for_port(port, SERVER_START_SECONDS)
        with pytest.MonkeyPatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)
            import s3fs

            s3fs.S3FileSystem(skip_instance_cache=True).mkdir(BUCKET)
            yield env


def scooplab(
    *args: str, env: dict[str, str], timeout: float = COMMAND_SECONDS
) -> subprocess.CompletedProcess:
    done = subprocess.run([*SCOOPLAB, *args, "--data", DATA], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env})  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done


def objects() -> list[str]:
    import s3fs

    return sorted(s3fs.S3FileSystem(skip_instance_cache=True).find(f"{BUCKET}/lab"))


@pytest.mark.soak
def test_every_command_on_object_storage(s3):
    for args in (["simulate", "--variant", "holdem", "--hands", "60000", "--shard-size", "20000",
                  "--seed", "1", "--run-id", "all-in"],
                 ["simulate", "--variant", "scarney", "--mode", "betting", "--hands", "600", "--seed", "1",
                  "--run-id", "betting"],
                 ["ingest", str(FIXTURES / "phh"), "--run-id", "replayed"]):  # fmt: skip
        assert scooplab(*args, env=s3).returncode == 0
    stats = json.loads(scooplab("stats", "--variant", "holdem", "--format", "json", env=s3).stdout)
    assert stats["population"]["hands"] == 60_000
    counted = scooplab("query", "SELECT source, count(*) AS n FROM hands GROUP BY 1 ORDER BY 1",
                       "--format", "json", env=s3)  # fmt: skip
    assert counted.returncode == 0, counted.stderr
    by_source = {row["source"]: row["n"] for row in json.loads(counted.stdout)}
    assert by_source["simulation"] == 60_600 and by_source["phh"] > 0
    assert all(key.endswith(".parquet") for key in objects())


@pytest.mark.soak
def test_a_run_killed_on_object_storage_leaves_nothing_counted(s3):
    # killed at its first of 100 shards: 99 (seconds of work and uploads here) are left, hundreds of polls
    args = ["simulate", "--variant", "cry-me-a-river", "--hands", "200000", "--shard-size", "2000",
            "--seed", "4", "--run-id", "killed"]  # fmt: skip
    process = start([*SCOOPLAB, *args, "--data", DATA], env=s3)
    with running(process):
        wait_until(lambda: any("/hands/" in key and "run=killed/" in key for key in objects()))
        kill_group(process)
    from analytics.db import connect

    counted = connect(DATA).sql("SELECT count(*) FROM hands WHERE run_id = 'killed'").fetchall()[0][0]
    shards = [key for key in objects() if "/hands/" in key and "run=killed/shard-" in key]
    assert len(shards) < 100 and counted == 2_000 * len(shards), (counted, shards)  # whole shards only
    assert scooplab(*args, env=s3).returncode == 0
    assert run_digest(DATA, "killed")["hands"].startswith("200000 rows")
    assert not [key for key in objects() if "run=killed" in key and "/.tmp-" in key]


@pytest.mark.soak
def test_the_dashboard_on_object_storage(s3):
    from playwright.sync_api import sync_playwright

    made = scooplab("simulate", "--variant", "skoejarth", "--hands", "20000", "--run-id", "sk", env=s3)
    assert made.returncode == 0
    # the server inherits the environment the s3 fixture set in this process
    with dashboard_server(DATA) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=BROWSER_WAIT_MS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(BROWSER_WAIT_MS)  # navigation, clicks and waits alike
        page.goto(f"{server.url}/skoejarth", wait_until="networkidle")
        page.get_by_text("20,000").first.wait_for(timeout=BROWSER_WAIT_MS)  # the game page's hand count
        page.goto(f"{server.url}/sql", wait_until="networkidle")
        page.get_by_role("heading", name="SQL").first.wait_for(timeout=BROWSER_WAIT_MS)
        page.get_by_role("button", name="Hands per game").click()  # an example query
        # read from S3
        page.get_by_text("skoejarth").first.wait_for(state="attached", timeout=BROWSER_WAIT_MS)
        assert page.locator("[data-testid='stException'], [data-testid='stAlert']").count() == 0
        browser.close()
