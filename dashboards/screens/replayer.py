"""Hand replayer: a hand street by street, cards drawn as cards, who won what."""

import polars as pl
import streamlit as st

from dashboards import data, story, widgets

st.title("Hand replayer")
path = data.data_path()
if data.empty(path):
    widgets.no_data()
    st.stop()
ANY = "any"
sources = data.hand_sources(path)
kind, of_game, of_run = st.columns([2, 1, 1])
choice = kind.selectbox("Pick a random hand", list(data.REPLAYER_FILTERS))
variant = of_game.selectbox("of the game", [ANY, *sources["variant"].unique(maintain_order=True).to_list()])
runs = sources.filter(pl.col("variant") == variant) if variant != ANY else sources
run = of_run.selectbox("of the run", [ANY, *runs["run_id"].unique(maintain_order=True).to_list()])
another = st.button("Another random hand")
first_visit = "replayer-filter" not in st.session_state
wanted = (choice, variant, run)
if first_visit or another or st.session_state["replayer-filter"] != wanted:
    # a new filter (or the button) draws a new hand and puts its id in the box; a link opens its hand
    st.session_state["replayer-filter"] = wanted
    linked = st.query_params.get("hand") if first_visit else None
    chosen = {"variant": None if variant == ANY else variant, "run": None if run == ANY else run}
    drawn = linked or data.random_hand(path, data.REPLAYER_FILTERS[choice], **chosen)
    if drawn is None:
        st.warning(f"No hand in this warehouse matches “{choice}” (game {variant}, run {run}).")
        st.stop()
    st.session_state["replayer-id"] = drawn
elif "replayer-id" not in st.session_state:  # back from another page, which dropped the box's state
    st.session_state["replayer-id"] = st.session_state.get("replayer-shown", "")
hand_id = st.text_input("… or a hand id", key="replayer-id").strip()
st.session_state["replayer-shown"] = hand_id  # not a widget's key: kept while other pages are shown
st.query_params["hand"] = hand_id
hand, players, actions = data.hand(path, hand_id)
if hand is None:
    st.error(f"No hand {hand_id!r} in this warehouse (ids are listed in the hands table: hand_id).")
    st.stop()
game = data.games().get(hand["variant"])
deck = game.deck if game else None
if hand["source_file"]:
    where = f"hand {hand['hand_no']:,} of {hand['source_file']}"
else:
    where = f"hand {hand['hand_no']:,} of the run (from 1; its id is run:shard:index, from 0)"
decimals, currency = hand.get("amount_decimals") or 0, hand.get("currency")


def show(units: int) -> str:
    """An amount of this hand: chips, or money with its decimals (at least cents in a currency)."""
    return story.amount_text(units, decimals, cents=currency is not None)


rake = f" · rake {show(hand['rake'])}" if hand.get("rake") else ""
record = f" · result {hand['record']}" if hand.get("record") not in (None, "simulated", "checked") else ""
unit = f" · amounts in {currency}" if currency else ""
st.caption(f"{game.title if game else hand['variant']} · {hand['source']} · run {hand['run_id']} · {where} · "
           f"pot {show(hand['pot'])}{rake} · {hand['ending']}{record}{unit}")  # fmt: skip
names = game.board_names if game else ("board",)
labels = ["Board" if name == "board" else f"{name.title()} Board" for name in names]  # not "Board Board"
runs = max(1, len(hand["boards"] or []) // len(labels))  # a board run twice: every run's boards
if runs > 1:
    labels = [f"{label}, run {run + 1}" for run in range(runs) for label in labels]
    st.caption(f"The board was run {runs} times once nobody could bet: each pot split among the runs.")
rows = list(players.iter_rows(named=True))
seats = {row["seat"]: row["player"] or f"p{row['seat'] + 1}" for row in rows}
st.markdown("Stacks: " + " · ".join(f"{seats[r['seat']]} {show(r['starting_stack'])}" for r in rows))
streets = [(street.name, street.board_cards) for street in game.streets] if game else []
extra = max((len(board or "") // 2 for board in hand["boards"] or []), default=0) - sum(c for _, c in streets)
if streets and extra > 0:  # the deck ran short (stud, eight in to the last card): a community card then
    streets[-1] = (streets[-1][0], streets[-1][1] + extra)
starting = {r["seat"]: r["starting_stack"] for r in rows}
action_rows = actions.to_dicts()
if not story.has_stacks_and_pots(action_rows):
    st.info(f"Run {hand['run_id']} was stored before the actions recorded each stack and pot: its pots "
            "and all-in marks are not shown. Ingest its files (or simulate it) again into a new warehouse "
            "to see them.")  # fmt: skip
told = {street.name: street for street in story.tell(starting, action_rows, show)}
dealt_up = story.up_cards(
    action_rows, {street.name: street.up_cards for street in game.streets} if game else {}
)
dealt = 0
for street, cards in streets:
    boards = []
    for index, board in enumerate(hand["boards"] or [] if cards else []):
        part = (board or "")[2 * dealt : 2 * (dealt + cards)]
        first_run = (hand["boards"][index % len(names)] or "")[2 * dealt : 2 * (dealt + cards)]
        if index >= len(names) and part == first_run:
            continue  # dealt before the runs: every run shares it
        if part:
            killed = street == streets[-1][0] and index not in (hand["surviving_boards"] or [])
            style = "text-decoration: line-through; opacity: 0.45" if killed else ""
            shown_cards = widgets.cards_html(part, deck)
            boards.append(f"{labels[index]}: <span style='{style}'>{shown_cards}</span>"
                          + (" — this board dies" if killed else ""))  # fmt: skip
    dealt += cards
    if street in dealt_up:  # stud: the cards everyone sees, dealt this street
        shown = [f"{seats.get(seat, f'p{seat + 1}')} {widgets.cards_html(up, deck)}"
                 for seat, up in sorted(dealt_up[street].items())]  # fmt: skip
        boards.append("Face up: " + " · ".join(shown))
    moves = told[street].moves if street in told else []
    if not boards and not moves:
        continue  # nothing happened on this street (the hand ended before it, or nobody could bet)
    pot = f" · pot {show(told[street].pot_before)}" if street in told and told[street].pot_before else ""
    st.markdown(f"#### {street.capitalize()}{pot}")
    for line in boards:
        st.markdown(line, unsafe_allow_html=True)
    lines = []
    for move in moves:
        cards_shown = f" {widgets.cards_html(move.cards, deck)}" if move.cards else ""
        if move.drawn:
            cards_shown += f", draws {widgets.cards_html(move.drawn, deck)}"
        face_up = " (face up)" if move.words.startswith("discards") else ""
        all_in = " **all in**" if move.all_in else ""
        lines.append(f"{seats.get(move.seat, 'dealer')} {move.words}{cards_shown}{face_up}{all_in}")
    if lines:
        st.markdown(" · ".join(lines), unsafe_allow_html=True)
st.markdown("#### Showdown" if hand["showdown"] else "#### Result")
for row in rows:
    who = seats[row["seat"]]
    line = f"**{who}** {widgets.cards_html(row['hole_cards'] or '', deck)}"
    if row["discarded_cards"]:
        line += f" · kept {widgets.cards_html(row['final_hole_cards'] or '', deck)}"
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
        line += " · boards " + " / ".join(show(c) for c in row["board_won"])
    net = show(row["net"])
    line += f" · won **{show(row['won'])}** (net {net if net.startswith('-') else '+' + net})"
    line += f" · stack {show(row['finishing_stack'])}"
    st.markdown(line, unsafe_allow_html=True)
