"""Every site format ingested whole process, one file each, beside PokerKit's parser of the format in
the same run where it has one (#54, item 4: at least 20,000 hands a second on one worker).

Each format's file is its test fixtures' hands that its reader reads (tests/fixtures/sites/, written
for scooplab: made-up players and amounts) repeated, each copy under a new hand id, to ``--hands``
hands (untimed). Then,
each a fresh process as a user runs it, with its wall time and peak memory (``measure.measured``):

* ``scooplab ingest FILE --data NEW`` (numba's cache warm from an untimed run first); the hands
  stored and refused are printed (a hand the replay refuses stays refused in every copy);
* the same of the format's first fixture hand alone: the fixed cost of a run, so the rate beyond it
  is printed too;
* PokerKit 0.7.7's parser of the format reading and replaying the same file, where it has one.

    python benchmarks/site_formats.py [--hands 20000] [--formats winamax,ipoker,...] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measured  # noqa: E402
from site_ingest import scooplab  # noqa: E402

from ingest.histories import sites  # noqa: E402
from ingest.histories.sites.text import normalized_text  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "sites"
TARGET_RATE = 20_000
# a format's fixtures (their names' start), the name sites.FORMATS gives it, PokerKit's parser
FORMATS = {
    "winamax": ("Winamax", None), "pacific": ("888", None), "partypoker": ("PartyPoker", "from_partypoker"),
    "ipoker": ("iPoker", "from_ipoker_network"), "fulltilt": ("Full Tilt", "from_full_tilt_poker"),
    "ongame": ("Ongame", "from_ongame_network"), "absolute": ("Absolute", "from_absolute_poker"),
}  # fmt: skip
_IPOKER_GAME = re.compile(r'<game gamecode="([^"]+)".*?</game>', re.S)

POKERKIT = """
import os, sys, warnings
from pokerkit import HandHistory
warnings.simplefilter("ignore")
sys.stderr = open(os.devnull, "w")  # (the hands it cannot read, each a traceback)
text = open(sys.argv[1], encoding="utf-8").read()
hands = 0
try:
    for history in getattr(HandHistory, sys.argv[2])(text):
        for _state in history:  # replayed, as PokerKit reads a hand
            pass
        hands += 1
except Exception:  # it stops at a hand that breaks it
    pass
print(hands)
"""


def fixture_hands(prefix: str, name: str) -> tuple[str, list[tuple[str, str]]]:
    """A format's fixture hands its reader reads (those it refuses are left out): the text before them
    (an iPoker session's header and its end), and each hand's (id, text)."""
    texts = [normalized_text(p.read_bytes()) for p in sorted(FIXTURES.glob(f"{prefix}-*")) if p.is_file()]
    if name == "iPoker":
        text = next((t for t in texts if t.count("<session") == 1 and "</game>" in t), "")  # one header
        games = list(_IPOKER_GAME.finditer(text))
        head, tail = (text[: games[0].start()], "\n</session>\n") if games else ("", "")
        read = [(g.group(1), g.group(0)) for g in games if _reads((head + g.group(0) + tail).encode())]
        return head + "\0" + tail, read
    header = next(h for n, h, _ in sites.FORMATS if n == name)
    hands = []
    for text in texts:
        starts = [m for m in header.finditer(text)]
        for found, end in zip(starts, [*(m.start() for m in starts[1:]), len(text)], strict=True):
            hand = text[found.start() : end].strip("\n") + "\n\n\n"
            if _reads(hand.encode()):
                hands.append((found.group("id"), hand))
    return "\0", hands


def _header_end(name: str, text: str) -> int:
    """Where a text format's hand's first lines (its ``HEADER`` match: the id's) end."""
    header = next(h for n, h, _ in sites.FORMATS if n == name)
    found = header.match(text)
    return found.end() if found else text.find("\n")


def _reads(data: bytes) -> bool:
    """Whether the reader reads every hand of ``data`` (it refuses none)."""
    return all(fields is not None for *_, fields, _ in sites.site_hands(data))


def write_file(path: Path, prefix: str, name: str, count: int) -> int:
    """``count`` hands of a format's fixtures, copy k's ids prefixed with k's digits; how many."""
    frame, hands = fixture_hands(prefix, name)
    if not hands:
        return 0
    head, tail = frame.split("\0")
    out = []
    for k in range(count):
        hand_id, text = hands[k % len(hands)]
        end = (text.find(">") + 1) if name == "iPoker" else _header_end(name, text)  # the id's lines alone
        out.append(text[:end].replace(hand_id, f"{k // len(hands) + 1}{hand_id}") + text[end:])
    path.write_text(head + "".join(out) + tail, encoding="utf-8")
    return count


def run_format(folder: Path, prefix: str, hands: int) -> None:
    name, parser = FORMATS[prefix]
    path = folder / f"{prefix}.{'xml' if name == 'iPoker' else 'txt'}"
    if not write_file(path, prefix, name, hands):
        print(f"{name}: no fixtures in {FIXTURES}")
        return
    one = folder / f"{prefix}-one{path.suffix}"
    write_file(one, prefix, name, 1)
    scooplab(one, folder / f"{prefix}-warm")  # numba's cache and the readers warm: untimed
    floor, _, _ = scooplab(one, folder / f"{prefix}-floor")
    seconds, peak, report = scooplab(path, folder / f"{prefix}-wh")
    rate = hands / seconds
    verdict = "met" if rate >= TARGET_RATE else "NOT met"
    print(f"{name}: {hands:,} hands ({path.stat().st_size / 1e6:.1f} MB), scooplab ingest {seconds:.2f} s, "
          f"{rate:,.0f} hands/s (target {TARGET_RATE:,}: {verdict}), peak {peak:,.0f} MB; "
          f"{report['hands']:,} stored, {report['rejected']:,} refused; one hand {floor:.2f} s, "
          f"beyond it {hands / max(seconds - floor, 1e-9):,.0f} hands/s")  # fmt: skip
    if parser is None:
        print(f"  PokerKit 0.7.7 has no parser of {name}'s format")
        return
    peer_seconds, peer_peak, out = measured([sys.executable, "-c", POKERKIT, str(path), parser])
    read = int(out.strip().splitlines()[-1])
    peer_rate = read / peer_seconds if read else 0.0
    ratio = f"{rate / peer_rate:,.0f}x" if read else "-"
    print(f"  PokerKit 0.7.7 {parser}: read and replayed {read:,} of {hands:,} hands in {peer_seconds:.1f} s "
          f"({peer_rate:,.0f} hands/s, peak {peer_peak:,.0f} MB); scooplab / PokerKit {ratio}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--formats", default=",".join(FORMATS), help="which, by fixture prefix")
    parser.add_argument("--keep", type=Path, help="write the files and warehouses here (kept)")
    args = parser.parse_args()
    chosen = [f for f in args.formats.split(",") if f]
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for prefix in chosen:
            run_format(folder, prefix, args.hands)


if __name__ == "__main__":
    main()
