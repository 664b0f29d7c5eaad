"""The JSON request envelope a program sends a line in, ``{"id": ..., "cmd": "/command ..."}``: read here, so the
connection has the line alone and the id its reply echoes."""

from __future__ import annotations

import json
from typing import Any

from mudwiz.errors import BadCommand
from mudwiz.render import jsonl
from mudwiz.texts import later
from mudwiz.usertext import erase, one_line

# (no params: its braces are as written, never a format's)
NOT_A_REQUEST = later('bad JSON request: a JSON request is {"id": ..., "cmd": "/command ..."}')
MAX_ID_NESTING = 32  # levels of arrays and objects a request's id may have: it is encoded again in the reply


def read(text: str, json_mode: bool) -> tuple[str, Any]:
    """A line (one line, its erasures done, stripped) as the command it carries and its request's id (None: a bare
    line). JSON that is no request is refused (``BadCommand``, its text the reply): an object always, other JSON
    (a batch's array, a string, null) in the JSON mode, where it is a program's mistake, never chat for all."""
    if text.startswith("{"):
        try:
            request = jsonl.loads(text)
        except ValueError as exc:  # the decoder's own words (English): where in the line it went wrong
            raise BadCommand(later("bad JSON request: {why}", why=str(exc))) from None
        except RecursionError:  # json.loads recurses once a level: [[[[... past ~1000 levels
            raise BadCommand(later("bad JSON request: nested too deeply")) from None
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            raise BadCommand(NOT_A_REQUEST)
        if nesting(request.get("id")) > MAX_ID_NESTING:
            raise BadCommand(later('bad JSON request: "id" is nested more than {levels} deep; it is echoed in the '
                                   'reply', levels=MAX_ID_NESTING))
        # JSON may spell a line break (\\n) or a bidi override, and a backspace or DEL (\\u007f): read as the
        # same keys in a bare line are, so a password or a chat line is the same either way
        return one_line(erase(request["cmd"])).strip(), request.get("id")
    if json_mode and text[:1] in JSON_STARTS and parses(text):
        raise BadCommand(NOT_A_REQUEST)
    return text, None


def read_password(line: str) -> tuple[str, Any]:
    """A password line as typed, or a JSON client's ``{"id": ..., "cmd": PASSWORD}``: the password (its erasures
    done, as a bare line's: the same password either way) and the request's id."""
    password, request_id = erase(line), None
    if password.startswith("{"):
        try:
            request = json.loads(password)
            if isinstance(request, dict) and isinstance(request.get("cmd"), str):
                password = erase(request["cmd"])
                request_id = request.get("id") if nesting(request.get("id")) <= MAX_ID_NESTING else None
        except (ValueError, RecursionError):
            pass  # a password that begins with {
    return password, request_id


def nesting(value: Any) -> int:
    """How deep ``value`` nests arrays and objects (0 for a string or a number), counted without recursion: an id
    nested ~1000 deep parses, but encoding it again for the reply, deeper in the stack, would not."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_ID_NESTING:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


JSON_STARTS = frozenset('["-0123456789tfn')  # how a JSON value that is no object may begin


def parses(text: str) -> bool:
    """Whether ``text`` is JSON."""
    try:
        jsonl.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def request_id_of(line: str) -> Any:
    """The ``id`` of ``line`` when it is a JSON request whose reply may echo it, else None."""
    if not line.lstrip().startswith("{"):
        return None
    try:
        request = jsonl.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(request, dict) or nesting(request.get("id")) > MAX_ID_NESTING:
        return None
    return request.get("id")
