"""PokerStars no-limit hold'em hand histories for benchmarks and tests, written by random play.

Each file is one table's session as the PokerStars client writes it: cash games in USD or EUR
(2 to 9 players at 6- or 9-max tables, 20 to 150 big blinds, rake from pots that saw a flop) and
tournaments (9-max, blinds and antes rising by level, bounties on some). Cards are dealt at
random; each player acts by a simple random script that only makes legal moves (no-limit: raises
of at least the last full raise, all-ins for less, a short all-in reopening nobody who already
acted): preflop folds and walks, limps, raises and re-raises, all-ins with side pots and
showdowns, uncalled bets returned, losers mucking. Showdowns are decided by scooplab's own
evaluator and pot division (``engine.rules.pots``: side pots, odd chips), so every hand replays.

    python benchmarks/stars_corpus.py OUT_FOLDER --hands 100000 [--seed 1] [--per-file 5000]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.hands.cards import parse_card_rows  # noqa: E402
from engine.hands.evaluate import evaluate_high  # noqa: E402
from engine.rules.pots import pots_with_antes, split_among_seats  # noqa: E402

RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
CASH_STAKES = ((1, 2), (2, 5), (5, 10), (10, 25), (25, 50), (50, 100), (100, 200))  # cents
LEVELS = ((10, 20, 0), (15, 30, 0), (25, 50, 5), (50, 100, 10), (75, 150, 15), (100, 200, 25),
          (150, 300, 40), (200, 400, 50), (300, 600, 75), (500, 1000, 100))  # fmt: skip
STREETS = ("", "Flop", "Turn", "River")
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
TABLE_NAMES = ("Alcyone", "Menkar", "Hesperia", "Lampland", "Vibilia", "Latona", "Donati", "Mekbuda")
SYLLABLES = ("ka", "ro", "mi", "ta", "zu", "fish", "shark", "pro", "ace", "nut", "lo", "vi", "xx", "jo")


@dataclass
class Setup:
    """A table: cash (its currency) or a tournament (its id, buy-in and level)."""

    cash: bool
    currency: str  # "USD", "EUR"; "" for tournament chips
    max_seats: int
    small: int  # in cents (cash) or chips
    big: int
    ante: int = 0
    tournament: int = 0
    buy_in: str = ""
    level: int = 0
    bounty: int = 0  # cents on each head, 0: none


@dataclass
class Player:
    seat: int
    name: str
    stack: int
    cards: list[str]
    bounty: int = 0
    bet: int = 0  # this street
    put: int = 0  # in the pot this hand (antes included)
    ante: int = 0
    folded: bool = False
    folded_on: int = 0  # the street
    level: int | None = None  # the street's bet when last acting (None: not yet)

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded


@dataclass
class Hand:
    """One hand being played and written."""

    setup: Setup
    players: list[Player]  # in PHH order: first left of the button, the button last
    button: int
    rng: random.Random
    lines: list[str] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    current: int = 0
    last_increment: int = 0
    street: int = 0

    def money(self, value: int) -> str:
        if not self.setup.cash:
            return str(value)
        symbol = "$" if self.setup.currency == "USD" else "€"
        return f"{symbol}{value // 100}" if value % 100 == 0 else f"{symbol}{value // 100}.{value % 100:02d}"

    def live(self) -> list[Player]:
        return [p for p in self.players if not p.folded]

    def pay(self, player: Player, value: int) -> int:
        paid = min(value, player.stack)
        player.stack -= paid
        player.bet += paid
        player.put += paid
        return paid


def names(rng: random.Random, count: int) -> list[str]:
    """A pool of screen names (a few with spaces, digits or dots)."""
    pool = set()
    while len(pool) < count:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3)))
        name += rng.choice(["", "", str(rng.randint(1, 999)), "_" + str(rng.randint(1, 99)), ".x"])
        if rng.random() < 0.03:
            name = name.capitalize() + " " + rng.choice(SYLLABLES).capitalize()
        pool.add(name)
    return sorted(pool)


def _seated(rng: random.Random, setup: Setup, pool: list[str]) -> tuple[list[Player], int]:
    count = rng.randint(2, setup.max_seats)
    seats = sorted(rng.sample(range(1, setup.max_seats + 1), count))
    button = rng.choice(seats)
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]  # PHH order
    cards = rng.sample(DECK, 2 * count + 5)
    chosen = rng.sample(pool, count)
    players = []
    for k, seat in enumerate(order):
        low, high = (20, 150) if setup.cash else (8, 120)
        stack = rng.randint(low * setup.big, high * setup.big)
        bounty = setup.bounty if setup.bounty else 0
        players.append(Player(seat, chosen[k], stack, cards[2 * k : 2 * k + 2], bounty))
    return players, button, cards[2 * count :]


def play_hand(rng: random.Random, setup: Setup, pool: list[str], number: int, when: datetime) -> str:
    """One hand's text as PokerStars writes it."""
    players, button, board = _seated(rng, setup, pool)
    hand = Hand(setup, players, button, rng)
    _header(hand, number, when)
    _posts(hand)
    hand.lines.append("*** HOLE CARDS ***")
    hero = rng.choice(players)
    hand.lines.append(f"Dealt to {hero.name} [{' '.join(hero.cards)}]")
    first = 1 if len(players) == 2 else 2 % len(players)
    _round(hand, first)
    for street, (name, size) in enumerate((("FLOP", 3), ("TURN", 1), ("RIVER", 1)), start=1):
        if len(hand.live()) < 2:
            break
        shown = " ".join(board[: len(hand.board)])
        hand.board = board[: len(hand.board) + size]
        new = " ".join(hand.board[-size:])
        hand.lines.append(f"*** {name} *** [{shown}] [{new}]" if shown else f"*** {name} *** [{new}]")
        for player in players:
            player.bet, player.level = 0, None
        hand.current, hand.last_increment, hand.street = 0, 0, street
        if sum(1 for p in hand.live() if not p.all_in) >= 2:
            _round(hand, 0)
    _settle(hand)
    return "\n".join(hand.lines) + "\n"


