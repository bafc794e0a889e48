"""Background jobs: runs simulated (and tables computed) in processes of their own, so that they go
on when the page that started them is closed, can be cancelled, and a cancelled run resumes.

A job is a folder of the warehouse, ``jobs/ID/`` (docs/warehouse.md, "Jobs"): ``request.json``
(what to do, and when it was asked), ``progress.json`` (done, total, rate, and the phase of the work
with when each began, rewritten as the work goes), ``state.json`` (its end: done, failed with one
line, cancelled, and when) and ``log`` (the process's own output). The
process is ``python -m scooplab.jobs ROOT ID``, the leader of a session of its own (a signal to
its group reaches every worker it starts); whoever asks reads the folder, so any page, process
or notebook sees the same jobs.

>>> limits = Limits.from_environment({"SCOOPLAB_MAX_HANDS": "2000000", "SCOOPLAB_MAX_JOBS": "1"})
>>> limits.max_hands, limits.max_jobs, limits.max_minutes, limits.max_memory_mb
(2000000, 1, 60, 4096)
>>> limits.refusal(3_000_000, 1, busy=0)
'3,000,000 hands: this server runs at most 2,000,000 per run (SCOOPLAB_MAX_HANDS)'
>>> limits.refusal(1_000, 1, busy=1)
'1 job is running: this server runs at most 1 at once (SCOOPLAB_MAX_JOBS); wait or cancel one'
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FOLDER = "jobs"
KINDS = ("simulate", "starting_hands", "pushfold")
PROGRESS_EVERY = 0.5  # seconds between two writes of progress.json


@dataclass(frozen=True)
class Limits:
    """What one server lets a browser start: hands per run, jobs at once, minutes a run may need."""

    max_hands: int = 20_000_000
    max_jobs: int = 2
    max_minutes: int = 60
    max_memory_mb: int = 4_096

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits ``SCOOPLAB_MAX_HANDS``, ``SCOOPLAB_MAX_JOBS`` and ``SCOOPLAB_MAX_MINUTES`` set
        (``scooplab dashboard --max-hands/--max-jobs/--max-minutes``), the defaults otherwise."""
        environ = os.environ if environ is None else environ
        default = cls()
        return cls(*(int(environ.get(f"SCOOPLAB_{name.upper()}", getattr(default, name)))
                     for name in ("max_hands", "max_jobs", "max_minutes", "max_memory_mb")))  # fmt: skip

    def refusal(self, hands: int, seconds: float, busy: int, memory_mb: float = 0.0) -> str | None:
        """Why a run of ``hands`` expected to take ``seconds`` and ``memory_mb`` may not start while
        ``busy`` jobs run, or None."""
        if hands > self.max_hands:
            return (
                f"{hands:,} hands: this server runs at most {self.max_hands:,} per run (SCOOPLAB_MAX_HANDS)"
            )
        if busy >= self.max_jobs:
            jobs = f"{busy} job is" if busy == 1 else f"{busy} jobs are"
            return (f"{jobs} running: this server runs at most {self.max_jobs} at once "
                    "(SCOOPLAB_MAX_JOBS); wait or cancel one")  # fmt: skip
        if seconds > 60 * self.max_minutes:
            return (f"about {seconds / 60:,.0f} minutes of work: this server runs at most {self.max_minutes} "
                    "per run (SCOOPLAB_MAX_MINUTES); ask for fewer hands")  # fmt: skip
        if memory_mb > self.max_memory_mb:
            allowed = f"{self.max_memory_mb:,} MB per run (SCOOPLAB_MAX_MEMORY_MB)"
            return f"about {memory_mb:,.0f} MB for a shard: this server allows {allowed}"
        return None


