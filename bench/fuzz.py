"""Does the server take junk in its stride? The fuzzing of tests/wire/test_fuzz.py, for as long as you like.

Starts a real server (``mudwiz serve``, a short grace period), and ``--workers`` processes of fuzzing clients
(``--clients`` in all, from 127.0.0.2 upwards, within the per-address connection caps) that send ``--lines``
lines of junk from every place a user can be, in every output mode (tests/support/fuzzing.py says what and how),
while JSON clients play Wizard with bots on 127.0.0.1 and a monitor times ``/who``. Then watches the tables
still playing for any that stands still, sends the inputs behind unexplained tracebacks again to pin them
down, and prints figures; never assertions::

    python bench/fuzz.py                                   # a million lines, 2 workers, 32 clients
    python bench/fuzz.py --lines 100000 --seed 7
    python bench/fuzz.py --lines 1000000 --workers 4 --clients 64 --problems
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

import fuzzing  # noqa: E402
from wire import running_server  # noqa: E402


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="junk lines to send in all")
    parser.add_argument("--clients", type=int, default=32, help="fuzzing connections at once, in all")
    parser.add_argument("--workers", type=int, default=2, help="processes the fuzzing clients run in")
    parser.add_argument("--seed", type=int, help="replays a run's junk (default: a random seed, printed)")
    parser.add_argument("--seconds", type=float, default=24 * 3600.0, help="stop sending junk after this long")
    parser.add_argument("--burst", type=float, default=8.0, help="junk lines a client sends at once, on average")
    parser.add_argument("--grace", type=float, default=1.0, help="the server's MUDWIZ_GRACE, seconds")
    parser.add_argument("--window", type=float, default=3.0, help="seconds a table may stand still, at the end")
    parser.add_argument("--problems", action="store_true", help="also print each problem found, in full")
    args = parser.parse_args(argv)
    seed = random.randrange(2**32) if args.seed is None else args.seed
    print(f"fuzzing with seed {seed}: {args.lines} lines, {args.workers} worker(s), {args.clients} clients",
          flush=True)
    with running_server(MUDWIZ_GRACE=str(args.grace)) as server:
        report = fuzzing.run(server, seed=seed, lines=args.lines, clients=args.clients, workers=args.workers,
                             seconds=args.seconds, grace=args.grace, burst=args.burst, window=args.window,
                             log=server.log)
        alive = server.alive()
    log = server.log()
    print("\n".join(report.figures(log)))
    print(f"server alive     {'yes' if alive else 'NO'}")
    problems = report.problems(log, alive)
    print(f"problems         {len(problems)}" + ("" if args.problems or not problems else " (--problems shows them)"))
    if args.problems:
        for p in problems:
            print(f"- {p}")


if __name__ == "__main__":
    main()
