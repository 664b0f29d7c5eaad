"""Calibrate the bot levels' fixed ratings (the games' bot_ratings.py): seeded engine-only games between bot levels,
rated with the server's own openskill model (mudwiz/ratings.py), each level one entry.

Each game seats 3 to 5 bots of randomly drawn levels (at least two levels a game, so every game says something
about their difference); every seat plays with its level's rating at its final place (ties share a rank), and
each level's new mu and sigma are the mean of its seats' updates. Levels start from a fresh rating, as players
do, so the figures are on the players' scale: a new player (mu 25) starts in between, and the games they play
against the bots place them. Prints each level's mu, sigma and shown rating per game; ``--write`` rewrites
each game's mudwiz/games/GAME/bot_ratings.py with them::

    python bench/ratings.py                      # every game, 300 games each, printed only
    python bench/ratings.py --games 300 --write  # what the games' bot_ratings.py hold (the default seeds)

The bots are deterministic given the seed, so the same arguments give the same figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: its sibling bots.py

from bots import play  # noqa: E402

from mudwiz.bots import levels as all_levels  # noqa: E402
from mudwiz.games import available, game_class  # noqa: E402
from mudwiz.ratings import MODEL, shown  # noqa: E402

OUT = ROOT / "mudwiz" / "games" / "{game}" / "bot_ratings.py"  # a game of mudwiz's own; a plugin's are its own


def out(game: str) -> Path:
    return Path(str(OUT).format(game=game))


def seatings(game: str, games: int, levels: Sequence[str], seed: int) -> list[tuple[str, tuple[str, ...], int]]:
    """The games to play: seat count and levels drawn from ``seed`` (each game at least two levels)."""
    rng = random.Random(seed)
    cls = game_class(game)
    counts = [n for n in (3, 4, 5) if cls.min_players <= n <= cls.max_players] or [cls.min_players]
    jobs = []
    for i in range(games):
        n = rng.choice(counts)
        seats = [levels[i % len(levels)], levels[(i + 1) % len(levels)]]
        seats += [rng.choice(levels) for _ in range(n - 2)]
        rng.shuffle(seats)
        jobs.append((game, tuple(seats), seed + i))
    return jobs


OPTIONS: dict[str, object] = {}  # --option: game options of every game played (set once, before the games)


def _places(job: tuple[str, tuple[str, ...], int]) -> list[int]:
    game, seats, seed = job
    return play(game, seats, seed, dict(OPTIONS)).places


def calibrate(game: str, games: int, levels: Sequence[str], seed: int, workers: int) -> dict[str, tuple[float, float]]:
    """Each level's (mu, sigma) after ``games`` rated games, played in order."""
    jobs = seatings(game, games, levels, seed)
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_places, jobs)
    else:
        results = [_places(job) for job in jobs]
    ratings = {level: (MODEL.mu, MODEL.sigma) for level in levels}
    for (_, seats, _), places in zip(jobs, results, strict=True):
        teams = MODEL.rate([[MODEL.rating(mu=ratings[s][0], sigma=ratings[s][1])] for s in seats],
                           ranks=[float(p) for p in places])
        for level in set(seats):
            mine = [team[0] for team, s in zip(teams, seats, strict=True) if s == level]
            ratings[level] = (statistics.mean(r.mu for r in mine), statistics.mean(r.sigma for r in mine))
    return ratings


def module_text(game: str, levels: dict[str, tuple[float, float]], games: int, seed: int) -> str:
    flags = "".join(f" --option {name}={value}" for name, value in OPTIONS.items())
    row = "{\n" + "".join(f"    {level!r}: ({mu:.3f}, {sigma:.3f}),\n" for level, (mu, sigma) in levels.items()) + "}"
    title = game_class(game).title
    return (f'"""{title}\'s bot levels\' fixed ratings: level -> (mu, sigma), on the players\' openskill scale.\n\n'
            f"Written by ``python bench/ratings.py --only {game} --games {games} --seed {seed}{flags} --write``\n"
            f"(bots against bots, rated with mudwiz/ratings.py's model); never changed by the games people play. A "
            f'level\nnot here plays as a fresh rating.\n"""\n\nBOT_RATINGS: dict[str, tuple[float, float]] = {row}\n')


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per game (default 300)")
    parser.add_argument("--only", action="append", help="a game (repeat; default: every game present)")
    parser.add_argument("--seed", type=int, default=5000, help="seed of the first game (default 5000)")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--option", action="append", default=[], help="game option NAME=VALUE (repeat): shorter "
                        "games where a full one costs minutes of CPU (Wizard: rounds=5)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {OUT.relative_to(ROOT)} of each game")
    args = parser.parse_args(argv)
    for text in args.option:
        name, _, value = text.partition("=")
        OPTIONS[name] = value or None
    levels = all_levels()
    table: dict[str, dict[str, tuple[float, float]]] = {}
    for game in args.only or available():
        table[game] = calibrate(game, args.games, levels, args.seed, args.workers)
        for level, (mu, sigma) in table[game].items():
            print(f"{game:9} bot:{level:7} mu={mu:6.2f} sigma={sigma:5.2f} shown={shown(mu, sigma):5}", flush=True)
    if args.write:
        for game, levels in table.items():
            if out(game).parent.is_dir():
                out(game).write_text(module_text(game, levels, args.games, args.seed), encoding="utf-8")
                print(f"written to {out(game)}")


if __name__ == "__main__":
    main()
