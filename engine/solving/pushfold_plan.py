"""How a game's push/fold matchups are computed (``engine.solving.pushfold``): plain data, no numpy, so
the command line reads its defaults without loading the solver."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MATCHUP_SAMPLES = 4_000  # sampled runouts a pair of classes


@dataclass(frozen=True)
class Plan:
    """How a game's matchups are computed: classes, ``samples`` runouts a pair of classes; or
    (``buckets`` > 0, ``engine.solving.buckets``) buckets fixed by a pool of ``pool`` sampled hands scored
    on ``runouts`` runouts each, a matrix of ``pairs`` sampled pairs, and a real-hands check of
    ``check_hands`` fresh hands a side against ``check_opponents`` pool hands each."""

    samples: int = MATCHUP_SAMPLES
    seed: int = 0
    buckets: int = 0
    pool: int = 20_000
    runouts: int = 500
    pairs: int = 4_000_000
    check_hands: int = 2_000
    check_opponents: int = 2_000

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Plan:
        """The plan stored as ``fields()`` (a solution's ``plan`` column).

        >>> Plan.from_fields(Plan.bucketed(5, 1_000, 40).fields()) == Plan.bucketed(5, 1_000, 40)
        True
        """
        return cls(**{"samples": cls.samples, **fields})

    @classmethod
    def bucketed(cls, buckets: int, pool: int, runouts: int, seed: int = 0) -> Plan:
        """A bucket plan whose sample sizes follow the pool: 200 pairs a pool hand, a tenth of it
        (50 to 5,000 hands) checked.

        >>> Plan.bucketed(20, 20_000, 500).pairs
        4000000
        """
        checked = min(max(50, pool // 10), 5_000)
        return cls(MATCHUP_SAMPLES, seed, buckets, pool, runouts, 200 * pool, checked, 2_000)

    def fields(self) -> dict[str, Any]:
        """What the matchups depend on: a class plan's samples and seed, a bucket plan's all but
        the class samples.

        >>> Plan(samples=200).fields()
        {'samples': 200, 'seed': 0}
        """
        if not self.buckets:
            return {"samples": self.samples, "seed": self.seed}
        return {k: v for k, v in vars(self).items() if k != "samples"}

    def columns(self) -> dict[str, Any]:
        """How its solutions are stored: abstraction, samples (runouts a pair of classes, or pairs
        of pool hands) and seed.

        >>> Plan().columns()
        {'abstraction': 'classes', 'samples': 4000, 'seed': 0}
        """
        bucketed = bool(self.buckets)
        return {"abstraction": "buckets" if bucketed else "classes",
                "samples": self.pairs if bucketed else self.samples, "seed": self.seed}  # fmt: skip

    def described(self) -> str:
        """The plan in words, for a solution's ``method``."""
        if not self.buckets:
            return f"matchups of {self.samples:,} sampled runouts a pair of classes, seed {self.seed}"
        return (f"{self.buckets} buckets by all-in equity against a random hand ({self.runouts:,} runouts "
                f"a hand, a pool of {self.pool:,} sampled hands, a matrix of {self.pairs:,} sampled pairs), "
                f"checked on {self.check_hands:,} fresh hands a side against {self.check_opponents:,} "
                f"pool hands each, seed {self.seed}")  # fmt: skip


def no_pushfold_game(title: str, bring_in: bool) -> str | None:
    """Why a game has no heads-up push/fold game to solve, or None.

    Push/fold is a blinds game: the small blind moves all in or folds, the big blind calls or
    folds. A game opened by a bring-in that the up cards assign (stud) has no blinds and no fixed
    first actor, and is dealt fixed-limit, where no one moves all in at will.

    >>> no_pushfold_game("Razz", True)[:43]
    'Razz has no push/fold game: it opens with a'
    >>> no_pushfold_game("Hold'em", False) is None
    True
    """
    if bring_in:
        return (f"{title} has no push/fold game: it opens with a bring-in that the up cards assign, not "
                f"blinds, and is dealt fixed-limit (docs/equilibrium.md)")  # fmt: skip
    return None
