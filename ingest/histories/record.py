"""A finished hand state written as PHH fields (the inverse of ``ingest.histories.replay``)."""

from __future__ import annotations

from typing import Any

from engine.hands.cards import format_cards
from engine.rules.games import variant_code
from engine.rules.games.base import Structure
from engine.rules.state import HandState


def hand_fields(state: HandState, players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """PHH fields of a hand: what replaying them rebuilds, action by action."""
    game = state.game
    fields: dict[str, Any] = {
        "variant": variant_code(game, state.structure),
        "antes": state.phh_antes,
        "blinds_or_straddles": state.phh_blinds,
    }
    if game.bring_in:
        del fields["blinds_or_straddles"]
        fields["bring_in"] = state.bring_in
    if state.structure is Structure.FIXED_LIMIT:
        fields["small_bet"], fields["big_bet"] = state.small_bet, state.big_bet
    elif game.starting_bet:
        fields["_starting_bet"] = state.starting_bet
        del fields["blinds_or_straddles"]
    else:
        fields["min_bet"] = state.min_bet
    changed = {
        option.name: state.options[option.name]
        for option in game.options
        if state.options[option.name] != option.default
    }
    if changed:
        fields["_options"] = changed
    fields["starting_stacks"] = list(state.starting_stacks)
    fields["actions"] = action_texts(state)
    if state.is_over:
        fields["finishing_stacks"] = list(state.stacks)
    if players:
        fields["players"] = list(players)
    fields.update(extra)
    return fields


def action_texts(state: HandState) -> list[str]:
    """The PHH notation of every chosen action (posts and dead folds are implied)."""
    deck = state.game.deck
    texts: list[str] = []
    pending_boards: list[str] = []
    for action in state.actions:
        if action.automatic:
            continue
        cards = format_cards(action.cards, deck)
        if action.kind == "deal" and action.board is not None:
            pending_boards.append(cards)
            if len(pending_boards) == len(state.game.board_names):
                texts.append("d db " + "/".join(pending_boards))
                pending_boards = []
            continue
        player = f"p{action.seat + 1}" if action.seat is not None else ""
        if action.kind == "deal":
            texts.append(f"d dh {player} {cards}")
        elif action.kind == "fold":
            texts.append(f"{player} f")
        elif action.kind in ("check", "call"):
            texts.append(f"{player} cc")
        elif action.kind == "bring_in":
            texts.append(f"{player} pb")
        elif action.kind in ("bet", "raise"):
            texts.append(f"{player} cbr {action.amount}")
        elif action.kind in ("discard", "draw"):  # (a draw of no cards: stands pat)
            texts.append(f"{player} sd {cards}".rstrip())
        elif action.kind == "show":
            texts.append(f"{player} sm {cards}")
        elif action.kind == "muck":
            texts.append(f"{player} sm")
    return texts
