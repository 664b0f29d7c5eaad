"""The client's fixes for what a QA tester found driving ``mudwiz client`` in tmux: clairvoyance's cards, the
password asked once logged in, Tiltowait's row order and pending answer, scrolling the log back, F1 at 80
columns, the status line when disconnected, a name taken over, and ``/leave`` said twice.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from client_tables import Run
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client import Driver, Screen, driven

from mudwiz.client import panes
from mudwiz.client.app import PAGE, ClientApp
from mudwiz.client.model import Model
from mudwiz.commands import rules_text
from mudwiz.games import game_class
from mudwiz.games.tiltowait.render import play_order
from mudwiz.render.style import strip_ansi


def model_of(messages: list[dict[str, Any]], you: str) -> Model:
    model = Model(address="test:4000")
    model.apply({"type": "welcome", "name": you})
    for message in messages:
        model.apply(message)
    return model


def pane_text(model: Model, width: int = 79) -> list[str]:
    lines = [strip_ansi(line) for line in panes.table_lines(model, width)]
    assert all(len(line) <= width for line in lines), "\n".join(lines)
    return lines


def rows_of(lines: list[str]) -> list[str]:
    """The names of the players' rows of a table pane, top to bottom."""
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("player"))
    rows = []
    for line in lines[at + 1:]:
        if not line.startswith(("   ", " > ")) or not line[3:4].strip():
            break
        rows.append(line[3:].split()[0])
    return rows


class Wire:
    """The socket's writer, without a socket: what the client sends, line by line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, data: bytes) -> None:
        self.lines.append(data.decode().removesuffix("\r\n"))

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass


@contextmanager
def client_app() -> Iterator[tuple[ClientApp, Wire]]:
    """A client not running (no event loop, a 80x40 dummy screen), connected to a ``Wire``."""
    with create_pipe_input() as keys:
        client = ClientApp("localhost:4000", input=keys, output=DummyOutput())
        wire = Wire()
        client.connection._writer = wire  # type: ignore[assignment]
        client.model.connection = "connected"
        yield client, wire


def enter(client: ClientApp, text: str) -> None:
    """Type ``text`` and press Enter."""
    client.buffer.text = text
    client.buffer.validate_and_handle()


# ---------------------------------------------------------------- 1. clairvoyance


def test_clairvoyance_shows_the_card_each_other_player_holds() -> None:
    """Round 1 under clairvoyance the state's ``players[].cards`` is what you bid on: the pane ignored it."""
    run = Run("wizard", 3, names="p{}", options=("clairvoyance",))
    state = run.state(0)
    held = {p["name"]: p["cards"] for p in state["players"] if p.get("cards")}
    assert set(held) == {"p1", "p2"}
    lines = pane_text(model_of([state], "p0"))
    head = next(line for line in lines if line.strip().startswith("player"))
    assert head.split()[-1] == "holds", "\n".join(lines)
    for line in lines:
        words = line[3:].split()
        if words and words[0] in held:
            assert words[-len(held[words[0]]):] == held[words[0]], line
        elif words and words[0] == "p0":
            assert not set(words) & {c for cards in held.values() for c in cards}, line
    assert "holds" not in "\n".join(pane_text(model_of([Run("wizard", 3, names="p{}").state(0)], "p0")))


# ---------------------------------------------------------------- 2. a password asked once logged in


def test_a_password_asked_once_logged_in_is_sent_unkept_unshown_and_the_mask_ends() -> None:
    with client_app() as (client, wire):
        m = client.model
        client.on_message({"type": "welcome", "name": "ann", "resume": None})
        enter(client, "/register")
        assert wire.lines[-1].endswith('"cmd": "/register"}')
        for prompt in ("Password", "Again"):
            client.on_message({"type": "password", "name": "ann", "prompt": prompt})
            assert client.prompt_text() == f"{prompt.lower()}> " and m.question == prompt
            assert f"type your {prompt.lower()}" in strip_ansi(panes.status_line(m, 80))
            enter(client, "secret12")
            assert wire.lines[-1] == "secret12"  # bare: a request's id would stay pending for ever
            assert m.question is None and client.prompt_text() == "> "  # the mask ends with the answer
        assert "secret12" not in client.buffer.history.get_strings()
        assert not any("secret12" in line for line in m.log)
        enter(client, "hello")  # the next line is chat again, kept for Up
        assert "hello" in wire.lines[-1] and "hello" in client.buffer.history.get_strings()
        client.on_message({"type": "password", "name": "ann", "prompt": "Again"})
        client.on_close("the server closed the connection")  # a server stopping while it asked
        assert m.question is None and client.prompt_text() == "name> "
        assert "again" not in strip_ansi(panes.status_line(m, 80))


