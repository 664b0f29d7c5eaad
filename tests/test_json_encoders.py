"""The optional orjson encoder writes exactly what the standard library does, for every message a game sends
(issue #18: it is used where installed, so it must never change the protocol)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from mudwiz.games import game_class
from mudwiz.render import jsonl
from mudwiz.table.botseat import BotSession

orjson = pytest.importorskip("orjson")


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_orjson_and_the_standard_library_write_the_same_bytes(game: str) -> None:
    """Every view (each seat's, an observer's, a replay's) and every event of a whole random game."""
    cls = game_class(game)
    g = cls(cls.min_players + 1, None, 11)
    bot = BotSession("driver", level="random", game=game, seed=11)
    messages: list[dict[str, Any]] = [e.to_dict() for e in g.start_events]
    while not g.finished:
        if g.phase == "roundend":
            messages += [e.to_dict() for e in g.advance()]
            continue
        messages += [g.view(s) for s in range(len(g.players))] + [g.view(None), g.revealed_view()]
        seat = g.waiting()[0]
        messages += [e.to_dict() for e in g.apply(seat, bot.choose(g.view(seat)) or "")]
    assert len(messages) > 100
    assert jsonl.ENCODER == "orjson"
    for message in messages:
        assert jsonl._stdlib(message) == jsonl.dumps(message) == orjson.dumps(message).decode()
    assert jsonl.encode({"big": 2**70}) == '{"big":1180591620717411303424}', "past 64 bits: the stdlib's"
    assert jsonl.encode({"type": "x", 1: [True], None: 2}) == '{"type":"x","1":[true],"null":2}', \
        "a key that is no string: the stdlib's"


def test_the_stdlib_is_used_when_asked_or_without_orjson() -> None:
    code = "from mudwiz.render import jsonl; print(jsonl.ENCODER)"
    env = {"MUDWIZ_JSON": "stdlib", "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "stdlib"
    out = subprocess.run([sys.executable, "-c", code], env={"PATH": ""}, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "orjson"
    assert json.loads(jsonl.encode({"type": "notice", "text": "日本語"})) == {"type": "notice", "text": "日本語"}
