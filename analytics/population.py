"""Populations: a statistic is taken over one kind of hand, never a blend.

A population is one mode (``showdown``: simulated with everyone all in; ``betting``: simulated
with policies betting; ``replayed``: real hand histories), one table size, one betting
structure and one rule set (the rule options in force, as stored with every hand); betting
mode's also one play: the policies round the table and the stacks in big blinds (from the runs
table, as ``play_of`` words them).
``populations`` lists those of a game's hands with their counts (complete showdown-mode runs
from the runs table, without reading their files); ``choose`` picks the one asked for, the
fields not given defaulting to the largest population that matches.

>>> Population("showdown", 6, "all-in").label
'showdown mode (all in), 6 players'
>>> Population("showdown", 6, "all-in", '{"hole_cards": 5}', "hole_cards=5").label
'showdown mode (all in), 6 players, hole_cards=5'
>>> print(Population("betting", 2, "fixed-limit", '{"burns": false}').hands_filter)
source = 'simulation' AND structure = 'fixed-limit' AND n_players = 2 AND options = '{"burns": false}'
>>> Population("betting", 2, "no-limit", play="pushfold, 10 bb", runs=("r1",)).label
'betting mode, no-limit, 2 players, pushfold, 10 bb'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ingest.storage.schema import seat_policies

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
    play: str = ""  # betting mode: the policies and stack depth (``play_of``)
    runs: tuple[str, ...] = field(default=(), compare=False)  # betting mode: the runs of its hands

    @property
    def label(self) -> str:
        kind = {"showdown": "showdown mode (all in)", "betting": "betting mode", "replayed": "replayed hands"}
        what = kind[self.mode] + ("" if self.mode == "showdown" else f", {self.structure}")
        extra = "".join(f", {text}" for text in (self.play, self.changed) if text)
        return f"{what}, {self.players} players{extra}"

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
        if self.runs:
            where += " AND run_id IN (" + ", ".join("'" + r.replace("'", "''") + "'" for r in self.runs) + ")"
        return where

    def as_dict(self, hands: int | None = None) -> dict[str, Any]:
        """The population as JSON output gives it (``options`` as a table), with its hand count."""
        return (
            {k: v for k, v in asdict(self).items() if k != "runs"}
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


def play_of(policies: list[str], players: int, stake: int, big_blind: int, ante: str = "") -> str:
    """A betting-mode run's play in words: its policies round the table, its stacks, and its antes
    where ``simulate --ante`` set them.

    >>> play_of(["tag", "station"], 6, 100, 2), play_of(["pushfold"], 2, 100, 6, "1/8")
    ('tag, station, 50 bb', 'pushfold, 16.6667 bb, antes of 1/8 bb')
    """
    antes = f", antes of {ante} bb" if ante else ""
    return f"{', '.join(seat_policies(policies, players))}, {stake / big_blind:g} bb{antes}"


def _mode_of(source: str, structure: str) -> str:
    if source != "simulation":
        return "replayed"
    return "showdown" if structure == ALL_IN else "betting"


def populations(con: duckdb.DuckDBPyConnection, variant: str, runs: list[str],
                summarized: dict[str, tuple[int, int, str]], defaults: Mapping[str, Any] | None = None,
                plays: Mapping[str, str] | None = None) -> dict[Population, int]:  # fmt: skip
    """Every population of a game's hands in the chosen runs, with its hand count.

    ``summarized`` maps each complete showdown-mode run (counted from the runs table, its files
    unread) to its (players, hands, options); ``con``'s ``hands_raw`` holds the other hands.
    ``defaults`` (the game's rule options) lets each label name the options that differ;
    ``plays`` gives each betting-mode run's play (``play_of``).
    """
    counts: dict[Population, int] = {}
    of_play: dict[Population, list[str]] = {}
    found = [("simulation", ALL_IN, n, options, run, hands)
             for run, (n, hands, options) in summarized.items()]  # fmt: skip
    found += con.sql(
        "SELECT source, structure, n_players, coalesce(options, ''), run_id, count(*) FROM hands_raw "
        "WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id)) GROUP BY ALL",
        params={"variant": variant, "runs": list(runs)},
    ).fetchall()
    for source, structure, players, options, run, hands in found:
        changed = changed_options(options, defaults or {}) if options else "rule options unknown"
        mode = _mode_of(source, structure)
        play = (plays or {}).get(run, "") if mode == "betting" else ""
        key = Population(mode, int(players), structure, options, changed, play)
        counts[key] = counts.get(key, 0) + int(hands)
        of_play.setdefault(key, []).append(run)
    return {(replace(p, runs=tuple(sorted(of_play[p]))) if p.mode == "betting" else p): n
            for p, n in counts.items()}  # fmt: skip


def choose(found: dict[Population, int], mode: str | None = None, players: int | None = None,
           structure: str | None = None, options: Mapping[str, Any] | None = None, label: str | None = None,
           play: str | None = None) -> Population | None:  # fmt: skip
    """The population asked for (None for a field: the largest that matches), or None if none does.

    ``options`` names some rule options; a population matches when its hands were played under
    them. ``label`` picks the one population of that label (as a list of populations shows it);
    ``play`` a betting-mode play as ``play_of`` words it (``"pushfold, 10 bb"``).
    """
    if label is not None:
        return next((p for p in found if p.label == label), None)
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    asked = dict(options or {})
    matching = [
        p for p in found
        if (mode is None or p.mode == mode) and (players is None or p.players == players)
        and (structure is None or p.structure == structure) and (play is None or p.play == play)
        and all(p.rule_options.get(name) == value for name, value in asked.items())
    ]  # fmt: skip
    if not matching:
        return None
    return min(matching, key=lambda p: largest_first(p, found))


def largest_first(population: Population, found: dict[Population, int]) -> tuple:
    """Sort key: the most hands first; on a tie the earlier mode, the smaller table, the game's
    default rules (nothing changed), then the rule options' text and the play."""
    p = population
    return (-found[p], MODES.index(p.mode), p.players, p.changed, p.options or "", p.play)
