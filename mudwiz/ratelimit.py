"""A token bucket: how often one person may talk, so nobody can flood a room's screens.

Sans-I/O like the tables: time comes from the ``IReactorTime`` it is handed (a ``task.Clock`` in tests).
"""

from __future__ import annotations

from twisted.internet.interfaces import IReactorTime


class TokenBucket:
    """``burst`` actions at once, then ``rate`` a second on average."""

    __slots__ = ("clock", "rate", "burst", "tokens", "last")  # two for every connection (net/budget.py)

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

    def spend(self, amount: float) -> None:
        """Spend ``amount`` tokens whether or not they are there (a cost known only afterwards: a line's output):
        the bucket may go into debt, and ``wait`` says how long until it is out of it."""
        now = self.clock.seconds()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate) - amount
        self.last = now

    def wait(self) -> float:
        """Seconds until a token is there again (0: now), as of the last ``take`` or ``spend``."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else float("inf")


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

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again, as of its last ``take``."""
        bucket = self.buckets.get(key)
        return bucket.wait() if bucket is not None else 0.0

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)

    def prune(self) -> None:
        now = self.clock.seconds()
        self.buckets = {k: b for k, b in self.buckets.items()
                        if b.tokens + (now - b.last) * b.rate < b.burst}


class _Failures:
    __slots__ = ("times", "delay", "until", "last")

    def __init__(self) -> None:
        self.times: list[float] = []  # failures within the window, while not yet held back
        self.delay = 0.0  # the last wait imposed; 0: none yet
        self.until = 0.0  # no attempt before this time
        self.last = 0.0  # the latest failure


class FailureLimit:
    """Failed attempts per key (an address, an account): ``burst`` within ``window`` seconds, then the key waits
    ``window`` seconds, and each failure after a wait makes it wait twice as long as the last time (up to
    ``longest``). A key with no failure for ``longest`` seconds starts afresh. Guessing a password then costs
    hours, while a person who mistyped a few times waits a minute.

    A key's hold does not stop a party that has answered for it rightly before (``succeeded``: an account's owner
    at an address they logged in from), so that a guesser elsewhere cannot lock the owner out."""

    TRUSTED_PER_KEY = 8  # the latest parties that answered rightly for a key
    TRUSTED_KEYS = 100_000  # keys remembered so; past it the longest unproven half is forgotten

    def __init__(self, clock: IReactorTime, burst: int = 5, window: float = 60.0, longest: float = 3600.0) -> None:
        self.clock = clock
        self.burst = burst
        self.window = window
        self.longest = longest
        self.keys: dict[str, _Failures] = {}
        # key -> the parties that answered rightly, latest last (a tuple: most keys have one, and a guest's name is
        # one a connection, whose idle memory the 10,000-login benchmark counts)
        self.trusted: dict[str, tuple[str, ...]] = {}

    def wait(self, key: str, party: str = "") -> float:
        """Seconds until ``key`` may try again (from ``party``, when given); 0: now."""
        failures = self.keys.get(key)
        if failures is None or (party and party in self.trusted.get(key, ())):
            return 0.0
        return max(0.0, failures.until - self.clock.seconds())

    def failed(self, key: str) -> None:
        now = self.clock.seconds()
        failures = self.keys.get(key)
        if failures is None or now - failures.last > self.longest:
            if len(self.keys) > 4096:
                self.prune()
            failures = self.keys[key] = _Failures()
        failures.last = now
        if failures.delay:  # held back before: every failure now holds it back longer
            failures.delay = min(failures.delay * 2, self.longest)
            failures.until = now + failures.delay
            return
        failures.times = [t for t in failures.times if now - t < self.window] + [now]
        if len(failures.times) >= self.burst:
            failures.delay = self.window
            failures.until = now + self.window

    def succeeded(self, key: str, party: str = "", fresh: bool = False) -> None:
        """The right answer (from ``party``): the key's count starts afresh, unless it is held back now (the
        owner let in past a hold leaves it standing for everyone else, or each of their logins gave a guesser
        five more tries), and a later hold of the key does not stop ``party``. ``fresh``: a new owner (the name
        registered, a new guest under it): the parties trusted before are not."""
        failures = self.keys.get(key)
        if failures is None or failures.until <= self.clock.seconds():
            self.keys.pop(key, None)
        if fresh:
            self.trusted.pop(key, None)
        if not party:
            return
        kept = tuple(p for p in self.trusted.pop(key, ()) if p != party)  # moved to the end: the keys' order is
        self.trusted[key] = (*kept[max(0, len(kept) + 1 - self.TRUSTED_PER_KEY):], party)  # the order they were proven
        if len(self.trusted) > self.TRUSTED_KEYS:
            self.trusted = dict(list(self.trusted.items())[self.TRUSTED_KEYS // 2:])

    def prune(self) -> None:
        now = self.clock.seconds()
        self.keys = {k: f for k, f in self.keys.items() if now - f.last <= self.longest}
