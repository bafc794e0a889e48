"""Push/fold equilibria across games: the comparison table (``pushfold_summary``) and the charts
(``pushfold_chart``), read from the solutions stored by ``scooplab solve pushfold``.

One row is one population: a game under one rule set, heads-up, one stack and ante, one plan
(classes or buckets, samples and seed); where several plans solved the same spot, exact classes
come before buckets, then the plan of the most samples (then the latest).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from analytics.db import connect, view_sql

STACKS = (5.0, 10.0, 15.0)  # big blinds of the comparison table
COLUMNS = (
    "variant", "options", "stack", "ante", "abstraction", "plan", "classes", "pushed", "called", "value",
    "exploitability", "full_exploitability_low", "full_exploitability_high", "best_hand",
    "best_called_equity", "samples", "seed", "method",
)  # fmt: skip


def _connection(data: str | Path) -> duckdb.DuckDBPyConnection:
    con = connect(data, tables=("pushfold",))
    for name in ("pushfold", "pushfold_summary", "pushfold_chart"):
        con.sql(f"CREATE VIEW {name} AS {view_sql(name)}")
    return con


def comparison(data: str | Path, variants: list[str] | None = None, stacks: tuple[float, ...] = STACKS,
               ante: float = 0.0) -> list[dict[str, Any]]:  # fmt: skip
    """One row a game, rule set and stack among ``stacks`` with a stored solution (solutions an
    older scooplab stored, without a plan, are left out by the view)."""
    query = f"""
        SELECT {", ".join(COLUMNS)} FROM pushfold_summary
        WHERE ante = $ante AND list_contains($stacks, stack)
              AND ($variants IS NULL OR list_contains($variants, variant))
        QUALIFY row_number() OVER (PARTITION BY variant, options, stack, ante
                                   ORDER BY abstraction = 'classes' DESC, samples DESC, created_at DESC) = 1
        ORDER BY variant, options, stack
    """
    params = {"ante": float(ante), "stacks": [float(s) for s in stacks], "variants": variants}
    return _connection(data).sql(query, params=params).pl().to_dicts()


def missing(rows: list[dict[str, Any]], variants: list[str], stacks: tuple[float, ...] = STACKS
            ) -> list[tuple[str, float]]:  # fmt: skip
    """The (game, stack) pairs of ``variants`` and ``stacks`` that ``rows`` has no solution for."""
    found = {(r["variant"], float(r["stack"])) for r in rows}
    return [(v, float(s)) for v in variants for s in stacks if (v, float(s)) not in found]


PLAN = ("plan", "options")  # the columns that tell plans apart
_CHOSEN = """
    chosen AS (
        SELECT plan, options FROM pushfold
        WHERE variant = $variant AND ante = 0 AND plan IS NOT NULL
        GROUP BY ALL
        ORDER BY count(DISTINCT stack) DESC, any_value(abstraction) = 'classes' DESC, max(samples) DESC,
                 options, plan
        LIMIT 1
    )"""


def solutions(data: str | Path, variant: str) -> Any:
    """A game's stored solutions at ante 0 under one plan and rule set, the one with the most
    stored stacks (then classes before buckets, then the most samples): one row a class and
    stack, a Polars frame ordered by stack."""
    query = f"""
        WITH {_CHOSEN}
        SELECT pushfold.* EXCLUDE (created_at) FROM pushfold JOIN chosen USING ({", ".join(PLAN)})
        WHERE variant = $variant AND ante = 0 ORDER BY stack, hand_group
    """
    return _connection(data).sql(query, params={"variant": variant}).pl()


def chart(data: str | Path, variant: str) -> Any:
    """Per class of a game (the plan of ``solutions``) the largest stored stack at which it is
    pushed and called, a Polars frame."""
    query = f"""
        WITH {_CHOSEN}
        SELECT hand_group, push_max, call_max, stacks
        FROM pushfold_chart JOIN chosen USING ({", ".join(PLAN)})
        WHERE variant = $variant AND ante = 0 ORDER BY hand_group
    """
    return _connection(data).sql(query, params={"variant": variant}).pl()
