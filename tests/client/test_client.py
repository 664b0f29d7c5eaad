"""The terminal client against a live server: keys in through a pipe, no terminal, the screen read by pyte.

A whole Wizard game is played with the cursor keys and Enter alone; every move sent is checked to be the one
the cursor showed, and the server must accept it. The connection is dropped mid-game and F5 must bring the
player back to the same seat. Completion is checked on a model alone and through the running app.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pyte
import pytest
from client_tables import LONG, Run, max_players
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output
from wire import JsonClient, free_port

from mudwiz.client import panes
from mudwiz.client.app import ClientApp
from mudwiz.client.completion import CommandCompleter
from mudwiz.client.connection import parse_address, split_line
from mudwiz.client.model import Model
from mudwiz.games import available
from mudwiz.render.style import strip_ansi

KEYS = {"left": "\x1b[D", "right": "\x1b[C", "up": "\x1b[A", "down": "\x1b[B", "enter": "\r", "tab": "\t", "space": " ",
        "f1": "\x1bOP", "f2": "\x1bOQ", "f5": "\x1b[15~"}  # what a vt100/xterm sends for each key


class Screen:
    """A virtual terminal: prompt_toolkit writes escape codes into it, pyte keeps the screen they draw."""

    def __init__(self, columns: int = 100, rows: int = 36) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.size = Size(rows=rows, columns=columns)
        outer = self

        class Sink(io.StringIO):
            encoding = "utf-8"

            def write(self, text: str) -> int:
                outer.stream.feed(text)
                return len(text)

        self.output = Vt100_Output(Sink(), lambda: self.size, term="xterm")

    def resize(self, columns: int, rows: int) -> None:
        """What a terminal window resize does: a new size for the app to ask for, the same for pyte."""
        self.size = Size(rows=rows, columns=columns)
        self.screen.resize(rows, columns)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)


class Driver:
    """A client app run in the test's event loop, with a recorder of what it received and sent."""

    def __init__(self, client: ClientApp, keys: PipeInput) -> None:
        self.client, self.keys = client, keys
        self.model = client.model
        self.received: list[dict[str, Any]] = []
        self.sent: list[str] = []
        connection = client.connection
        on_message, request = connection.on_message, connection.request

        def record(message: dict[str, Any]) -> None:
            self.received.append(message)
            on_message(message)

        def send(cmd: str) -> int:
            self.sent.append(cmd)
            return request(cmd)

        connection.on_message, connection.request = record, send  # type: ignore[method-assign]

    async def press(self, *names: str) -> None:
        for name in names:
            self.keys.send_text(KEYS[name])
            await asyncio.sleep(0.005)  # let the app read and handle the key

    async def type(self, text: str) -> None:
        self.keys.send_text(text)
        await asyncio.sleep(0.005)

    async def until(self, pred: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not pred():
            if asyncio.get_running_loop().time() > deadline:
                log = "\n".join(strip_ansi(line) for line in list(self.model.log)[-15:])
                raise AssertionError(f"timed out waiting for {what}; status: "
                                     f"{strip_ansi(panes.status_line(self.model))}\n{log}")
            await asyncio.sleep(0.005)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == kind]

    def answered(self) -> bool:
        return not self.model.pending


Script = Callable[[Driver], Awaitable[None]]


@contextmanager
def driven(address: tuple[str, int], output: Any = None, timeout: float = 60,
           lang: str | None = "en") -> Iterator[Callable[[Script], None]]:
    """Run a client against ``address``; the yielded function runs a script against it, then quits. ``lang``: the
    client's ``--lang`` (English, whatever the environment says); None, the environment's."""

    def run(script: Script) -> None:
        async def main() -> None:
            with create_pipe_input() as keys:
                client = ClientApp(f"{address[0]}:{address[1]}", input=keys, output=output or DummyOutput(),
                                   lang=lang)
                driver = Driver(client, keys)
                app_task = asyncio.ensure_future(client.run_async())
                try:
                    await asyncio.wait_for(script(driver), timeout)
                finally:
                    if not app_task.done():
                        client.app.exit(result=0)
                    await asyncio.wait_for(app_task, 10)

        asyncio.run(main())

    yield run


async def login_and_seat(d: Driver, name: str) -> None:
    await d.until(lambda: d.model.connection == "connected", what="the connection")
    await d.type(name + "\r")
    await d.until(lambda: d.model.logged_in, what="welcome")
    for command in ["/new wizard", "/bot add random", "/bot add random", "/option rounds 2"]:
        await d.type(command + "\r")
        await d.until(d.answered, what=command)
        assert d.received[-1]["type"] == "ok", d.received[-1]
    assert [p["name"] for p in d.model.state["players"]][0] == name
    assert d.model.choices() == ["/start"]
    await d.press("enter")  # Enter on an empty line: the only choice, /start
    await d.until(lambda: d.model.state["status"] == "playing", what="the start")


