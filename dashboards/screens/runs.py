"""Runs: simulate any game from the browser, in a process of its own (it goes on when the tab is
closed, it can be cancelled, a cancelled run resumes), with its progress and rate."""

import streamlit as st

from dashboards import data, jobs_view, widgets

st.title("Runs")
root = data.data_path()
limits = data.limits()
st.caption(f"Each run goes on in a process of its own. This server runs at most {limits.max_hands:,} hands "
           "per "
           f"run, {limits.max_jobs} run{'s' if limits.max_jobs > 1 else ''} at once and {limits.max_minutes} "
           "minutes of work each (`scooplab dashboard --max-hands --max-jobs --max-minutes`).")  # fmt: skip
games = data.games()
variant, _ = widgets.game_choice(games)
game = games[variant]
st.query_params["variant"] = variant
with st.form("simulate"):
    left, middle, right = st.columns(3)
    mode = left.selectbox("Mode", ["showdown", "betting"], help="showdown: all in; betting: policies play")
    most = game.max_players
    players = middle.number_input("Players", min_value=game.min_players, max_value=most,
                                  value=min(max(4, game.min_players), most), step=1)  # fmt: skip
    hands = right.number_input("Hands", min_value=1_000, max_value=limits.max_hands, step=10_000,
                               value=min(200_000, limits.max_hands))  # fmt: skip
    seed = left.number_input("Seed (runs of one seed deal the same cards: paired)", min_value=0, value=2026)
    run_id = middle.text_input("Run id (empty: a new one)", help="an id already stored resumes that run")
    structure = right.selectbox("Betting structure (betting mode)", data.structures(game))
    rules = {}
    for option in game.options:
        choices = list(option.choices) if option.choices else [False, True]
        rules[option.name] = left.selectbox(f"Rule option {option.name}", choices,
                                            index=choices.index(option.default)
                                            if option.default in choices else 0,
                                            help=option.help)  # fmt: skip
    policies = middle.multiselect("Policies (betting mode, round the table)", data.policy_names(),
                                  default=["tag", "random", "station"])  # fmt: skip
    started = st.form_submit_button("Simulate in the background", type="primary")
if started:
    request = {"variant": variant, "hands": int(hands), "players": int(players), "seed": int(seed),
               "mode": mode,
               "rule": rules, "structure": structure if mode == "betting" else "",
               "policies": policies or ["tag"], "run_id": run_id.strip() or None}  # fmt: skip
    problem, job = data.start_run(request)
    if problem:
        st.error(problem)
    else:
        st.success(f"Started run {job.request['run_id']} (job {job.job_id}).")
jobs_view.job_list(kind="simulate")
