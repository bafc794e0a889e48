"""What each player put in a site hand, as the file says: blinds posted out of turn (a second small
blind dead or live), a big blind posted short, a table line of Run It Once's; a hand whose replay
would put in other than the file says is flagged, and an amount no float carries exactly, or a
number no reader takes, is one refusal, never a changed amount or a traceback. The hands are made
up here (PokerStars' format, invented names)."""

from decimal import Decimal
from pathlib import Path

import pytest

from ingest.histories.phh import iter_hands
from ingest.histories.sites import site_hands
from tests.test_site_histories import money, stored


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n\n\n", encoding="utf-8")
    return path


def nets(tmp_path: Path, path: Path) -> tuple[dict[str, Decimal], list[str], list[str]]:
    """The stored hand's net by player, its notes, and the run's rejects."""
    _, rejected, hands, players = stored(tmp_path, path)
    if not hands:
        return {}, [], rejected
    ((key, hand),) = hands.items()
    by_player = {name: money(row, hand) for (hand_key, name), row in players.items() if hand_key == key}
    return by_player, list(hand["notes"] or []), rejected


RUN_IT_ONCE = [
    "Run It Once Poker Hand #260000000001:  Hold'em No Limit (€0.05/€0.10) - 2019/06/26 19:34 UTC",
    "Table ID '31000001' 6-Max Seat #2 is the button",
    "Seat 1: alder_k (€10 in chips)",
    "Seat 2: birch_l (€10 in chips)",
    "Seat 3: cedar_m (€10 in chips)",
    "cedar_m: posts small blind €0.05",
    "alder_k: posts big blind €0.10",
    "*** HOLE CARDS ***",
    "birch_l: folds",
    "cedar_m: calls €0.05",
    "alder_k: checks",
    "*** FLOP *** [2c 7d Kh]",
    "cedar_m: bets €0.20",
    "alder_k: folds",
    "Uncalled bet (€0.20) returned to cedar_m",
    "cedar_m collected €0.19 from pot",
    "*** SUMMARY ***",
    "Total pot €0.20 | Rake €0.01",
]


def test_run_it_onces_table_line_gives_the_button_and_the_seats(tmp_path):
    path = write(tmp_path, "rio.txt", RUN_IT_ONCE)
    (raw,) = iter_hands([path])
    assert raw.fields["players"] == ["cedar_m", "alder_k", "birch_l"]  # left of the button first
    assert (raw.fields["seat_count"], raw.fields["table"]) == (6, "31000001")
    by_player, notes, rejected = nets(tmp_path, path)
    assert rejected == [] and notes == []
    assert by_player == {"cedar_m": Decimal("0.09"), "alder_k": Decimal("-0.10"), "birch_l": Decimal(0)}


def second_small_blind(call: str) -> list[str]:
    """gum_d posts a small blind to come in, then calls ``call`` (the whole big blind: his post was
    dead, as PokerStars posts it; the rest of it: the post was live, as some converted files say)."""
    return [
        "PokerStars Hand #260000000002:  Hold'em No Limit ($0.01/$0.02 USD) - 2025/05/07 0:17:07 ET",
        "Table 'Polaris' 6-max Seat #1 is the button",
        "Seat 1: dune_a ($2 in chips)",
        "Seat 2: elm_b ($2 in chips)",
        "Seat 3: fir_c ($2 in chips)",
        "Seat 4: gum_d ($2 in chips)",
        "elm_b: posts small blind $0.01",
        "fir_c: posts big blind $0.02",
        "gum_d: posts small blind $0.01",
        "*** HOLE CARDS ***",
        f"gum_d: calls {call}",
        "dune_a: folds",
        "elm_b: calls $0.01",
        "fir_c: checks",
        "*** FLOP *** [Td 3s Th]",
        "elm_b: checks",
        "fir_c: checks",
        "gum_d: bets $0.04",
        "elm_b: folds",
        "fir_c: folds",
        "Uncalled bet ($0.04) returned to gum_d",
        f"gum_d collected {'$0.07' if call == '$0.02' else '$0.06'} from pot",
        "*** SUMMARY ***",
        f"Total pot {'$0.07' if call == '$0.02' else '$0.06'} | Rake $0",
    ]


@pytest.mark.parametrize(("call", "gum_net"), [("$0.02", "0.04"), ("$0.01", "0.04")])
def test_a_second_small_blind_is_dead_or_live_as_the_files_calls_count_it(tmp_path, call, gum_net):
    by_player, notes, rejected = nets(tmp_path, write(tmp_path, "in.txt", second_small_blind(call)))
    assert rejected == [] and notes == []
    expected = {"gum_d": gum_net, "elm_b": "-0.02", "fir_c": "-0.02", "dune_a": "0"}
    assert by_player == {name: Decimal(net) for name, net in expected.items()}


SHORT_BIG_BLIND = [
    "PokerStars Hand #260000000005: Tournament #3900000010, $1.00+$0.10 USD Hold'em No Limit - "
    "Level V (300/600) - 2025/06/04 20:01:02 ET",
    "Table '3900000010 11' 6-max Seat #4 is the button",
    "Seat 1: larch_a (480 in chips)",
    "Seat 2: maple_b (3720 in chips)",
    "Seat 3: neem_c (600 in chips)",
    "Seat 4: oak_d (13575 in chips)",
    "Seat 5: pine_e (1720 in chips)",
    *(f"{name}: posts the ante 120" for name in ("larch_a", "maple_b", "neem_c", "oak_d", "pine_e")),
    "pine_e: posts small blind 300",
    "larch_a: posts big blind 360 and is all-in",
    "*** HOLE CARDS ***",
    "maple_b: folds",
    "neem_c: calls 480 and is all-in",
    "oak_d: folds",
    "pine_e: calls 180",
    "*** FLOP *** [8h 5c 3d]",
    "*** TURN *** [8h 5c 3d] [7d]",
    "*** RIVER *** [8h 5c 3d 7d] [2s]",
    "*** SHOW DOWN ***",
    "pine_e: shows [9s Ac] (high card Ace)",
    "neem_c: shows [5h Qs] (a pair of Fives)",
    "neem_c collected 240 from side pot",
    "larch_a: shows [6c Ks] (high card King)",
    "neem_c collected 1680 from main pot",
    "*** SUMMARY ***",
    "Total pot 1920 Main pot 1680. Side pot 240. | Rake 0",
]


