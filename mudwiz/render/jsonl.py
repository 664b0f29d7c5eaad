"""The bot protocol's encoding: one JSON object a line, UTF-8, no ANSI, no prompts (docs/protocol.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

_PRIVATE = ("look",)

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _stdlib(message: Any) -> str:
    return _encoder.encode(message)


def _choose_dumps() -> Callable[[Any], str]:
    """The standard library's encoder, or orjson's where it is installed (``pip install 'mudwiz[fast]'``) and not
    refused (``MUDWIZ_JSON=stdlib``): the same bytes ten times faster, and encoding states was a quarter of a
    move's cost (issue #18; bench/load.py measures both). A message orjson cannot take (an integer past 64
    bits, a key that is not a string) goes to the standard library. No message has such keys, and orjson's
    ``OPT_NON_STR_KEYS``, which would take them, more than doubles the time of every other message."""
    if os.environ.get("MUDWIZ_JSON", "").lower() == "stdlib":
        return _stdlib
    try:
        import orjson
    except ImportError:
        return _stdlib
    orjson_dumps = orjson.dumps

    def fast(message: Any) -> str:
        try:
            return orjson_dumps(message).decode()
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return _stdlib(message)

    return fast


dumps = _choose_dumps()
ENCODER = "stdlib" if dumps is _stdlib else "orjson"

# A request's "id" of one of these types is read alike by both decoders; any other (a float, which may be an integer
# past 64 bits that orjson reads as a float, a list, an object) is read again by the standard library. A request's
# other fields but "cmd" are never read.
_EXACT_IDS = (int, str, bool, type(None))


def _choose_loads() -> Callable[[str], Any]:
    """How a JSON request line is read: with orjson where it encodes (``dumps``), a seventh of the standard
    library's time (its decoder was 2 % of a command's CPU, issue #18), but only where the two read what the server
    uses alike: an object, its ``id`` and its ``cmd`` string. Anything orjson refuses (NaN, 1e400, nesting past
    1,024, lone surrogates), or a request whose ``id`` or ``cmd`` it might read differently, is read by the
    standard library, whose value, verdict and error message stand."""
    if dumps is _stdlib:
        return json.loads
    import orjson

    orjson_loads, refused, stdlib_loads = orjson.loads, orjson.JSONDecodeError, json.loads

    def fast(text: str) -> Any:
        try:
            value = orjson_loads(text)
        except refused:
            return stdlib_loads(text)
        if type(value) is dict and type(value.get("cmd")) is str and isinstance(value.get("id"), _EXACT_IDS):
            return value
        return stdlib_loads(text)

    return fast


loads = _choose_loads()


class Shared(dict[str, Any]):
    """A message sent alike to many (an event every viewer sees the same): encoded once, not once a viewer.
    Nobody changes a message once it is handed out, so the first encoding stays right."""

    __slots__ = ("encoded",)

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.encoded: str | None = None


def encode(message: dict[str, Any]) -> str:
    if isinstance(message, Shared):
        if message.encoded is None:
            message.encoded = _encode(message)
        return message.encoded
    return _encode(message)


def _encode(message: dict[str, Any]) -> str:
    for key in _PRIVATE:  # a loop, not ``any()`` over a generator: this is on every message's way out
        if key in message:
            return dumps({k: v for k, v in message.items() if k not in _PRIVATE})
    return dumps(message)
