"""Betting-mode simulation: hands played by built-in policies, stored like replayed hands.

Each hand has blinds of half the big blind and the big blind, by default 2% of the stack (a game
with a starting bet: antes and the starting bet), no-limit, pot-limit or fixed-limit betting
(fixed bets of the big blind, then twice it), stacks of ``stake`` chips and a policy per seat
(the run's policies, repeated round the table). The compiled ``engine.compiled.betting_kernel.play_hands``
deals and bets a chunk of hands and ``ingest.storage.array_rows.settle`` settles their pots
(compiled); the rows are then built column by column, with the hand's PHH text, so
``scooplab export`` writes it back and replaying it gives the same rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from math import comb

import numpy as np
import pyarrow as pa

from engine.compiled import betting_kernel as bk
from engine.compiled import hand_state as hs
from engine.compiled.core import compile_rules
from engine.compiled.draw_kernel import DrawPolicy
from engine.compiled.simulate import draw_policy, final_hand_scale
from engine.hands.rankings import RANKINGS
from engine.rules.betting import blinds_of, seat_forced_bets
from engine.rules.games import variant_code
from engine.rules.games.base import GameSpec, Structure
from engine.rules.pushfold_play import PushFoldChart
from engine.rules.state import HandState
from ingest.histories import write_kernel
from ingest.histories.phh import toml_value, write_hand
from ingest.storage import sim_rows
from ingest.storage.array_rows import (
    Hands,
    actions_table,
    players_table,
    settle,
    showdown_columns,
)
from ingest.storage.background import BackgroundWrites
from ingest.storage.schema import HANDS, METADATA_COLUMNS, SEAT_ARRAYS
from ingest.storage.warehouse import Warehouse


def new_hand(game: GameSpec, players: int, stake: int, options: dict,
             structure: Structure = Structure.NO_LIMIT, big_blind: int = 0) -> HandState:  # fmt: skip
    """A betting-mode hand as the state machine plays it (the reference ``play_hands`` follows).

    Fixed-limit bets are the big blind on the first two streets and twice it after. A game with a
    bring-in (stud, fixed-limit) posts antes of a quarter of the big blind (at least 1) and brings
    in for the small blind; its small-bet streets bet the big blind and its big-bet streets twice it.
    The description's ``[betting]`` ``blinds`` and ``ante`` say who posts what (``seat_forced_bets``).
    """
    small, big = blinds_of(stake, big_blind)
    if game.bring_in and structure is not Structure.FIXED_LIMIT:
        raise ValueError(f"betting mode plays {game.title}'s bring-in in fixed-limit only")
    antes, blinds = seat_forced_bets(game, players, small, big)
    if game.bring_in:
        return HandState(game, structure, [stake] * players, antes=antes, bring_in=small, small_bet=big,
                         big_bet=2 * big, options=options)  # fmt: skip
    if game.starting_bet:
        return HandState(game, structure, [stake] * players, antes=antes, starting_bet=big, options=options)
    return HandState(game, structure, [stake] * players, antes=antes, blinds=blinds, min_bet=big,
                     small_bet=big, big_bet=2 * big, options=options)  # fmt: skip


def chart_arrays(chart: PushFoldChart | None, reference: HandState, deck_size: int) -> tuple:
    """``play_hands``'s chart arguments: on, the small blind's seat, cards held, class table,
    binomials, push and call probabilities (off: empty tables)."""
    if chart is None:
        empty = np.zeros(1)
        return False, 0, 1, np.zeros(1, np.int32), np.zeros((deck_size, 1), np.int64), empty, empty
    blinds = reference.blinds
    small_blind = min((s for s in range(len(blinds)) if blinds[s] > 0), key=lambda s: blinds[s])
    binomial = np.array([[comb(card, k + 1) for k in range(chart.held)] for card in range(deck_size)],
                        np.int64)  # fmt: skip
    return True, small_blind, chart.held, chart.class_of, binomial, chart.push, chart.call


@dataclass
class Batch:
    """What ``play_hands`` returns for a chunk of hands: recorded actions and seat arrays."""

    count: int
    # (actions, 9): street, seat, kind, amount, board, automatic, card count, stack after (-1: no
    # seat), pot after
    records: np.ndarray
    record_cards: np.ndarray  # (actions, MAX_CARDS)
    hand_start: np.ndarray  # (count + 1,)
    hands: Hands
    big_blind: int  # the big blind (or starting bet) the hands were played with


def kernel_inputs(game: GameSpec, players: int, reference: HandState, structure: Structure,
                  policies: list[str], chart: PushFoldChart | None) -> tuple:  # fmt: skip
    """``play_hands``'s ``Table``, ``Streets`` and ``Players`` for hands like ``reference``."""
    cap = reference.round_cap  # the game's raise-cap option, or the fixed-limit cap
    table = bk.Table(
        players, np.array(reference.antes, np.int64), np.array(reference.blinds, np.int64),
        reference.starting_bet, reference.min_bet, bk.STRUCTURE_CODES[structure], reference.small_bet,
        reference.big_bet, game.raise_rule == "double", -1 if cap is None else cap, reference.bring_in,
    )  # fmt: skip
    streets = hs.game_streets(game, reference.options)
    seat_policies = np.array([bk.POLICY_CODES[policies[s % len(policies)]] for s in range(players)], np.int64)
    rules = compile_rules(game, reference.options)
    ranking = RANKINGS[game.ranking]
    lows = len(ranking.categories) if ranking.lowball else 0  # the tag policy scores lows out of these
    how_seats_play = bk.Players(seat_policies, rules.ranking, game.community_boards[0], rules.kickers,
                                rules.tables, *chart_arrays(chart, reference, game.deck.size), lows,
                                any(s.up_cards for s in game.streets), ranking.min_cards,
                                seat_draws(game, reference.options), game.draws,
                                game.hole_cards_alone)  # fmt: skip
    return table, streets, how_seats_play


