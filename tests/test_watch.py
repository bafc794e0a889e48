"""``scooplab ingest --watch``: hands imported as a poker client appends them.

The whole-hands prefix of a site's text (``sites.complete``) and of a ``.phhs`` file, cut at every
place; the folder watch read in process (a hand half written waits, a file replaced, shrunk or
rewritten is read again from its start, nothing read twice); and the real command against a writer
process that appends PokerStars hands at random moments (half a hand, then the rest later) and is
killed with SIGKILL midway: every whole hand stored exactly once, no partial hand stored or
rejected, then SIGINT ends the watch with exit code 0 and no process left. The hands are made up
here (PokerStars' format, invented names)."""

from __future__ import annotations

import codecs
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from ingest.histories import watch as watch_module
from ingest.histories.sites.complete import complete_prefix
from ingest.histories.watch import FolderWatch, hands_of, phhs_complete_prefix
from ingest.storage.warehouse import Warehouse
from tests.patience import COMMAND_SECONDS, PROCESS_END_SECONDS, wait_until
from tests.scale_helpers import SCOOPLAB, group_members, running, start

ROOT = Path(__file__).resolve().parent.parent
SEPARATOR = "\r\n\r\n\r\n"  # what PokerStars writes after each hand
PLAYERS = ("Zoë Quill", "Bram Tock", "Ilse Varn")
GAME = "Hold'em No Limit ($0.05/$0.10 USD)"


def hand(number: int, table: str = "Ventura") -> str:
    """A PokerStars no-limit hold'em hand (CRLF lines, the last one ended): the button raises, the
    blinds fold. Its stacks follow from its number, so every hand has its own content."""
    stack = 10 + number % 7
    button, small, big = PLAYERS
    lines = [
        f"PokerStars Hand #{number}:  {GAME} - 2024/03/05 12:{number % 60:02d}:07 ET",
        f"Table '{table}' 6-max Seat #1 is the button",
        f"Seat 1: {button} (${stack} in chips)",
        f"Seat 2: {small} ($10 in chips)",
        f"Seat 3: {big} ($12.50 in chips)",
        f"{small}: posts small blind $0.05",
        f"{big}: posts big blind $0.10",
        "*** HOLE CARDS ***",
        f"{button}: raises $0.20 to $0.30",
        f"{small}: folds",
        f"{big}: folds",
        f"Uncalled bet ($0.20) returned to {button}",
        f"{button} collected $0.25 from pot",
        f"{button}: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot $0.25 | Rake $0",
        f"Seat 1: {button} (button) collected ($0.25)",
        f"Seat 2: {small} (small blind) folded before Flop",
        f"Seat 3: {big} (big blind) folded before Flop",
    ]
    return "\r\n".join(lines) + "\r\n"


# -- the whole hands of what a client has written so far ----------------------------------------


def expected_prefix(hands: list[str], written: str) -> int:
    """What ``complete_prefix`` must give for ``written``, a cut of ``hands`` each followed by
    ``SEPARATOR``, counted in characters: the hands before the last whose header line is written
    up to its colon, and that one too when the cut falls after a blank line following it but before
    the next hand's first letter (a carriage return at the end left for later: a line feed may
    follow it)."""
    starts, at = [], 0
    for text in hands:
        starts.append(at)
        at += len(text) + len(SEPARATOR)
    begun = [k for k, start in enumerate(starts) if len(written) >= start + hands[k].index(":") + 1]
    if not begun:
        return 0
    last = begun[-1]
    end = starts[last] + len(hands[last])
    if end + 2 <= len(written) <= end + len(SEPARATOR):  # its last line's end, then a blank line's
        return len(written) - written.endswith("\r")
    return starts[last] if last else 0


@pytest.mark.parametrize(
    ("codec", "mark"),
    [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("cp1252", b""), ("utf-16-le", codecs.BOM_UTF16_LE),
     ("utf-16-be", b"")],
)  # fmt: skip
def test_the_complete_prefix_of_hands_cut_at_every_place(codec, mark):
    hands = [hand(101), hand(102), hand(103)]
    text = "".join(h + SEPARATOR for h in hands)
    for cut in range(len(text) + 1):
        written = text[:cut]
        want = expected_prefix(hands, written)
        got = complete_prefix(mark + written.encode(codec))
        assert got == (want and len(mark) + len(written[:want].encode(codec))), (codec, cut)


