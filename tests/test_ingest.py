"""PHH ingest: real hands replay exactly, bad input is rejected one line at a time, storage is safe."""

import io
import json
import re
import tarfile
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from ingest.histories.archives import NOT_TAR, archive_files
from ingest.histories.export import export_hands
from ingest.histories.phh import hands_from_text, iter_hands
from ingest.histories.pipeline import ingest
from ingest.histories.replay import HandError, replay
from ingest.storage.warehouse import Warehouse
from scooplab.cli import app

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason="../shared/data/phh is absent")


def test_fixture_hands_replay_to_their_finishing_stacks():
    raws = list(iter_hands([FIXTURES / "phh", FIXTURES / "examples"]))
    assert len(raws) >= 15
    for raw in raws:
        assert raw.error is None, raw.error
        replayed = replay(raw.fields)
        if "finishing_stacks" in raw.fields and not replayed.fractional_stacks:
            assert replayed.state.stacks == raw.fields["finishing_stacks"], raw.source_file


def test_half_chip_hand_is_kept_with_whole_chips_and_a_note():
    (raw,) = iter_hands([FIXTURES / "phh" / "pluribus" / "102-0.phh"])
    replayed = replay(raw.fields)
    assert raw.fields["finishing_stacks"][0] == 10112.5
    assert replayed.fractional_stacks
    assert replayed.state.stacks[0] == 10113  # the odd chip: clockwise from the button, p1 first
    assert replayed.state.stacks[4] == 10112
    assert any("10112.5" in note for note in replayed.notes)


def test_a_real_mismatch_is_rejected_with_both_values():
    (raw,) = iter_hands([FIXTURES / "phh" / "pluribus" / "30-1.phh"])
    fields = dict(raw.fields, finishing_stacks=[10000, 10000, 10000, 10000, 10000, 10000])
    with pytest.raises(HandError, match=r"finishing stacks differ: file \[10000, .*computed \[10100, 9900"):
        replay(fields)


@needs_shared
@pytest.mark.slow
def test_every_pluribus_and_wsop_holdem_hand_replays():
    raws = list(iter_hands([SHARED / "pluribus.tar.gz", SHARED / "wsop-2023-43-5"]))
    holdem = [r for r in raws if r.fields and r.fields.get("variant") in ("NT", "FT")]
    assert len(holdem) > 10_000
    fractional = 0
    for raw in holdem:
        replayed = replay(raw.fields)
        fractional += replayed.fractional_stacks
    assert fractional == 8  # the eight Pluribus hands that record half chips


def test_ingest_stores_once_and_export_round_trips(tmp_path):
    first = Warehouse(tmp_path / "a")
    report = ingest([FIXTURES / "phh", FIXTURES / "examples"], first, run_id="r1")
    assert report.rejected == 0
    assert report.hands == len(list(iter_hands([FIXTURES / "phh", FIXTURES / "examples"])))
    again = ingest([FIXTURES / "phh"], first, run_id="r2")
    assert (again.hands, again.duplicates) == (0, len(list(iter_hands([FIXTURES / "phh"]))))
    hands = first.read("hands")
    assert hands.num_rows == report.hands
    assert len(set(hands.column("hand_id").to_pylist())) == hands.num_rows
    players = first.read("players")
    assert players.num_rows == sum(hands.column("n_players").to_pylist())
    assert not list(tmp_path.rglob(".tmp-*"))
    # export every game, ingest into a fresh warehouse: the same rows
    second = Warehouse(tmp_path / "b")
    exported = [tmp_path / f"{variant}.phhs" for variant in sorted(set(hands.column("variant").to_pylist()))]
    for out in exported:
        export_hands(first, out.stem, out)
    ingest(exported, second, run_id="r1")
    for table, key in (("hands", "hand_id"), ("players", "hand_id"), ("actions", "hand_id")):
        a = first.read(table).drop_columns(["source_file"] if table == "hands" else [])
        b = second.read(table).drop_columns(["source_file"] if table == "hands" else [])
        columns = [c for c in a.column_names if c not in ("hand_index",)]
        sort = [(key, "ascending")] + ([("seat", "ascending")] if "seat" in columns else [])
        if table == "actions":
            sort = [(key, "ascending"), ("seq", "ascending")]
        rows_a, rows_b = (
            a.select(columns).sort_by(sort).to_pylist(),
            b.select(columns).sort_by(sort).to_pylist(),
        )
        if table == "hands":  # a hand without a `hand` field is numbered by its place in its file, which
            for row in rows_a + rows_b:  # changes when an export gathers the hands of several files
                row["hand_no"] = row["hand_no"] if re.search(r"(?m)^hand\s*=", row["phh"]) else None
            assert sum(row["hand_no"] is not None for row in rows_a) > 10  # most hands carry their number
        assert rows_a == rows_b


