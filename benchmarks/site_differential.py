"""PokerStars files read by scooplab and by PokerKit 0.7.7 (``HandHistory.from_pokerstars``), hand by
hand: for every hand both read, each player's result must agree, PokerKit's known flaws named and
counted rather than skipped.

    .venv/bin/python benchmarks/site_differential.py FILE_OR_FOLDER...

PokerKit's known deviations (RULINGS: name them, never skip silently):
- **rake**: its parser takes no rake, so a winner's payoff is before rake. Compared: players who
  collected nothing lose exactly the same; together, scooplab's nets are PokerKit's less the rake
  (who paid the rake is the file's: a split pot's rake comes out of what each collected).
- **antes dropped**: it drops the antes of tournament hands. Compared: the same, each player's ante
  added back to PokerKit's loss.
  Where an all-in player's ante makes side pots, PokerKit's side pots (built without antes) differ
  from the file's: such hands are counted apart, named.
- **a second small blind** (posted to come in): PokerStars takes it dead, PokerKit live.
- **a raise to its own size** (``raises $6 to $6``, written by trackers' exports): PokerKit adds
  both; scooplab reads the bet as the file's total pot shows it, and notes the file's disagreement.
- it reads a file until its first hand of a game it does not know, then stops: each hand is given
  to it alone here.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingest.histories.pipeline import ingest
from ingest.histories.sites import site_hands
from ingest.histories.sites.pokerstars import HEADER, read_hand
from ingest.histories.sites.text import SiteError
from ingest.storage.warehouse import Warehouse


def scooplab_results(paths: list[Path]) -> dict[int, dict[str, tuple[Decimal, Decimal]]]:
    """Each stored hand's (net, collected) in currency, by its PokerStars number and player; the
    hand's rake under ``(rake)``."""
    with tempfile.TemporaryDirectory() as folder:
        warehouse = Warehouse(Path(folder) / "wh")
        ingest(paths, warehouse)
        hands = {}
        for row in warehouse.read("hands").to_pylist():
            extra = json.loads(row["extra_fields"] or "{}")
            hands[row["hand_id"]] = (extra.get("hand"), row["amount_decimals"], row["rake"])
        results: dict[int, dict[str, Decimal]] = {}
        for p in warehouse.read("players").to_pylist():
            number, decimals, rake = hands[p["hand_id"]]
            results.setdefault(number, {"(rake)": (Decimal(rake).scaleb(-decimals), Decimal(0))})
            results[number][p["player"]] = (
                Decimal(p["net"]).scaleb(-decimals),
                Decimal(p["won"]).scaleb(-decimals),
            )
        return results


def pokerkit_results(text: str) -> tuple[dict[str, Decimal], dict[str, Decimal], bool] | None:
    """PokerKit's payoffs of one hand by player, their starting stacks, whether it dropped antes;
    None when it cannot read the hand."""
    from pokerkit import HandHistory

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            (history,) = list(HandHistory.from_pokerstars(text, parse_value=Decimal))
            final = list(history)[-1]
        except Exception:  # PokerKit raises what it raises on a hand it cannot read
            return None
    payoffs = dict(zip(history.players, final.payoffs, strict=True))
    stacks = dict(zip(history.players, history.starting_stacks, strict=True))
    dropped = "posts the ante" in text and not any(history.antes)
    return payoffs, stacks, dropped


def ante_of(text: str, player: str) -> Decimal:
    """What a player posted as antes in a PokerStars hand's text."""
    total = Decimal(0)
    for line in text.split("\n"):
        if line.startswith(f"{player}: posts the ante "):
            total += Decimal(line.rsplit(" ", 1)[1].lstrip("$€£").replace(",", ""))
    return total


def file_rake(text: str, stored: Decimal) -> Decimal:
    """The rake and fees the hand's summary says were taken (the stored rake, the replay's, only where
    the text has no summary): scooplab's results are held against the file, not against themselves."""
    if HEADER.match(text) is None:
        return stored
    try:
        hand = read_hand(text)
    except SiteError:
        return stored
    return hand.rake + hand.fees if hand.total_pot is not None else stored


def compare(paths: list[Path]) -> Counter:
    """Counts: hands, read by both, agreeing, each named deviation, each disagreement."""
    ours = scooplab_results(paths)
    counts: Counter = Counter()
    for path in paths:
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in (f for f in files if f.is_file()):
            for _, _, text, fields, _ in site_hands(file.read_bytes()):
                counts["hands"] += 1
                if fields is None or fields.get("venue") != "PokerStars" or fields.get("hand") not in ours:
                    continue
                counts["stored by scooplab"] += 1
                theirs = pokerkit_results(text)
                if theirs is None:
                    counts["not read by PokerKit"] += 1
                    continue
                counts["read by both"] += 1
                counts[_verdict(ours[fields["hand"]], theirs, text)] += 1
    return counts


def _verdict(ours: dict[str, tuple[Decimal, Decimal]], theirs, text: str) -> str:
    payoffs, stacks, dropped = theirs
    antes = {p: ante_of(text, p) for p in payoffs} if dropped else {}
    adjusted = {p: max(v - antes.get(p, 0), -stacks[p]) for p, v in payoffs.items()}  # his ante too
    antes = {p: payoffs[p] - adjusted[p] for p in payoffs}  # (an all-in player's went in his bets)
    payoffs = adjusted
    ours = dict(ours)
    rake = file_rake(text, ours.pop("(rake)")[0])
    if set(ours) != set(payoffs):
        return "disagree: other players"
    losers_equal = all(net == payoffs[p] for p, (net, won) in ours.items() if not won)
    pot_antes = sum(antes.values(), Decimal(0))  # which the winners collect besides
    total_equal = sum(payoffs.values()) + pot_antes - sum(net for net, _ in ours.values()) == rake
    if not (losers_equal and total_equal):
        return _disagreement(text, dropped)
    return "agree (PokerKit's antes dropped, added back)" if dropped else "agree"


def _disagreement(text: str, dropped: bool) -> str:
    """A disagreement, named where it is one of PokerKit's known flaws."""
    if dropped:
        return "disagree, where PokerKit dropped antes: its side pots differ"
    if text.count(": posts small blind ") > 1:
        return "disagree, where a second small blind is dead: PokerKit takes it live"
    if re.search(r": raises (\S+) to \1\b", text):  # "raises $6 to $6": a tracker's export
        return "disagree, where the file raises to its own raise (an export): PokerKit counts both"
    return "disagree: results"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    counts = compare([Path(a) for a in argv])
    for name, count in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{count:>8,}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