async def play_by_keys(d: Driver, rng: random.Random, stop: Callable[[], bool]) -> int:
    """Answer every turn with the cursor keys and Enter until ``stop()``; returns how many moves were made."""
    moves = 0
    while not stop():
        await d.until(lambda: stop() or (d.answered() and bool(d.model.choices()) and d.model.connection ==
                                         "connected" and d.model.logged_in), what="a turn")
        if stop():
            break
        options = d.model.choices()
        if options == ["/start"]:
            break
        steps = rng.randrange(len(options) + 2)
        await d.press(*(["right"] * steps))
        expected = options[steps % len(options)]
        assert d.model.selected() == expected
        await d.press("enter")
        await d.until(d.answered, what=f"the reply to {expected}")
        assert d.sent[-1] == expected
        reply = next(m for m in reversed(d.received) if m["type"] in ("ok", "error"))
        assert reply["type"] == "ok", (expected, reply)
        moves += 1
    return moves


def test_a_whole_game_by_keys_with_a_drop_and_the_score_sheet(server: tuple[str, int]) -> None:
    screen = Screen(100, 36)

    async def script(d: Driver) -> None:
        await login_and_seat(d, "keys1")
        rng = random.Random(3)
        # Play into round 2, then lose the connection and come back with F5.
        await play_by_keys(d, rng, stop=lambda: d.model.state["round"] == 2 and d.model.state["phase"] != "roundend")
        d.client.connection.abort()
        await d.until(lambda: d.model.connection == "disconnected", what="the drop")
        assert "DISCONNECTED" in strip_ansi(panes.status_line(d.model))
        assert any("F5 reconnects" in strip_ansi(line) for line in d.model.log)
        await asyncio.sleep(0.2)  # the screen shows the drop
        assert "DISCONNECTED" in screen.text()
        welcomes = len(d.of_type("welcome"))
        await d.press("f5")
        await d.until(lambda: len(d.of_type("welcome")) > welcomes, what="the new login")
        await d.until(lambda: d.model.state is not None, what="the seat back")
        assert d.model.state["you"] == "keys1" and d.model.state["round"] == 2

        await play_by_keys(d, rng, stop=lambda: bool(d.of_type("game_end")))
        await d.until(lambda: d.model.state["phase"] == "gameover", what="the final state")
        assert [m["round"] for m in d.of_type("round_end")] == [1, 2]
        assert not any(m["type"] == "error" for m in d.received)

        await d.press("f2")
        assert d.model.show_sheet
        await asyncio.sleep(0.2)
        shown = screen.text()
        assert "Score sheet (F2 closes)" in shown
        totals = {r["player"]: r["score"] for r in d.of_type("round_end")[-1]["results"]}
        sheet = "\n".join(strip_ansi(line) for line in panes.sheet_lines(d.model))
        rows = [line.split() for line in sheet.splitlines() if line.split()[:1] in (["1"], ["2"])]
        assert [row[0] for row in rows] == ["1", "2"]
        names = [p["name"] for p in d.model.state["players"]]
        assert [int(cell.split("(")[0]) for cell in rows[1][1:]] == [totals[n] for n in names]
        for row in rows:
            assert f"{row[0]} " in shown
        await d.press("f2")
        assert not d.model.show_sheet

    with driven(server, screen.output) as run:
        run(script)


def test_completion_of_play_through_the_app_offers_the_legal_cards(server: tuple[str, int]) -> None:
    async def script(d: Driver) -> None:
        await login_and_seat(d, "keys2")
        checked = 0
        rng = random.Random(5)
        while checked < 3 and not d.of_type("game_end"):
            await d.until(lambda: d.answered() and bool(d.model.choices()), what="a turn")
            legal = d.model.legal
            plays = [c for c in legal if c.startswith("/play ")]
            if plays:
                await d.type("/play ")
                await d.press("tab")
                await d.until(lambda: d.client.buffer.complete_state is not None or d.client.buffer.text !=
                              "/play ", what="completions")
                state = d.client.buffer.complete_state
                if state is None:  # one legal card: Tab writes it in
                    assert [d.client.buffer.text] == plays
                else:
                    assert sorted(c.display_text for c in state.completions) == sorted(p.split(" ", 1)[1]
                                                                                      for p in plays)
                d.client.buffer.reset()
                checked += 1
            await d.press(*(["right"] * rng.randrange(3)), "enter")
            await d.until(d.answered, what="the reply")
        assert checked >= 1

    with driven(server) as run:
        run(script)


