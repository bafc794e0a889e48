"""The compiled PokerStars reader (``ingest.histories.sites.stars_kernel``) against the Python reader.

Every hand the kernel writes must be, byte for byte, the PHH text of the Python reader's fields
(``phh.write_hand(sites.site_hands' fields)``); every hand it leaves must be read by the Python
reader as before; a file must store the same rows, rejects and counts with and without it. Hands
come from the fixtures, from random play (``benchmarks/stars_corpus.py``) and from random damage
done to both.
"""

from __future__ import annotations

import json
import random
import re
import tarfile
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.stars_corpus import corpus, write_corpus
from ingest.histories import bulk_read, phh, sites
from ingest.histories.phh import iter_hands, write_hand
from ingest.histories.pipeline import ingest
from ingest.histories.replay import replay
from ingest.histories.sites import stars_cache, stars_family, stars_headers, stars_kernel
from ingest.histories.sites.text import normalized_text
from ingest.storage.warehouse import Warehouse

FIXTURES = Path(__file__).parent / "fixtures" / "sites"
ORDER = {"hands": ["hand_id"], "players": ["hand_id", "seat"], "actions": ["hand_id", "seq"],
         "rejects": ["source_file", "hand_index"]}  # fmt: skip
STRADDLE = """PokerStars Hand #250000000301:  Hold'em No Limit ($0.05/$0.10 USD) - 2025/03/14 21:00:00 ET
Table 'Alcyone III' 6-max Seat #1 is the button
Seat 1: river_rat ($10 in chips)
Seat 2: MapleMuck ($10 in chips)
Seat 3: tilted_teapot ($10 in chips)
MapleMuck: posts small blind $0.05
tilted_teapot: posts big blind $0.10
river_rat: straddle $0.20
*** HOLE CARDS ***
MapleMuck: folds
tilted_teapot: folds
Uncalled bet ($0.10) returned to river_rat
river_rat collected $0.25 from pot
*** SUMMARY ***
Total pot $0.25 | Rake $0
Seat 1: river_rat (button) collected ($0.25)
"""


def sections(read: stars_kernel.SiteRead) -> list[str]:
    """Each hand's section of the kernel's ``.phhs`` text (without its ``[n]`` line)."""
    return re.split(r"^\[\d+\]\n", read.sections.decode(), flags=re.M)[1:]


def checked(data: bytes) -> stars_kernel.SiteRead | None:
    """The kernel's reading of a file, each hand it wrote held against the Python reader's."""
    read = stars_kernel.read_site(data, write_hand)
    if read is None:
        return None
    assert read.overruns == 0  # no hand's text passed the room counted for it
    texts = sections(read)
    assert len(texts) == len(read.status) == len(list(sites.site_hands(data)))
    for h, text in enumerate(texts):
        if read.taken(h):
            label, _, fields, error = read.hand(h)
            assert error is None and fields is not None, (h, label, error)
            assert text == write_hand(fields), (h, label)
            assert read.label(h) == label
    return read


@cache
def played(hands: int = 240, seed: int = 5) -> tuple[bytes, ...]:
    """Files of random play (``benchmarks/stars_corpus.py``), cash and tournaments, as bytes."""
    return tuple(("\n\n\n".join(texts) + "\n").encode() for texts in corpus(hands, seed, per_file=60))


def test_every_hand_the_kernel_writes_is_the_python_readers_text():
    for path in sorted(FIXTURES.glob("*.txt")):
        checked(path.read_bytes())
    for data in played():
        read = checked(data)
        assert read is not None and read.status.tolist() == [stars_kernel.TAKEN] * len(read.status)


def test_a_board_game_fixture_is_written_by_the_kernel_and_a_stud_one_left():
    cash = checked((FIXTURES / "stars-cash-nlhe.txt").read_bytes())
    razz = checked((FIXTURES / "stars-razz.txt").read_bytes())
    assert cash is not None and all(cash.taken(h) for h in range(len(cash.status)))
    assert razz is not None and not razz.taken(0) and razz.why_left(0) == "its game or header"


def _tables(root: Path) -> dict[str, list[dict]]:
    warehouse = Warehouse(root)
    out = {}
    for name, keys in ORDER.items():
        table = warehouse.read(name)
        rows = table.drop_columns(["run_id"]).to_pylist() if "run_id" in table.column_names else []
        out[name] = sorted(rows, key=lambda row: tuple(str(row[k]) for k in keys))
    return out


