"""The dashboard: every page's logic with Streamlit's AppTest, then the real app in headless Chromium."""

import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from engine.rules.games import get_game
from ingest.generation.simulation import SimSpec, simulate
from ingest.generation.starting_hands import compute_and_store
from ingest.histories.pipeline import ingest
from ingest.storage.warehouse import Warehouse
from tests.dashboard_server import dashboard_server, wait_for_script_run
from tests.patience import BROWSER_WAIT_MS, PAGE_RUN_SECONDS
from tests.test_ingest import FIXTURES

MONEY = Path(__file__).parent / "fixtures" / "money"
EXAMPLES = Path(__file__).parent / "fixtures" / "examples"

APP = str(Path(__file__).resolve().parents[1] / "dashboards" / "app.py")
GAME_PAGES = {  # one page per game, built from its description (dashboards/screens/game.py)
    "scarney": "Scarney",
    "cry-me-a-river": "Cry Me A River Hold'em",
    "skoejarth": "Skœjarth",
    "holdem": "Hold'em",
}
PAGES = {
    "screens/overview.py": "Overview",
    **GAME_PAGES,
    "screens/players.py": "Players",
    "screens/replayer.py": "Hand replayer",
    "screens/compare.py": "Compare runs",
    "screens/sql.py": "SQL",
    "screens/odds.py": "Odds",
    "screens/starting_hands.py": "Starting hands",
    "screens/equilibrium.py": "Equilibrium",
}
CHARTED = ("screens/overview.py", *GAME_PAGES)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    root = tmp_path_factory.mktemp("dash")
    for game in ("scarney", "cry-me-a-river", "skoejarth", "holdem"):
        simulate(SimSpec(game, 20_000, players=4, seed=1), str(root), run_id=f"s-{game}")
    simulate(SimSpec("scarney", 20_000, players=4, seed=2, options={"must_use_hole_card": True}), str(root),
             run_id="s-scarney-must-use")  # fmt: skip
    simulate(SimSpec("holdem", 300, players=4, seed=3, mode="betting", policies=("tag", "random")), str(root),
             run_id="bet")  # fmt: skip
    ingest([FIXTURES / "phh", FIXTURES / "examples"], Warehouse(root), run_id="phh")
    compute_and_store(Warehouse(root), get_game("holdem"), 2, {}, samples=1_000)
    return root


def _game_page(variant: str) -> None:  # run by AppTest as a script of its own
    from dashboards.screens import game

    game.render(variant)


@contextmanager
def keeping_main():
    """AppTest leaves the script it runs as ``__main__``, which a process pool started later by
    spawn would run in every worker (a generated page's temporary script fails there): put it back."""
    main = sys.modules["__main__"]
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def game_page(variant: str, query: dict | None = None) -> AppTest:
    """A game's generated page, run."""
    with keeping_main():
        test = AppTest.from_function(
            _game_page, kwargs={"variant": variant}, default_timeout=PAGE_RUN_SECONDS
        )
        for key, value in (query or {}).items():
            test.query_params[key] = value
        return test.run()


def app(data: Path, page: str | None = None, query: dict | None = None) -> AppTest:
    """The app at one page: a file under dashboards/, or a game's name (its generated page)."""
    os.environ["SCOOPLAB_DATA"] = str(data)
    if page in GAME_PAGES:
        return game_page(page, query)
    with keeping_main():
        test = AppTest.from_file(APP, default_timeout=PAGE_RUN_SECONDS)
        for key, value in (query or {}).items():
            test.query_params[key] = value
        test.run()
        if page:
            test.switch_page(page).run()
    return test


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_renders_without_an_exception(warehouse, page):
    test = app(warehouse, page)
    assert not test.exception, [e.value for e in test.exception]
    assert not test.error, [e.value for e in test.error]
    assert test.title[0].value in (PAGES[page], "scooplab")
    if page in CHARTED:
        assert len(test.get("vega_lite_chart")) >= 1


def test_a_game_page_shows_one_population_and_offers_the_others(warehouse):
    test = app(warehouse, "holdem")
    assert test.metric[0].value == "20,000"  # the showdown-mode run, not every hold'em hand added up
    assert any("Over showdown mode (all in), 4 players: 20,000 hands" in c.value for c in test.caption)
    choice = next(s for s in test.sidebar.radio if s.label == "Population")
    betting = next(o for o in choice.options if o.startswith("betting mode"))
    choice.set_value(betting).run()
    assert not test.exception and test.metric[0].value == "300"
    assert any(f"Over {betting}: 300 hands" in c.value for c in test.caption)


