"""scooplab's site readers against PokerKit 0.7.7's parsers (``HandHistory.from_pokerstars``,
``from_full_tilt_poker``, ``from_ipoker_network``, ``from_ongame_network``, ``from_partypoker``,
``from_absolute_poker``), hand by hand over the fixtures: every hand both read agrees, PokerKit's
known flaws named and counted, its misses counted (benchmarks/site_differential.py, which also
measures real files)."""

import sys
from collections import Counter
from decimal import Decimal
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import site_differential  # noqa: E402

SITES = Path(__file__).parent / "fixtures" / "sites"


@cache
def fixtures_compared() -> Counter:
    return site_differential.compare([SITES])


def test_every_hand_pokerkit_reads_agrees_and_its_dropped_antes_are_counted():
    counts = fixtures_compared()
    pokerstars = sum(1 for f in SITES.glob("stars-*.txt") for line in f.read_bytes().split(b"\n")
                     if line.startswith(b"PokerStars Hand #"))  # fmt: skip
    assert counts["stored by scooplab"] == pokerstars
    assert counts["read by both"] >= 3  # hold'em cash and tournament (PokerKit reads no razz, no hi/lo)
    assert not [name for name in counts if name.startswith("disagree")], counts
    assert counts["agree (PokerKit's antes dropped, added back)"] == 1  # the tournament hand's antes
    assert counts["agree"] + counts["agree (PokerKit's antes dropped, added back)"] == counts["read by both"]


def test_a_wrong_result_is_a_disagreement():
    ours = {"(rake)": (0, 0), "a": (-5, 0), "b": (5, 10)}
    assert site_differential._verdict(ours, ({"a": -5, "b": 5}, {"a": 100, "b": 100}, False), "") == "agree"
    assert site_differential._verdict(ours, ({"a": -6, "b": 6}, {"a": 100, "b": 100}, False), "").startswith(
        "disagree"
    )


def test_the_rake_compared_is_the_files_not_the_replays():
    """A replay that took 10 more than the file's rake from the winner is a disagreement."""
    text = (SITES / "stars-cash-nlhe.txt").read_text().split("\n\n\n")[0]  # Total pot $8.85 | Rake $0.50
    theirs = ({"a": Decimal("-4.35"), "b": Decimal("4.85")}, {"a": Decimal(100), "b": Decimal(100)}, False)
    right = {"(rake)": (Decimal("0.50"), 0), "a": (Decimal("-4.35"), 0), "b": (Decimal("4.35"), 1)}
    inflated = right | {"(rake)": (Decimal("10.50"), 0), "b": (Decimal("-5.65"), 1)}
    assert site_differential._verdict(right, theirs, text) == "agree"
    assert site_differential._verdict(inflated, theirs, text).startswith("disagree")


def test_every_other_format_pokerkit_parses_agrees_where_both_read_a_hand():
    counts = fixtures_compared()
    for venue in ("Full Tilt", "PartyPoker", "Absolute", "iPoker"):
        both = counts[f"{venue}: read by both"]
        dropped = counts[f"{venue}: agree (PokerKit's antes dropped, added back)"]
        agreeing = counts[f"{venue}: agree"] + dropped
        assert both >= 1 and agreeing == both, (venue, counts)
        assert counts[f"{venue}: stored by scooplab"] > both  # PokerKit misses hands scooplab stores
    for venue in ("Ongame", "iPoker"):  # its splitters find no hand of these files
        assert counts[f"{venue}: stored by scooplab"] >= 5
        assert counts[f"{venue}: read by PokerKit from the whole file"] == 0


def test_pokerkits_named_flaws_are_told_apart_from_a_wrong_result():
    party = "Player5 raises [$0.75 USD]\nPlayer3 calls [$0.50 USD]\n"
    assert "raise writes what it adds" in site_differential._disagreement(party, False, {})
    short = {"blinds_or_straddles": [1, 1, 0], "min_bet": 2}
    assert "big blind is all in short" in site_differential._disagreement("", False, short)
    summary = "Seat 4: Ann (small blind) folded before the Flop\n"
    assert "summary alone" in site_differential._disagreement(summary, False, {})
    written = "\nAnn folds\n" + summary
    assert site_differential._disagreement(written, False, {}) == "disagree: results"