def both_ways(paths: list[Path], root: Path, monkeypatch) -> dict:
    """The tables, report and reject lines of ingesting ``paths`` with the kernel and without."""
    runs = {}
    for way in ("kernel", "python"):
        with monkeypatch.context() as patch:
            if way == "python":
                patch.setattr(phh, "_site_block", lambda data, name, blocks: None)
            lines: list[str] = []
            report = ingest(paths, Warehouse(root / way), run_id="t", on_reject=lines.append).summary()
            runs[way] = (_tables(root / way), report, sorted(lines))
    (kernel, report, lines), (python, python_report, python_lines) = runs["kernel"], runs["python"]
    for name in ORDER:
        assert len(kernel[name]) == len(python[name]), name
        for got, want in zip(kernel[name], python[name], strict=True):
            assert got == want, (name, got, want)
    assert report == python_report and lines == python_lines
    return report


def test_files_store_the_same_rows_with_and_without_the_kernel(tmp_path, monkeypatch):
    folder = tmp_path / "files"
    folder.mkdir()
    for path in FIXTURES.glob("*.txt"):
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "straddle.txt").write_text(STRADDLE + "\n\n" + (FIXTURES / "stars-cash-nlhe.txt").read_text())
    played_files = write_corpus(folder / "played", 200, seed=7, per_file=50)
    archive = tmp_path / "hands.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:  # a site's file in an archive goes the same way
        for path in [*played_files[:2], FIXTURES / "stars-tournament-ko.txt"]:
            tar.add(path, arcname=f"in/{path.name}")
    report = both_ways([folder, archive], tmp_path, monkeypatch)
    assert report["hands"] >= 200 and report["duplicates"] >= 100


