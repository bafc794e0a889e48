"""Hand replayer: a hand street by street, cards drawn as cards, who won what."""

import streamlit as st

from dashboards import data, widgets

st.title("Hand replayer")
path = data.data_path()
if data.empty(path):
    widgets.no_data()
    st.stop()
FILTERS = {
    "any hand": "true",
    "Scarney: everyone left died at once": "variant = 'scarney' AND ending = 'everyone_dead'",
    "Scarney: a dead player": "variant = 'scarney' AND (regexp_matches(seat_discards, '^(.{6})*[1-3]{6}') "
    "OR hand_id IN (SELECT hand_id FROM players_raw WHERE dead))",
    "Cry Me A River: two boards killed": "variant = 'cry-me-a-river' "
    "AND (surviving_mask IN (1, 2, 4) OR len(surviving_boards) = 1)",
    "Cry Me A River: a triple scoop": "variant = 'cry-me-a-river' AND (hand_id IN "
    "(SELECT hand_id FROM players_raw WHERE triple_scoop) "
    "OR (seat_winners & 1023 = (seat_winners >> 10) & 1023 "
    "AND seat_winners & 1023 = (seat_winners >> 20) & 1023 AND bit_count(seat_winners & 1023) = 1))",
    "a split pot (replayed or betting hands)": "split",
    "replayed hand histories": "source = 'phh'",
}
choice = st.selectbox("Pick a random hand", list(FILTERS))
hand_id = st.text_input("… or a hand id", value=st.query_params.get("hand", ""))
if not hand_id or st.button("Another random hand"):
    hand_id = data.random_hand(path, FILTERS[choice]) or ""
if not hand_id:
    st.warning("No hand matches this filter.")
    st.stop()
st.query_params["hand"] = hand_id
hand, players, actions = data.hand(path, hand_id)
if hand is None:
    st.error(f"No hand {hand_id!r} in this warehouse.")
    st.stop()
skoejarth = hand["variant"] == "skoejarth"
st.caption(
    f"{data.GAMES[hand['variant']]} · {hand['source']} · run {hand['run_id']} · hand {hand['hand_no']} · "
    f"pot {hand['pot']:,} · {hand['ending']}"
)
names = {"scarney": ["Top Board", "Bottom Board"], "cry-me-a-river": ["Top", "Middle", "Bottom"]}
labels = names.get(hand["variant"], ["Board"])
for index, board in enumerate(hand["boards"] or []):
    killed = index not in (hand["surviving_boards"] or [])
    style = "text-decoration: line-through; opacity: 0.45" if killed else ""
    st.markdown(
        f"**{labels[index]}** <span style='{style}'>{widgets.cards_html(board, skoejarth)}</span>"
        + (" — killed" if killed else ""),
        unsafe_allow_html=True,
    )
for row in players.iter_rows(named=True):
    who = row["player"] or f"p{row['seat'] + 1}"
    gone = widgets.cards_html(row["discarded_cards"] or "", skoejarth)
    line = f"**{who}** {widgets.cards_html(row['hole_cards'] or '', skoejarth)}"
    if gone:
        line += f" · discarded face up {gone}"
    if row["dead"]:
        line += " · dead"
    if row["voided"]:
        line += " · voided"
    if row["high_category"]:
        line += f" · {row['high_category']}"
    if row["low_points"] is not None:
        line += f" · {row['low_points']} points"
    line += f" · won **{row['won']:,}** (net {row['net']:+,})"
    st.markdown(line, unsafe_allow_html=True)
st.subheader("Actions")
st.dataframe(actions, hide_index=True, width="stretch")