def test_a_taken_name_is_refused_and_the_next_one_tried(server: tuple[str, int]) -> None:
    holder = JsonClient(server, "taken1")

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        assert "Type your name" in strip_ansi("\n".join(panes.table_lines(d.model, 80)))
        await d.type("Taken1\r")  # online: its resume code would take it over, and none is known here
        await d.until(lambda: d.model.question is not None, what="the resume code's question")
        await d.type("222-333-444\r")
        await d.until(lambda: bool(d.of_type("error")), what="the refusal")
        assert not d.model.logged_in and d.model.name is None
        assert "wrong resume code for taken1" in strip_ansi(d.model.log[-1]).lower()
        await d.type("taken2\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        assert d.model.name == "taken2"
        await d.type("/who\r")
        await d.until(d.answered, what="/who")
        assert {u["name"] for u in d.model.who} >= {"taken1", "taken2"}
        assert "Lobby" in strip_ansi(panes.table_lines(d.model, 80)[0])
        await asyncio.sleep(0.2)
        rows = screen.text().splitlines()
        assert rows[0].startswith("\u2500\u2500 Lobby") and rows[1][d.client.table_width()] == "\u2502"  # side by side
        screen.resize(60, 20)
        d.client.app._on_resize()  # what SIGWINCH calls
        await asyncio.sleep(0.2)
        rows = screen.text().splitlines()
        assert "\u2502" not in screen.text() and "\u2500" * 60 in rows  # stacked: the log under a full-width rule
        assert rows[0].startswith("\u2500\u2500 Lobby") and len(rows[0]) <= 60

    screen = Screen(130, 24)
    try:
        with driven(server, screen.output) as run:
            run(script)
    finally:
        holder.close()


def test_a_command_typed_at_the_name_prompt_is_not_taken_for_the_name(server: tuple[str, int]) -> None:
    """``/help`` where the name is asked is answered, ``/mode`` refused here, and the next line is the name: it
    once became the name, so the typed name was never sent and every F5 sent ``/help`` as one."""

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("/help\r")
        await d.until(lambda: bool(d.of_type("help")), what="the help")
        assert d.model.name is None and not d.model.logged_in
        await d.type("/mode ascii\r")
        await d.until(lambda: "JSON mode only" in strip_ansi(d.model.log[-1]), what="the refusal of /mode")
        await d.type("prompted1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        assert d.model.name == "prompted1"
        await d.type("/who\r")
        await d.until(d.answered, what="/who: still in JSON mode")
        assert "prompted1" in {u["name"] for u in d.model.who}

    with driven(server, Screen().output) as run:
        run(script)


def test_long_lines_in_the_log_break_between_words(server: tuple[str, int]) -> None:
    words = [f"{w}{i}" for i, w in enumerate(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"] * 6)]

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("wrap1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.type("/say " + " ".join(words) + "\r")
        await d.until(lambda: any(words[-1] in line for line in d.model.log), what="the chat line")
        for columns in (130, 80, 47):  # beside the table, under it, and narrow
            screen.resize(columns, 24)
            d.client.app._on_resize()
            await asyncio.sleep(0.2)
            shown = screen.text()
            cut = [w for w in words if not re.search(rf"(^|\s){w}(\s|$)", shown, re.M)]
            assert cut == [], (columns, shown)

    screen = Screen(130, 24)
    with driven(server, screen.output) as run:
        run(script)


HOSTILE = [  # each broke the client's reading for good (found by a probe with a fake server)
    '{"type":"welcome"}', '{"type":"who"}', '{"type":5}', '{"type":"tables","tables":[1,2]}',
    '{"type":"state","table":1,"legal":5,"players":[]}', '{"type":"notice","text":NaN}',
    '{"type":"round_end","round":1,"results":[{"player":"x"}]}', '{"a":' + "[" * 50_000,
    '{"type":"welcome","name":"Zed"}', '{"type":"who","users":[{"name":"Zed","where":"lobby"}]}',
]


def test_messages_the_client_cannot_read_are_skipped_and_it_reads_on() -> None:
    """A server (a fake one here) that sends messages with fields missing or of the wrong kind: each is skipped
    with a line in the log, the picture stays drawable, and the well-formed ones after them are taken."""
    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.name == "Zed" and bool(d.model.who), what="the good messages")
        assert d.model.connection == "connected" and d.model.logged_in and d.model.state is None
        skipped = [line for line in map(strip_ansi, d.model.log) if "could not be read; skipped" in line]
        assert len(skipped) >= 6, list(d.model.log)
        d.client.table_lines()  # still drawable

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write("".join(line + "\r\n" for line in HOSTILE).encode())
        await writer.drain()
        await reader.read()  # open until the client goes

    port = free_port()

    def fake_server() -> None:
        async def main() -> None:
            server = await asyncio.start_server(serve, "127.0.0.1", port)
            async with server:
                await asyncio.sleep(20)
        asyncio.run(main())

    threading.Thread(target=fake_server, daemon=True).start()
    time.sleep(0.3)
    with driven(("127.0.0.1", port)) as run:
        run(script)


def test_an_unreachable_server_is_reported_and_f5_tries_again() -> None:
    async def script(d: Driver) -> None:
        def refusals() -> int:
            return sum("cannot connect" in strip_ansi(line) for line in d.model.log)

        await d.until(lambda: refusals() == 1, what="the refusal")
        assert d.model.connection == "disconnected"
        assert "F5 reconnects" in strip_ansi(panes.status_line(d.model))
        await d.type("anyone?\r")  # typed while disconnected: refused locally, nothing breaks
        assert "not connected" in strip_ansi(d.model.log[-1])
        await d.press("f5")
        await d.until(lambda: refusals() == 2, what="the second try")
        await d.press("f1")
        assert d.client.show_keys

    with driven(("127.0.0.1", free_port())) as run:
        run(script)


WIZARD_PLAYING: dict[str, Any] = {
    "type": "state", "table": 4, "host": "ann", "status": "playing", "observer": False, "game": "wizard",
    "phase": "playing", "round": 3, "rounds": 5, "cards": 3, "dealer": "bot1", "leader": "ann", "turn": "ann",
    "waiting": ["ann"], "you": "ann",
    "players": [
        {"name": "ann", "score": 20, "projected": 50, "bid": 1, "has_bid": True, "tricks": 1, "held": 3,
         "played": None, "bot": False, "away": False},
        {"name": "bot1", "score": -10, "projected": None, "bid": None, "has_bid": True, "tricks": 0, "held": 2,
         "played": "R12", "bot": True, "away": False},
        {"name": "bobby", "score": 30, "projected": 20, "bid": 0, "has_bid": True, "tricks": 1, "held": 3,
         "played": None, "bot": False, "away": True},
    ],
    "hand": ["N", "B3", "R1", "R5", "Z"], "trump": {"suit": "G", "card": "G8"}, "lead": "R",
    "trick": [{"player": "bot1", "card": "R12"}], "last_trick": [], "legal": ["/play R1", "/play R5", "/play Z",
                                                                              "/play N"],
    "options": {"rounds": 5}, "sheet": [], "table_options": {"confirm": 20, "turn": 0},
}


def texts(completer: CommandCompleter, line: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(line), CompleteEvent(completion_requested=True))]


def test_completion_offers_exactly_the_legal_moves() -> None:
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    completer = CommandCompleter(model)
    assert texts(completer, "/play ") == []  # no state: nothing is legal
    model.apply(WIZARD_PLAYING)
    assert sorted(texts(completer, "/play ")) == ["N", "R1", "R5", "Z"]
    assert sorted(texts(completer, "/PLAY r")) == ["R1", "R5"]
    assert texts(completer, "/bid ") == []  # not bidding now
    assert "/play" in texts(completer, "/pl") and "/join" in texts(completer, "/j")
    assert "/mode" not in texts(completer, "/m")
    assert texts(completer, "/tell b") == ["bot1", "bobby"]
    assert texts(completer, "/bot remove ") == ["bot1"]
    assert texts(completer, "/bot add ") == ["easy", "normal", "hard", "random"]
    model.apply({**WIZARD_PLAYING, "phase": "bidding", "trick": [], "legal": ["/bid 0", "/bid 1", "/bid 3"]})
    assert texts(completer, "/bid ") == ["0", "1", "3"]
    assert texts(completer, "/play ") == []
    assert texts(completer, "hello b") == ["bot1", "bobby"]


def test_completion_follows_the_servers_catalogue() -> None:
    """Commands, games and bot levels come from what the server said it offers, not from the client's copy."""
    model = Model()
    completer = CommandCompleter(model)
    assert "/join" in texts(completer, "/j")  # before the welcome: the built-in table
    model.apply({"type": "welcome", "name": "ann", "games": ["wizard", "hearts"], "bot_levels": ["random", "ace"],
                 "commands": [{"command": "/join", "usage": "/join N", "help": "sit at table N"},
                              {"command": "/dance", "usage": "/dance", "help": "a new command"},
                              {"command": "/mode", "usage": "/mode json", "help": "never offered"}]})
    assert texts(completer, "/da") == ["/dance"] and texts(completer, "/j") == ["/join"]
    assert texts(completer, "/m") == []
    assert texts(completer, "/new ") == ["wizard", "hearts"]
    assert texts(completer, "/bot add ") == ["random", "ace"]
    assert "dance" in texts(completer, "/help ") and "hearts" in texts(completer, "/help ")
    assert texts(completer, "/help a") == ["all"]


def test_completion_knows_the_arguments_of_rules_top_rating_and_history() -> None:
    """Tab after ``/rules``, ``/top``, ``/rating`` and ``/history`` offered nothing (found by a probe)."""
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    model.apply(WIZARD_PLAYING)
    completer = CommandCompleter(model)
    assert texts(completer, "/rules w") == ["wizard", "witches"]
    assert texts(completer, "/rules tiltowait s") == ["scoring", "spells"]
    assert texts(completer, "/top t") == ["tiltowait"]
    assert texts(completer, "/rating b") == ["bot1", "bobby"] == texts(completer, "/history b")
    assert texts(completer, "/ignore b") == ["bot1", "bobby"] == texts(completer, "/unignore b")


def test_cursor_walks_the_playable_cards_in_hand_order() -> None:
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    model.apply(WIZARD_PLAYING)
    assert model.choices() == ["/play N", "/play R1", "/play R5", "/play Z"]
    model.move(1)
    assert model.selected() == "/play R1" and model.selected_position() == 2
    model.move(-2)
    assert model.selected() == "/play Z"
    model.apply({**WIZARD_PLAYING, "legal": ["/play R5", "/play Z"]})
    assert model.selected() == "/play Z"  # the cursor stays on its card while it is still legal
    model.apply({**WIZARD_PLAYING, "legal": ["/play R1"]})
    assert model.selected() == "/play R1"
    model.apply({**WIZARD_PLAYING, "phase": "roundend", "legal": ["/ok"]})
    assert model.enter_command() == "/ok"


@pytest.mark.parametrize("width", [100, 60, 40])
def test_the_table_pane_fits_narrow_terminals(width: int) -> None:
    model = Model(address="x:1")
    model.apply({"type": "welcome", "name": "ann"})
    model.apply(WIZARD_PLAYING)
    lines = [strip_ansi(line) for line in panes.table_lines(model, width)]
    assert all(len(line) <= width for line in lines), "\n".join(lines)
    text = "\n".join(lines)
    for needle in ("Trump: green", "Follow: red", "ann", "bot1", "bobby", "R12", "Your hand (5)", "[N]"):
        assert needle in text, (needle, text)
    assert "(now)" in text if width >= 60 else "(now)" not in text
    assert "(away)" in text or width < 60


def test_other_games_are_shown_generically_and_richer_when_known() -> None:
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    tilt = {**WIZARD_PLAYING, "game": "tiltowait", "phase": "playing", "top": "HALITO-R", "colour": "R",
            "direction": "ccw", "pending": 2, "stock": 40, "discard": 3, "next": "ann",
            "players": [{"name": "ann", "held": 7, "score": 0, "asleep": False, "karuki": False},
                        {"name": "bo", "held": 1, "score": 0, "asleep": False, "karuki": True}],
            "hand": ["R3", "MAHALITO"], "legal": ["/play MAHALITO K", "/play MAHALITO R", "/draw"]}
    model.apply(tilt)
    text = "\n".join(strip_ansi(line) for line in panes.table_lines(model, 80))
    for needle in ("HALITO-R", "Colour: red", "counter-clockwise", "Draw pending: 2", "karuki!", "cards"):
        assert needle in text, (needle, text)
    assert model.choices() == ["/play MAHALITO K", "/draw"]  # the colours are one stop: Up/Down choose
    assert model.choice_forms() == ["/play MAHALITO K", "/play MAHALITO R"]
    model.apply({**tilt, "game": "newgame", "players": [{"name": "ann", "score": 3, "gems": 4}]})
    text = "\n".join(strip_ansi(line) for line in panes.table_lines(model, 80))
    assert "gems" in text and "Newgame" in text
    witches = {**WIZARD_PLAYING, "game": "witches", "phase": "passing", "trick": [], "lead": None,
               "pass": {"count": 2, "to": "bo", "direction": "left"}, "legal": ["/pass"],
               "players": [{"name": "ann", "score": 0, "points": 5, "tricks": 1, "held": 5, "has_passed": False,
                            "played": None}]}
    model.apply(witches)
    text = "\n".join(strip_ansi(line) for line in panes.table_lines(model, 80))
    assert "Pass 2 cards to bo" in text and "fire" in text
    assert model.enter_command() is None
    model.toggle_mark()
    model.move(2)
    model.toggle_mark()
    assert model.enter_command() == "/pass N R1"


def test_address_and_line_parsing() -> None:
    assert parse_address("") == ("localhost", 4000)
    assert parse_address("example.org") == ("example.org", 4000)
    assert parse_address("example.org:4100") == ("example.org", 4100)
    assert parse_address("[::1]:4001") == ("::1", 4001)
    assert split_line('What is your name? {"type":"ok","text":"mode json"}') == (
        "What is your name? ", {"type": "ok", "text": "mode json"})
    assert split_line("| {curly} motd |") == ("| {curly} motd |", None)


TILTOWAIT_TURN: dict[str, Any] = {
    "type": "state", "table": 7, "host": "ann", "status": "playing", "observer": False, "game": "tiltowait",
    "phase": "playing", "round": 1, "rounds": 5, "dealer": "bo", "turn": "ann", "waiting": ["ann"], "you": "ann",
    "players": [{"name": "ann", "held": 4, "score": 0, "asleep": False, "karuki": False, "bot": False, "away": False},
                {"name": "bo", "held": 5, "score": 0, "asleep": False, "karuki": False, "bot": True, "away": False},
                {"name": "cy", "held": 6, "score": 0, "asleep": False, "karuki": False, "bot": True, "away": False}],
    "hand": ["R3", "G7", "MAHALITO", "MILWA"], "top": "R9", "colour": "R", "direction": "ccw", "pending": 0,
    "stock": 50, "discard": 9, "answer": None, "next": "ann", "drawn": None, "free": False,
    "legal": ["/play R3", *(f"/play MAHALITO {c}" for c in "KRGB"),
              *(f"/play MILWA {n} {c}" for n in ("bo", "cy") for c in "KRGB"), "/draw"],
    "options": {}, "sheet": [], "table_options": {"confirm": 20, "turn": 0}, "confirmed": [],
}


def test_up_and_down_choose_the_colour_a_spell_names(server: tuple[str, int]) -> None:
    """Enter on MAHALITO always named K (black) and no key chose another: Up/Down now cycle the colour of the
    selected spell, the Enter line says which, and Enter sends it. Elsewhere Up/Down stay the input history."""
    screen = Screen(100, 30)

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("colours1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.type("/who\r")
        await d.until(d.answered, what="/who")
        d.client.on_message(TILTOWAIT_TURN)  # as if the server sent it: a turn holding both spells
        assert d.model.choices() == ["/play R3", "/play MAHALITO K", "/play MILWA bo K", "/play MILWA cy K",
                                     "/draw"]
        # On R3 there is no colour to choose: Up recalls the last command. prompt_toolkit reloads a buffer's
        # history in a task of its own after each Enter, so an Up pressed before that task ran finds no history
        # yet (as fast as no person types): press again until it is there.
        for _ in range(100):
            await d.press("up")
            if d.client.buffer.text:
                break
            await asyncio.sleep(0.02)
        assert d.client.buffer.text == "/who"
        d.client.buffer.reset()
        await d.press("right", "down", "down")
        await d.until(lambda: d.model.selected() == "/play MAHALITO G", what="MAHALITO naming gold")
        await d.until(lambda: "Enter sends /play MAHALITO G (gold)" in screen.text(), what="the Enter line")
        assert "[MAHALITO]" in screen.text()
        await d.press("up", "up", "up")
        await d.until(lambda: d.model.selected() == "/play MAHALITO B", what="MAHALITO naming blue")
        await d.press("right", "up")  # MILWA: each target a stop, Up/Down its colour
        await d.until(lambda: d.model.selected() == "/play MILWA bo B", what="MILWA at bo, blue")
        await d.press("left")
        await d.until(lambda: d.model.selected() == "/play MAHALITO B", what="the colour staying with the card")
        d.client.on_message({**TILTOWAIT_TURN, "stock": 49})  # a fresh state, the same choice
        assert d.model.selected() == "/play MAHALITO B"
        await d.press("enter")
        await d.until(d.answered, what="the reply")
        assert d.sent[-1] == "/play MAHALITO B"

    with driven(server, screen.output) as run:
        run(script)


def test_enter_on_the_last_but_one_card_calls_karuki_when_offered(server: tuple[str, int]) -> None:
    """The server takes ``play R3 karuki`` (the discard with the call) and offers it in ``legal`` for your
    last-but-one card: Enter sends that form, so the call is never forgotten; a server that does not offer it
    gets the plain play."""
    screen = Screen(100, 30)
    two = {**TILTOWAIT_TURN, "hand": ["R3", "MAHALITO"], "legal": ["/play R3", "/play R3 karuki", "/draw"]}
    free = {**two, "free": True, "colour": None, "hand": ["R3", "G7"],
            "legal": [*(f"/play {c} {k}{s}" for c in ("R3", "G7") for k in "KRGB" for s in ("", " karuki")),
                      "/draw"]}

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("karuki1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        d.client.on_message(two)
        assert d.model.choices() == ["/play R3 karuki", "/draw"]
        await asyncio.sleep(0.2)
        assert "Enter sends /play R3 karuki" in screen.text() and "[R3]" in screen.text()
        await d.press("enter")
        await d.until(d.answered, what="the reply")
        assert d.sent[-1] == "/play R3 karuki"
        d.client.on_message(free)  # any card, naming the colour: the karuki forms are the colours Up/Down pick
        await d.press("right", "left", "down")
        assert d.model.choice_forms() == [f"/play R3 {k} karuki" for k in "KRGB"]
        await d.press("enter")
        await d.until(d.answered, what="the reply")
        assert d.sent[-1] == "/play R3 R karuki"
        d.client.on_message({**two, "legal": ["/play R3", "/draw"]})  # a server without the form
        await d.press("enter")
        await d.until(d.answered, what="the reply")
        assert d.sent[-1] == "/play R3"

    with driven(server, screen.output) as run:
        run(script)


# ---------------------------------------------------------------- the most players on small and large screens


def sample_states(game: str, count: int = 14) -> list[dict[str, Any]]:
    """States of the first person at a table of the most players the game takes (16-character names): spread
    over the game, plus the ones with the most to show (the biggest hand and choice) and a round's end."""
    run = Run(game, max_players(game), options=("hands 2",) if game == "tiltowait" else ())
    states: list[dict[str, Any]] = []
    for _ in range(3000):
        if run.over:
            break
        legal = run.people[0].last_state()["legal"]
        if legal and legal != ["/start"]:
            states.append(run.state(0))
        run.step()
    biggest = max(states, key=lambda s: (len(s["hand"]), len(s["legal"])))
    ends = [s for s in states if s["phase"] == "roundend"][:1]
    return [*states[:: max(1, len(states) // count)], biggest, *ends]


def check_screen(d: Driver, screen: Screen) -> str:
    """The table pane is on the screen whole, with everything a person needs to choose; returns the pane."""
    columns = screen.size.columns
    width = d.client.table_width()
    pane = [line.rstrip() for line in "".join(f[1] for f in d.client.table_text()).split("\n")]
    shown = [row[:width].rstrip() for row in screen.screen.display]
    assert shown[:len(pane)] == pane, "\n".join(screen.screen.display)
    status = strip_ansi(panes.status_line(d.model, columns)).rstrip()
    assert screen.screen.display[-2].rstrip() == status and shown[-1].startswith(">")  # status and input: last
    assert all(len(line) < width for line in pane)
    text = "\n".join(pane)
    state = d.model.state
    command = d.model.enter_command()
    if command is not None:
        assert f"Enter sends {command}" in text, text
    cards = re.findall(r"[\w?-]+", text[text.lower().find(" hand"):])
    assert all(card in cards for card in state["hand"]), text
    assert all(p["name"][:10] in text for p in state["players"]), text
    if width < columns:  # the log beside the table: at least 60 columns
        assert all(row[width] == "\u2502" for row in screen.screen.display[:-2])
        assert columns - width - 1 >= 60, f"the log beside the table is {columns - width - 1} columns"
    else:
        assert "\u2500" * columns in screen.text()
    return text


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (120, 40)])
def test_every_game_at_its_most_players_fits_the_screen(columns: int, rows: int) -> None:
    """At 80x24 ten Tiltowait players pushed your hand and the Enter line off the screen (Enter still sent the
    unseen move): the table pane now compacts itself to fit, for every game at its most players; at 120x40 the
    log beside it was 39 columns wide: it now gets what the table leaves, at least 60, or goes below."""
    screen = Screen(columns, rows)
    games = {game: sample_states(game) for game in available()}
    chat = "the log breaks this once at its own width " * 4

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "disconnected", what="no server: the states are fed in")
        d.client.on_message({"type": "welcome", "name": LONG.format(0)})
        d.client.on_message({"type": "chat", "from": "someone", "channel": "lobby", "text": chat})
        compact = 0
        for states in games.values():
            for state in states:
                d.client.on_message(state)
                for _ in range(100):  # until drawn
                    await asyncio.sleep(0.01)
                    with contextlib.suppress(AssertionError):
                        check_screen(d, screen)
                        break
                text = check_screen(d, screen)
                compact += "Your hand" not in text or text.count("player") > 1
        if columns == 80:
            assert compact  # the compact forms were needed, and they fit
        log_width = columns - d.client.table_width() - 1 if d.client.table_width() < columns else columns
        log = [row[columns - log_width:] for row in screen.screen.display]
        said = [row for row in log if "breaks this once" in row or "own width" in row]
        assert len(said) <= -(-len(chat) // (log_width - 2)) + 1, "\n".join(log)  # broken once, at its width

    with driven(("127.0.0.1", free_port()), screen.output) as run:
        run(script)


async def drawn(d: Driver, screen: Screen) -> str:
    """Wait for the screen to show the model's table, then check it (``check_screen``)."""
    for _ in range(100):
        await asyncio.sleep(0.01)
        with contextlib.suppress(AssertionError):
            return check_screen(d, screen)
    return check_screen(d, screen)


@pytest.mark.parametrize("game", available())
def test_a_full_table_played_by_keys_at_80x24(server: tuple[str, int], game: str) -> None:
    """The issue's own case, live: the most players the game takes (bots, and a 16-character name), 80x24,
    moves chosen by keys; every turn the screen shows the whole table and the move Enter will send."""
    screen = Screen(80, 24)
    name = f"{game[:6]}_at_80x24_"[:16].ljust(16, "x")

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type(name + "\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        setup = [f"/new {game}", *["/bot add random"] * (max_players(game) - 1)]
        for command in [*setup, *(["/option hands 1"] if game == "tiltowait" else [])]:
            await d.type(command + "\r")
            await d.until(d.answered, what=command)
            assert d.received[-1]["type"] == "ok", d.received[-1]
        await d.press("enter")  # /start
        await d.until(lambda: d.model.state["status"] == "playing", what="the start")
        rng = random.Random(11)
        def my_turn() -> bool:  # not merely an optional move (a catch) that another player's call may take away
            state = d.model.state
            return d.answered() and bool(d.model.choices()) and (state["you"] in state["waiting"] or
                                                                 d.model.legal == ["/ok"])

        def over() -> bool:  # a one-hand Tiltowait may end in fewer turns: the person may shed their last card
            return d.answered() and d.model.state["phase"] == "gameover"

        for turn in range(12):
            await d.until(lambda: my_turn() or over(), what="a turn")
            if over():
                assert turn > 0
                break
            await d.press(*(["right"] * rng.randrange(3)))
            if d.model.picking:  # Witches: Space chooses the cards to pass
                await d.press(*(["space", "right"] * d.model.pick_count()))
            expected = d.model.enter_command()
            assert f"Enter sends {expected}" in await drawn(d, screen)
            await d.press("enter")
            await d.until(d.answered, what=f"the reply to {expected}")
            reply = next(m for m in reversed(d.received) if m["type"] in ("ok", "error"))
            assert d.sent[-1] == expected and reply["type"] == "ok", reply

    with driven(server, screen.output) as run:
        run(script)


def test_f1_asks_for_the_rules_and_keeps_the_keys(server: tuple[str, int]) -> None:
    """F1 sends ``/rules GAME`` for your table's game and shows the keys and the reply together; this server may
    not have the command yet, and then the pane shows the keys alone and the refusal stays out of the log."""
    screen = Screen(100, 30)

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("rules1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.press("f1")  # in the lobby: no game to ask about
        assert d.client.show_keys and not any(c.startswith("/rules") for c in d.sent)
        await d.press("f1")
        await d.type("/new wizard\r")
        await d.until(d.answered, what="/new")
        logged = len(d.model.log)
        await d.press("f1")
        assert d.sent[-1] == "/rules wizard"
        await d.until(d.answered, what="the rules")
        await asyncio.sleep(0.2)
        shown = screen.text()
        assert "Keys and rules (F1 closes" in shown and "Left / Right" in shown
        if d.model.rules["wizard"]:  # a server with /rules
            assert "The rules of Wizard" in shown
        else:
            assert "sends no rules of wizard" in shown
        assert len(d.model.log) == logged  # neither the rules nor a refusal in the log
        await d.press("f1", "f1")  # closed and opened again: asked once
        assert sum(c.startswith("/rules") for c in d.sent) == 1 and d.client.show_keys

    with driven(server, screen.output) as run:
        run(script)


def test_f5_gives_the_guests_resume_code_by_itself_and_a_typed_one_is_hidden(server: tuple[str, int]) -> None:
    """The welcome's resume code is kept; after a drop somebody else trying the name is asked for it and refused,
    and F5 answers the server's question with it, back to the same seat. A client without it (another machine)
    asks the person, hiding what they type."""
    codes: list[str] = []

    async def drop_and_f5(d: Driver) -> None:
        await login_and_seat(d, "resume1")
        code = d.model.resume
        assert code is not None and re.fullmatch(r"[2-9A-Z]{3}-[2-9A-Z]{3}-[2-9A-Z]{3}", code)
        assert d.of_type("welcome")[0]["resume"] == code and any(code in line for line in d.model.log)
        codes.append(code)
        d.client.connection.abort()
        await d.until(lambda: d.model.connection == "disconnected", what="the drop")
        thief = JsonClient.__new__(JsonClient)
        with pytest.raises(RuntimeError, match="wrong resume code for resume1"):
            JsonClient.__init__(thief, server, "RESUME1", timeout=5, password="")
        assert thief.of_type("password") == [{"type": "password", "name": "resume1", "prompt": "Resume code"}]
        thief.close()
        welcomes = len(d.of_type("welcome"))
        await d.press("f5")
        await d.until(lambda: len(d.of_type("welcome")) > welcomes, what="the login by the code")
        await d.until(lambda: d.model.state is not None, what="the seat back")
        assert d.model.state["you"] == "resume1" and d.model.state["status"] == "playing"
        assert d.of_type("welcome")[-1]["resume"] == code and d.model.question is None
        assert not any(m["type"] == "error" for m in d.received)

    with driven(server) as run:
        run(drop_and_f5)  # ends by quitting: the seat is kept for resume1 again

    screen = Screen(100, 30)

    async def typed(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("Resume1\r")
        await d.until(lambda: d.model.question == "Resume code", what="the question")
        await d.type(codes[0].lower())
        await asyncio.sleep(0.2)
        shown = screen.text()
        assert "resume code> " + "*" * len(codes[0]) in shown and codes[0].lower() not in shown
        assert "type your resume code" in shown
        await d.press("enter")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.until(lambda: d.model.state is not None, what="the seat back")
        assert d.model.name == "resume1" and d.model.resume == codes[0]
        assert codes[0].lower() not in d.client.buffer.history.get_strings()  # kept out of the Up-arrow history

    with driven(server, screen.output) as run:
        run(typed)


def test_completion_knows_the_talk_commands_and_channels() -> None:
    model = Model()
    model.apply({"type": "welcome", "name": "ann", "games": ["wizard", "witches"]})
    completer = CommandCompleter(model)
    assert sorted(texts(completer, "/ch")) == ["/ch", "/channel"]
    assert texts(completer, "/channel ") == ["join", "leave"]
    assert texts(completer, "/channel join w") == ["wizard", "witches"]
    assert texts(completer, "/ch h") == ["help"]
    assert texts(completer, "/ch wizard hello w") == []  # past the channel: free text
    assert "/shout" in texts(completer, "/sh") and "/away" in texts(completer, "/aw")


def test_enter_after_game_over_starts_no_new_game() -> None:
    """A habitual Enter (the /ok of the last round) sent /start and began a new game."""
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    model.apply({**WIZARD_PLAYING, "phase": "waiting", "legal": ["/start"]})
    assert model.enter_command() == "/start"  # before a game, Enter still starts it
    model.apply({**WIZARD_PLAYING, "phase": "gameover", "legal": ["/start"]})
    assert model.enter_command() is None
    assert panes.asked(model) == "game over; type /start for a new game"
