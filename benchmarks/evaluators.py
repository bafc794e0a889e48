"""Evaluator speed: evaluations per second on batches of random hands, one core.

Prints scooplab's compiled evaluators (standard 7 and 11 cards, Skœjarth 7
cards, short-deck 7 cards under its category order, Omaha eight-or-better lows, razz's 7-card
ace-to-five lows) and, on the same hands in the same run, phevaluator's ``evaluate_cards`` and
eval7's ``evaluate`` called from a Python loop when they are installed, and PokerKit's
short-deck, Omaha low and razz low hands (on ``--peer-hands`` of them: PokerKit is slow),
each checked to order the hands alike, with the ratios; then the time of the first call in a
fresh process, with the numba cache warm and with it empty (the compile cost a new machine
pays once).

    python benchmarks/evaluators.py [--hands 1000000] [--peer-hands 20000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.hands.cards import SHORT, format_cards  # noqa: E402
from engine.hands.evaluate import evaluate_high, evaluate_seven_rank  # noqa: E402
from engine.hands.kernels import evaluate_rows  # noqa: E402
from engine.hands.low_hands import NO_LOW, evaluate_low  # noqa: E402
from engine.hands.rankings import RANKINGS  # noqa: E402
from engine.rules.games import GAMES  # noqa: E402

# PokerKit ranks a straight over three of a kind in short deck: compare under that option
POKERKIT_SHORT_DECK = GAMES["short-deck"].category_places({"trips_beat_straight": False})


RAZZ = RANKINGS["ace-to-five-low"]


def razz_lows(rows: np.ndarray) -> np.ndarray:
    """Razz's lows of rows of 7 cards by the compiled key kernel the simulation calls."""
    out = np.empty(len(rows), np.int64)
    evaluate_rows(rows, out, RAZZ.code, True, RAZZ.tables(RAZZ.deck), 52, 8)
    return out


def random_hands(rng: np.random.Generator, n: int, k: int, deck_size: int) -> np.ndarray:
    """n hands of k distinct cards each, drawn in chunks to bound memory."""
    out = np.empty((n, k), dtype=np.int8)
    for start in range(0, n, 200_000):
        stop = min(n, start + 200_000)
        out[start:stop] = np.argsort(rng.random((stop - start, deck_size)), axis=1)[:, :k]
    return out


