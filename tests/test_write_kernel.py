"""The compiled PHH writer against the text the rows were written with before it: for every game,
structure and table size here, each simulated hand's PHH text is the same string byte for byte as
the readable writer below (numpy string arrays, one action a line) gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.compiled import betting_kernel as bk
from engine.compiled import hand_state as hs
from engine.rules.games import GAMES, get_game
from engine.rules.games.base import Structure
from ingest.generation.betting_sim import batch_tables, new_hand, play_batch
from ingest.histories import write_kernel
from ingest.histories.phh import toml_value, write_hand
from ingest.histories.record import hand_fields
from ingest.storage.array_rows import card_texts, settle

TURNED = Path(__file__).parent / "fixtures" / "variants" / "turned-discard-board.toml"


def readable_texts(game, batch, stacks, names, *, first, stake, options, structure):
    """Each hand's PHH text built with string arrays, as ``write_hand(hand_fields(state))`` writes it."""
    reference = new_hand(game, len(names), stake, options, structure, batch.big_blind)
    header_fields = hand_fields(reference)
    for key in ("actions", "finishing_stacks"):
        header_fields.pop(key, None)
    header = write_hand(header_fields)
    rec = batch.records
    seat, kind, amount, board = rec[:, hs.R_SEAT], rec[:, hs.R_KIND], rec[:, hs.R_AMOUNT], rec[:, hs.R_BOARD]
    cards = card_texts(batch.record_cards, game)
    player = np.array([f"p{s + 1}" for s in range(len(names))] + [""], dtype=object)[seat]
    text = player + np.array(["", " f", " cc", " cc", " cbr ", " cbr ", " sd ", ""], dtype=object)[kind]
    raising = (kind == bk.BET) | (kind == bk.RAISE)
    text[raising] += amount[raising].astype(str).astype(object)
    text[kind == bk.DISCARD] += cards[kind == bk.DISCARD]
    hole_deals = (kind == bk.DEAL) & (board < 0)
    text[hole_deals] = "d dh " + player[hole_deals] + " " + cards[hole_deals]
    first_boards = np.flatnonzero((kind == bk.DEAL) & (board == 0))
    joined = cards[first_boards]
    for b in range(1, len(game.board_names)):
        joined = joined + "/" + cards[first_boards + b]
    text[first_boards] = "d db " + joined
    written = (rec[:, hs.R_AUTOMATIC] == 0) & ~((kind == bk.DEAL) & (board > 0))
    lines = np.where(written, '  "' + text + '",\n', "").tolist()
    starts = batch.hand_start.tolist()
    return [
        f"{header}actions = [\n{''.join(lines[starts[h] : starts[h + 1]])}]\n"
        f"finishing_stacks = {toml_value(stacks[h].tolist())}\nhand = {first + h + 1}\n"
        f"players = {toml_value(names)}\n"
        for h in range(batch.count)
    ]


CASES = [
    ("holdem", 6, Structure.NO_LIMIT, 1_000),
    ("holdem", 10, Structure.FIXED_LIMIT, 30),
    ("cry-me-a-river", 5, Structure.POT_LIMIT, 1_000),
    ("scarney", 6, Structure.NO_LIMIT, 500),
    ("skoejarth", 4, Structure.NO_LIMIT, 1_000),
    (str(TURNED), 7, Structure.NO_LIMIT, 101),
]


@pytest.mark.parametrize(("name", "players", "structure", "stake"), CASES)
def test_compiled_texts_are_the_readable_writers_byte_for_byte(name, players, structure, stake):
    game = GAMES[name] if name in GAMES else get_game(name)
    options = game.resolve_options({})
    policies = ["tag", "random", "station"]
    words = np.random.default_rng(players).integers(0, 2**64, size=4, dtype=np.uint64)
    batch = play_batch(game, players, stake, options, policies, words, 400, structure=structure)
    named = {"run_id": "k", "shard": 0, "first": 12_345, "stake": stake, "options": options}
    hands, _, _ = batch_tables(game, batch, **named, policies=policies, structure=structure)
    stacks = settle(game, batch.hands, options).stacks
    names = [f"{policies[s % 3]}-{s + 1}" for s in range(players)]
    expected = readable_texts(game, batch, stacks, names, first=12_345, stake=stake, options=options,
                              structure=structure)  # fmt: skip
    got = hands.column("phh").to_pylist()
    assert len(got) == 400
    for h, (ours, theirs) in enumerate(zip(got, expected, strict=True)):
        assert ours == theirs, h
    written = "".join(got)
    assert " cbr " in written and " f" in written  # the hands bet and fold
    if game.discard_board is not None:
        assert " sd " in written


@given(st.integers(-(2**63) + 1, 2**63 - 1))
def test_integers_are_written_as_str_writes_them(value):
    out = np.zeros(24, np.uint8)
    used = write_kernel._put_int(out, 0, np.int64(value))
    assert bytes(out[:used]).decode() == str(value)


def test_records_the_kernel_cannot_write_are_refused():
    game = GAMES["holdem"]
    fixed = write_kernel.fixed_text("variant = 'NT'\n", "players = []\n")
    cards, records = write_kernel.card_table(game.deck), np.zeros((3, hs.RECORD_WIDTH), np.int64)
    record_cards, finishing = np.full((3, 6), -1, np.int8), np.zeros((1, 2), np.int64)
    ok = write_kernel.hand_texts(records, record_cards, np.array([0, 3]), finishing, 0, fixed, cards, 1)
    assert ok.to_pylist()[0].startswith("variant = 'NT'\nactions = [\n")
    with pytest.raises(ValueError, match="record starts"):
        write_kernel.hand_texts(records, record_cards, np.array([0, 4]), finishing, 0, fixed, cards, 1)
    records[1, hs.R_KIND] = hs.SHOW
    with pytest.raises(ValueError, match="no show or muck"):
        write_kernel.hand_texts(records, record_cards, np.array([0, 3]), finishing, 0, fixed, cards, 1)
    records[1, hs.R_KIND], records[2, hs.R_KIND], records[2, hs.R_BOARD] = bk.DEAL, bk.DEAL, 0
    with pytest.raises(ValueError, match="other boards"):
        write_kernel.hand_texts(records, record_cards, np.array([0, 3]), finishing, 0, fixed, cards, 3)
