"""Shared page pieces: filters kept in the URL, rate charts, cards drawn as cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data

SMALL_SAMPLE = 30  # fewer items than this: a count, not a rate


def _choice(label: str, options: list[str], key: str, long: bool = False) -> str:
    """A sidebar select box whose value lives in the page address (``?key=value``); radio buttons
    for ``long`` labels (they wrap where a select box cuts them)."""
    current = st.query_params.get(key, options[0])
    index = options.index(current) if current in options else 0
    choose = st.sidebar.radio if long else st.sidebar.selectbox
    value = choose(label, options, index=index, key=f"filter-{key}")
    st.query_params[key] = value
    return value


def game_choice(games: dict) -> tuple[str, bool]:
    """A select box of the games, its first choice the URL's ``?variant=``; the game's name, and
    whether the URL named this game (so its other parameters describe it)."""
    names = list(games)
    asked = st.query_params.get("variant", "holdem")
    variant = st.selectbox("Game", names, index=names.index(asked) if asked in names else 0,
                           format_func=lambda name: games[name].title)  # fmt: skip
    return variant, st.query_params.get("variant") == variant


def run_filter(variant: str | None = None) -> list[str]:
    """Sidebar filters (source, player count, runs), kept in the page address.

    Returns the runs to show; an empty list means every run.
    """
    frame = data.runs(data.data_path())
    if variant:
        frame = frame.filter(pl.col("variant") == variant)
    source = _choice("Source", ["all", "simulation", "phh"], "source")
    counts = sorted({str(p) for p in frame["players"].to_list() if p is not None})
    players = _choice("Players (simulations)", ["all", *counts], "players")
    filtered = source != "all" or players != "all"
    if source != "all":
        frame = frame.filter(pl.col("kind") == ("simulation" if source == "simulation" else "ingest"))
    if players != "all":
        frame = frame.filter(pl.col("players") == int(players))
    options = sorted(set(frame["run_id"].to_list()))
    chosen = [r for r in st.query_params.get("runs", "").split(",") if r in options]
    picked = st.sidebar.multiselect("Runs (none: all)", options, default=chosen, key=f"runs-{variant}")
    st.query_params["runs"] = ",".join(picked)
    if picked:
        return picked
    if filtered:
        return options or [data.NO_RUN]
    return []


def population_choice(path: str, variant: str, runs: list[str], stats: dict[str, Any]) -> dict[str, Any]:
    """A sidebar choice of the population (mode, table size, structure, rule set), kept in the page address.

    ``stats`` are those of the largest population; the statistics of the one chosen are returned,
    and the page says which population its numbers are over.
    """
    found = stats["populations"]
    labels = [p["label"] for p in found]
    label = _choice("Population", labels, "population", long=True)
    if label != stats["population"]["label"]:
        stats = data.stats(path, variant, tuple(runs), label)
    others = len(found) - 1
    more = f" ({others} other population{'s' if others > 1 else ''} in the sidebar)" if others else ""
    versions = stats.get("description_versions") or {}
    if versions:
        older = ", ".join(str(v) for v in versions["others"])
        more += (f"; runs of version {versions['shown']} of the description (runs of version {older}: choose "
                 "them under Runs in the sidebar)")  # fmt: skip
    st.caption(f"Over {stats['population']['label']}: {stats['hands']:,} hands{more}")
    return stats


def formatted(frame: pl.DataFrame, columns: Iterable[str], text: Callable[[Any], str]) -> pl.DataFrame:
    """``columns`` of ``frame`` as ``text`` of each value (nulls stay null), formatted here in Python.

    Never with ``map_elements``: Polars runs its Python calls on its thread pool, and while one
    session's page waits for them there, another session's ``to_pandas`` holds the GIL waiting
    for the same pool, and the whole server deadlocks (docs/reliability.md)."""
    return frame.with_columns(
        pl.Series(name, [None if v is None else text(v) for v in frame[name].to_list()], dtype=pl.String)
        for name in columns
    )


def for_display(frame: pl.DataFrame) -> pl.DataFrame:
    """A frame for a table on screen: whole numbers with thousands separators, empty cells, not "None".

    >>> for_display(pl.DataFrame({"n": [1234567, None], "s": ["a", None]})).rows()
    [('1,234,567', 'a'), ('', '')]
    """
    whole = [name for name, kind in frame.schema.items() if kind.is_integer()]
    return formatted(frame, whole, "{:,}".format).with_columns(pl.all().cast(pl.String).fill_null(""))


SOURCES = {"phh": "replayed", "ingest": "replayed", "simulation": "simulated"}  # (a run's kind: ingest)


def game_titles(games: dict[str, Any]) -> dict[str, str]:
    """Each game's title, its name beside a title two games share."""
    titles = {name: game.title for name, game in games.items()}
    shared = {title for title in titles.values() if list(titles.values()).count(title) > 1}
    return {name: f"{title} ({name})" if title in shared else title for name, title in titles.items()}


