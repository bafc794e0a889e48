"""The background jobs on a page: each with its progress bar, rate and phase, Cancel and Resume;
redrawn twice a second while one runs (a fragment: the rest of the page stays as it is)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboards import data

SHOWN = 8  # the newest jobs listed
POLL_SECONDS = 0.5  # while a job runs: as often as it rewrites its progress (scooplab.jobs.PROGRESS_EVERY)
PHASES = {  # what a job does, in words
    "starting": "starting",
    "dealing": "dealing",
    "writing": "writing the run's record",
    "counting players": "counting the Players page's rows",
    "counting pairs": "counting Compare's paired hands",
    "computing": "computing",
    "solving": "solving",
}


def _phase_words(phase: str) -> str:
    return PHASES.get(phase, phase)


def describe(job: Any) -> str:
    """One line: what the job does, and where it stands."""
    asked = job.request
    if job.kind == "simulate":
        hands = f"{asked['hands']:,} hands of {asked['variant']}"
        what = f"run {asked.get('run_id')}: {hands}, {asked.get('mode')} mode"
    elif job.kind == "starting_hands":
        what = f"starting hands of {asked['variant']}, {asked['players']} players"
    else:
        what = f"push/fold of {asked['variant']} at {', '.join(f'{s:g}' for s in asked['stacks'])} bb"
    return f"{what} · {_phase_words(job.phase) if job.running and job.phase else job.state}"


def _progress_text(job: Any) -> str:
    if job.running and (job.phase == "starting" or (not job.phase and job.done == 0)):
        return (f"0 of {job.total:,}: starting (the engine loads; a game's first run compiles its kernels "
                "once, a minute or two)")  # fmt: skip
    if job.kind != "simulate":
        return f"{job.done:,} of {job.total:,} done"
    rate = f", {job.rate:,.0f} hands/s" if job.rate else ""
    if job.running and job.phase not in ("", "dealing"):  # dealt: what the run does after its hands
        return f"{job.done:,} of {job.total:,} hands dealt{rate}; now {_phase_words(job.phase)}…"
    return f"{job.done:,} of {job.total:,} hands ({100 * job.fraction:.0f}%){rate}"


def done_text(job: Any) -> str:
    """How long the one who asked waited, from the click to the end, and what took it."""
    if job.seconds is None:
        return "Done."
    took = [f"{_phase_words(name)} {seconds:,.1f} s" for name, seconds in job.phase_seconds().items()
            if seconds >= 0.05]  # fmt: skip
    return f"Done in {job.seconds:,.1f} s" + (f" ({', '.join(took)})." if took else ".")


def _one(job: Any) -> None:
    with st.container(border=True):
        st.markdown(describe(job))
        if job.running or job.done:
            st.progress(job.fraction, text=_progress_text(job))
        if job.state == "failed":
            st.error(job.message)
        if job.state == "done":
            st.caption(done_text(job))
        if job.running and st.button("Cancel", key=f"cancel-{job.job_id}"):
            data.cancel_job(job.job_id)
            st.rerun(scope="fragment")
        if job.state in ("cancelled", "failed") and st.button("Resume", key=f"resume-{job.job_id}"):
            refused = data.resume_job(job.job_id)
            if refused:
                st.error(refused)
            else:
                st.rerun(scope="fragment")


def job_list(kind: str | None = None, variant: str | None = None) -> None:
    """The newest jobs (of ``kind``, of the game ``variant``), redrawn twice a second while one runs."""

    def of_here() -> list:
        return [j for j in data.jobs(kind) if variant in (None, j.request.get("variant"))]

    interval = POLL_SECONDS if any(j.running for j in of_here()) else 3.0

    @st.fragment(run_every=interval)
    def listed() -> None:
        found = of_here()[:SHOWN]
        if not found:
            st.caption("No runs started here yet.")
            return
        finished = {j.job_id for j in found if not j.running}
        seen = st.session_state.get(f"jobs-finished-{kind}-{variant}")
        if seen is not None and finished - seen:
            data.refresh()  # a job has ended: every page shows what it made now
        st.session_state[f"jobs-finished-{kind}-{variant}"] = finished
        st.subheader("Runs started from the dashboard")
        for job in found:
            _one(job)

    listed()
