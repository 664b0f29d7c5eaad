"""What the coach after a Wizard game (``/analyze``, mudwiz/games/wizard/analysis.py) costs: a game of ROUNDS rounds
played by three ``normal`` bots (few deals each: quick), then its first seat analysed as ``/analyze`` does; the time
of the whole, and of the longest pieces between the work's pauses (on a server it runs in a thread, so they are
what the thread holds the interpreter for between switches, not what the reactor waits).

    nice -n 10 .venv/bin/python bench/analysis.py --rounds 20 --games 1
"""

from __future__ import annotations

import argparse
import os
import random
import time

from mudwiz.games.wizard.analysis import SAMPLES, analyse
from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.engine import Wizard


def played(seed: int, rounds: int) -> Wizard:
    game = Wizard(["p1", "p2", "p3"], {"rounds": rounds}, seed)
    bots = [WizardGood("wizard", random.Random(seed * 10 + i), max_samples=30) for i in range(3)]
    while not game.finished:
        waiting = game.waiting()
        if not waiting:
            game.advance()
            continue
        game.apply(waiting[0], bots[waiting[0]].choose(game.view(waiting[0])) or "")
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    args = parser.parse_args()
    for seed in range(args.games):
        game = played(seed, args.rounds)
        work = analyse(game.players, game.options, game.seed, game.log, 0, samples=args.samples)
        pieces: list[float] = []
        began = last = time.perf_counter()
        try:
            while True:
                next(work)
                now = time.perf_counter()
                pieces.append(now - last)
                last = now
        except StopIteration as done:
            result = done.value
        total = time.perf_counter() - began
        pieces.sort()
        costly = sum(len(r["plays"]) for r in result["rounds"])
        choices = sum(r["choices"] for r in result["rounds"])
        print(f"game {seed}: {args.rounds} rounds, {args.samples} deals a decision: {total:.1f} s, "
              f"{len(pieces)} pieces, p50 {pieces[len(pieces) // 2] * 1000:.1f} ms, "
              f"p99 {pieces[int(len(pieces) * 0.99)] * 1000:.0f} ms, max {pieces[-1] * 1000:.0f} ms; "
              f"{costly} costly plays of {choices} with a choice; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