def test_rates_over_fewer_than_30_items_show_counts_not_bars(warehouse):
    test = app(warehouse, "holdem")
    choice = next(s for s in test.sidebar.radio if s.label == "Population")
    choice.set_value(next(o for o in choice.options if o.startswith("replayed"))).run()  # a dozen hands
    assert not test.exception
    scoop = next(m for m in test.metric if m.label == "Scoop rate")
    assert " of " in scoop.value and "%" not in scoop.value
    assert any("too few to chart (fewer than 30)" in c.value for c in test.caption)


def test_run_filter_lives_in_the_address(warehouse):
    test = app(warehouse, "scarney", {"runs": "s-scarney-must-use"})
    assert test.metric[0].value == "20,000"
    assert (
        test.query_params["runs"] == ["s-scarney-must-use"]
        or test.query_params["runs"] == "s-scarney-must-use"
    )


def test_an_empty_warehouse_explains_what_to_do(tmp_path):
    for page in ("screens/overview.py", "scarney", "screens/replayer.py"):
        test = app(tmp_path, page)
        assert not test.exception
        assert any("scooplab simulate" in info.value for info in test.info)


def test_bad_sql_shows_duckdbs_message_not_a_traceback(warehouse):
    test = app(warehouse, "screens/sql.py")
    test.text_area[0].input("SELECT nonsense FROM hands").run()
    assert not test.exception
    assert "Referenced column" in test.error[0].value
    test.text_area[0].input("COPY (SELECT 1) TO '/tmp/x.csv'").run()
    assert "not COPY statements" in test.error[0].value
    test.text_area[0].input("SELECT variant, count(*) AS n FROM hands GROUP BY 1").run()
    examples = {path.stem.removesuffix("-ultimate") for path in (FIXTURES / "examples").glob("*.phh")}
    games = len(examples | {"holdem"})  # what was stored (an example may add its rule set to its name)
    assert not test.error and test.dataframe[0].value.shape[0] == games


def test_select_star_of_hands_shows_rows_says_the_total_and_downloads_both_ways(warehouse):
    test = app(warehouse, "screens/sql.py")
    test.text_area[0].input("SELECT * FROM hands").run()
    assert not test.exception and not test.error
    assert test.dataframe[0].value.shape[0] == 10_000  # cut
    assert any(c.value.startswith("showing the first 10,000 of ") for c in test.caption)
    frame, total, error = data.user_query(str(warehouse), "SELECT * FROM hands", 50)
    assert error is None and total > 100_000 and frame.height == 50
    flat = data.flat_text(frame)
    assert flat["boards"].dtype == pl.String and flat.write_csv()  # lists as text: CSV holds them
    assert any(e.label.startswith("hands") for e in test.expander)  # the view browser


def test_a_result_past_the_rows_shown_says_so_and_downloads_whole(warehouse):
    import io

    import pyarrow.parquet as pq

    test = app(warehouse, "screens/sql.py")
    test.text_area[0].input("SELECT hand_id, pot FROM hands").run()
    total = data.user_query(str(warehouse), "SELECT hand_id, pot FROM hands", 1)[1]
    assert any(
        c.value == f"The downloads above hold the 10,000 rows shown, not all {total:,}." for c in test.caption
    )
    labels = [b.label for b in test.get("download_button")]
    assert labels[:2] == [
        "Download CSV (lists as text) (10,000 rows shown)",
        "Download Parquet (10,000 rows shown)",
    ]
    next(b for b in test.button if b.label.startswith("Prepare the whole result")).click().run()
    assert not test.exception and not test.error
    whole = test.session_state["sql_whole"][2]
    assert whole[1] == total and pq.read_table(io.BytesIO(whole[0])).num_rows == total > 10_000
    assert any(b.label == f"Download the whole result as Parquet ({total:,} rows)"
               for b in test.get("download_button"))  # fmt: skip


