"""PartyPoker hand histories (the 2005-2017 text, the 2008+ client's with its summary, files other rooms'
hands were converted to): read as written, replayed, stored. Fixtures: tests/fixtures/sites/partypoker-*.txt
(written for these tests; players, tables, ids and cards made up)."""

import datetime as dt
from decimal import Decimal

import pytest

from ingest.histories.replay import replay
from ingest.histories.sites import pacific, partypoker, site_format, site_hands
from tests.site_helpers import SITES, fields_of, nets, stored

CASH = SITES / "partypoker-cash.txt"
LIMIT = SITES / "partypoker-limit-shortdeck.txt"
STUD = SITES / "partypoker-stud.txt"
TOURNAMENT = SITES / "partypoker-tournament.txt"
CLIENT = SITES / "partypoker-2019-client.txt"
ALL = (CASH, LIMIT, STUD, TOURNAMENT, CLIENT)


def test_the_files_are_partypoker_hands_split_whatever_lies_between_them():
    assert {site_format(path.read_bytes()) for path in ALL} == {"PartyPoker"}
    assert list(fields_of(CASH)) == ["9600000001", "9600000002", "9600000003", "12395240001", "9600000005",
                                     "11764880001"]  # fmt: skip
    assert len(fields_of(TOURNAMENT)) == 3  # (blank lines between hands, none, or a leading space)
    joined = "\0Game #1 starts.\n\n#Game No : 1\n***** Hand History for Game 1 *****\n"
    assert partypoker.HEADER.match(joined).group("id") == "1"  # the client's NUL before a hand
    eight = "#Game No : 5\n***** 888poker Hand History for Game 5 *****\n"
    assert partypoker.HEADER.search(eight) is None and pacific.HEADER.search(eight) is not None


def test_a_player_without_a_seat_and_an_undescribed_game_are_refused_by_name(tmp_path):
    read = fields_of(CASH)
    assert (
        read["9600000005"]
        == "Newcomer_7 joined the table and plays, but the file writes no seat or stack for him"
    )
    assert read["11764880001"] == 'PartyPoker game "Double Hold\'em No Limit" has no scooplab description'
    _, rejected, hands, _ = stored(tmp_path, CASH)
    assert len(rejected) == 2 and len(hands) == 4  # the file's other hands are stored


def test_cash_nets_count_the_uncalled_bet_out_of_the_winnings(tmp_path):
    _, _, hands, players = stored(tmp_path, CASH)
    first = hands["9600000001"]  # an all-in raise, the uncalled raise over it written as a side pot won
    assert nets(hands, players, "9600000001") == {"amber_fox": 0, "BigSlickBob": Decimal("-0.30"),
                                                  "Hero": Decimal("-0.30"),
                                                  "quietquinn": Decimal("0.55")}  # fmt: skip
    assert Decimal(first["rake"]).scaleb(-first["amount_decimals"]) == Decimal("0.05")
    assert (first["currency"], first["venue"], first["table_name"]) == ("USD", "PartyPoker", "Speed #1700001")
    assert str(first["played_on"]) == "2010-08-30" and first["time_zone"] == "America/New_York"
    assert players["9600000001", "quietquinn"]["hole_cards"] == "QhQd"
    # the small blind forced all in: the main pot his, the side pots the others'
    assert nets(hands, players, "9600000002") == {"amber_fox": Decimal("-0.06"), "BigSlickBob": 0,
                                                  "Hero": Decimal("0.06"),
                                                  "quietquinn": Decimal("-0.01")}  # fmt: skip


