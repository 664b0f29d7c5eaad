"""A token bucket: how often one person may talk, so nobody can flood a room's screens.

Sans-I/O like the tables: time comes from the ``IReactorTime`` it is handed (a ``task.Clock`` in tests).
"""

from __future__ import annotations

from twisted.internet.interfaces import IReactorTime


class TokenBucket:
    """``burst`` actions at once, then ``rate`` a second on average."""

    def __init__(self, clock: IReactorTime, rate: float, burst: int) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = clock.seconds()

    def take(self) -> bool:
        """Spend one token if there is one; False means: not now."""
        now = self.clock.seconds()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """One ``TokenBucket`` per key (a person's name, an address), made on first use.

    A bucket that has filled up again is the same as a new one, so ``prune`` drops those: the dict stays as
    small as the set of keys active lately, however many keys have been seen."""

    def __init__(self, clock: IReactorTime, rate: float, burst: int) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 1024:
                self.prune()
            bucket = self.buckets[key] = TokenBucket(self.clock, self.rate, self.burst)
        return bucket.take()

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)

    def prune(self) -> None:
        now = self.clock.seconds()
        self.buckets = {k: b for k, b in self.buckets.items()
                        if b.tokens + (now - b.last) * b.rate < b.burst}
