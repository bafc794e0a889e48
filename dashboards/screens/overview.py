"""Overview: what the warehouse holds, in words: games by their titles, hands replayed or simulated."""

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

RUN_COLUMNS = {"run_id": "run", "variant": "game", "kind": "source", "mode": "mode", "players": "players",
               "hands": "hands", "status": "status", "created_at": "created (UTC)", "options": "rule options",
               "seed": "seed"}  # fmt: skip

st.title("scooplab")
path = data.data_path()
if data.empty(path):
    widgets.no_data()
    st.stop()
titles = widgets.game_titles(data.games())
counts = widgets.in_words(data.hand_counts(path), titles)
left, right = st.columns(2)
left.metric("Hands", f"{counts['hands'].sum():,}")
runs = data.runs(path)
latest = runs["created_at"].max()
right.metric("Runs", f"{runs['run_id'].n_unique():,}",
             help=f"the latest created {latest:%Y-%m-%d %H:%M} UTC" if latest else None)  # fmt: skip
table, chart = st.columns([1, 2])
table.dataframe(
    widgets.for_display(
        counts.pivot(on="source", index="variant", values="hands").fill_null(0).rename({"variant": "game"})
    ),
    hide_index=True,
    width="stretch",
)
height = widgets.CHART_FRAME + 28 * counts["variant"].n_unique()
bars = (
    alt.Chart(counts.to_pandas())
    .mark_bar()
    .encode(  # games down the side, every name in full; hands on a log scale from one (no 0 on it)
        y=alt.Y("variant:N", title="game", axis=alt.Axis(labelLimit=300, labelOverlap=False)),
        yOffset="source:N",
        x=alt.X(
            "hands:Q",
            title="hands (log scale)",
            scale=alt.Scale(type="log", domainMin=1),
            axis=alt.Axis(format="~s"),
            stack=None,  # bars side by side: a stacked bar starts at 0, nowhere on a log axis (none drawn)
        ),
        color=alt.Color("source:N", title="source"),
        tooltip=[alt.Tooltip("variant:N", title="game"), "source", alt.Tooltip("hands:Q", format=",")],
    )
    .properties(title="Hands per game and source", height=height)
)
chart.altair_chart(bars, width="stretch")
st.subheader("Runs")
runs = widgets.in_words(runs.select(list(RUN_COLUMNS)), titles)
runs = runs.with_columns(pl.col("created_at").dt.strftime("%Y-%m-%d %H:%M"))
st.dataframe(widgets.for_display(runs).rename(RUN_COLUMNS), hide_index=True, width="stretch")
reasons = data.sql(path, "SELECT reason, count(*) AS hands FROM rejects GROUP BY 1 ORDER BY 2 DESC, 1")
if reasons.height:
    st.subheader(f"Rejected hands: {reasons['hands'].sum():,}")
    st.dataframe(reasons, hide_index=True, width="stretch")
    rejects = data.sql(path, "SELECT source_file AS file, hand_index + 1 AS hand, error FROM rejects "
                             "ORDER BY file, hand LIMIT 200")  # fmt: skip
    with st.expander(f"The first {rejects.height:,} rejected hands (hands numbered from 1, as the CLI does)"):
        st.dataframe(rejects, hide_index=True, width="stretch")
