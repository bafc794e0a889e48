"""Odds for any situation of any game: each player's equity and shares, with 95% intervals.

The situation lives in the URL (``?variant=holdem&hands=AhKh;QsQd&board_board=Qh9h2c``), so a
link shows the same odds again.
"""

from collections import OrderedDict
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, widgets
from engine.odds.pacing import Estimate
from engine.odds.situations import OddsError
from scooplab.lab import Lab

st.title("Odds")
st.caption("Each player all in from here to the showdown: every runout when there are at most 2,000,000, "
           "else 200,000 sampled (95% intervals); past the time limit (timed on a first batch), fewer "
           "are sampled, as the page says. Hands: cards (`AhKh`, `Ah??`), `random`, or in a two-card "
           "game a range (`TT+,AKs`, `22-55`, `15%`).")  # fmt: skip
games = data.games()
variant, same = widgets.game_choice(games)
game = games[variant]


class Work:
    """Where the work in progress is said: its size and estimate, and a progress bar."""

    def __init__(self) -> None:
        self.said, self.bar = st.empty(), st.empty()

    def estimate(self, text: str) -> None:
        self.said.caption(text)

    def progress(self, done: int, total: int) -> None:
        self.bar.progress(min(done / total, 1.0), text=f"{done:,} of {total:,} runouts")

    def clear(self) -> None:
        self.said.empty()
        self.bar.empty()


def estimate_text(estimate: Estimate) -> str:
    """The work said: its size, then its time, or the sample that replaces it past the limit."""
    if estimate.rate is None:
        return f"Settling {estimate.size()}…"
    if estimate.cut:
        return (f"{estimate.asked().capitalize()} would take {estimate.timing()}, past the time limit of "
                f"{estimate.max_seconds:g} s: {estimate.runouts:,} are sampled instead, each figure within "
                f"±{estimate.margin():.2%} (95% interval).")  # fmt: skip
    return f"{estimate.size().capitalize()}: {estimate.timing()}."


@st.cache_resource(show_spinner=False)
def computed() -> OrderedDict[tuple, tuple[dict[str, Any] | None, str | None, str | None]]:
    """The odds this server computed (the latest 64), by situation and time limit: kept here, not by
    ``st.cache_data``, which would replay the progress bar drawn while they ran."""
    return OrderedDict()


def odds(situation: tuple, work: Work) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """The odds of a situation (variant, hands, boards, dead cards, time limit) as ``scooplab odds
    --format json`` gives them, or a one-line error; and what cut them to the time limit."""
    variant, hands, boards, dead, max_seconds = situation
    cut: list[str] = []

    def heard(estimate: Estimate) -> None:
        work.estimate(estimate_text(estimate))
        if estimate.cut:
            cut.append(estimate_text(estimate))

    try:
        known = {name: cards for name, cards in boards if cards.strip()}
        result = Lab().odds(variant, list(hands), known, dead, max_seconds=max_seconds, on_estimate=heard,
                            progress=work.progress)  # fmt: skip
        return result, None, (cut or [None])[-1]
    except (OddsError, ValueError) as error:
        return None, str(error), None


def _given(key: str, default: str = "") -> str:
    return st.query_params.get(key, default) if same else default


given = [h for h in _given("hands").split(";") if h]
left, right = st.columns(2)
seated = min(max(len(given), 2, game.min_players), game.max_players)
players = int(left.number_input("Players", game.min_players, game.max_players, value=seated))
LIMIT_HELP = "Past this time, estimated on a first batch, fewer runouts are sampled."
limit = right.number_input("Time limit (seconds)", 0.1, 3600.0, 60.0, 10.0, key="odds-limit", help=LIMIT_HELP)
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
asked, store = (variant, tuple(hands), tuple(boards.items()), dead, limit), computed()
if asked not in store:
    work = Work()
    store[asked] = odds(asked, work)
    work.clear()
    while len(store) > 64:
        store.popitem(last=False)
result, error, cut = store[asked]
if error:
    st.error(error)
    st.stop()
if cut:
    st.info(cut)
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
