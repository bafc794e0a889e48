"""Starting hands: every class of a game ranked by all-in equity against random hands (a heat
grid for two-card games, a sortable table for the others), or a feature table for games of
many hole cards. Reads the stored ``starting_hands`` tables; offers to compute a missing one.

The game and table size live in the URL (``?variant=holdem&players=2``).
"""

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

st.title("Starting hands")
st.caption("Each hand all in before the first betting round against random hands to the showdown. "
           "Figures are fractions of the pot or of runouts, with 95% intervals.")  # fmt: skip
games = data.games()
variant, same = widgets.game_choice(games)
game = games[variant]
asked = st.query_params.get("players", "2") if same else "2"
wanted = int(asked) if asked.isdigit() else 2  # a link with a bad number shows two players
players = int(st.number_input("Players", game.min_players, game.max_players,
                              value=min(max(wanted, game.min_players), game.max_players)))  # fmt: skip
st.query_params.update({"variant": variant, "players": str(players)})
path = data.data_path()
frame = data.starting_hands(path, variant, players)
if frame.height == 0:
    st.info(f"No starting-hand table of {game.title} with {players} players is stored yet. Compute it "
            f"here (seconds to a minute), or on the command line:\n\n"
            f"```\nscooplab hands --variant {variant} --players {players}\n```")  # fmt: skip
    if st.button("Compute it now", type="primary"):
        with st.spinner("Dealing runouts…"):
            error = data.compute_starting_hands(path, variant, players)
        if error:
            st.error(error)
        else:
            st.rerun()
    st.stop()

tables = frame.select("method", "options", "samples", "seed").unique(maintain_order=True)
labels = [f"{r['method']}; options {r['options']}" for r in tables.iter_rows(named=True)]
chosen = st.selectbox("Table", labels) if len(labels) > 1 else labels[0]
pick = tables.row(labels.index(chosen), named=True)
rows = frame.filter((pl.col("method") == pick["method"]) & (pl.col("options") == pick["options"]))
st.caption(f"{game.title}, {players} players: {pick['method']}")
parts = [s["part"] for s in rows["shares"].to_list()[0] or []]
measures = ["equity", "scoop", "win", *(["dead"] if rows["dead"][0] is not None else []),
            *(f"{p} share" for p in parts)]  # fmt: skip
for part in parts:  # each part's share and its interval as columns: "high share", "high share_low"...
    for field, suffix in (("share", ""), ("low", "_low"), ("high", "_high")):
        of_part = pl.element().filter(pl.element().struct.field("part") == part).struct.field(field)
        column = pl.col("shares").list.eval(of_part).list.first()
        rows = rows.with_columns(column.alias(f"{part} share{suffix}"))


def interval_bars(table: pl.DataFrame, label: str, measure: str) -> None:
    """One bar a value of the feature, with its 95% interval."""
    low, high = pl.col(f"{measure}_low").alias("low"), pl.col(f"{measure}_high").alias("high")
    chart = table.select(pl.col("hand_group").alias(label), pl.col(measure).alias("value"), low, high)
    y = alt.Y(f"{label}:N", sort=None, title=label)
    x = alt.X("value:Q", axis=alt.Axis(format="%"), title=f"{measure} (95% interval)")
    tooltip = [f"{label}:N", alt.Tooltip("value:Q", format=".2%", title=measure)]
    bars = alt.Chart(chart).mark_bar().encode(x=x, y=y, tooltip=tooltip)
    whiskers = alt.Chart(chart).mark_rule(color="black").encode(x="low:Q", x2="high:Q", y=y)
    st.altair_chart(bars + whiskers, width="stretch")


def shown(table: pl.DataFrame, first: list[str], label: str) -> pl.DataFrame:
    """The rows on screen: percentages with two decimals, the equity's interval beside it."""
    percent = ["frequency", "equity", "equity_low", "equity_high", *measures[1:]]
    out = table.select(*first, "combos", *percent).with_columns(pl.col(*percent).mul(100).round(2))
    return out.rename({"hand_group": label, "frequency": "of hands", "equity_low": "equity from",
                       "equity_high": "equity to"})  # fmt: skip


classes = rows.filter(pl.col("kind") == "class").sort("rank")
if classes.height:
    two_cards = all(len(name) <= 3 for name in classes["hand_group"])  # AA, AKs, AKo
    if two_cards:
        measure = st.radio("Colour by", measures, horizontal=True)
        named = zip(classes["hand_group"], classes[measure], strict=True)
        figures = {name: 100 * value for name, value in named}
        labels = {name: f"{value:.0f}" for name, value in figures.items()}
        widgets.class_grid(figures, game.deck.ranks, f"{measure} %", labels)  # (legend and cells in percent)
        st.caption("Figures in percent.")
    st.subheader("Every class, best first" + ("" if two_cards else " (sortable: click a column)"))
    listed = shown(classes, ["rank", "hand_group"], "hand")
    st.dataframe(widgets.for_display(listed), hide_index=True, width="stretch")
else:
    kinds = sorted(set(rows["kind"]) - {"all"})  # aces, connected, low_cards, low_points, pairs...
    left, right = st.columns(2)
    kind = left.selectbox("Feature", kinds, index=0, key="feature")
    measure = right.selectbox("Figure", measures, index=0, key="figure")
    table = rows.filter(pl.col("kind") == kind).sort("value")
    interval_bars(table, kind, measure)
    listed = shown(table, ["hand_group", "rank"], kind)
    st.dataframe(widgets.for_display(listed), hide_index=True, width="stretch")
st.caption("Percent columns: equity, rates and shares × 100; combos: combinations of a class in the deck "
           "(a feature: seats counted).")  # fmt: skip
