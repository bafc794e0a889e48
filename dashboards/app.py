"""The scooplab dashboard: ``scooplab dashboard`` serves it (``streamlit run dashboards/app.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script by streamlit
    sys.path.insert(0, str(ROOT))

from dashboards import data  # noqa: E402
from dashboards.screens import game  # noqa: E402

st.set_page_config(page_title="scooplab", page_icon="🂡", layout="wide")
HERE = Path(__file__).parent / "screens"  # not "pages": Streamlit would list a folder of that name itself


def game_page(variant: str):
    """The page of one game (built from its description), as a Streamlit page function."""

    def page() -> None:
        game.render(variant)

    page.__name__ = f"game_{variant.replace('-', '_')}"
    return page


def navigation() -> dict[str, list]:
    """Every page, by section (the games from their descriptions)."""
    return {
        "Warehouse": [st.Page(HERE / "overview.py", title="Overview", default=True)],
        "Design": [
            st.Page(HERE / "workbench.py", title="Workbench"),
            st.Page(HERE / "runs.py", title="Runs"),
        ],
        "Games": [
            st.Page(game_page(name), title=spec.title, url_path=name.replace("-", "_"))
            for name, spec in data.games().items()
        ],
        "Explore": [
            st.Page(HERE / "players.py", title="Players"),
            st.Page(HERE / "replayer.py", title="Hand replayer"),
            st.Page(HERE / "compare.py", title="Compare runs"),
            st.Page(HERE / "odds.py", title="Odds"),
            st.Page(HERE / "starting_hands.py", title="Starting hands"),
            st.Page(HERE / "equilibrium.py", title="Equilibrium"),
            st.Page(HERE / "sql.py", title="SQL"),
        ],
    }


with data.page_running():  # the background warm-up waits while a page runs, whichever way it ends
    data.follow_changes()  # a run or a saved game added since the last page: every page shows it now
    data.warm_up()  # once per server: the first pages' figures computed in the background
    st.sidebar.caption(f"Warehouse: `{data.data_path()}`")
    with data.one_line_on_failure():  # a page that fails (a query past its limits) says why in one line
        st.navigation(navigation(), expanded=True).run()  # every page listed: there are more than ten
