"""A ``SiteHand`` as PHH fields: the record the replay checks and the warehouse stores.

Amounts become TOML numbers whose text is the file's decimal (``0.05``), the form PHH files hold
and ``ingest.histories.money`` turns into exact units; a card nobody saw is ``??``.
"""

from __future__ import annotations

from decimal import Context, Decimal
from functools import lru_cache
from typing import Any

from ingest.histories.sites.site_hand import ZERO, SiteHand, arithmetic_notes, bet_after, forced_bets, owed_on
from ingest.histories.sites.text import MOST_DIGITS, SiteError

_EXACT = Context(prec=2 * MOST_DIGITS)  # normalizes every amount ``number`` takes without rounding


@lru_cache(maxsize=1 << 12)  # a file's amounts repeat: stakes, antes, stacks, the zeros of winnings
def number(value: Decimal) -> int | float:
    """An amount as TOML would read the file's text of it (a float's shortest text is that text);
    ``SiteError`` for one of more digits than a float carries exactly (never changed to a near one).

    >>> number(Decimal("0.50")), number(Decimal("1500.00"))
    (0.5, 1500)
    >>> number(Decimal("81758556975224.54"))  # (a float: 81758556975224.55)
    Traceback (most recent call last):
    ...
    ingest.histories.sites.text.SiteError: 81758556975224.54 has more digits than scooplab reads exactly
    """
    if value.adjusted() >= MOST_DIGITS or len(value.as_tuple().digits) > 2 * MOST_DIGITS:
        raise SiteError(f"an amount of {MOST_DIGITS} or more digits is more than scooplab reads exactly")
    value = value.normalize(_EXACT)  # exact: it has no more digits than that
    if len(value.as_tuple().digits) > MOST_DIGITS:
        raise SiteError(f"{value} has more digits than scooplab reads exactly")
    return int(value) if value == value.to_integral_value() else float(value)


def phh_fields(hand: SiteHand) -> dict[str, Any]:
    """The PHH fields of a site hand, with its own arithmetic checked (disagreements are notes)."""
    dealt = hand.dealt()
    order = {seat.name: f"p{k + 1}" for k, seat in enumerate(dealt)}
    antes, blinds = _forced_lists(hand, [s.name for s in dealt])
    fields: dict[str, Any] = {"variant": hand.variant, "antes": antes, "blinds_or_straddles": blinds}
    if hand.kind == "stud":
        del fields["blinds_or_straddles"]
        fields["bring_in"] = number(hand.bring_in)
    if hand.variant == "F7S" and _opens_fourth_street_big(hand):  # the rooms' open-pair rule, where used
        fields["_options"] = {"open_pair_big_bet": True}
    if hand.options:
        fields["_options"] = fields.get("_options", {}) | hand.options
    if hand.small_bet:
        fields["small_bet"], fields["big_bet"] = number(hand.small_bet), number(hand.big_bet)
    else:  # the big blind as posted (a header's level may name other stakes): the record decides
        posted = [p.amount for p in hand.forced if p.kind == "big" and not p.all_in]
        fields["min_bet"] = number(posted[0] if posted else hand.big_blind)
    fields["starting_stacks"] = [number(s.stack) for s in dealt]
    fields["actions"] = _actions(hand, dealt, order)
    fields["players"] = [s.name for s in dealt]
    fields["seats"] = [s.number for s in dealt]
    fields["winnings"] = [number(hand.collected.get(s.name, ZERO)) for s in dealt]
    fields["venue"] = hand.venue
    if hand.table:
        fields["table"] = hand.table
    if hand.seat_count:
        fields["seat_count"] = hand.seat_count
    if hand.currency:
        fields["currency"] = hand.currency
    if hand.hand_id.isdigit() and int(hand.hand_id) < 2**62:
        fields["hand"] = int(hand.hand_id)
    else:
        fields["_hand_id"] = hand.hand_id
    fields.update(hand.when)
    fields.update(_site_fields(hand, dealt))
    notes = hand.notes + arithmetic_notes(hand)
    if notes:
        fields["_notes"] = notes
    return fields


def _forced_lists(hand: SiteHand, names: list[str]) -> tuple[list, list]:
    """``antes`` and ``blinds_or_straddles`` in PHH order (reversed heads-up, as PHH assigns them)."""
    antes = dict.fromkeys(names, ZERO)
    blinds = dict.fromkeys(names, ZERO)
    for post in hand.forced:
        if post.name not in antes:
            raise SiteError(f"{post.name} posts but is not dealt in")
        if post.kind in ("ante", "dead"):
            antes[post.name] += post.amount
        elif post.kind == "live":
            blinds[post.name] -= post.amount  # out of turn: negative, first to act unmoved
        elif post.kind == "straddle":  # the poster's whole forced bet (over his blind, or straddled again)
            blinds[post.name] = max(blinds[post.name], post.amount)
        else:
            blinds[post.name] += post.amount
    ante_list = [number(antes[n]) for n in names]
    blind_list = [number(blinds[n]) if blinds[n] >= 0 else -number(-blinds[n]) for n in names]
    if len(names) == 2:
        ante_list.reverse()
        blind_list.reverse()
    return ante_list, blind_list


