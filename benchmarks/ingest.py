"""Ingest speed: the 10,000 Pluribus hands end to end, whole process, beside PokerKit in the same run.

Times fresh processes, as a user runs them: ``scooplab ingest`` of the archive and of a folder
of the same files (extracted beforehand, untimed) into a new warehouse; PokerKit loading and
replaying the same hands (its process reads the archive too). Then, in one more fresh process,
the stages on their own: reading and parsing, loading the compiled replay, the compiled replay
with its rows, and the Python state machine that takes the hands the compiled replay hands back.
#16's target: at least 20,000 hands/s and 20x PokerKit.

The floor is printed beside them: a fresh process that imports numba and ``pyarrow.parquet`` and
calls one compiled function from numba's cache, which any ingest that replays in compiled code
and writes Parquet pays before its first hand; and the rate beyond it (the hands over the
seconds past the floor).

Then #36's real-format run (``--cash N``, default 200,000; 0 skips it): the Pluribus hands
rewritten as online cash hands (``benchmarks/cash_corpus.py``: money amounts, hidden cards,
``winnings`` less a rake, venue, players, date and time) written as ``.phhs`` files (untimed),
``scooplab ingest`` of the folder with one and with two worker processes, and PokerKit loading and
replaying the same files, each a fresh process, with its peak memory. #36's target: at least
20,000 hands/s and 20x PokerKit on one core.

Then one and two workers over ``--scaling N`` such hands (default 1,000,000; 0 skips it), without
the peer, for #36's 1.8x at 1,000,000 hands.

    python benchmarks/ingest.py [--archive ../shared/data/phh/pluribus.tar.gz] [--cash 200000]
                                [--scaling 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.histories.batches import FAST_BATCH  # noqa: E402
from ingest.histories.fast_replay import prepare, replay_batch  # noqa: E402
from ingest.histories.phh import iter_hands  # noqa: E402
from ingest.histories.replay import replay  # noqa: E402
from ingest.histories.rows import hand_id  # noqa: E402

DEFAULT_ARCHIVE = ROOT.parent / "shared" / "data" / "phh" / "pluribus.tar.gz"


def time_scooplab(source: Path) -> tuple[float, int]:
    """Whole-process seconds of ``scooplab ingest`` into a new warehouse, and the hands stored."""
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, "-m", "scooplab.cli", "ingest", str(source), "--data", data]
        command += ["--format", "json"]
        start = time.perf_counter()
        out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
    return seconds, json.loads(out.stdout)["hands"]


def time_stages(archive: Path) -> dict[str, float]:
    """Seconds of each stage on its own: reading, the compiled replay with its rows, the state machine."""
    start = time.perf_counter()
    raws = list(iter_hands([archive]))
    read = time.perf_counter() - start
    start = time.perf_counter()
    prepared = [prepare(raw, hand_id(raw.fields)) for raw in raws]
    prepare_seconds = time.perf_counter() - start
    start = time.perf_counter()
    replay_batch(prepared[:1], "bench")  # numba's first call: its own start-up and the kernels' cache
    loading = time.perf_counter() - start
    start = time.perf_counter()
    for first in range(0, len(prepared), FAST_BATCH):
        replay_batch(prepared[first : first + FAST_BATCH], "bench")
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    for raw in raws:
        replay(raw.fields)
    return {
        "read and parse TOML": read,
        "content ids, prepare": prepare_seconds,
        "load compiled replay": loading,
        "compiled replay, rows": compiled,
        "state machine replay": time.perf_counter() - start,
    }


POKERKIT = """
import sys, tarfile
from pokerkit import HandHistory
with tarfile.open(sys.argv[1]) as tar:
    texts = [tar.extractfile(m).read() for m in tar if m.isfile() and m.name.endswith(".phh")]
for text in texts:
    for _state in HandHistory.loads(text.decode()):
        pass
print(len(texts))
"""


def time_pokerkit(archive: Path) -> tuple[float, int] | None:
    """Whole-process seconds of PokerKit reading the archive and replaying every hand, and the hands."""
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("PokerKit not installed: skipped")
        return None
    start = time.perf_counter()
    command = [sys.executable, "-c", POKERKIT, str(archive)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(out.stdout)


FLOOR = """
import numba, pyarrow.parquet

@numba.njit(cache=True)
def one(x):
    return x + 1

one(1)
"""


def time_floor() -> float:
    """Whole-process seconds of importing numba and pyarrow.parquet and calling a cached compiled
    function (compiled by an untimed first run), best of three."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "floor.py").write_text(FLOOR)
        command = [sys.executable, "floor.py"]
        subprocess.run(command, cwd=folder, check=True)  # compiles into the folder's cache
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(command, cwd=folder, check=True)
            best = min(best, time.perf_counter() - start)
    return best


POKERKIT_CASH = """
import io, sys
from pathlib import Path
from pokerkit import HandHistory
hands = 0
for path in sorted(Path(sys.argv[1]).glob("*.phhs")):
    for history in HandHistory.load_all(io.BytesIO(path.read_bytes())):
        for _state in history:
            pass
        hands += 1
print(hands)
"""