def seat_draws(game: GameSpec, options: dict) -> DrawPolicy:
    """How a run's seats draw (its ``draw_policy`` option), with the final-hand scale the ``tag``
    policy scores a draw game's hands on."""
    policy = draw_policy(game, options)
    if not game.hole_cards_alone:  # (tag scores other hands by their cards)
        return policy
    keys, below = final_hand_scale(game, options)
    return policy._replace(keys=keys, below=below)


def play_batch(game: GameSpec, players: int, stake: int, options: dict, policies: list[str],
               seed_words: np.ndarray, count: int, decks: np.ndarray | None = None,
               structure: Structure = Structure.NO_LIMIT, big_blind: int = 0,
               chart: PushFoldChart | None = None) -> Batch:  # fmt: skip
    """Play ``count`` hands in compiled code from a xoshiro256** state (updated in place).

    ``decks`` (one card order per hand) replaces the shuffles: tests deal what they need.
    ``chart``: what ``pushfold`` seats play (None: they play ``tag``).
    """
    fixed = np.zeros((0, game.deck.size), np.int8) if decks is None else np.asarray(decks, np.int8)
    reference = new_hand(game, players, stake, options, structure, big_blind)  # the state machine's bets
    width = bk.MAX_CARDS
    draw_rounds = sum(s.draw for s in game.streets_under(options))
    hands = Hands.empty(count, players, len(game.board_names), bk.MAX_CARDS * (1 + draw_rounds))
    hand_start = np.zeros(count + 1, np.int64)
    records = np.zeros((count * 48 + bk.HAND_ACTIONS, bk.RECORD_WIDTH), np.int64)
    record_cards = np.full((len(records), width), -1, np.int8)
    table, streets, how_seats_play = kernel_inputs(game, players, reference, structure, policies, chart)
    done = 0
    while done < count:
        a = {k: v[done:] for k, v in vars(hands).items()}
        out = bk.PlayedHands(
            records, record_cards, hand_start[done:], a["ending"], a["stacks"], a["contributed"],
            a["antes_paid"], a["folded"], a["dead"], a["won"], a["dealt"], a["hole"], a["hole_n"],
            a["discarded"], a["discarded_n"], a["boards"], a["board_n"],
        )  # fmt: skip
        done += bk.play_hands(
            count - done, stake, table, streets, how_seats_play, seed_words, fixed[done:], out
        )
        if done < count:  # out of room for actions: grow and go on from the unfinished hand
            records = np.concatenate([records, np.zeros_like(records)])
            record_cards = np.concatenate([record_cards, np.full_like(record_cards, -1)])
    used = int(hand_start[count])
    big = blinds_of(stake, big_blind)[1]
    return Batch(count, records[:used], record_cards[:used], hand_start, hands, big)


def batch_tables(
    game: GameSpec, batch: Batch, *, run_id: str, shard: int, first: int, stake: int, options: dict,
    policies: list[str], structure: Structure = Structure.NO_LIMIT,
) -> tuple[pa.Table, pa.Table, pa.Table]:  # fmt: skip
    """The hands, players and actions rows of a batch (``first``: run index of its first hand)."""
    count, n = batch.count, batch.hands.stacks.shape[1]
    names = [f"{policies[s % len(policies)]}-{s + 1}" for s in range(n)]
    settled = settle(game, batch.hands, options)
    hand_ids = sim_rows.hand_ids(run_id, shard, first, count)
    actions = actions_table(game, batch.records, batch.record_cards, batch.hand_start, hand_ids, run_id)
    players = players_table(
        game.under(options), batch.hands, settled, hand_ids, run_id,
        names=np.broadcast_to(np.array(names, dtype=object)[None, :], (count, n)),
        starting=np.full((count, n), stake, np.int64),
    )  # fmt: skip
    players_json = json.dumps(names)
    phh = phh_texts(game, batch, settled.stacks, names, first=first, stake=stake, options=options,
                    structure=structure)  # fmt: skip
    hands = pa.table(
        {
            "hand_id": hand_ids,
            "run_id": np.full(count, run_id, dtype=object),
            "variant": np.full(count, game.name, dtype=object),
            "variant_code": np.full(count, variant_code(game, structure), dtype=object),
            "structure": np.full(count, structure.value, dtype=object),
            "source": np.full(count, "simulation", dtype=object),
            "source_file": pa.nulls(count, pa.string()),
            "hand_index": np.arange(first, first + count, dtype=np.int32),
            "hand_no": np.arange(first + 1, first + count + 1, dtype=np.int64),
            "n_players": np.full(count, n, np.int8),
            "button": np.full(count, n - 1, np.int8),
            "big_blind": np.full(count, batch.big_blind, np.int64),
            **showdown_columns(game, batch.hands, settled),
            "options": np.full(count, json.dumps(options, sort_keys=True), dtype=object),
            "fractional_stacks": np.zeros(count, np.bool_),
            **sim_rows.simulated_columns(count),
            "notes": [[] for _ in range(count)],
            "extra_fields": [f'{{"hand": {first + i + 1}, "players": {players_json}}}' for i in range(count)],
            "phh": phh,
            **{name: pa.nulls(count, HANDS.field(name).type) for name in (*METADATA_COLUMNS, *SEAT_ARRAYS)},
        },
        schema=HANDS,
    )
    return hands, players, actions


