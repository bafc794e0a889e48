"""The two drawing policies compared (``draw_policy`` = standard or sampled), heads-up, showdown mode.

For each draw game: the equity of a standard starting hand against a random one under each policy
(the same deals for both: paired, with the 95% interval of the difference), and how much the
sampled policy gains: how often its final hand beats a standard player's final hand (0.5: no gain),
against the standard policy's own (0.5 by construction). Prints numbers; run from the repository:

    .venv/bin/python benchmarks/draw_policies.py --hands 20000
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from engine.compiled.simulate import final_hand_scale, layout, random_words, simulate_chunk, words_per_hand
from engine.hands.cards import card_list
from engine.rules.games import GAMES

STARTING_HANDS = {  # a standard draw: four good cards and one to throw
    "deuce-to-seven-single-draw": "2c3d4h7sKc",
    "deuce-to-seven-triple-draw": "2c3d4h7sKc",
    "badugi": "Ac2d3hKh",
}


def _mean_ci(values: np.ndarray) -> str:
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return f"{mean:.4f} ± {half:.4f}"


def _deals_with(game, hero: list[int], hands: int, rng: np.random.Generator) -> np.ndarray:
    """Whole shuffled decks (the layout's order) with seat 0's hole cards fixed."""
    lay = layout(game, 2, {})
    rest = np.array([c for c in range(game.deck.size) if c not in hero], dtype=np.int64)
    deals = np.empty((hands, game.deck.size), dtype=np.int64)
    spots = [p for p in range(game.deck.size) if p not in set(lay.hole[0].tolist())]
    for h in range(hands):
        deals[h, lay.hole[0]] = hero
        deals[h, spots] = rng.permutation(rest)
    return deals


def compare(name: str, hands: int) -> None:
    game = GAMES[name]
    hero = card_list(STARTING_HANDS[name])
    deals = _deals_with(game, hero, hands, np.random.default_rng(1))
    equity = {}
    for policy in ("standard", "sampled"):
        start = time.perf_counter()
        batch = simulate_chunk(game, 2, 1, {"draw_policy": policy}, None, dealt=deals)
        equity[policy] = batch.won[:, 0] / 2.0
        took = time.perf_counter() - start
        print(f"  {STARTING_HANDS[name]} against a random hand, {policy:>8}: equity "
              f"{_mean_ci(equity[policy])} ({hands:,} hands, {took:.1f} s)")  # fmt: skip
    print(f"  paired difference (sampled - standard): {_mean_ci(equity['sampled'] - equity['standard'])}")
    keys, below = final_hand_scale(game, {})
    u = random_words(np.random.default_rng(2), hands, words_per_hand(game, 2, {}))
    for policy in ("standard", "sampled"):
        finals = simulate_chunk(game, 2, 1, {"draw_policy": policy}, u).strength.ravel()
        worth = below[np.searchsorted(keys, finals, side="right") - 1]
        print(f"  random deals, {policy:>8}: a final hand beats a standard player's final hand "
              f"{_mean_ci(worth)} of the time (ties half)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    args = parser.parse_args()
    for name in STARTING_HANDS:
        print(f"{GAMES[name].title}, heads-up, showdown mode:")
        compare(name, args.hands)


if __name__ == "__main__":
    main()
