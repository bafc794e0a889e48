"""Players, as a tracker shows them: a sortable table of every player under the sidebar's filters,
one player's lines by position and net won over time, and the population's spread of each
statistic (docs/statistics.md, "Players")."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

RATES = (("vpip", "VPIP"), ("pfr", "PFR"), ("three_bet", "3-bet"), ("fold_to_three_bet", "fold to 3-bet"),
         ("cbet", "c-bet"), ("fold_to_cbet", "fold to c-bet"), ("wtsd", "WTSD"), ("wsd", "W$SD"))  # fmt: skip


def _filters(choices: dict[str, list[Any]]) -> tuple[dict[str, Any], int]:
    """The sidebar's filters (as ``PlayerFilter`` fields) and the minimum hands."""
    side = st.sidebar
    chosen: dict[str, Any] = {
        "venues": side.multiselect("Venue", choices["venues"], format_func=lambda v: v or "(none named)"),
        "stakes": side.multiselect("Stake (the big blind)", choices["stakes"]),
        "table_sizes": side.multiselect("Table size", choices["table_sizes"]),
        "variants": side.multiselect("Game", choices["variants"]),
    }
    first, last = choices["days"]
    if first is not None:
        days = side.date_input("Days played", (first, last), min_value=first, max_value=last)
        if isinstance(days, tuple) and len(days) == 2 and tuple(days) != (first, last):
            chosen |= {"first_day": days[0], "last_day": days[1]}  # hands without a day leave out
    least = side.number_input("Minimum hands", min_value=0, value=0, step=100)
    return {k: tuple(v) if isinstance(v, list) else v for k, v in chosen.items() if v}, int(least)


# numbers as numbers (the table sorts by them), shown with separators and percent signs
COLUMNS = {
    "hands": st.column_config.NumberColumn(format="localized"),
    "net won": st.column_config.NumberColumn(format="localized"),
    **{name: st.column_config.NumberColumn(format="%.1f%%") for _, name in RATES},
}


def _shown(frame: pl.DataFrame) -> pl.DataFrame:
    """Rates as percentages, the net with its currency, bb/100 and its interval."""
    keys = [c for c in ("venue", "player", "position") if c in frame.columns]
    return frame.select(
        *keys,
        "hands",
        *[(100 * pl.col(key)).round(1).alias(name) for key, name in RATES],
        pl.col("af").round(2).alias("AF"),
        pl.col("net").cast(pl.Float64).alias("net won"),
        "currency",
        pl.col("bb_per_100").round(1).alias("bb/100"),
        pl.col("bb_per_100_low").round(1).alias("bb/100 low"),
        pl.col("bb_per_100_high").round(1).alias("bb/100 high"),
    )


def _distribution(table: pl.DataFrame, key: str, name: str, mine: float | None) -> None:
    """The players' spread of one statistic, the chosen player's value marked."""
    values = table.filter(pl.col(key).is_not_null()).select((100 * pl.col(key)).alias(name))
    if values.height == 0:
        return
    bars = (
        alt.Chart(values.to_pandas())
        .mark_bar()
        .encode(
            x=alt.X(f"{name}:Q", bin=alt.Bin(maxbins=40), title=f"{name} %"),
            y=alt.Y("count()", title="players"),
        )
    )
    if mine is not None:
        marked = pl.DataFrame({name: [100 * mine]}).to_pandas()
        bars += alt.Chart(marked).mark_rule(color="red", strokeWidth=2).encode(x=f"{name}:Q")
    st.altair_chart(
        bars.properties(height=220, title=f"{name} across {values.height:,} players"), width="stretch"
    )


def _net_chart(net: pl.DataFrame, player: str) -> None:
    for currency in net["currency"].unique(maintain_order=True).to_list():
        part = net.filter(pl.col("currency").eq_missing(currency)).with_columns(
            pl.col("net").cast(pl.Float64)
        )
        unit = currency or "chips"
        chart = (
            alt.Chart(part.to_pandas())
            .mark_line()
            .encode(
                x=alt.X("hand:Q", title="hand, in the order played"),
                y=alt.Y("net:Q", title=f"net won ({unit}), cumulative"),
                tooltip=[
                    "played_on",
                    alt.Tooltip("hand:Q", format=","),
                    "net",
                    alt.Tooltip("net_bb:Q", format=",.1f"),
                ],
            )
            .properties(title=f"{player}: net won over time ({unit})", height=300)
        )
        st.altair_chart(chart, width="stretch")


def _player(path: str, table: pl.DataFrame, filters: dict[str, Any], picked: int | None) -> int | None:
    """One player's lines by position and net won over time: the row clicked, or the one named."""
    labels = [f"{p} ({v})" if v else p for p, v in zip(table["player"], table["venue"], strict=True)]
    index = st.selectbox("Player", range(table.height), index=picked, format_func=lambda i: labels[i],
                         placeholder="Click a row above, or type a name")  # fmt: skip
    if index is None:
        return None
    player, venue = table["player"][index], table["venue"][index]
    found = data.tracker_player(path, player, venue, tuple(sorted(filters.items())))
    st.subheader(labels[index])
    st.dataframe(widgets.for_display(_shown(found["lines"])), hide_index=True, width="stretch")
    if found["net"].height:
        _net_chart(found["net"], player)
    return index


st.title("Players")
path = data.data_path()
choices = data.tracker_choices(path)
if not choices["variants"]:
    st.info("No hands with betting yet: ingest hand histories, or `scooplab simulate --mode betting`.")
    st.stop()
filters, least = _filters(choices)
table = data.tracker(path, tuple(sorted(filters.items())), least)
st.caption(
    f"{table.height:,} players (a name at a venue) with at least {least:,} hands under these filters, most "
    "hands first; click a column to sort, a row to see that player. Each rate counts the hands "
    "where the player had the chance (docs/statistics.md); net won and bb/100 count hands whose "
    "result was recorded, bb/100 with its 95% interval."
)
if table.height == 0:
    st.info("No player matches these filters.")
    st.stop()
event = st.dataframe(_shown(table), hide_index=True, width="stretch", on_select="rerun", placeholder="—",
                     selection_mode="single-row", key="players-table", column_config=COLUMNS)  # fmt: skip
rows = event.selection.rows if event is not None and hasattr(event, "selection") else []
chosen = _player(path, table, filters, rows[0] if rows else None)
key, name = st.selectbox("The players' spread of", RATES, format_func=lambda r: r[1])
_distribution(table, key, name, None if chosen is None else table[key][chosen])