def test_scarney_rows_record_discards_and_dead_players(tmp_path):
    warehouse = Warehouse(tmp_path)
    ingest([FIXTURES / "examples" / "scarney.phh"], warehouse, run_id="s")
    players = warehouse.read("players").sort_by("seat").to_pylist()
    assert [p["dead"] for p in players] == [False, True, False]
    assert players[1]["discarded"] == 6 and players[1]["final_hole_cards"] == ""
    assert players[0]["won_high"] == 150 and players[0]["won_low"] == 150
    assert players[2]["won"] == 400
    hand = warehouse.read("hands").to_pylist()[0]
    assert hand["boards"] == ["AhKh2cTh3c", "7s8s9c9h9s"]
    actions = warehouse.read("actions").to_pylist()
    assert any(a["action"] == "discard" and a["seat"] == 1 for a in actions)


BAD_HANDS = {
    "truncated.phh": ('variant = "NT"\nstarting_stacks = [100, 1', "bad TOML"),
    "types.phh": (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = "lots"\nactions = []\n',
        "starting_stacks must be an array",
    ),
    "illegal.phh": (
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [100, 100, 100]\n"
        'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "p3 cbr 3"]\n',
        "action 4 'p3 cbr 3': p3 cbr 3: below the minimum raise to 4",
    ),
    "duplicate.phh": (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\nactions = ["d dh p1 AcAd", "d dh p2 AcKd"]\n',
        "Ac was already dealt",
    ),
    "unknown.phh": ('variant = "XYZ"\nstarting_stacks = [1, 1]\nactions = []\n', "unknown variant 'XYZ'"),
    "empty.phh": ("", "the file is empty"),
    "short.phh": (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\nactions = ["d dh p1 AcAd", "d dh p2 KcKd"]\n',
        "the hand ends before it is over (p2 to act on the preflop)",
    ),
}


