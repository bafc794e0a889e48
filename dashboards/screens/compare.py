"""Compare two runs of a game: every rate side by side, tested (paired when they share deals)."""

import polars as pl
import streamlit as st

from analytics.labels import field_label, p_text
from dashboards import data, widgets

st.title("Compare runs")
path = data.data_path()
runs = data.runs(path)
if runs.height == 0:
    widgets.no_data()
    st.stop()
games = data.games()
names = list(games)
asked = st.query_params.get("variant")
first_pair = data.default_pair(path)
if asked not in games:  # by default the first game with two runs that dealt the same cards, or alike
    several = (n for n in names if runs.filter(pl.col("variant") == n)["run_id"].n_unique() > 1)
    asked = first_pair[0] if first_pair else next(several, names[0])
variant = st.selectbox("Game", names, index=names.index(asked), format_func=lambda name: games[name].title)
st.query_params["variant"] = variant
options = sorted(set(runs.filter(pl.col("variant") == variant)["run_id"].to_list()))
if len(options) < 2:
    st.info("Two runs of this game are needed: simulate it again with another option, e.g. "
            f"`scooplab simulate --variant {variant} --seed 1 --rule NAME=VALUE` "
            "(`scooplab variants` lists each game's options).")  # fmt: skip
    st.stop()
pair = data.deal_pair(path, variant) or data.alike_pair(runs, variant)  # the same cards, else the same kind
first, second = (options.index(pair[0]), options.index(pair[1])) if pair else (0, 1)
linked = st.query_params.get("run_a"), st.query_params.get("run_b")  # a link's pair first
if all(run in options for run in linked):
    first, second = options.index(linked[0]), options.index(linked[1])
left, right = st.columns(2)
run_a = left.selectbox("Run A", options, index=first)
run_b = right.selectbox("Run B", options, index=second)
st.query_params["run_a"], st.query_params["run_b"] = run_a, run_b
result = data.compare(path, variant, run_a, run_b)
for warning in result["warnings"]:
    st.warning(warning)
if result["paired"]:
    st.caption("The two runs dealt the same cards: hand-level rates and categories are tested hand by hand "
               "(McNemar), the rest as independent samples. p-values are adjusted for testing every "
               "statistic at once (Benjamini-Hochberg, 5% false discoveries).")  # fmt: skip
else:
    st.caption("Independent samples (two-proportion z test); p-values adjusted for testing every "
               "statistic at once (Benjamini-Hochberg, 5% false discoveries).")  # fmt: skip
rows = pl.DataFrame(result["rows"])
only = st.toggle("Only significant differences", value=True)
if only and rows.height:
    rows = rows.filter(pl.col("significant"))
if "label" in rows.columns:  # the statistic by its label (its id is in `scooplab compare --format json`)
    rows = rows.drop("statistic").rename({"label": "statistic"})
if rows.height:
    rows = widgets.formatted(rows, ["rate_a", "rate_b", "difference"], lambda v: f"{100 * v:.3f}%")
    rows = widgets.formatted(rows, ["p_value", "p_adjusted"], p_text)  # (never a bare 0)
    rows = widgets.formatted(rows, ["significant"], lambda v: "yes" if v else "no")
    rows = rows.drop([name for name in ("only_a", "only_b") if rows[name].null_count() == rows.height])
st.dataframe(widgets.for_display(rows).rename(field_label), hide_index=True, width="stretch")  # short names
