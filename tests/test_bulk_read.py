"""The compiled reading of plain ``.phhs`` files against the line reader and ``tomllib``.

Every ``.phhs`` file is read both ways (``ingest.histories.bulk_read`` and ``bulk_replay``, and the
line reader with the per-hand replay) into two warehouses, which must hold the same rows, the
same rejects and the same counts. The scanner's JSON (content ids, ``extra_fields``) must be
``json``'s of ``tomllib``'s dict. Hands are written in every way a file may write them: one-line
and multi-line arrays, either quotes, comments, unknown keys, trailing zeros, CRLF, metadata, and
hands that must be refused.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.cash_corpus import ARCHIVE, write_corpus
from ingest.histories import bulk_read, bulk_replay
from ingest.histories.batches import FILE_HANDS_VARIABLE
from ingest.histories.phh import toml_value, write_hand
from ingest.histories.pipeline import ingest
from ingest.histories.record import hand_fields
from ingest.histories.rows import REQUIRED_FIELDS, SORTED_JSON, hand_id
from ingest.storage.warehouse import Warehouse
from tests.test_fast_replay import FAST_GAMES, _in_money
from tests.test_fuzz_ingest import _TIMES, _VALUES, _toml
from tests.test_properties import random_hands

FIXTURES = Path(__file__).parent / "fixtures"
ORDER = {"hands": ["hand_id"], "players": ["hand_id", "seat"], "actions": ["hand_id", "seq"],
         "rejects": ["source_file", "hand_index"]}  # fmt: skip


def _tables(root: Path) -> dict[str, list[dict]]:
    warehouse = Warehouse(root)
    out = {}
    for name, keys in ORDER.items():
        table = warehouse.read(name)
        rows = table.drop_columns(["run_id"]).to_pylist() if "run_id" in table.column_names else []
        out[name] = sorted(rows, key=lambda row: tuple(str(row[k]) for k in keys))
    return out


def both_ways(paths: list[Path], root: Path, monkeypatch) -> tuple[dict, dict]:
    """The warehouse tables and report of ingesting ``paths`` by blocks, then line by line."""
    reports = []
    for way in ("blocks", "lines"):
        with monkeypatch.context() as patch:
            if way == "lines":
                patch.setattr(bulk_read, "read_block", lambda data, name, members=None: None)
            reports.append(ingest(paths, Warehouse(root / way), run_id="t").summary())
    blocks, lines = _tables(root / "blocks"), _tables(root / "lines")
    for name in ORDER:
        assert len(blocks[name]) == len(lines[name]), name
        for got, want in zip(blocks[name], lines[name], strict=True):
            assert got == want, (name, got, want)
    assert reports[0] == {**reports[1], "run_id": reports[0]["run_id"]}
    return blocks, reports[0]


def test_fixture_files_store_the_same_rows_both_ways(tmp_path, monkeypatch):
    files = sorted(FIXTURES.rglob("*.phhs"))
    assert files
    _, report = both_ways(files, tmp_path, monkeypatch)
    assert report["hands"] > 0 and report["rejected"] > 0  # valid and invalid fixtures both count


def test_the_fixtures_are_mostly_read_as_blocks():
    block = bulk_read.read_block((FIXTURES / "money" / "tracker.phhs").read_bytes(), "tracker.phhs")
    assert block is not None and block.plain.mean() > 0.9


def _unseen_show(text: str, shown: set[int], how: str) -> str:
    """A show of cards nobody saw as real hands write it: ``pN sm ????``, or a muck (``pN sm``)."""
    parts = text.split()
    if len(parts) != 3 or parts[1] != "sm" or int(parts[0][1:]) - 1 in shown or how == "shown":
        return text
    return f"{parts[0]} sm ????" if how == "????" else f"{parts[0]} sm"


def _one_line(fields: dict) -> str:
    """A hand as online rooms write it: every array on one line, double quotes."""
    return "".join(f"{key} = {toml_value(value)}\n" for key, value in fields.items() if value is not None)


ODD_WAYS = [
    "one line", "multi-line", "single quotes", "a comment", "an unknown key", "trailing zeros",
    "whole-number floats", "metadata", "a table number", "a negative stack", "seven decimals",
    "short winnings", "a trailing comma", "tabs", "blank lines", "a fraction of a second",
]  # fmt: skip


def _written(fields: dict, way: str) -> str:
    text = write_hand(fields) if way == "multi-line" else _one_line(fields)
    if way == "single quotes" and "'" not in text:
        text = text.replace('"', "'")
    elif way == "a comment":
        text = text.replace("\nactions", "\n# a note\nactions", 1)
    elif way == "an unknown key":
        text += "my_field = 3\n"
    elif way == "trailing zeros":
        text = re.sub(r"(\d\.\d+)(?=[,\]\n])", r"\g<1>0", text)
    elif way == "whole-number floats":
        text = re.sub(r"(?<=[\[ ])(\d+)(?=[,\]])", r"\1.0", text, count=3)
    elif way == "metadata":
        text += ('venue = "Test Room"\ntable = "T 1"\nday = 29\nmonth = 2\nyear = 2010\n'
                 'time = 23:59:59\ntime_zone = "ET"\nhand = 77\n')  # fmt: skip
    elif way == "a table number":
        text += "table = 12\nday = 30\nmonth = 2\nyear = 2012\n"
    elif way == "a negative stack":
        text = text.replace("starting_stacks = [", "starting_stacks = [-", 1)
    elif way == "seven decimals":
        text = text.replace("starting_stacks = [", "starting_stacks = [0.0000001, ", 1)
    elif way == "short winnings":
        text = re.sub(r"winnings = \[[^,\]]*, ", "winnings = [", text)
    elif way == "a trailing comma":
        text = text.replace("]\n", ",]\n", 1)
    elif way == "tabs":
        text = text.replace(" = ", "\t=\t")
    elif way == "blank lines":
        text = "\n" + text.replace("\nactions", "\n\n  \nactions", 1) + "\n\n"
    elif way == "a fraction of a second":
        text += "time = 10:11:12.5\n"
    return text


@pytest.mark.parametrize(
    ("name", "structure"), [(n, s) for n, s in FAST_GAMES if n in ("holdem", "skoejarth")]
)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_cash_files_written_every_way_store_the_same_rows(
    name, structure, data, tmp_path_factory, monkeypatch
):
    texts = []
    for index in range(8):
        state = data.draw(random_hands(name, structure))
        fields = hand_fields(state, players=[f"pl{s}" for s in range(state.n)], hand=index + 1)
        fields["_contributed"] = list(state.contributed)
        shown = set(state.live_seats) if data.draw(st.booleans()) else set()
        record = data.draw(st.sampled_from(["winnings", "winnings", "finishing_stacks", "none"]))
        cents, rake = data.draw(st.sampled_from([100, 1000, 8])), data.draw(st.integers(0, 3))
        money = _in_money(fields, cents, shown, rake, record)
        del money["_contributed"]
        hidden = data.draw(st.sampled_from(["????", "muck", "shown"]))
        money["actions"] = [_unseen_show(text, shown, hidden) for text in money["actions"]]
        if data.draw(st.booleans()):
            money = {k: v for k, v in fields.items() if k != "_contributed"}  # a hand in chips
        texts.append(f"[{index + 1}]\n" + _written(money, data.draw(st.sampled_from(ODD_WAYS))))
    text = "\n".join(texts)
    if data.draw(st.integers(0, 9)) == 0:
        text = text.replace("\n", "\r\n")  # the whole file is read line by line
    root = tmp_path_factory.mktemp("both")
    (root / "cash.phhs").write_text(text)
    both_ways([root / "cash.phhs"], root, monkeypatch)


@given(st.lists(st.one_of(
    st.integers(0, 10**18),
    st.integers(0, 8).flatmap(lambda p: st.decimals(0, 10**17, places=p).map(lambda d: format(d, "f"))),
    st.text("0123456789.", min_size=1, max_size=8),
), min_size=1, max_size=5))  # fmt: skip
def test_numbers_the_scanner_reads_are_tomllibs(values):
    """Whatever number text the scanner takes as plain, its JSON (the content id's) is ``json``'s
    of ``tomllib``'s value; what it refuses is read by ``tomllib`` (which may refuse it too)."""
    items = ", ".join(str(v) for v in values)
    text = f'[1]\nvariant = "NT"\nstarting_stacks = [{items}]\nmin_bet = {values[0]}\n'
    block = bulk_read.read_block(text.encode(), "n.phhs")
    assert block is not None
    if block.plain[0]:
        fields = tomllib.loads(text.split("\n", 1)[1])
        assert block.ids[0] == hand_id(fields)
        assert json.loads(block.extra(0)) == {} and block.extra(0) == SORTED_JSON.encode(
            {k: v for k, v in fields.items() if k not in REQUIRED_FIELDS}
        )


def test_a_file_whose_lines_the_scanner_cannot_tell_apart_is_read_line_by_line():
    odd = ("[1]\r\nvariant = 'NT'\r\n", "x = 1\n[1]\nvariant = 'NT'\n", "[1] # a hand\nvariant = 'NT'\n",
           "[1]\nvariant = 'NT'\n  [2]\n")  # fmt: skip
    for text in odd:
        assert bulk_read.read_block(text.encode(), "odd.phhs") is None, text
    block = bulk_read.read_block(b'[1]\nplayers = [\n[2]\nvariant = "NT"\n', "open.phhs")
    assert block is not None and block.plain.tolist() == [False, True]  # an array left open: hand 1 alone


@pytest.mark.skipif(not ARCHIVE.exists(), reason="the Pluribus hands are not beside the project")
def test_a_cash_corpus_is_read_whole_by_blocks_with_the_same_rows(tmp_path, monkeypatch):
    """Pluribus hands written as an online room writes them (``benchmarks/cash_corpus.py``:
    money, hidden cards, mucks, ``sm ????``, winnings less a rake): every hand is stored by the
    blocks, with the line reader's rows."""
    assert write_corpus(tmp_path / "corpus", 2500, seed=7) == 3
    taken = []
    real = bulk_replay.replay_group

    def counted(*args, **kwargs):
        tables, back = real(*args, **kwargs)
        taken.append((0 if tables is None else tables[0].num_rows, len(back)))
        return tables, back

    monkeypatch.setattr(bulk_replay, "replay_group", counted)
    tables, report = both_ways(sorted((tmp_path / "corpus").glob("*.phhs")), tmp_path, monkeypatch)
    assert report["hands"] == 2500 == sum(t for t, _ in taken) and sum(b for _, b in taken) == 0
    decided = [row for row in tables["hands"] if row["record"] == "decided by the record"]
    assert decided and all(row["notes"] for row in decided)  # hidden showdowns were among them


def test_a_block_larger_than_a_file_is_written_in_parts_whose_rows_stay_together(tmp_path, monkeypatch):
    """``SCOOPLAB_INGEST_FILE_HANDS`` holds for blocks too: each hands file has at most that many
    hands, and the players and actions files of its name hold the rows of exactly its hands."""
    monkeypatch.setenv(FILE_HANDS_VARIABLE, "2")
    report = ingest([FIXTURES / "money" / "valid.phhs"], Warehouse(tmp_path), run_id="p")
    assert report.hands > 4
    hands_files = sorted((tmp_path / "hands").rglob("*.parquet"))
    assert len(hands_files) >= report.hands // 2
    for path in hands_files:
        ids = set(pq.read_table(path).column("hand_id").to_pylist())
        assert 1 <= len(ids) <= 2
        for table in ("players", "actions"):
            beside = next((tmp_path / table).rglob(path.name))
            assert set(pq.read_table(beside).column("hand_id").to_pylist()) == ids


_WORDS = st.text(st.characters(min_codepoint=32, max_codepoint=127, exclude_characters='"\\'), max_size=10)
_LITERALS = st.text(st.characters(min_codepoint=32, max_codepoint=127, exclude_characters="'"), max_size=10)
_STRINGS = st.one_of(_WORDS.map(lambda w: f'"{w}"'), _LITERALS.map(lambda w: f"'{w}'"))  # PokerKit writes 'x'
_AMOUNTS = st.one_of(st.integers(0, 10**18), st.decimals(0, 10**9, places=4).map(lambda d: format(d, "f")))
_KIND_OF_KEY = {  # mostly what the key takes, sometimes anything
    "venue": _STRINGS, "table": _STRINGS,
    "hand": st.integers(0, 10**19).map(str), "day": st.integers(0, 40).map(str),
    "ante_trimming_status": st.sampled_from(["true", "false", "True", "tru", "0"]),
    "time": _TIMES.map(lambda t: t.isoformat()),
    "players": st.lists(_STRINGS, max_size=4).map(lambda ws: "[" + ", ".join(ws) + "]"),
    "seats": st.lists(st.integers(0, 99).map(str), max_size=4).map(lambda ws: "[" + ",".join(ws) + "]"),
    "winnings": st.lists(_AMOUNTS.map(str), max_size=4).map(lambda ws: "[" + ", ".join(ws) + ",]"),
}  # fmt: skip
_ANY_VALUE = st.one_of(_VALUES, st.lists(_VALUES, max_size=3)).flatmap(_toml)


def _line(key: str) -> st.SearchStrategy[str]:
    fitting = _KIND_OF_KEY[key]
    chosen = st.integers(0, 3).flatmap(lambda k: fitting if k else _ANY_VALUE)  # mostly what it takes
    return chosen.map(lambda text: f"{key} = {text}")


_LINES = st.lists(st.sampled_from(sorted(_KIND_OF_KEY)).flatmap(_line), min_size=1, max_size=6,
                  unique_by=lambda line: line.split(" = ")[0])  # fmt: skip


@given(_LINES)
@settings(max_examples=400, deadline=None)
def test_the_scanner_takes_only_hands_whose_fields_are_tomllibs(lines):
    """Random values of every kind under the scanner's keys: a hand it calls plain has the content
    id and ``extra_fields`` of ``tomllib``'s dict."""
    text = "[1]\n" + "\n".join(lines) + "\n"
    block = bulk_read.read_block(text.encode(), "r.phhs")
    assert block is not None
    if block.plain[0]:
        fields = tomllib.loads(text.split("\n", 1)[1])
        assert block.ids[0] == hand_id(fields), text
        assert block.extra(0) == SORTED_JSON.encode(
            {k: v for k, v in fields.items() if k not in REQUIRED_FIELDS}
        )


_BASE = (
    'variant = "NT"\ncurrency = "USD"\nblinds_or_straddles = [0.5, 1]\nmin_bet = 1\n'
    'starting_stacks = [100, 100]\nactions = ["d dh p1 AcAd", "d dh p2 KsKh", "p2 f"]\n'
)
ODD_FILES = {  # found by a review: each once crashed the blocks, or stored what the line reader refuses
    "69 decimals": f"[1]\n{_BASE}[2]\n{_BASE.replace('min_bet = 1', 'min_bet = 0.' + '0' * 68 + '1')}",
    "255 decimals": f"[1]\n{_BASE.replace('[100, 100]', '[0.' + '0' * 254 + '1, 100]')}",
    "23 decimals in a record": f"[1]\n{_BASE}finishing_stacks = [0.{'0' * 22}1, 100]\n",
    "empty sections": f"[1]\n[2]\n{_BASE}[3]\n\n[4]\n",
    "a hand of comments": f"[1]\n# nothing here\n[2]\n{_BASE}",
    "a hand past the size limit": f'[1]\n{_BASE}event = "{"x" * 1_100_000}"\n[2]\n{_BASE}',
    "comments past the size limit": f"[1]\n{_BASE}" + "# a note\n" * 130_000 + f"[2]\n{_BASE}",
    "a long dotted key in a comment": f"[1]\n{_BASE}# {'.'.join('a' * 65)}\n[2]\n{_BASE}",
    "a no-break space before a header": f"[1]\n{_BASE}\u00a0[2]\n{_BASE}",
    "a no-break space in a header": f"[1 \u00a02]\n{_BASE}",
    "an ideographic space in a value": f'[1]\n{_BASE}venue = "A\u3000B"\n',
    "many tiny sections": "[a]\n" * 5_000 + f"[b]\n{_BASE}",
}


@pytest.mark.parametrize("case", ODD_FILES)
def test_odd_files_store_the_same_rows_both_ways(case, tmp_path, monkeypatch):
    (tmp_path / "odd.phhs").write_text(ODD_FILES[case])
    both_ways([tmp_path / "odd.phhs"], tmp_path, monkeypatch)


def test_a_plain_copy_of_a_hand_the_line_reader_just_stored_is_a_duplicate(tmp_path, monkeypatch):
    """A block's hands that go by the line reader are stored as they come (a file a hand here):
    a later plain copy of one is a duplicate, as it is line by line (a review found it stored twice)."""
    monkeypatch.setenv(FILE_HANDS_VARIABLE, "1")
    single = _BASE.replace('variant = "NT"', "variant = 'NT'")  # single quotes: not plain
    (tmp_path / "copies.phhs").write_text(f"[1]\n{single}[2]\n{_BASE}")
    _, report = both_ways([tmp_path / "copies.phhs"], tmp_path, monkeypatch)
    assert (report["hands"], report["duplicates"]) == (1, 1)


def _tar(path: Path, members: list[tuple[str, bytes]]) -> Path:
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def _archive_members() -> list[tuple[str, bytes]]:
    """Every one-hand fixture, then odd members: no final line break, CRLF, not UTF-8, empty, a
    multi-hand ``.phhs``, a hand the replay refuses, a copy, and a comment before the fields."""
    files = sorted(p for p in FIXTURES.rglob("*.phh"))
    members = [(f"h/{i}.phh", p.read_bytes()) for i, p in enumerate(files)]
    plain = (FIXTURES / "phh" / "dwan-ivey-2009.phh").read_bytes()
    members += [
        ("odd/no-break.phh", plain.rstrip(b"\n")),
        ("odd/crlf.phh", plain.replace(b"\n", b"\r\n")),
        ("odd/latin1.phh", plain.replace(b"players = [", b"# caf\xe9\nplayers = [")),
        ("odd/empty.phh", b""),
        ("odd/many.phhs", (FIXTURES / "money" / "tracker.phhs").read_bytes()),
        ("odd/refused.phh", plain.replace(b"actions = [", b"actions = ['p9 zz', ", 1)),
        ("odd/copy.phh", plain),
        ("odd/comment.phh", b"# a comment first\n" + plain),
    ]
    return members


def _count_blocks(monkeypatch) -> list[int]:
    """The hands each block of members the block reader takes holds (0: a file read alone), as read."""
    taken: list[int] = []
    read = bulk_read.read_block

    def counted(data, name, members=None):
        block = read(data, name, members)
        taken.append(0 if block is None or members is None else int(block.plain.sum()))
        return block

    monkeypatch.setattr(bulk_read, "read_block", counted)
    return taken


def test_archive_members_are_read_as_blocks_with_the_same_rows(tmp_path, monkeypatch):
    """One-hand members of an archive go to the block reader together (members named, hand 1 of
    each), the odd ones hand by hand: both ways store the same rows, rejects and counts."""
    archive = _tar(tmp_path / "hands.tar.gz", _archive_members())
    taken = _count_blocks(monkeypatch)
    tables, report = both_ways([archive], tmp_path, monkeypatch)
    assert sum(taken) >= 20  # the fixtures' hands went by blocks
    errors = {row["source_file"].rsplit("!", 1)[1]: row["error"] for row in tables["rejects"]}
    assert set(errors) == {"odd/empty.phh", "odd/latin1.phh", "odd/refused.phh"}, errors
    assert report["duplicates"] >= 1
    sources = {row["source_file"] for row in tables["hands"]}
    assert f"{archive}!odd/no-break.phh" not in sources  # a copy of the plain hand stored before it
    assert {row["hand_index"] for row in tables["hands"] if "!h/" in row["source_file"]} == {0}


@pytest.mark.parametrize("given", ["folder", "files"])
def test_one_hand_files_are_read_as_blocks_with_the_same_rows(given, tmp_path, monkeypatch):
    """The one-hand files of a folder (or given one after another) go to the block reader together as
    an archive's members do, each hand keeping its own file as its source, the odd ones alone: the
    same rows, rejects and counts as read file by file."""
    folder = tmp_path / "hands"
    for name, data in _archive_members():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    taken = _count_blocks(monkeypatch)
    paths = [folder] if given == "folder" else sorted(p for p in folder.rglob("*") if p.is_file())
    tables, report = both_ways(paths, tmp_path, monkeypatch)
    assert sum(taken) >= 20  # the fixtures' hands went by blocks
    rejected = {Path(row["source_file"]).relative_to(folder).as_posix() for row in tables["rejects"]}
    assert rejected == {"odd/empty.phh", "odd/latin1.phh", "odd/refused.phh"}, rejected
    sources = {row["source_file"] for row in tables["hands"]}
    assert {str(folder / "h" / f"{i}.phh") for i in range(20)} <= sources  # each its own file's
    assert {row["hand_index"] for row in tables["hands"] if row["source_file"].endswith(".phh")} == {0}
    assert report["duplicates"] >= 1


def test_an_archive_member_holding_a_header_line_is_read_alone(tmp_path, monkeypatch):
    plain = (FIXTURES / "phh" / "dwan-ivey-2009.phh").read_bytes()
    split = plain.replace(b"players = [", b"[2]\nplayers = [")
    assert bulk_read.read_block(b"[1]\n" + plain + b"\n[2]\n" + split, "x", [("a", 1), ("b", 2)]) is None
    hands = sorted((FIXTURES / "phh" / "pluribus").glob("*.phh"))[:5]
    members = [(p.name, p.read_bytes()) for p in hands[:3]] + [("split.phh", split)]
    archive = _tar(tmp_path / "split.tar.gz", members + [(p.name, p.read_bytes()) for p in hands[3:]])
    taken = []
    read = bulk_read.read_block

    def counted(data, name, members=None):
        block = read(data, name, members)
        taken.append(0 if block is None else int(block.plain.sum()))
        return block

    monkeypatch.setattr(bulk_read, "read_block", counted)
    both_ways([archive], tmp_path, monkeypatch)
    assert taken[:2] == [3, 2]  # the runs before and after it, as blocks


def test_copies_within_a_block_leave_every_array_of_its_group_row_for_row(tmp_path, monkeypatch):
    """A block of hands and their copies, interleaved: the hands the arrays take are cut from every
    per-hand array of their group alike (a cut of the indices alone misaligned them: the kernel
    read past its arrays and crashed a fuzzed ingest)."""
    hands = sorted((FIXTURES / "phh" / "pluribus").glob("*.phh"))[:4]
    texts = [p.read_text() for p in hands]
    order = [0, 0, 1, 0, 2, 1, 3, 3, 2]
    (tmp_path / "copies.phhs").write_text("".join(f"[{i}]\n{texts[k]}\n" for i, k in enumerate(order)))
    block = bulk_read.read_block((tmp_path / "copies.phhs").read_bytes(), "copies.phhs")
    (group,), _ = bulk_replay.groups_of(block, bulk_replay.units_of(block))
    chosen = np.zeros(block.hands, np.bool_)
    chosen[group.hands[::2]] = True
    cut = group.only(chosen)
    assert len(group.hands) >= 6 and cut.hands.tolist() == group.hands[::2].tolist()
    for name in ("seats", "antes", "blinds", "stacks", "winnings", "finishing", "settings", "big_blind"):
        assert np.array_equal(getattr(cut, name), getattr(group, name)[::2]), name
    _, report = both_ways([tmp_path / "copies.phhs"], tmp_path, monkeypatch)
    assert (report["hands"], report["duplicates"]) == (4, 5)
