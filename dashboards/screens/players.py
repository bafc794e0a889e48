"""Players: statistics of hands with betting, one row per player and run, and net chips over a run."""

import altair as alt
import streamlit as st

from dashboards import data, widgets

st.title("Players")
path = data.data_path()
runs = widgets.run_filter()
table = data.player_table(path, tuple(runs))
if table.height == 0:
    st.info("No hands with betting yet: ingest hand histories, or `scooplab simulate --mode betting`.")
    st.stop()
st.caption("One row per player, run and game: one name in two runs or games is two rows. "
           "VPIP and PFR count the hands with a choice in that round (docs/statistics.md).")  # fmt: skip
st.dataframe(table, hide_index=True, width="stretch")
run = st.selectbox("Net chips over the hands of run", table["run_id"].unique(maintain_order=True).to_list())
net = data.net_over_hands(path, run)
if net.height:
    chart = (
        alt.Chart(net.to_pandas())
        .mark_line()
        .encode(
            x=alt.X("hand:Q", title="hand of the run"),
            y=alt.Y("net:Q", title="net chips, cumulative"),
            color=alt.Color("player:N", title="player"),
            tooltip=["player", alt.Tooltip("hand:Q", format=","), alt.Tooltip("net:Q", format=",")],
        )
        .properties(title=f"Net chips over the hands of {run}", height=320)
    )
    st.altair_chart(chart, width="stretch")