def in_words(frame: pl.DataFrame, titles: dict[str, str]) -> pl.DataFrame:
    """Games by their titles (``titles``: name -> title) and sources in words, in the columns
    ``variant``, ``source`` and ``kind`` a frame has.

    >>> in_words(pl.DataFrame({"variant": ["holdem", "mine"], "source": ["phh", "simulation"]}),
    ...          {"holdem": "Hold'em"}).rows()
    [("Hold'em", 'replayed'), ('mine', 'simulated')]
    """
    named = [pl.col("variant").replace(titles)] if "variant" in frame.columns else []
    named += [pl.col(c).replace(SOURCES) for c in ("source", "kind") if c in frame.columns]
    return frame.with_columns(named)


def link(path: str, text: str) -> None:
    """A link to another page of the dashboard (``path`` relative to this one, with its query),
    opened in this tab."""
    st.markdown(f'<a href="{path}" target="_self">{text}</a>', unsafe_allow_html=True)


def no_data() -> None:
    st.info(
        "No hands here yet. Simulate some, or ingest hand histories, then reload:\n\n"
        "```\nscooplab simulate --variant NAME --hands 1000000\n"
        "scooplab ingest path/to/hands.phhs\n```"
    )


def metric_rate(label: str, value: dict[str, Any] | None) -> None:
    """A rate as a metric with its interval; over fewer than ``SMALL_SAMPLE`` items, only its count."""
    if not value or value.get("rate") is None:
        st.metric(label, "—")
        return
    if value["n"] < SMALL_SAMPLE:
        st.metric(label, f"{value['count']} of {value['n']}",
                  help=f"Too few to estimate a rate (fewer than {SMALL_SAMPLE}).")  # fmt: skip
        return
    low, high = value["ci95"]
    st.metric(
        label,
        f"{100 * value['rate']:.2f}%",
        help=f"95% interval {100 * low:.2f}–{100 * high:.2f}%, n = {value['n']:,}",
    )


def metric_rates(metrics: list[tuple[str, dict[str, Any] | None]]) -> None:
    """A row of ``metric_rate`` cells, one column each."""
    for column, (label, value) in zip(st.columns(len(metrics)), metrics, strict=True):
        with column:
            metric_rate(label, value)


CHART_FRAME = 110  # pixels of a chart's height its title, axis and axis title take


