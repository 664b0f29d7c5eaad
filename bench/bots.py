"""How strong is each bot level? Seeded engine-only games (no network): a level against each other level and itself.

Each bot is handed ``game.view(seat)`` exactly as the table would hand it, and its answer is applied through
``game.apply``. A matchup seats the level measured (``--level``) in seat 0 and ``--against`` in every other seat
(``self``: the level in every seat). Per game, player count and
matchup it prints the measured seats' mean final score, their win share (a shared first place counts as a win)
and, against others, their margin: their score minus the mean of the others' in the same game, signed so that +
is better (Witches: fewer points); each with its 95 % interval (1.96 standard errors over the games). For Wizard
also the share of rounds whose tricks equalled the bid; and the p50/p99 time of a decision of the measured level
(and the p99 of its CPU time, which a busy machine does not inflate).
Figures are printed, never asserted::

    python bench/bots.py                      # every game, default player counts, every level against each
    python bench/bots.py --only wizard --players 4 --level hard --against normal --games 60
    python bench/bots.py --only wizard --players 4 --level hard --against self --seed 7000 --detail
    python bench/bots.py --only wizard --players 4 --level hard --against normal --games 2 --beside-tables 200

``--detail`` breaks the Wizard exact-bid rate down (by cards dealt, by bid, by whether the table's bids added up
to the cards): where a change to the bot helps or hurts. ``--beside-tables N`` runs the matchups while a real
server plays N tables of 4 JSON clients flat out (``bench/load.py``'s server and clients) on the same machine, so
the decision times are those of a busy host; it prints what the server did meanwhile. Tune on seeds of your own
(``--seed``) and keep the default seeds for the figures reported in docs/bots.md, so the reported figures are not
the ones tuned on.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mudwiz.bots import canonical, make_policy  # noqa: E402
from mudwiz.bots import levels as all_levels  # noqa: E402
from mudwiz.games import available, game_class, plugin  # noqa: E402

PLAYERS = {"wizard": (3, 4, 5), "witches": (3, 4, 5), "tiltowait": (3, 4, 5)}


@dataclass
class Result:
    """What one game tells about the seats of the level measured (seat 0's) in it."""

    scores: list[int] = field(default_factory=list)
    others: list[int] = field(default_factory=list)  # the scores of the seats of other levels
    wins: int = 0
    seats: int = 0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the same decisions' CPU time: a busy machine adds none
    places: list[int] = field(default_factory=list)  # every seat's final place, in seat order (bench/ratings.py)
    # Wizard, per measured seat-round: (cards dealt, bid, tricks taken, the table's bids minus the cards dealt)
    bids: list[tuple[int, int, int, int]] = field(default_factory=list)


def play(game: str, levels: Sequence[str], seed: int, options: dict[str, Any]) -> Result:
    """One seeded game; seats ask their policy in seat order, as the table's bot timers fire in seat order.
    The seats of seat 0's level are the ones measured."""
    rng = random.Random(seed)
    engine = game_class(game)([f"p{i}" for i in range(len(levels))], options, seed)
    policies = [make_policy(level, game, random.Random(rng.randrange(2**32))) for level in levels]
    good = [i for i, level in enumerate(levels) if level == levels[0]]
    result = Result(seats=len(good))
    while not engine.finished:
        if engine.phase == "roundend":
            engine.advance()
            continue
        for seat in range(len(levels)):
            if not engine.legal_actions(seat):
                continue
            view = engine.view(seat)
            began, cpu = time.perf_counter(), time.process_time()
            action = policies[seat].choose(view)
            if seat in good:
                result.times.append(time.perf_counter() - began)
                result.cpu.append(time.process_time() - cpu)
            if action is not None:
                engine.apply(seat, action)
                break
        else:
            raise RuntimeError(f"{game} seed {seed}: no bot would move")
    final = engine.view(None)["standings"]
    places = {s["player"]: s["place"] for s in final}
    scores = {s["player"]: s["score"] for s in final}
    result.places = [places[name] for name in engine.players]
    for seat, name in enumerate(engine.players):
        if seat in good:
            result.scores.append(scores[name])
            result.wins += places[name] == 1
        else:
            result.others.append(scores[name])
    good_names = {engine.players[s] for s in good}
    for row in getattr(engine, "sheet", []) if game == "wizard" else []:
        table = sum(r["bid"] for r in row["results"]) - row["cards"]
        for r in row["results"]:
            if r["player"] in good_names:
                result.bids.append((row["cards"], r["bid"], r["tricks"], table))
    return result


def _job(args: tuple[str, tuple[str, ...], int, dict[str, Any]]) -> Result:
    return play(*args)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation; 0 for fewer than two values)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, 1.96 * statistics.stdev(values) / len(values) ** 0.5


