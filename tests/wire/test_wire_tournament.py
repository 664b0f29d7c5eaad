"""A Swiss tournament over real TCP with a real server process: 7 registered players (JSON clients) and a bot at
tables of 4 Wizard (one round a game), 2 rounds run by the server. The server is killed with ``kill -9`` as the
first round ends and again during the second, and started again each time on the same data directory; the
players log in again (to their seats) and the tournament carries on to its end, with the first round's results
as they were (nothing lost, nothing counted twice), the standings published to everyone and kept."""

from __future__ import annotations

import random
import time
from pathlib import Path

from wire import JsonClient, RestartableServer, pick_command

from mudwiz.store import open_store

PASSWORD = "tournament-secret-7"
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus"]


def play(clients: list[JsonClient], until: str, rng: random.Random, limit: float = 120.0,
         only: float | None = None, everyone: bool = True) -> None:
    """Each client plays a random legal move of its latest state and leaves its table once its game is over,
    until a notice containing ``until`` has reached every client (not ``everyone``: one; one who logs in after
    it was said is not told it again) or, ``only``, for that many seconds."""
    deadline = time.monotonic() + limit
    stop = time.monotonic() + only if only is not None else None
    answered: dict[str, int] = {}
    left: dict[str, int] = {}
    told = all if everyone else any
    while not told(any(until in m.get("text", "") for m in c.of_type("notice")) for c in clients):
        if stop is not None and time.monotonic() > stop:
            return
        assert time.monotonic() < deadline, f"no {until!r} in {limit:g} s"
        for c in clients:
            c.read(0.01)
            states = c.of_type("state")
            if not states or answered.get(c.name) == len(states):
                continue
            answered[c.name] = len(states)
            state = states[-1]
            if state.get("status") == "over" and left.get(c.name) != len(c.of_type("game_end")):
                left[c.name] = len(c.of_type("game_end"))
                c.send("/leave")
            elif state["legal"] and state["legal"][0] != "/start" and not state.get("observer"):
                c.send(pick_command(state["legal"], rng))


def test_a_swiss_tournament_of_seven_runs_through_a_kill_9_to_its_end(tmp_path: Path) -> None:
    server = RestartableServer(tmp_path / "data", tmp_path / "server.log", MUDWIZ_TOURNAMENTS="registered",
                               MUDWIZ_GRACE="20", MUDWIZ_SEED="5")
    rng = random.Random(5)
    try:
        server.start()
        clients = []
        for name in NAMES:
            client = JsonClient(server.address, name)
            assert client.register(PASSWORD)["type"] == "ok", name
            clients.append(client)
        made = clients[0].request("/tournament new wizard swiss 2 rounds=1 start in 0")
        assert made["type"] == "ok", made
        for client in clients:
            assert client.request("/tournament join 1")["type"] == "ok"
        play(clients, "round 1 is over", rng)
        assert clients[0].request("/tournament 1")["type"] == "ok"
        after_one = [m for m in clients[0].messages[clients[0].mark:] if m["type"] == "tournament"][-1]
        assert after_one["round"] == 1 and sorted(r["name"] for r in after_one["standings"]) == sorted(NAMES)

        server.kill()  # before the next round starts: it must start after the restart, once
        server.start()
        clients = [JsonClient(server.address, name, password=PASSWORD) for name in NAMES]
        play(clients, "round 2 of 2", rng, everyone=False)  # (it may start as the last of them logs in)
        play(clients, "", rng, only=1.0)  # a few moves of round 2 ...
        server.kill()  # ... and killed in the middle of it
        server.start()
        clients = [JsonClient(server.address, name, password=PASSWORD) for name in NAMES]
        play(clients, "Tournament 1 (Wizard) is over", rng)
        assert clients[3].request("/tournaments")["type"] == "ok"
        listed = clients[3].of_type("tournaments")[-1]["tournaments"]
        assert listed[0]["id"] == 1 and listed[0]["status"] == "finished" and listed[0]["winner"] in NAMES
        server.stop()

        store = open_store(tmp_path / "data")
        try:
            status, state = store.tournament(1)
        finally:
            store.close()
        assert status == "finished" and state["round"] == 2 and len(state["tables"]) == 2
        for rnd in state["tables"]:
            seated = sorted(n for t in rnd for n in t["seats"] if n not in t["bots"])
            assert seated == sorted(NAMES) and sum(len(t["bots"]) for t in rnd) == 1
            assert all(t["result"] for t in rnd)
        first = {r["name"]: r["points"] for r in after_one["standings"]}
        assert sum(first.values()) >= 10 and all(r["points"] >= first[r["name"]] for r in state["standings"])
        assert state["winner"] == state["standings"][0]["name"]
    except BaseException:
        print(server.log()[-5000:])
        raise
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