def test_bad_input_is_rejected_one_line_each_and_good_hands_stored_once(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, (text, _) in BAD_HANDS.items():
        (folder / name).write_text(text)
    good = (FIXTURES / "examples" / "cry-me-a-river.phh").read_text()
    (folder / "mixed.phhs").write_text(f"[1]\n{good}\n[2]\nvariant = 'NT'\nactions = [\n\n[3]\n{good}")
    messages: list[str] = []
    warehouse = Warehouse(tmp_path / "wh")
    report = ingest([folder], warehouse, run_id="bad", on_reject=messages.append)
    assert report.hands == 1 and report.duplicates == 1
    assert report.rejected == len(BAD_HANDS) + 1
    rejects = {Path(r["source_file"]).name: r for r in warehouse.read("rejects").to_pylist()}
    for name, (text, expected) in BAD_HANDS.items():
        assert expected in rejects[name]["error"], rejects[name]["error"]
        assert rejects[name]["raw"] == text
    assert all("\n" not in message for message in messages)
    assert any(m.startswith(f"{folder / 'illegal.phh'} hand 1: action 4") for m in messages)


def test_phhs_sections_are_parsed_one_by_one():
    raws = hands_from_text("[1]\nvariant = 'NT'\n[2]\nbroken = [\n[3]\nvariant = 'FT'\n", "x.phhs")
    assert [r.error is None for r in raws] == [True, False, True]
    assert [r.hand_index for r in raws] == [0, 1, 2]


def test_failed_write_leaves_no_file(tmp_path, monkeypatch):

    def broken(self, table, *args, **kwargs):
        raise OSError("disk full")  # the temporary file exists, half written

    monkeypatch.setattr(pq.ParquetWriter, "write_table", broken)
    warehouse = Warehouse(tmp_path)
    with pytest.raises(OSError, match="disk full"):
        ingest([FIXTURES / "examples"], warehouse, run_id="x")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_ingest_command_reports_json(tmp_path):
    result = CliRunner().invoke(
        app, ["ingest", str(FIXTURES / "examples"), "--data", str(tmp_path), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    examples = sorted(path.name for path in (FIXTURES / "examples").glob("*.phh"))  # one hand each
    assert (summary["hands"], summary["rejected"], summary["duplicates"]) == (len(examples), 0, 0)
    hands = Warehouse(tmp_path).read("hands")
    files = [Path(f).name for f in hands.column("source_file").to_pylist()]
    by_file = dict(zip(files, hands.column("variant").to_pylist(), strict=True))
    assert sorted(by_file) == examples  # each file is named after its game, then maybe its rule set
    assert all(name.removesuffix(".phh") in (v, f"{v}-ultimate") for name, v in by_file.items())
    assert pc.all(pc.equal(hands.column("source"), "phh")).as_py()


def test_fast_toml_path_agrees_with_tomllib():
    import tarfile
    import tomllib

    from ingest.histories.phh import fast_loads

    texts = [p.read_text() for p in (FIXTURES / "phh").rglob("*.phh")]
    if SHARED.exists():
        with tarfile.open(SHARED / "pluribus.tar.gz") as archive:
            texts += [archive.extractfile(m).read().decode() for m in archive if m.isfile()][:3000]
        texts += [p.read_text() for p in SHARED.rglob("*.phh")]
    fast = 0
    for text in texts:
        parsed = fast_loads(text)
        if parsed is not None:
            fast += 1
            assert parsed == tomllib.loads(text)
    assert fast >= len(texts) // 2
    for odd in ("a = Infinity", "a = null", "a = [1,\n2]", "a = 1_000", "a = {b = 1}", "a.b = 1"):
        assert fast_loads(odd) is None


def test_an_interrupted_ingest_leaves_no_rows_and_reruns_cleanly(tmp_path, monkeypatch):
    from analytics.db import connect

    warehouse = Warehouse(tmp_path)
    original = Warehouse.write

    def dies_before_hands(self, table, *args, **kwargs):
        if table == "hands":
            raise KeyboardInterrupt  # killed after the players and actions files
        return original(self, table, *args, **kwargs)

    monkeypatch.setattr(Warehouse, "write", dies_before_hands)
    with pytest.raises(KeyboardInterrupt):
        ingest([FIXTURES / "phh"], warehouse, run_id="i")
    monkeypatch.setattr(Warehouse, "write", original)
    assert connect(tmp_path).sql("SELECT count(*) FROM players").fetchall() == [(0,)]
    orphans = sorted(tmp_path.rglob("*.parquet"))
    assert orphans  # the players and actions files of the batch that died
    report = ingest([FIXTURES / "phh"], warehouse, run_id="i")
    assert report.replaced_files == len(orphans) and not any(path.exists() for path in orphans)
    con = connect(tmp_path)
    players = con.sql("SELECT count(*) FROM players").fetchall()[0][0]
    seats = con.sql("SELECT sum(n_players) FROM hands").fetchall()[0][0]
    assert report.hands > 0 and players == seats


def test_the_same_run_id_again_does_nothing_after_a_complete_ingest(tmp_path, monkeypatch):
    warehouse = Warehouse(tmp_path)
    first = ingest([FIXTURES / "examples"], warehouse, run_id="e")
    files = sorted(tmp_path.rglob("*.parquet"))
    again = ingest([FIXTURES / "examples"], warehouse, run_id="e")
    assert again.complete_before and not first.complete_before
    assert (again.hands, again.rejected, again.variants) == (first.hands, first.rejected, first.variants)
    assert sorted(tmp_path.rglob("*.parquet")) == files
    with pytest.raises(ValueError, match="run e holds a complete ingest of other paths"):
        ingest([FIXTURES / "phh"], warehouse, run_id="e")
    monkeypatch.chdir(FIXTURES)  # the same folder named from elsewhere: the same paths
    assert ingest(["examples"], warehouse, run_id="e").complete_before


def test_ingest_refuses_a_simulation_run_id(tmp_path):
    from ingest.generation.simulation import SimSpec, simulate

    simulate(SimSpec("holdem", 100, seed=1), str(tmp_path), run_id="s")
    with pytest.raises(ValueError, match="run s is a simulation run"):
        ingest([FIXTURES / "examples"], Warehouse(tmp_path), run_id="s")


@pytest.mark.parametrize(
    ("mode", "tar_format"),
    [("w:gz", tarfile.USTAR_FORMAT), ("w:gz", tarfile.GNU_FORMAT), ("w:gz", tarfile.PAX_FORMAT),
     ("w", tarfile.GNU_FORMAT), ("w:bz2", tarfile.USTAR_FORMAT)],
)  # fmt: skip
def test_archive_files_reads_what_tarfile_reads(tmp_path, mode, tar_format):
    path = tmp_path / "hands.tar.gz"
    names = ["a/1.phh", "a/b/2.phh", "x" * 120 + "/3.phh", "é/4.phh", "z/" + "y" * 99 + ".phh", "a/5.phh"]
    with tarfile.open(path, mode, format=tar_format) as archive:
        for number, name in enumerate(names):
            data = f"hand = {number}\n".encode() * (number * 40 + 1)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            try:
                archive.addfile(info, io.BytesIO(data))
            except ValueError:  # a name this format cannot hold
                continue
        directory = tarfile.TarInfo("a/dir")
        directory.type = tarfile.DIRTYPE
        archive.addfile(directory)
    with tarfile.open(path) as archive:
        expected = [(m.name, archive.extractfile(m).read()) for m in archive if m.isfile()]
    assert len(expected) >= 4
    assert list(archive_files(path)) == expected


def test_a_truncated_archive_is_one_clear_reject(tmp_path):
    whole = tmp_path / "whole.tar.gz"
    with tarfile.open(whole, "w:gz") as archive:
        for number in range(50):
            data = (FIXTURES / "phh").rglob("*.phh").__next__().read_bytes()
            info = tarfile.TarInfo(f"h/{number}.phh")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    hands = list(iter_hands([cut]))
    assert hands[-1].error is not None and hands[-1].error.startswith("cannot read the archive")
    assert all(h.error is None for h in hands[:-1]) and len(hands) >= 2  # the hands before the cut


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (bytes(range(256)) + b"x" * 44, f"cannot read the archive: {NOT_TAR} (unexpected end of data)"),
        (b"not a tar archive at all\n" * 100, f"cannot read the archive: {NOT_TAR} ("),
    ],
    ids=["short", "long"],
)
def test_a_file_that_is_no_archive_is_rejected_as_a_whole_file(tmp_path, content, reason):
    """Bytes under an archive's name, and a path that does not exist: one line naming the file and
    what is wrong, no hand number (no hand was read)."""
    fake, missing = tmp_path / "fake.tar.gz", tmp_path / "missing.phh"
    fake.write_bytes(content)
    lines: list[str] = []
    report = ingest([fake, missing], Warehouse(str(tmp_path / "w")), on_reject=lines.append)
    assert report.rejected == 2 and report.hands == 0
    assert lines[0].startswith(f"{fake}: {reason}") and " hand " not in lines[0]
    assert lines[1] == f"{missing}: no such file or folder"


def test_hands_are_stored_in_reading_order_whichever_replay_took_them(tmp_path):
    """Hands the compiled replay takes and hands the state machine takes share a file, in order."""
    source = sorted((FIXTURES / "phh" / "pluribus").glob("*.phh"))[:4]
    folder = tmp_path / "in"
    folder.mkdir()
    for number, path in enumerate(source):
        text = path.read_text()
        if number % 2:  # a comment sends the hand to the state machine
            text = "# kept by the state machine\n" + text
        (folder / f"{number}.phh").write_text(text)
    warehouse = Warehouse(tmp_path / "w")
    report = ingest([folder], warehouse, run_id="o")
    assert (report.hands, report.rejected) == (4, 0)
    (hands_file,) = (tmp_path / "w" / "hands").rglob("*.parquet")

    stored = pq.read_table(hands_file).column("source_file").to_pylist()
    assert [Path(s).name for s in stored] == ["0.phh", "1.phh", "2.phh", "3.phh"]
    players = (
        pq.read_table(next((tmp_path / "w" / "players").rglob("*.parquet"))).column("hand_id").to_pylist()
    )
    hand_order = pq.read_table(hands_file).column("hand_id").to_pylist()
    assert list(dict.fromkeys(players)) == hand_order


def test_odd_field_types_never_stop_an_ingest(tmp_path):
    good = next((FIXTURES / "phh" / "pluribus").glob("*.phh")).read_text()
    (tmp_path / "in").mkdir()
    renumbered = good.replace("hand = ", "old_hand = ").rstrip() + "\nhand = true\n"
    (tmp_path / "in" / "a.phh").write_text(renumbered)
    (tmp_path / "in" / "b.phh").write_text('variant = ["NT"]\nstarting_stacks = [200, 200]\nactions = []\n')
    (tmp_path / "in" / "c.phh").write_text(good)
    report = ingest([tmp_path / "in"], Warehouse(tmp_path / "w"), run_id="odd")
    assert (report.hands, report.rejected) == (2, 1)
    hand_no = Warehouse(tmp_path / "w").read("hands").column("hand_no").to_pylist()
    assert 1 in hand_no  # `hand = true` is not a hand number: the position in the file stands in
