"""How steady is this machine's CPU? A fixed loop of Python, its work counted per quarter second of its own CPU time.

A saturated server's latency tail is set by its slowest stretches (bench/load.py): if the machine itself
runs a fixed piece of Python at half speed for a second now and then (another tenant of the host, a sibling
hyperthread, a lowered clock), a server that is busy all the time has half its throughput in that second, and
every turn then takes twice as long. This measures that alone, with nothing else running: each window's work as
a share of the fastest window's. CPU time, not wall time, so being scheduled out is not counted; what is left is
the speed the CPU gives a thread that has it. Run it before and after a benchmark to know what kind of machine
the figures came from. Figures, never assertions::

    python bench/steadiness.py [--seconds 15] [--window 0.25]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence


def windows(seconds: float, window: float) -> list[int]:
    """The loop's work (iterations) in each ``window`` s of this thread's CPU time, for ``seconds`` of wall time."""
    counts = []
    end = time.monotonic() + seconds
    clock = time.thread_time
    while time.monotonic() < end:
        started, n = clock(), 0
        while clock() - started < window:
            for i in range(1000):
                n += i & 7
        counts.append(n)
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--window", type=float, default=0.25, help="seconds of CPU time a window")
    args = parser.parse_args(argv)
    counts = windows(args.seconds, args.window)
    best = max(counts)
    shares = sorted(c / best for c in counts)
    deciles = statistics.quantiles(shares, n=10, method="inclusive") if len(shares) > 1 else shares * 9
    print(f"steadiness: {len(counts)} windows of {args.window:g} s CPU; each window's speed as a share of the "
          f"fastest's: slowest {shares[0]:.2f}, p10 {deciles[0]:.2f}, median {statistics.median(shares):.2f}; "
          f"windows below 0.8: {sum(s < 0.8 for s in shares)}")


if __name__ == "__main__":
    main()
