"""How long ``record_game`` holds the reactor thread: p50/p99 over many records of a whole Wizard game's size
(about 300 moves), on a real file in a temporary directory (or ``--data DIR``, to measure another disk).

    python bench/store.py [--games 500] [--data DIR]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from mudwiz.store import GameRecord, open_store


def sample(i: int) -> GameRecord:
    actions = [{"seat": n % 4, "action": f"play R{n % 13 + 1}", "t": n * 1.5} for n in range(300)]
    return GameRecord(game="wizard", options={"rounds": 15}, table_options={"confirm": 120, "turn": 300,
                                                                            "botdelay": None},
                      seed=i, seats=[{"name": f"p{i % 50}", "kind": "person"}, *({"name": f"bot{b}", "kind":
                                     "bot:good"} for b in (1, 2, 3))],
                      actions=actions, standings=[{"player": f"p{i % 50}", "score": 100, "place": 1}],
                      outcome="finished", started=0.0, ended=float(i))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--data", help="the data directory (default: a new temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(args.data or tmp)
        times = []
        for i in range(args.games):
            record = sample(i)
            start = time.perf_counter()
            store.record_game(record)
            times.append((time.perf_counter() - start) * 1000)
        store.close()
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"record_game  games={args.games}  p50={statistics.median(times):.3f} ms  p99={p99:.3f} ms  "
          f"max={times[-1]:.3f} ms")


if __name__ == "__main__":
    main()
