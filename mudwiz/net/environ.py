"""Telnet NEW-ENVIRON (RFC 1572), the part mudwiz asks for: the client's locale, for the language it reads
(mudwiz/texts). Sans-I/O: the request's bytes, and the variables read from the client's answer; an SSH session's
env requests are read by the same precedence (``chosen``).

The stock telnet sends a variable of its own (``environ define LANG ja_JP.UTF-8``, ``environ export LANG``) as a
USERVAR, other clients LANG as a VAR: both are read. The first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that names
a language with a catalog is the one (POSIX's order of precedence).
"""

from __future__ import annotations

from mudwiz.texts import pick

NEW_ENVIRON = b"\x27"
IS, SEND, INFO = b"\x00", b"\x01", b"\x02"
VAR, VALUE, ESC, USERVAR = 0, 1, 2, 3
WANTED = ("LC_ALL", "LC_MESSAGES", "LANG")  # in the order one overrides the next


def request() -> bytes:
    """``SEND``, each wanted name both as a VAR and as a USERVAR (the subnegotiation's payload, after the option)."""
    return SEND + b"".join(bytes([kind]) + name.encode("ascii") for name in WANTED for kind in (VAR, USERVAR))


def variables(payload: bytes) -> dict[str, str]:
    """The variables of an ``IS`` or ``INFO`` answer (the payload after the option byte), by name; a name sent
    without a value is left out. ESC takes the next byte as it is (RFC 1572)."""
    if payload[:1] not in (IS, INFO):
        return {}
    found: dict[str, str] = {}
    name: bytearray | None = None
    value: bytearray | None = None
    escaped = False
    for byte in payload[1:]:
        if escaped:
            (value if value is not None else name if name is not None else bytearray()).append(byte)
            escaped = False
        elif byte == ESC:
            escaped = True
        elif byte in (VAR, USERVAR):
            _keep(found, name, value)
            name, value = bytearray(), None
        elif byte == VALUE and name is not None:
            value = bytearray()
        elif value is not None:
            value.append(byte)
        elif name is not None:
            name.append(byte)
    _keep(found, name, value)
    return found


def _keep(found: dict[str, str], name: bytearray | None, value: bytearray | None) -> None:
    if name and value is not None:
        found[name.decode("ascii", "replace")] = value.decode("ascii", "replace")


def language(payload: bytes) -> str | None:
    """The language the answer's locale names (``ja_JP.UTF-8``: ``ja``), if it has a catalog; None otherwise."""
    return chosen(variables(payload))


def chosen(values: dict[str, str]) -> str | None:
    """The language of a client's locale variables (telnet's, or an SSH session's env requests), by precedence."""
    for name in WANTED:
        lang = pick(values.get(name))
        if lang is not None:
            return lang
    return None