def _ingest_rates(corpus: Path, folder: Path, hands: int) -> dict[int, float]:
    """``scooplab ingest`` of ``corpus`` with one and with two workers, each a fresh process: hands/s."""
    from measure import measured  # beside this script

    rates = {}
    for workers in (1, 2):
        data = folder / f"warehouse-{workers}"
        command = [sys.executable, "-m", "scooplab.cli", "ingest", str(corpus), "--data", str(data)]
        if workers > 1:
            command += ["--workers", str(workers)]
        try:
            seconds, peak, _ = measured(command)
        except subprocess.CalledProcessError:
            print(f"  scooplab ingest, {workers} workers: not available")
            continue
        rate = rates[workers] = hands / seconds
        verdict = "met" if rate >= 20_000 else "NOT met"
        print(f"  scooplab ingest, {workers} worker(s): {seconds:6.1f} s, {rate:8,.0f} hands/s, "
              f"peak {peak:,.0f} MB (target 20,000 hands/s: {verdict})")  # fmt: skip
    if 2 in rates:
        print(f"  two workers / one: {rates[2] / rates[1]:.2f}x (target 1.8x at 1,000,000 hands)")
    return rates


def scaling_run(hands: int, archive: Path) -> None:
    """#36's scaling: one and two workers over ``hands`` real-format hands (no peer: PokerKit would
    take about a second per thousand hands)."""
    from cash_corpus import write_corpus  # beside this script

    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "cash"
        write_corpus(corpus, hands, seed=2, archive=archive)
        print(f"real-format cash hands, scaling: {hands:,} in {len(list(corpus.glob('*.phhs')))} files")
        _ingest_rates(corpus, Path(folder), hands)


def cash_run(hands: int, archive: Path) -> None:
    """#36: real-format cash hands, ``scooplab ingest`` with one and two workers beside PokerKit."""
    from cash_corpus import write_corpus  # beside this script
    from measure import measured

    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "cash"
        write_corpus(corpus, hands, seed=1, archive=archive)
        print(f"real-format cash hands: {hands:,} in {len(list(corpus.glob('*.phhs')))} files")
        rates = _ingest_rates(corpus, Path(folder), hands)
        if 1 not in rates:
            return
        try:
            seconds, peak, _ = measured([sys.executable, "-c", POKERKIT_CASH, str(corpus)])
        except subprocess.CalledProcessError:
            print("  PokerKit: failed on these hands")
            return
        peer = hands / seconds
        print(f"  PokerKit load and replay: {seconds:6.1f} s, {peer:8,.0f} hands/s, peak {peak:,.0f} MB; "
              f"scooplab one worker {rates[1] / peer:.1f}x PokerKit (target 20x)")  # fmt: skip


def stages_in_fresh_process(archive: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--archive", str(archive), "--inner"]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--archive", type=Path, default=DEFAULT_ARCHIVE)
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cash", type=int, default=200_000, help="real-format cash hands (0: skip)")
    parser.add_argument("--scaling", type=int, default=1_000_000,
                        help="real-format hands for one and two workers, no peer (0: skip)")  # fmt: skip
    args = parser.parse_args()
    if not args.archive.exists():
        raise SystemExit(f"{args.archive} not found (it is in ../shared/data/phh/)")
    if args.inner:
        print(json.dumps(time_stages(args.archive)))
        return
    peer = time_pokerkit(args.archive)
    floor = time_floor()
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(args.archive) as tar:
            tar.extractall(folder, filter="data")
        runs = {"archive": time_scooplab(args.archive), "folder": time_scooplab(Path(folder))}
    for source, (seconds, hands) in runs.items():
        rate = hands / seconds
        line = f"ingest from the {source:<7} ({hands:,} hands): {seconds:5.2f} s, {rate:7,.0f} hands/s"
        if peer:
            line += f", {rate / (peer[1] / peer[0]):.1f}x PokerKit"
        verdict = "met" if rate >= 20_000 else "not met"
        print(line + f"  (#16's 20,000 hands/s, replaced by #36's run below: {verdict})")
        print(f"  {'':<32} beyond the floor {hands / (seconds - floor):7,.0f} hands/s")
    if peer:
        seconds, hands = peer
        print(f"PokerKit load and replay ({hands:,} hands): {seconds:5.2f} s, {hands / seconds:,.0f} hands/s")
    hands = runs["archive"][1]
    line = f"floor (import numba and pyarrow.parquet, one cached compiled call): {floor:.2f} s"
    line += f", so at most {hands / floor:,.0f} hands/s for {hands:,} hands"
    if peer:
        line += f" and {peer[0] / floor:.1f}x PokerKit"
    print(line)
    print("stages on their own (one fresh process):")
    for stage, stage_seconds in stages_in_fresh_process(args.archive).items():
        print(f"  {stage:<24} {stage_seconds:.2f} s ({hands / stage_seconds:,.0f} hands/s)")
    if args.cash:
        cash_run(args.cash, args.archive)
    if args.scaling:
        scaling_run(args.scaling, args.archive)


if __name__ == "__main__":
    main()
