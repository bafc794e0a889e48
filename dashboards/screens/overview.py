"""Overview: what the warehouse holds."""

import altair as alt
import streamlit as st

from dashboards import data, widgets

st.title("scooplab")
path = data.data_path()
if data.empty(path):
    widgets.no_data()
    st.stop()
counts = data.hand_counts(path)
left, right = st.columns(2)
left.metric("Hands", f"{counts['hands'].sum():,}")
runs = data.runs(path)
right.metric("Runs", f"{runs['run_id'].n_unique():,}", help=f"latest: {runs['created_at'].max()}")
chart = (
    alt.Chart(counts.to_pandas())
    .mark_bar()
    .encode(
        x=alt.X("variant:N", title=None),
        y=alt.Y("hands:Q"),
        color="source:N",
        tooltip=["variant", "source", "hands"],
    )
    .properties(title="Hands per game and source", height=260)
)
st.altair_chart(chart, width="stretch")
st.subheader("Runs")
st.dataframe(runs, hide_index=True, width="stretch")
rejects = data.sql(path, "SELECT source_file, hand_index, error FROM rejects LIMIT 200")
st.subheader(f"Rejected hands ({rejects.height:,} shown)")
st.dataframe(rejects, hide_index=True, width="stretch")