def test_register_through_a_live_server_hides_the_password_and_keeps_it_out_of_the_history(
        server: tuple[str, int]) -> None:
    screen = Screen(100, 30)

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("register1\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.type("/register\r")
        for prompt in ("Password", "Again"):
            await d.until(lambda prompt=prompt: d.model.question == prompt, what=prompt)
            await d.type("secret12")
            await asyncio.sleep(0.2)
            shown = screen.text()
            assert f"{prompt.lower()}> ********" in shown and "secret12" not in shown, shown
            await d.press("enter")
        await d.until(lambda: any("is registered" in strip_ansi(line) for line in d.model.log), what="the reply")
        assert d.model.question is None and "secret12" not in d.client.buffer.history.get_strings()
        await d.type("/who")
        await asyncio.sleep(0.2)
        assert "> /who" in screen.text()  # no mask any more

    with driven(server, screen.output) as run:
        run(script)


# ---------------------------------------------------------------- 3 and 4. Tiltowait's rows and answers


def test_tiltowait_rows_run_from_the_player_to_play_in_the_direction_of_play() -> None:
    run = Run("tiltowait", 4, names="p{}", seed=5)
    seen = set()
    while len(seen) < 2:
        state = run.state(0)
        if state["phase"] == "playing" and state.get("next"):
            order = [p["name"] for p in play_order(state)]
            assert rows_of(pane_text(model_of([state], "p0"))) == order
            seen.add(state["direction"])
        run.step()
    assert seen == {"cw", "ccw"}


def answer_asked(seed: int, players: int, spell: str) -> Run:
    """A Tiltowait table played until ``spell`` (a draw's card, or MILWA) asks p0 for an answer, a cancel in
    hand (so that the cursor has a spell to start on)."""
    run = Run("tiltowait", players, names="p{}", seed=seed)

    def asked() -> bool:
        s = run.state(0)
        a = s.get("answer")
        return (bool(a) and a["spell"].startswith(spell) and "p0" in s["waiting"]
                and any(c.startswith("/play") for c in s["legal"]))

    run.play(until=asked)
    return run


def test_a_pending_answer_is_shown_and_enter_defaults_to_spending_nothing() -> None:
    run = answer_asked(5, 4, "DALTO")
    state = run.state(0)
    model = model_of(run.messages(0), "p0")
    text = " ".join(pane_text(model))
    by, draw = state["answer"]["by"], state["answer"]["draw"]
    assert f"{state['answer']['spell']} by {by}: p0 must draw {draw}, stack or cancel." in text, text
    assert model.selected() == "/draw" and "Enter sends /draw" in text
    model.move(-1)  # the player chose another move: a state with the same question leaves the cursor there
    chosen = model.selected()
    model.apply(state)
    assert model.selected() == chosen != "/draw"

    run = answer_asked(1, 3, "MILWA")
    model = model_of(run.messages(0), "p0")
    assert model.selected() == "/keep", model.choices()
    assert f"MILWA by {run.state(0)['answer']['by']} on p0: p0 may cancel it." in " ".join(pane_text(model))
    watcher = model_of(run.messages(1), "p1")  # the caster sees what the table is answering too
    assert "MILWA by p1 on p0" in " ".join(pane_text(watcher))


# ---------------------------------------------------------------- 5. scrolling the log back


def shown_log(client: ClientApp) -> list[str]:
    return "".join(text for _, text, *_ in client.log_text()).split("\n")


def test_the_log_scrolls_back_to_a_full_first_page_stays_still_and_says_so() -> None:
    with client_app() as (client, _):
        m = client.model
        for i in range(100):
            m.note(f"line {i}")
        rows = client.log_rows()
        assert len(shown_log(client)) == rows and "scrolled back" not in shown_log(client)[-1]
        for _ in range(30):
            client.scroll(-PAGE)
        top = shown_log(client)
        assert len(top) == rows and top[0] == "line 0", top  # a full page: no blank rows under one line
        assert "scrolled back" in top[-1] and f"{100 - rows} newer lines" in top[-1]
        client.scroll(PAGE)
        page = shown_log(client)
        for i in range(100, 105):
            m.note(f"line {i}")
        assert shown_log(client)[:-1] == page[:-1]  # new lines do not move the view
        assert f"{100 - rows - PAGE + 5} newer lines" in shown_log(client)[-1]
        for _ in range(30):
            client.scroll(PAGE)
        assert shown_log(client)[-1] == "line 104" and client.log_offset == 0


# ---------------------------------------------------------------- 6. F1 at 80 columns


def test_help_at_80_columns_wraps_the_keys_and_reflows_the_rules_by_paragraph() -> None:
    width = 76  # F1's pane in an 80-column terminal
    for game in ("wizard", "tiltowait"):
        rules = rules_text(game_class(game)).splitlines()
        model = model_of([], "p0")
        model.state, model.rules[game] = {"game": game}, rules
        lines = [strip_ansi(line) for line in panes.help_lines(model, width)]
        assert all(len(line) <= width and not line.endswith("~") for line in lines), "\n".join(lines)
        keys = " ".join(" ".join(pair) for pair in panes.keys()).split()
        assert " ".join(lines).split()[:len(keys)] == keys  # every word of the keys, none cut
        at = next(i for i, line in enumerate(lines) if "The rules of" in line)
        body = lines[at + 1:]
        assert " ".join(body).split() == " ".join(rules).split()  # the words, in order
        orphans = [line for line in body if len(line.split()) == 1 and line.startswith("   ")]
        assert len(orphans) <= 2, "\n".join(body)  # a word alone on a row: each 78-column line wrapped on its own
        assert len(body) <= len(rules) + 6, "\n".join(body)
        if game == "wizard":  # a table row's text wraps under its column, its next row stays a row
            row = next(i for i, line in enumerate(body) if line.split()[:1] == ["notequal"])
            assert body[row + 1].startswith(" " * 18) and body[row + 2].split()[0] == "hiddentip", "\n".join(body)


# ---------------------------------------------------------------- 7 and 8. the status line when disconnected


def test_the_status_line_when_disconnected_fits_and_after_a_takeover_offers_no_f5() -> None:
    with client_app() as (client, _):
        m = client.model
        client.on_close("the server closed the connection")
        for width in (80, 60, 40):
            line = strip_ansi(panes.status_line(m, width))
            assert len(line) <= width and line.endswith("type your name") and "F5" in line, (width, line)
        assert "the server closed the connection" in strip_ansi(panes.status_line(m, 120))

    with client_app() as (client, _):
        m = client.model
        client.on_message({"type": "welcome", "name": "ann", "resume": None})
        client.on_message({"type": "error", "message": "ann logged in again on another connection (127.0.0.1); "
                                                       "this one is closed"})
        client.on_close("the server closed the connection")
        said = strip_ansi(m.log[-1])
        assert "F5" not in said and "another connection" in said, said
        for width in (200, 80, 60, 40):
            line = strip_ansi(panes.status_line(m, width))
            assert len(line) <= width and "F5" not in line and "DISCONNECTED" in line, (width, line)
        assert "elsewhere" in strip_ansi(panes.status_line(m, 60))


# ---------------------------------------------------------------- 9. /leave said once


def test_leave_is_said_once() -> None:
    model = model_of([Run("wizard", 3, names="p{}").state(0)], "p0")
    model.sent(9, "/leave")
    count = len(model.log)
    model.apply({"type": "left", "table": 1})
    model.apply({"type": "ok", "id": 9, "text": "you leave table 1"})
    said = [strip_ansi(line) for line in list(model.log)[count:]]
    assert said == ["You are no longer at table 1."] and model.state is None
    model.apply({"type": "ok", "id": 10, "text": "you sit at table 2"})  # other replies are still said
    assert re.search("you sit at table 2", strip_ansi(model.log[-1]), re.IGNORECASE)


def test_leaving_a_running_game_says_what_it_meant() -> None:
    """Leaving mid-game, the reply says who plays the seat and that a rated game still counts: that is news the
    "You are no longer at table 1." line does not carry, so it is shown."""
    model = model_of([Run("wizard", 3, names="p{}").state(0)], "p0")
    model.sent(9, "/leave")
    count = len(model.log)
    model.apply({"type": "left", "table": 1})
    model.apply({"type": "ok", "id": 9, "text": "you leave table 1: a bot plays your seat (/join 1 takes it back); "
                                                "the game still counts for your rating"})
    said = " ".join(strip_ansi(line) for line in list(model.log)[count:])
    assert "You are no longer at table 1." in said and "still counts for your rating" in said
