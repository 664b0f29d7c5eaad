"""Connections that send lines as fast as the server takes them: for ``tests/wire/test_wire_flood.py`` (a few
seconds) and ``bench/flood.py`` (figures). Like ``wire.py``, nothing here imports the server: each is a plain
socket that logs in with a name and then writes lobby chat, unknown commands, junk and ``/who`` without waiting
for answers, reading and discarding what it is sent.
"""

from __future__ import annotations

import random
import selectors
import socket
import time
from dataclasses import dataclass, field

WARNING = b"you are sending more than"  # the server's one line to a connection whose lines wait (net/budget.py)
FAREWELL = b"disconnected: more than"


# Telnet commands a flooder mixes in (IAC is 255): option offers and answers for every option, a window size, a
# terminal type, AYT, NOP, and a subnegotiation cut short; the server answers some of them (at most ``MAX_ANSWERS``).
TELNET = (b"\xff\xfb\x18", b"\xff\xfd\x01", b"\xff\xfc\x1f", b"\xff\xfe\x03", b"\xff\xf6", b"\xff\xf1",
          b"\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0", b"\xff\xfa\x18\x00xterm\xff\xf0", b"\xff\xfa\x2a\x01",
          b"\xff\xfb\xc9")  # (not MCCP's DO: what the flooders count is read as text)


def junk(rng: random.Random, n: int) -> bytes:
    """``n`` flood lines: chat, unknown commands (three in ten: ``/xyzzy``, whose refusals count what the server
    answered), printable junk, junk with telnet commands in it, ``/who``."""
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.35:
            out.append(b"hello everyone, " + str(rng.randrange(10**6)).encode())
        elif kind < 0.65:
            out.append(b"/xyzzy " + str(rng.randrange(10**6)).encode())
        elif kind < 0.8:
            out.append(bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 60))))
        elif kind < 0.9:
            out.append(b"".join(rng.choice(TELNET) + b"x" * rng.randrange(3) for _ in range(rng.randrange(1, 6))))
        else:
            out.append(b"/who")
    return b"\r\n".join(out) + b"\r\n"


@dataclass
class Flood:
    """What the flooding connections saw: lines the server answered (its refusals of ``/xyzzy`` over three in
    ten: what was sent says nothing, the kernel's buffers take megabytes the server may never read), how many
    times each connection was warned, and how many the server closed (with its farewell, or without)."""

    answered: float = 0.0
    warned: list[int] = field(default_factory=list)
    farewells: int = 0
    closed: int = 0


def flood(address: tuple[str, int], count: int, seconds: float, prefix: str = "flood", seed: int = 1) -> Flood:
    """``count`` connections logging in as ``prefix0``... and sending as fast as they can for ``seconds``."""
    rng = random.Random(seed)
    sel = selectors.DefaultSelector()
    pending: dict[socket.socket, bytes] = {}
    seen: dict[socket.socket, bytes] = {}  # each one's last few hundred bytes: a warning split across reads
    warned: dict[socket.socket, int] = {}
    result = Flood()
    answered = 0
    for i in range(count):
        sock = socket.create_connection(address)
        sock.sendall(f"{prefix}{i}\r\n".encode())
        sock.setblocking(False)
        pending[sock], seen[sock], warned[sock] = b"", b"", 0
        sel.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
    time.sleep(0.5)  # logged in
    chunks = [junk(rng, 64) for _ in range(16)]
    end = time.monotonic() + seconds
    while time.monotonic() < end and pending:
        for key, events in sel.select(0.1):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                if events & selectors.EVENT_READ:
                    data = sock.recv(1 << 16)
                    if not data:
                        raise ConnectionResetError
                    answered += data.count(b"command /xyzzy")
                    text = seen[sock][-200:] + data
                    warned[sock] += text.count(WARNING) - seen[sock][-200:].count(WARNING)
                    result.farewells += FAREWELL in text and FAREWELL not in seen[sock][-200:]
                    seen[sock] = text
                if events & selectors.EVENT_WRITE:
                    data = pending[sock] or rng.choice(chunks)
                    pending[sock] = data[sock.send(data):]
            except BlockingIOError:
                continue
            except OSError:
                result.closed += 1
                result.warned.append(warned.pop(sock))
                sel.unregister(sock)
                del pending[sock]
                sock.close()
    for sock in pending:
        result.warned.append(warned[sock])
        sock.close()
    result.answered = answered * 10 / 3
    return result
