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
table, chart = st.columns([1, 2])
table.dataframe(
    widgets.for_display(counts.pivot(on="source", index="variant", values="hands").fill_null(0)),
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
        ),
        color=alt.Color("source:N", title="source"),
        tooltip=["variant", "source", alt.Tooltip("hands:Q", format=",")],
    )
    .properties(title="Hands per game and source", height=height)
)
chart.altair_chart(bars, width="stretch")
st.subheader("Runs")
st.dataframe(widgets.for_display(runs), hide_index=True, width="stretch")
reasons = data.sql(path, "SELECT reason, count(*) AS hands FROM rejects GROUP BY 1 ORDER BY 2 DESC, 1")
if reasons.height:
    st.subheader(f"Rejected hands: {reasons['hands'].sum():,}")
    st.dataframe(reasons, hide_index=True, width="stretch")
    rejects = data.sql(path, "SELECT source_file, hand_index + 1 AS hand, error FROM rejects "
                             "ORDER BY source_file, hand LIMIT 200")  # fmt: skip
    with st.expander(f"The first {rejects.height:,} rejected hands (hands numbered from 1, as the CLI does)"):
        st.dataframe(rejects, hide_index=True, width="stretch")