def rate_chart(rows: list[dict[str, Any]], key: str, title: str, sort: list[str] | None = None) -> None:
    """Bars of observed rates with their 95% intervals, and ticks at the exact values if known.

    A rate over fewer than ``SMALL_SAMPLE`` items gets no bar: its count is listed under the chart.
    """
    small = [r for r in rows if r["n"] < SMALL_SAMPLE]
    rows = [r for r in rows if r["n"] >= SMALL_SAMPLE]
    if small:
        listed = ", ".join(f"{r[key]} {r['count']} of {r['n']}" for r in small)
        st.caption(f"{title}: too few to chart (fewer than {SMALL_SAMPLE}): {listed}")
    if not rows:
        return
    frame = pl.DataFrame(
        {
            key: [str(r[key]) for r in rows],
            "rate": [r["rate"] or 0.0 for r in rows],
            "low": [r["ci95"][0] or 0.0 for r in rows],
            "high": [r["ci95"][1] or 0.0 for r in rows],
            "exact": [r.get("exact") for r in rows],
            "count": [r["count"] for r in rows],
            "n": [r["n"] for r in rows],
        }
    )
    order = sort or [str(r[key]) for r in rows]
    names = not all(str(r[key]).isdigit() for r in rows)  # names: bars across, labels never cut
    label = key.replace("_", " ")
    if names:
        place, measure, channel = "y", "x", alt.X
        axis = alt.Axis(labelLimit=200, labelOverlap=False)
        category = alt.Y(f"{key}:N", sort=order, title=label, axis=axis)
    else:  # numbers along the bottom, horizontal, thinned where they would overlap
        place, measure, channel = "x", "y", alt.Y
        category = alt.X(f"{key}:N", sort=order, title=label, axis=alt.Axis(labelAngle=0, labelOverlap=True))
    tooltip = [key, alt.Tooltip("rate:Q", format=".4%"), alt.Tooltip("low:Q", title="95% low", format=".4%"),
               alt.Tooltip("high:Q", title="95% high", format=".4%"), "count", "n"]  # fmt: skip
    has_exact = frame["exact"].is_not_null().any()
    if has_exact:
        tooltip.append(alt.Tooltip("exact:Q", format=".4%"))
    base = alt.Chart(frame.to_pandas())
    rate = channel("rate:Q", title="rate", axis=alt.Axis(format="%"))
    layers = [
        base.mark_bar(opacity=0.8).encode(**{place: category, measure: rate}, tooltip=tooltip),
        base.mark_rule(color="black").encode(**{place: category, measure: "low:Q", f"{measure}2": "high:Q"}),
    ]
    if has_exact:
        ticks = base.mark_tick(color="#d62728", thickness=3, size=14)
        layers.append(ticks.encode(**{place: category, measure: "exact:Q"}))
        title = f"{title} (red: exact)"
    height = CHART_FRAME + 24 * len(rows) if names else 260  # (the height holds the title and axes too)
    st.altair_chart(alt.layer(*layers).properties(title=title, height=height), width="stretch")


def cards_html(text: str, deck=None) -> str:
    """Cards as rank + coloured suit symbol, as the deck draws its suits (default: the standard deck)."""
    from engine.hands.cards import STANDARD

    deck = deck or STANDARD
    suits = dict(zip(deck.suits, deck.suit_glyphs, strict=True)) if deck.suit_glyphs else {}  # (its letters)
    out = []
    for i in range(0, len(text or ""), 2):
        rank, suit = text[i], text[i + 1]
        symbol, colour = suits.get(suit, (suit, "#444"))
        out.append(
            f"<span style='display:inline-block;border:1px solid #bbb;border-radius:4px;padding:1px 4px;"
            f"margin:1px;background:#fff;color:{colour};font-weight:600'>{rank}{symbol}</span>"
        )
    return "".join(out)


# the hues of Streamlit's label colours, for the one nearest a suit's own colour
LABEL_HUES = {"red": 0, "orange": 35, "green": 130, "blue": 215, "violet": 265}


def label_colour(hex_colour: str) -> str:
    """The Streamlit label colour nearest ``#rrggbb``: grey when nearly grey, else by hue.

    >>> [label_colour(c) for c in ("#1b7f3b", "#1f5fd1", "#c62828", "#222222", "#8d5a2b", "#37474f")]
    ['green', 'blue', 'red', 'gray', 'orange', 'gray']
    """
    import colorsys

    red, green, blue = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, saturation, _ = colorsys.rgb_to_hsv(red, green, blue)
    if saturation < 0.35:
        return "gray"
    degrees = hue * 360
    return min(
        LABEL_HUES,
        key=lambda name: min(abs(degrees - LABEL_HUES[name]), 360 - abs(degrees - LABEL_HUES[name])),
    )