def test_players_a_sortable_table_one_players_lines_and_the_spread_of_a_statistic(tmp_path):
    warehouse = tmp_path / "cash"
    ingest([MONEY / "tracker.phhs", MONEY / "valid.phhs"], Warehouse(warehouse), run_id="cash")
    simulate(SimSpec("holdem", 300, players=4, seed=8, mode="betting", policies=("random", "tag")),
             str(warehouse), run_id="bet")  # fmt: skip
    test = app(warehouse, "screens/players.py")
    assert not test.exception
    table = test.dataframe[0].value
    assert list(table.columns[:3]) == ["venue", "player", "hands"]
    assert {"VPIP", "PFR", "3-bet", "fold to 3-bet", "c-bet", "fold to c-bet", "WTSD", "W$SD", "AF",
            "net won", "bb/100", "bb/100 low", "bb/100 high"} <= set(table.columns)  # fmt: skip
    keys = set(zip(table["venue"].fillna(""), table["player"], strict=True))
    assert len(keys) == len(table)  # one row per player: a name at a venue
    assert ("V", "C") in keys and ("W", "C") in keys
    assert any(venue == "" for venue, _ in keys)  # the simulation's seats: hands without a venue or day
    assert len(test.dataframe) == 1  # no player chosen yet: no lines
    shown_as = {name: config.get("type_config", {}).get("format")
                for name, config in json.loads(test.dataframe[0].proto.columns).items()}  # fmt: skip
    assert shown_as["hands"] == "localized" and shown_as["VPIP"] == "%.1f%%"  # separators, percent signs
    labels = test.selectbox[0].options
    test.selectbox[0].set_value(labels.index("C (V)")).run()
    lines = test.dataframe[1].value  # C's lines by position, then all
    assert list(lines["position"]) == ["button", "small blind", "big blind", "all"]
    assert list(lines["hands"]) == ["2", "1", "1", "4"]  # hands 1 and 4 on the button
    assert not test.exception and test.subheader[0].value == "C (V)"
    test.sidebar.number_input[0].set_value(4).run()  # at least four hands: A, B and C at V, the simulation's
    assert not test.exception
    shown = test.dataframe[0].value
    cash = shown[shown["venue"].notna()]
    assert sorted(zip(cash["venue"], cash["player"], strict=True)) == [("V", "A"), ("V", "B"), ("V", "C")]
    assert (shown["hands"] >= 4).all() and len(shown) > len(cash)
    test.sidebar.multiselect[0].set_value(["W"]).run()  # venue W: nobody has four hands there
    assert not test.exception and any("No player matches" in i.value for i in test.info)


def test_the_replayer_follows_its_filter_and_names_an_unknown_id(warehouse):
    test = app(warehouse, "screens/replayer.py")
    test.selectbox[0].set_value("replayed hand histories").run()
    first = test.text_input[0].value
    assert not test.exception and ":" not in first  # a replayed hand's id, in the box at once
    assert " · phh · " in test.caption[0].value
    test.selectbox[0].set_value("two boards killed (a kill rule)").run()
    assert test.text_input[0].value.startswith("s-cry-me-a-river:")  # the new filter's hand
    test.text_input[0].input("nosuch:0:1").run()
    assert "No hand 'nosuch:0:1'" in test.error[0].value


def test_random_hands_are_drawn_from_the_whole_warehouse_and_the_chosen_game_and_run(tmp_path):
    """Two runs of 150,000 hands: the first 200,000 rows (the old cap) cannot hold both whole; twenty
    uniform draws come from both runs; a chosen run gives its own hands alone."""
    root = tmp_path / "big"
    for run in ("first", "second"):
        simulate(SimSpec("holdem", 150_000, players=2, seed=len(run)), str(root), run_id=run)
    drawn = {data.random_hand(str(root), "true").split(":")[0] for _ in range(20)}
    assert drawn == {"first", "second"}
    assert {data.random_hand(str(root), "true", run="second").split(":")[0] for _ in range(5)} == {"second"}
    assert data.random_hand(str(root), "true", variant="razz") is None
    test = app(root, "screens/replayer.py")
    test.selectbox[2].set_value("first").run()
    assert not test.exception and test.text_input[0].value.startswith("first:")


def test_the_everyone_dead_filter_finds_such_a_hand(tmp_path):
    from ingest.histories.phh import write_hand
    from tests.test_rulings import scarney  # the ruling's hand: both players left die on the river

    fields = scarney([100, 100, 100], [
        "d dh p1 2c2d3c5c6c6d", "d dh p2 2h3d4c4d5d6h", "d dh p3 AcAdKcKdQcQd", "p3 cbr 6", "p1 cc", "p2 cc",
        "d db 9c9dTh/2s3h4h", "p1 sd 2c2d3c", "p2 sd 2h3d4c4d", "p1 cbr 10", "p2 cc", "p3 f",
        "d db Jh/5h", "p1 sd 5c", "p2 sd 5d", "p1 cc", "p2 cc", "d db 8s/6s", "p1 sd 6c6d", "p2 sd 6h",
    ])  # fmt: skip
    (tmp_path / "dead.phh").write_text(write_hand(fields))
    ingest([tmp_path / "dead.phh"], Warehouse(tmp_path / "wh"), run_id="dead")
    everyone_dead = data.REPLAYER_FILTERS["everyone left died at once (a discard board)"]
    assert data.random_hand(str(tmp_path / "wh"), everyone_dead) is not None
    test = app(tmp_path / "wh", "screens/replayer.py")
    test.selectbox[0].set_value("everyone left died at once (a discard board)").run()
    assert not test.exception and "everyone_dead" in test.caption[0].value


