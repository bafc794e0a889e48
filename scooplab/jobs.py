"""Background jobs: runs simulated (and tables computed) in processes of their own, so that they go
on when the page that started them is closed, can be cancelled, and a cancelled run resumes.

A job is a folder of the warehouse, ``jobs/ID/`` (docs/warehouse.md, "Jobs"): ``request.json``
(what to do), ``progress.json`` (done, total and rate, rewritten as the work goes), ``state.json``
(its end: done, failed with one line, cancelled) and ``log`` (the process's own output). The
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

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
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
    started: float = 0.0

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

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


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, finished but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def start(root: str | Path, kind: str, request: dict[str, Any], job_id: str | None = None) -> Job:
    """Start a job (or start again the job ``job_id``: a resumed run) in a process of its own."""
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r} (one of {', '.join(KINDS)})")
    job_id = job_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    folder = _folder(root, job_id)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in ("state.json", "cancel"):
        (folder / stale).unlink(missing_ok=True)
    write_json(folder / "request.json", {"kind": kind, "request": request, "started": time.time()})
    with open(folder / "log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "scooplab.jobs", str(Path(root).resolve()), job_id],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    write_json(folder / "pid.json", {"pid": process.pid})
    _REAPED.append(process)  # reaped by the next look at the jobs (no zombie is left behind)
    return job(root, job_id)


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
    pid = _read_json(folder / "pid.json").get("pid", 0)
    if ended:
        state, message = ended["state"], ended.get("message", "")
    elif pid and _alive(pid):
        state, message = "running", ""
    elif (folder / "cancel").exists():
        state, message = "cancelled", "cancelled"
    else:
        state, message = (
            "failed",
            "the job's process ended without a word (killed?); its log: " + str(folder / "log"),
        )
    return Job(job_id, asked["kind"], asked["request"], state, progress.get("done", 0),
               progress.get("total", 0), progress.get("rate", 0.0), message, ended.get("result", {}),
               asked.get("started", 0.0))  # fmt: skip


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
    pid = _read_json(folder / "pid.json").get("pid", 0)
    if pid and _alive(pid):
        _signal_group(pid, signal.SIGTERM)
        deadline = time.monotonic() + wait
        while _alive(pid) and time.monotonic() < deadline:
            _reap()
            time.sleep(0.05)
        _signal_group(pid, signal.SIGKILL)
    _reap()
    return job(root, job_id)


def _signal_group(pid: int, signal_number: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal_number)


def resume(root: str | Path, job_id: str) -> Job:
    """Start a cancelled or failed job again, under the same id (a run goes on from its last shard)."""
    previous = job(root, job_id)
    if previous.running:
        raise ValueError(f"job {job_id} is running already")
    return start(root, previous.kind, previous.request, job_id)


def progress_writer(folder: Path, total: int) -> Callable[[int], None]:
    """``advance(count)`` for a job's work: adds up what is done and rewrites ``progress.json`` at
    most every half second (and at the end). The rate counts from the first report on: that one
    may hold work done before (a resumed run's finished shards) or the engine's start."""
    counted, last, first = [0], [0.0], [0, 0.0]
    write_json(folder / "progress.json", {"done": 0, "total": total, "rate": 0.0})

    def advance(count: int = 1) -> None:
        counted[0] += count
        now = time.monotonic()
        if not first[1]:
            first[:] = [counted[0], now]
        if now - last[0] >= PROGRESS_EVERY or counted[0] >= total:
            last[0] = now
            rate = (counted[0] - first[0]) / (now - first[1]) if now > first[1] else 0.0
            write_json(folder / "progress.json", {"done": counted[0], "total": total, "rate": rate})

    return advance


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
        write_json(folder / "state.json", {"state": "done", "result": result})
    except KeyboardInterrupt:
        write_json(folder / "state.json", {"state": "cancelled", "message": "cancelled"})
    except Exception as error:
        write_json(folder / "state.json", {"state": "failed", "message": f"{type(error).__name__}: {error}"})
        raise


def _simulate(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    known_game(lab.data, request["variant"])
    settings = {k: v for k, v in request.items() if k not in ("variant", "hands")}
    settings["policies"] = tuple(settings.get("policies", ("tag",)))
    summary = lab.simulate(request["variant"], request["hands"], **settings,
                           progress=progress_writer(folder, request["hands"]))  # fmt: skip
    return {k: summary[k] for k in ("run_id", "hands", "seconds", "hands_per_second", "resumed_shards")}


def _starting_hands(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    known_game(lab.data, request["variant"])
    advance = progress_writer(folder, 1)
    lab.compute_starting_hands(request["variant"], request["players"])
    advance(1)
    return {"variant": request["variant"], "players": request["players"]}


def _pushfold(lab, folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    from scooplab.designs import known_game

    known_game(lab.data, request["variant"])
    stacks = request["stacks"]
    advance = progress_writer(folder, len(stacks))
    for stack in stacks:
        lab.solve_pushfold(request["variant"], [stack])
        advance(1)
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

    limits = limits or Limits.from_environment()
    request = dict(request)
    hands = int(request["hands"])
    request.setdefault("shard_size", max(5_000, min(200_000, hands // 20)))
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"
    request["run_id"] = request.get("run_id") or f"wb-{request['variant']}-{stamp}"
    settings = {k: v for k, v in request.items() if k not in ("variant", "hands", "run_id", "workers")}
    try:
        spec = Lab(root).simulation_spec(known_game(root, request["variant"]), hands, **settings)
    except ValueError as error:
        return str(error), None
    seconds = hands / CAUTIOUS_RATES[spec.mode]
    memory_mb = spec.shard_size * spec.players * BYTES_PER_SEAT / 2**20
    problem = limits.refusal(hands, seconds, busy=len(running(root)), memory_mb=memory_mb)
    if problem:
        return problem, None
    return None, start(root, "simulate", request)


def as_dict(job_: Job) -> dict[str, Any]:
    return asdict(job_)


if __name__ == "__main__":
    _run(Path(sys.argv[1]), sys.argv[2])