def deck_picker(deck, targets: dict[str, str], key: str) -> None:
    """A grid of the deck's cards, one row a suit: a click adds the card to the chosen field
    (``targets`` maps a field's label to its text input's session key); cards in use are greyed.

    Call it before the text inputs it writes to, each created with ``key=`` only (no ``value``):
    a click's callback sets the field before the page runs again.
    """
    import re

    choice = st.radio("Clicked cards go to", list(targets), horizontal=True, key=f"{key}-target")
    card_pattern = f"[{re.escape(deck.ranks)}][{re.escape(deck.suits)}]"
    cards_only = re.compile(f"(?:{card_pattern}|\\?\\?)+")  # cards, not a range such as AKs
    used = set()
    for field in targets.values():
        text = re.sub(r"[\s,]", "", str(st.session_state.get(field, "")))
        if cards_only.fullmatch(text):
            used |= set(re.findall(card_pattern, text))
    for s, suit in enumerate(deck.suits):
        glyph, colour = (
            (deck.suit_glyphs[s][0], label_colour(deck.suit_glyphs[s][1]))
            if deck.suit_glyphs
            else (suit, "gray")
        )
        for column, rank in zip(st.columns(len(deck.ranks)), deck.ranks[::-1], strict=True):
            card = rank + suit
            label = f":gray[~~{rank}{glyph}~~]" if card in used else f":{colour}[{rank}{glyph}]"
            column.button(label, key=f"{key}-{card}", disabled=card in used, on_click=_add_card,
                          args=(targets[choice], card), width="stretch")  # fmt: skip
    st.button("Clear the chosen field", key=f"{key}-clear", on_click=_clear_field, args=(targets[choice],))


def _add_card(field: str, card: str) -> None:
    text = str(st.session_state.get(field, "")).strip()
    st.session_state[field] = ("" if text.lower() == "random" else text) + card


def _clear_field(field: str) -> None:
    st.session_state[field] = "random" if field.startswith("hand-") else ""


def class_grid(cells: dict[str, float], ranks: str, title: str, labels: dict[str, str] | None = None,
               scheme: str = "redyellowgreen", steps: bool = False) -> None:  # fmt: skip
    """A two-card game's classes as the usual 13x13 chart (pairs on the diagonal, suited above
    it, offsuit below, the strongest rank first), each cell coloured by its value (``steps``: the
    values are a few levels, such as stored stacks, each its own colour however far apart)."""
    order = list(ranks[::-1])
    rows = []
    for name, value in cells.items():
        high, low = name[0], name[1]
        row, column = (high, low) if name.endswith("s") or len(name) == 2 else (low, high)
        label = labels[name] if labels else f"{value:g}"
        rows.append({"row": row, "column": column, "hand": name, "value": value, "label": f"{name}\n{label}"})
    grid = pl.DataFrame(rows)
    base = alt.Chart(grid).encode(x=alt.X("column:N", sort=order, title=None, axis=alt.Axis(orient="top")),
                                  y=alt.Y("row:N", sort=order, title=None))  # fmt: skip
    tiles = base.mark_rect().encode(
        color=alt.Color("value:O" if steps else "value:Q", title=title, scale=alt.Scale(scheme=scheme)),
        tooltip=["hand:N", alt.Tooltip("value:Q", title=title)],
    )
    text = base.mark_text(fontSize=10, lineBreak="\n").encode(text="label:N")
    st.altair_chart((tiles + text).properties(height=32 * len(order) + 40), width="stretch")
    st.caption("Above the diagonal suited, below it offsuit, on it pairs.")


def board_label(name: str) -> str:
    """A board's name as a field label: "Board" for a game's one board called board, else "Top board".

    >>> board_label("board"), board_label("top")
    ('Board', 'Top board')
    """
    return "Board" if name == "board" else f"{name.capitalize()} board"