def test_a_hand_the_kernel_leaves_is_read_by_the_python_reader_as_before(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text((FIXTURES / "stars-cash-nlhe.txt").read_text() + "\n\n" + STRADDLE)
    before = list(iter_hands([path]))
    (block,) = list(iter_hands([path], blocks=bulk_read.read_block))
    assert isinstance(block, bulk_read.Block) and block.hands == len(before) == 3
    assert block.plain.tolist() == [True, True, False]  # the straddle is the Python reader's
    for h, raw in enumerate(before):
        got = block.raw(h)
        assert (got.fields, got.error, got.text, got.label) == (raw.fields, raw.error, raw.text, raw.label)
        assert (got.source_file, got.hand_index) == (raw.source_file, raw.hand_index)
    read = stars_kernel.read_site(path.read_bytes(), write_hand)
    assert read is not None and read.why_left(2) == "a line: river_rat: straddle $0.20"


# -- random damage: the kernel never fails, and what it writes is the Python reader's --------------


@cache
def _whole_hands() -> tuple[bytes, ...]:
    texts = [t.encode() for data in played(60, seed=11) for t in data.decode().split("\n\n\n") if t.strip()]
    for path in [*sorted(FIXTURES.glob("stars-*.txt")), FIXTURES / "gg-cash-and-tournament.txt"]:
        texts += [normalized_text(path.read_bytes()).encode()]
    return tuple(texts)


CHANGES = ["cut", "byte", "insert", "drop line", "double line", "number", "name"]
BYTES = [0, 9, 13, 34, 39, 40, 41, 44, 46, 48, 57, 91, 92, 93, 124, 0x80, 0xC2, 0xE2, 0xFF]
INSERTS = [b" ", b"\n", b"\n\n", b"$", b"\xe2\x82\xac", b"\xc2\xa0", b"[Ah]", b" and is all-in", b"9" * 25,
           b"\xe3\x80\x80", b"*** "]  # fmt: skip
NUMBERS = [b"0", b"99999999999999999999", b"123456789012345678", b"0.000001"]


@st.composite
def damaged(draw) -> bytes:
    """A hand (or a fixture file) with a few random changes: cut short, a byte changed, a line
    dropped or doubled, a number made huge, a quote or backslash in a name, odd bytes put in."""
    data = bytearray(draw(st.sampled_from(_whole_hands())))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        change = draw(st.sampled_from(CHANGES))
        if change == "cut":
            del data[at:]
        elif change == "byte" and data:
            data[at] = draw(st.sampled_from([*BYTES, draw(st.integers(0, 255))]))
        elif change == "insert":
            data[at:at] = draw(st.sampled_from(INSERTS))
        elif change in ("drop line", "double line"):
            lines = bytes(data).split(b"\n")
            k = at % len(lines)
            lines[k : k + 1] = [] if change == "drop line" else [lines[k], lines[k]]
            data = bytearray(b"\n".join(lines))
        elif change == "number":
            found = list(re.finditer(rb"\d+", bytes(data)))
            if found:
                match = found[at % len(found)]
                data[match.start() : match.end()] = draw(st.sampled_from(NUMBERS))
        else:
            found = list(re.finditer(rb"(?<=Seat \d: )\S+", bytes(data)))
            if found:
                match = found[at % len(found)]
                name = bytes(data[match.start() : match.end()])
                odd = draw(st.sampled_from([b'"', b"\\", b"\t"]))
                data = bytearray(bytes(data).replace(name, name[:1] + odd + name[1:]))
    return bytes(data)


@given(damaged())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_damaged_hands_never_fail_the_kernel_and_each_is_written_right_or_left(data):
    try:
        reference = list(sites.site_hands(data))  # the Python reader on the whole file
    except Exception:  # (it may fail on damaged input: then each hand is held alone below)
        reference = None
    read = stars_kernel.read_site(data, write_hand)
    if read is None:
        return
    assert read.overruns == 0
    texts = sections(read)
    assert len(texts) == len(read.status)
    assert reference is None or len(reference) == len(texts)
    for h, text in enumerate(texts):
        if read.taken(h):
            label, _, fields, error = read.hand(h)
            assert fields is not None and error is None and text == write_hand(fields), (h, label, error)


# -- the bytes read: as the Python reader decodes them ---------------------------------------------


_PIECES = [b"PokerStars Hand #1: ", b"Seat 1: a ($1 in chips)", b"\n", b"\r\n", b"\r", b" ", b"\xef\xbb\xbf",
           "€".encode(), "€".encode("cp1252"), b"\xc2\xa0", b"\xe2\x80\xaf", b"\xed\xa0\x80",
           b"\xf4\x90\x80\x80", b"\xe0\x80\x80", b"\xc0\xaf", b"\x80", b"\x00", "é".encode(), "😀".encode(),
           b"{"]  # fmt: skip


@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.sampled_from(["utf-8", "utf-16", "none"]))
@settings(max_examples=300, deadline=None)
def test_the_kernel_reads_the_bytes_the_python_reader_decodes(pieces, encoding):
    data = b"".join(pieces)
    if encoding == "utf-16":
        data = data.decode("utf-8", "replace").encode("utf-16")
    elif encoding == "none":
        data = data.decode("utf-8", "replace").encode("utf-8")
    text, buf, _, _ = stars_kernel._hands_of(data)
    assert text == normalized_text(data).encode()
    assert np.array_equal(buf, np.frombuffer(text, np.uint8))


# -- what the kernel relies on ----------------------------------------------------------------------


def test_the_kernel_is_used_only_while_the_formats_are_those_it_finds(monkeypatch):
    data = (FIXTURES / "stars-cash-nlhe.txt").read_bytes()
    assert stars_headers.formats_known() and stars_kernel.read_site(data, write_hand) is not None
    other = ("Other", re.compile(r"^Other #(\d+):", re.M), None)
    monkeypatch.setattr(sites, "FORMATS", (*sites.FORMATS, other))  # another format after its own
    assert stars_headers.formats_known() and stars_kernel.read_site(data, write_hand) is not None
    mixed = data + b"\n\nOther #7: a hand of another format\n"
    assert stars_kernel.read_site(mixed, write_hand) is None  # the Python reader finds both formats'
    monkeypatch.setattr(sites, "FORMATS", (other, *sites.FORMATS))  # before its own
    assert not stars_headers.formats_known() and stars_kernel.read_site(data, write_hand) is None


def test_a_file_holding_another_formats_hand_is_left_to_the_python_reader():
    stars = (FIXTURES / "stars-cash-nlhe.txt").read_bytes()
    ongame = next(FIXTURES.glob("ongame-*.txt")).read_bytes()
    assert stars_kernel.read_site(stars + b"\n\n" + ongame, write_hand) is None
    hands = list(sites.site_hands(stars + b"\n\n" + ongame))
    venues = {fields["venue"] for _, _, _, fields, _ in hands if fields}
    assert venues == {"PokerStars", "Ongame"}


