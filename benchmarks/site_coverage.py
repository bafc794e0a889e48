"""How much of real site files scooplab stores: per room, game and kind of play (cash or
tournament), the hands read, stored, stored flagged (a note that the file disagrees with itself) and
refused with each reason. Whole process, as a user runs it (one ``scooplab ingest``). Every format
``scooplab ingest`` reads (PokerStars, GGPoker, Winamax, iPoker, PartyPoker, 888, Full Tilt, Ongame,
Absolute); a refused hand's game is the one its refusal names where it has no description.

    .venv/bin/python benchmarks/site_coverage.py FILE_OR_FOLDER...
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.histories.sites.games import game_of, last_game_name  # noqa: E402

SCOOPLAB = Path(sys.executable).with_name("scooplab")


def _kind(text: str) -> str:
    """Cash or tournament, from a hand's first lines as any format writes them."""
    head = text[:600]
    words = ("Tournament", "TOURNAMENT", "Trny:", "Tourney", "tournament", "<tournamentcode>")
    return "tournament" if any(word in head for word in words) else "cash"


def _room(text: str) -> str:
    """The format whose first lines open the hand (the PokerStars family by the room it names)."""
    from ingest.histories.sites import FORMATS
    from ingest.histories.sites.pokerstars import VENUES

    header = text.split("\n", 1)[0]
    if header.startswith("Poker Hand #"):
        return "GGPoker"
    if header.startswith(tuple(VENUES)):
        written = header.split(" Hand #")[0].split(" Game #")[0]
        return next((venue for name, venue in VENUES.items() if written.startswith(name)), written)
    found = next((name for name, pattern, _ in FORMATS if pattern.match(text.lstrip())), None)
    return found or ("iPoker" if text.lstrip().startswith("<game") else "?")


def _site_key(raw: str, error: str) -> tuple[str, str, str]:
    """Room, game and kind of a hand refused while reading (its text: the site's): the game is the
    one the refusal names, else the PokerStars family's header's, else ``?``."""
    named = re.search(r' game "(.+?)" has no scooplab description', error) or re.search(
        r" game '(.+?)' has no scooplab description", error
    )
    name = named.group(1) if named else last_game_name(raw.split("\n", 1)[0]) or "?"
    game = None if named else game_of(name)
    return _room(raw), game[0] if game else f'"{name}"', _kind(raw)


def _phh_key(raw: str) -> tuple[str, str, str]:
    """Room, game and kind of a hand the replay refused (its text: the PHH it was read as)."""
    values = dict(
        line.split(" = ", 1) for line in raw.split("\n") if " = " in line and not line.startswith(" ")
    )
    text = {k: v.strip('"') for k, v in values.items()}
    return text.get("venue", "?"), text.get("variant", "?"), "tournament" if "_tournament" in text else "cash"


def coverage(paths: list[str]) -> tuple[dict, Counter]:
    """Counts per (room, game (its PHH code, or the site's name of a game scooplab has no description
    for), kind): read, stored, flagged, refused; and the refusals' reasons."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "wh"
        done = subprocess.run(
            [str(SCOOPLAB), "ingest", *paths, "--data", str(data)], capture_output=True, text=True
        )
        if done.returncode not in (0, 1):  # 1: some hands were rejected
            raise SystemExit(f"scooplab ingest failed ({done.returncode}): {done.stderr[-2000:]}")
        con = duckdb.connect()
        hands = con.sql(
            f"SELECT phh, notes, extra_fields FROM read_parquet('{data}/hands/**/*.parquet', "
            "union_by_name=true)"
        ).fetchall()
        rejects = con.sql(
            f"SELECT raw, error FROM read_parquet('{data}/rejects/**/*.parquet', union_by_name=true)"
        ).fetchall() if list(data.glob("rejects/**/*.parquet")) else []  # fmt: skip
    table: dict = defaultdict(Counter)
    reasons: Counter = Counter()
    for phh, notes, extra in hands:
        fields = json.loads(extra or "{}")
        code = phh.split("\n", 1)[0].split('"')[1]  # variant = "NT"
        key = (fields.get("venue", "?"), code, "tournament" if fields.get("_tournament") else "cash")
        table[key]["stored"] += 1
        table[key]["flagged"] += any(
            note.startswith("the file") for note in notes or ()
        )  # disagrees with itself
    for raw, error in rejects:
        key = _phh_key(raw) if (raw or "").startswith("variant = ") else _site_key(raw or "", error or "")
        table[key]["refused"] += 1
        reasons[error.rsplit(": ", 1)[-1][:90]] += 1
    return table, reasons


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    table, reasons = coverage(argv)
    print(
        f"{'room':<14}{'game':<34}{'kind':<12}{'read':>7}{'stored':>8}{'flagged':>8}{'refused':>8}"
        f"{'stored %':>10}"
    )
    for (room, game, kind), c in sorted(table.items()):
        read = c["stored"] + c["refused"]
        print(f"{room:<14}{game:<34}{kind:<12}{read:>7,}{c['stored']:>8,}{c['flagged']:>8,}{c['refused']:>8,}"
              f"{100 * c['stored'] / read:>9.1f}%")  # fmt: skip
    print("\nrefused, by reason:")
    for reason, count in reasons.most_common():
        print(f"{count:>7,}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
