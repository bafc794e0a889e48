"""What every game page shows: the headline rates and the category chart."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboards import data, widgets


def header(variant: str) -> dict[str, Any] | None:
    """Title, filters and headline numbers of a game page; the statistics, or None."""
    st.title(data.GAMES[variant])
    path = data.data_path()
    runs = widgets.run_filter(variant)
    stats = data.stats(path, variant, tuple(runs))
    if stats["hands"] == 0:
        widgets.no_data()
        return None
    stats = widgets.population_choice(path, variant, runs, stats)
    columns = st.columns(4)
    columns[0].metric("Hands", f"{stats['hands']:,}")
    with columns[1]:
        widgets.metric_rate("Scoop rate", stats["scoop_rate"])
    with columns[2]:
        widgets.metric_rate("Split rate", stats["split_rate"])
    with columns[3]:
        widgets.metric_rate("Showdowns", stats["showdown_rate"])
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(stats["categories_showdown"], "category", "Categories at the showdown")
    with right:
        widgets.rate_chart(stats["categories_winning"], "category", "Categories of the winning hands")
    return stats
