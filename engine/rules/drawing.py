"""The stub of a draw game: what is left to deal, and the discards that become a new stub.

RULINGS, "Draw": players draw in turn (discard any number, receive as many); when the stub cannot
cover a draw, the discards made before it (not the cards the player throws in it) are shuffled into a new
stub. A hand history writes every discard of a round before the cards drawn, so each discard keeps
its place in the turn: a seat's draw may be covered only by discards made before its own.

>>> stub, seen = Stub(left=3), {10, 11}
>>> stub.discard([10, 11], turn=0)
>>> stub.take([20, 21], seen, turn=0)  # two fresh cards
>>> stub.discard([30, 31], turn=1)
>>> stub.take([40, 10], seen, turn=1)  # the last fresh card, then the first discards reshuffled
>>> stub.left, sorted(stub.pool), sorted(seen)
(0, [11], [10, 11, 20, 21, 40])
>>> stub.take([30], seen, turn=2)  # the second draw's discards were made after its own
'30 is neither in the stub nor among the discards shuffled into it'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from engine.hands.cards import UNKNOWN_CARD


@dataclass
class Stub:
    """Cards that may still be dealt: ``left`` never dealt, and a ``pool`` of reshuffled discards
    (``pool`` the known ones, ``pool_unknown`` hidden ones, ``pool_gone`` taken without being seen:
    burned, or dealt face down); ``pile``: discards not reshuffled yet, each with its draw's turn."""

    left: int
    pool: set[int] = field(default_factory=set)
    pool_unknown: int = 0
    pool_gone: int = 0
    pile: list[tuple[int, int]] = field(default_factory=list)  # (turn, card): UNKNOWN_CARD when hidden

    @property
    def size(self) -> int:
        """Cards in the stub now."""
        return self.left + len(self.pool) + self.pool_unknown - self.pool_gone

    def burn(self, count: int) -> int:
        """Burn up to ``count`` cards from the stub (none once it is empty); returns how many."""
        burned = min(count, self.size)
        fresh = min(burned, self.left)
        self.left -= fresh
        self.pool_gone += burned - fresh
        return burned

    def discard(self, cards: Sequence[int], turn: int) -> None:
        """Cards thrown away by the draw at ``turn`` (its place in the hand's draws)."""
        self.pile.extend((turn, card) for card in cards)

    def claim_hidden(self, card: int) -> bool:
        """Whether a known card a seat shows (or throws) can be one it was dealt face down from the
        reshuffled discards; if so it leaves the pool."""
        if card in self.pool and self.pool_gone > 0:
            self.pool.discard(card)
            self.pool_gone -= 1
            return True
        return False

    def _reshuffle(self, turn: int) -> None:
        """The discards made before ``turn`` become the stub (once what was left is dealt)."""
        eligible = [card for t, card in self.pile if t < turn]
        self.pile = [(t, card) for t, card in self.pile if t >= turn]
        self.left, self.pool_gone = 0, 0
        self.pool = {card for card in eligible if card != UNKNOWN_CARD}
        self.pool_unknown = sum(card == UNKNOWN_CARD for card in eligible)

    def take(self, cards: Sequence[int], seen: set[int], turn: int | None = None,
             name: Callable[[int], str] = str) -> str | None:  # fmt: skip
        """Deal ``cards`` (the draw at ``turn``, or None: a deal that reshuffles nothing): a known card
        must be fresh (not in ``seen``, which gains it) or in the pool; where the stub cannot cover a
        draw its last cards go first, then the reshuffled discards. Returns the problem (and changes
        nothing), or None."""
        trial = replace(self, pool=set(self.pool), pile=list(self.pile))
        seen_after = set(seen)
        problem = trial._deal(cards, seen_after, turn, name)
        if problem is None:
            self.__dict__.update(trial.__dict__)
            seen |= seen_after
        return problem

    def _deal(
        self, cards: Sequence[int], seen: set[int], turn: int | None, name: Callable[[int], str]
    ) -> str | None:
        if turn is None or len(cards) <= self.size:
            if len(cards) > self.size:
                return f"the stub holds {self.size} card(s), not {len(cards)}"
            return self._take(cards, seen, name)
        old = self.size
        known = [c for c in cards if c != UNKNOWN_CARD]
        unseen = [c for c in known if c not in seen and c not in self.pool]  # fresh, or a hidden discard
        from_old = [c for c in known if c in self.pool] + unseen[: max(old - len(self.pool & set(known)), 0)]
        hidden = [c for c in cards if c == UNKNOWN_CARD]
        if len(from_old) > old or len(from_old) + len(hidden) < old:
            return f"the stub's last {old} card(s) go first, then the discards reshuffled"
        filler = old - len(from_old)
        problem = self._take(from_old + hidden[:filler], seen, name)
        if problem:
            return problem
        self._reshuffle(turn)
        rest = [c for c in cards if c != UNKNOWN_CARD and c not in from_old] + hidden[filler:]
        if len(rest) > self.size:
            return f"the stub and the discards reshuffled hold {old + self.size} card(s), not {len(cards)}"
        return self._take(rest, seen, name)

    def _take(self, cards: Sequence[int], seen: set[int], name: Callable[[int], str]) -> str | None:
        known = [card for card in cards if card != UNKNOWN_CARD]
        for card in known:
            if card in self.pool:
                self.pool.discard(card)
            elif card not in seen and self.left:
                seen.add(card)
                self.left -= 1
            elif card not in seen and self.pool_unknown:  # one of the discards thrown face down
                seen.add(card)
                self.pool_unknown -= 1
            else:
                return f"{name(card)} is neither in the stub nor among the discards shuffled into it"
        hidden = len(cards) - len(known)  # taken unseen: fresh ones first
        fresh = min(hidden, self.left)
        self.left -= fresh
        self.pool_gone += hidden - fresh
        return None