def _header(hand: Hand, number: int, when: datetime) -> None:
    setup, stamp = hand.setup, when.strftime("%Y/%m/%d %H:%M:%S")
    if setup.cash:
        stakes = f"({hand.money(setup.small)}/{hand.money(setup.big)} {setup.currency})"
        hand.lines.append(f"PokerStars Hand #{number}:  Hold'em No Limit {stakes} - {stamp} ET")
        table = f"{TABLE_NAMES[number % len(TABLE_NAMES)]} {ROMAN[number % 7]}"
    else:
        level = f"Level {ROMAN[setup.level]} ({setup.small}/{setup.big})"
        hand.lines.append(f"PokerStars Hand #{number}: Tournament #{setup.tournament}, {setup.buy_in} "
                          f"Hold'em No Limit - {level} - {stamp} ET")  # fmt: skip
        table = f"{setup.tournament} {1 + number % 20}"
    hand.lines.append(f"Table '{table}' {setup.max_seats}-max Seat #{hand.button} is the button")
    for player in sorted(hand.players, key=lambda p: p.seat):
        bounty = f", ${player.bounty // 100}.{player.bounty % 100:02d} bounty" if player.bounty else ""
        hand.lines.append(f"Seat {player.seat}: {player.name} ({hand.money(player.stack)} in chips{bounty})")


def _posts(hand: Hand) -> None:
    setup, players = hand.setup, hand.players
    if setup.ante:
        for player in sorted(players, key=lambda p: p.seat):
            player.ante = paid = min(setup.ante, player.stack)
            player.stack -= paid
            player.put += paid
            hand.lines.append(f"{player.name}: posts the ante {hand.money(paid)}" + _all_in(player))
    small, big = (players[1], players[0]) if len(players) == 2 else (players[0], players[1])
    for player, blind, words in ((small, setup.small, "small blind"), (big, setup.big, "big blind")):
        paid = hand.pay(player, blind)
        hand.lines.append(f"{player.name}: posts {words} {hand.money(paid)}" + _all_in(player))
    hand.current, hand.last_increment = max(small.bet, big.bet), setup.big


def _all_in(player: Player) -> str:
    return " and is all-in" if player.stack == 0 else ""


def _round(hand: Hand, first: int) -> None:
    """One betting round from PHH seat ``first``: until everyone still able to act has acted since the
    last full raise and matched the bet (or is all in), or one player is left."""
    players, n, k = hand.players, len(hand.players), first
    while len(hand.live()) > 1:
        able = [p for p in players if not p.folded and not p.all_in]
        if all(p.level is not None and p.bet == hand.current for p in able):
            break
        if len(able) == 1 and able[0].bet >= hand.current:
            break
        player = players[k % n]
        k += 1
        if player.folded or player.all_in or (player.level is not None and player.bet == hand.current):
            continue
        _act(hand, player)
    _return_uncalled(hand)