@dataclass
class Job:
    """What a job's folder says now."""

    job_id: str
    kind: str
    request: dict[str, Any]
    state: str  # running, done, failed, cancelled
    done: int = 0
    total: int = 0
    rate: float = 0.0
    message: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    started: float = 0.0  # when it was asked for (time.time()), and when its work ended (0: not yet)
    ended: float = 0.0
    phases: list[tuple[str, float]] = field(default_factory=list)  # each phase, and when it began

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    @property
    def phase(self) -> str:
        """What the job does now (a run: ``starting``, ``dealing``, ``writing``, then what
        ``Lab.simulate`` tells: ``counting players``...), or "" once it ended."""
        return self.phases[-1][0] if self.phases and self.running else ""

    @property
    def seconds(self) -> float | None:
        """From the ask to the end (what the one who asked waited), None while it runs."""
        return max(0.0, self.ended - self.started) if self.ended and self.started else None

    def phase_seconds(self) -> dict[str, float]:
        """How long each phase took (the first from the ask, the last until the end or until now)."""
        if not self.phases:
            return {}
        names, begins = [name for name, _ in self.phases], [when for _, when in self.phases]
        ends = [*begins[1:], self.ended or time.time()]
        begins[0] = min(begins[0], self.started or begins[0])
        return {name: max(0.0, end - began) for name, began, end in zip(names, begins, ends, strict=True)}

    @property
    def running(self) -> bool:
        return self.state == "running"


def _folder(root: str | Path, job_id: str) -> Path:
    return Path(root) / FOLDER / job_id


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as JSON atomically: a temporary file beside ``path``, then renamed over it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(value), encoding="utf-8")
    os.replace(temporary, path)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _started_at(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot: with the pid, one process for good);
    None when no such process runs (a zombie, finished but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] == "Z" else int(fields[19])


def _alive(pid: int, started: int | None = None) -> bool:
    """Whether process ``pid`` runs (and is the one that started at ``started``, if given: a pid
    the system gave again to another process is not the job's)."""
    now = _started_at(pid)
    return now is not None and started in (None, now)


@contextmanager
def _starting(root: str | Path) -> Iterator[None]:
    """One start at a time in a warehouse (an exclusive lock on ``jobs/.lock``): the check of the
    jobs running and the start are one step for every server and process."""
    folder = Path(root) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class JobRefused(ValueError):
    """A job that may not start now: too many running, or its run going on already."""


def start(root: str | Path, kind: str, request: dict[str, Any], job_id: str | None = None,
          max_jobs: int | None = None, asked_at: float | None = None) -> Job:  # fmt: skip
    """Start a job (or start again the job ``job_id``: a resumed run) in a process of its own;
    ``JobRefused`` when ``max_jobs`` run already, or the job or its run goes on already. ``asked_at``:
    when it was asked for (``time.time()``; now if not given), the start of the time it takes."""
    asked_at = asked_at or time.time()
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r} (one of {', '.join(KINDS)})")
    job_id = job_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    with _starting(root):
        busy = running(root)
        if max_jobs is not None and len(busy) >= max_jobs:
            raise JobRefused(Limits(max_jobs=max_jobs).refusal(0, 0.0, len(busy)) or "too many jobs")
        run_id = request.get("run_id")
        if any(j.job_id == job_id or (run_id and j.request.get("run_id") == run_id) for j in busy):
            raise JobRefused(f"job {job_id} (run {run_id}) is running already")
        _launch(root, kind, request, job_id, asked_at)
    return job(root, job_id)