def test_post_both_blinds_sitting_out_glued_lines_and_decimal_commas(tmp_path):
    _, _, hands, players = stored(tmp_path, CASH)
    both = hands["9600000003"]
    assert both["currency"] == "EUR" and ("9600000003", "nightjar") not in players  # sitting out
    assert nets(hands, players, "9600000003") == {"Kestrel": Decimal("-0.10"), "Hero": Decimal("-1.00"),
                                                  "Lark_99": Decimal("1.08"), "Osprey": 0}  # fmt: skip
    fields = fields_of(CASH)["9600000003"]
    assert fields["antes"] == [0, 0, 0.1, 0] and fields["blinds_or_straddles"] == [0.1, 0.25, -0.25, 0]
    mac = hands["12395240001"]  # ``seat 1:``, ``$26,02``, ``is sitting outHero posts``
    assert nets(hands, players, "12395240001") == {"Pelican": Decimal("-1.95"), "Heron": Decimal("-0.10"),
                                                   "Hero": Decimal("1.77")}  # fmt: skip
    assert Decimal(mac["rake"]).scaleb(-mac["amount_decimals"]) == Decimal("0.28")
    assert fields_of(CASH)["12395240001"]["time_zone"] == "Asia/Bangkok"


def test_limit_holdem_live_second_small_blind_omaha_hi_lo_and_short_deck(tmp_path):
    _, rejected, hands, players = stored(tmp_path, LIMIT)
    assert rejected == []
    assert nets(hands, players, "10398170007") == {"Gannet": 0, "Puffin": Decimal(-5), "Hero": Decimal(-60),
                                                   "Tern": Decimal(63)}  # fmt: skip
    read = fields_of(LIMIT)
    assert read["10398170007"]["blinds_or_straddles"] == [5, 10, -5, 0]  # live: his call of 5 completes it
    assert (read["11354410008"]["variant"], read["11354410008"]["small_bet"]) == ("FO/8", 20)
    assert nets(hands, players, "11354410008") == {"Hero": Decimal(-1), "Grebe": Decimal(-1)}  # hi and lo
    assert read["18512100009"]["variant"] == "NS" and read["18512100009"]["antes"] == [1, 1]
    assert nets(hands, players, "18512100009") == {"Hero": Decimal(-19), "Cormorant": Decimal("18.50")}


def test_stud_deals_the_others_cards_unseen_until_shown(tmp_path):
    _, rejected, hands, players = stored(tmp_path, STUD)
    assert rejected == []
    assert nets(hands, players, "10399810001") == {"Magpie": Decimal("-4.05"), "Hero": Decimal("-0.55"),
                                                   "Jackdaw": Decimal("4.40")}  # fmt: skip
    assert ("10399810001", "Rook") not in players  # no ante: not dealt in
    actions = fields_of(STUD)["10399810001"]["actions"]
    assert actions[:4] == ["d dh p1 ??????", "d dh p2 3h8c7c", "d dh p3 ??????", "p2 pb"]
    assert nets(hands, players, "11480840002") == {"Hero": Decimal("-0.50"), "Nuthatch": Decimal("-0.50")}
    assert players["11480840002", "Nuthatch"]["hole_cards"] == "6c3dAc8h2s5hJc"


def test_tournaments_without_blind_lines_post_the_levels_blinds(tmp_path):
    _, rejected, hands, players = stored(tmp_path, TOURNAMENT)
    assert rejected == []
    first = hands["8504120001"]
    assert first["currency"] is None and first["amount_decimals"] == 0
    extra = first["extra"]
    assert (extra["_tournament"], extra["_buy_in"], extra["_level"], extra["_chips"]) == (
        "47920001", "215", 4, "tournament")  # fmt: skip
    assert "the header names level 3, the hand level 4" in extra["_notes"]
    assert nets(hands, players, "8504120001") == {"Albatross": 0, "Hero": 300, "Booby": -100, "Fulmar": -200}
    no_zone = hands["13165150002"]  # ``Sunday, July 28, 21:01:39  2013``: no time zone
    assert str(no_zone["played_on"]) == "2013-07-28" and no_zone["time_zone"] is None
    assert nets(hands, players, "13165150002") == {"Hero": 20000, "Skua": -20000}
    assert nets(hands, players, "11932610003") == {"Hero": 600, "Dunlin": 0, "Sanderling": -600}


