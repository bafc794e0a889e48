"""Bets card rooms make over a short all-in, read as their records write them (issue 54: Ongame,
Absolute, iPoker and PokerStars files): the bet to the whole big blind over a big blind all in short,
a fixed-limit raise to two whole bets over it, and a fixed-limit raise one whole bet above an all-in
bet of half a bet or more. The rules' own sizes (``raise_bounds``) stay allowed; other sizes stay
refused. And stud's big bet on fourth street where the up cards the record never wrote may pair
(PartyPoker writes no up cards; its "double bets" is the big bet of an open pair). Every hand is
written here by hand (made-up players), replayed the same by the state machine and the compiled
replay, and stored the same by the block and line readers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.histories.phh import parse_hand_text
from ingest.histories.replay import HandError, replay
from tests.test_bulk_read import both_ways
from tests.test_fast_replay import assert_both_ways_agree

NO_LIMIT = """variant = "NT"
blinds_or_straddles = [125, 250, 0]
min_bet = 250
players = ["Ada", "Bea", "Cy"]
"""
FIXED = """variant = "FT"
blinds_or_straddles = [100, 200, 0]
small_bet = 200
big_bet = 400
players = ["Ada", "Bea", "Cy"]
"""

ALLOWED = {
    # Bea's big blind takes her last 150; Cy bets the whole big blind (the site's call of it), Ada calls
    "no-limit: to the whole big blind over a short one": NO_LIMIT
    + """hand = 1
starting_stacks = [5000, 150, 5000]
actions = ["d dh p1 9h4c", "d dh p2 Kc5h", "d dh p3 AsAd", "p3 cbr 250", "p1 cc", "d db 7c8d3s", "p1 cc",
           "p3 cc", "d db Td", "p1 cc", "p3 cc", "d db 2s", "p1 cc", "p3 cc", "p1 sm 9h4c", "p2 sm Kc5h",
           "p3 sm AsAd"]
winnings = [0, 0, 650]
""",
    # the same, then Ada raises by the whole big blind over it: to 500
    "no-limit: a raise over that bet": NO_LIMIT
    + """hand = 2
starting_stacks = [5000, 150, 5000]
actions = ["d dh p1 AsAd", "d dh p2 Kc5h", "d dh p3 9h4c", "p3 cbr 250", "p1 cbr 500", "p3 f",
           "d db 7c8d3s", "d db Td", "d db 2s", "p1 sm AsAd", "p2 sm Kc5h"]
winnings = [650, 0, 0]
""",
    # fixed-limit 200/400, Bea all in for 191 on her big blind: Cy raises to two whole bets
    "fixed-limit: a raise to two whole bets over a short big blind": FIXED
    + """hand = 3
starting_stacks = [5000, 191, 5000]
actions = ["d dh p1 AsAd", "d dh p2 Kc5h", "d dh p3 9h4c", "p3 cbr 400", "p1 cc", "d db 7c8d3s", "p1 cc",
           "p3 cc", "d db Td", "p1 cc", "p3 cc", "d db 2s", "p1 cc", "p3 cc", "p1 sm AsAd", "p2 sm Kc5h",
           "p3 sm 9h4c"]
winnings = [991, 0, 0]
""",
    # the flop: Ada bets all in for 130 (more than half of 200); Bea completes it to the whole bet,
    # Cy raises a whole bet above that
    "fixed-limit: the whole bet over an all-in bet of half a bet or more": FIXED
    + """hand = 4
starting_stacks = [330, 5000, 5000]
actions = ["d dh p1 9h4c", "d dh p2 AsAd", "d dh p3 Kc5h", "p3 cc", "p1 cc", "p2 cc", "d db 7c8d3s",
           "p1 cbr 130", "p2 cbr 200", "p3 cbr 400", "p2 cc", "d db Td", "p2 cc", "p3 cc", "d db 2s",
           "p2 cc", "p3 cc", "p1 sm 9h4c", "p2 sm AsAd", "p3 sm Kc5h"]
winnings = [0, 1530, 0]
""",
    # the same flop, Bea raising at once to 400: a whole bet above the 200 Ada's 130 counts as
    "fixed-limit: a whole bet above an all-in bet of half a bet or more": FIXED
    + """hand = 5
starting_stacks = [330, 5000, 5000]
actions = ["d dh p1 9h4c", "d dh p2 AsAd", "d dh p3 Kc5h", "p3 cc", "p1 cc", "p2 cc", "d db 7c8d3s",
           "p1 cbr 130", "p2 cbr 400", "p3 cc", "d db Td", "p2 cc", "p3 cc", "d db 2s", "p2 cc", "p3 cc",
           "p1 sm 9h4c", "p2 sm AsAd", "p3 sm Kc5h"]
winnings = [0, 1530, 0]
""",
}
REFUSED = {
    # a bet between the whole big blind and a raise: neither the rules' size nor a room's
    "p3 cbr 300: below the minimum raise to 400": NO_LIMIT
    + """hand = 11
