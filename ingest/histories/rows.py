"""Warehouse rows of a replayed hand, gathered column by column."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pyarrow as pa

from engine.hands.cards import format_cards
from engine.rules.state import HandState
from ingest.histories.metadata import hand_metadata, table_seats
from ingest.histories.replay import Replay, hand_number
from ingest.storage.schema import ACTIONS, HANDS, PLAYERS, SEAT_ARRAYS

NO_SEAT_ARRAYS = dict.fromkeys(SEAT_ARRAYS)

REQUIRED_FIELDS = frozenset(
    {
        "variant", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
        "min_bet", "starting_stacks", "actions", "finishing_stacks", "_options",
        "_starting_bet",
    }
)  # fmt: skip


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)  # built once: fast
SORTED_JSON = json.JSONEncoder(sort_keys=True, default=str)  # ``json.dumps(..., sort_keys=True)``


def hand_id(fields: dict[str, Any]) -> str:
    """Content id of a hand: the same fields give the same id, whatever the file's layout."""
    return hashlib.sha256(_CANONICAL.encode(fields).encode()).hexdigest()[:20]


def contested_unseen(state: HandState, replayed: Replay, seat: int) -> bool:
    """A seat that contested a showdown hidden cards left open (to the record, or unchecked when
    there is none), with a live hand it did not give up: in the showdown, though no hand of its
    was compared."""
    live = not (state.folded[seat] or state.mucked[seat] or state.dead[seat])
    return replayed.unseen_showdown and live


class Columns:
    """Column lists for one table, turned into an Arrow table at the end."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.data: dict[str, list[Any]] = {name: [] for name in schema.names}

    def add(self, **row: Any) -> None:
        """Append one row; every column must be given."""
        data = self.data
        for name, value in row.items():
            data[name].append(value)

    def __len__(self) -> int:
        return len(self.data[self.schema.names[0]])

    def to_arrow(self) -> pa.Table:
        return pa.table(self.data, schema=self.schema)


class HandRows:
    """Rows of the hands, players and actions tables for many hands of one variant."""

    def __init__(self) -> None:
        self.hands = Columns(HANDS)
        self.players = Columns(PLAYERS)
        self.actions = Columns(ACTIONS)

    def __len__(self) -> int:
        return len(self.hands)

    def add(
        self,
        replayed: Replay,
        *,
        hand_id: str,
        run_id: str,
        source: str,
        source_file: str,
        hand_index: int,
        phh_text: str,
    ) -> None:
        state, result, game = replayed.state, replayed.result, replayed.game
        fields = replayed.fields
        deck = game.deck
        variant = game.name
        showdown = result.ending == "showdown"
        pot = sum(state.contributed)
        self.hands.add(
            hand_id=hand_id,
            run_id=run_id,
            variant=variant,
            variant_code=fields["variant"],
            structure=replayed.structure.value,
            source=source,
            source_file=source_file,
            hand_index=hand_index,
            hand_no=hand_number(fields, hand_index),
            n_players=state.n,
            button=state.n - 1,
            big_blind=max(max(state.blinds), state.min_bet),
            pot=pot,
            showdown=showdown,
            ending=result.ending,
            split=result.split,
            boards=[format_cards(board, deck) for board in state.boards],
            surviving_boards=list(result.surviving_boards) if showdown else list(range(len(state.boards))),
            options=json.dumps(state.options, sort_keys=True),
            fractional_stacks=replayed.fractional_stacks,
            notes=replayed.notes,
            extra_fields=SORTED_JSON.encode({k: v for k, v in fields.items() if k not in REQUIRED_FIELDS}),
            phh=phh_text,
            amount_decimals=replayed.decimals,
            rake=replayed.rake,
            record=replayed.record,
            **hand_metadata(fields),
            **NO_SEAT_ARRAYS,
        )
        names = fields.get("players")
        self._add_players(state, replayed, hand_id, run_id, variant, names, pot, showdown)
        self._add_actions(state, hand_id, run_id, variant)

    def _add_players(
        self, state: HandState, replayed: Replay, hand_id, run_id, variant, names, pot, showdown
    ) -> None:
        result, deck = replayed.result, replayed.game.deck
        scooper = None
        if showdown:
            winners = [s for s in range(state.n) if result.won[s]]
            if len(winners) == 1 and result.won[winners[0]] == pot:
                scooper = winners[0]
        seats = table_seats(replayed.fields, state.n)
        for seat in range(state.n):
            outcome = result.outcomes[seat]
            name = names[seat] if isinstance(names, list) and seat < len(names) else None
            self.players.add(
                hand_id=hand_id,
                run_id=run_id,
                variant=variant,
                seat=seat,
                player=str(name) if name is not None else None,
                hole_cards=format_cards(state.dealt_hole[seat], deck),
                final_hole_cards=format_cards(state.hole[seat], deck),
                discarded=len(state.discarded[seat]),
                discarded_cards=format_cards(state.discarded[seat], deck),
                dead=state.dead[seat],
                voided=state.voided[seat],
                folded=state.folded[seat],
                mucked=state.mucked[seat],
                showdown=showdown
                and (outcome.high_strength is not None or contested_unseen(state, replayed, seat)),
                starting_stack=state.starting_stacks[seat],
                finishing_stack=state.stacks[seat],
                net=state.stacks[seat] - state.starting_stacks[seat],
                won=result.won[seat],
                high_category=outcome.high_category,
                high_strength=outcome.high_strength,
                low_points=outcome.low_points,
                won_high=outcome.won_high,
                won_low=outcome.won_low,
                board_won=list(outcome.board_won) if outcome.board_won else None,
                scoop=scooper == seat,
                triple_scoop=outcome.triple_scoop,
                table_seat=seats[seat],
            )

    def _add_actions(self, state: HandState, hand_id, run_id, variant) -> None:
        deck = state.game.deck
        count = len(state.actions)
        columns = zip(*state.actions, strict=True)
        streets, seats, kinds, amounts, cards, boards, automatic, stacks, pots = columns
        data = self.actions.data
        data["hand_id"] += [hand_id] * count
        data["run_id"] += [run_id] * count
        data["variant"] += [variant] * count
        data["seq"] += range(count)
        data["street"] += streets
        data["seat"] += seats
        data["action"] += kinds
        data["amount"] += amounts
        data["cards"] += [format_cards(c, deck) if c else None for c in cards]
        data["board"] += boards
        data["automatic"] += automatic
        data["stack_after"] += stacks
        data["pot_after"] += pots
