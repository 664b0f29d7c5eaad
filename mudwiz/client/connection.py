"""The client's line connection to a mudwiz server, on asyncio streams.

Why asyncio streams and not Twisted: prompt_toolkit's ``Application.run_async`` already runs an asyncio event
loop that owns the keyboard and the screen. Reading the socket with ``asyncio.open_connection`` in that same
loop means one thread and no locks: a message is applied to the model and the screen invalidated in the very
callback that read it. A Twisted reactor would need the asyncio reactor installed before anything imports
``twisted.internet.reactor`` and would add a second framework for one TCP socket.

The server talks plain text (MOTD, the name prompt without a newline) until ``/mode json`` takes effect, so a
line that is not JSON is handed on as text, and JSON glued behind the name prompt is split off.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from mudwiz.client.texts import _

MessageHandler = Callable[[dict[str, Any]], None]
TextHandler = Callable[[str], None]
CloseHandler = Callable[[str], None]


def parse_address(address: str, default_port: int = 4000) -> tuple[str, int]:
    """``HOST[:PORT]`` (``[::1]:4000`` for IPv6) -> (host, port)."""
    address = address.strip() or "localhost"
    if address.startswith("["):
        host, _bracket, rest = address[1:].partition("]")
        return host, int(rest.removeprefix(":") or default_port)
    if address.count(":") == 1:
        host, port = address.split(":")
        return host or "localhost", int(port)
    return address, default_port


def split_line(line: str) -> tuple[str, dict[str, Any] | None]:
    """A received line -> (plain text before any JSON, the JSON object or None)."""
    start = line.find("{")
    if start < 0:
        return line, None
    try:
        message = json.loads(line[start:])
    except (ValueError, RecursionError):  # RecursionError: nested past the interpreter's depth
        return line, None
    if not isinstance(message, dict) or "type" not in message:
        return line, None
    return line[:start], message


class Connection:
    """One TCP connection at a time; ``open`` again after a drop reconnects. Requests carry ids."""

    def __init__(self, host: str, port: int, on_message: MessageHandler, on_text: TextHandler,
                 on_close: CloseHandler) -> None:
        self.host, self.port = host, port
        self.on_message, self.on_text, self.on_close = on_message, on_text, on_close
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._next_id = 0

    @property
    def connected(self) -> bool:
        return self._writer is not None and not self._writer.is_closing()

    async def open(self, timeout: float = 10.0) -> None:
        """Connect and start reading; raises OSError (or TimeoutError) when the server cannot be reached."""
        await self.close()
        reader, self._writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), timeout)
        self._reader = reader
        self._task = asyncio.get_running_loop().create_task(self._read_loop(reader))

    def send_line(self, text: str) -> None:
        if not self.connected:
            raise ConnectionError("not connected")
        assert self._writer is not None
        self._writer.write(text.encode() + b"\r\n")

    def request(self, cmd: str) -> int:
        """Send ``{"id", "cmd"}``; the ok/error reply carries the returned id."""
        self._next_id += 1
        self.send_line(json.dumps({"id": self._next_id, "cmd": cmd}, ensure_ascii=False))
        return self._next_id

    async def _read_loop(self, reader: asyncio.StreamReader) -> None:
        reason = _("the server closed the connection")
        try:
            while True:
                raw = await reader.readline()
                if not raw:
                    break
                text, message = split_line(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
                if text.strip():
                    self.on_text(text)
                if message is not None:
                    self.on_message(message)
        except asyncio.CancelledError:
            return  # closed on purpose: no drop to report
        except (OSError, ValueError) as exc:  # ValueError: a line longer than the stream's limit
            reason = _("connection lost: {error}", error=exc)
        self._drop()
        self.on_close(reason)

    def _drop(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    def abort(self) -> None:
        """Drop the socket at once, as a network failure would (the read loop reports the close)."""
        if self._writer is not None:
            transport = self._writer.transport
            transport.abort()

    async def close(self) -> None:
        """Close on purpose: no close is reported."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._writer is not None:
            writer = self._writer
            self._drop()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
