"""Skœjarth: categories against the exact frequencies, rank against rarity, fan cards."""

import polars as pl
import streamlit as st

from dashboards import widgets
from dashboards.screens._game import header

stats = header("skoejarth")
if stats:
    widgets.metric_rate("Best category shared (the tie rule decides)", stats["category_tie_rate"])
    st.subheader("Rank against rarity")
    table = pl.DataFrame(stats["rank_against_rarity"]).with_columns(
        pl.col("more_common_than").list.join(", ")
    )
    st.dataframe(table, hide_index=True, width="stretch")
    widgets.rate_chart(
        stats["win_rate_by_best_fan_card"], "best_fan_card", "Win rate by the best fan card", list("123456K")
    )
