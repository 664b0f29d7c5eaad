"""How fast a cluster heals: seconds, printed, after Redis comes back empty and after a node is killed.

Starts a throwaway PostgreSQL (tests/support/pgserver.py) and, each run, a Redis of its own (redisserver.py, in a
directory of the run's, so that it can be stopped and started again empty at the same address) and two ``mudwiz
serve`` nodes n1 and n2 on them (tests/support/wire.py's ``RestartableServer``). On each node a JSON client plays a
Wizard game against two bots (a move every ``PACE`` s), and a second opens a table that a visitor from the other
node joins (not started: nothing is sent to the visitor until their seat is theirs again). Then:

- ``redis``: Redis is stopped for ``--outage`` s (each node takes the other for gone after 4 s), a table is opened
  on each node meanwhile, and Redis is started again, empty. For each node, the seconds from Redis's return until
  it ``lists`` the other node's table opened in the outage, can ``watch`` the other node's game and can ``join``
  that new table (each asked once every 0.1 s by a client of its own), and until the visitor whose home it is gets
  the seat back (``seat``: the table's state reaches them again).
- ``kill``: n1 hosts a game with a player of its own, a visitor from n2 and a bot; some moves are made, play pauses,
  and n1 is killed (``kill -9``). ``visitor``: the seconds until the visitor on n2 is shown the table again (taken
  over by n2); ``host's player``: until the player of n1, logging in to n2 with the resume code every 0.1 s, is
  seated at it there.

Figures, never assertions: min/median/max over ``--runs``, with the load average::

    python bench/heal.py                 # 3 runs
    python bench/heal.py --runs 10 --outage 6
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "support"))
from pgserver import Databases, postgres_server  # noqa: E402
from redisserver import redis_server  # noqa: E402
from wire import JsonClient, RestartableServer, eventually, pick_command  # noqa: E402

POLL = 0.1  # seconds between two asks of one probe
PACE = 0.3  # seconds between two moves of a playing client: the game outlasts the run
GIVE_UP = 20.0  # seconds a figure is waited for (the tests allow 20 s): reported as "> 20"
Figures = dict[str, float]


def start_nodes(home: Path, redis: str, database: str) -> list[RestartableServer]:
    """n1 and n2 on ``redis`` and ``database``, each having heard the other."""
    nodes = [RestartableServer(home / name, home / f"{name}.log", MUDWIZ_NODE=name, MUDWIZ_REDIS_URL=redis,
                               MUDWIZ_DATABASE_URL=database, MUDWIZ_BOT_PROCESSES="0", MUDWIZ_PRESENCE_CROWD="0")
             for name in ("n1", "n2")]
    for node in nodes:
        node.start()
    for node, other in ((nodes[0], "n2"), (nodes[1], "n1")):
        eventually(lambda n=node, o=other: f"node {o} is here" in n.log(), f"the nodes hear node {other}")
    return nodes


class Player(threading.Thread):
    """A JSON client answering its turns (one move every ``PACE`` s) while ``playing``, noting when each message
    came (``arrived``) for the figures that wait for one."""

    def __init__(self, client: JsonClient) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.arrived: list[float] = []
        self.playing = threading.Event()
        self.done = threading.Event()
        self.rng = random.Random(client.name)
        self.lock = threading.Lock()

    def run(self) -> None:
        acted, last = -1, 0.0
        while not self.done.is_set():
            with self.lock:
                try:
                    new = self.client.read(0.05)
                except (ConnectionError, OSError):
                    return
                self.arrived.extend(time.monotonic() for _ in new)
                states = self.client.of_type("state")
            if not self.playing.is_set() or not states or not states[-1]["legal"] or len(states) == acted \
                    or time.monotonic() - last < PACE:
                continue
            moves = [c for c in states[-1]["legal"] if c != "/start"]
            if not moves:
                continue
            move = pick_command(moves, self.rng)
            acted, last = len(states), time.monotonic()
            self.client.send(f'{{"id": "auto-{acted}", "cmd": "{move}"}}')

    def came(self, since: float, wanted: Callable[[dict[str, Any]], bool]) -> float | None:
        """When the first message ``wanted`` came after ``since``."""
        with self.lock:
            messages = list(zip(self.arrived, self.client.messages[len(self.client.messages) - len(self.arrived):],
                                strict=True))
        return next((t for t, m in messages if t > since and wanted(m)), None)

    def stop(self) -> None:
        self.done.set()
        self.join(2)
        self.client.close()


def opened(client: JsonClient, *setup: str) -> int:
    """A Wizard table opened by ``client``, set up with ``setup``: its number."""
    assert client.request("/new wizard")["type"] == "ok"
    for cmd in setup:
        assert client.request(cmd)["type"] == "ok", cmd
    state = client.last_state()
    assert state is not None
    return int(state["table"])


def listed(client: JsonClient, table: int) -> bool:
    if client.request("/tables", timeout=GIVE_UP)["type"] != "ok":
        return False
    return any(t["id"] == table for t in client.of_type("tables")[-1]["tables"])


def poll(ask: Callable[[], bool], since: float) -> float:
    """Seconds from ``since`` until ``ask()`` is true, asked every ``POLL`` s (``inf`` after ``GIVE_UP`` s)."""
    while time.monotonic() - since < GIVE_UP:
        tick = time.monotonic()
        try:
            if ask():
                return time.monotonic() - since
        except (TimeoutError, ConnectionError, OSError, RuntimeError):
            pass
        time.sleep(max(0.0, POLL - (time.monotonic() - tick)))
    return float("inf")


def measured(probes: dict[str, Callable[[], float]]) -> Figures:
    """Each probe in a thread of its own, all at once: name -> its seconds."""
    got: Figures = {}
    threads = [threading.Thread(target=lambda k=k, p=p: got.__setitem__(k, p()), daemon=True)
               for k, p in probes.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(GIVE_UP + 10)
    return {k: got.get(k, float("inf")) for k in probes}


def waited(player: Player, since: float, wanted: Callable[[dict[str, Any]], bool]) -> float:
    """Seconds from ``since`` until a message ``wanted`` came to ``player`` (when it came, not when seen)."""
    poll(lambda: player.came(since, wanted) is not None, since)
    came = player.came(since, wanted)
    return float("inf") if came is None else came - since


def seated_again(name: str) -> Callable[[dict[str, Any]], bool]:
    """The table's word that ``name`` has their seat back (table/seating.py, ``reattach``), to them too: a state
    may be one sent before the outage, published when Redis came back."""
    return lambda m: m["type"] == "notice" and f"{name} is back." in str(m.get("text"))


def redis_outage(nodes: list[RestartableServer], redis: contextlib.ExitStack, home: Path, outage: float) -> Figures:
    """The ``redis`` figures: Redis away for ``outage`` s, back empty, and each node healing."""
    names = ("n1", "n2")
    players, visitors, hosts, playing, visited = [], [], [], {}, {}
    for i, node in enumerate(nodes):
        player = Player(JsonClient(node.address, f"play{i + 1}"))
        playing[i] = opened(player.client, "/bot add random", "/bot add random")
        assert player.client.request("/start")["type"] == "ok"
        players.append(player)
        hosts.append(JsonClient(node.address, f"host{i + 1}"))
        visited[i] = opened(hosts[i], "/bot add random")
    for i, node in enumerate(nodes):  # the visitor whose home is node i plays at the other node's table
        visitor = JsonClient(node.address, f"visit{i + 1}")
        eventually(lambda v=visitor, t=visited[1 - i]: listed(v, t), "the visited table listed")
        assert visitor.request(f"/join {visited[1 - i]}")["type"] == "ok"
        assert hosts[1 - i].request("/start")["type"] == "ok"
        visitors.append(Player(visitor))
    players += [Player(host) for host in hosts]
    probes = [[JsonClient(node.address, f"{kind}{i + 1}") for kind in ("lists", "watch", "join")]
              for i, node in enumerate(nodes)]
    for p in players + visitors:
        p.start()
        p.playing.set()
    time.sleep(1.0)
    redis.close()
    time.sleep(outage / 2)
    openers = [JsonClient(node.address, f"new{i + 1}") for i, node in enumerate(nodes)]
    news = {i: opened(c) for i, c in enumerate(openers)}
    time.sleep(outage / 2)
    redis.enter_context(redis_server(home))
    back = time.monotonic()

    def joined(client: JsonClient, table: int) -> bool:
        return listed(client, table) and client.request(f"/join {table}", timeout=GIVE_UP)["type"] == "ok"

    figures = measured({
        **{f"{names[i]} lists": lambda i=i: poll(lambda: listed(probes[i][0], news[1 - i]), back) for i in (0, 1)},
        **{f"{names[i]} watch": lambda i=i: poll(
            lambda: probes[i][1].request(f"/watch {playing[1 - i]}", timeout=GIVE_UP)["type"] == "ok", back)
           for i in (0, 1)},
        **{f"{names[i]} join": lambda i=i: poll(lambda: joined(probes[i][2], news[1 - i]), back) for i in (0, 1)},
        **{f"{names[i]} seat": lambda i=i: waited(visitors[i], back, seated_again(f"visit{i + 1}")) for i in (0, 1)},
    })
    for p in players + visitors:
        p.stop()
    for client in (*openers, *(c for row in probes for c in row)):
        client.close()
    return figures


def killed_host(nodes: list[RestartableServer]) -> Figures:
    """The ``kill`` figures: n1 killed mid-game, its table taken over by n2."""
    n1, n2 = nodes
    ann = JsonClient(n1.address, "Ann")
    code = ann.of_type("welcome")[0]["resume"]
    bob = JsonClient(n2.address, "Bob")
    table = opened(ann, "/bot add random")
    eventually(lambda: listed(bob, table), "Bob's node lists Ann's table")
    assert bob.request(f"/join {table}")["type"] == "ok"
    assert ann.request("/start")["type"] == "ok"
    players = [Player(ann), Player(bob)]
    for p in players:
        p.start()
        p.playing.set()
    time.sleep(2.0)  # some moves
    for p in players:
        p.playing.clear()
    time.sleep(0.5)  # the moves under way answered: what comes after the kill is the survivor's
    n1.kill()
    dead = time.monotonic()

    def ann_seated() -> bool:
        client = JsonClient(n2.address, "Ann", timeout=2, password=code)
        try:
            client.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, timeout=POLL, since=0)
            return True
        except TimeoutError:
            return False
        finally:
            client.close()

    figures = measured({"visitor": lambda: waited(players[1], dead, seated_again("Bob")),
                        "host's player": lambda: poll(ann_seated, dead)})
    for p in players:
        p.stop()
    return figures


def one_run(databases: Databases, outage: float, logs: Path | None) -> Figures:
    with tempfile.TemporaryDirectory(prefix="mudwiz-heal-") as tmp, databases.fresh() as url:
        home = Path(tmp)
        with contextlib.ExitStack() as redis:  # closed: Redis stopped; entered again: started, empty, in its home
            nodes = start_nodes(home, redis.enter_context(redis_server(home / "redis")), url)
            try:
                figures = {f"redis {k}": v for k, v in redis_outage(nodes, redis, home / "redis", outage).items()}
                time.sleep(max(0.0, 5.0 - min(max(figures.values()), 5.0)))  # Redis steady: a takeover allowed
                figures |= {f"kill {k}": v for k, v in killed_host(nodes).items()}
            finally:
                for node in nodes:
                    if node.proc is not None and node.proc.poll() is None:
                        node.kill()
                    if logs is not None:
                        logs.mkdir(parents=True, exist_ok=True)
                        shutil.copy(node.logpath, logs / f"{time.strftime('%H%M%S')}-{node.logpath.name}")
        return figures


def shown(seconds: float) -> str:
    return f"> {GIVE_UP:g}" if seconds == float("inf") else f"{seconds:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--outage", type=float, default=6.0, help="seconds Redis is away")
    parser.add_argument("--logs", type=Path, help="a directory to keep each run's node logs in")
    args = parser.parse_args(argv)
    print(f"heal: {os.cpu_count()} cpu(s), load average {os.getloadavg()[0]:.2f}; figures, never assertions",
          flush=True)
    runs: list[Figures] = []
    with postgres_server() as pg:
        databases = Databases(pg)
        for n in range(args.runs):
            figures = one_run(databases, args.outage, args.logs)
            runs.append(figures)
            print(f"run {n + 1}: " + "  ".join(f"{k} {shown(v)}" for k, v in figures.items()), flush=True)
    print(f"seconds over {len(runs)} run(s), load average {os.getloadavg()[0]:.2f}:  min / median / max")
    for key in runs[0] if runs else []:
        values = sorted(r.get(key, float("inf")) for r in runs)
        print(f"  {key:24} {shown(values[0])} / {shown(statistics.median(values))} / {shown(values[-1])}")


if __name__ == "__main__":
    main()
