"""Players: statistics of hands with betting, and net chips over hands."""

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

st.title("Players")
path = data.data_path()
runs = widgets.run_filter()
table = data.sql(path, "SELECT * FROM player_stats")
if runs:
    table = table.filter(pl.col("run_id").is_in(runs))
if table.height == 0:
    st.info("No hands with betting yet: ingest hand histories, or `scooplab simulate --mode betting`.")
    st.stop()
table = (
    table.group_by("variant", "player")
    .agg(pl.exclude("run_id").sum())
    .with_columns(
        (pl.col("vpip") / pl.col("hands")).alias("VPIP"),
        (pl.col("pfr") / pl.col("hands")).alias("PFR"),
        (pl.col("three_bet") / pl.col("three_bet_chances")).alias("3-bet"),
        (pl.col("wtsd") / pl.col("saw_flop")).alias("WTSD"),
        (pl.col("wsd") / pl.col("wtsd")).alias("W$SD"),
        (100 * pl.col("bb_won") / pl.col("hands")).alias("bb/100"),
    )
    .sort("hands", descending=True)
)
st.dataframe(table, hide_index=True, width="stretch")
top = table.head(12)["player"].to_list()
names = ", ".join("'" + p.replace("'", "''") + "'" for p in top)
net = data.sql(
    path,
    "SELECT p.player, h.hand_no, "
    "sum(p.net) OVER (PARTITION BY p.player ORDER BY h.run_id, h.hand_no) AS net "
    f"FROM players_raw p JOIN hands_raw h USING (hand_id) WHERE p.player IN ({names}) ORDER BY h.hand_no",
)
if net.height:
    chart = alt.Chart(net.to_pandas()).mark_line().encode(x="hand_no:Q", y="net:Q", color="player:N")
    st.altair_chart(chart.properties(title="Net chips over hands", height=300), width="stretch")
