"""Scarney: high and low, forced discards, dead hands, the seed's tips."""

import streamlit as st

from dashboards import widgets
from dashboards.screens._game import header

stats = header("scarney")
if stats:
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(stats["low_points_all"], "low_points", "Low points of every showdown hand")
    with right:
        widgets.rate_chart(stats["low_points_winning"], "low_points", "Low points of the winning lows")
    left, right = st.columns(2)
    with left:
        widgets.rate_chart(stats["remaining_hole_cards"], "cards", "Hole cards left at the showdown")
    with right:
        streets = stats["forced_discards"]
        st.subheader("Forced discards per player")
        st.table({s: [f"{v['per_player']:.4f}" if v["per_player"] is not None else "—",
                      f"{v.get('exact_per_player', 0):.4f}" if "exact_per_player" in v else ""]
                  for s, v in streets.items()})  # fmt: skip
        widgets.metric_rates(
            [
                ("Dead hands", stats["dead_rate"]),
                ("High and low to one player", stats["high_low_same_player_rate"]),
                ("Voided hands", stats["voided_rate"]),
            ]
        )
    tips = stats["tips"]
    st.subheader("The seed's tips, tested")
    left, middle, right = st.columns(3)
    with left:
        widgets.rate_chart(
            tips["forced_out_by_rank"], "rank", "Held cards forced out, by rank", list("23456789TJQKA")
        )
    with middle:
        widgets.rate_chart(
            tips["low_win_rate_by_pairs_held"], "pairs_held", "Low-half win rate by pairs held"
        )
    with right:
        widgets.metric_rate("Winning lows that keep an Ace", tips["ace_share_of_winning_lows"])
