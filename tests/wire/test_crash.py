"""Restart-safe tables under fire: a real server process is killed with ``kill -9`` at random moments while three
registered players (JSON clients over TCP) play Wizard, Witches and Tiltowait with bots, game after game, and is
restarted each time on the same data directory. After every restart each player logs in again and must find
their table with its game at the last move they saw or later (a state's ``moves``, sent only once that move was
journaled); at the end (after a clean TERM stop and one more restart, which must keep the tables too), every
game each player saw finish is in their ``/history`` exactly once, each record replays through every state the
player was shown (hands, scores, phase, round at that move count), and the player's seat made no move they did
not send.

``MUDWIZ_CRASH_SEED`` picks another random schedule (the default is fixed); a failure prints the seed, the kill
schedule and the tail of the server's log.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wire import JsonClient, RestartableServer, pick_command

from mudwiz.games import game_class
from mudwiz.ratings import recompute
from mudwiz.store import GameRecord, open_store

PASSWORD = "crash-test-secret-9"
KILLS = int(os.environ.get("MUDWIZ_CRASH_KILLS", "21"))  # at least 20 kills in all (fewer: a quick look)
GAMES_EACH = 2  # and at least this many finished games a player
TIME_LIMIT = 240.0  # seconds: the test fails rather than hang
TABLES = {"Ann": ("wizard", {"rounds": 3}), "Ben": ("witches", {"hands": 2}), "Cid": ("tiltowait", {"hands": 2})}


def move_key(action: str) -> tuple[str, tuple[str, ...]]:
    """A move as the engine logs it, whatever order the player typed a Witches pass's cards in."""
    verb, *args = action.lstrip("/").split()
    return verb.lower(), tuple(sorted(a.upper() for a in args))


@dataclass
class Player:
    """One person's client and its own record of what it was shown and what it sent."""

    name: str
    game: str
    options: dict[str, int]
    client: JsonClient | None = None
    seen: int = 0  # messages of this client already looked at
    table: int | None = None
    in_game: bool = False
    acked: int = -1  # the highest ``moves`` of the current game seen in a state
    games: list[list[dict[str, Any]]] = field(default_factory=list)  # a game's states, as shown
    sent: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # every game move sent
    pending: str | None = None
    acted_on: int = -1  # the state index the last command answered
    states: int = 0
    finished: int = 0

    def connect(self, address: tuple[str, int]) -> None:
        self.client = JsonClient(address, self.name, password=PASSWORD)
        self.seen = 0
        self.pending = None
        self.client.request("/look")  # its reply comes after the kept seat's state, if there is one
        self.take()

    def take(self) -> None:
        """Look at the messages that came in: the states of our table, the replies to our requests."""
        assert self.client is not None
        for m in self.client.messages[self.seen:]:
            if m["type"] in ("ok", "error") and m.get("id") is not None and m["id"] == self.pending:
                self.pending = None
            elif m["type"] == "state" and not m["observer"]:
                self.on_state(m)
        self.seen = len(self.client.messages)

    def on_state(self, state: dict[str, Any]) -> None:
        if self.table is not None:
            assert state["table"] == self.table, f"{self.name} was at table {self.table}, now {state['table']}"
        self.table = state["table"]
        self.states += 1
        status = state["status"]
        if status == "waiting":
            assert not self.in_game, f"{self.name}'s game at table {self.table} is gone (waiting again)"
            return
        if status == "playing" and not self.in_game:
            self.in_game, self.acked = True, -1
            self.games.append([])
        if not self.games:
            return
        if self.in_game:
            assert state["moves"] >= self.acked, (
                f"{self.name}'s table {self.table} went back from move {self.acked} to {state['moves']}")
            self.acked = state["moves"]
            self.games[-1].append({k: state[k] for k in ("moves", "hand", "phase", "round", "status")}
                                  | {"scores": [p["score"] for p in state["players"]]})
        if status == "over" and self.in_game:
            self.in_game = False
            self.finished += 1

    def step(self, rng: random.Random, more_games: Callable[[], bool]) -> None:
        """Read what came; answer the latest state with the next command if nothing is pending. ``more_games`` is
        asked after reading: a game's end read here may be the one that makes it False."""
        assert self.client is not None
        self.client.read(0.002)
        self.take()
        if self.pending is not None or self.acted_on == self.states:
            return
        command = self.next_command(rng, more_games())
        if command is None:
            return
        self.acted_on = self.states
        self.client._next_id += 1
        self.pending = f"{self.name}-{self.client._next_id}"
        self.client.send(json.dumps({"id": self.pending, "cmd": command}))

    def next_command(self, rng: random.Random, more_games: bool) -> str | None:
        assert self.client is not None
        state = self.client.last_state()
        if self.table is None:
            return f"/new {self.game}"
        if state is None:
            return None
        if state["status"] == "waiting":
            for name, value in self.options.items():
                if state["options"].get(name) != value:
                    return f"/option {name} {value}"
            if state["table_options"]["turn"] != 0:
                return "/option turn 0"
            return "/bot add random" if len(state["players"]) < 3 else "/start"
        if state["status"] == "over":
            return "/start" if more_games and "/start" in state["legal"] else None
        legal = [c for c in state["legal"] if c != "/start"]
        if not legal:
            return None
        command = pick_command(legal, rng)
        if command == "/pass":
            command = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
        if command != "/ok":
            self.sent.append(move_key(command))
        return command


