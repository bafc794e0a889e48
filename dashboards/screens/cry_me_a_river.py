"""Cry Me A River: surviving boards, kills by river rank, triple scoops (the header has the scoops)."""

import streamlit as st

from dashboards import widgets
from dashboards.screens._game import header

stats = header("cry-me-a-river")
if stats:
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
            stats["kills_by_river_rank"], "river_rank", "Boards killed, by river rank", list("23456789TJQKA")
        )
    widgets.metric_rates(
        [
            ("Triple scoops", stats["triple_scoop_rate"]),
            ("A killed board held a loser's best hand", stats["killed_board_best_hand_of_a_loser_rate"]),
        ]
    )
