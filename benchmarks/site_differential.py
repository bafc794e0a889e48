"""Site files read by scooplab and by PokerKit 0.7.7's parsers (``HandHistory.from_pokerstars``,
``from_full_tilt_poker``, ``from_ipoker_network``, ``from_ongame_network``, ``from_partypoker``,
``from_absolute_poker``), hand by hand: for every hand both read, each player's result must agree,
PokerKit's known flaws named and counted rather than skipped, and its misses counted twice: reading
the whole file as a user would (its splitters miss a file's last hand and single-hand files), and
each hand given to it alone (followed by the blank lines its splitters look for).

    .venv/bin/python benchmarks/site_differential.py [--show] FILE_OR_FOLDER...

(``--show``: each disagreement's hand and both results, on standard error.)

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
- it reads no-limit hold'em alone outside PokerStars: other games are counted as not read.
- **PartyPoker's raises**: ``raises [$0.75]`` writes what the raise adds; PokerKit takes it as the
  total.
- **a big blind all in short**: the rooms' next calls are of the whole blind (``calls [$0.02]`` over
  a big blind of $0.01); PokerKit's calls match the short blind.
- **a fold the summary alone writes** (Full Tilt, after a disconnection): PokerKit misses it.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import tempfile
import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingest.histories.phh import SITE_SUFFIXES
from ingest.histories.pipeline import ingest
from ingest.histories.sites import FORMATS, site_hands
from ingest.histories.sites.text import SiteError, normalized_text
from ingest.storage.warehouse import Warehouse

# a format (``sites.FORMATS``' names, and iPoker): PokerKit's parser of it
PARSERS = {
    "PokerStars": "from_pokerstars", "Full Tilt": "from_full_tilt_poker", "iPoker": "from_ipoker_network",
    "Ongame": "from_ongame_network", "PartyPoker": "from_partypoker", "Absolute": "from_absolute_poker",
}  # fmt: skip
Key = tuple[str, str]  # a hand: its venue, its id as text
SHOW_DISAGREEMENTS = "--show" in sys.argv  # each disagreement's hand and both results, on stderr


def scooplab_results(paths: list[Path]) -> dict[Key, dict[str, tuple[Decimal, Decimal]]]:
    """Each stored hand's (net, collected) in currency, by its venue and id and player; the hand's
    rake under ``(rake)``."""
    with tempfile.TemporaryDirectory() as folder:
        warehouse = Warehouse(Path(folder) / "wh")
        ingest(paths, warehouse)
        hands = {}
        for row in warehouse.read("hands").to_pylist():
            extra = json.loads(row["extra_fields"] or "{}")
            key = (row["venue"], str(extra.get("hand") or extra.get("_hand_id")))
            hands[row["hand_id"]] = (key, row["amount_decimals"], row["rake"])
        results: dict[Key, dict[str, tuple[Decimal, Decimal]]] = {}
        for p in warehouse.read("players").to_pylist():
            number, decimals, rake = hands[p["hand_id"]]
            results.setdefault(number, {"(rake)": (Decimal(rake).scaleb(-decimals), Decimal(0))})
            results[number][p["player"]] = (
                Decimal(p["net"]).scaleb(-decimals),
                Decimal(p["won"]).scaleb(-decimals),
            )
        return results


def pokerkit_read(venue: str, text: str) -> list:
    """The hands PokerKit's parser of a venue's format reads of a text, with its final states
    (its tracebacks and warnings on hands it cannot read silenced); it stops at the first hand that
    breaks it otherwise, as it does."""
    from pokerkit import HandHistory

    read = []
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            for history in getattr(HandHistory, PARSERS[venue])(text, parse_value=Decimal):
                read.append((history, list(history)[-1]))
        except Exception:  # PokerKit raises what it raises on a hand it cannot read
            pass
    return read


def pokerkit_results(text: str, venue: str = "PokerStars", antes: bool | None = None
                     ) -> tuple[dict[str, Decimal], dict[str, Decimal], bool] | None:  # fmt: skip
    """PokerKit's payoffs of one hand by player, their starting stacks, whether it dropped antes
    (``antes``: whether the hand has any, by default its PokerStars text's); None when it cannot read
    the hand."""
    read = pokerkit_read(venue, text + "\n\n\n")  # its splitters look for blank lines after a hand
    if len(read) != 1:
        return None
    history, final = read[0]
    payoffs = dict(zip(history.players, final.payoffs, strict=True))
    stacks = dict(zip(history.players, history.starting_stacks, strict=True))
    has_antes = "posts the ante" in text if antes is None else antes
    return payoffs, stacks, has_antes and not any(history.antes)


def ante_of(text: str, player: str) -> Decimal:
    """What a player posted as antes in a PokerStars hand's text."""
    total = Decimal(0)
    for line in text.split("\n"):
        if line.startswith(f"{player}: posts the ante "):
            total += Decimal(line.rsplit(" ", 1)[1].lstrip("$€£").replace(",", ""))
    return total


def antes_of(fields: dict, player: str) -> Decimal:
    """What a player posted as antes, by the hand's PHH fields (heads-up, PHH's reversed order)."""
    antes = list(fields.get("antes") or [])
    if len(antes) == 2:
        antes.reverse()
    return dict(zip(fields["players"], (Decimal(str(a)) for a in antes), strict=False)).get(
        player, Decimal(0)
    )


def file_rake(text: str, stored: Decimal) -> Decimal:
    """The rake and fees the hand's summary says were taken (the stored rake, the replay's, only where
    the text has no summary): scooplab's results are held against the file, not against themselves."""
    reader = next((read for _, header, read in FORMATS if header.match(text)), None)
    if reader is None:
        return stored
    try:
        hand = reader(text)
    except SiteError:
        return stored
    return hand.rake + hand.fees if hand.total_pot is not None else stored


def compare(paths: list[Path]) -> Counter:
    """Counts: hands, read by both, agreeing, each named deviation, each disagreement; by venue
    (``VENUE: what``) where the files are of more than PokerStars."""
    ours = scooplab_results(paths)
    counts: Counter = Counter()
    for path in paths:
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in (f for f in files if f.is_file() and f.name.endswith(SITE_SUFFIXES)):
            _compare_file(file.read_bytes(), ours, counts)
    return counts


def _compare_file(data: bytes, ours: dict, counts: Counter) -> None:
    """Add one file's hands to ``counts``: PokerKit reading the whole file, then each hand alone."""
    stored: Counter = Counter()
    for _, _, text, fields, _ in site_hands(data):
        counts["hands"] += 1
        key = (fields["venue"], str(fields.get("hand") or fields.get("_hand_id"))) if fields else None
        venue = format_of(text)  # (Full Tilt's hands since 2016 are in PokerStars' format)
        if key not in ours or venue not in PARSERS:
            continue
        name = "" if venue == "PokerStars" else f"{venue}: "
        stored[venue] += 1
        counts[f"{name}stored by scooplab"] += 1
        theirs = pokerkit_results(
            text, venue, None if venue == "PokerStars" else any(fields.get("antes") or ())
        )
        if theirs is None:
            counts[f"{name}not read by PokerKit (the hand alone)"] += 1
            continue
        counts[f"{name}read by both"] += 1
        verdict = _verdict(ours[key], theirs, text, fields)
        counts[name + verdict] += 1
        if verdict.startswith("disagree") and SHOW_DISAGREEMENTS:
            print(
                f"{verdict}: {key[0]} #{key[1]}: scooplab {ours[key]}, PokerKit {theirs[0]}", file=sys.stderr
            )
    for venue in stored:  # the whole file, as a user gives it to PokerKit
        name = "" if venue == "PokerStars" else f"{venue}: "
        counts[f"{name}read by PokerKit from the whole file"] += len(
            pokerkit_read(venue, normalized_text(data))
        )


def format_of(text: str) -> str:
    """The name of a hand's format, from its text."""
    named = next((name for name, header, _ in FORMATS if header.match(text)), None)
    return named or ("iPoker" if text.lstrip().startswith("<game") else "")


def _verdict(ours: dict[str, tuple[Decimal, Decimal]], theirs, text: str, fields: dict | None = None) -> str:
    payoffs, stacks, dropped = theirs
    if dropped:
        antes = {p: antes_of(fields, p) if fields else ante_of(text, p) for p in payoffs}
    else:
        antes = {}
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
        return _disagreement(text, dropped, fields or {})
    return "agree (PokerKit's antes dropped, added back)" if dropped else "agree"


def _disagreement(text: str, dropped: bool, fields: dict) -> str:
    """A disagreement, named where it is one of PokerKit's known flaws."""
    if re.search(r"^\S.* raises \[", text, re.M):  # PartyPoker's ``raises [$0.75]``: what it adds
        return "disagree, where a raise writes what it adds (`raises [X]`): PokerKit takes X as the total"
    if dropped:
        return "disagree, where PokerKit dropped antes: its side pots differ"
    if text.count(": posts small blind ") > 1:
        return "disagree, where a second small blind is dead: PokerKit takes it live"
    if re.search(r": raises (\S+) to \1\b", text):  # "raises $6 to $6": a tracker's export
        return "disagree, where the file raises to its own raise (an export): PokerKit counts both"
    blinds = [b for b in fields.get("blinds_or_straddles") or [] if b > 0]
    if blinds and fields.get("min_bet") and max(blinds) < fields["min_bet"]:
        return "disagree, where the big blind is all in short: the room calls the whole blind, PokerKit not"
    summary_folds = re.findall(r"^Seat \d+: (.+?) (?:\([^)]*\) )?folded before", text, re.M)
    if any(f"\n{name} folds" not in text and f"\n{name}: folds" not in text for name in summary_folds):
        return "disagree, where a fold is written in the summary alone: PokerKit misses it"
    return "disagree: results"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    counts = compare([Path(a) for a in argv if a != "--show"])
    for name, count in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{count:>8,}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
