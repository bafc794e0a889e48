"""Site hand histories (PokerStars, GGPoker): found from their text, read exactly, checked against
their own arithmetic, stored like PHH. Fixtures: tests/fixtures/sites/ (written for these tests)."""

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.histories.phh import iter_hands
from ingest.histories.pipeline import ingest
from ingest.histories.replay import HandError, replay
from ingest.histories.sites import site_format, site_hands
from ingest.histories.sites.text import normalized_text
from ingest.storage.warehouse import Warehouse
from tests.site_helpers import SITES, fields_of, stored

CASH = SITES / "stars-cash-nlhe.txt"


def money(row: dict, hand: dict) -> Decimal:
    return Decimal(row["net"]).scaleb(-hand["amount_decimals"])


def test_cash_hands_nets_rake_and_cards_are_the_files(tmp_path):
    report, rejected, hands, players = stored(tmp_path, CASH)
    assert (report.hands, rejected) == (2, [])
    first = hands["250000000001"]
    assert (first["currency"], first["venue"], first["table_name"]) == ("USD", "PokerStars", "Alcyone III")
    assert Decimal(first["rake"]).scaleb(-first["amount_decimals"]) == Decimal("0.50")
    nets = {name: money(players["250000000001", name], first) for name in
            ("tilted_teapot", "MapleMuck", "Quintessa", "river_rat")}  # fmt: skip
    assert nets == {"tilted_teapot": Decimal("4.00"), "MapleMuck": Decimal("-4.35"),
                    "Quintessa": Decimal("-0.05"), "river_rat": Decimal("-0.10")}  # fmt: skip
    assert ("250000000001", "lowball_larry") not in players  # sitting out: not dealt in
    assert players["250000000001", "MapleMuck"]["hole_cards"] == "AhKd"  # the hero's
    assert players["250000000001", "tilted_teapot"]["hole_cards"] in (None, "????")  # never shown
    second = hands["250000000002"]
    assert money(players["250000000002", "MapleMuck"], second) == Decimal("7.75")
    assert players["250000000002", "tilted_teapot"]["hole_cards"] == "AcJd"  # shown at the showdown
    assert str(first["played_on"]) == "2025-03-14" and first["time_zone"] == "America/New_York"


def test_a_tournament_hand_is_chips_with_its_buy_in_bounty_and_level(tmp_path):
    _, rejected, hands, players = stored(tmp_path, SITES / "stars-tournament-ko.txt")
    hand = hands["250000000101"]
    assert rejected == [] and hand["currency"] is None and hand["amount_decimals"] == 0
    extra = hand["extra"]
    assert (extra["_tournament"], extra["_buy_in"], extra["_bounty"], extra["_fee"], extra["_level"]) == (
        "3900000001",
        "4.40",
        "4.40",
        "1.20",
        4,
    )
    assert extra["_chips"] == "tournament" and extra["_bounties"] == ["4.40", "4.40", "4.40", "6.60"]
    assert players["250000000101", "Okapi_Ok"]["net"] == 6034 - 2980
    assert players["250000000101", "Wobbegong"]["net"] == -62  # sitting out, dealt in: ante and blind
    assert hand["pot"] == 6034


def test_ggpoker_hidden_opponents_comma_thousands_fees_and_lettered_ids(tmp_path):
    _, rejected, hands, players = stored(tmp_path, SITES / "gg-cash-and-tournament.txt")
    assert rejected == []
    cash = hands["RC1000000001"]
    assert cash["extra"]["_hand_id"] == "RC1000000001" and cash["venue"] == "GGPoker"
    assert money(players["RC1000000001", "0d9e8f7a"], cash) == Decimal("468")
    assert money(players["RC1000000001", "Hero"], cash) == Decimal("-500")
    assert players["RC1000000001", "7f3a2b1c"]["hole_cards"] in (None, "????????")  # "Dealt to" alone
    assert Decimal(cash["rake"]).scaleb(-cash["amount_decimals"]) == Decimal("37")  # rake and jackpot
    assert cash["extra"]["_fees"] == "2"
    assert players["TM2000000001", "Hero"]["net"] == 2500 - 200 - 500 - 600  # the big-blind ante: his alone
    assert players["TM2000000001", "aa11bb22"]["net"] == -1100


