"""How many complete random Wizard games per second the engine plays, for 3 to 6 players.

A figure to watch, never an assertion: the property tests' budget and a bot tournament's length both follow
from it. Each game is played through the public interface only (``waiting``/``legal_actions``/``apply``/
``advance``), the way the table and the bots drive it; ``--views`` adds every seat's ``view`` per step, as a
table with everyone connected would ask. CPU time is measured, so other load on the machine matters less.

    python bench/engine.py [--seconds N] [--players 4 ...] [--views]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable from a checkout without installing

from mudwiz.games.wizard import Wizard  # noqa: E402


def play_one(players: int, seed: int, views: bool) -> int:
    """Play one full game with random legal moves; returns the number of actions taken."""
    game = Wizard(players, {}, seed)
    rng = random.Random(seed)
    steps = 0
    while not game.finished:
        if views:
            for seat in range(players):
                game.view(seat)
        if game.phase == "roundend":
            game.advance()
            continue
        seat = rng.choice(game.waiting())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1
    return steps


def measure(players: int, seconds: float, views: bool) -> tuple[float, float]:
    """Games and actions per CPU second over at least ``seconds`` (and at least 3 games)."""
    start = time.process_time()
    games = steps = 0
    while games < 3 or time.process_time() - start < seconds:
        steps += play_one(players, games, views)
        games += 1
    spent = time.process_time() - start
    return games / spent, steps / spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per player count (default 2)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6], choices=range(3, 7))
    parser.add_argument("--views", action="store_true", help="also build every seat's view at every step")
    args = parser.parse_args(argv)
    label = " with views" if args.views else ""
    for players in args.players:
        games, actions = measure(players, args.seconds, args.views)
        print(f"{players} players: {games:7.1f} full games/s{label}  ({actions:,.0f} actions/s)")


if __name__ == "__main__":
    main()