def register(address: tuple[str, int], name: str) -> None:
    client = JsonClient(address, name)
    assert client.register(PASSWORD)["type"] == "ok"
    client.close()


def check_record(player: Player, shown: list[dict[str, Any]], record: GameRecord) -> None:
    """The record replays through every state the player was shown, and their seat made only moves they sent."""
    assert record.outcome == "finished" and record.game == player.game, record
    seat = record.players.index(player.name)
    cls = game_class(record.game)
    game = cls(record.players, record.options, record.seed)
    by_moves: dict[int, list[dict[str, Any]]] = {}
    for state in shown:
        by_moves.setdefault(state["moves"], []).append(state)
    assert max(by_moves) == len(record.log), f"{player.name}: shown {max(by_moves)} moves, recorded {len(record.log)}"
    for n, (who, action) in enumerate([*record.log, (None, "")]):
        view = game.view(seat)
        for state in by_moves.get(n, []):
            expected = {"hand": view["hand"], "phase": view["phase"], "round": view["round"],
                        "scores": [p["score"] for p in view["players"]]}
            assert {k: state[k] for k in expected} == expected, f"{player.name} at move {n}: {state} != {expected}"
        if n < len(record.log) and who is None:
            game.advance()
        elif n < len(record.log):
            game.apply(who, action)
    mine = [move_key(a["action"]) for a in record.actions if a["seat"] == seat]
    sent = list(player.sent)
    for key in mine:  # in order: each recorded move of the seat is one sent, after the one before
        assert key in sent, f"{player.name}'s seat made {key}, which they never sent (sent: {player.sent})"
        sent = sent[sent.index(key) + 1:]


def test_tables_survive_kill_9_at_random_moments(tmp_path: Path) -> None:
    seed = int(os.environ.get("MUDWIZ_CRASH_SEED", "17"))
    rng = random.Random(seed)
    server = RestartableServer(tmp_path / "data", tmp_path / "server.log", MUDWIZ_SEED=str(seed))
    players = [Player(name, game, options) for name, (game, options) in TABLES.items()]
    kills: list[str] = []
    try:
        server.start()
        for p in players:
            register(server.address, p.name)
            p.connect(server.address)
        began = time.monotonic()
        next_kill = began + rng.uniform(0.2, 1.2)
        while len(kills) < KILLS or any(p.in_game or p.finished < GAMES_EACH for p in players):
            now = time.monotonic()
            assert now - began < TIME_LIMIT, f"not done in {TIME_LIMIT:g} s"
            if len(kills) < KILLS and now >= next_kill:
                kills.append(f"{now - began:7.3f}s " + " ".join(f"{p.name}@{p.table}:{p.acked}" for p in players))
                server.kill()
                server.start()
                for p in players:
                    assert p.client is not None
                    p.client.close()
                    p.connect(server.address)
                next_kill = time.monotonic() + rng.uniform(0.1, 1.5)
                continue
            for p in players:
                p.step(rng, more_games=lambda p=p: len(kills) < KILLS or p.finished < GAMES_EACH)
        assert server.stop() == 0  # TERM with everyone connected: a clean stop ...
        for p in players:
            assert p.client is not None
            p.client.close()
        server.start()  # ... keeps the tables as they were too (the connections closing on the way down did not)
        for p in players:
            p.connect(server.address)
            assert p.client is not None
            assert p.client.last_state() is not None and p.client.last_state()["table"] == p.table  # type: ignore[index]
            p.client.request("/history")
            history = p.client.of_type("history")[-1]["games"]
            assert [g["outcome"] for g in history] == ["finished"] * min(p.finished, 10), history
            p.client.request("/leave")  # on purpose: a table left so closes at once (dropped, it would wait)
            p.client.close()
        watcher = JsonClient(server.address, "Watcher")  # the players left their tables (games over): they close
        deadline = time.monotonic() + 20
        while watcher.request("/tables") and watcher.of_type("tables")[-1]["tables"]:
            assert time.monotonic() < deadline, watcher.of_type("tables")[-1]
            time.sleep(0.05)
        watcher.close()
        assert server.stop() == 0
        store = open_store(server.data)
        try:
            for p in players:
                summaries = sorted(store.games_of(p.name, limit=1000), key=lambda s: s.id)
                assert len(summaries) == p.finished == len(p.games), (p.name, len(summaries), p.finished)
                for shown, summary in zip(p.games, summaries, strict=True):
                    record = store.game(summary.id)
                    assert record is not None
                    check_record(p, shown, record)
            assert store.open_tables() == []  # and closed tables are forgotten by the journal
            # ratings consistent with the recorded games: played again from the records, they are what is stored
            records = {s.id: store.game(s.id) for p in players for s in store.games_of(p.name, limit=1000)}
            again = recompute([r for r in records.values() if r is not None], {p.name.lower() for p in players})
            kept = {(r.name.lower(), r.game): r for p in players for r in store.ratings_of(p.name)}
            assert kept == again and {name for name, _ in kept} == {p.name.lower() for p in players}
        finally:
            store.close()
    except BaseException:
        print(f"MUDWIZ_CRASH_SEED={seed}; {len(kills)} kills, at (seconds, then name@table:moves acknowledged):")
        print("\n".join(kills))
        print("server log (tail):\n" + server.log()[-6000:])
        raise
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    assert len(kills) >= KILLS and all(p.finished >= GAMES_EACH for p in players)