def test_razz_is_dealt_street_by_street_and_the_low_wins(tmp_path):
    _, rejected, hands, players = stored(tmp_path, SITES / "stars-razz.txt")
    hand = hands["250000000301"]
    assert rejected == [] and hand["variant"] == "razz"
    assert money(players["250000000301", "cobalt_cat"], hand) == Decimal("0.59")
    assert money(players["250000000301", "Hero"], hand) == Decimal("-0.57")
    assert money(players["250000000301", "anteater"], hand) == Decimal("-0.07")


def test_a_dead_blind_goes_to_the_pot_and_omaha_hi_lo_splits(tmp_path):
    _, rejected, hands, players = stored(tmp_path, SITES / "stars-omaha-hilo-eur-cp1252.txt")
    hand = hands["250000000201"]
    assert rejected == [] and hand["currency"] == "EUR"
    assert money(players["250000000201", "nine_lives"], hand) == Decimal("-1.00")  # 0.10 dead, 0.90 live
    assert money(players["250000000201", "GrusGrus"], hand) == Decimal("0.25")
    assert money(players["250000000201", "DeltaDawn"], hand) == Decimal("0.25")
    assert hand["pot"] == 1020


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"])
def test_every_encoding_and_line_end_reads_the_same_hands(tmp_path, encoding):
    text = CASH.read_text()
    copy = tmp_path / "hands.txt"
    body = text.replace("\n", "\r\n") if encoding == "cp1252" else text
    marked = encoding in ("utf-16-le", "utf-16-be")  # (utf-8-sig and utf-16 write their own mark)
    copy.write_bytes(("\ufeff" + body if marked else body).encode(encoding))
    assert site_format(copy.read_bytes()) == "PokerStars"
    assert [r.fields for r in iter_hands([copy])] == [r.fields for r in iter_hands([CASH])]


def test_a_file_of_two_formats_without_blank_lines_is_read_hand_by_hand(tmp_path):
    mixed = tmp_path / "mixed.log"
    stars = CASH.read_bytes().strip()
    mixed.write_bytes(
        stars + b"\n\xef\xbb\xbf" + (SITES / "gg-cash-and-tournament.txt").read_bytes()
    )  # cat a b
    raws = list(iter_hands([mixed]))
    assert [r.error for r in raws] == [None] * 4
    assert [r.fields["venue"] for r in raws] == ["PokerStars", "PokerStars", "GGPoker", "GGPoker"]


def test_a_game_without_a_description_is_refused_by_name_and_the_rest_goes_on(tmp_path):
    undescribed = ("PokerStars Hand #250000000999:  Single Draw 2-7 Lowball Pot Limit ($0.10/$0.25 USD) - "
                  "2025/03/14 20:20:00 ET\nTable 'Alcyone III' 6-max Seat #1 is the button\n")  # fmt: skip
    cancelled = CASH.read_text().split("\n\n\n")[0].replace("#250000000001", "#250000000998")
    cancelled = cancelled.replace("*** SUMMARY ***", "Hand cancelled\n*** SUMMARY ***")
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(undescribed + "\n\n" + cancelled + "\n\n" + CASH.read_text())
    report, rejected, _, _ = stored(tmp_path, mixed)
    assert report.hands == 2
    assert rejected == [
        f'{mixed} hand #250000000999 (line 1): PokerStars game "Single Draw 2-7 Lowball Pot Limit" has no '
        "scooplab description",
        f"{mixed} hand #250000000998 (line 5): the hand was cancelled",
    ]


