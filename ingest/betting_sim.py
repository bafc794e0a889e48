"""Betting-mode simulation: hands played by built-in policies, stored like replayed hands.

Each hand has blinds of 1% and 2% of the stack (Skœjarth: antes and the starting
bet), stacks of ``stake`` chips and a policy per seat (the run's policies,
repeated round the table). The compiled ``engine.betting_kernel.play_hands``
deals and bets a chunk of hands; the game's own showdown rule settles the pots;
the rows are then built column by column, with the hand's PHH text, so
``scooplab export`` writes it back and replaying it gives the same rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from engine import betting_kernel as bk
from engine import betting_showdown as bs
from engine.evaluate import HIGH_CATEGORIES, SKOEJARTH_CATEGORIES
from engine.games import variant_code
from engine.games.base import GameSpec, ShowdownInput, Structure
from engine.pots import pots_with_antes
from engine.state import HandState
from engine.tables import SCARNEY_POINTS, SKOEJARTH_TABLES, STANDARD_TABLES
from ingest.phh import toml_value, write_hand
from ingest.schema import ACTIONS, HANDS, PLAYERS, SEAT_ARRAYS
from ingest.simulation import BETTING_CHUNK
from ingest.warehouse import Warehouse

ENDINGS = ("showdown", "uncontested", "everyone_dead")


def blinds_of(stake: int) -> tuple[int, int]:
    """Small and big blind (or ante and starting bet): 1% and 2% of the stack, at least 1 and 2."""
    small = max(1, stake // 100)
    return small, 2 * small


def new_hand(game: GameSpec, players: int, stake: int, options: dict) -> HandState:
    """A betting-mode hand as the state machine plays it (the reference ``play_hands`` follows)."""
    small, big = blinds_of(stake)
    if game.starting_bet:
        return HandState(game, Structure.NO_LIMIT, [stake] * players, antes=[small] * players,
                         starting_bet=big, options=options)  # fmt: skip
    blinds = [small, big] + [0] * (players - 2)
    return HandState(game, Structure.NO_LIMIT, [stake] * players, blinds=blinds, min_bet=big, options=options)


@dataclass
class Batch:
    """What ``play_hands`` returns for a chunk of hands (arrays indexed by hand, seat)."""

    count: int
    records: np.ndarray  # (actions, 7): street, seat, kind, amount, board, automatic, card count
    record_cards: np.ndarray  # (actions, 6)
    hand_start: np.ndarray  # (count + 1,)
    ending: np.ndarray
    stacks: np.ndarray
    contributed: np.ndarray
    antes_paid: np.ndarray
    folded: np.ndarray
    dead: np.ndarray
    won: np.ndarray
    dealt: np.ndarray
    dealt_n: np.ndarray
    hole: np.ndarray
    hole_n: np.ndarray
    discarded: np.ndarray
    discarded_n: np.ndarray
    boards: np.ndarray
    board_n: np.ndarray


def play_batch(game: GameSpec, players: int, stake: int, options: dict, policies: list[str],
               seed_words: np.ndarray, count: int) -> Batch:  # fmt: skip
    """Play ``count`` hands in compiled code from a xoshiro256** state (updated in place)."""
    reference = new_hand(game, players, stake, options)  # the forced bets, as the state machine sets them
    n, n_boards = players, len(game.board_names)
    streets = game.streets
    width = bk.MAX_CARDS
    cap = -1
    if game.max_raises_option is not None:
        cap = 1 + int(reference.options[game.max_raises_option])
    arrays = {
        "ending": np.zeros(count, np.int8),
        "stacks": np.zeros((count, n), np.int64),
        "contributed": np.zeros((count, n), np.int64),
        "antes_paid": np.zeros((count, n), np.int64),
        "folded": np.zeros((count, n), np.bool_),
        "dead": np.zeros((count, n), np.bool_),
        "won": np.zeros((count, n), np.int64),
        "dealt": np.full((count, n, width), -1, np.int8),
        "dealt_n": np.zeros((count, n), np.int64),
        "hole": np.full((count, n, width), -1, np.int8),
        "hole_n": np.zeros((count, n), np.int64),
        "discarded": np.full((count, n, width), -1, np.int8),
        "discarded_n": np.zeros((count, n), np.int64),
        "boards": np.full((count, n_boards, bk.MAX_BOARD), -1, np.int8),
        "board_n": np.zeros((count, n_boards), np.int64),
    }
    hand_start = np.zeros(count + 1, np.int64)
    records = np.zeros((count * 48 + bk.HAND_ACTIONS, 7), np.int64)
    record_cards = np.full((len(records), width), -1, np.int8)
    seat_policies = np.array([bk.POLICY_CODES[policies[s % len(policies)]] for s in range(n)], np.int64)
    skoejarth = game.deck.size == 28
    done = 0
    while done < count:
        a = {k: v[done:] for k, v in arrays.items()}
        played = bk.play_hands(
            count - done, n, stake,
            np.array(reference.antes, np.int64), np.array(reference.blinds, np.int64),
            reference.starting_bet, reference.min_bet,
            np.array([s.hole_cards for s in streets], np.int64),
            np.array([s.board_cards for s in streets], np.int64),
            np.array([game.burns(s, reference.options) for s in streets], np.int64),
            np.array([s.betting for s in streets], np.bool_),
            np.array([s.call_only for s in streets], np.bool_),
            n_boards, -1 if game.discard_board is None else game.discard_board, game.deck.size,
            game.raise_rule == "double", cap, seat_policies, skoejarth,
            reference.options.get("tiebreak") == "kickers",
            SKOEJARTH_TABLES if skoejarth else STANDARD_TABLES, seed_words,
            records, record_cards, hand_start[done:], a["ending"], a["stacks"], a["contributed"],
            a["antes_paid"], a["folded"], a["dead"], a["won"], a["dealt"], a["dealt_n"], a["hole"],
            a["hole_n"], a["discarded"], a["discarded_n"], a["boards"], a["board_n"],
        )  # fmt: skip
        done += played
        if done < count:  # out of room for actions: grow and go on from the unfinished hand
            records = np.concatenate([records, np.zeros_like(records)])
            record_cards = np.concatenate([record_cards, np.full_like(record_cards, -1)])
    used = int(hand_start[count])
    return Batch(count, records[:used], record_cards[:used], hand_start, **arrays)


COMPILED_RULES = {"holdem": bs.BEST_HAND, "skoejarth": bs.SKOEJARTH, "scarney": bs.SCARNEY,
                  "cry-me-a-river": bs.CRY}  # fmt: skip


@dataclass
class Settled:
    """Chips and showdown facts of a batch (seat arrays; -1: no showdown hand)."""

    stacks: np.ndarray
    won: np.ndarray
    strength: np.ndarray
    low: np.ndarray
    won_high: np.ndarray
    won_low: np.ndarray
    board_won: np.ndarray  # (hands, seats, 3): Cry Me A River
    triple: np.ndarray
    survivors: np.ndarray  # bit mask of the surviving boards
    split: np.ndarray


def settle(game: GameSpec, batch: Batch, options: dict, compiled: bool = True) -> Settled:
    """Pots and showdowns of the hands that reach one, by the game's rule.

    Compiled (``engine.betting_showdown``) for the four games; ``compiled=False``, or a game
    without a compiled rule, calls the game's own Python showdown hand by hand.
    """
    count, n = batch.stacks.shape
    out = Settled(
        stacks=batch.stacks.copy(), won=batch.won.copy(), strength=np.full((count, n), -1, np.int64),
        low=np.full((count, n), -1, np.int64), won_high=np.zeros((count, n), np.int64),
        won_low=np.zeros((count, n), np.int64), board_won=np.zeros((count, n, 3), np.int64),
        triple=np.zeros((count, n), np.bool_), survivors=np.zeros(count, np.int8),
        split=np.zeros(count, np.bool_),
    )  # fmt: skip
    showdown = batch.ending == bk.SHOWDOWN
    won = np.zeros_like(out.won)
    if compiled and game.name in COMPILED_RULES:
        skoejarth = game.deck.size == 28
        bs.settle_hands(
            COMPILED_RULES[game.name], options.get("tiebreak") == "kickers",
            bool(options.get("must_use_hole_card", False)),
            SKOEJARTH_TABLES if skoejarth else STANDARD_TABLES,
            SCARNEY_POINTS.astype(np.int64), showdown, batch.contributed, batch.antes_paid, batch.folded,
            batch.hole, batch.hole_n, batch.boards, batch.board_n, won, out.strength, out.low,
            out.won_high, out.won_low, out.board_won, out.triple, out.survivors, out.split,
        )  # fmt: skip
    else:
        _settle_in_python(game, batch, options, showdown, won, out)
    out.won += won
    out.stacks += won
    return out


def _settle_in_python(game: GameSpec, batch: Batch, options: dict, showdown, won, out: Settled) -> None:
    n = batch.stacks.shape[1]
    seats = range(n)
    folded_all, hole_all, hole_n_all = batch.folded.tolist(), batch.hole.tolist(), batch.hole_n.tolist()
    boards_all, board_n_all = batch.boards.tolist(), batch.board_n.tolist()
    contributed_all, antes_all = batch.contributed.tolist(), batch.antes_paid.tolist()
    for h in np.flatnonzero(showdown).tolist():
        folded, hole, hole_n = folded_all[h], hole_all[h], hole_n_all[h]
        boards, board_n = boards_all[h], board_n_all[h]
        result = game.showdown(
            ShowdownInput(
                pots=tuple(pots_with_antes(contributed_all[h], antes_all[h], folded)),
                hole_cards=tuple(tuple(hole[s][: hole_n[s]]) for s in seats),
                boards=tuple(tuple(boards[b][: board_n[b]]) for b in range(len(board_n))),
                contenders=frozenset(s for s in seats if not folded[s]),
                options=options,
            )
        )
        won[h] = result.won
        out.survivors[h] = sum(1 << b for b in result.surviving_boards)
        out.split[h] = result.split
        for s, outcome in enumerate(result.outcomes):
            out.strength[h, s] = -1 if outcome.high_strength is None else outcome.high_strength
            out.low[h, s] = -1 if outcome.low_points is None else outcome.low_points
            out.won_high[h, s], out.won_low[h, s] = outcome.won_high, outcome.won_low
            out.board_won[h, s, : len(outcome.board_won)] = outcome.board_won
            out.triple[h, s] = outcome.triple_scoop


def _card_texts(cards: np.ndarray, game: GameSpec) -> np.ndarray:
    """Text of each row of card ids (-1 padding skipped), as an object array."""
    table = np.array([""] + [game.deck.card_text(c) for c in range(game.deck.size)], dtype=object)
    texts = table[cards.astype(np.int64) + 1]
    return texts.sum(axis=-1) if texts.shape[-1] else np.full(texts.shape[:-1], "", dtype=object)


def batch_tables(game: GameSpec, batch: Batch, *, run_id: str, shard: int, first: int, stake: int,
                 options: dict, policies: list[str]) -> tuple[pa.Table, pa.Table, pa.Table]:  # fmt: skip
    """The hands, players and actions rows of a batch (``first``: run index of its first hand)."""
    count, n = batch.count, batch.stacks.shape[1]
    names = [f"{policies[s % len(policies)]}-{s + 1}" for s in range(n)]
    settled = settle(game, batch, options)
    stacks, won = settled.stacks, settled.won
    hand_ids = np.array([f"{run_id}:{shard}:{first + i}" for i in range(count)], dtype=object)
    variant = game.name
    pot = batch.contributed.sum(axis=1)
    ending = batch.ending.astype(np.int64)

    # actions
    per_hand = np.diff(batch.hand_start)
    owner = np.repeat(np.arange(count), per_hand)
    rec = batch.records
    kind, seat, amount, board, n_cards = rec[:, 2], rec[:, 1], rec[:, 3], rec[:, 4], rec[:, 6]
    cards = _card_texts(batch.record_cards, game)
    cards[n_cards == 0] = None
    street_names = np.array([s.name for s in game.streets], dtype=object)
    actions = pa.table(
        {
            "hand_id": hand_ids[owner],
            "run_id": np.full(len(rec), run_id, dtype=object),
            "variant": np.full(len(rec), variant, dtype=object),
            "seq": np.arange(len(rec)) - batch.hand_start[owner],
            "street": street_names[rec[:, 0]],
            "seat": pa.array(seat, mask=seat < 0, type=pa.int8()),
            "action": np.array(bk.ACTION_KINDS, dtype=object)[kind],
            "amount": pa.array(amount, mask=amount < 0, type=pa.int64()),
            "cards": cards,
            "board": pa.array(board, mask=board < 0, type=pa.int8()),
            "automatic": rec[:, 5].astype(bool),
        },
        schema=ACTIONS,
    )

    # players
    showdown_hand = ending == bk.SHOWDOWN
    scooper = np.full(count, -1)
    single = (won > 0).sum(axis=1) == 1
    scoop_hands = showdown_hand & single & (won.max(axis=1) == pot)
    scooper[scoop_hands] = won[scoop_hands].argmax(axis=1)
    strength = settled.strength.ravel()
    low = settled.low.ravel()
    no_hand = strength < 0
    categories = SKOEJARTH_CATEGORIES if game.deck.size == 28 else HIGH_CATEGORIES
    category = np.array(categories, dtype=object)[np.where(no_hand, 0, strength >> 20)]
    category[no_hand] = None
    if game.name in ("cry-me-a-river",):
        per_seat = settled.board_won.reshape(count * n, 3).tolist()
        board_won = pa.array([row if shown else None for row, shown in
                              zip(per_seat, np.repeat(showdown_hand, n).tolist(), strict=True)],
                             type=pa.list_(pa.int64()))  # fmt: skip
    else:
        board_won = pa.nulls(count * n, pa.list_(pa.int64()))
    players = pa.table(
        {
            "hand_id": np.repeat(hand_ids, n),
            "run_id": np.full(count * n, run_id, dtype=object),
            "variant": np.full(count * n, variant, dtype=object),
            "seat": np.tile(np.arange(n, dtype=np.int8), count),
            "player": np.tile(np.array(names, dtype=object), count),
            "hole_cards": _card_texts(batch.dealt, game).ravel(),
            "final_hole_cards": _card_texts(batch.hole, game).ravel(),
            "discarded": batch.discarded_n.ravel().astype(np.int8),
            "discarded_cards": _card_texts(batch.discarded, game).ravel(),
            "dead": batch.dead.ravel(),
            "voided": np.zeros(count * n, np.bool_),
            "folded": batch.folded.ravel(),
            "mucked": np.zeros(count * n, np.bool_),
            "showdown": np.repeat(showdown_hand, n) & ~no_hand,
            "starting_stack": np.full(count * n, stake, np.int64),
            "finishing_stack": stacks.ravel(),
            "net": stacks.ravel() - stake,
            "won": won.ravel(),
            "high_category": category,
            "high_strength": pa.array(strength, mask=no_hand, type=pa.int64()),
            "low_points": pa.array(low, mask=low < 0, type=pa.int16()),
            "won_high": settled.won_high.ravel(),
            "won_low": settled.won_low.ravel(),
            "board_won": board_won,
            "scoop": (np.arange(n)[None, :] == scooper[:, None]).ravel(),
            "triple_scoop": settled.triple.ravel(),
        },
        schema=PLAYERS,
    )

    # hands
    board_texts = _card_texts(batch.boards, game)
    all_mask = (1 << len(game.board_names)) - 1
    masks = [[b for b in range(len(game.board_names)) if m >> b & 1] for m in range(all_mask + 1)]
    texts = phh_texts(game, batch, stacks, names, first=first, stake=stake, options=options)
    players_json = json.dumps(names)
    hands = pa.table(
        {
            "hand_id": hand_ids,
            "run_id": np.full(count, run_id, dtype=object),
            "variant": np.full(count, variant, dtype=object),
            "variant_code": np.full(count, variant_code(game, Structure.NO_LIMIT), dtype=object),
            "structure": np.full(count, Structure.NO_LIMIT.value, dtype=object),
            "source": np.full(count, "simulation", dtype=object),
            "source_file": pa.nulls(count, pa.string()),
            "hand_index": np.arange(first, first + count, dtype=np.int32),
            "hand_no": np.arange(first + 1, first + count + 1, dtype=np.int64),
            "n_players": np.full(count, n, np.int8),
            "button": np.full(count, n - 1, np.int8),
            "big_blind": np.full(count, blinds_of(stake)[1], np.int64),
            "pot": pot,
            "showdown": showdown_hand,
            "ending": np.array(ENDINGS, dtype=object)[ending],
            "split": settled.split,
            "boards": board_texts.tolist(),
            "surviving_boards": [
                masks[m] for m in np.where(showdown_hand, settled.survivors, all_mask).tolist()
            ],
            "options": np.full(count, json.dumps(options, sort_keys=True), dtype=object),
            "fractional_stacks": np.zeros(count, np.bool_),
            "notes": [[] for _ in range(count)],
            "extra_fields": [f'{{"hand": {first + i + 1}, "players": {players_json}}}' for i in range(count)],
            "phh": texts,
            **{name: pa.nulls(count, HANDS.field(name).type) for name in SEAT_ARRAYS},
        },
        schema=HANDS,
    )
    return hands, players, actions


def phh_texts(game: GameSpec, batch: Batch, stacks: np.ndarray, names: list[str], *, first: int,
              stake: int, options: dict) -> list[str]:  # fmt: skip
    """The PHH text of every hand, as ``write_hand(hand_fields(state))`` writes it."""
    from ingest.record import hand_fields

    reference = new_hand(game, len(names), stake, options)
    header_fields = hand_fields(reference)
    for key in ("actions", "finishing_stacks"):
        header_fields.pop(key, None)
    header = write_hand(header_fields)
    players_line = f"players = {toml_value(names)}\n"
    rec = batch.records
    seat, kind, amount, board, automatic = (rec[:, i] for i in range(1, 6))
    cards = _card_texts(batch.record_cards, game)
    n_boards = len(game.board_names)
    # one PHH action per chosen record; a board deal is written once, on its board 0 record
    player = np.array([f"p{s + 1}" for s in range(len(names))] + [""], dtype=object)[seat]
    words = np.array(["", " f", " cc", " cc", " cbr ", " cbr ", " sd ", ""], dtype=object)[kind]
    text = player + words
    raising = (kind == bk.BET) | (kind == bk.RAISE)
    text[raising] += amount[raising].astype(str).astype(object)
    discards = kind == bk.DISCARD
    text[discards] += cards[discards]
    hole_deals = (kind == bk.DEAL) & (board < 0)
    text[hole_deals] = "d dh " + player[hole_deals] + " " + cards[hole_deals]
    first_boards = np.flatnonzero((kind == bk.DEAL) & (board == 0))
    joined = cards[first_boards]
    for b in range(1, n_boards):
        joined = joined + "/" + cards[first_boards + b]
    text[first_boards] = "d db " + joined
    written = (automatic == 0) & ~((kind == bk.DEAL) & (board > 0))
    lines = np.where(written, '  "' + text + '",\n', "")
    starts = batch.hand_start.tolist()
    line_list = lines.tolist()
    finishing = stacks.tolist()
    texts = []
    for h in range(batch.count):
        texts.append(
            f"{header}actions = [\n{''.join(line_list[starts[h] : starts[h + 1]])}]\n"
            f"finishing_stacks = {toml_value(finishing[h])}\nhand = {first + h + 1}\n{players_line}"
        )
    return texts


def write_betting_shard(spec, game: GameSpec, warehouse: Warehouse, run_id: str, shard: int,
                        rng: np.random.Generator, first: int, count: int, name: str) -> None:  # fmt: skip
    """Play and store one shard of betting-mode hands; the hands file, renamed last, marks it done."""
    seed_words = rng.integers(0, 2**64, size=4, dtype=np.uint64)
    policies = list(spec.policies)
    with (
        warehouse.writer("hands", game.name, run_id, name) as hands_file,
        warehouse.writer("actions", game.name, run_id, name) as actions_file,
        warehouse.writer("players", game.name, run_id, name) as players_file,
    ):
        for start in range(0, count, BETTING_CHUNK):
            size = min(BETTING_CHUNK, count - start)
            batch = play_batch(game, spec.players, spec.stake, spec.options, policies, seed_words, size)
            hands, players, actions = batch_tables(
                game, batch, run_id=run_id, shard=shard, first=first + start, stake=spec.stake,
                options=spec.options, policies=policies,
            )  # fmt: skip
            players_file.write_table(players)
            actions_file.write_table(actions)
            hands_file.write_table(hands)
