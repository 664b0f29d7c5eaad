"""What the coach after a Wizard game (``/analyze``, mudwiz/games/wizard/analysis.py) costs: a game of ROUNDS rounds
played by three ``normal`` bots (few deals each: quick), then its first seat analysed as ``/analyze`` does; the time
of the whole, and of the longest pieces between the work's pauses (on a server it runs in a thread, so they are
what the thread holds the interpreter for between switches, not what the reactor waits). With ``--wire``: a real
server instead (``mudwiz serve`` on loopback), a ROUNDS-round game played there by a JSON client at random and two
bots, then ``/analyze`` of it while another connection asks ``/who`` every 50 ms: how long the analysis took over
the wire, and how long the others waited meanwhile and after.

    nice -n 10 .venv/bin/python bench/analysis.py --rounds 20 --games 1
    nice -n 10 .venv/bin/python bench/analysis.py --rounds 20 --wire
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

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


def latencies(ask: Callable[[], object], while_: Callable[[], bool] | None = None, count: int = 50) -> str:
    """Ask again and again (every 50 ms) while ``while_()`` (else ``count`` times): the waits' p50, p99 and max."""
    waits: list[float] = []
    while (while_() if while_ is not None else len(waits) < count):
        began = time.perf_counter()
        ask()
        waits.append(time.perf_counter() - began)
        time.sleep(0.05)
    waits.sort()
    return (f"n={len(waits)} p50 {waits[len(waits) // 2] * 1000:.0f} ms, "
            f"p99 {waits[int(len(waits) * 0.99)] * 1000:.0f} ms, max {waits[-1] * 1000:.0f} ms")


def over_the_wire(rounds: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
    from wire import JsonClient, play_until_game_end, running_server

    with tempfile.TemporaryDirectory() as data, running_server(MUDWIZ_DATA=data) as address:
        alice = JsonClient(address, "alice")
        for cmd in ("/new wizard", f"/option rounds {rounds}", "/bot add random", "/bot add easy", "/start"):
            alice.request(cmd)
        play_until_game_end([alice], random.Random(5))
        while not (games := alice.request("/history") and alice.of_type("history")[-1]["games"]):
            time.sleep(0.05)
        bob = JsonClient(address, "bob")
        took: list[float] = []

        def analyse_it() -> None:
            began = time.perf_counter()
            assert alice.request(f"/analyze {games[0]['id']}")["type"] == "ok"  # at once: the analysis follows
            alice.wait_for(lambda m: m["type"] == "analysis", timeout=3600)
            took.append(time.perf_counter() - began)

        asking = threading.Thread(target=analyse_it)
        asking.start()
        during = latencies(lambda: bob.request("/who"), asking.is_alive)
        after = latencies(lambda: bob.request("/who"))
        print(f"{rounds} rounds over the wire: /analyze {took[0]:.1f} s; another's /who meanwhile {during}; "
              f"after {after}; load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--wire", action="store_true", help="on a real server, with another connection's waits")
    args = parser.parse_args()
    if args.wire:
        over_the_wire(args.rounds)
        return
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
