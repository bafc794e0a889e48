"""Equilibrium: how each game plays when both players play well, heads-up, all in or fold.

The comparison table across games (share of hands the small blind pushes and the big blind
calls at 5, 10 and 15 big blinds, the small blind's value, the best hand's equity when called),
then one game's solution at a stored stack (the 13x13 grid for two-card games, the table of
buckets for games of many hole cards) and its chart over every stored stack. Reads the stored
``pushfold`` solutions; offers to solve what is missing. The game lives in the URL.
"""

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

st.title("Equilibrium")
st.caption("Heads-up push/fold: the small blind goes all in or folds, the big blind calls or folds, "
           "each as well as it can (CFR+ to below 0.001 big blinds). Stacks in big blinds before the "
           "blinds are posted.")  # fmt: skip
path = data.data_path()
games = {name: game for name, game in data.games().items() if not game.bring_in}  # stud: no blinds to push
compared = data.equilibrium_table(path)
st.subheader("Across games")
if compared:
    figures = (
        "pushed",
        "called",
        "value",
        "exploitability",
        "full_exploitability_low",
        "full_exploitability_high",
        "best_called_equity",
    )  # null where a game has none: still numbers
    table = pl.DataFrame(compared).with_columns(pl.col(*figures).cast(pl.Float64)).select(
        pl.col("variant").replace_strict({n: g.title for n, g in games.items()}, default=pl.col("variant"))
        .alias("game"),
        pl.col("stack").alias("big blinds"),
        (pl.col("pushed") * 100).round(1).alias("pushed %"),
        (pl.col("called") * 100).round(1).alias("called %"),
        pl.col("value").round(4).alias("small blind's value (bb)"),
        pl.col("exploitability").round(5).alias("exploitability (bb)"),
        pl.col("full_exploitability_low").round(4).alias("on real hands from"),
        pl.col("full_exploitability_high").round(4).alias("to"),
        pl.col("best_hand").alias("best hand"),
        (pl.col("best_called_equity") * 100).round(1).alias("its equity when called %"),
        pl.col("abstraction"),
    )  # fmt: skip
    real = ("on real hands from", "to")  # (bucketed games alone: classes are real hands)
    if table.select(pl.col(*real).is_null().all()).row(0) == (True, True):
        table = table.drop(*real)
    st.dataframe(widgets.for_display(table), hide_index=True, width="stretch")
    shares = table.unpivot(["pushed %", "called %"], index=["game", "big blinds"], variable_name="side")
    chart = alt.Chart(shares).mark_bar().encode(
        x=alt.X("big blinds:O"), xOffset="side:N", y=alt.Y("value:Q", title="% of starting hands"),
        color="side:N", column=alt.Column("game:N", title=None),
        tooltip=["game:N", "big blinds:O", "side:N", "value:Q"],
    )  # fmt: skip
    st.altair_chart(chart)
    st.caption("Games of more than three hole cards are solved over 20 buckets of hands by equity against "
               "a random hand; their exploitability on real hands is estimated between a cross-fitted "
               "and an in-sample best response (docs/equilibrium.md).")  # fmt: skip
elif stored := data.sql(path, "SELECT DISTINCT stack FROM pushfold_summary ORDER BY 1")["stack"].to_list():
    st.info(f"This table compares games at 5, 10 and 15 big blinds; the solutions stored are at "
            f"{', '.join(f'{s:g}' for s in stored)} bb. Solve those stacks below, or every game on the "
            "command line:\n\n```\nscooplab stats --equilibrium --compute\n```")  # fmt: skip
else:
    st.info("No push/fold solution is stored yet. Solve a game below, or every game at 5, 10 and 15 bb "
            "on the command line:\n\n```\nscooplab stats --equilibrium --compute\n```")  # fmt: skip