def test_a_file_that_disagrees_with_itself_is_stored_flagged(tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(CASH.read_text().replace("Total pot $8.85 | Rake $0.50", "Total pot $8.95 | Rake $0.60"))
    _, rejected, hands, _ = stored(tmp_path, wrong)
    assert rejected == []
    notes = hands["250000000001"]["notes"]
    assert any("total pot 8.95 is not its bets' 8.85" in n for n in notes), notes
    assert hands["250000000002"]["notes"] in (None, [])


def test_importing_a_file_twice_stores_its_hands_once(tmp_path):
    warehouse = Warehouse(tmp_path / "wh")
    first = ingest([CASH], warehouse)
    again = ingest([CASH, SITES / "stars-tournament-ko.txt"], warehouse)
    assert (first.hands, again.hands, again.duplicates) == (2, 1, 2)


def test_a_text_file_that_is_no_hand_history(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("bought in for 50 at the Bellagio\n")
    (raw,) = iter_hands([notes])
    assert raw.whole_file and "no hand history scooplab reads" in raw.error
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.txt").write_text("not hands")
    (folder / "hh.txt").write_bytes(CASH.read_bytes())
    assert [r.fields["hand"] for r in iter_hands([folder])] == [250000000001, 250000000002]


def test_normalized_text_reads_every_mark_and_line_end():
    text = "Seat 1: Zoë (€5 in chips)\r\nnext\rline"
    for data in (
        text.encode("utf-8"),
        text.encode("utf-8-sig"),
        text.encode("utf-16"),
        text.encode("cp1252"),
    ):
        assert normalized_text(data) == "Seat 1: Zoë (€5 in chips)\nnext\nline"


def test_zip_and_tar_archives_of_site_files_and_phh(tmp_path):
    import tarfile
    import zipfile

    files = [
        *sorted(SITES.glob("stars-*.txt")),
        Path(__file__).parent / "fixtures" / "phh" / "dwan-ivey-2009.phh",
    ]
    with zipfile.ZipFile(tmp_path / "hands.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.write(file, f"inner/{file.name}")
    with tarfile.open(tmp_path / "hands.tar.gz", "w:gz") as archive:
        for file in files:
            archive.add(file, f"inner/{file.name}")
    read = {name: list(iter_hands([tmp_path / name])) for name in ("hands.zip", "hands.tar.gz")}
    assert [r.fields for r in read["hands.zip"]] == [r.fields for r in read["hands.tar.gz"]]
    assert len(read["hands.zip"]) == 1 + sum(f.read_text("cp1252").count("PokerStars Hand #") for f in files)
    assert read["hands.zip"][0].source_file == f"{tmp_path / 'hands.zip'}!inner/{files[0].name}"


def test_a_zip_bomb_is_stopped_with_one_line(tmp_path, monkeypatch):
    import zipfile

    from ingest.histories import archives

    monkeypatch.setattr(archives, "ARCHIVE_FLOOR", 1 << 20)
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.txt", b"PokerStars Hand #1: " + bytes(8 << 20))
    (raw,) = list(iter_hands([tmp_path / "bomb.zip"]))
    assert raw.whole_file and raw.error.startswith(
        "cannot read the archive: it expands to more than 100 times"
    )


def lab_query(tmp_path: Path, *files: Path, sql: str) -> list[tuple]:
    from scooplab.lab import Lab

    with Lab(tmp_path / "lab") as lab:
        lab.ingest(*files)
        return lab.sql(sql).fetchall()


def test_stacks_chain_from_hand_to_hand_and_a_missing_hand_is_a_finding(tmp_path):
    chain = "SELECT player, starting_stack, previous_stack, agrees FROM stack_chain ORDER BY player"
    rows = lab_query(tmp_path / "a", CASH, sql=chain)
    assert [(p, a) for p, _, _, a in rows] == [(p, True) for p in ("MapleMuck", "Quintessa", "river_rat",
                                                                    "tilted_teapot")]  # fmt: skip
    gap = tmp_path / "gap.txt"  # a top-up (or a hand missing from the file) between the two hands
    gap.write_text(
        CASH.read_text().replace("Seat 4: Quintessa ($9.95 in chips)", "Seat 4: Quintessa ($10 in chips)")
    )
    rows = lab_query(tmp_path / "b", gap, sql=chain)
    assert [(p, str(s), str(before), a) for p, s, before, a in rows if not a] == [
        ("Quintessa", "10.000000", "9.950000", False)
    ]


def test_a_runs_stack_chain_follows_its_tables_into_earlier_runs_and_no_further(tmp_path):
    from scooplab.lab import Lab

    first, second = CASH.read_text().split("\n\n\n", 1)
    assert "PokerStars Hand #" in second
    (tmp_path / "first.txt").write_text(first + "\n")
    (tmp_path / "second.txt").write_text(second)
    other = CASH.read_text().replace("Table 'Alcyone III'", "Table 'Other'")  # another table: its own chain
    assert other != CASH.read_text()
    (tmp_path / "other.txt").write_text(other)
    with Lab(tmp_path / "lab") as lab:
        runs = [lab.ingest(tmp_path / name)["run_id"] for name in ("first.txt", "other.txt", "second.txt")]
        assert [lab.stack_chain(run) for run in runs] == [(0, 0), (0, 1), (0, 1)]
        # (the second file's hand follows the first file's, stored by an earlier run)


def test_a_cash_out_is_stored_beside_the_unchanged_table_result(tmp_path):
    cashed = tmp_path / "cashed.txt"
    cashed.write_text(
        CASH.read_text().replace(
            "tilted_teapot: calls $5.50\n",
            "tilted_teapot: calls $5.50\ntilted_teapot cashed out the hand for $1.20 | Cash Out Fee $0.02\n",
        )
    )
    columns = "player, cash_out, cash_out_fee, table_net, net_with_cash_out"
    rows = lab_query(tmp_path, cashed, sql=f"SELECT {columns} FROM cash_outs")
    assert [tuple(map(str, r)) for r in rows] == [
        ("tilted_teapot", "1.200000", "0.020000", "-8.000000", "-6.800000")
    ]
    (net,) = lab_query(
        tmp_path / "again",
        cashed,
        sql="SELECT net FROM players WHERE player = 'MapleMuck' "
        "AND hand_id IN (SELECT hand_id FROM hands WHERE pot = 1625)",
    )
    assert net == (775,)  # the table's result: unchanged


HEADS_UP = """PokerStars Hand #250000000401:  Hold'em No Limit ($0.25/$0.50 USD) - 2025/06/01 12:00:00 ET
Table 'Duo I' 2-max Seat #2 is the button
Seat 1: alpha_one ($50 in chips)
Seat 2: beta_two ($40 in chips)
beta_two: posts small blind $0.25
alpha_one: posts big blind $0.50
*** HOLE CARDS ***
Dealt to beta_two [Kd Kh]
beta_two: raises $1 to $1.50
alpha_one: calls $1
*** FLOP *** [2c 7d 9s]
alpha_one: checks
beta_two: bets $2
alpha_one: folds
Uncalled bet ($2) returned to beta_two
beta_two collected $2.85 from pot
*** SUMMARY ***
Total pot $3 | Rake $0.15
"""


def test_heads_up_the_button_posts_the_small_blind_and_acts_first(tmp_path):
    file = tmp_path / "hu.txt"
    file.write_text(HEADS_UP)
    (raw,) = iter_hands([file])
    assert raw.fields["players"] == ["alpha_one", "beta_two"]  # PHH: the button last
    assert raw.fields["blinds_or_straddles"] == [0.25, 0.5]  # reverse-assigned heads-up, as PHH does
    _, rejected, hands, players = stored(tmp_path, file)
    hand = hands["250000000401"]
    assert rejected == [] and hand["notes"] in (None, [])
    assert money(players["250000000401", "beta_two"], hand) == Decimal("1.35")
    assert money(players["250000000401", "alpha_one"], hand) == Decimal("-1.50")


def _mutated(lines: list[str], edits: list[tuple[int, int, str]]) -> str:
    """The hand's lines with each edit: (kind, line, text): drop a line, repeat it, replace one of its
    characters by the text, or cut the hand there."""
    out = list(lines)
    for kind, at, text in edits:
        at %= len(out)
        if kind == 0:
            del out[at]
        elif kind == 1:
            out.insert(at, out[at])
        elif kind == 2 and out[at]:
            k = len(text) % len(out[at])
            out[at] = out[at][:k] + text + out[at][k + 1 :]
        elif kind == 3:
            out = out[: at + 1]
        if not out:
            out = [""]
    return "\n".join(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 200), st.text(max_size=3)), max_size=4))
