"""Real table states and events for the client's tests, without sockets: a lobby in this process on a fake clock,
people who answer every turn with a random legal move, and everything each of them is sent, as the JSON a client
reads (encoded and decoded again). The client's panes and log are then fed exactly what a server sends.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.games import game_class
from mudwiz.games.base import Event
from mudwiz.lobby import Lobby
from mudwiz.render.jsonl import encode

LONG = "Longname{:02d}xxxxxx"  # 16 characters: the longest name the server takes


def max_players(game: str) -> int:
    return game_class(game).max_players


class Person(Recorder):
    """A recorder that keeps its latest state at hand (``Recorder.last_state`` searches every message)."""

    def __init__(self) -> None:
        super().__init__()
        self.latest: dict[str, Any] = {}

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        super().deliver(message, event)
        if message["type"] == "state":
            self.latest = message

    def last_state(self) -> dict[str, Any]:
        return self.latest


class Run:
    """One table of people (no bots) from the start; ``step`` makes the next move or lets the clock run."""

    def __init__(self, game: str, players: int, names: str = LONG, seed: int = 3,
                 options: tuple[str, ...] = ()) -> None:
        self.clock = Clock()
        self.lobby = Lobby(self.clock, grace=30, bot_delay=0.5, seed=seed)
        self.people = [Person() for _ in range(players)]
        for i, p in enumerate(self.people):
            self.lobby.login(p, names.format(i))
        dispatch(self.lobby, self.people[0], f"/new {game}")
        for p in self.people[1:]:
            dispatch(self.lobby, p, "/join 1")
        for option in options:
            dispatch(self.lobby, self.people[0], f"/option {option}")
        dispatch(self.lobby, self.people[0], "/start")
        self.table = self.lobby.tables[1]

    def messages(self, who: int = 0) -> list[dict[str, Any]]:
        """What person ``who`` was sent, as a JSON client decodes it."""
        return [json.loads(encode(m)) for m in self.people[who].messages]

    def state(self, who: int = 0) -> dict[str, Any]:
        return json.loads(encode(self.people[who].last_state()))

    @property
    def over(self) -> bool:
        return self.table.game is None or self.table.game.finished

    def step(self, confirm: Callable[[int], bool] = lambda who: True) -> None:
        """The first person the game waits on moves (a random legal move), or confirms the round if
        ``confirm(who)``; when nobody does, a minute passes (round-end timers run out)."""
        for who, p in enumerate(self.people):
            legal = [a for a in p.last_state()["legal"] if a != "/start"]
            if legal == ["/ok"]:
                if not confirm(who):
                    continue
                dispatch(self.lobby, p, "/ok")
                return
            if legal and p.name in p.last_state().get("waiting", ()):
                move = self.table.bots.any_move(self.table.seat_of(p.name))
                assert move is not None
                dispatch(self.lobby, p, "/" + move)
                return
        self.clock.advance(60)

    def play(self, until: Callable[[], bool], limit: int = 3000, **kw: Any) -> None:
        for _ in range(limit):
            if until():
                return
            self.step(**kw)
        raise AssertionError("the table never got there")