st.subheader("One game")
variant, _ = widgets.game_choice(games)
game = games[variant]
st.query_params["variant"] = variant
frame = data.pushfold(path, variant)
stacks = sorted(set(frame["stack"].to_list())) if frame.height else []
plan = frame["plan"][0] if frame.height else None  # more stacks are solved under the plan shown
with st.expander("Solve more stacks" if stacks else "Solve this game", expanded=not stacks):
    wanted = st.text_input("Stacks (big blinds, separated by commas)", "5, 10, 15", key="stacks")
    if st.button("Solve", type="primary"):
        try:
            asked = sorted({float(x) for x in wanted.replace(" ", "").split(",") if x})
        except ValueError:
            asked = []
        if not asked or not all(1 <= x <= 1000 for x in asked):  # NaN fails both
            st.error("Give stacks of 1 to 1000 big blinds, such as 5, 10, 15.")
        else:
            with st.spinner("Dealing the matchups (a minute the first time), then solving…"):
                error = data.solve_pushfold(path, variant, asked, plan)
            if error:
                st.error(error)
            else:
                st.rerun()
if not stacks:
    st.stop()

stack = stacks[0]
if len(stacks) > 1:
    stack = st.select_slider("Stack (big blinds)", stacks, value=10.0 if 10.0 in stacks else stacks[0])
solved = frame.filter(pl.col("stack") == stack)
first = solved.row(0, named=True)
left, middle, right = st.columns(3)
left.metric("Small blind's value", f"{first['value']:+.4f} bb")
middle.metric("Pushed", f"{100 * (solved['share'] * solved['push']).sum():.1f}% of hands")
right.metric("Called", f"{100 * (solved['share'] * solved['call']).sum():.1f}% of hands")
note = f"Exploitability {first['exploitability']:.5f} bb"
if first["full_exploitability_low"] is not None:
    low, high = first["full_exploitability_low"], first["full_exploitability_high"]
    note += f" in the buckets' game; on real hands best responses gain {low:.4f} to {high:.4f} bb"
st.caption(f"{note}. {first['method']}.")
if first["abstraction"] == "classes" and all(len(n) <= 3 for n in solved["hand_group"]):
    push, call = st.columns(2)
    with push:
        st.markdown("**Small blind: push %**")
        pushes = dict(zip(solved["hand_group"], (solved["push"] * 100).round(0), strict=True))
        widgets.class_grid(pushes, game.deck.ranks, "push %")
    with call:
        st.markdown("**Big blind: call %**")
        calls = dict(zip(solved["hand_group"], (solved["call"] * 100).round(0), strict=True))
        widgets.class_grid(calls, game.deck.ranks, "call %")
else:
    listed = solved.select("hand_group", "share", "equity", "push", "call", "called_equity", "push_gain")
    if first["abstraction"] == "buckets":
        buckets = pl.DataFrame(data.buckets_of(path, variant, plan))
        buckets = buckets.select("bucket", "score_low", "score_high", "example")
        listed = listed.join(buckets, left_on="hand_group", right_on="bucket", how="left")
    percent = ["share", "equity", "push", "call", "called_equity"]
    listed = listed.with_columns(pl.col(*percent).mul(100).round(1)).sort("equity", descending=True)
    st.dataframe(widgets.for_display(listed), hide_index=True, width="stretch")
    st.caption("Percent: share of starting hands, equity against a random hand, probabilities of pushing "
               "and calling, equity against the calling range; push_gain in bb a hand.")  # fmt: skip

if len(stacks) > 1:
    st.subheader(f"The chart: the largest stack (of {len(stacks)} stored) at which each is played")
    found = data.pushfold_chart(path, variant)
    names = found["hand_group"].to_list()
    push_max = dict(zip(names, found["push_max"], strict=True))
    call_max = dict(zip(names, found["call_max"], strict=True))
    if first["abstraction"] == "classes" and all(len(n) <= 3 for n in names):
        push, call = st.columns(2)
        with push:
            st.markdown("**Pushed up to (bb)**")
            widgets.class_grid(push_max, game.deck.ranks, "bb", scheme="blues", steps=True)
        with call:
            st.markdown("**Called up to (bb)**")
            widgets.class_grid(call_max, game.deck.ranks, "bb", scheme="blues", steps=True)
    else:
        chart = pl.DataFrame({"hand": names, "pushed up to": [push_max[n] for n in names],
                              "called up to": [call_max[n] for n in names]})  # fmt: skip
        st.dataframe(widgets.for_display(chart), hide_index=True, width="stretch")
