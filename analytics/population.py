"""Populations: a statistic is taken over one kind of hand, never a blend.

A population is one mode (``showdown``: simulated with everyone all in; ``betting``: simulated
with policies betting; ``replayed``: real hand histories), one table size, one betting
structure and one rule set (the rule options in force, as stored with every hand).
``populations`` lists those of a game's hands with their counts (complete showdown-mode runs
from the runs table, without reading their files); ``choose`` picks the one asked for, the
fields not given defaulting to the largest population that matches.

>>> Population("showdown", 6, "all-in").label
'showdown mode (all in), 6 players'
>>> Population("showdown", 6, "all-in", '{"hole_cards": 5}', "hole_cards=5").label
'showdown mode (all in), 6 players, hole_cards=5'
>>> print(Population("betting", 2, "fixed-limit", '{"burns": false}').hands_filter)
source = 'simulation' AND structure = 'fixed-limit' AND n_players = 2 AND options = '{"burns": false}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

MODES = ("showdown", "betting", "replayed")
ALL_IN = "all-in"  # the structure column of showdown-mode hands


@dataclass(frozen=True)
class Population:
    """One kind of hand: mode, table size, betting structure (``all-in`` in showdown mode), rule set.

    ``options`` is the rule options as stored with every hand (JSON, keys sorted, defaults
    included; ``""``: hands that stored none; None: any); ``changed`` says in words those that
    differ from the game's defaults.
    """

    mode: str
    players: int
    structure: str
    options: str | None = None
    changed: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        kind = {"showdown": "showdown mode (all in)", "betting": "betting mode", "replayed": "replayed hands"}
        what = kind[self.mode] + ("" if self.mode == "showdown" else f", {self.structure}")
        return f"{what}, {self.players} players" + (f", {self.changed}" if self.changed else "")

    @property
    def rule_options(self) -> dict[str, Any]:
        """The rule options of the population's hands ({} when it takes any)."""
        return json.loads(self.options) if self.options else {}

    @property
    def hands_filter(self) -> str:
        """The SQL condition on the hands table's columns (values are checked, never free text)."""
        source = "source = 'simulation'" if self.mode != "replayed" else "source <> 'simulation'"
        structure = self.structure.replace("'", "")
        where = f"{source} AND structure = '{structure}' AND n_players = {int(self.players)}"
        if self.options == "":
            where += " AND options IS NULL"
        elif self.options is not None:
            where += " AND options = '" + self.options.replace("'", "''") + "'"
        return where

    def as_dict(self, hands: int | None = None) -> dict[str, Any]:
        """The population as JSON output gives it (``options`` as a table), with its hand count."""
        return (
            asdict(self)
            | {"options": self.rule_options, "label": self.label}
            | ({} if hands is None else {"hands": hands})
        )


def changed_options(options: str, defaults: Mapping[str, Any]) -> str:
    """The rule options of a stored options text that differ from ``defaults``, in words.

    >>> changed_options('{"burns": true, "raises": 1}', {"burns": False, "raises": 1})
    'burns=true'
    """
    values = json.loads(options) if options else {}
    return ", ".join(
        f"{name}={json.dumps(value)}" if not isinstance(value, str) else f"{name}={value}"
        for name, value in sorted(values.items())
        if defaults.get(name) != value
    )


def _mode_of(source: str, structure: str) -> str:
    if source != "simulation":
        return "replayed"
    return "showdown" if structure == ALL_IN else "betting"


def populations(con: duckdb.DuckDBPyConnection, variant: str, runs: list[str],
                summarized: dict[str, tuple[int, int, str]], defaults: Mapping[str, Any] | None = None
                ) -> dict[Population, int]:  # fmt: skip
    """Every population of a game's hands in the chosen runs, with its hand count.

    ``summarized`` maps each complete showdown-mode run (counted from the runs table, its files
    unread) to its (players, hands, options); ``con``'s ``hands_raw`` holds the other hands.
    ``defaults`` (the game's rule options) lets each label name the options that differ.
    """
    counts: dict[Population, int] = {}
    found = [("simulation", ALL_IN, n, options, hands) for n, hands, options in summarized.values()]
    found += con.sql(
        "SELECT source, structure, n_players, coalesce(options, ''), count(*) FROM hands_raw "
        "WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id)) GROUP BY ALL",
        params={"variant": variant, "runs": list(runs)},
    ).fetchall()
    for source, structure, players, options, hands in found:
        changed = changed_options(options, defaults or {}) if options else "rule options unknown"
        key = Population(_mode_of(source, structure), int(players), structure, options, changed)
        counts[key] = counts.get(key, 0) + int(hands)
    return counts


def choose(found: dict[Population, int], mode: str | None = None, players: int | None = None,
           structure: str | None = None, options: Mapping[str, Any] | None = None, label: str | None = None
           ) -> Population | None:  # fmt: skip
    """The population asked for (None for a field: the largest that matches), or None if none does.

    ``options`` names some rule options; a population matches when its hands were played under
    them. ``label`` picks the one population of that label (as a list of populations shows it).
    """
    if label is not None:
        return next((p for p in found if p.label == label), None)
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    asked = dict(options or {})
    matching = [
        p for p in found
        if (mode is None or p.mode == mode) and (players is None or p.players == players)
        and (structure is None or p.structure == structure)
        and all(p.rule_options.get(name) == value for name, value in asked.items())
    ]  # fmt: skip
    if not matching:
        return None
    return min(matching, key=lambda p: largest_first(p, found))


def largest_first(population: Population, found: dict[Population, int]) -> tuple:
    """Sort key: the most hands first; on a tie the earlier mode, the smaller table, the game's
    default rules (nothing changed), then the rule options' text."""
    p = population
    return (-found[p], MODES.index(p.mode), p.players, p.changed, p.options)