starting_stacks = [5000, 150, 5000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 300"]
""",
    # the flop: 200, raised to 400, Cy calls, then Ada all in to 450 (50 more: not half a bet, no raise):
    # Bea may not raise again, least of all a whole bet over the 600 the 450 rounds up to
    "p2 cbr 800: the betting was not reopened (a short all-in of less than half a bet)": FIXED
    + """hand = 13
starting_stacks = [650, 5000, 5000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 7c8d3s",
           "p1 cbr 200", "p2 cbr 400", "p3 cc", "p1 cbr 450", "p2 cbr 800"]
""",
    # the flop: Ada bets 200, Bea all in to 250 (not half a bet more): Cy, still to act, may raise a bet
    # over it (450) or complete the raise to 400, not raise a whole bet over that
    "p3 cbr 600: above the maximum raise to 450": FIXED
    + """hand = 14
starting_stacks = [5000, 450, 5000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 7c8d3s",
           "p1 cbr 200", "p2 cbr 250", "p3 cbr 600"]
""",
    # a fixed-limit raise of three whole bets over a short big blind
    "p3 cbr 600: above the maximum raise to 391": FIXED
    + """hand = 12
starting_stacks = [5000, 191, 5000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 600"]
""",
}


def _file(tmp_path: Path, hands: dict[str, str]) -> Path:
    path = tmp_path / "short.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i, text in enumerate(hands.values(), start=1)))
    return path


def test_the_compiled_replay_and_the_state_machine_agree_and_take_every_allowed_hand():
    raws = [parse_hand_text(text, "short.phhs", i) for i, text in enumerate(ALLOWED.values())]
    taken, back = assert_both_ways_agree(raws)
    assert (taken, back) == (len(ALLOWED), 0)  # the compiled replay takes each
    for raw in raws:
        replay(raw.fields)


def test_what_each_player_put_in_is_the_rooms(tmp_path, monkeypatch):
    tables, report = both_ways([_file(tmp_path, ALLOWED)], tmp_path, monkeypatch)
    assert (report["hands"], report["rejected"]) == (len(ALLOWED), 0)
    by_id = {h["hand_id"]: h["hand_no"] for h in tables["hands"]}
    put = {(by_id[p["hand_id"]], p["seat"]): p["starting_stack"] - p["finishing_stack"] + p["won"]
           for p in tables["players"]}  # fmt: skip
    assert [put[1, s] for s in (0, 1, 2)] == [250, 150, 250]  # Ada calls the whole big blind
    assert [put[2, s] for s in (0, 1, 2)] == [250, 150, 250]  # the 250 of Ada's raise nobody called: back
    assert [put[3, s] for s in (0, 1, 2)] == [400, 191, 400]
    assert [put[4, s] for s in (0, 1, 2)] == [330, 600, 600]  # Ada's 130 all in on the flop
    assert [put[5, s] for s in (0, 1, 2)] == [330, 600, 600]


@pytest.mark.parametrize(("reason", "text"), REFUSED.items(), ids=list(REFUSED))
def test_other_sizes_stay_refused(reason, text):
    with pytest.raises(HandError, match=re.escape(reason) + "$"):
        replay(parse_hand_text(text, "refused.phhs", 0).fields)


STUD = """variant = "F7S"
antes = [10, 10, 10]
bring_in = 20
small_bet = 60
big_bet = 120
starting_stacks = [2000, 2000, 2000]
players = ["Ada", "Bea", "Cy"]
actions = ["d dh p1 {third[0]}", "d dh p2 {third[1]}", "d dh p3 9dQh3h", "p1 pb", "p2 cc", "p3 f",
           "d dh p1 {fourth[0]}", "d dh p2 {fourth[1]}", "p1 cbr 120", "p2 f"]
_options = {{ open_pair_big_bet = {option} }}
"""


@pytest.mark.parametrize("option", ["true", "false"])
def test_a_big_bet_on_fourth_street_over_unwritten_up_cards_is_the_open_pairs(option):
    unwritten = STUD.format(third=("??????", "??????"), fourth=("??", "??"), option=option)
    fields = parse_hand_text(unwritten, "stud.phhs", 0).fields
    if option == "true":
        replay(fields)  # the up cards may pair: the record decides
    else:
        with pytest.raises(HandError, match=re.escape("p1 cbr 120: above the maximum bet to 60") + "$"):
            replay(fields)
    unpaired = STUD.format(third=("4c5c2c", "7d8d9h"), fourth=("Kc", "3d"), option=option)
    with pytest.raises(HandError, match="above the maximum bet to 60"):  # written and unpaired: the rules'
        replay(parse_hand_text(unpaired, "stud.phhs", 0).fields)
    paired = STUD.format(third=("4c5c2c", "7d8d9h"), fourth=("2d", "3d"), option=option)
    if option == "true":
        replay(parse_hand_text(paired, "stud.phhs", 0).fields)  # an open pair of deuces: the big bet
