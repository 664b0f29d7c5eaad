"""A game event is worded from its protocol message: the dict the table delivers (``type``, the event's fields,
``table`` and ``game``) is what the telnet session renders and, sent as a JSON line, what the client renders,
with the same function. Whole games are played at a real table (fake clock, random bots, a person seated and
one watching), and every event each of them was sent is rendered from its message, from the message after a
JSON round trip, and from the engine's event it was made from: the lines are the same."""

from __future__ import annotations

import json
from typing import Any

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.client import events as client
from mudwiz.commands import dispatch
from mudwiz.games.base import Event
from mudwiz.lobby import Lobby
from mudwiz.render import jsonl
from mudwiz.render.ansi import Presenter, game_renderer
from mudwiz.render.style import Style, strip_ansi

STYLES = [Style.for_mode("ansi"), Style.for_mode("ascii")]


class Viewer(Recorder):
    """A person whose game events are kept with the engine's event each message was made from."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[dict[str, Any], Event]] = []

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        super().deliver(message, event)
        if event is not None:
            self.events.append((message, event))


def play(game: str, players: int, options: list[str]) -> list[tuple[dict[str, Any], Event]]:
    """A whole game: the host plays its first legal move, bots the other seats; every event both people got."""
    clock = Clock()
    lobby = Lobby(clock, bot_delay=0.5, seed=5)
    host, watcher = Viewer(), Viewer()
    lobby.login(host, "host")
    lobby.login(watcher, "watcher")
    dispatch(lobby, host, f"/new {game}")
    for option in options:
        dispatch(lobby, host, f"/option {option}")
    for _ in range(players - 1):
        dispatch(lobby, host, "/bot add random")
    dispatch(lobby, watcher, "/watch 1")
    dispatch(lobby, host, "/start")
    table = lobby.tables[1]
    for _ in range(20000):
        if table.game is None or table.game.finished:
            break
        legal = host.last_state()["legal"]
        if "/ok" in legal:
            dispatch(lobby, host, "/ok")
        elif "host" in host.last_state()["waiting"]:
            dispatch(lobby, host, "/" + str(table.bots.any_move(table.seat_of("host"))))
        else:
            clock.advance(1)
    assert table.game is not None and table.game.finished
    return host.events + watcher.events


@pytest.mark.parametrize(("game", "players", "options"), [
    ("wizard", 4, ["rounds 3"]),
    ("wizard", 3, ["clairvoyance", "hiddentip", "rounds 2"]),
    ("witches", 4, ["hands 2"]),
    ("tiltowait", 4, ["hands 2"]),
])
def test_an_event_reads_the_same_from_its_message_on_the_wire_and_from_the_engine(
        game: str, players: int, options: list[str]) -> None:
    sent = play(game, players, options)
    render = game_renderer(game)
    kinds = set()
    for message, event in sent:
        received = json.loads(jsonl.encode(message))  # the client's copy
        for style in STYLES:
            lines = render.event_lines(event, style)
            assert render.event_lines(message, style) == lines
            assert render.event_lines(received, style) == lines
            assert Presenter(style).lines(message) == lines  # the telnet path, which no longer reads the event
        worded = render.event_lines(received, client.STYLE)
        if client.revealed(received) is not None:  # MILWA's opened hand: the client's table pane shows the cards
            said = strip_ansi(" ".join(client.message_lines(received))).split()
            assert not set(received["cards"]) - {"MILWA"} & {word.strip(".,:()") for word in said}, said
            continue
        if worded and message["type"] not in ("round_end", "game_end"):  # those the client sums up in one line
            assert client.message_lines(received) == [client.tighten(client._unrule(line)) for line in worded]
            kinds.add(message["type"])
    assert {"card_played", "round_end", "game_end"} <= {m["type"] for m, _ in sent}
    assert "card_played" in kinds
