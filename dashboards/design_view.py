"""A designed game's page, its design part: where to go next (edit, simulate, odds, starting hands,
push/fold), what changed against the game it was derived from, and tables computed in the
background."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from analytics.labels import p_text
from dashboards import data, jobs_view, widgets
from scooplab import designs

PUSHFOLD_STACK = 10.0  # big blinds of the push/fold equilibrium the page offers to solve


def section(variant: str) -> None:
    """The design part of a game's page: for games saved in the warehouse or derived from another."""
    game = data.games()[variant]
    path = data.data_path()
    if not game.derived_from and variant not in designs.saved_games(path):
        return
    st.header("Design")
    slug = variant.replace("-", "_")
    links = st.columns(5)
    for column, (target, text) in zip(links, (
        (f"workbench?from={variant}", "Edit in the Workbench"), (f"runs?variant={variant}", "Simulate it"),
        (f"odds?variant={variant}", "Its odds"),
        (f"starting_hands?variant={variant}&players=2", "Starting hands"),
        (f"equilibrium?variant={variant}", "Push/fold"),
    ), strict=True):  # fmt: skip
        with column:
            widgets.link(target, text)
    base = game.derived_from
    if base and base in data.games():
        compare_with(variant, base)
    elif base:
        st.caption(f"Derived from {base}, a game this warehouse does not know.")
    _compute_buttons(variant, slug)


def _runs_of(variant: str) -> pl.DataFrame:
    """A game's runs, finished showdown-mode runs first (then newest first)."""
    runs = (
        data.runs(data.data_path()).filter(pl.col("variant") == variant).unique("run_id", maintain_order=True)
    )
    first = (pl.col("status") == "complete") & (pl.col("mode") == "showdown")
    return (
        runs.with_columns(first.alias("_first"))
        .sort("_first", descending=True, maintain_order=True)
        .drop("_first")
    )


def _alike(run: dict[str, Any]) -> tuple:
    """What makes two runs' hands one population: mode, table size and rule options."""
    return run["mode"], run["players"], run["options"] or ""


def _first_pair(mine: pl.DataFrame, theirs: pl.DataFrame) -> tuple[int, int]:
    """The runs to show first: the first of this game's runs (finished showdown-mode runs first) with
    a run of the other game of the same population, and that run; else the first of each."""
    others = [_alike(r) for r in theirs.to_dicts()]
    for index, run in enumerate(mine.to_dicts()):
        if _alike(run) in others:
            return index, others.index(_alike(run))
    return 0, 0


def _default(runs: pl.DataFrame, like: dict[str, Any]) -> int:
    """The other game's run to show beside ``like``: one of its population (else the first)."""
    alike = [i for i, r in enumerate(runs.to_dicts()) if _alike(r) == _alike(like)]
    return alike[0] if alike else 0


def compare_with(variant: str, base: str) -> None:
    """A run of this game against a run of the game it was derived from, most changed first."""
    games = data.games()
    st.subheader(f"Against {games[base].title}, the game it was derived from")
    mine, theirs = _runs_of(variant), _runs_of(base)
    if mine.height == 0 or theirs.height == 0:
        missing = games[variant if mine.height == 0 else base].title
        st.info(f"Simulate {missing} first: the comparison needs a run of each game.")
        return
    left, right = st.columns(2)
    first, _ = _first_pair(mine, theirs)
    run_b = left.selectbox(f"Run of {games[variant].title}", mine["run_id"].to_list(), index=first,
                           key=f"cmp-{variant}")  # fmt: skip
    chosen = mine.filter(pl.col("run_id") == run_b).to_dicts()[0]
    options = theirs["run_id"].to_list()
    run_a = right.selectbox(f"Run of {games[base].title}", options, index=_default(theirs, chosen),
                            key=f"cmp-{variant}-{base}")  # fmt: skip
    try:
        result = data.compare_games(data.data_path(), base, run_a, variant, run_b)
    except ValueError as error:
        st.error(str(error))
        return
    for warning in result["warnings"]:
        st.warning(warning)
    if result["paired"]:
        design = ("The two runs dealt the same hole cards (one seed; the first hands of every shard "
                  "checked): hand-level rates and categories are tested hand by hand (McNemar), the rest as "
                  "independent samples")  # fmt: skip
    else:
        design = "The runs dealt different cards, so they are independent samples (two-proportion z tests)"
    st.caption(f"A: {games[base].title}, B: {games[variant].title}. {design}; p-values adjusted for testing "
               "every statistic at once (Benjamini-Hochberg, 5% false discoveries); most significant and "
               "largest first.")  # fmt: skip
    rows = pl.DataFrame(result["rows"])
    if rows.height == 0:
        st.info("The two games have no statistic in common to compare.")
        return
    changed = rows.filter(pl.col("significant")).height
    st.markdown(f"**{changed:,} of {rows.height:,} statistics changed** (significant after adjustment)")
    shown = rows.select("label", "rate_a", "rate_b", "difference", "p_adjusted", "significant")
    shown = widgets.formatted(shown, ["rate_a", "rate_b", "difference"], lambda v: f"{100 * v:.3f}%")
    shown = widgets.formatted(shown, ["p_adjusted"], p_text)  # (never a bare 0)
    shown = widgets.formatted(shown, ["significant"], lambda v: "yes" if v else "no")
    names = {"label": "statistic", "rate_a": "A", "rate_b": "B", "p_adjusted": "p adjusted"}
    st.dataframe(shown.rename(names), hide_index=True, width="stretch", height=420)


def _compute_buttons(variant: str, slug: str) -> None:
    """Buttons that compute the game's starting-hand table and push/fold chart in the background."""
    hands, pushfold = st.columns(2)
    if hands.button("Compute its starting-hand table (2 players) in the background", key=f"sh-{slug}"):
        problem, _ = data.start_job("starting_hands", {"variant": variant, "players": 2})
        if problem:
            st.error(problem)
    if pushfold.button(f"Solve push/fold at {PUSHFOLD_STACK:g} bb in the background", key=f"pf-{slug}"):
        problem, _ = data.start_job("pushfold", {"variant": variant, "stacks": [PUSHFOLD_STACK]})
        if problem:
            st.error(problem)
    for kind in ("starting_hands", "pushfold"):
        if any(j.request.get("variant") == variant for j in data.jobs(kind)):
            jobs_view.job_list(kind, variant)
