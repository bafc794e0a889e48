"""Statistics as flat rows (for tables and CSV); ``analytics.compare`` compares two runs by them.

>>> rows = flatten({"scoop_rate": {"count": 3, "n": 10, "rate": 0.3, "ci95": [0.1, 0.6]}})
>>> rows[0]["statistic"], rows[0]["rate"]
('scoop_rate', 0.3)
"""

from __future__ import annotations

from typing import Any

RATE_KEYS = {"count", "n", "rate", "ci95"}
LABEL_KEYS = (
    "draw", "category", "low_points", "cards", "river_rank", "best_fan_card", "rank", "pairs_held", "player",
    "street",
)  # fmt: skip


def _label(item: dict[str, Any]) -> str | None:
    for key in LABEL_KEYS:
        if key in item:
            return f"{key}={item[key]}"
    return None


def flatten(stats: dict[str, Any], prefix: str = "") -> list[dict[str, Any]]:
    """Every rate in a statistics dict as a row: statistic, count, n, rate, interval, exact, z."""
    rows: list[dict[str, Any]] = []
    for key, value in stats.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and set(value) >= RATE_KEYS:
            low, high = value["ci95"]
            rows.append(
                {
                    "statistic": name,
                    "count": value["count"],
                    "n": value["n"],
                    "rate": value["rate"],
                    "ci95_low": low,
                    "ci95_high": high,
                    "exact": value.get("exact"),
                    "z": value.get("z"),
                }
            )
        elif isinstance(value, dict):
            rows += flatten(value, f"{name}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for item in value:
                label = _label(item)
                if label and set(item) >= RATE_KEYS:
                    rows += flatten({f"{name}[{label}]": item})
                elif label:  # an item holding several rates (one player's statistics)
                    rates = {k: v for k, v in item.items() if isinstance(v, dict)}
                    rows += flatten(rates, f"{name}[{label}].")
    return rows


def scalars(stats: dict[str, Any]) -> dict[str, Any]:
    """The plain numbers of a statistics dict (hands, pot sizes...)."""
    out: dict[str, Any] = {}
    for key in ("hands", "showdown_hands", "uncontested_hands", "showdown_mode_hands"):
        out[key] = stats.get(key)
    for key, value in (stats.get("pot") or {}).items():
        out[f"pot.{key}"] = value
    return out
