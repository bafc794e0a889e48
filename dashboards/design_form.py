"""The Workbench's form: the common parts of a description as widgets, kept in step with its TOML.

The TOML text (``st.session_state[TEXT]``) is the one truth. Every widget of the form is drawn from
it, under keys of the current *generation*. A change to a widget rewrites the text (its callback
runs before the page does); an edit of the text itself, or a row added or removed, starts a new
generation, so every widget is drawn again from the new text. A value the form does not edit (an
option bound to a value, a share's points) stays in the text as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from scooplab import designs

TEXT = "wb-text"
GENERATION = "wb-generation"
DECKS = ["standard", "short"]  # any other deck by its ranks and suits, in the TOML
HIGH_QUALIFIERS = ["pair", "two pair", "three of a kind", "straight", "flush", "full house"]  # + rank in TOML
RANKINGS = ["standard-high", "seven-rank", "ace-to-five-low", "deuce-to-seven-low", "badugi"]
ROLES = ["community", "discard-trigger"]
WINS = ["best-high", "best-low", "lowest-points"]
KILLS = ["none", "lowest-river-rank"]
BLINDS = ["small-big", "button", "none"]
STREET_NUMBERS = [("hole_cards", "hole cards"), ("up_cards", "face up"), ("board_cards", "board cards"),
                  ("burns", "burns"), ("draw", "draw up to")]  # fmt: skip


def key(*parts: object) -> str:
    """A widget's key in the current generation."""
    return "wb-" + "-".join(str(p) for p in (st.session_state.get(GENERATION, 0), *parts))


def new_generation() -> None:
    st.session_state[GENERATION] = st.session_state.get(GENERATION, 0) + 1


def current() -> dict[str, Any]:
    """The description the text says now ({} when it is not valid TOML)."""
    return designs.parse(st.session_state.get(TEXT, ""))[0]


def write(data: dict[str, Any], redraw: bool) -> None:
    """The description as the new text; with ``redraw``, the form is drawn again from it (rows
    added or removed: the widgets of each row change places)."""
    st.session_state[TEXT] = designs.to_text(designs.ordered(data))
    if redraw:
        new_generation()


def _edit(
    change: Callable[[dict[str, Any], Any], None], widget: str, redraw: bool = False
) -> Callable[[], None]:
    """A widget's callback: ``change(description, value)``, then the text rewritten (the edited
    widget holds its new value already; the others show what they showed)."""

    def callback() -> None:
        data = current()
        change(data, st.session_state[widget])
        write(data, redraw)

    return callback


def _set(path: tuple, drop_when: Any = None) -> Callable[[dict[str, Any], Any], None]:
    """Set the value at ``path`` (keys and list indices); a value equal to ``drop_when`` removes it."""

    def change(data: dict[str, Any], value: Any) -> None:
        *parents, last = path
        holder = data
        for step in parents:
            holder = holder[step]
        if value == drop_when and drop_when is not None and isinstance(holder, dict):
            holder.pop(last, None)
        else:
            holder[last] = value

    return change


def show_problems(result: designs.CheckResult, part: str) -> None:
    """The check's problems of one part, right under its widgets."""
    for line in result.at(part):
        st.error(line, icon=":material/warning:")


def text_field(
    label: str, path: tuple, data: dict[str, Any], area: bool = False, hidden: bool = False
) -> None:
    """A text field; ``hidden``: its label is for screen readers and tests only (a row under a header)."""
    widget = key(*path)
    draw = st.text_area if area else st.text_input
    value = _get(data, path)
    draw(label, value=str(value or ""), key=widget, on_change=_edit(_set(path), widget),
         label_visibility="collapsed" if hidden else "visible")  # fmt: skip


def choice_field(label: str, path: tuple, data: dict[str, Any], choices: list[str]) -> None:
    widget = key(*path)
    value = _get(data, path)
    options = choices if value in choices or value is None else [*choices, value]
    st.selectbox(label, options, index=options.index(value) if value in options else None, key=widget,
                 placeholder="choose one", on_change=_edit(_set(path), widget))  # fmt: skip


def number_field(
    label: str, path: tuple, data: dict[str, Any], low: int = 0, drop_zero: bool = False, hidden: bool = False
) -> None:
    """A whole number; a value bound to an option (a table) is shown, to be edited in the TOML."""
    value = _get(data, path)
    widget = key(*path)
    shown = "collapsed" if hidden else "visible"
    if isinstance(value, dict):
        st.text_input(label, value=f"option {value.get('option', '?')} (TOML)", key=widget, disabled=True,
                      label_visibility=shown)  # fmt: skip
        return
    st.number_input(label, min_value=low, max_value=99, step=1, value=int(value or 0), key=widget,
                    on_change=_edit(_set(path, 0 if drop_zero else None), widget),
                    label_visibility=shown)  # fmt: skip


