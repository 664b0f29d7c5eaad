"""The terminal client's replay mode: a game recorded on the live test server (a JSON client and bots), then
``/replay ID`` typed in the client and stepped through with the keys alone, the screen read by pyte; a chunk the
client lacks is asked for as the keys reach it. The model and the pane are checked on their own too, fed the
server's own ``replay`` messages of whole games."""

from __future__ import annotations

import asyncio
import random

import pytest
from test_client import Driver, Screen, driven
from test_replay_command import random_record
from test_wire_records import history
from wire import JsonClient, play_until_game_end

from mudwiz.client import panes
from mudwiz.client.model import Model
from mudwiz.client.replaying import CHUNK
from mudwiz.render.style import strip_ansi, visible_len
from mudwiz.replay import frames, replay_message

KEYS = {"left": "\x1b[D", "right": "\x1b[C", "home": "\x1b[H", "end": "\x1b[F", "escape": "\x1b", "q": "q"}


def recorded_game(server: tuple[str, int], name: str, rounds: int) -> int:
    """A Wizard game of ``rounds`` rounds played out on the server by ``name`` and two bots; its id."""
    player = JsonClient(server, name)
    for cmd in ("/new wizard", f"/option rounds {rounds}", "/bot add random", "/bot add random", "/start"):
        assert player.request(cmd)["type"] == "ok", cmd
    play_until_game_end([player], random.Random(rounds))
    assert player.request("/leave")["type"] == "ok"
    [row] = history(player)["games"]
    player.close()
    return int(row["id"])


def test_a_replay_is_stepped_through_with_the_keys(server: tuple[str, int]) -> None:
    game_id = recorded_game(server, "rita", 7)  # 3 players, 7 rounds: more steps than one message carries
    screen = Screen(120, 50)

    async def press(d: Driver, *names: str) -> None:
        for name in names:
            d.keys.send_text(KEYS[name])
            await asyncio.sleep(0.05)  # let the app read and handle the key

    async def script(d: Driver) -> None:
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("vic\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.type(f"/replay {game_id}\r")
        await d.until(lambda: d.model.replay is not None and d.model.replay.frame is not None, what="the replay")
        replay = d.model.replay
        assert replay is not None and replay.at == 0 and replay.steps > len(replay.frames) + CHUNK
        assert sorted(replay.frames) == list(range(len(replay.frames)))
        await d.until(lambda: f"Replay #{game_id} wizard: step 0 of {replay.steps}" in screen.text(), what="drawn")
        assert "The deal." in screen.text() and "Esc or q: leave" in screen.text()

        await press(d, "right", "right", "right", "left")
        await d.until(lambda: f"step 2 of {replay.steps}" in screen.text(), what="step 2")
        second = replay.frames[2]
        assert "Move 2 at 0:" in screen.text() and f"{second['player']} /{second['action']}" in screen.text()

        sent = len(d.sent)
        await press(d, "end")  # beyond the first message: the client asks for the chunk that ends there
        await d.until(lambda: replay.at == replay.steps and replay.frame is not None, what="the last chunk")
        assert d.sent[sent:] == [f"/replay {game_id} {replay.steps - CHUNK + 1}"]
        assert replay.at == replay.steps
        await d.until(lambda: "Game over." in screen.text(), what="the last step drawn")
        assert f"step {replay.steps} of {replay.steps}" in screen.text()
        await press(d, "right")  # past the end: stays
        assert replay.at == replay.steps
        await press(d, "home", "left")
        assert replay.at == 0 and len(d.sent) == sent + 1  # all here: nothing more asked

        await press(d, "q")
        await d.until(lambda: d.model.replay is None, what="leaving the replay")
        await d.until(lambda: "Lobby" in screen.text(), what="the lobby again")
        await d.type(f"/replay {game_id} 5\r")
        await d.until(lambda: d.model.replay is not None and d.model.replay.at == 5, what="step 5")
        await press(d, "escape")
        await d.until(lambda: d.model.replay is None, what="Esc leaving the replay")

    with driven(server, output=screen.output) as run:
        run(script)


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_the_model_keeps_the_chunks_and_the_pane_fits(game: str) -> None:
    record = random_record(game, 4, 3)
    model = Model(logged_in=True, name="vic")
    model.apply(replay_message(record, 0))
    replay = model.replay
    assert replay is not None and replay.at == 0
    held = len(replay.frames)
    assert sorted(replay.frames) == list(range(held)) and replay.steps > held + CHUNK
    whole = {f.step: f.view for f in frames(record)}
    assert all(replay.frames[s]["view"] == whole[s] for s in replay.frames)
    replay.at = held + 3
    assert replay.wanted(backwards=True) == held and replay.wanted() is None  # never a frame twice; asked once
    model.apply(replay_message(record, held))
    assert replay.at == held + 3 and replay.frame is not None  # the answer to our asking does not move the step
    replay.jump(last=True)
    assert replay.wanted(backwards=True) == replay.steps - CHUNK + 1
    model.apply(replay_message(record, replay.steps - CHUNK + 1))
    assert replay.at == replay.steps and replay.frame is not None
    model.apply(replay_message(record, 7, 1))  # /replay ID 7 typed: shown
    assert replay.at == 7
    for width in (40, 60, 100):
        for step in (0, 7, replay.steps):
            replay.at = step
            lines = panes.table_lines(model, width, 30)
            assert len(lines) <= 30 and all(visible_len(line) <= width for line in lines), lines
            assert strip_ansi(lines[-1]).startswith(" Left/Right: step")
    assert "replay" in strip_ansi(panes.status_line(model))
    model.leave_replay()
    assert model.replay is None and "Lobby" in strip_ansi(panes.table_lines(model, 80)[0])
