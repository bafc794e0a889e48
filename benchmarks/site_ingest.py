"""PokerStars hand histories ingested whole process, beside PokerKit's ``from_pokerstars`` in the same
run (#53, item 8: at least 20,000 hands a second on one worker, and 300 times PokerKit).

A corpus of no-limit hold'em hands is written first, untimed (``benchmarks/stars_corpus.py``: cash in
USD and EUR and tournaments with antes, 2 to 9 players, preflop folds, all-ins with side pots and
showdowns, uncalled bets, rake). Then, each a fresh process as a user runs it, with its wall time
and peak memory (``measure.measured``):

* ``scooplab ingest FOLDER --data NEW`` of the whole corpus, after an untimed ingest of a few hands
  into another warehouse (numba's cache warm, as any run after the first); every hand must be
  stored, none rejected;
* the same of one hand: the fixed cost of a run (start-up, compiled code loaded, the warehouse's
  indexes), so the rate beyond it is printed too;
* PokerKit 0.7.7 reading and replaying a sample of the same hands (about 200 a second here);
* scooplab's Python reader (``sites.site_hands``, what the compiled one falls back to) over the
  same sample, which must read every hand, and the compiled reader over the whole corpus.

    python benchmarks/site_ingest.py [--hands 100000] [--sample 2000] [--seed 1] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measured  # noqa: E402
from stars_corpus import write_corpus  # noqa: E402

TARGET_RATE, TARGET_RATIO = 20_000, 300

POKERKIT = """
import os, sys, warnings
from pokerkit import HandHistory
warnings.simplefilter("ignore")
sys.stderr = open(os.devnull, "w")  # (the hands it cannot repair, each a traceback)
text = open(sys.argv[1], encoding="utf-8").read()
hands = 0
for history in HandHistory.from_pokerstars(text):
    for _state in history:  # replayed, as PokerKit reads a hand
        pass
    hands += 1
print(hands)
"""

STAGES = """
import json, sys, time
from pathlib import Path
from ingest.histories import sites
from ingest.histories.phh import write_hand
from ingest.histories.sites import stars_kernel
folder, sample = Path(sys.argv[1]), Path(sys.argv[2]).read_bytes()
start = time.perf_counter()
read = [stars_kernel.read_site(path.read_bytes(), write_hand) for path in sorted(folder.glob("*.txt"))]
kernel = time.perf_counter() - start
start = time.perf_counter()
found = list(sites.site_hands(sample))
python = time.perf_counter() - start
print(json.dumps({"kernel": kernel, "written": sum(int(r.status.size - r.status.sum()) for r in read),
                  "hands": sum(r.status.size for r in read), "python": python, "sample": len(found),
                  "python_read": sum(f[3] is not None and "_notes" not in f[3] for f in found)}))
"""


def sample_file(paths: list[Path], hands: int, out: Path) -> int:
    """Every k-th hand of the corpus into ``out``, about ``hands`` of them; how many."""
    texts = [t for path in paths for t in path.read_text(encoding="utf-8").split("\n\n\n") if t.strip()]
    step = max(1, len(texts) // hands)
    chosen = texts[::step][:hands]
    out.write_text("\n\n\n".join(chosen) + "\n\n\n", encoding="utf-8")
    return len(chosen)


def scooplab(source: Path, data: Path) -> tuple[float, float, dict]:
    """``scooplab ingest SOURCE --data DATA --format json``: wall seconds, peak MB, its report."""
    command = [
        sys.executable,
        "-m",
        "scooplab.cli",
        "ingest",
        str(source),
        "--data",
        str(data),
        "--format",
        "json",
    ]
    seconds, peak, out = measured(command)
    return seconds, peak, json.loads(next(line for line in out.splitlines() if line.startswith("{")))


def run(folder: Path, hands: int, sample: int, seed: int) -> None:
    start = time.perf_counter()
    paths = write_corpus(folder / "corpus", hands, seed=seed)
    size = sum(p.stat().st_size for p in paths) / 1e6
    print(f"corpus: {hands:,} PokerStars no-limit hold'em hands in {len(paths)} files ({size:.1f} MB), "
          f"written in {time.perf_counter() - start:.0f} s (untimed)")  # fmt: skip
    few = write_corpus(folder / "few", 200, seed=seed + 1000, per_file=100)
    scooplab(few[0].parent, folder / "warm")  # numba's cache warm: untimed
    one = folder / "one.txt"
    one.write_text(few[0].read_text(encoding="utf-8").split("\n\n\n")[0] + "\n", encoding="utf-8")
    floor, _, _ = scooplab(one, folder / "floor")

    seconds, peak, report = scooplab(folder / "corpus", folder / "warehouse")
    assert (report["hands"], report["rejected"]) == (hands, 0), report  # every generated hand replays
    rate = hands / seconds
    print(f"scooplab ingest (one worker, whole process): {seconds:6.2f} s, {rate:9,.0f} hands/s, "
          f"peak {peak:,.0f} MB; {report['hands']:,} stored, {report['rejected']} rejected")  # fmt: skip
    print(f"  one hand, whole process (the fixed cost of a run): {floor:.2f} s; beyond it "
          f"{hands / max(seconds - floor, 1e-9):,.0f} hands/s")  # fmt: skip

    taken = sample_file(paths, sample, folder / "sample.txt")
    command = [sys.executable, "-c", STAGES, str(folder / "corpus"), str(folder / "sample.txt")]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    stages = json.loads(out.stdout.strip().splitlines()[-1])
    assert stages["python_read"] == stages["sample"] == taken, stages  # the Python reader reads them all
    kernel_rate = stages["hands"] / stages["kernel"]
    print(
        f"  compiled reader alone: {stages['kernel']:.2f} s ({kernel_rate:,.0f} hands/s), "
        f"{stages['written']:,} of {stages['hands']:,} hands written by it (the rest: its Python reader)"
    )
    print(f"  Python reader alone ({taken:,} hands): {stages['python']:.2f} s "
          f"({taken / stages['python']:,.0f} hands/s), every hand read")  # fmt: skip
    try:
        peer_seconds, peer_peak, out = measured([sys.executable, "-c", POKERKIT, str(folder / "sample.txt")])
    except subprocess.CalledProcessError:
        print("PokerKit: failed on these hands (is it installed?)")
        return
    read = int(out.strip().splitlines()[-1])
    peer = read / peer_seconds
    print(f"PokerKit 0.7.7 from_pokerstars, read and replayed ({read:,} of {taken:,} hands): "
          f"{peer_seconds:.1f} s, {peer:,.0f} hands/s, peak {peer_peak:,.0f} MB")  # fmt: skip
    ratio = rate / peer
    verdicts = ["met" if ok else "NOT met" for ok in (ratio >= TARGET_RATIO, rate >= TARGET_RATE)]
    print(f"scooplab / PokerKit: {ratio:,.0f}x (target {TARGET_RATIO}x: {verdicts[0]}); "
          f"{rate:,.0f} hands/s (target {TARGET_RATE:,}: {verdicts[1]})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=2_000, help="hands PokerKit and the Python reader read")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the corpus and warehouses here (kept)")
    args = parser.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args.keep, args.hands, args.sample, args.seed)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(Path(folder), args.hands, args.sample, args.seed)


if __name__ == "__main__":
    main()