def _get(data: Any, path: tuple) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def players(data: dict[str, Any], result: designs.CheckResult) -> None:
    fewest, most = st.columns(2)
    seats = data.get("players") if isinstance(data.get("players"), list) else [2, 2]
    for column, index, label in ((fewest, 0, "Fewest players"), (most, 1, "Most players")):
        with column:
            widget = key("players", index)
            column.number_input(label, min_value=2, max_value=10, step=1, value=int(seats[index]), key=widget,
                                on_change=_edit(_set(("players", index)), widget))  # fmt: skip
    show_problems(result, "players")
    if result.budget:
        st.caption(f"Cards: {result.budget}")


def rows_buttons(part: str, blank: dict[str, Any], label: str) -> None:
    """ "Add" and "remove the last" buttons of a list of tables (streets, boards, shares)."""
    add, remove = st.columns(2)

    def added(data: dict[str, Any], _: Any) -> None:
        data.setdefault(part, []).append(dict(blank))

    def removed(data: dict[str, Any], _: Any) -> None:
        if data.get(part):
            data[part].pop()

    for column, name, change in (
        (add, f"Add a {label}", added),
        (remove, f"Remove the last {label}", removed),
    ):
        widget = key(part, name)
        column.button(name, key=widget, on_click=_edit(change, widget, redraw=True))


def streets(data: dict[str, Any], result: designs.CheckResult) -> None:
    widths = [2, 1, 1, 1, 1, 1, 1]
    titles = ["street", *(label for _, label in STREET_NUMBERS), "betting"]
    for cell, title in zip(st.columns(widths), titles, strict=True):
        cell.caption(title)
    for index, street in enumerate(data.get("streets") or []):
        name = street.get("name", f"street {index + 1}")
        cells = st.columns(widths)
        with cells[0]:
            text_field(f"Street {index + 1}", ("streets", index, "name"), data, hidden=True)
        for cell, (field, label) in zip(cells[1:-1], STREET_NUMBERS, strict=True):
            with cell:
                number_field(f"{name}: {label}", ("streets", index, field), data, drop_zero=True, hidden=True)
        with cells[-1]:  # a street without betting only deals (the forced bets wait for the first round)
            widget = key("streets", index, "betting")
            betting = street.get("betting", True) is not False
            st.checkbox(f"{name}: betting", value=betting, key=widget, label_visibility="collapsed",
                        on_change=_edit(_betting_of(index), widget))  # fmt: skip
    rows_buttons("streets", {"name": "street", "board_cards": 1}, "street")
    show_problems(result, "streets")


def boards(data: dict[str, Any], result: designs.CheckResult) -> None:
    for index, _ in enumerate(data.get("boards") or []):
        name, role = st.columns(2)
        with name:
            text_field(f"Board {index + 1}", ("boards", index, "name"), data)
        with role:
            choice_field(f"Board {index + 1}: role", ("boards", index, "role"), data, ROLES)
    rows_buttons("boards", {"name": "board", "role": "community"}, "board")
    show_problems(result, "boards")


def shares(data: dict[str, Any], result: designs.CheckResult) -> None:
    names = [b.get("name", "") for b in data.get("boards") or []]
    high_ranking = data.get("ranking", "standard-high") == "standard-high"  # (a qualifier's ranking)
    for index, share in enumerate(data.get("shares") or []):
        wins, board, qualifier = st.columns(3)
        with wins:
            choice_field(f"Share {index + 1}: wins", ("shares", index, "wins"), data, WINS)
        with board:
            if "board" in share or share.get("wins") != "lowest-points":
                choice_field(f"Share {index + 1}: board", ("shares", index, "board"), data, names)
        with qualifier:
            if share.get("wins") == "best-low":
                number_field(
                    f"Share {index + 1}: qualifier", ("shares", index, "qualifier"), data, drop_zero=True
                )
            elif share.get("wins", "best-high") == "best-high" and high_ranking:
                high_qualifier(index, share)
    rows_buttons("shares", {"wins": "best-high", "board": names[0] if names else "board"}, "share")
    show_problems(result, "shares")


def high_qualifier(index: int, share: dict[str, Any]) -> None:
    """A best-high share's qualifier: the weakest hand that wins it (a category and its deciding rank)."""
    given = share.get("qualifier") if isinstance(share.get("qualifier"), dict) else {}
    widget = key("shares", index, "qualifier")
    choices = ["none", *HIGH_QUALIFIERS]
    chosen = given.get("category", "none")
    rank = str(given.get("rank", ""))
    label = f"Share {index + 1}: qualifier" + (f" (rank {rank}, TOML)" if rank else "")

    def change(data: dict[str, Any], value: str) -> None:
        held = data["shares"][index]
        if value == "none":
            held.pop("qualifier", None)
        else:
            held["qualifier"] = {"category": value, **({"rank": rank} if rank else {})}

    st.selectbox(label, choices, index=choices.index(chosen) if chosen in choices else 0, key=widget,
                 on_change=_edit(change, widget))  # fmt: skip