def _act(hand: Hand, player: Player) -> None:
    rng, setup = hand.rng, hand.setup
    to_call = hand.current - player.bet
    full = max(hand.last_increment, setup.big)
    may_raise = player.level is None or hand.current - player.level >= full
    others = [p for p in hand.live() if p is not player and not p.all_in]
    may_raise = may_raise and bool(others) and player.stack > to_call
    roll = rng.random()
    if to_call and roll < (0.55 if hand.street == 0 else 0.35):
        player.folded, player.folded_on = True, hand.street
        hand.lines.append(f"{player.name}: folds")
    elif may_raise and roll > (0.8 if to_call else 0.6):
        _raise(hand, player, full)
    elif to_call:
        paid = hand.pay(player, to_call)
        hand.lines.append(f"{player.name}: calls {hand.money(paid)}" + _all_in(player))
    else:
        hand.lines.append(f"{player.name}: checks")
    player.level = hand.current  # the bet this player last acted at (a raise: his own)


def _raise(hand: Hand, player: Player, full: int) -> None:
    rng = hand.rng
    lowest, most = hand.current + full, player.bet + player.stack
    pot = sum(p.put for p in hand.players)
    if most <= lowest or rng.random() < 0.08:
        to = most  # all in (for less than a full raise, perhaps)
    else:
        to = min(most, rng.randint(lowest, max(lowest, hand.current + pot)))
        if hand.setup.cash and to < most:
            to = max(lowest, to - to % hand.setup.small)
    increment, before = to - hand.current, hand.current
    hand.pay(player, to - player.bet)
    if increment >= full:
        hand.last_increment = increment
    hand.current = to
    verb = f"raises {hand.money(increment)} to {hand.money(to)}" if before else f"bets {hand.money(to)}"
    hand.lines.append(f"{player.name}: {verb}" + _all_in(player))


def _return_uncalled(hand: Hand) -> None:
    """The part of the street's largest bet nobody matched goes back to its player."""
    bets = sorted(hand.players, key=lambda p: p.bet, reverse=True)
    top, second = bets[0], bets[1].bet if len(bets) > 1 else 0
    if top.bet > second:
        back = top.bet - second
        top.bet -= back
        top.put -= back
        top.stack += back
        hand.current = second
        hand.lines.append(f"Uncalled bet ({hand.money(back)}) returned to {top.name}")


def _settle(hand: Hand) -> None:
    """The showdown (scooplab's evaluator, its pot division), the collected lines and the summary."""
    players, live = hand.players, hand.live()
    strengths = {}
    if len(live) > 1:
        hand.lines.append("*** SHOW DOWN ***")
        rows = parse_card_rows(["".join(p.cards + hand.board) for p in live])
        strengths = dict(zip((id(p) for p in live), evaluate_high(rows).tolist(), strict=True))
    contributed = [p.put for p in players]
    pots = pots_with_antes(contributed, [p.ante for p in players], [p.folded for p in players])
    won: list[dict[int, int]] = []
    for pot in pots:
        contenders = [s for s in pot.eligible if not players[s].folded] or list(pot.eligible)
        best = max(strengths.get(id(players[s]), 0) for s in contenders)
        winners = [s for s in contenders if strengths.get(id(players[s]), 0) == best]
        won.append(split_among_seats(pot.amount, winners))
    winning = {s for shares in won for s, v in shares.items() if v > 0}
    mucked = set()
    for s, player in enumerate(players):
        if len(live) > 1 and not player.folded:
            if s not in winning and hand.rng.random() < 0.3:
                mucked.add(s)
                hand.lines.append(f"{player.name}: mucks hand")
            else:
                hand.lines.append(f"{player.name}: shows [{' '.join(player.cards)}] (a hand)")
    total = sum(contributed)
    rake = _rake(hand, total, won[0])
    _collected(hand, won, rake)
    _summary(hand, won, rake, total, mucked)