def test_a_damaged_hand_is_read_or_refused_in_one_line_never_a_crash(edits):
    lines = CASH.read_text().split("\n")
    text = _mutated(lines, edits)
    for _, label, _, fields, error in site_hands(text.encode("utf-8", "surrogatepass")):
        assert (fields is None) != (error is None) and label
        assert error is None or ("\n" not in error and len(error) < 400), error
        if fields is not None:
            try:
                replay(fields)
            except HandError as refused:  # the rules refuse it: one line, as any PHH hand's
                assert "\n" not in str(refused)


def test_the_date_of_a_pokerstars_hand_before_2009_is_read():
    old = HEADS_UP.replace("Hand #250000000401:  Hold'em", "Game #250000000401:  Hold'em").replace(
        "2025/06/01 12:00:00 ET", "2008/06/01 - 12:00:00 (ET)"
    )
    ((_, _, _, fields, error),) = site_hands(old.encode())
    assert error is None
    assert (fields["year"], fields["month"], fields["day"], str(fields["time"])) == (2008, 6, 1, "12:00:00")
    assert fields["time_zone"] == "America/New_York"


def test_a_name_holding_brackets_is_dealt_its_own_cards():
    ((_, _, _, fields, error),) = site_hands(HEADS_UP.replace("beta_two", "PC [Mittel]").encode())
    assert error is None and fields["players"] == ["alpha_one", "PC [Mittel]"]
    assert "d dh p2 KdKh" in fields["actions"]


