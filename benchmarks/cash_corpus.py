"""A real-format cash-game corpus for benchmarks: the Pluribus hands rewritten as online cash hands.

Each written hand is one of the 10,000 Pluribus hands (six seats, 100 big blinds each) with what
real online hand histories have (RULINGS.md, "Real-money hand histories"): amounts in money at
0.50/1 or 1/2, the hole cards of players who never showed hidden (``????``), about a third of the
losers at a showdown mucking (``sm ????``), ``winnings`` less a rake (5% of a pot that saw a flop,
at most 3 big blinds, from the largest winner) instead of ``finishing_stacks`` (a few hands keep
``finishing_stacks``, a few have no record), obfuscated player names drawn from a pool per venue
(some players play far more than others), venue, table, seats, currency, date and time, hand
number. The hands replay exactly: the winnings come from scooplab's own replay of the Pluribus
hand. Nothing here is the PHH dataset's.

    python benchmarks/cash_corpus.py OUT_FOLDER --hands 1000000 [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.histories.phh import iter_hands  # noqa: E402
from ingest.histories.replay import replay  # noqa: E402

ARCHIVE = ROOT.parent / "shared" / "data" / "phh" / "pluribus.tar.gz"
HANDS_PER_FILE = 1_000
VENUES = ("Ultimate Bet", "Full Tilt", "iPoker")
PLAYERS_PER_VENUE = 2_500
STAKES = ((50, "USD"), (100, "USD"))  # chips of Pluribus per currency unit: 0.50/1 and 1/2
_AMOUNT = re.compile(r"^(p\d+ (?:cbr|cc|b|br)) (\d+)$")


@dataclass
class BaseHand:
    """A Pluribus hand, replayed once: its actions, who showed, what each seat collected."""

    actions: list[str]
    shown: set[int]  # seats whose cards were shown at the showdown
    won: list[int]  # chips collected by the rules
    contributed: list[int]
    flop: bool  # a board card was dealt
    losers_at_showdown: list[int]

    @property
    def pot(self) -> int:
        return sum(self.contributed)


def base_hands(archive: Path = ARCHIVE) -> list[BaseHand]:
    """The Pluribus hands that replay, each with its result (chips)."""
    bases = []
    for raw in iter_hands([archive]):
        if raw.fields is None:
            continue
        done = replay(raw.fields)
        actions = list(raw.fields["actions"])
        shown = {int(a.split()[0][1:]) - 1 for a in actions if " sm " in a}
        won = list(done.result.won)
        losers = [s for s in shown if won[s] == 0]
        flop = any(a.startswith("d db") for a in actions)
        bases.append(BaseHand(actions, shown, won, list(done.state.contributed), flop, losers))
    return bases


def money(chips: int, per_unit: int) -> str:
    """Chips as a money amount with at most two decimals (``per_unit`` divides 100).

    >>> money(150, 100), money(150, 50), money(10000, 100)
    ('1.5', '3', '100')
    """
    cents = chips * 100 // per_unit
    whole, part = divmod(cents, 100)
    return f"{whole}" if part == 0 else f"{whole}.{part:02d}".rstrip("0")


def _action_text(action: str, hidden: set[int], mucked: set[int], per_unit: int) -> str:
    parts = action.split()
    if parts[0] == "d" and parts[1] == "dh" and int(parts[2][1:]) - 1 in hidden:
        return f"d dh {parts[2]} ????"
    if len(parts) == 3 and parts[1] == "sm" and int(parts[0][1:]) - 1 in mucked:
        return f"{parts[0]} sm ????"
    found = _AMOUNT.match(action)
    return f"{found[1]} {money(int(found[2]), per_unit)}" if found else action


def write_hand(base: BaseHand, rng: random.Random, number: int, names: list[str], venue: str,
               per_unit: int) -> str:  # fmt: skip
    """One hand's PHH text."""
    record = rng.random()  # winnings, finishing_stacks or (a few) no record, where nobody may muck
    mucked = {s for s in base.losers_at_showdown if rng.random() < 0.35} if record < 0.98 else set()
    hidden = set(range(6)) - (base.shown - mucked)
    actions = [_action_text(a, hidden, mucked, per_unit) for a in base.actions]
    rake = min(base.pot * 5 // 100, 3 * 100) if base.flop else 0
    rake -= rake % (100 // per_unit)  # whole cents
    collected = list(base.won)
    collected[max(range(6), key=lambda s: collected[s])] -= rake
    stake = f"blinds_or_straddles = [{money(50, per_unit)}, {money(100, per_unit)}, 0, 0, 0, 0]\n"
    lines = [
        'variant = "NT"',
        "antes = [0, 0, 0, 0, 0, 0]",
        stake.rstrip("\n"),
        f"min_bet = {money(100, per_unit)}",
        f"starting_stacks = [{', '.join([money(10_000, per_unit)] * 6)}]",
        "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]",
    ]
    if record < 0.95:
        lines.append(f"winnings = [{', '.join(money(c, per_unit) for c in collected)}]")
    elif record < 0.98:
        finishing = [10_000 - c + w for c, w in zip(base.contributed, collected, strict=True)]
        lines.append(f"finishing_stacks = [{', '.join(money(f, per_unit) for f in finishing)}]")
    seats = sorted(rng.sample(range(1, 10), 6))
    day = 1 + number % 700
    lines += [
        f'venue = "{venue}"',
        f'table = "{venue.split()[0]} {number % 97}"',
        f"seats = [{', '.join(map(str, seats))}]",
        "seat_count = 9",
        "players = [" + ", ".join(f'"{n}"' for n in names) + "]",
        'currency = "USD"',
        'currency_symbol = "$"',
        'time_zone = "ET"',
        f"day = {1 + day % 28}",
        f"month = {1 + (day // 28) % 12}",
        f"year = {2009 + day // 336}",
        f"time = {number // 3600 % 24:02d}:{number // 60 % 60:02d}:{number % 60:02d}",
        f"hand = {number}",
    ]
    return "\n".join(lines) + "\n"


def write_corpus(out: Path, hands: int, seed: int = 1, archive: Path = ARCHIVE) -> int:
    """Write ``hands`` hands as .phhs files of ``HANDS_PER_FILE`` each; returns the files written."""
    rng = random.Random(seed)
    bases = base_hands(archive)
    pools = {
        v: [f"{v[:2].lower()}{rng.getrandbits(40):010x}" for _ in range(PLAYERS_PER_VENUE)] for v in VENUES
    }
    weights = itertools.accumulate(
        1 / (k + 10) for k in range(PLAYERS_PER_VENUE)
    )  # a few regulars, many others
    cumulative = list(weights)
    out.mkdir(parents=True, exist_ok=True)
    files = 0
    for first in range(0, hands, HANDS_PER_FILE):
        venue = VENUES[files % len(VENUES)]
        per_unit = STAKES[files % len(STAKES)][0]
        texts = []
        for number in range(first, min(hands, first + HANDS_PER_FILE)):
            names: list[str] = []
            while len(names) < 6:
                name = rng.choices(pools[venue], cum_weights=cumulative)[0]
                if name not in names:
                    names.append(name)
            base = bases[rng.randrange(len(bases))]
            texts.append(f"[{number - first + 1}]\n" + write_hand(base, rng, number, names, venue, per_unit))
        path = out / f"cash-{files:05d}.phhs"
        path.with_suffix(".tmp").write_text("\n".join(texts))
        path.with_suffix(".tmp").rename(path)
        files += 1
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    args = parser.parse_args()
    if not args.archive.exists() or not tarfile.is_tarfile(args.archive):
        raise SystemExit(f"{args.archive} not found (it is in ../shared/data/phh/)")
    files = write_corpus(args.out, args.hands, args.seed, args.archive)
    print(f"{args.hands:,} hands in {files} files under {args.out}")


if __name__ == "__main__":
    main()
