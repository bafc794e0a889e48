"""Cached access to the warehouse for the dashboard: one DuckDB connection, cached results.

Pages call these and nothing else, so every number on screen comes from ``analytics``.
"""

from __future__ import annotations

import os
from typing import Any

import polars as pl
import streamlit as st

from analytics.db import QueryError, connect, run_query
from analytics.report import compare as compare_rows
from analytics.stats import game_stats

GAMES = {
    "scarney": "Scarney",
    "cry-me-a-river": "Cry Me A River",
    "skoejarth": "Skœjarth",
    "holdem": "Hold'em",
}


def data_path() -> str:
    """The warehouse the dashboard shows (``scooplab dashboard --data`` sets it)."""
    return os.environ.get("SCOOPLAB_DATA", "data/warehouse")


@st.cache_resource(show_spinner=False)
def connection(data: str):
    return connect(data)


@st.cache_data(show_spinner=False, ttl=60)
def sql(data: str, text: str) -> pl.DataFrame:
    """A query over the views (trusted SQL written in this package)."""
    return connection(data).cursor().sql(text).pl()


@st.cache_data(show_spinner="Computing statistics…", ttl=60)
def stats(data: str, variant: str, runs: tuple[str, ...]) -> dict[str, Any]:
    return game_stats(data, variant, list(runs))


@st.cache_data(show_spinner=False, ttl=60)
def compare(data: str, variant: str, run_a: str, run_b: str) -> list[dict[str, Any]]:
    return compare_rows(game_stats(data, variant, [run_a]), game_stats(data, variant, [run_b]))


def user_query(data: str, text: str, limit: int = 10_000) -> tuple[pl.DataFrame | None, str | None]:
    """Untrusted SQL from the console: a frame, or DuckDB's one-line message."""
    try:
        return pl.from_arrow(run_query(data, text, limit=limit)), None
    except QueryError as error:
        return None, str(error)


def hand_counts(data: str) -> pl.DataFrame:
    return sql(data, "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL")


def runs(data: str) -> pl.DataFrame:
    return sql(
        data,
        "SELECT run_id, variant, kind, mode, players, hands, status, created_at, options, seed "
        "FROM runs ORDER BY created_at DESC",
    )


def empty(data: str) -> bool:
    return hand_counts(data).height == 0
