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
seats = {row["seat"]: row["player"] or f"p{row['seat'] + 1}" for row in players.iter_rows(named=True)}
STREETS = {"skoejarth": [("fan", 0), ("trunk", 2), ("flower", 1), ("fruit", 1)]}
streets = STREETS.get(hand["variant"], [("preflop", 0), ("flop", 3), ("turn", 1), ("river", 1)])
dealt = 0
for street, cards in streets:
    st.markdown(f"#### {street.capitalize()}")
    if cards:
        for index, board in enumerate(hand["boards"] or []):
            part = (board or "")[2 * dealt : 2 * (dealt + cards)]
            if not part:
                continue
            killed = street == streets[-1][0] and index not in (hand["surviving_boards"] or [])
            style = "text-decoration: line-through; opacity: 0.45" if killed else ""
            st.markdown(
                f"{labels[index]}: <span style='{style}'>{widgets.cards_html(part, skoejarth)}</span>"
                + (" — this board dies" if killed else ""),
                unsafe_allow_html=True,
            )
        dealt += cards
    moves = actions.filter(actions["street"] == street) if actions.height else actions
    lines = []
    for move in moves.iter_rows(named=True):
        if move["action"] == "deal":
            continue
        who = seats.get(move["seat"], "dealer") if move["seat"] is not None else "dealer"
        amount = f" {move['amount']:,}" if move["amount"] is not None else ""
        cards_shown = f" {widgets.cards_html(move['cards'], skoejarth)}" if move["cards"] else ""
        face_up = " (face up)" if move["action"] == "discard" else ""
        lines.append(f"{who} **{move['action']}**{amount}{cards_shown}{face_up}")
    if lines:
        st.markdown(" · ".join(lines), unsafe_allow_html=True)
st.markdown("#### Showdown")
for row in players.iter_rows(named=True):
    who = row["player"] or f"p{row['seat'] + 1}"
    line = f"**{who}** {widgets.cards_html(row['hole_cards'] or '', skoejarth)}"
    if row["discarded_cards"]:
        line += f" · kept {widgets.cards_html(row['final_hole_cards'] or '', skoejarth)}"
    if row["dead"]:
        line += " · dead"
    if row["voided"]:
        line += " · voided"
    if row["folded"] and not row["dead"]:
        line += " · folded"
    if row["high_category"]:
        line += f" · {row['high_category']}"
    if row["low_points"] is not None:
        line += f" · {row['low_points']} points"
    if row["board_won"]:
        line += " · boards " + " / ".join(f"{c:,}" for c in row["board_won"])
    line += f" · won **{row['won']:,}** (net {row['net']:+,})"
    st.markdown(line, unsafe_allow_html=True)