def test_ggpoker_short_deck_ranks_a_straight_above_three_of_a_kind(tmp_path):
    """GGPoker's files pay a straight over three of a kind in short deck: its hands are read with the
    rule option that says so (``_options``), and the record agrees with the rules."""
    _, rejected, hands, players = stored(tmp_path, SITES / "gg-short-deck.txt")
    assert rejected == []
    row = hands["SD2000000001"]
    assert '"trips_beat_straight":false' in row["options"].replace(" ", "")
    assert row["record"] == "checked"
    assert (
        players[("SD2000000001", "Hero")]["net"] == 198
        and players[("SD2000000001", "ee55ff66")]["net"] == -220
    )


def test_pokerstars_courchevel_deals_its_first_board_card_before_the_blinds_round(tmp_path):
    """``*** PRE-FLOP *** [Th]`` is the board card dealt before the first betting round; the flop line
    shows it again with the two new cards. Read by the Python reader (the compiled one leaves games
    with a deal before the blinds' round to it) and checked against the file's own amounts."""
    from ingest.histories.phh import write_hand
    from ingest.histories.sites.stars_headers import header_kind

    _, rejected, hands, players = stored(tmp_path, SITES / "stars-courchevel.txt")
    assert rejected == []
    hand = hands["310000000001"]
    assert hand["variant"] == "courchevel" and hand["boards"] == ["Th8h2c4s5h"]
    assert hand["record"] == "checked"
    actions = fields_of(SITES / "stars-courchevel.txt")["310000000001"]["actions"]
    assert actions[3:6] == ["d db Th", "p3 cbr 1.5", "p1 cc"] and "d db 8h2c" in actions
    assert players[("310000000001", "Gina")]["net"] == 550
    assert players[("310000000001", "Ivan")]["net"] == -500
    line = b"PokerStars Hand #|:  Courchevel Pot Limit ($0.25/$0.50 USD) - 0000/00/00 00:00:00 ET"
    assert not header_kind(line, write_hand).usable


def test_pokerstars_single_draw_games_begin_the_draw_at_its_first_move(tmp_path):
    """PokerStars writes no ``*** DRAW ***`` line in its single-draw games: the first ``discards`` or
    ``stands pat`` begins the draw, and the hero's ``Dealt to NAME [kept] [drawn]`` after it is the
    draw's new cards, not his deal. Five-card draw has a description (engine/variants/five-card-draw.toml)."""
    _, rejected, hands, players = stored(tmp_path, SITES / "stars-single-draw.txt")
    assert rejected == []
    assert [hands[h]["variant"] for h in ("260000000001", "260000000002")] == [
        "five-card-draw", "deuce-to-seven-single-draw"]  # fmt: skip
    assert all(hands[h]["record"] == "checked" for h in hands)
    actions = fields_of(SITES / "stars-single-draw.txt")
    assert actions["260000000001"]["actions"][0] == "d dh p1 KhKd7c4s2d"
    assert "p1 sd 7c4s2d" in actions["260000000001"]["actions"]
    assert "d dh p1 Ks9h3c" in actions["260000000001"]["actions"]
    assert actions["260000000002"]["actions"][2] == "d dh p3 7s5d4c2hKc"
    assert actions["260000000002"]["actions"][8:10] == ["p3 sd Kc", "d dh p3 3d"]
    assert players[("260000000001", "Hero")]["net"] == 48 and players[("260000000002", "Hero")]["net"] == 160