def _actions(hand: SiteHand, dealt: list, order: dict[str, str]) -> list[str]:
    """The PHH actions: hole cards, then street by street the board and the moves, then the shows."""
    unknown = "??" * hand.hole_cards
    actions = (
        []
        if hand.kind == "stud"
        else [f"d dh {order[s.name]} {hand.known.get(s.name, unknown)}" for s in dealt]
    )
    if hand.kind == "board" and hand.boards and hand.boards[0]:  # a board card before the first round
        actions.append(f"d db {hand.boards[0]}")  # (Courchevel)
    street, bets = 0, forced_bets(hand)
    for k, move in enumerate(hand.moves):
        while street < move.street:
            street, bets = street + 1, {}
            actions += [_board(hand, street)] if hand.kind == "board" else []
        who = order.get(move.name)
        if who is None:
            raise SiteError(f"{move.name} acts but is not dealt in")
        bet = bet_after(bets, move, owed_on(hand, street))
        if bet is not None and not _others_with_chips(hand, dealt, k):
            bet = None  # nobody left to call it: a call (the rest comes back either way)
        if move.verb == "cbr" or bet is not None:  # a call of a big blind posted short is a bet
            actions.append(f"{who} cbr {_text(move.amount if bet is None else bet)}")
        elif move.verb == "sd":
            actions.append(f"{who} sd {move.cards}".rstrip())
        elif move.verb == "dh":
            actions.append(f"d dh {who} {move.cards}")
        else:
            actions.append(f"{who} {move.verb}")
    while hand.kind == "board" and street < len(hand.boards) - 1:
        street += 1
        actions.append(_board(hand, street))
    for run in hand.more_runs:  # each later run's streets, in order (docs/phh-extensions.md, "_runs")
        actions += [f"d db {run[street]}" for street in sorted(run)]
    folded = {m.name for m in hand.moves if m.verb == "f"}
    if sum(1 for s in dealt if s.name not in folded) > 1:  # a showdown: who showed, who mucked
        for name, cards in hand.shows:
            if name in order and name not in folded:
                actions.append(f"{order[name]} sm {cards}".rstrip())
    return actions


def _opens_fourth_street_big(hand: SiteHand) -> bool:
    """Whether a stud hand's fourth street opens with the big bet (the rooms' rule for an open pair;
    only such hands carry the option, so every other hand keeps the content id it had without it)."""
    opening = next((m for m in hand.moves if m.street == 1 and m.verb == "cbr"), None)
    return opening is not None and opening.amount == hand.big_bet != hand.small_bet


def _others_with_chips(hand: SiteHand, dealt: list, k: int) -> bool:
    """Whether a player in the hand besides the one making move ``k`` has chips behind before it."""
    before, name = hand.moves[:k], hand.moves[k].name
    put = {s.name: ZERO for s in dealt}
    for post in hand.forced:
        if post.kind in ("ante", "dead"):
            put[post.name] = put.get(post.name, ZERO) + post.amount
    bets = {(0, who): bet for who, bet in forced_bets(hand).items()}
    for move in before:
        key = (move.street, move.name)
        if move.verb == "cbr":
            bets[key] = move.amount
        elif move.verb in ("cc", "pb"):
            bets[key] = bets.get(key, ZERO) + move.amount
    for (_, who), bet in bets.items():
        put[who] = put.get(who, ZERO) + bet
    folded = {move.name for move in before if move.verb == "f"}
    return any(s.stack > put[s.name] for s in dealt if s.name != name and s.name not in folded)


def _board(hand: SiteHand, street: int) -> str:
    if street >= len(hand.boards) or not hand.boards[street]:
        raise SiteError(f"no board cards for street {street + 1}")
    return f"d db {hand.boards[street]}"


def _text(value: Decimal) -> str:
    """An amount as an action writes it (``2.5``), refused as ``number`` refuses it."""
    number(value)
    return format(value.normalize(_EXACT), "f")


def _site_fields(hand: SiteHand, dealt: list) -> dict[str, Any]:
    """The ``_`` fields: chips kind, tournament, bounties, cash-outs, fees besides the rake (the file's
    total pot and rake are checked while reading: ``site_hand.arithmetic_notes``)."""
    fields: dict[str, Any] = {f"_{k}": v for k, v in hand.extra.items()}
    if hand.chips:
        fields["_chips"] = hand.chips
    if any(s.bounty for s in dealt):
        fields["_bounties"] = [s.bounty or "" for s in dealt]
    if hand.cash_outs:
        fields["_cash_outs"] = [_text(hand.cash_outs.get(s.name, (ZERO, ZERO))[0]) for s in dealt]
        fields["_cash_out_fees"] = [_text(hand.cash_outs.get(s.name, (ZERO, ZERO))[1]) for s in dealt]
    if hand.insurance:
        fields["_insured"] = [_text(hand.insurance.get(s.name, (ZERO, ZERO))[0]) for s in dealt]
        fields["_insurance_premiums"] = [_text(hand.insurance.get(s.name, (ZERO, ZERO))[1]) for s in dealt]
    if hand.more_runs:
        fields["_runs"] = 1 + len(hand.more_runs)
    if hand.fees:  # jackpot and the like: the stored rake holds them, this says how much was not rake
        fields["_fees"] = _text(hand.fees)
    return fields