def _launch(root: str | Path, kind: str, request: dict[str, Any], job_id: str, asked_at: float) -> None:
    folder = _folder(root, job_id)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in ("state.json", "cancel", "pid.json"):
        (folder / stale).unlink(missing_ok=True)
    write_json(folder / "request.json", {"kind": kind, "request": request, "started": asked_at})
    with open(folder / "log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "scooplab.jobs", str(Path(root).resolve()), job_id],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    write_json(folder / "pid.json", {"pid": process.pid, "started": _started_at(process.pid)})
    _REAPED.append(process)  # reaped by the next look at the jobs (no zombie is left behind)


_REAPED: list[subprocess.Popen] = []


def _reap() -> None:
    for process in list(_REAPED):
        if process.poll() is not None:
            _REAPED.remove(process)


def job(root: str | Path, job_id: str) -> Job:
    """What the folder of job ``job_id`` says (ValueError for a job that is not there)."""
    _reap()
    folder = _folder(root, job_id)
    asked = _read_json(folder / "request.json")
    if not asked:
        raise ValueError(f"no job {job_id!r} in {root}")
    ended = _read_json(folder / "state.json")
    progress = _read_json(folder / "progress.json")
    launched = _read_json(folder / "pid.json")
    pid = launched.get("pid", 0)
    if ended:
        state, message = ended["state"], ended.get("message", "")
    elif (pid and _alive(pid, launched.get("started"))) or (
        not launched and time.time() - asked["started"] < 60
    ):
        state, message = "running", ""  # (or starting: its process is being launched)
    elif (folder / "cancel").exists():
        state, message = "cancelled", "cancelled"
    else:
        state, message = (
            "failed",
            "the job's process ended without a word (killed?); its log: " + str(folder / "log"),
        )
    phases = [(name, when) for name, when in progress.get("phases", [])]
    return Job(job_id, asked["kind"], asked["request"], state, progress.get("done", 0),
               progress.get("total", 0), progress.get("rate", 0.0), message, ended.get("result", {}),
               asked.get("started", 0.0), ended.get("ended", 0.0), phases)  # fmt: skip


def jobs(root: str | Path) -> list[Job]:
    """Every job of the warehouse, newest first."""
    folder = Path(root) / FOLDER
    if not folder.is_dir():
        return []
    found = [job(root, p.name) for p in folder.iterdir() if (p / "request.json").exists()]
    return sorted(found, key=lambda j: j.started, reverse=True)


def running(root: str | Path) -> list[Job]:
    return [j for j in jobs(root) if j.running]


def cancel(root: str | Path, job_id: str, wait: float = 20.0) -> Job:
    """Stop a running job and every process it started (SIGTERM to its group, SIGKILL after
    ``wait`` seconds); its finished work stays (a cancelled run resumes from its finished shards)."""
    folder = _folder(root, job_id)
    (folder / "cancel").touch()
    launched = _read_json(folder / "pid.json")
    pid, started = launched.get("pid", 0), launched.get("started")
    if pid and _alive(pid, started):  # (a pid given again to another process is left alone)
        _signal_group(pid, signal.SIGTERM)
        deadline = time.monotonic() + wait
        while _alive(pid, started) and time.monotonic() < deadline:
            _reap()
            time.sleep(0.05)
        if _alive(pid, started):
            _signal_group(pid, signal.SIGKILL)
    _reap()
    return job(root, job_id)


def _signal_group(pid: int, signal_number: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal_number)


def resume(root: str | Path, job_id: str, max_jobs: int | None = None) -> Job:
    """Start a cancelled or failed job again, under the same id (a run goes on from its last shard)."""
    previous = job(root, job_id)
    if previous.running:
        raise JobRefused(f"job {job_id} is running already")
    return start(root, previous.kind, previous.request, job_id, max_jobs)


class Progress:
    """A job's ``progress.json``: ``advance(count)`` adds up what is done and rewrites it at most
    every half second (at once when a phase begins, and at the end); ``phase(name)`` says what the
    job does next.
    The phases: ``starting`` (the engine loads), ``working`` from the first report on, ``finishing``
    (if any) once the count is whole (a run: ``dealing``, then ``writing`` its record). The rate
    counts from the first report on: that one may hold work done before (a resumed run's shards)."""

    def __init__(self, folder: Path, total: int, working: str = "working", finishing: str = "") -> None:
        self.path, self.total = folder / "progress.json", total
        self.working, self.finishing = working, finishing
        self.done, self.rate, self.last, self.first = 0, 0.0, 0.0, (0, 0.0)
        self.phases: list[tuple[str, float]] = []
        self.phase("starting")

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if not self.first[1]:
            self.first = (self.done, now)
        if now > self.first[1]:
            self.rate = (self.done - self.first[0]) / (now - self.first[1])
        step = self.finishing if self.finishing and self.done >= self.total else self.working
        if step != self.phases[-1][0]:
            self.phase(step)
        elif now - self.last >= PROGRESS_EVERY or self.done >= self.total:
            self._write()

    def phase(self, name: str) -> None:
        """``name`` begins now (written at once)."""
        self.phases.append((name, time.time()))
        self._write()

    def _write(self) -> None:
        self.last = time.monotonic()
        write_json(self.path, {"done": self.done, "total": self.total, "rate": self.rate,
                               "phase": self.phases[-1][0], "phases": self.phases})  # fmt: skip


def _run(root: Path, job_id: str) -> None:
    """The job's own process: do the work, then write how it ended (one line when it failed)."""
    from scooplab.lab import Lab

    folder = _folder(root, job_id)
    asked = _read_json(folder / "request.json")
    kind, request = asked["kind"], asked["request"]

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        lab = Lab(root)
        if kind == "simulate":
            result = _simulate(lab, folder, request)
        elif kind == "starting_hands":
            result = _starting_hands(lab, folder, request)
        else:
            result = _pushfold(lab, folder, request)
        _end(folder, {"state": "done", "result": result})
    except KeyboardInterrupt:
        _end(folder, {"state": "cancelled", "message": "cancelled"})
    except Exception as error:
        _end(folder, {"state": "failed", "message": f"{type(error).__name__}: {error}"})
        raise


def _end(folder: Path, state: dict[str, Any]) -> None:
    """Write how the job ended, and when: the moment its work ended (not its process's exit)."""
    write_json(folder / "state.json", state | {"ended": time.time()})


def _simulate(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    game = request.get("source") or known_game(lab.data, request["variant"]).name  # the version it began with
    settings = {k: v for k, v in request.items() if k not in ("variant", "hands", "source")}
    settings["policies"] = tuple(settings.get("policies", ("tag",)))
    progress = Progress(folder, request["hands"], working="dealing", finishing="writing")
    summary = lab.simulate(game, request["hands"], **settings, progress=progress.advance,
                           on_phase=progress.phase)  # fmt: skip
    return {k: summary[k] for k in ("run_id", "hands", "seconds", "hands_per_second", "resumed_shards")}


def _starting_hands(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    known_game(lab.data, request["variant"])
    progress = Progress(folder, 1, working="computing")
    progress.advance(0)
    lab.compute_starting_hands(request["variant"], request["players"])
    progress.advance(1)
    return {"variant": request["variant"], "players": request["players"]}


def _pushfold(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    known_game(lab.data, request["variant"])
    stacks = request["stacks"]
    progress = Progress(folder, len(stacks), working="solving")
    progress.advance(0)
    for stack in stacks:
        lab.solve_pushfold(request["variant"], [stack])
        progress.advance(1)
    return {"variant": request["variant"], "stacks": stacks}


CAUTIOUS_RATES = {"showdown": 50_000, "betting": 2_000}  # hands a second of the slowest game, per process
BYTES_PER_SEAT = 400  # a seat's rows of a hand in memory while its shard is written, cautiously


def start_run(
    root: str | Path, request: dict[str, Any], limits: Limits | None = None
) -> tuple[str | None, Job | None]:
    """Start a simulation job of ``request`` (``Lab.simulate``'s arguments by name, ``variant`` and
    ``hands`` among them), checked first: the run's settings, then the server's limits (the time
    at a cautious rate, the memory of a shard). Returns (why not, None) or (None, the job)."""
    from scooplab.designs import known_game
    from scooplab.lab import Lab

    asked_at = time.time()  # (the checks below are part of what the one who asked waits for)
    limits = limits or Limits.from_environment()
    request = dict(request)
    hands = int(request["hands"])
    request.setdefault("shard_size", max(5_000, min(200_000, hands // 20)))
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"
    request["run_id"] = request.get("run_id") or f"wb-{request['variant']}-{stamp}"
    settings = {
        k: v for k, v in request.items() if k not in ("variant", "hands", "run_id", "workers", "source")
    }
    try:
        spec = Lab(root).simulation_spec(known_game(root, request["variant"]), hands, **settings)
    except ValueError as error:
        return str(error), None
    if spec.game.endswith(".toml"):  # a described game: this version of it, resumed or not
        request["source"] = spec.game
    seconds = hands / CAUTIOUS_RATES[spec.mode]
    memory_mb = spec.shard_size * spec.players * BYTES_PER_SEAT / 2**20
    problem = limits.refusal(hands, seconds, busy=0, memory_mb=memory_mb)
    if problem:
        return problem, None
    try:
        return None, start(root, "simulate", request, max_jobs=limits.max_jobs, asked_at=asked_at)
    except JobRefused as refused:
        return str(refused), None


def as_dict(job_: Job) -> dict[str, Any]:
    return asdict(job_)


if __name__ == "__main__":
    _run(Path(sys.argv[1]), sys.argv[2])
