"""Workbench: describe a game in a form or in TOML, see every problem at its place as you write,
save it in the warehouse (every save a version), then simulate it and compare it."""

import streamlit as st

from dashboards import data, widgets
from dashboards import design_form as form
from scooplab import designs

BLANK = "(blank)"
BASED_ON = "wb-based-on"  # (game, version) the text was opened from or last saved as (version 0: a new game)
SAVES = "wb-saves"  # saves in this session

st.title("Workbench")
root = data.data_path()
st.caption("Describe a game (the format: docs/variants.md), check it as you write, save it: it lives in "
           f"`{root}/games/NAME/`, every save a version that runs record, and every page, command and "
           "notebook finds it by name.")  # fmt: skip
games = data.games()
saved = designs.saved_games(root)
pick, derive, edit = st.columns([3, 1, 1], vertical_alignment="bottom")
names = [BLANK, *games]
asked = st.query_params.get("from")
base = pick.selectbox("Start from", names, index=names.index(asked) if asked in names else 0,
                      key=f"wb-start-{st.session_state.get(SAVES, 0)}",  # (anew after a save: the game saved)
                      format_func=lambda n: n if n == BLANK else f"{games[n].title} ({n})")  # fmt: skip
if derive.button("Derive a new game", width="stretch"):
    st.session_state[form.TEXT] = designs.blank() if base == BLANK else designs.derive(base, root)
    st.session_state[BASED_ON] = ("", 0)
    form.new_generation()
if edit.button("Edit it", width="stretch", disabled=base not in saved, help="a saved game: a new version"):
    version, path = designs.history(root, base)[-1]
    st.session_state[form.TEXT] = path.read_text(encoding="utf-8")
    st.session_state[BASED_ON] = (base, version)
    form.new_generation()
if form.TEXT not in st.session_state or (asked and asked != st.session_state.get("wb-from")):
    # a first visit, or a link from a game's page: a saved game opened to edit, another derived from
    st.session_state["wb-from"] = asked
    if base in saved:
        version, path = designs.history(root, base)[-1]
        st.session_state[form.TEXT] = path.read_text(encoding="utf-8")
        st.session_state[BASED_ON] = (base, version)
    else:
        st.session_state[form.TEXT] = designs.blank() if base == BLANK else designs.derive(base, root)
        st.session_state[BASED_ON] = ("", 0)
    form.new_generation()
result = designs.check(st.session_state[form.TEXT], root)
left, right = st.columns([3, 2], gap="large")
with left:
    form.form(result)
with right:
    st.text_area("Description (TOML)", key=form.TEXT, height=720, on_change=form.new_generation)
    form.show_problems(result, "toml")
    if result.ok:
        st.success(f"{result.spec.title}: playable. {result.budget}", icon=":material/check_circle:")
    else:
        count = len(result.problems)
        st.warning(
            f"{count} problem{'s' if count > 1 else ''}, each shown at its place in the form",
            icon=":material/warning:",
        )
    opened, version = st.session_state.get(BASED_ON, ("", 0))
    based_on = version if result.spec and result.spec.name == opened else 0  # renamed: a new game
    what = f"version {based_on + 1}" if based_on else "a new game"
    if st.button(f"Save ({what})", type="primary", disabled=not result.ok):
        try:
            done = designs.save(root, st.session_state[form.TEXT], based_on)
        except (ValueError, OSError) as error:
            st.error(f"Not saved: {error}")
        else:
            st.session_state[BASED_ON] = (result.spec.name, done.version)
            st.session_state["wb-saved"] = (result.spec.name, done.version, str(done.path), done.note)
            # "Start from" shows the game saved, as a link to it would (not its first choice, "(blank)")
            st.query_params["from"] = st.session_state["wb-from"] = result.spec.name
            st.session_state[SAVES] = st.session_state.get(SAVES, 0) + 1
            data.refresh()
            st.rerun()  # the new game in the navigation at once
    if "wb-saved" in st.session_state:
        name, version, path, note = st.session_state["wb-saved"]
        st.success(f"Saved {name} version {version}: `{path}`")
        if note:
            st.warning(note)
        widgets.link(f"runs?variant={name}", f"Simulate {name}")
        widgets.link(name.replace("-", "_"), f"Open {name}'s page")
    if based_on and result.spec:
        versions = designs.history(root, result.spec.name)
        if versions:
            st.caption("Versions: " + ", ".join(f"{v} (`{p.name}`)" for v, p in versions))