def low_wins(game: str) -> bool:
    found = plugin(game)
    return found is not None and found.low_wins


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def matchup(game: str, players: int, against: str, games: int, options: dict[str, Any], workers: int,
            seed: int | None = None, detail: bool = False, level: str = "normal") -> str:
    """``level`` in seat 0 and ``against`` elsewhere (``self``: every seat); one line of figures (more with
    ``detail``). Game ``i`` is seeded ``seed + i`` (default ``1000 * players + i``)."""
    if against == level:
        against = "self"
    other = level if against == "self" else against
    levels = (level, *[other] * (players - 1))
    first = 1000 * players if seed is None else seed
    jobs = [(game, levels, first + i, options) for i in range(games)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_job, jobs)
    else:
        results = [_job(j) for j in jobs]
    score, score_ci = interval([s for r in results for s in r.scores])
    wins, wins_ci = interval([r.wins / r.seats for r in results])
    times = [t for r in results for t in r.times]
    line = (f"{game:9} {players}p {level:6} vs {against:6} games={games:4} mean score={score:7.1f} ±{score_ci:5.1f} "
            f"win share={wins:6.1%} ±{wins_ci:5.1%}")
    if against != "self":
        better = -1 if low_wins(game) else 1  # the margin is how much better: fewer points where fewer win
        margin, margin_ci = interval([better * (statistics.mean(r.scores) - statistics.mean(r.others))
                                      for r in results])
        theirs = statistics.mean(s for r in results for s in r.others)
        line += f" theirs={theirs:7.1f} margin={margin:+7.1f} ±{margin_ci:5.1f}"
    bids = [b for r in results for b in r.bids]
    if bids:
        line += f" exact bids={sum(bid == tricks for _, bid, tricks, _ in bids) / len(bids):6.1%}"
    if times:
        cpu = [t for r in results for t in r.cpu]
        line += (f" decision ms p50={1000 * percentile(times, 0.5):6.1f} p99={1000 * percentile(times, 0.99):6.1f}"
                 f" cpu p99={1000 * percentile(cpu, 0.99):6.1f}")
    if detail and bids:
        line += "\n" + breakdown(bids)
    return line


def breakdown(bids: Sequence[tuple[int, int, int, int]]) -> str:
    """Exact-bid rates by cards dealt, by bid (5 and more together) and by the table's bids against the cards."""
    groups: dict[str, dict[Any, list[bool]]] = {"cards": defaultdict(list), "bid": defaultdict(list),
                                                 "table bids": defaultdict(list)}
    for cards, bid, tricks, table in bids:
        exact = bid == tricks
        groups["cards"][cards].append(exact)
        groups["bid"][min(bid, 5)].append(exact)
        groups["table bids"]["< cards" if table < 0 else "= cards" if table == 0 else "> cards"].append(exact)
    lines = []
    for name, by in groups.items():
        cells = [f"{key}{'+' if name == 'bid' and key == 5 else ''}: {sum(v) / len(v):4.0%} of {len(v)}"
                 for key, v in sorted(by.items())]
        lines.append(f"  exact by {name:10} " + ", ".join(cells))
    return "\n".join(lines)


@contextmanager
def busy_tables(tables: int) -> Iterator[None]:
    """``tables`` tables playing flat out on a real server beside the matchups (none: nothing runs), so a decision
    is timed as a bot on a busy host would take it: the server, its clients and the bench share the cores."""
    if not tables:
        yield
        return
    import load  # bench/load.py: its server process and its JSON clients

    load.raise_fd_limit()
    server = load.Server("mudwiz", 0)
    workers = load.Workers("play", load.shares(tables, 2), lambda wid, n: (server.ports, n, False))
    began = 0.0
    try:
        workers.go.set()
        workers.wait("playing")
        began, cpu0 = time.monotonic(), server.cpu_s()
        print(f"beside {tables} tables of 4 JSON clients playing flat out on a mudwiz server", flush=True)
        yield
    finally:
        seconds, cpu = time.monotonic() - began, server.cpu_s() - cpu0 if began else 0.0
        reports = workers.finish()
        server.stop()
    moves = sum(1 for rep in reports for r in rep["replies"] if r[0] >= began and r[2])
    print(f"meanwhile the server played {moves / seconds:,.1f} moves/s at {100 * cpu / seconds:.0f} % of a core "
          f"over {seconds:.0f} s", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per matchup (default 10)")
    parser.add_argument("--only", action="append", help="a game to bench (repeat; default: every game present)")
    parser.add_argument("--players", type=int, action="append", help="player count (repeat; default per game)")
    parser.add_argument("--option", action="append", default=[], help="game option NAME=VALUE (repeat)")
    parser.add_argument("--workers", type=int, default=1, help="processes (decision times are per process)")
    parser.add_argument("--level", action="append", help="the level measured, in seat 0 (repeat; default: "
                        "easy, normal and hard; good is normal's old name)")
    parser.add_argument("--against", action="append",
                        help="the other seats' level, or self (repeat; default: random, each other level, self)")
    parser.add_argument("--seed", type=int, help="seed of the first game (default 1000 x players)")
    parser.add_argument("--detail", action="store_true", help="break the Wizard exact-bid rate down")
    parser.add_argument("--beside-tables", type=int, default=0, metavar="N",
                        help="run beside a server playing N tables of 4 JSON clients flat out")
    args = parser.parse_args(argv)
    known = all_levels()
    measured = [canonical(level) for level in args.level or [lv for lv in known if lv != "random"]]
    for name in [*measured, *(args.against or [])]:
        if name != "self" and canonical(name) not in known:
            parser.error(f"no bot level {name!r}; levels: {', '.join(known)}")
    options: dict[str, Any] = {}
    for text in args.option:
        name, _, value = text.partition("=")
        options[name] = value or None
    with busy_tables(args.beside_tables):
        for game in args.only or available():
            for players in args.players or PLAYERS.get(game, (4,)):
                for level in measured:
                    againsts = [a if a == "self" else canonical(a) for a in args.against or
                                [*(lv for lv in known if lv != level), "self"]]
                    for against in againsts:
                        print(matchup(game, players, against, args.games, options, args.workers, args.seed,
                                      args.detail, level), flush=True)


if __name__ == "__main__":
    main()
