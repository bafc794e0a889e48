"""Ingest speed: the 10,000 Pluribus hands end to end, and PokerKit on the same hands.

Reads the archive, replays and checks every hand, writes the Parquet warehouse
(into a temporary folder), and prints hands per second; then the stages on their own
(reading, the compiled replay with its rows, and the Python state machine that takes
the hands the compiled replay hands back); then, when PokerKit is installed, times
PokerKit loading and replaying the same hands in the same run.

    python benchmarks/ingest.py [--archive ../shared/data/phh/pluribus.tar.gz] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.fast_replay import prepare, replay_batch  # noqa: E402
from ingest.phh import iter_hands  # noqa: E402
from ingest.pipeline import FAST_BATCH, ingest  # noqa: E402
from ingest.replay import replay  # noqa: E402
from ingest.rows import hand_id  # noqa: E402
from ingest.warehouse import Warehouse  # noqa: E402

DEFAULT_ARCHIVE = ROOT.parent / "shared" / "data" / "phh" / "pluribus.tar.gz"


def time_scooplab(archive: Path, repeat: int) -> tuple[float, int]:
    best, hands = float("inf"), 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            report = ingest([archive], Warehouse(folder))
            best = min(best, time.perf_counter() - start)
            hands = report.hands
    return best, hands


def time_stages(archive: Path) -> dict[str, float]:
    """Seconds of each stage on its own: reading, the compiled replay with its rows, the state machine."""
    start = time.perf_counter()
    raws = list(iter_hands([archive]))
    read = time.perf_counter() - start
    start = time.perf_counter()
    prepared = [prepare(raw, hand_id(raw.fields)) for raw in raws]
    for first in range(0, len(prepared), FAST_BATCH):
        replay_batch(prepared[first : first + FAST_BATCH], "bench")
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    for raw in raws:
        replay(raw.fields)
    return {
        "read and parse TOML": read,
        "compiled replay, rows": compiled,
        "state machine replay": time.perf_counter() - start,
    }


def time_pokerkit(archive: Path) -> tuple[float, int] | None:
    try:
        from pokerkit import HandHistory
    except ImportError:
        print("PokerKit not installed: skipped")
        return None
    with tarfile.open(archive) as tar:
        texts = [tar.extractfile(m).read() for m in tar if m.isfile() and m.name.endswith(".phh")]
    start = time.perf_counter()
    for text in texts:
        history = HandHistory.loads(text.decode())
        for _state in history:
            pass
    return time.perf_counter() - start, len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--archive", type=Path, default=DEFAULT_ARCHIVE)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not args.archive.exists():
        raise SystemExit(f"{args.archive} not found (it is in ../shared/data/phh/)")
    seconds, hands = time_scooplab(args.archive, args.repeat)
    print(
        f"scooplab ingest, end to end ({hands:,} hands, best of {args.repeat}): "
        f"{seconds:.2f} s, {hands / seconds:,.0f} hands/s"
    )
    for stage, stage_seconds in time_stages(args.archive).items():
        print(f"  {stage:<24} {stage_seconds:.2f} s ({hands / stage_seconds:,.0f} hands/s)")
    peer = time_pokerkit(args.archive)
    if peer:
        peer_seconds, peer_hands = peer
        print(
            f"PokerKit load and replay ({peer_hands:,} hands): {peer_seconds:.2f} s, "
            f"{peer_hands / peer_seconds:,.0f} hands/s; scooplab is "
            f"{(hands / seconds) / (peer_hands / peer_seconds):.1f}x"
        )


if __name__ == "__main__":
    main()
