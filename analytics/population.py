"""Populations: a statistic is taken over one kind of hand, never a blend.

A population is one mode (``showdown``: simulated with everyone all in; ``betting``: simulated
with policies betting; ``replayed``: real hand histories), one table size and one betting
structure. ``populations`` lists those of a game's hands with their counts (complete
showdown-mode runs from the runs table, without reading their files); ``choose`` picks the
one asked for, the fields not given defaulting to the largest population that matches.

>>> Population("showdown", 6, "all-in").label
'showdown mode (all in), 6 players'
>>> Population("betting", 2, "fixed-limit").hands_filter
"source = 'simulation' AND structure = 'fixed-limit' AND n_players = 2"
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

MODES = ("showdown", "betting", "replayed")
ALL_IN = "all-in"  # the structure column of showdown-mode hands


@dataclass(frozen=True)
class Population:
    """One kind of hand: mode, table size, betting structure (``all-in`` in showdown mode)."""

    mode: str
    players: int
    structure: str

    @property
    def label(self) -> str:
        kind = {"showdown": "showdown mode (all in)", "betting": "betting mode", "replayed": "replayed hands"}
        what = kind[self.mode] + ("" if self.mode == "showdown" else f", {self.structure}")
        return f"{what}, {self.players} players"

    @property
    def hands_filter(self) -> str:
        """The SQL condition on the hands table's columns (values are checked, never free text)."""
        source = "source = 'simulation'" if self.mode != "replayed" else "source <> 'simulation'"
        structure = self.structure.replace("'", "")
        return f"{source} AND structure = '{structure}' AND n_players = {int(self.players)}"

    def as_dict(self, hands: int | None = None) -> dict[str, Any]:
        return asdict(self) | {"label": self.label} | ({} if hands is None else {"hands": hands})


def _mode_of(source: str, structure: str) -> str:
    if source != "simulation":
        return "replayed"
    return "showdown" if structure == ALL_IN else "betting"


def populations(con, variant: str, runs: list[str], summarized: dict[str, tuple[int, int]]
                ) -> dict[Population, int]:  # fmt: skip
    """Every population of a game's hands in the chosen runs, with its hand count.

    ``summarized`` maps each complete showdown-mode run (counted from the runs table, its files
    unread) to its (players, hands); ``con``'s ``hands_raw`` holds the other hands.
    """
    counts: dict[Population, int] = {}
    for players, hands in summarized.values():
        key = Population("showdown", int(players), ALL_IN)
        counts[key] = counts.get(key, 0) + int(hands)
    rows = con.sql(
        "SELECT source, structure, n_players, count(*) FROM hands_raw "
        "WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id)) GROUP BY ALL",
        params={"variant": variant, "runs": list(runs)},
    ).fetchall()
    for source, structure, players, hands in rows:
        key = Population(_mode_of(source, structure), int(players), structure)
        counts[key] = counts.get(key, 0) + int(hands)
    return counts


def choose(found: dict[Population, int], mode: str | None = None, players: int | None = None,
           structure: str | None = None) -> Population | None:  # fmt: skip
    """The population asked for (None for a field: the largest that matches), or None if none does."""
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    matching = [
        p for p in found
        if (mode is None or p.mode == mode) and (players is None or p.players == players)
        and (structure is None or p.structure == structure)
    ]  # fmt: skip
    if not matching:
        return None
    return max(matching, key=lambda p: (found[p], -MODES.index(p.mode), -p.players))