def test_a_line_the_python_reader_no_longer_ignores_is_left_to_it(monkeypatch):
    data = (FIXTURES / "stars-cash-nlhe.txt").read_bytes()
    data = data.replace(b"*** HOLE CARDS ***\n", b"*** HOLE CARDS ***\nQuintessa has timed out\n", 1)
    assert checked(data).taken(0)
    monkeypatch.setattr(stars_family, "_IGNORED", re.compile('(said, ")'))
    read = stars_kernel.read_site(data, write_hand)
    assert not read.taken(0) and read.why_left(0) == "a line: Quintessa has timed out"


def test_the_cache_stamp_follows_every_compiled_source(tmp_path):
    for name in stars_cache.SOURCES:
        (tmp_path / name).write_bytes((stars_cache.HERE / name).read_bytes())
    stamps = {stars_cache.sources_stamp(tmp_path)}
    assert stamps == {stars_cache.sources_stamp()}
    for name in stars_cache.SOURCES:
        (tmp_path / name).write_text((tmp_path / name).read_text() + "\n# changed\n")
        stamps.add(stars_cache.sources_stamp(tmp_path))
    assert len(stamps) == len(stars_cache.SOURCES) + 1
    compiled = [f for f in vars(stars_kernel).values() if hasattr(f, "_cache") and hasattr(f, "py_func")]
    assert compiled and all(isinstance(f._cache._impl.locator, stars_cache.SourcesLocator) for f in compiled)


def test_the_sections_are_a_block_whose_site_hands_keep_their_labels(tmp_path):
    path = tmp_path / "cash.txt"
    path.write_bytes((FIXTURES / "stars-cash-nlhe.txt").read_bytes())
    (block,) = list(iter_hands([path], blocks=bulk_read.read_block))
    assert block.plain.all() and [block.raw(h).label for h in range(2)] == [
        "#250000000001 (line 1)", "#250000000002 (line 41)"]  # fmt: skip
    assert json.loads(block.extra(0)) == {k: v for k, v in block.raw(0).fields.items() if k not in (
        "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")} | {
        "time": "20:15:02"}  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_is_read_whole_by_the_kernel_and_stored_with_no_reject(tmp_path, seed):
    paths = write_corpus(tmp_path / "played", 150, seed=seed, per_file=75)
    report = ingest(paths, Warehouse(tmp_path / "wh"), run_id="t").summary()
    assert (report["hands"], report["rejected"]) == (150, 0)
    rng = random.Random(seed)
    read = stars_kernel.read_site(rng.choice(paths).read_bytes(), write_hand)
    assert read is not None and all(read.taken(h) for h in range(len(read.status)))


SHORT_BLIND_CALLED = """PokerStars Hand #250000000071:  Hold'em No Limit ($1/$2 USD) - 2025/03/14 20:15:02 ET
Table 'Alcyone IV' 6-max Seat #1 is the button
Seat 1: river_rat ($50.00 in chips)
Seat 2: MapleMuck ($1.60 in chips)
river_rat: posts small blind $1
MapleMuck: posts big blind $1.60 and is all-in
*** HOLE CARDS ***
river_rat: calls $1
Uncalled bet ($0.40) returned to river_rat
*** FLOP *** [Kh 7c 2d]
*** TURN *** [Kh 7c 2d] [9s]
*** RIVER *** [Kh 7c 2d 9s] [3c]
*** SHOW DOWN ***
river_rat: shows [Ah Ad] (a pair of Aces)
MapleMuck: shows [Qs Jd] (high card Ace)
river_rat collected $3.20 from pot
*** SUMMARY ***
Total pot $3.20 | Rake $0
Board [Kh 7c 2d 9s 3c]
Seat 1: river_rat (button) (small blind) showed [Ah Ad] and won ($3.20)
Seat 2: MapleMuck (big blind) showed [Qs Jd] and lost


"""


def test_a_call_of_the_whole_big_blind_nobody_can_answer_is_the_same_call_both_ways():
    """The small blind calls the whole $2 over a big blind all in for $1.60, heads-up: nobody is left
    to call a bet, so it is a call (the $0.40 comes back), as the Python reader writes it."""
    data = SHORT_BLIND_CALLED.encode()
    read = checked(data)  # the kernel writes it as the Python reader does, or leaves it to it
    ((_, _, _, fields, error),) = list(sites.site_hands(data))
    assert error is None and "p2 cc" in fields["actions"] and not any("cbr" in a for a in fields["actions"])
    assert read is not None and not read.taken(0)  # left to the Python reader
    replay(fields)