def test_the_2019_client_summary_cash_out_and_split_pot(tmp_path):
    _, rejected, hands, players = stored(tmp_path, CLIENT)
    assert rejected == []
    cash_out = hands["1770600000001abcdefghijk"]
    assert cash_out["currency"] == "USD" and ("1770600000001abcdefghijk", "Dotterel") not in players
    assert nets(hands, players, "1770600000001abcdefghijk") == {
        "Avocet": 0, "Bittern": Decimal("-0.10"), "Curlew": Decimal("-20.20"), "Hero": Decimal("18.30")
    }  # fmt: skip
    assert cash_out["extra"]["_cash_outs"] == ["0", "23.01", "0", "0"]  # beside the table's result
    assert Decimal(cash_out["rake"]).scaleb(-cash_out["amount_decimals"]) == Decimal("2.00")
    assert players["1770600000001abcdefghijk", "Curlew"]["hole_cards"] == "TcAcAd3c"  # from the summary
    assert nets(hands, players, "12566990003") == {"Hero": Decimal("0.38"), "Garganey": Decimal("0.38"),
                                                   "Pochard": Decimal("-0.5"),
                                                   "Scaup": Decimal("-1")}  # fmt: skip
    assert players["12566990003", "Garganey"]["hole_cards"] == "AsTh"


def test_a_tournament_whose_own_figures_disagree_is_stored_with_notes(tmp_path):
    fields = fields_of(CLIENT)["1618960000002xyzabc"]
    assert (fields["_tournament"], fields["_buy_in"], fields["_fee"]) == ("303420001", "50.0", "5.0")
    notes = fields["_notes"]
    assert "the file has Hero all in 10 short of his stack: his last move is read as all in" in notes
    assert any(note.startswith("the file's balance of Merganser is 20009") for note in notes)
    played = replay(fields)
    assert played.state.stacks == [20000, 160000]  # (PHH order: Merganser, then Hero on the button)
    assert dt.time(19, 24, 47) == fields["time"]


BIG_BLIND_ALL_IN = """Game #9400000001 starts.

#Game No : 9400000001
***** Hand History for Game 9400000001 *****
$0.80 USD NL Texas Hold'em - Saturday, July 31, 13:52:16 EDT 2010
Table 20BB Min Speed #1000001 (Real Money)
Seat 1 is the button
Total number of players : 3/9
Seat 1: Loon ( $1.20 USD )
Seat 3: Hero ( $1.64 USD )
Seat 5: Smew ( $0.01 USD )
Hero posts small blind [$0.01 USD].
Smew posts big blind [$0.01 USD].
** Dealing down cards **
Loon calls [$0.02 USD]
Hero folds
Loon wins $0.04 USD
"""


def test_a_big_blind_forced_all_in_leaves_the_big_blind_to_the_first_call():
    [(_, _, _, fields, error)] = list(site_hands(BIG_BLIND_ALL_IN.encode()))
    assert error is None and fields["min_bet"] == 0.02
    assert fields["_notes"][0].startswith("the big blind 0.02 is read from the first call")
    assert "p3 cbr 0.02" in fields["actions"]  # the call of the whole big blind, over the short post


@pytest.mark.parametrize(
    ("line", "reason"),
    [("Hero posts big blind [lots].", "'lots' is not an amount"),
     ("Hero juggles [$0.02 USD]", "Hero: 'juggles [$0.02 USD]' is an action scooplab does not know"),
     ("Ghost calls [$0.02 USD]", "Ghost plays but has no seat at the table")],
)  # fmt: skip
def test_a_broken_line_refuses_its_hand_by_name(line, reason):
    text = BIG_BLIND_ALL_IN.replace("Hero folds", line)
    [(_, _, _, fields, error)] = list(site_hands(text.encode()))
    assert fields is None and error == reason


def test_a_hand_cut_off_before_its_end_is_refused():
    text = BIG_BLIND_ALL_IN.replace("Loon wins $0.04 USD\n", "")
    [(_, _, _, fields, error)] = list(site_hands(text.encode()))
    assert fields is None and error == "the hand is cut off: nobody wins"