def test_the_complete_prefix_knows_ggpoker_and_lone_carriage_returns():
    gg = "Poker Hand #RC1001: Hold'em No Limit ($0.02/$0.05) - 2024/01/01 10:00:00\nSeat 1: x\n"
    assert complete_prefix(gg.encode()) == 0
    assert complete_prefix((gg + "\n").encode()) == len(gg) + 1
    assert complete_prefix((gg + "\n\n" + gg).encode()) == len(gg) + 2
    old_mac = hand(7).replace("\r\n", "\r")
    assert complete_prefix(old_mac.encode()) == 0
    assert complete_prefix((old_mac + "\r" + old_mac).encode()) == len(old_mac.encode()) + 1


def test_the_complete_prefix_of_a_phhs_file():
    sections = ['[1]\nvariant = "NT"\n', '[2]\nvariant = "NT"\n', "[3]  # the third\nvariant = 'NT'\n"]
    text = "# a file of hands\n" + "\n".join(sections) + "\n"
    starts = [text.index(f"[{n}]") for n in (1, 2, 3)]
    for cut in range(len(text) + 1):
        begun = [k for k, start in enumerate(starts) if cut > start + 2]  # its header written to the ]
        if not begun:
            want = 0
        elif cut == starts[begun[-1]] + len(sections[begun[-1]]) + 1:
            want = cut  # the blank line after the last one written, not yet the next one's [
        else:
            want = starts[begun[-1]] if begun[-1] else 0
        assert phhs_complete_prefix(text[:cut].encode()) == want, cut


# -- the folder watch, in this process ----------------------------------------------------------


def _read(watch: FolderWatch) -> list[tuple[str, int, int | None, str | None]]:
    """One look's hands: file name, index in the file, their ``hand`` field, the reject's reason."""
    return [
        (Path(raw.source_file).name, raw.hand_index, raw.fields and raw.fields.get("hand"), raw.error)
        for raw in hands_of(watch.poll())
    ]


def test_a_half_written_hand_waits_and_every_hand_is_read_once(tmp_path):
    table = tmp_path / "table.txt"
    first, second = hand(201), hand(202)
    table.write_bytes((first + SEPARATOR + second[:150]).encode())
    watch = FolderWatch(tmp_path)
    assert _read(watch) == [("table.txt", 0, 201, None)]
    assert _read(watch) == []  # nothing new
    with table.open("ab") as file:
        file.write(second[150:].encode())
    assert _read(watch) == []  # its end written, not yet the blank line after it
    with table.open("ab") as file:
        file.write(("\r\n\r\n" + hand(203)[:10]).encode())
    assert _read(watch) == []  # the next hand's first line not yet written to its colon
    with table.open("ab") as file:
        file.write(hand(203)[10:30].encode())
    assert _read(watch) == [("table.txt", 1, 202, None)]
    (tmp_path / "later").mkdir()
    (tmp_path / "later" / "other.txt").write_bytes((hand(301) + SEPARATOR).encode("utf-16"))
    (tmp_path / "notes.txt").write_text("a note that is no hand history\n" * 1000)
    assert _read(watch) == [("other.txt", 0, 301, None)]
    with (tmp_path / "later" / "other.txt").open("ab") as file:
        file.write((hand(302) + "\r\n").encode("utf-16-le"))
    assert _read(watch) == [("other.txt", 1, 302, None)]


def test_a_reject_names_the_hand_and_its_line_in_the_whole_file(tmp_path):
    table = tmp_path / "table.txt"
    table.write_bytes((hand(401) + SEPARATOR).encode())
    watch = FolderWatch(tmp_path)
    assert len(_read(watch)) == 1
    broken = hand(402).replace("raises $0.20 to $0.30", "leaps $0.30")
    with table.open("ab") as file:
        file.write((broken + SEPARATOR).encode())
    (raw,) = list(hands_of(watch.poll()))
    assert raw.error is not None and raw.hand_index == 1
    assert raw.label == f"#402 (line {len(hand(401).splitlines()) + 4})"  # after the blank lines