def test_a_call_of_the_whole_big_blind_posted_short_puts_in_what_the_file_says(tmp_path):
    path = write(tmp_path, "short.txt", SHORT_BIG_BLIND)
    (raw,) = iter_hands([path])
    assert "p4 cbr 480" in raw.fields["actions"]  # more than the 360 posted: a bet in PHH, not a call
    by_player, notes, rejected = nets(tmp_path, path)
    assert rejected == [] and notes == []
    expected = {"neem_c": 1320, "pine_e": -600, "larch_a": -480, "maple_b": -120, "oak_d": -120}
    assert by_player == {name: Decimal(net) for name, net in expected.items()}


def test_a_big_blind_all_in_on_his_ante_is_never_stored_with_cheaper_calls(tmp_path):
    """Nobody posts the big blind (its player is all in on his ante); the others call the whole of it.
    Read as PHH calls of the small blind they would put in less than the file says: the calls are
    bets to PHH (the replay refuses them today: its calls match the highest bet posted)."""
    lines = [
        "PokerStars Hand #260000000004: Tournament #3900000009, $1.00+$0.10 USD Hold'em No Limit - "
        "Level VIII (60/120) - 2025/08/03 12:18:45 ET",
        "Table '3900000009 8' 9-max Seat #4 is the button",
        "Seat 1: hazel_a (4960 in chips)",
        "Seat 2: ivy_b (11 in chips)",
        "Seat 3: juniper_c (10660 in chips)",
        "Seat 4: kapok_d (7664 in chips)",
        "hazel_a: posts the ante 15",
        "ivy_b: posts the ante 11 and is all-in",
        "juniper_c: posts the ante 15",
        "kapok_d: posts the ante 15",
        "hazel_a: posts small blind 60",
        "*** HOLE CARDS ***",
        "juniper_c: calls 120",
        "kapok_d: folds",
        "hazel_a: calls 60",
        "*** FLOP *** [9s 5s Qd]",
        "hazel_a: checks",
        "juniper_c: bets 404",
        "hazel_a: folds",
        "Uncalled bet (404) returned to juniper_c",
        "*** TURN *** [9s 5s Qd] [Jd]",
        "*** RIVER *** [9s 5s Qd Jd] [3c]",
        "*** SHOW DOWN ***",
        "juniper_c: shows [Qh Ks] (a pair of Queens)",
        "juniper_c collected 252 from side pot",
        "ivy_b: shows [9c Ts] (a pair of Nines)",
        "juniper_c collected 44 from main pot",
        "*** SUMMARY ***",
        "Total pot 296 Main pot 44. Side pot 252. | Rake 0",
    ]
    path = write(tmp_path, "ante.txt", lines)
    (raw,) = iter_hands([path])
    assert "p3 cbr 120" in raw.fields["actions"]
    by_player, _, rejected = nets(tmp_path, path)
    file_nets = {"juniper_c": 161, "hazel_a": -135, "kapok_d": -15, "ivy_b": -11}
    assert by_player == {name: Decimal(net) for name, net in file_nets.items()} or (
        by_player == {} and len(rejected) == 1
    ), (by_player, rejected)


def test_a_file_returning_more_than_the_rules_is_stored_flagged(tmp_path):
    """A converted walk: the big blind's whole bet "returned", the small blind "collected"."""
    lines = [
        "PokerStars Hand #260000000006: Hold'em No Limit ($10/$20) - 2017/01/01 15:02:07",
        "Table 'Orion' 6-max Seat #1 is the button",
        "Seat 1: quince_a ($2000 in chips)",
        "Seat 2: rowan_b ($2000 in chips)",
        "Seat 3: sumac_c ($2000 in chips)",
        "rowan_b: posts small blind $10",
        "sumac_c: posts big blind $20",
        "*** HOLE CARDS ***",
        "quince_a: folds",
        "rowan_b: folds",
        "Uncalled bet ($20) returned to sumac_c",
        "sumac_c collected $10 from pot",
        "*** SUMMARY ***",
        "Total pot $10 | Rake $0",
    ]
    _, notes, rejected = nets(tmp_path, write(tmp_path, "walk.txt", lines))
    assert rejected == []
    assert "the file has sumac_c put 0 in the pot, the replay 10" in notes, notes


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("$2 in chips)", "$81758556975224.54 in chips)", "scooplab reads exactly"),
        ("$2 in chips)", "$1." + "9" * 40 + " in chips)", "scooplab reads exactly"),
        ("$2 in chips)", "$" + "9" * 5000 + " in chips)", "more than scooplab counts"),
        ("Seat 1:", "Seat " + "9" * 5000 + ":", "a value scooplab cannot read (ValueError)"),
    ],
)
def test_an_amount_or_number_beyond_exact_reading_is_one_refusal(old, new, said):
    text = "\n".join(second_small_blind("$0.02")).replace(old, new, 1)
    ((_, _, _, fields, error),) = list(site_hands(text.encode()))
    assert fields is None and said in error and "\n" not in error