def test_overview_names_every_game_and_scales_hands_from_one(warehouse):
    test = app(warehouse, "screens/overview.py")
    assert not test.exception
    spec = json.loads(test.get("vega_lite_chart")[0].proto.spec)
    games, hands = spec["encoding"]["y"], spec["encoding"]["x"]
    assert games["field"] == "variant" and games["axis"]["labelOverlap"] is False  # no name dropped
    assert hands["scale"] == {"type": "log", "domainMin": 1}  # no 0 on a log axis
    assert "stack" in hands and hands["stack"] is None  # a stacked bar starts at 0: none would be drawn


def test_overview_counts_from_the_footers_are_the_counts_of_the_hands_view(warehouse):
    from analytics.db import run_query

    counted = data.hand_counts(str(warehouse))
    query = "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL"
    scanned = [tuple(row.values()) for row in run_query(warehouse, query).to_pylist()]
    assert counted.rows() == scanned and {"phh", "simulation"} <= set(counted["source"])


def test_overview_counts_rejects_by_reason_and_numbers_hands_from_one(warehouse, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    for i in range(3):
        (bad / f"{i}.phh").write_text(f'variant = "X{i}"\nstarting_stacks = [1, 1]\nactions = []\n')
    ingest([bad, FIXTURES / "examples"], Warehouse(tmp_path / "wh"), run_id="bad")
    test = app(tmp_path / "wh", "screens/overview.py")
    assert not test.exception
    reasons = test.dataframe[-2].value
    assert reasons["hands"].tolist() == [3] and "'…'" in reasons["reason"][0]  # three variants, one reason
    rejects = test.dataframe[-1].value
    assert rejects["hand"].tolist() == [1, 1, 1]
    assert "None" not in test.dataframe[1].value.to_string()  # the runs table: empty cells


def test_cry_me_a_river_shows_each_rate_once(warehouse):
    test = app(warehouse, "cry-me-a-river")
    labels = [m.label for m in test.metric]
    assert len(labels) == len(set(labels)) and "Scoop rate" in labels


def test_the_replayer_shows_a_chosen_hand(warehouse):
    test = app(warehouse)
    test.query_params["hand"] = "s-scarney:0:7"
    test.switch_page("screens/replayer.py").run()
    assert not test.exception
    text = " ".join(m.value for m in test.markdown)
    assert "Top Board" in text and "Bottom Board" in text


def test_the_replayer_shows_a_cash_hand_in_its_currency(tmp_path):
    ingest([MONEY / "tracker.phhs"], Warehouse(tmp_path), run_id="cash")
    hands = Warehouse(tmp_path).read("hands").to_pylist()
    raked = next(h for h in hands if h["rake"])  # hand 2: A's aces win 20.50 of a pot of 21.50
    test = app(tmp_path)
    test.query_params["hand"] = raked["hand_id"]
    test.switch_page("screens/replayer.py").run()
    assert not test.exception
    caption = test.caption[0].value
    assert "pot 21.50 · rake 1.00" in caption and caption.endswith("amounts in USD")
    text = " ".join(m.value for m in test.markdown)
    assert "raises to 2.50" in text and "Stacks: B 100.00" in text
    assert "won **20.50** (net +10.00)" in text and "net -10.50" in text


def test_the_replayer_shows_each_street_s_up_cards_of_a_stud_hand(tmp_path):
    ingest([EXAMPLES / "seven-card-stud.phh"], Warehouse(tmp_path), run_id="stud")
    (hand,) = Warehouse(tmp_path).read("hands").to_pylist()
    test = app(tmp_path)
    test.query_params["hand"] = hand["hand_id"]
    test.switch_page("screens/replayer.py").run()
    assert not test.exception
    text = " ".join(m.value for m in test.markdown)
    assert "#### Third" in text and "p3 brings in 2" in text and "p1 bets 5" in text
    face_up = [m.value for m in test.markdown if m.value.startswith("Face up")]
    assert len(face_up) == 4 and "2♥</span>" in face_up[0]  # third to sixth street; the seventh is down
    assert all("p2" in line for line in face_up) and "p3" not in face_up[-1]  # p3 folded on fourth


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
BROWSER_PAGES = [
    ("", "scooplab"), ("scarney", "Scarney"), ("cry_me_a_river", "Cry Me A River Hold'em"),
    ("skoejarth", "Skœjarth"), ("holdem", "Hold'em"), ("players", "Players"), ("replayer", "Hand replayer"),
    ("compare", "Compare runs"), ("sql", "SQL"), ("odds?variant=scarney&hands=2d3d4d5d6dAd;random", "Odds"),
    ("starting_hands?variant=holdem&players=2", "Starting hands"),
    ("equilibrium?variant=holdem", "Equilibrium"),
]  # fmt: skip


# every chart holds a bar drawn at least 5 pixels thick (a chart squeezed to no height draws them 0
# pixels high; a tick of an exact value is 3 wide)
EVERY_CHART_HAS_BARS = """() => {
  const charts = [...document.querySelectorAll("[data-testid='stVegaLiteChart']")];
  return charts.length > 0 && charts.every((chart) => [...chart.querySelectorAll("g.mark-rect path")]
    .some((bar) => { const box = bar.getBBox(); return Math.min(box.width, box.height) >= 5; }));
}"""


# every table shows all its columns: none scrolls sideways (a cut column hides what it says)
NO_TABLE_SCROLLS_SIDEWAYS = """() => {
  const tables = [...document.querySelectorAll("[data-testid='stDataFrame'] .dvn-scroller")];
  return tables.length > 0 && tables.every((table) => table.scrollWidth <= table.clientWidth + 1);
}"""


@pytest.mark.skipif(
    not shutil.which(CHROMIUM), reason="Debian's chromium is not installed (make test installs it)"
)
def test_every_page_in_a_real_browser(warehouse, tmp_path):
    from playwright.sync_api import sync_playwright

    shots = Path(__file__).parent / "artifacts"
    shots.mkdir(exist_ok=True)
    log = tmp_path / "server.log"
    with dashboard_server(warehouse, log) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=BROWSER_WAIT_MS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(BROWSER_WAIT_MS)  # a safety bound: each page here comes within ~10 s
        # a fresh server's first visit through a deep link: the app's own navigation, no toolbar
        page.goto(f"{server.url}/replayer", wait_until="networkidle")
        page.get_by_role("heading", name="Hand replayer").first.wait_for()
        nav = page.locator("[data-testid='stSidebarNav']")
        assert nav.get_by_text("Compare runs").count() == 1
        assert nav.get_by_text("app", exact=True).count() == 0
        assert page.get_by_text("Deploy", exact=True).count() == 0
        for path, title in BROWSER_PAGES:
            page.goto(f"{server.url}/{path}", wait_until="networkidle")
            page.get_by_role("heading", name=title).first.wait_for()
            wait_for_script_run(page)  # the whole page is there: an exception would be too
            assert page.locator("[data-testid='stException']").count() == 0, path
            if path in ("", "scarney", "cry_me_a_river", "skoejarth", "holdem") or "starting" in path:
                page.locator("canvas, svg.marks").first.wait_for()
            if path in ("", "scarney", "cry_me_a_river", "skoejarth", "holdem"):  # counts and rates: bars
                charts = page.locator("[data-testid='stVegaLiteChart']")
                charts.last.locator("svg.marks").first.wait_for()
                page.wait_for_function(EVERY_CHART_HAS_BARS)  # (a chart squeezed to no bars never does)
            if path == "compare":
                page.locator("[data-testid='stDataFrame'] .dvn-scroller").first.wait_for()
                assert page.evaluate(NO_TABLE_SCROLLS_SIDEWAYS), "a column of Compare's table is cut"
            page.screenshot(path=str(shots / f"{path or 'overview'}.png"), full_page=True)
        browser.close()
    port = server.url.rsplit(":", 1)[1]
    assert subprocess.run(["pgrep", "-f", f"--server.port {port}"], capture_output=True).stdout == b""
    said = log.read_text()  # the server's output: no noise from the modules preloaded or the warm-up (#52)
    assert "No runtime found" not in said and "missing ScriptRunContext" not in said, said


def test_source_and_player_filters_live_in_the_address(warehouse):
    test = app(warehouse, "scarney", {"source": "phh"})
    assert test.metric[0].value == "1"  # the one replayed Scarney example hand
    test = app(warehouse, "cry-me-a-river", {"source": "simulation", "players": "4"})
    assert test.metric[0].value == "20,000"
    assert not test.exception


def test_charts_name_their_axes_and_show_interval_and_exact_on_hover(warehouse):
    import json

    test = app(warehouse, "holdem")
    specs = [json.loads(chart.proto.spec) for chart in test.get("vega_lite_chart")]
    categories = next(s for s in specs if "Categories at the showdown" in json.dumps(s.get("title", "")))
    text = json.dumps(categories)
    assert "(red: exact)" in text  # showdown-mode hold'em: the exact 7-card frequencies are drawn
    bars = categories["layer"][0]["encoding"]
    assert bars["y"]["field"] == "category" and bars["x"]["title"] == "rate"  # names down the side
    assert {t.get("title", t.get("field")) for t in bars["tooltip"]} >= {"95% low", "95% high", "exact", "n"}


def test_skoejarth_suit_glyphs_are_ones_the_default_fonts_draw():
    from engine.rules.games import get_game

    SKOEJARTH = get_game("skoejarth").deck

    # the Batons glyph was a Linear B sign (U+100C9), a missing-glyph box in Chromium's fonts
    glyphs = [ch for symbol, _ in SKOEJARTH.suit_glyphs for ch in symbol if ch != "\ufe0e"]  # text style
    assert all(ord(ch) <= 0x2FFF for ch in glyphs)  # symbols and shapes the DejaVu fonts carry


def test_the_odds_page_reads_its_situation_from_the_url_and_says_bad_input_in_one_line(warehouse):
    query = {"variant": "holdem", "hands": "AhAs;KdKc", "board_board": "2c7dTh8s"}
    test = app(warehouse, "screens/odds.py", query)
    assert not test.exception and not test.error
    assert [t.value for t in test.text_input][:3] == ["AhAs", "KdKc", "2c7dTh8s"]
    assert "every runout (44)" in test.subheader[0].value
    assert test.dataframe[0].value["equity"].to_list() == ["95.45%", "4.55%"]
    bad = app(warehouse, "screens/odds.py", query | {"hands": "AhAs;AhKc"})
    assert not bad.exception and [e.value for e in bad.error] == ["Ah is given twice"]


def test_the_odds_page_samples_down_past_its_time_limit_and_says_so(tmp_path):
    six = ";".join(["random"] * 6)  # six draw hands: about 4 s for 200,000 runouts here
    test = app(tmp_path, "screens/odds.py", {"variant": "deuce-to-seven-triple-draw", "hands": six})
    assert not test.exception and "200,000 sampled runouts" in test.subheader[0].value and not test.info
    test.number_input(key="odds-limit").set_value(0.1).run()
    assert not test.exception and not test.error
    said = test.info[0].value
    assert said.startswith("200,000 sampled runouts would take about ") and "time limit of 0.1 s:" in said
    runouts = int(test.subheader[0].value.split(": ")[1].split(" ")[0].replace(",", ""))
    assert runouts < 200_000 and f"{runouts:,} are sampled instead, each figure within ±" in said


def test_the_starting_hands_page_draws_the_usual_grid_from_the_stored_table(warehouse):
    import json

    test = app(warehouse, "screens/starting_hands.py", {"variant": "holdem", "players": "2"})
    assert not test.exception and not test.error
    table = test.dataframe[0].value
    assert table.shape[0] == 169 and table["hand"].to_list()[0] == "AA" and table["rank"].to_list()[0] == "1"
    grid = json.loads(test.get("vega_lite_chart")[0].proto.spec)
    spec = json.dumps(grid)
    assert '"row"' in spec and '"column"' in spec and "equity" in spec  # a heat grid coloured by equity
    assert grid["layer"][0]["encoding"]["color"]["title"] == "equity %"  # the legend in percent, as the cells

    three = app(warehouse, "screens/starting_hands.py", {"variant": "holdem", "players": "3"})
    assert not three.exception and "scooplab hands --variant holdem --players 3" in three.info[0].value


def test_a_missing_table_is_computed_from_the_page_and_features_are_charted(tmp_path):
    test = app(tmp_path, "screens/starting_hands.py", {"variant": "short-deck", "players": "2"})
    assert not test.exception and test.button[0].label == "Compute it now"
    test.button[0].click().run()
    assert not test.exception and not test.error
    assert test.dataframe[0].value.shape[0] == 81  # short deck's classes
    assert list(tmp_path.glob("starting_hands/variant=short-deck/run=players2-*/table.parquet"))
    compute_and_store(Warehouse(tmp_path), get_game("scarney"), 2, {}, samples=2_000)
    data.starting_hands.clear()
    scarney = app(tmp_path, "screens/starting_hands.py", {"variant": "scarney", "players": "2"})
    assert not scarney.exception and not scarney.error
    feature = scarney.selectbox(key="feature")
    assert feature.value == "aces" and "low share" in scarney.selectbox(key="figure").options
    assert scarney.dataframe[0].value["aces"].to_list()[:2] == ["0", "1"]
    feature.set_value("pairs").run()
    assert not scarney.exception and scarney.dataframe[0].value["pairs"].to_list()[:2] == ["0", "1"]


def test_cards_clicked_on_the_deck_grid_fill_the_chosen_field_and_grey_out(warehouse):
    test = app(warehouse, "screens/odds.py", {"variant": "holdem", "hands": "random;KdKc"})
    assert not test.exception
    test.button(key="deck-holdem-Ah").click().run()
    test.button(key="deck-holdem-As").click().run()
    assert [t.value for t in test.text_input][:2] == ["AhAs", "KdKc"]
    assert test.button(key="deck-holdem-Ah").disabled and test.button(key="deck-holdem-Kd").disabled
    test.radio(key="deck-holdem-target").set_value("board board").run()
    for card in ("2c", "7d", "Th", "8s"):
        test.button(key=f"deck-holdem-{card}").click().run()
    assert not test.exception and not test.error
    assert test.text_input(key="board-holdem-board").value == "2c7dTh8s"
    assert "every runout (44)" in test.subheader[0].value  # AhAs against KdKc on that board
    test.button(key="deck-holdem-clear").click().run()
    assert test.text_input(key="board-holdem-board").value == ""


def test_the_deck_grid_colours_each_suit_as_its_deck_draws_it():
    import doctest

    from dashboards import widgets
    from engine.hands.cards import STANDARD
    from engine.rules.games import get_game

    SKOEJARTH = get_game("skoejarth").deck

    assert doctest.testmod(widgets).failed == 0
    assert [widgets.label_colour(c) for _, c in STANDARD.suit_glyphs] == ["green", "blue", "red", "gray"]
    assert widgets.label_colour(SKOEJARTH.suit_glyphs[1][1]) == "red"  # Cups, drawn as hearts


def test_the_equilibrium_page_compares_games_and_shows_a_games_grids_buckets_and_chart(tmp_path):
    from engine.solving.pushfold import Plan
    from ingest.generation.pushfold import Solver

    empty = app(tmp_path, "screens/equilibrium.py", {"variant": "short-deck"})
    assert not empty.exception and "scooplab stats --equilibrium --compute" in empty.info[0].value
    short = Solver(Warehouse(tmp_path), get_game("short-deck"), {}, Plan(samples=200))
    for stack in (5.0, 10.0):
        short.solution(stack)
    Solver(Warehouse(tmp_path), get_game("scarney"), {}, Plan.bucketed(5, 1_000, 40)).solution(10.0)
    data.equilibrium_table.clear()
    test = app(tmp_path, "screens/equilibrium.py", {"variant": "short-deck"})
    assert not test.exception and not test.error
    compared = test.dataframe[0].value
    assert compared["game"].to_list() == ["Scarney", "Short-deck Hold'em", "Short-deck Hold'em"]
    assert compared["big blinds"].to_list() == ["10.0", "5.0", "10.0"]
    assert compared["abstraction"].to_list() == ["buckets", "classes", "classes"]
    specs = [chart.proto.spec for chart in test.get("vega_lite_chart")]
    assert len(specs) == 5  # the shares across games, push and call grids, the chart's two grids
    assert all('"row"' in spec and '"column"' in spec for spec in specs[1:])
    assert test.select_slider[0].options == ["5.0", "10.0"] and test.select_slider[0].value == 10.0
    bucketed = app(tmp_path, "screens/equilibrium.py", {"variant": "scarney"})
    assert not bucketed.exception and not bucketed.error
    buckets = bucketed.dataframe[1].value
    assert sorted(buckets["hand_group"].to_list()) == ["B01", "B02", "B03", "B04", "B05"]
    assert "on real hands" in " ".join(c.value for c in bucketed.caption)
    bucketed.text_input(key="stacks").set_value("0, x").run()
    bucketed.button[0].click().run()
    assert not bucketed.exception and "1 to 1000 big blinds" in bucketed.error[0].value


def test_the_equilibrium_page_solves_more_stacks_under_the_plan_it_shows(tmp_path):
    from engine.solving.pushfold import Plan
    from ingest.generation.pushfold import Solver

    Solver(Warehouse(tmp_path), get_game("short-deck"), {}, Plan(samples=200)).solution(5.0)
    test = app(tmp_path, "screens/equilibrium.py", {"variant": "short-deck"})
    assert not test.exception and not test.select_slider  # one stack: no slider
    test.text_input(key="stacks").set_value("6").run()
    test.button[0].click().run()
    assert not test.exception and not test.error
    assert test.select_slider[0].options == ["5.0", "6.0"]
    (run,) = {path.parent for path in tmp_path.glob("pushfold/variant=short-deck/run=*/*.parquet")}
    assert sorted(p.name for p in run.iterdir()) == ["stack-5-ante-0-tol-0.001.parquet",
                                                     "stack-6-ante-0-tol-0.001.parquet"]  # fmt: skip


def test_the_equilibrium_page_says_which_stacks_are_stored_and_colours_the_chart_by_stack(tmp_path):
    import json

    from engine.solving.pushfold import Plan
    from ingest.generation.pushfold import Solver

    solver = Solver(Warehouse(tmp_path), get_game("short-deck"), {}, Plan(samples=200))
    solver.solution(20.0)
    data.equilibrium_table.clear()
    test = app(tmp_path, "screens/equilibrium.py", {"variant": "short-deck"})
    assert not test.exception and "the solutions stored are at 20 bb" in test.info[0].value
    for stack in (5.0, 500.0):
        solver.solution(stack)
    data.equilibrium_table.clear()
    test = app(tmp_path, "screens/equilibrium.py", {"variant": "short-deck"})
    assert not test.exception and not test.info
    compared = test.dataframe[0].value
    assert "on real hands from" not in compared.columns  # classes: no estimate on real hands to show
    specs = [json.loads(chart.proto.spec) for chart in test.get("vega_lite_chart")]
    chart_grids = [s for s in specs if '"bb"' in json.dumps(s)]
    assert chart_grids and all(s["layer"][0]["encoding"]["color"]["type"] == "ordinal" for s in chart_grids)


LABELLED = [("scarney", {}), ("cry-me-a-river", {}), ("skoejarth", {}), ("holdem", {}),
            ("holdem", {"mode": "betting"})]  # fmt: skip


@pytest.mark.parametrize(("variant", "population"), LABELLED)
def test_every_statistic_of_each_game_has_a_label(warehouse, variant, population):
    from analytics import labels
    from analytics.report import flatten
    from scooplab.lab import Lab

    stats = Lab(warehouse).stats(variant, **population)
    unlabelled = [row["statistic"] for row in flatten(stats) if not labels.known(row["statistic"])]
    assert not unlabelled and stats["labels"]


def test_compare_opens_on_a_pair_that_dealt_the_same_cards_shows_labels_and_keeps_its_state_in_the_url(
    tmp_path,
):
    root = str(tmp_path)
    simulate(SimSpec("holdem", 2_000, players=4, seed=1), root, run_id="h-1")
    simulate(SimSpec("holdem", 2_000, players=4, seed=2), root, run_id="h-2")
    simulate(SimSpec("holdem", 300, players=4, seed=3, mode="betting"), root, run_id="a-bet")  # (sorts first)
    for run, options in (("sc", {}), ("sc-must-use", {"must_use_hole_card": True})):
        simulate(SimSpec("scarney", 2_000, players=4, seed=5, options=options), root, run_id=run)
    test = app(tmp_path, "screens/compare.py")
    assert not test.exception and test.selectbox[0].value == "scarney"  # (the game with such a pair)
    assert [test.selectbox[1].value, test.selectbox[2].value] == ["sc", "sc-must-use"]
    assert test.query_params["variant"] in ("scarney", ["scarney"])
    assert test.query_params["run_b"] in ("sc-must-use", ["sc-must-use"])
    test.toggle[0].set_value(False).run()  # every statistic, not only the significant differences
    shown = test.dataframe[0].value
    assert "label" not in shown.columns and shown.shape[0] > 20
    assert not any("_" in s for s in shown["statistic"])  # labels, not ids
    assert {"only A", "only B", "p adjusted"} <= set(shown.columns)
    assert set(shown["significant"]) <= {"yes", "no"}
    holdem = app(tmp_path, "screens/compare.py", {"variant": "holdem"})  # no pair dealt alike: one of a kind
    assert {holdem.selectbox[1].value, holdem.selectbox[2].value} == {"h-1", "h-2"} and not holdem.warning
    holdem.toggle[0].set_value(False).run()
    assert "only A" not in holdem.dataframe[0].value.columns  # independent samples: no discordant counts
    linked = app(tmp_path, "screens/compare.py", {"variant": "holdem", "run_a": "h-2", "run_b": "h-1"})
    assert (linked.selectbox[0].value, linked.selectbox[1].value, linked.selectbox[2].value) == (
        "holdem",
        "h-2",
        "h-1",
    )


def test_scarney_s_discard_table_names_its_rows(warehouse):
    os.environ["SCOOPLAB_DATA"] = str(warehouse)
    test = game_page("scarney")
    assert not test.exception
    table = test.table[0].value
    assert list(table.iloc[:, 0]) == ["seen", "exact"]  # each row named


def test_the_replayer_shows_each_run_of_a_board_run_twice(tmp_path):
    sites = Path(__file__).parent / "fixtures" / "sites"
    ingest([sites / "stars-run-it-twice.txt"], Warehouse(tmp_path), run_id="runs")
    hands = Warehouse(tmp_path).read("hands").to_pylist()
    turned = next(h for h in hands if h["variant"] == "holdem")  # all in on the turn, the river run twice
    test = app(tmp_path)
    test.query_params["hand"] = turned["hand_id"]
    test.switch_page("screens/replayer.py").run()
    assert not test.exception
    text = " ".join(m.value for m in test.markdown)
    assert "Board, run 1" in text and "Board, run 2" in text
    assert text.count("Board, run 2") == 1  # the river alone: the flop and turn are shared
    assert any("run 2 times" in c.value for c in test.caption)
