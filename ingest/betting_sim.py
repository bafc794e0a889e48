"""Betting-mode simulation: hands played through the state machine by built-in policies.

Each hand has blinds (Skœjarth: antes and the starting bet), stacks of
``stake`` chips and a policy per seat (the run's policies, repeated round the
table); it produces complete action histories like a replayed hand, and is
stored with its PHH text, so ``scooplab export`` writes it back.
"""

from __future__ import annotations

import numpy as np

from engine.dealer import Deck, deal_due
from engine.games.base import GameSpec, Structure
from engine.policies import POLICIES, act
from engine.state import HandState
from ingest.phh import write_hand
from ingest.pipeline import write_rows
from ingest.record import hand_fields
from ingest.replay import Replay
from ingest.rows import HandRows
from ingest.warehouse import Warehouse


def new_hand(game: GameSpec, players: int, stake: int, options: dict) -> HandState:
    """A betting-mode hand: blinds of 1% and 2% of the stake (at least 1 and 2)."""
    small = max(1, stake // 100)
    big = 2 * small
    if game.starting_bet:
        return HandState(game, Structure.NO_LIMIT, [stake] * players, antes=[small] * players,
                         starting_bet=big, options=options)  # fmt: skip
    blinds = [small, big] + [0] * (players - 2)
    return HandState(game, Structure.NO_LIMIT, [stake] * players, blinds=blinds, min_bet=big, options=options)


def play_hand(state: HandState, deck: Deck, policies: list, rng: np.random.Generator) -> None:
    """Deal and play one hand to its end."""
    while not state.is_over and state.phase != "showdown":
        if state.phase == "deal":
            deal_due(state, deck)
            continue
        seat = state.next_seat
        act(state, seat, policies[seat](state, seat, rng))
    state.finish()


def write_betting_shard(spec, game: GameSpec, warehouse: Warehouse, run_id: str, shard: int,
                        rng: np.random.Generator, first: int, count: int, name: str) -> None:  # fmt: skip
    """Play and store one shard of betting-mode hands."""
    seat_policies = [POLICIES[spec.policies[s % len(spec.policies)]] for s in range(spec.players)]
    names = [f"{spec.policies[s % len(spec.policies)]}-{s + 1}" for s in range(spec.players)]
    rows = HandRows()
    for index in range(count):
        state = new_hand(game, spec.players, spec.stake, spec.options)
        play_hand(state, Deck(game.deck.size, rng), seat_policies, rng)
        fields = hand_fields(state, players=names, hand=first + index + 1)
        replayed = Replay(fields, game, Structure.NO_LIMIT, state, state.result)
        rows.add(
            replayed,
            hand_id=f"{run_id}:{shard}:{first + index}",
            run_id=run_id,
            source="simulation",
            source_file=None,
            hand_index=first + index,
            phh_text=write_hand(fields),
        )
    write_rows(warehouse, game.name, run_id, rows, name=name)  # the hands file marks the shard done