def phh_texts(game: GameSpec, batch: Batch, stacks: np.ndarray, names: list[str], *, first: int,
              stake: int, options: dict, structure: Structure = Structure.NO_LIMIT) -> pa.Array:  # fmt: skip
    """The PHH text of every hand, as ``write_hand(hand_fields(state))`` writes it (in compiled code)."""
    from ingest.histories.record import hand_fields

    reference = new_hand(game, len(names), stake, options, structure, batch.big_blind)
    header_fields = hand_fields(reference)
    for key in ("actions", "finishing_stacks"):
        header_fields.pop(key, None)
    fixed = write_kernel.fixed_text(write_hand(header_fields), f"players = {toml_value(names)}\n")
    return write_kernel.hand_texts(batch.records, batch.record_cards, batch.hand_start[: batch.count + 1],
                                   stacks, first, fixed, write_kernel.card_table(game.deck),
                                   len(game.board_names))  # fmt: skip


def pushfold_chart(spec, game: GameSpec, warehouse: Warehouse, progress_of=None
                   ) -> tuple[PushFoldChart | None, str]:  # fmt: skip
    """What the run's ``pushfold`` seats play, and a line saying it: the equilibrium at the run's
    stack (read from the warehouse, or solved and stored there), or None and why it is ``tag``."""
    from engine.rules.pushfold_play import why_not_played
    from ingest.generation.pushfold import Solver, default_plan

    why = why_not_played(game, spec.options, spec.players, Structure(spec.structure), spec.depth)
    if why is not None:
        return None, f"pushfold plays tag: {why}"
    solver = Solver(warehouse, game, spec.options, default_plan(game, spec.options), progress_of)
    rows = solver.solution(spec.depth).to_pydict()
    names = rows["hand_group"]
    chart = PushFoldChart.of(game, spec.options, spec.depth, dict(zip(names, rows["push"], strict=True)),
                             dict(zip(names, rows["call"], strict=True)))  # fmt: skip
    return chart, (
        f"pushfold plays the heads-up push/fold equilibrium at {spec.depth:g} big blinds "
        f"(exploitability {rows['exploitability'][0]:.4f} bb; scooplab solve pushfold shows it)"
    )


def write_betting_shard(spec, game: GameSpec, warehouse: Warehouse, run_id: str, shard: int,
                        rng: np.random.Generator, first: int, count: int, name: str) -> None:  # fmt: skip
    """Play and store one shard of betting-mode hands (each chunk written on a writer thread while the
    kernel plays the next); the hands file, renamed last, marks it done."""
    seed_words = rng.integers(0, 2**64, size=4, dtype=np.uint64)
    policies = list(spec.policies)
    structure = Structure(spec.structure)
    chart = pushfold_chart(spec, game, warehouse)[0] if "pushfold" in policies else None

    def rows_of(chunk: tuple[Batch, int]) -> tuple[pa.Table, pa.Table, pa.Table]:
        batch, start = chunk
        return batch_tables(game, batch, run_id=run_id, shard=shard, first=first + start, stake=spec.stake,
                            options=spec.options, policies=policies, structure=structure)  # fmt: skip

    with (
        warehouse.writer("hands", game.name, run_id, name) as hands_file,
        warehouse.writer("actions", game.name, run_id, name) as actions_file,
        warehouse.writer("players", game.name, run_id, name) as players_file,
    ):

        def written(tables: tuple[pa.Table, pa.Table, pa.Table]) -> None:  # (on the writer thread)
            hands, players, actions = tables
            players_file.write_table(players)
            actions_file.write_table(actions)
            hands_file.write_table(hands)

        with BackgroundWrites(written, rows_of) as background:  # rows built by whichever thread is free
            for start in range(0, count, spec.chunk):
                size = min(spec.chunk, count - start)
                batch = play_batch(game, spec.players, spec.stake, spec.options, policies, seed_words, size,
                                   structure=structure, big_blind=spec.big_blind, chart=chart)  # fmt: skip
                background.put((batch, start))