def test_a_file_replaced_shrunk_or_rewritten_is_read_again_from_its_start(tmp_path):
    table = tmp_path / "table.txt"
    table.write_bytes((hand(501) + SEPARATOR + hand(502) + SEPARATOR).encode())
    watch = FolderWatch(tmp_path)
    assert [h[2] for h in _read(watch)] == [501, 502]
    replacement = tmp_path / "new.tmp"
    replacement.write_bytes((hand(501) + SEPARATOR + hand(502) + SEPARATOR + hand(503) + SEPARATOR).encode())
    os.replace(replacement, table)  # another inode, larger
    assert [h[:3] for h in _read(watch)] == [
        ("table.txt", 0, 501),
        ("table.txt", 1, 502),
        ("table.txt", 2, 503),
    ]
    table.write_bytes((hand(504) + SEPARATOR).encode())  # the same inode, smaller
    assert [h[:3] for h in _read(watch)] == [("table.txt", 0, 504)]
    with table.open("r+b") as file:  # rewritten in place (its first hand), and longer
        file.write(hand(505).encode())
        file.seek(0, os.SEEK_END)
        file.write((hand(506) + SEPARATOR).encode())
    assert [h[:3] for h in _read(watch)] == [("table.txt", 0, 505), ("table.txt", 1, 506)]
    with table.open("ab") as file:
        file.write((hand(507) + SEPARATOR).encode())
    assert [h[:3] for h in _read(watch)] == [("table.txt", 2, 507)]


def test_phh_files_are_read_once_settled_and_phhs_files_section_by_section(tmp_path):
    one = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
    one += "starting_stacks = [200, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n"
    (tmp_path / "first.phh").write_text(one)
    watch = FolderWatch(tmp_path)
    assert [h[:2] for h in _read(watch)] == [("first.phh", 0)]  # there at the start: read at once
    (tmp_path / "second.phh").write_text(one.replace("200", "300"))
    assert _read(watch) == []  # new: read once it is the same at the next look
    assert [h[:2] for h in _read(watch)] == [("second.phh", 0)]
    assert _read(watch) == []
    session = tmp_path / "session.phhs"
    session.write_text(f"[1]\n{one}\n[2]\n{one.replace('200', '400')}")
    assert [h[:2] for h in _read(watch)] == [("session.phhs", 0)]
    with session.open("a") as file:
        file.write("\n")
    assert [h[:2] for h in _read(watch)] == [("session.phhs", 1)]


def test_a_zip_archive_in_the_folder_is_read_once_settled_as_ingest_reads_it(tmp_path):
    with zipfile.ZipFile(tmp_path / "week.zip", "w") as archive:
        archive.writestr("table.txt", hand(601) + SEPARATOR + hand(602) + SEPARATOR)
    watch = FolderWatch(tmp_path)
    assert [(h[0], h[2]) for h in _read(watch)] == [("week.zip!table.txt", 601), ("week.zip!table.txt", 602)]
    assert _read(watch) == []


def test_input_where_no_hand_ends_within_a_batch_is_skipped_with_one_reject(tmp_path, monkeypatch):
    monkeypatch.setattr(watch_module, "BATCH_BYTES", 4096)
    junk = hand(601)[:200] + "".join(f"line {n} of a hand that never ends\r\n" for n in range(200))
    (tmp_path / "table.txt").write_bytes((junk + "\r\n" + hand(602) + SEPARATOR).encode())
    watch = FolderWatch(tmp_path)
    (skipped,) = _read(watch)
    assert skipped[3] == "4,096 bytes without a whole hand; skipped" and watch.behind
    read = []
    while watch.behind or not read:  # what follows comes in the next looks, batch after batch
        read += [h for h in _read(watch) if h[2]]
    assert [h[1:3] for h in read] == [(1, 602)]