def _betting_of(index: int) -> Callable[[dict[str, Any], Any], None]:
    def change(data: dict[str, Any], value: bool) -> None:
        street = data["streets"][index]
        if value:
            street.pop("betting", None)
        else:
            street["betting"] = False

    return change


def forced_bets(data: dict[str, Any], result: designs.CheckResult) -> None:
    """Who posts blinds in betting mode, and every seat's ante in big blinds (``[betting]``)."""
    table = data.get("betting") if isinstance(data.get("betting"), dict) else {}
    blinds, ante = st.columns(2)

    def setting(name: str, default: Any) -> Callable[[dict[str, Any], Any], None]:
        def change(description: dict[str, Any], value: Any) -> None:
            betting = description.setdefault("betting", {})
            text = str(value).strip()
            if text in ("", str(default)):
                betting.pop(name, None)
            else:
                betting[name] = _number(text) if name == "ante" else text
            if not betting:
                description.pop("betting")

        return change

    with blinds:
        widget = key("betting", "blinds")
        chosen = table.get("blinds", "small-big")
        st.selectbox("Blinds (betting mode)", BLINDS, index=BLINDS.index(chosen) if chosen in BLINDS else 0,
                     key=widget, on_change=_edit(setting("blinds", "small-big"), widget))  # fmt: skip
    with ante:
        widget = key("betting", "ante")
        st.text_input("Ante (big blinds each: 0.25 or 1/4)", value=str(table.get("ante", "")), key=widget,
                      on_change=_edit(setting("ante", ""), widget))  # fmt: skip
    show_problems(result, "betting")


def _number(text: str) -> Any:
    """A number as TOML writes it (``0.25``, ``2``), or the text as typed (``1/4``: checked as written)."""
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def kill(data: dict[str, Any], result: designs.CheckResult) -> None:
    rule = (data.get("kill") or {}).get("rule", "none")
    widget = key("kill")

    def change(description: dict[str, Any], value: str) -> None:
        if value == "none":
            description.pop("kill", None)
        else:
            description["kill"] = {"rule": value}

    index = KILLS.index(rule) if rule in KILLS else 0
    st.selectbox("Kill rule (a board dies)", KILLS, index=index, key=widget,
                 on_change=_edit(change, widget))  # fmt: skip
    show_problems(result, "kill")


def phh_codes(data: dict[str, Any], result: designs.CheckResult) -> None:
    """The game's PHH variant codes as ``CODE=structure`` pairs (each code names one game)."""
    codes = data.get("phh_codes") if isinstance(data.get("phh_codes"), dict) else {}
    widget = key("phh_codes")

    def change(description: dict[str, Any], value: str) -> None:
        pairs = [item.partition("=") for item in value.replace(";", ",").split(",") if item.strip()]
        description["phh_codes"] = {code.strip(): structure.strip() for code, _, structure in pairs}

    st.text_input("PHH variant codes (CODE=structure, ...)", key=widget, on_change=_edit(change, widget),
                  value=", ".join(f"{code}={structure}" for code, structure in codes.items()))  # fmt: skip
    show_problems(result, "phh_codes")


def options(data: dict[str, Any], result: designs.CheckResult) -> None:
    listed = data.get("options") or {}
    if listed:
        st.caption("Rule options (edited in the TOML): " + "; ".join(
            f"{name} (default {spec.get('default')!r})"
            for name, spec in listed.items()
            if isinstance(spec, dict)
        ))  # fmt: skip
    show_problems(result, "options")


def form(result: designs.CheckResult) -> None:
    """The whole form, each part with its problems under it."""
    data = current()
    if not data:
        st.info("The TOML beside is not valid: the form comes back once it is.")
        return
    text_field("Name (the game's id: lower-case letters, digits and -)", ("name",), data)
    show_problems(result, "name")
    text_field("Title", ("title",), data)
    text_field("Description", ("description",), data, area=True)
    deck, ranking = st.columns(2)
    with deck:
        if isinstance(data.get("deck"), dict):  # a deck by its ranks: edited in the TOML
            ranks = data["deck"].get("ranks", "?")
            st.text_input("Deck", value=f"ranks {ranks} (TOML)", key=key("deck"), disabled=True)
        else:
            choice_field("Deck", ("deck",), data, DECKS)
        show_problems(result, "deck")
    with ranking:
        choice_field("Ranking", ("ranking",), data, RANKINGS)
        show_problems(result, "ranking")
    players(data, result)
    st.markdown("**Streets** (what each deals to every player and to each board)")
    streets(data, result)
    st.markdown("**Boards**")
    boards(data, result)
    st.markdown("**Shares of the pot**")
    shares(data, result)
    st.markdown("**Forced bets** (betting mode; a street without betting only deals)")
    forced_bets(data, result)
    kill(data, result)
    phh_codes(data, result)
    options(data, result)
