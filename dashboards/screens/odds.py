"""Odds for any situation of any game: each player's equity and shares, with 95% intervals.

The situation lives in the URL (``?variant=holdem&hands=AhKh;QsQd&board_board=Qh9h2c``), so a
link shows the same odds again.
"""

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets

st.title("Odds")
st.caption("Each player all in from here to the showdown: every runout when there are at most 2,000,000, "
           "else 200,000 sampled (95% intervals). Hands: cards (`AhKh`, `Ah??`), `random`, or in a "
           "two-card game a range (`TT+,AKs`, `22-55`, `15%`).")  # fmt: skip
games = data.games()
variant, same = widgets.game_choice(games)
game = games[variant]


def _given(key: str, default: str = "") -> str:
    return st.query_params.get(key, default) if same else default


given = [h for h in _given("hands").split(";") if h]
players = int(st.number_input("Players", game.min_players, game.max_players,
                              value=min(max(len(given), 2, game.min_players), game.max_players)))  # fmt: skip
fields = {f"Seat {seat + 1}": f"hand-{variant}-{seat}" for seat in range(players)}
fields |= {f"{name} board": f"board-{variant}-{name}" for name in game.board_names}
fields["Dead"] = f"dead-{variant}"
defaults = [given[seat] if seat < len(given) else "random" for seat in range(players)]
defaults += [_given(f"board_{name}") for name in game.board_names] + [_given("dead")]
for field, default in zip(fields.values(), defaults, strict=True):
    if field not in st.session_state:  # the URL's situation, until a field is edited or clicked
        st.session_state[field] = default
with st.expander("Pick cards from the deck", expanded=False):
    widgets.deck_picker(game.deck, fields, f"deck-{variant}")
seats = st.columns(min(players, 5))
hands = [seats[seat % len(seats)].text_input(f"Seat {seat + 1}", key=fields[f"Seat {seat + 1}"])
         for seat in range(players)]  # fmt: skip
cells = st.columns(len(game.board_names) + 1)
boards = {
    name: cells[b].text_input(widgets.board_label(name) + " (known cards)", key=fields[f"{name} board"])
    for b, name in enumerate(game.board_names)
}
dead = cells[-1].text_input("Dead cards", key=fields["Dead"])
st.query_params.update({"variant": variant, "hands": ";".join(hands), "dead": dead}
                       | {f"board_{name}": cards for name, cards in boards.items()})  # fmt: skip
result, error = data.odds(variant, tuple(hands), tuple(boards.items()), dead)
if error:
    st.error(error)
    st.stop()
how = f"every runout ({result['runouts']:,})" if result["exact"] else f"{result['runouts']:,} sampled runouts"
st.subheader(f"{game.title}: {how}")
rows = []  # one bar a seat and figure: the equity, then each part's share of the pot
for seat, player in enumerate(result["players"]):
    intervals = player["ci95"] or {}
    figures = {"equity": (player["equity"], "equity")}
    if len(player["shares"]) > 1:
        figures |= {f"{name} share": (value, f"shares.{name}") for name, value in player["shares"].items()}
    for figure, (value, key) in figures.items():
        low, high = intervals.get(key) or (value, value)
        rows.append({"seat": f"{seat + 1}: {player['hand']}", "figure": figure, "value": value, "low": low,
                     "high": high})  # fmt: skip
frame = pl.DataFrame(rows)
y = alt.Y("seat:N", sort=None, title=None)
x = alt.X("value:Q", axis=alt.Axis(format="%"), title="fraction of the pot (95% interval)")
tooltip = ["seat:N", "figure:N", alt.Tooltip("value:Q", format=".2%"), alt.Tooltip("low:Q", format=".2%"),
           alt.Tooltip("high:Q", format=".2%")]  # fmt: skip
bars = alt.Chart().mark_bar().encode(x=x, y=y, tooltip=tooltip)
whiskers = alt.Chart().mark_rule(color="black").encode(x="low:Q", x2="high:Q", y=y)
figures = list(dict.fromkeys(frame["figure"]))
chart = alt.layer(bars, whiskers, data=frame).facet(row=alt.Row("figure:N", sort=figures, title=None))
st.altair_chart(chart, width="stretch")
table = []
for seat, p in enumerate(result["players"]):
    row = {"seat": f"{seat + 1}: {p['hand']}"} | {k: p[k] for k in ("equity", "win", "tie", "scoop")}
    row |= {f"{name} share": value for name, value in p["shares"].items()}
    table.append(row | ({"dead": p["dead"]} if "dead" in p else {}))
shown = pl.DataFrame(table)
shown = widgets.formatted(shown, [c for c in shown.columns if c != "seat"], lambda v: f"{100 * v:.2f}%")
st.dataframe(widgets.for_display(shown), hide_index=True, width="stretch")
if "boards_survive" in result:
    survive = ", ".join(f"{name} {100 * rate:.2f}%" for name, rate in result["boards_survive"].items())
    st.caption(f"Boards surviving the kill: {survive}")