def test_a_watch_stores_a_large_folder_in_batches_stops_between_them_and_a_new_one_goes_on(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(watch_module, "BATCH_BYTES", 3 * len((hand(701) + SEPARATOR).encode()))
    numbers = range(701, 711)
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "table.txt").write_bytes("".join(hand(n) + SEPARATOR for n in numbers).encode())
    warehouse, batches = Warehouse(tmp_path / "warehouse"), []

    def on_batch(report, files: int) -> None:  # the stop is asked during the second batch: it is finished
        batches.append((report.hands, report.duplicates))

    totals = watch_module.watch(tmp_path / "hands", warehouse, 0.01, lambda: len(batches) >= 2, on_batch)
    assert batches == [(3, 0), (3, 0)] and (totals.hands, totals.runs) == (6, 2)
    runs = warehouse.read("runs", ["run_id", "hands"]).to_pylist()
    assert sorted(r["hands"] for r in runs) == [3, 3]  # each batch a complete run
    assert sorted(warehouse.read("hands", ["hand_no"]).column(0).to_pylist()) == list(numbers[:6])
    batches.clear()  # a new watch reads the folder from its start: the content ids know the first six
    totals = watch_module.watch(tmp_path / "hands", warehouse, 0.01, lambda: len(batches) >= 4, on_batch)
    assert batches == [(0, 3), (0, 3), (3, 0), (1, 0)] and (totals.hands, totals.runs) == (4, 2)
    hands = warehouse.read("hands", ["hand_no", "hand_index"]).to_pylist()
    assert sorted((h["hand_no"], h["hand_index"]) for h in hands) == [(n, n - 701) for n in numbers]


# -- the command against a client writing hands --------------------------------------------------

WRITER_TABLES = ("Ventura", "Halcyon", "Marlow")


WHOLE_BEFORE_KILL = 40  # hands the writer writes whole before it stops mid-hand, to be killed there
STALLED_SECONDS = 3600.0  # how long it then waits: far past any bound of the test, which kills it