def best_rate(function, hands: np.ndarray, repeat: int) -> float:
    """Evaluations per second, best of ``repeat`` timed runs after a warm-up call."""
    function(hands[:1000])
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function(hands)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def peer_rates(hands: np.ndarray, ours: np.ndarray) -> dict[str, float]:
    """Rates of the installed peers' Python loops; each is checked to agree with our order."""
    rates: dict[str, float] = {}
    rows = hands.tolist()
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        print("phevaluator not installed: skipped")
    else:
        start = time.perf_counter()
        theirs = [evaluate_cards(*row) for row in rows]
        rates["phevaluator evaluate_cards (Python loop)"] = len(rows) / (time.perf_counter() - start)
        check_order(ours, -np.asarray(theirs), "phevaluator")
    try:
        import eval7
    except ImportError:
        print("eval7 not installed: skipped")
    else:
        deck = [eval7.Card("23456789TJQKA"[c // 4] + "cdhs"[c % 4]) for c in range(52)]
        start = time.perf_counter()
        theirs = [eval7.evaluate([deck[c] for c in row]) for row in rows]
        rates["eval7 evaluate (Python loop)"] = len(rows) / (time.perf_counter() - start)
        check_order(ours, np.asarray(theirs), "eval7")
    return rates


def pokerkit_rates(short: np.ndarray, omaha: np.ndarray, razz: np.ndarray) -> dict[str, float]:
    """PokerKit's short-deck, Omaha eight-or-better low and razz low hands from a Python loop,
    checked against ours."""
    try:
        from pokerkit import OmahaEightOrBetterLowHand, RegularLowHand, ShortDeckHoldemHand
    except ImportError:
        print("pokerkit not installed: skipped")
        return {}
    rates: dict[str, float] = {}
    texts = [(format_cards(row[:2], SHORT), format_cards(row[2:], SHORT)) for row in short]
    start = time.perf_counter()
    hands = [ShortDeckHoldemHand.from_game(hole, board) for hole, board in texts]
    rates["pokerkit short-deck 7-card (Python loop)"] = len(hands) / (time.perf_counter() - start)
    ours = evaluate_high(short, SHORT, POKERKIT_SHORT_DECK)
    check_pairs(ours, hands, "pokerkit short-deck", smaller_is_better=False)
    texts = [(format_cards(row[:4]), format_cards(row[4:])) for row in omaha]
    start = time.perf_counter()
    lows = []
    for hole, board in texts:
        try:
            lows.append(OmahaEightOrBetterLowHand.from_game(hole, board))
        except ValueError:
            lows.append(None)
    rates["pokerkit Omaha eight-or-better low (Python loop)"] = len(lows) / (time.perf_counter() - start)
    ours = evaluate_low(omaha[:, :4], omaha[:, 4:], "exactly-2")
    if [low is not None for low in lows] != (ours != NO_LOW).tolist():
        raise SystemExit("pokerkit finds lows in other hands than scooplab")
    found = [i for i, low in enumerate(lows) if low is not None]
    check_pairs(ours[found], [lows[i] for i in found], "pokerkit Omaha low", smaller_is_better=True)
    texts = [format_cards(row) for row in razz]
    start = time.perf_counter()
    hands = [RegularLowHand.from_game(text, "") for text in texts]
    rates["pokerkit razz 7-card low (Python loop)"] = len(hands) / (time.perf_counter() - start)
    check_pairs(razz_lows(razz), hands, "pokerkit razz low", smaller_is_better=False)
    return rates


def check_pairs(ours: np.ndarray, theirs: list, name: str, smaller_is_better: bool) -> None:
    """Consecutive hands compare the same way by our values and the peer's hand objects."""
    sign = -1 if smaller_is_better else 1
    for i in range(0, len(theirs) - 1, 2):
        peer = (theirs[i] > theirs[i + 1]) - (theirs[i] < theirs[i + 1])
        if peer != sign * np.sign(ours[i] - ours[i + 1]):
            raise SystemExit(f"{name} orders hands {i} and {i + 1} differently from scooplab")


def check_order(ours: np.ndarray, theirs: np.ndarray, name: str) -> None:
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], theirs[order]
    if not ((np.diff(b) >= 0).all() and ((np.diff(a) == 0) == (np.diff(b) == 0)).all()):
        raise SystemExit(f"{name} orders these hands differently from scooplab")


def first_call_seconds(cache_dir: str | None) -> float:
    """Seconds for import + first evaluation of each kind in a new process."""
    code = (
        "import time; t = time.perf_counter(); import numpy as np;"
        "from engine.hands.evaluate import evaluate_high, evaluate_seven_rank;"
        "h = np.arange(7, dtype=np.int8).reshape(1, 7); evaluate_high(h); evaluate_seven_rank(h);"
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return float(result.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-hands", type=int, default=20_000, help="hands for PokerKit's Python loops")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    seven = random_hands(rng, args.hands, 7, 52)
    eleven = random_hands(rng, args.hands, 11, 52)
    skoejarth = random_hands(rng, args.hands, 7, 28)
    short = random_hands(rng, args.hands, 7, 36)
    omaha = random_hands(rng, args.hands, 9, 52)

    rates = {
        "scooplab standard 7-card": best_rate(evaluate_high, seven, args.repeat),
        "scooplab standard 11-card": best_rate(evaluate_high, eleven, args.repeat),
        "scooplab Skœjarth 7-card": best_rate(evaluate_seven_rank, skoejarth, args.repeat),
        "scooplab short-deck 7-card": best_rate(
            lambda rows: evaluate_high(rows, SHORT, POKERKIT_SHORT_DECK), short, args.repeat
        ),
        "scooplab Omaha eight-or-better low": best_rate(
            lambda rows: evaluate_low(rows[:, :4], rows[:, 4:], "exactly-2"), omaha, args.repeat
        ),
        "scooplab razz 7-card low": best_rate(razz_lows, seven, args.repeat),
    }
    peers = peer_rates(seven, evaluate_high(seven))
    kit = pokerkit_rates(short[: args.peer_hands], omaha[: args.peer_hands], seven[: args.peer_hands])
    rates |= peers | kit
    with tempfile.TemporaryDirectory() as empty_cache:
        first_call = {
            "first call, numba cache warm (s)": first_call_seconds(None),
            "first call, numba cache empty (s)": first_call_seconds(empty_cache),
        }
    ratios = {
        f"standard 7-card vs {name}": rates["scooplab standard 7-card"] / rate for name, rate in peers.items()
    }
    for name, rate in kit.items():  # "pokerkit X (Python loop)" against "scooplab X"
        ours = "scooplab " + name.removeprefix("pokerkit ").removesuffix(" (Python loop)")
        ratios[f"{ours[9:]} vs {name}"] = rates[ours] / rate

    if args.json:
        print(json.dumps({"hands": args.hands, "rates": rates, "ratios": ratios} | first_call))
        return
    print(f"{args.hands:,} random hands per batch, one core, best of {args.repeat}")
    for name, rate in rates.items():
        print(f"  {name:<62} {rate / 1e6:9.2f} M evaluations/s")
    for name, ratio in ratios.items():
        print(f"  {name:<62} {ratio:9.1f} x")
    for name, seconds in first_call.items():
        print(f"  {name:<62} {seconds:9.2f}")


if __name__ == "__main__":
    main()
