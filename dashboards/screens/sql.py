"""SQL console: read-only queries over the views, results as a table, CSV and Parquet downloads
(of the rows shown; the whole result on request, as Parquet).

Each query runs in a process of its own, stopped at the time and memory limits; a page shown
again for the same query (a download, a resize) reuses its answer for a minute.
"""

import io
import time

import streamlit as st

from dashboards import data

st.title("SQL")
LIMIT = 10_000  # rows shown and downloaded
REUSE_SECONDS = 60  # the same query's answer is shown again for this long without running it again
EXAMPLES = {
    "Hands per game": "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL",
    "Scoop rate per game": (
        "SELECT variant, avg(scoop::INT) AS scoop_rate FROM hand_outcomes WHERE showdown GROUP BY 1"
    ),
    "Low points": (
        "SELECT variant, low_points, count(*) AS seats FROM players "
        "WHERE low_points IS NOT NULL AND showdown GROUP BY ALL ORDER BY ALL"
    ),
    # the Players page's stored counts (player_totals), not a pass over every action (player_stats)
    "Player statistics": (
        "SELECT player, variant, CAST(sum(hands) AS BIGINT) AS hands, "
        "round(100 * sum(vpip_n) / sum(vpip_of), 1) AS vpip_pct, "
        "round(100 * sum(pfr_n) / sum(pfr_of), 1) AS pfr_pct, "
        "round(100 * sum(net_bb) / nullif(sum(results_hands), 0), 1) AS bb_per_100 "
        "FROM player_totals GROUP BY ALL ORDER BY hands DESC LIMIT 20"
    ),
}
columns = st.columns(len(EXAMPLES))
for column, (label, text) in zip(columns, EXAMPLES.items(), strict=True):
    if column.button(label):
        st.session_state["sql"] = text
console, browser = st.columns([3, 1])
with browser:
    st.caption("Views and their columns (docs/warehouse.md)")
    columns_of = data.view_columns(data.data_path())
    for view in columns_of["view"].unique(maintain_order=True).to_list():
        with st.expander(view):
            st.dataframe(columns_of.filter(columns_of["view"] == view).drop("view"), hide_index=True)
with console:
    text = st.text_area("Query (one read-only SELECT)", key="sql", height=120,
                        placeholder="SELECT variant, count(*) FROM hands GROUP BY 1")  # fmt: skip
    st.caption(data.query_limits())


def answer(text: str) -> tuple:
    """``data.user_query`` of the text, or its answer of less than ``REUSE_SECONDS`` ago."""
    key, last = (data.data_path(), text), st.session_state.get("sql_answer")
    if last is None or last[0] != key or time.monotonic() - last[1] > REUSE_SECONDS:
        last = key, time.monotonic(), data.user_query(data.data_path(), text, LIMIT)
        st.session_state["sql_answer"] = last
    return last[2]


def whole_result(console, text: str, total: int) -> None:
    """Say that the downloads above hold the rows shown, and offer the whole result: the query run
    again without a row limit (still within the time and memory limits), written to Parquet."""
    console.caption(f"The downloads above hold the {LIMIT:,} rows shown, not all {total:,}.")
    if console.button(f"Prepare the whole result ({total:,} rows) for download"):
        st.session_state["sql_whole"] = (data.data_path(), text, data.whole_query(data.data_path(), text))
    prepared = st.session_state.get("sql_whole")
    if prepared is None or prepared[:2] != (data.data_path(), text):
        return
    parquet, rows, error = prepared[2]
    if error:
        console.error(error)
    else:
        label = f"Download the whole result as Parquet ({rows:,} rows)"
        console.download_button(label, parquet, file_name="scooplab-query-all.parquet",
                                mime="application/octet-stream")  # fmt: skip


if text.strip():
    frame, total, error = answer(text)
    if error:
        console.error(error)
    else:
        cut = total > frame.height
        console.caption(f"showing the first {frame.height:,} of {total:,} rows" if cut else f"{total:,} rows")
        console.dataframe(frame, hide_index=True, width="stretch")
        parquet = io.BytesIO()
        frame.write_parquet(parquet)
        left, right = console.columns(2)
        shown = f" ({frame.height:,} rows shown)" if cut else ""
        left.download_button(f"Download CSV (lists as text){shown}", data.flat_text(frame).write_csv(),
                             file_name="scooplab-query.csv", mime="text/csv")  # fmt: skip
        right.download_button(
            f"Download Parquet{shown}",
            parquet.getvalue(),
            file_name="scooplab-query.parquet",
            mime="application/octet-stream",
        )
        if cut:
            whole_result(console, text, total)
