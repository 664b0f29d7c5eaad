"""The optional orjson encoder writes exactly what the standard library does, for every message a game sends
(it is used where installed, so it must never change the protocol)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _read(loads: Any, text: str) -> tuple[Any, ...]:
    """What the server takes from a request line (connection.py): an object or not, its ``id`` (echoed in the
    reply: value and type) and its ``cmd``; or the refusal, with its message. No other field is ever read."""
    try:
        value = loads(text)
    except ValueError as exc:  # json.JSONDecodeError is one
        return "refused", type(exc).__name__, str(exc)
    except RecursionError:
        return "refused", "RecursionError", ""
    if not isinstance(value, dict):
        return "read", type(value)
    return "read", value.get("id"), type(value.get("id")), value.get("cmd"), type(value.get("cmd"))


REQUESTS = [
    '{"id":1,"cmd":"/play R1"}', '{"id":1,"id":"x","cmd":"/a"}', '{"id":18446744073709551615,"cmd":"x"}',
    '{"id":18446744073709551616,"cmd":"x"}', '{"id":-9223372036854775809,"cmd":"x"}', '{"id":1.0,"cmd":"x"}',
    '{"id":1e400,"cmd":"x"}', '{"id":NaN,"cmd":"x"}', '{"id":"\\ud800","cmd":"x"}', '{"id":[1,{"a":2.5}]}',
    '[1,2]', '"x"', '{"id":2,"cmd":"x"} x', ' {"id":true,"cmd":"\\u0000"} ', '{"cmd":"a\tb"}', '{"id":null}',
    "[" * 1100 + "]" * 1100, '{"id":' + "[" * 2000,
]


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_reads_as_the_standard_library_reads_it(text: str) -> None:
    """orjson reads request lines (``jsonl.loads``) only where it reads them as the standard library does: the
    same ``id`` (echoed in the reply) and ``cmd``, of the same types; the same refusal and message."""
    assert jsonl.loads is not json.loads, "orjson is installed: the fast reader is in use"
    assert _read(jsonl.loads, text) == _read(json.loads, text)


@given(st.recursive(st.none() | st.booleans() | st.integers(min_value=-2**80, max_value=2**80)
                    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["id", "cmd", "x"]),
                                                                               inner, max_size=3),
                    max_leaves=8), st.integers(min_value=0, max_value=40), st.text(max_size=3))
@settings(max_examples=400, deadline=None)
def test_any_request_reads_as_the_standard_library_reads_it(value: Any, cut: int, noise: str) -> None:
    """Requests of every shape, whole or cut short or with a few characters put in."""
    text = json.dumps({"id": value, "cmd": "/who"}) if cut % 2 else json.dumps(value)
    for variant in (text, text[:cut], text[:cut] + noise + text[cut:]):
        assert _read(jsonl.loads, variant) == _read(json.loads, variant)
