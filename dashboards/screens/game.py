"""One page per game, built from what its description has: every game gets the headline rates
and the category charts; a discard-trigger board adds forced discards and dead hands, a
low-points share the low points, a kill rule the kills, boards with shares of their own the
triple scoop, an exact 7-card law the rank-against-rarity table."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from analytics.labels import field_label
from dashboards import data, design_view, widgets


def header(variant: str) -> dict[str, Any] | None:
    """Title, filters and headline numbers of a game page; the statistics, or None."""
    game = data.games()[variant]
    st.title(game.title)
    if game.description:
        st.caption(game.description)
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


def render(variant: str) -> None:
    """The whole page of one game."""
    stats = header(variant)
    design_view.section(variant)  # a designed game: what changed against the game it came from
    if not stats:
        return
    game = data.games()[variant]
    if "low_points_all" in stats:
        _low(stats)
    if "forced_discards" in stats:
        _discards(stats)
    if "tips" in stats:
        _tips(stats["tips"], game.deck.ranks)
    if "surviving_boards" in stats:
        _kills(stats, game.deck.ranks)
    scoops = {"triple_scoop_rate": "Triple scoops (alone best on every board)",
              "every_board_scoop_rate": "Scoops of every board (alone best on each)"}  # fmt: skip
    rates = [(title, stats[key]) for key, title in scoops.items() if key in stats]
    if "low_paid_rate" in stats:  # a low hand must qualify: pots with and without a low half
        rates += [("A low half paid (a low qualified)", stats["low_paid_rate"]),
                  ("High and low to one player", stats["high_low_same_player_rate"])]  # fmt: skip
    if "killed_board_best_hand_of_a_loser_rate" in stats:
        rates.append(
            ("A killed board held a loser's best hand", stats["killed_board_best_hand_of_a_loser_rate"])
        )
    if rates:
        widgets.metric_rates(rates)
    if "rank_against_rarity" in stats:
        widgets.metric_rate("Best category shared (the tie rule decides)", stats["category_tie_rate"])
        st.subheader("Rank against rarity")
        table = pl.DataFrame(stats["rank_against_rarity"]).with_columns(
            pl.col("more_common_than").list.join(", "),
            pl.col("never_the_best_hand").replace_strict({True: "yes", False: ""}, return_dtype=pl.String),
        )
        st.dataframe(table.rename(field_label), hide_index=True, width="stretch")
    if "win_rate_by_best_fan_card" in stats:
        title = "Win rate by the best hole card"
        widgets.rate_chart(stats["win_rate_by_best_fan_card"], "best_fan_card", title, list(game.deck.ranks))


def _low(stats: dict[str, Any]) -> None:
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(stats["low_points_all"], "low_points", "Low points of every showdown hand")
    with right:
        widgets.rate_chart(stats["low_points_winning"], "low_points", "Low points of the winning lows")


def _discards(stats: dict[str, Any]) -> None:
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(stats["remaining_hole_cards"], "cards", "Hole cards left at the showdown")
    with right:
        streets = stats["forced_discards"]
        st.subheader("Forced discards per player")
        st.table({"": ["seen", "exact"]}  # each row named
                 | {s: [f"{v['per_player']:.4f}" if v["per_player"] is not None else "—",
                        f"{v.get('exact_per_player', 0):.4f}" if "exact_per_player" in v else ""]
                    for s, v in streets.items()})  # fmt: skip
        widgets.metric_rates([("Dead hands", stats["dead_rate"]), ("Voided hands", stats["voided_rate"])])
        if "high_low_same_player_rate" in stats:  # (a row of its own: the label in full)
            widgets.metric_rates([("High and low to one player", stats["high_low_same_player_rate"])])


def _tips(tips: dict[str, Any], ranks: str) -> None:
    st.subheader("The seed's tips, tested")
    left, middle, right = st.columns(3)
    if "forced_out_by_rank" in tips:
        with left:
            widgets.rate_chart(
                tips["forced_out_by_rank"], "rank", "Held cards forced out, by rank", list(ranks)
            )
    if "low_win_rate_by_pairs_held" in tips:
        with middle:
            widgets.rate_chart(
                tips["low_win_rate_by_pairs_held"], "pairs_held", "Low-half win rate by pairs held"
            )
        with right:
            widgets.metric_rate(f"Winning lows that keep an {ranks[-1]}", tips["ace_share_of_winning_lows"])


def _kills(stats: dict[str, Any], ranks: str) -> None:
    survivors = stats["surviving_boards"]
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(
            [{"boards": "one", **survivors["one"]}, {"boards": "two", **survivors["two"]}],
            "boards",
            "Boards surviving the river",
        )
    with right:
        widgets.rate_chart(
            stats["kills_by_river_rank"], "river_rank", "Boards killed, by river rank", list(ranks)
        )