def write_hands(folder: str, seed: str, progress: str) -> None:
    """The writer process: complete table Ventura's half-written hand, then append hands to three
    tables' files (Marlow's a new file in a new folder), each in one to three writes cut at random
    places with random pauses between them, a line in ``progress`` after each whole hand; after
    ``WHOLE_BEFORE_KILL`` of them, write the first lines of one more and say ``half``, then stall."""
    rng = random.Random(int(seed))
    root = Path(folder)
    files = {name: root / f"{name}.txt" for name in WRITER_TABLES[:2]}
    files[WRITER_TABLES[2]] = root / "tables" / "later" / f"{WRITER_TABLES[2]}.txt"
    numbers = {name: 1_000_000 * (k + 1) for k, name in enumerate(WRITER_TABLES)}
    pending = hand(numbers["Ventura"] + 4, "Ventura") + SEPARATOR
    with files["Ventura"].open("ab") as file:  # the rest of the hand the test left half written
        time.sleep(rng.uniform(0, 0.05))
        file.write(pending[len(pending) // 2 :].encode())
    numbers["Ventura"] += 4
    for done in range(1, WHOLE_BEFORE_KILL + 2):
        name = rng.choice(WRITER_TABLES[:2] if done < 10 else WRITER_TABLES)
        numbers[name] += 1
        text = (hand(numbers[name], name) + SEPARATOR).encode()
        files[name].parent.mkdir(parents=True, exist_ok=True)
        with files[name].open("ab", buffering=0) as file:
            if done > WHOLE_BEFORE_KILL:  # past its first line, short of the blank line after it
                file.write(text[: rng.randrange(text.index(b"\r\n") + 2, len(text) - len(SEPARATOR) + 1)])
                with open(progress, "a") as told:
                    told.write("half\n")
                time.sleep(STALLED_SECONDS)
            cuts = sorted(rng.sample(range(1, len(text)), rng.randint(0, 2)))
            for begin, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
                file.write(text[begin:end])
                time.sleep(rng.uniform(0, 0.03))
        with open(progress, "a") as told:
            told.write(f"{done}\n")


def whole_hands(folder: Path) -> dict[int, tuple[str, int]]:
    """The hands written whole (each followed by a blank line) in the folder's files: their number,
    with their file and their place in it."""
    found = {}
    for path in folder.rglob("*.txt"):
        text = path.read_bytes().decode()
        for index, number in enumerate(int(n) for n in re.findall(r"(?m)^PokerStars Hand #(\d+):", text)):
            table = re.search(rf"#{number}:.*\r\nTable '(\w+)'", text)
            if table and hand(number, table.group(1)) + "\r\n" in text:
                found[number] = (str(path), index)
    return found


def stored_so_far(out: Path) -> int:
    """The hands the watch says it has stored (its JSON lines)."""
    lines = out.read_text().splitlines() if out.exists() else []
    return sum(json.loads(line)["hands"] for line in lines if line.startswith("{"))


def watch_command(folder: Path, data: Path, *options: str) -> list[str]:
    return [*SCOOPLAB, "ingest", "--watch", str(folder), "--data", str(data), *options]


def writer_command(folder: Path, progress: Path) -> list[str]:
    code = "import sys; from tests.test_watch import write_hands; write_hands(*sys.argv[1:])"
    return [sys.executable, "-c", code, str(folder), "7", str(progress)]


def test_the_watch_stores_every_whole_hand_once_as_a_killed_writer_appends_them(tmp_path):
    folder, data = tmp_path / "hands", tmp_path / "warehouse"
    folder.mkdir()
    first = "".join(hand(1_000_001 + k, "Ventura") + SEPARATOR for k in range(3))
    half = hand(1_000_004, "Ventura") + SEPARATOR
    (folder / "Ventura.txt").write_bytes((first + half[: len(half) // 2]).encode())
    out, err, progress = tmp_path / "out.jsonl", tmp_path / "err.txt", tmp_path / "progress"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        watcher = start(watch_command(folder, data, "--every", "0.05", "--format", "json"), cwd=ROOT,
                        stdout=stdout, stderr=stderr)  # fmt: skip
    watcher_ended = lambda: watcher.poll() is not None  # noqa: E731
    with running(watcher):
        assert wait_until(lambda: stored_so_far(out) >= 3, unless=watcher_ended), err.read_text()
        writer = start(writer_command(folder, progress), cwd=ROOT)
        with running(writer):
            half = lambda: progress.exists() and "half" in progress.read_text()  # noqa: E731
            # the watch stores hands as the writer writes them, and the writer is killed mid-hand
            assert wait_until(lambda: half() and stored_so_far(out) > 3,
                              unless=lambda: writer.poll() is not None or watcher_ended())  # fmt: skip
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait(timeout=PROCESS_END_SECONDS)
        expected = whole_hands(folder)
        assert len(expected) == 4 + WHOLE_BEFORE_KILL  # the test's and the writer's whole hands
        assert 1_000_004 in expected  # the one half written before the watch began
        for k in (1, 2):  # the second is stored by a look that began after the kill
            (folder / f"sentinel-{k}.txt").write_bytes((hand(9_000_000 + k) + SEPARATOR).encode())
            expected[9_000_000 + k] = (str(folder / f"sentinel-{k}.txt"), 0)
            count = len(expected)
            assert wait_until(lambda: stored_so_far(out) >= count, unless=watcher_ended), err.read_text()  # noqa: B023
        watcher.send_signal(signal.SIGINT)
        assert watcher.wait(timeout=COMMAND_SECONDS) == 0, err.read_text()
    assert wait_until(lambda: not group_members(watcher.pid) + group_members(writer.pid), PROCESS_END_SECONDS)
    hands = Warehouse(data).read("hands", ["hand_no", "source_file", "hand_index"]).to_pylist()
    assert sorted(h["hand_no"] for h in hands) == sorted(expected)  # each whole hand once, no partial one
    assert {h["hand_no"]: (h["source_file"], h["hand_index"]) for h in hands} == expected
    assert Warehouse(data).read("rejects").num_rows == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sum(line["hands"] for line in lines) == len(expected)
    assert sum(line["duplicates"] + line["rejected"] for line in lines) == 0
    assert "stopped: " in err.read_text() and "rejected:" not in err.read_text()


def test_sigterm_stops_an_idle_watch_with_exit_code_0(tmp_path):
    (tmp_path / "hands").mkdir()
    err = tmp_path / "err.txt"
    with err.open("wb") as stderr:
        watcher = start(watch_command(tmp_path / "hands", tmp_path / "warehouse"), cwd=ROOT, stderr=stderr)
    with running(watcher):
        assert wait_until(lambda: "watching " in err.read_text(), unless=lambda: watcher.poll() is not None)
        watcher.send_signal(signal.SIGTERM)
        assert watcher.wait(timeout=COMMAND_SECONDS) == 0, err.read_text()
    assert "stopped: 0 hands stored in 0 runs" in err.read_text()


@pytest.mark.parametrize(
    ("given", "said"),
    [([], "no such folder"), (["--run-id", "x"], "--run-id"), (["a.phhs"], "files to ingest")],
)
def test_watch_refuses_what_it_cannot_take_in_one_line(tmp_path, given, said):
    folder = tmp_path if given else tmp_path / "none"
    command = [*watch_command(folder, tmp_path), *given]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=COMMAND_SECONDS)
    assert result.returncode == 2 and said in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_open_hand_history_file_is_read_object_by_object_as_it_grows(tmp_path):
    objects = (Path(__file__).parent / "fixtures" / "sites" / "ohh-cash-holdem.ohh").read_text().strip()
    first = objects.split("\n\n")[0]
    assert (
        complete_prefix(first.encode()) == 0 and complete_prefix((first + "\n\n").encode()) == len(first) + 2
    )
    hands = tmp_path / "export.ohh"
    hands.write_text(first[:-40])
    watch = FolderWatch(tmp_path)
    assert _read(watch) == []  # cut mid-object: it waits
    with hands.open("a") as file:
        file.write(first[-40:] + "\n\n")
    ((name, index, _, error),) = _read(watch)
    assert (name, index, error) == ("export.ohh", 0, None)


SITE_FIXTURES = Path(__file__).parent / "fixtures" / "sites"


@pytest.mark.parametrize("prefix", ["winamax", "pacific", "partypoker", "fulltilt", "ongame", "absolute"])
def test_every_text_formats_hands_are_found_as_they_grow_with_either_line_end(prefix):
    from ingest.histories.sites import site_hands
    from ingest.histories.sites.complete import hand_starts
    from ingest.histories.sites.text import normalized_text

    for path in sorted(SITE_FIXTURES.glob(f"{prefix}-*.txt")):
        text = normalized_text(path.read_bytes()).strip("\n") + "\n\n"
        count = sum(1 for _ in site_hands(text.encode()))
        for written in (text, text.replace("\n", "\r\n")):
            data = written.encode("utf-8")
            assert len(hand_starts(data)) == count, (path.name, written[:20])
            assert complete_prefix(data) == len(data)  # a blank line ends the last hand: all whole
            last = hand_starts(data)[-1]
            assert complete_prefix(data[: len(data) - 3]) == (last if count > 1 else 0)  # cut: it waits


def test_an_ipoker_session_is_read_whole_once_settled_and_again_as_it_grows(tmp_path):
    session = (SITE_FIXTURES / "ipoker-cash-holdem.xml").read_text(encoding="utf-8")
    whole = session[: session.rindex("<game ")]  # (the fixture's last game is cut off: left out)
    part = whole[: whole.rindex("<game ")]  # the client has written all but its last game
    games = whole.count("</game>")
    assert games >= 2
    path = tmp_path / "session.xml"
    path.write_text(part)
    watch = FolderWatch(tmp_path)
    first = _read(watch)
    assert len(first) == games - 1 and all(error is None for *_, error in first)
    assert _read(watch) == []  # unchanged: not read again
    path.write_text(whole)
    assert _read(watch) == []  # changed since the last look: it waits until it settles
    again = _read(watch)
    assert len(again) == games and all(error is None for *_, error in again)