def _rake(hand: Hand, total: int, main: dict[int, int]) -> int:
    """5% of a pot that saw a flop, at most $1 (at stakes from $0.50/$1: $3), and less than the main
    pot's largest share (it is taken from that)."""
    if not hand.setup.cash or not hand.board:
        return 0
    return max(0, min(total * 5 // 100, 300 if hand.setup.big >= 100 else 100, max(main.values()) - 1))


def _collected(hand: Hand, won: list[dict[int, int]], rake: int) -> None:
    """``collected`` lines of each pot (the rake off the main pot's largest share)."""
    players = hand.players
    main = won[0]
    raked = max(main, key=lambda s: main[s])
    for k, shares in enumerate(won):
        where = "pot" if len(won) == 1 else "main pot" if k == 0 else "side pot" if len(won) == 2 else \
            f"side pot-{k}"  # fmt: skip
        for s, value in shares.items():
            value -= rake if k == 0 and s == raked else 0
            if value > 0:
                hand.lines.append(f"{players[s].name} collected {hand.money(value)} from {where}")


def _summary(hand: Hand, won: list[dict[int, int]], rake: int, total: int, mucked: set[int]) -> None:
    players = hand.players
    pots = [sum(shares.values()) for shares in won]
    text = f"Total pot {hand.money(total)}"
    if len(pots) > 1:
        sides = [f"Side pot {hand.money(pots[1])}."] if len(pots) == 2 else \
            [f"Side pot-{k} {hand.money(v)}." for k, v in enumerate(pots[1:], start=1)]  # fmt: skip
        text += f" Main pot {hand.money(pots[0])}. " + " ".join(sides)
    hand.lines += ["*** SUMMARY ***", f"{text} | Rake {hand.money(rake)}"]
    if hand.board:
        hand.lines.append(f"Board [{' '.join(hand.board)}]")
    gains = {s: sum(shares.get(s, 0) for shares in won) for s in range(len(players))}
    gains[max(won[0], key=lambda s: won[0][s])] -= rake
    shown = len(hand.live()) > 1
    for s in sorted(range(len(players)), key=lambda s: players[s].seat):
        player = players[s]
        role = " (button)" if player.seat == hand.button else ""
        if (len(players) > 2 and s == 0) or (len(players) == 2 and s == 1):
            role += " (small blind)"
        elif (len(players) > 2 and s == 1) or (len(players) == 2 and s == 0):
            role += " (big blind)"
        cards = " ".join(player.cards)
        if player.folded:
            what = f"folded on the {STREETS[player.folded_on]}" if player.folded_on else "folded before Flop"
        elif s in mucked:
            what = "mucked"
        elif shown:
            what = f"showed [{cards}] and " + (f"won ({hand.money(gains[s])})" if gains[s] > 0 else "lost")
        else:
            what = f"collected ({hand.money(gains[s])})"
        hand.lines.append(f"Seat {player.seat}: {player.name}{role} {what}")


def sessions(rng: random.Random, hands: int, per_file: int) -> list[tuple[Setup, int]]:
    """The tables of a corpus: (setup, hands played) each, about ``per_file`` hands a table."""
    out, left, tournament = [], hands, 3_900_000_000
    while left > 0:
        count = min(left, per_file)
        if rng.random() < 0.7:
            small, big = rng.choice(CASH_STAKES)
            setup = Setup(True, rng.choice(("USD", "EUR")), rng.choice((6, 9)), small, big)
        else:
            tournament += rng.randint(1, 10_000)
            fee = rng.choice((("$10+$1 USD", 0), ("$4.40+$4.40+$1.20 USD", 440), ("$5.00+$0.50 USD", 0)))
            setup = Setup(False, "", 9, 10, 20, tournament=tournament, buy_in=fee[0], bounty=fee[1])
        out.append((setup, count))
        left -= count
    return out


def corpus(hands: int, seed: int = 1, per_file: int = 5_000) -> Iterator[list[str]]:
    """The hands of a corpus, a list of texts for each table (file): ``hands`` in all."""
    rng = random.Random(seed)
    pool = names(rng, 3_000)
    number, when = 250_000_000_000 + seed * 10_000_000, datetime(2025, 1, 1)
    for setup, count in sessions(rng, hands, per_file):
        texts = []
        for i in range(count):
            if not setup.cash:
                setup.level = min(len(LEVELS) - 1, i * len(LEVELS) // max(count, 1))
                setup.small, setup.big, setup.ante = LEVELS[setup.level]
            number += rng.randint(1, 50)
            when += timedelta(seconds=rng.randint(20, 120))
            texts.append(play_hand(rng, setup, pool, number, when))
        yield texts


def write_corpus(folder: Path, hands: int, seed: int = 1, per_file: int = 5_000) -> list[Path]:
    """``hands`` hands in files of one table each under ``folder`` (made); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, texts in enumerate(corpus(hands, seed, per_file)):
        path = folder / f"HH table-{k:03d}.txt"
        path.write_text("\n\n\n".join(texts) + "\n\n\n", encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-file", type=int, default=5_000)
    args = parser.parse_args()
    paths = write_corpus(args.out, args.hands, args.seed, args.per_file)
    print(f"{args.hands:,} hands in {len(paths)} files under {args.out}")


if __name__ == "__main__":
    main()
