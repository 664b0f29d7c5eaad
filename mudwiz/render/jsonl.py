"""The bot protocol's encoding: one JSON object a line, UTF-8, no ANSI, no prompts (docs/protocol.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from mudwiz.texts import Later, current

_PRIVATE = ("look",)


def _words(value: Any) -> str:
    """A ``Later`` text (mudwiz/texts) in the language spoken now, the reader's; the encoders call it for what they
    cannot encode themselves, so a message with no such text costs nothing more."""
    if isinstance(value, Later):
        _LATER_SEEN[0] += 1
        return str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_LATER_SEEN = [0]  # how many ``Later`` texts were encoded: whether an encoding holds one language's words
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_words)


def _stdlib(message: Any) -> str:
    return _encoder.encode(message)


def _choose_dumps() -> Callable[[Any], str]:
    """The standard library's encoder, or orjson's where it is installed (``pip install 'mudwiz[fast]'``) and not
    refused (``MUDWIZ_JSON=stdlib``): the same bytes ten times faster, and encoding states was a quarter of a
    move's cost (bench/load.py measures both). A message orjson cannot take (an integer past 64
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
            return orjson_dumps(message, default=_words).decode()
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
    library's time (its decoder was 2 % of a command's CPU), but only where the two read what the server
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

    __slots__ = ("encoded", "lang")

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.encoded: str | None = None
        self.lang: str | None = None  # the language its encoding is in, if it holds a ``Later`` text; else None


def encode(message: dict[str, Any]) -> str:
    if isinstance(message, Shared):
        if message.encoded is None or message.lang is not None and message.lang != current():
            seen = _LATER_SEEN[0]
            message.encoded = _encode(message)
            message.lang = current() if _LATER_SEEN[0] != seen else None
        return message.encoded
    return _encode(message)


def _encode(message: dict[str, Any]) -> str:
    for key in _PRIVATE:  # a loop, not ``any()`` over a generator: this is on every message's way out
        if key in message:
            return dumps({k: v for k, v in message.items() if k not in _PRIVATE})
    return dumps(message)


def alike_text(common: dict[str, Any]) -> str:
    """The fields every state of an update shares (the part of ``Game.split_views`` all views have alike, the
    table's fields put in), encoded with the closing brace and without the opening one: the tail of each state."""
    return dumps(common)[1:]


class SplitStates:
    """A table's states for viewers that read JSON lines and nothing else, encoded as the engine's ``split_views``
    splits them: what they all see alike once (``alike_text``), each viewer's own fields (the head, the seat's hand
    and moves) on their own, the score sheet (or its new rows) once per row it is sent from. The same bytes as each
    whole state encoded (``encode``), a fraction of the work. One per table: its heads are kept from one
    update to the next. ``begin`` an update, then ``text`` for each viewer."""

    def __init__(self) -> None:
        # the two heads last encoded (an observer's, a seated viewer's): what they were made from, and the texts
        self._heads: tuple[tuple[Any, ...], list[str]] | None = None
        # this update's: its two heads, ``confirmed`` encoded, its sheet, and the rest of a state after its own
        # fields by the sheet row it is sent from (-1: the whole sheet, the sheet's length: none of it)
        self._head_texts: list[str] = []
        self._confirmed = ""
        self._sheet: list[Any] = []
        self._rests: dict[int, str] = {}

    def begin(self, heads: tuple[dict[str, Any], dict[str, Any]], confirmed: list[str], sheet: list[Any],
              alike: str) -> None:
        """An update: its two heads, who has confirmed, its score sheet and ``alike`` (``alike_text``'s)."""
        self._head_texts = self._heads_text(heads)
        self._confirmed = '"confirmed":' + dumps(confirmed) + ","
        self._sheet = sheet
        self._rests = {len(sheet): alike}

    def text(self, seated: bool, own: dict[str, Any], start: int) -> str:
        """One viewer's state of the update: ``own`` its own fields, ``start`` the sheet row it is sent from (-1:
        the whole sheet as ``sheet``, else the rows from there on as ``sheet_add``, none at the sheet's length)."""
        rests = self._rests
        rest = rests.get(start)
        if rest is None:
            sheet = self._sheet
            field = '"sheet":' if start < 0 else '"sheet_add":'
            rest = rests[start] = field + dumps(sheet[start:] if start >= 0 else sheet) + "," + rests[len(sheet)]
        # one string made of the parts, where adding them one by one copied the ~1,400 characters thrice
        return "".join((self._head_texts[seated], ",", dumps(own)[1:-1], ",", self._confirmed, rest))

    def _heads_text(self, heads: tuple[dict[str, Any], dict[str, Any]]) -> list[str]:
        """The two heads of a state encoded without their closing brace, as last time while the table's host,
        status and observers are the same: they change a few times a game, and every update of every table needs
        them."""
        head = heads[0]
        key = (head["host"], head["status"], tuple(head["observers"]))
        known = self._heads
        if known is not None and known[0] == key:
            return known[1]
        texts = [dumps(h)[:-1] for h in heads]
        self._heads = (key, texts)
        return texts
