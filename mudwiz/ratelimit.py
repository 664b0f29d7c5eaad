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
