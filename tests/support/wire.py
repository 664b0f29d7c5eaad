"""Real loopback clients for the wire tests: a server in a subprocess, a JSON-mode socket client, a program on a
pseudo-terminal (the real ``telnet``), and a random player that drives such clients through a whole game (shared
here so test modules need not import each other).

Nothing here imports the server: the tests see mudwiz only as a person or a bot would, through TCP.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


REQUIRED = os.environ.get("CI") == "true"  # CI installs telnet and nc; a developer's machine may lack them


def need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        if REQUIRED:
            pytest.fail(f"{program} is not installed (scripts/test installs it)")
        pytest.skip(f"{program} is not installed")
    return path


class Terminal:
    """A program on a pseudo-terminal: type lines into it, collect every byte it shows."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None, size: tuple[int, int] = (80, 24)) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, env=env)
        os.close(slave)
        self.output = b""

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def resize(self, columns: int, rows: int) -> None:
        """Resize the window, as dragging its corner does, and send the program SIGWINCH (the kernel would only
        signal a session whose controlling terminal this is, and the program runs in a session of its own)."""
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.kill(self.proc.pid, signal.SIGWINCH)

    def read_until(self, needle: bytes, timeout: float = 10.0, since: int = 0) -> bytes:
        """Everything shown so far, once ``needle`` has been shown (at or after byte ``since`` of it)."""
        deadline = time.monotonic() + timeout
        while needle not in self.output[since:]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{needle!r} not seen; got: {self.output[-600:]!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:
                    break
        return self.output

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self.master)


def ascii_nc(address: tuple[str, int], name: str) -> tuple[Terminal, int]:
    """``nc`` on a pseudo-terminal, logged in as ``name`` in ascii mode; and how far its output had come then."""
    nc = Terminal([need("nc"), address[0], str(address[1])])
    nc.read_until(b"What is your name? ")
    nc.type(name)
    nc.read_until(b"Welcome")
    nc.type("/mode ascii")
    return nc, len(nc.read_until(b"mode ascii\r"))


class NetcatSession:
    """``nc`` with pipes: exactly the bytes the server sends, nothing a terminal would add."""

    def __init__(self, address: tuple[str, int]) -> None:
        self.proc = subprocess.Popen(
            [need("nc"), address[0], str(address[1])], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        os.set_blocking(self.proc.stdout.fileno(), False)  # type: ignore[union-attr]
        self.output = b""

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_until(self, needle: bytes, timeout: float = 10.0) -> bytes:
        deadline = time.monotonic() + timeout
        while needle not in self.output:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{needle!r} not seen; got: {self.output[-600:]!r}")
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                chunk = self.proc.stdout.read()  # type: ignore[union-attr]
                if chunk:
                    self.output += chunk
        return self.output

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


TELNET_IAC, TELNET_SB, TELNET_SE, TELNET_GA, TELNET_EOR = 255, 250, 240, 249, 239
TELNET_WILL, TELNET_WONT, TELNET_DO, TELNET_DONT = 251, 252, 253, 254
BINARY, TTYPE, EOR_OPTION, NAWS, CHARSET, MSSP, GMCP = 0, 24, 25, 31, 42, 70, 201


class TelnetClient:
    """A scripted telnet client on a socket, as a MUD client behaves: it agrees to the options in ``will`` (we
    do them) and ``do`` (the server does them) and refuses the rest, answers TTYPE with ``ttypes`` in turn (the
    last repeated), sends its window size when NAWS is agreed, accepts UTF-8 when CHARSET asks. ``data`` is
    what the server sent with its telnet commands taken out; ``marks`` where in it an ``IAC EOR`` (or ``IAC
    GA``) came; ``received`` every telnet command, ``subnegotiations`` every ``IAC SB`` payload. ``charset`` is
    the name it accepts when CHARSET asks, and ``encoding`` the Python codec its lines are typed in."""

    def __init__(self, address: tuple[str, int], *, will: tuple[int, ...] = (BINARY, TTYPE, NAWS, CHARSET),
                 do: tuple[int, ...] = (BINARY, EOR_OPTION, MSSP, CHARSET), ttypes: tuple[str, ...] = ("xterm",),
                 size: tuple[int, int] = (80, 24), charset: str = "UTF-8", encoding: str = "utf-8") -> None:
        self.sock = socket.create_connection(address, timeout=10)
        self.will, self.do, self.ttypes, self.size = set(will), set(do), list(ttypes), size
        self.charset, self.encoding = charset, encoding
        self.data = b""
        self.wire = b""  # every byte as it came
        self.marks: list[tuple[int, int]] = []  # (position in data, EOR or GA)
        self.received: list[tuple[int, int]] = []
        self.subnegotiations: list[bytes] = []
        self.ttypes_sent: list[str] = []
        self._pending = b""

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode(self.encoding) + b"\r\n")

    def naws(self, columns: int, rows: int) -> None:
        self.size = (columns, rows)
        body = bytes((columns >> 8, columns & 255, rows >> 8, rows & 255)).replace(b"\xff", b"\xff\xff")
        self.sock.sendall(bytes((TELNET_IAC, TELNET_SB, NAWS)) + body + bytes((TELNET_IAC, TELNET_SE)))

    def subnegotiate(self, option: int, payload: bytes) -> None:
        self.sock.sendall(bytes((TELNET_IAC, TELNET_SB, option)) + payload.replace(b"\xff", b"\xff\xff")
                          + bytes((TELNET_IAC, TELNET_SE)))

    def gmcp(self) -> list[tuple[str, Any]]:
        """The GMCP messages received: (package, its JSON or None)."""
        found = []
        for payload in self.subnegotiations:
            if payload[:1] == bytes((GMCP,)):
                package, _, body = payload[1:].decode().partition(" ")
                found.append((package, json.loads(body) if body else None))
        return found

    def read_until(self, needle: bytes, timeout: float = 10.0, start: int = 0) -> bytes:
        """Read until ``needle`` is in ``data[start:]``; return that part of ``data``."""
        self.wait(lambda: needle in self.data[start:], timeout, f"{needle!r} not seen")
        return self.data[start:]

    def wait(self, done: Callable[[], bool], timeout: float = 10.0, what: str = "nothing came") -> None:
        """Read until ``done()``: telnet commands may come a moment after the text around them."""
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{what}; got: {self.data[-600:]!r}")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError(f"closed; got: {self.data[-600:]!r}")
            self.wire += chunk
            self._feed(chunk)

    def _feed(self, chunk: bytes) -> None:
        data = self._pending + chunk
        self._pending = b""
        at = 0
        while at < len(data):
            iac = data.find(TELNET_IAC.to_bytes(), at)
            if iac < 0:
                self.data += data[at:]
                return
            self.data += data[at:iac]
            used = self._command(data[iac:])
            if used == 0:  # a command cut short by the read: kept for the next
                self._pending = data[iac:]
                return
            at = iac + used

    def _command(self, data: bytes) -> int:
        """Act on the telnet command at the start of ``data``; the bytes it took (0: not all here yet)."""
        if len(data) < 2:
            return 0
        verb = data[1]
        if verb == TELNET_IAC:
            self.data += b"\xff"
            return 2
        if verb in (TELNET_EOR, TELNET_GA):
            self.marks.append((len(self.data), verb))
            return 2
        if verb in (TELNET_WILL, TELNET_WONT, TELNET_DO, TELNET_DONT):
            if len(data) < 3:
                return 0
            self.received.append((verb, data[2]))
            self._answer(verb, data[2])
            return 3
        if verb == TELNET_SB:
            end = data.find(bytes((TELNET_IAC, TELNET_SE)), 2)
            if end < 0:
                return 0
            payload = data[2:end].replace(b"\xff\xff", b"\xff")
            self.subnegotiations.append(payload)
            self._subnegotiation(payload)
            return end + 2
        return 2

    def _answer(self, verb: int, option: int) -> None:
        if verb == TELNET_WILL:
            self._put(TELNET_DO if option in self.do else TELNET_DONT, option)
        elif verb == TELNET_DO:
            self._put(TELNET_WILL if option in self.will else TELNET_WONT, option)
            if option == NAWS and option in self.will:
                self.naws(*self.size)

    def _subnegotiation(self, payload: bytes) -> None:
        if payload[:2] == bytes((TTYPE, 1)):  # SEND
            name = self.ttypes.pop(0) if len(self.ttypes) > 1 else self.ttypes[0]
            self.ttypes_sent.append(name)
            self.sock.sendall(bytes((TELNET_IAC, TELNET_SB, TTYPE, 0)) + name.encode()
                              + bytes((TELNET_IAC, TELNET_SE)))
        elif payload[:2] == bytes((CHARSET, 1)):  # REQUEST
            self.sock.sendall(bytes((TELNET_IAC, TELNET_SB, CHARSET, 2)) + self.charset.encode()
                              + bytes((TELNET_IAC, TELNET_SE)))

    def _put(self, verb: int, option: int) -> None:
        self.sock.sendall(bytes((TELNET_IAC, verb, option)))

    def close(self) -> None:
        self.sock.close()


class RloginClient:
    """A scripted RFC 1282 client, as a BBS's rlogin gateway is: the handshake (``\\0 client-user \\0
    server-user \\0 terminal/speed \\0``), then raw keys; ``output`` is every byte the server sent (the
    ``\\0`` or refusal first), ``urgent`` the out-of-band bytes."""

    def __init__(self, address: tuple[str, int], user: str, server_user: str = "", term: str = "ansi-bbs/38400",
                 source: str | None = None) -> None:
        self.sock = socket.create_connection(address, timeout=10, source_address=(source, 0) if source else None)
        self.sock.sendall(b"\0" + user.encode() + b"\0" + server_user.encode() + b"\0" + term.encode() + b"\0")
        self.output = self.sock.recv(1)  # b"\\0", or b"\\1" and the refusal
        self.closed = not self.output
        self.urgent = b""
        if self.output == b"\0":  # the window-size request comes at once, out of band: read before passing it
            _, _, pending = select.select([], [], [self.sock], 5)
            if pending:
                self.urgent = self.sock.recv(1, socket.MSG_OOB)

    def type(self, keys: bytes) -> None:
        self.sock.sendall(keys)

    def window(self, columns: int, rows: int) -> None:
        """The window-size control a client sends when asked: FF FF s s, rows, columns, x and y pixels."""
        self.sock.sendall(b"\xff\xffss" + struct.pack("!HHHH", rows, columns, 0, 0))

    def read_until(self, needle: bytes, timeout: float = 10.0, since: int = 0) -> bytes:
        deadline = time.monotonic() + timeout
        while needle not in self.output[since:]:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise TimeoutError(f"{needle!r} not seen; got: {self.output[-600:]!r}")
            self.read(min(left, 0.5))
        return self.output

    def read(self, timeout: float) -> None:
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(1 << 16)
        except (TimeoutError, BlockingIOError):
            return
        self.closed = not chunk
        self.output += chunk

    def read_to_close(self, timeout: float = 10.0) -> bytes:
        deadline = time.monotonic() + timeout
        while not self.closed and time.monotonic() < deadline:
            self.read(0.5)
        return self.output

    def close(self) -> None:
        self.sock.close()


def eventually(check: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    """``check()`` (asked again every 0.1 s) until it returns something true (its value), or fail saying ``what``
    never happened: for what another process will do soon, not at once."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(tuple):  # type: ignore[type-arg]
    """What ``running_server`` yields: the address ``(host, port)`` as before (it unpacks and connects like any
    tuple), and a look at the process behind it for tests that check how the server took what they sent."""

    def __new__(cls, host: str, port: int, proc: subprocess.Popen[bytes], logfile: IO[bytes]) -> Server:
        self = super().__new__(cls, (host, port))
        self.proc = proc
        self._logfile = logfile
        self._final: str | None = None  # the whole log, kept when the server stops
        return self

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log(self) -> str:
        """The server's stdout and stderr so far (all of it once the server has stopped)."""
        if self._final is not None:
            return self._final
        fd = self._logfile.fileno()
        # pread: the server writes through the same open file, so moving its offset would garble the log
        return os.pread(fd, os.fstat(fd).st_size, 0).decode("utf-8", errors="replace")


def stop_process(proc: subprocess.Popen[Any], timeout: float) -> int:
    """A clean stop (TERM), then KILL if it has not ended within ``timeout`` seconds; the exit status."""
    proc.terminate()
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def wait_until_listening(port: int, proc: subprocess.Popen[bytes], log: Callable[[], str]) -> None:
    """Return once the server started as ``proc`` accepts on ``port``; raise with its ``log`` if it dies or takes
    more than 20 s."""
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start:\n{log()}") from None
            time.sleep(0.05)


def bound(port: int) -> bool:
    """Whether a socket listens on ``port`` (the kernel's table: no connection made, which a listener would count
    and log)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        if any(row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "0A" for row in rows):  # 0A: LISTEN
            return True
    return False


def wait_until_bound(port: int, proc: subprocess.Popen[bytes], log: Callable[[], str]) -> None:
    """``wait_until_listening`` for a port a test must not connect to first (its listener counts connections)."""
    deadline = time.monotonic() + 20
    while not bound(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"server did not listen on {port}:\n{log()}")
        time.sleep(0.05)


@contextmanager
def running_server(log: Path | None = None, **env: str) -> Iterator[Server]:
    """Start ``mudwiz serve`` on a free loopback port; stop it afterwards. Yields (host, port), a ``Server``
    that can also say whether the process is alive and what it has logged; the log goes to ``log`` when given.
    Its game records go to a new temporary directory unless ``MUDWIZ_DATA`` is given."""
    port = free_port()
    data = None if "MUDWIZ_DATA" in env else tempfile.TemporaryDirectory(prefix="mudwiz-data-")
    # Every test client comes from 127.0.0.1, and a shared server gathers many: it announces all their arrivals,
    # however many are online, as tests wait for.
    environ = {**os.environ, "MUDWIZ_BOT_DELAY": "0.005", "MUDWIZ_GRACE": "120", "MUDWIZ_ARRIVAL_BURST": "100000",
               "MUDWIZ_PRESENCE_CROWD": "0",
               **({"MUDWIZ_DATA": data.name} if data else {}), **env}
    # The log goes to a file: a pipe nobody reads fills up and then blocks the server on its next log line.
    logfile = log.open("w+b") if log is not None else tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mudwiz.cli", "serve", "--listen", f"tcp:{port}:interface=127.0.0.1"],
        cwd=ROOT, env=environ, stdout=logfile, stderr=subprocess.STDOUT,
    )
    def started_log() -> str:
        logfile.seek(0)
        return logfile.read().decode(errors="replace")

    wait_until_listening(port, proc, started_log)
    for name in ("MUDWIZ_RAW_LISTEN", "MUDWIZ_SSH", "MUDWIZ_RLOGIN"):  # its other listeners, bound after the first:
        other = re.match(r"tcp:(\d+):", env.get(name, ""))  # a test connecting at once was once refused (rlogin)
        if other:
            wait_until_bound(int(other.group(1)), proc, started_log)
    server = Server("127.0.0.1", port, proc, logfile)
    try:
        yield server
    finally:
        stop_process(proc, 10)
        server._final = server.log()
        logfile.close()
        if data:
            data.cleanup()


class RestartableServer:
    """``mudwiz serve`` on one data directory and one port that a test may ``kill()`` (SIGKILL: no clean stop,
    as in a crash) and ``start()`` again, as often as it likes; ``stop()`` is a clean one (TERM). Every run's
    output is appended to one log file, each run headed by a line, for a failing test to show."""

    def __init__(self, data: Path, log: Path, **env: str) -> None:
        self.port = free_port()
        self.address = ("127.0.0.1", self.port)
        self.data = data
        self.logpath = log
        self.env = {**os.environ, "MUDWIZ_BOT_DELAY": "0.005", "MUDWIZ_GRACE": "120",
                    "MUDWIZ_ARRIVAL_BURST": "100000", "MUDWIZ_DATA": str(data), **env}
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs = 0

    def start(self) -> None:
        self.runs += 1
        with self.logpath.open("ab") as out:
            out.write(f"==== run {self.runs}\n".encode())
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mudwiz.cli", "serve", "--listen", f"tcp:{self.port}:interface=127.0.0.1"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            )
        wait_until_listening(self.port, self.proc, self.log)

    def kill(self) -> None:
        """``kill -9``: the process gets no chance to write, flush or close anything."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> int:
        """A clean stop (TERM); returns the exit status."""
        assert self.proc is not None
        return stop_process(self.proc, 15)

    def log(self) -> str:
        return self.logpath.read_text(errors="replace") if self.logpath.exists() else ""


class JsonClient:
    """A scripted client: logs in, switches to JSON mode, and reads one JSON object a line."""

    def __init__(self, address: tuple[str, int], name: str, timeout: float = 30.0, password: str | None = None,
                 source: str | None = None) -> None:
        # source: the local address to connect from (127.0.0.2: another loopback address, for per-address rules)
        self.sock = socket.create_connection(address, timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.name = name
        self.buffer = b""
        self.messages: list[dict[str, Any]] = []
        self.raw: list[bytes] = []
        self._next_id = 0
        self.mark = 0  # index of the first message that came after the last request was sent
        self.send("/mode json")
        self.send(name)
        if password is not None:  # a registered name: answer the password message
            asked = self.wait_for(lambda m: m["type"] in ("password", "welcome", "error"))
            if asked["type"] == "password":
                self.send(json.dumps({"id": "password", "cmd": password}))
        self.wait_for(lambda m: m["type"] in ("welcome", "error"), since=0)
        if not self.of_type("welcome"):
            raise RuntimeError(f"login refused: {self.of_type('error')}")

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\r\n")

    def request(self, cmd: str, timeout: float = 30.0) -> dict[str, Any]:
        """Send ``{"id", "cmd"}`` and return the ok/error reply that carries the same id."""
        self._next_id += 1
        rid = f"{self.name}-{self._next_id}"
        self.mark = len(self.messages)
        self.send(json.dumps({"id": rid, "cmd": cmd}))
        return self.wait_for(lambda m: m.get("id") == rid, timeout)

    def read(self, timeout: float) -> list[dict[str, Any]]:
        """Read what has arrived (waiting at most ``timeout``); every line must be one JSON object."""
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(1 << 16)
        except (TimeoutError, BlockingIOError):
            return []
        if not chunk:
            raise ConnectionError(f"{self.name}: connection closed")
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        new = []
        for line in lines:
            line = line.rstrip(b"\r")
            if not line:
                continue
            self.raw.append(line)
            if line.startswith(b"{"):
                new.append(json.loads(line))
            elif self.of_type("welcome"):
                raise AssertionError(f"non-JSON line in JSON mode: {line!r}")
        self.messages.extend(new)
        return new

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30.0, since: int | None = None
    ) -> dict[str, Any]:
        """The first message from index ``since`` on (default: from now) that matches, waiting for it."""
        seen = len(self.messages) if since is None else since
        deadline = time.monotonic() + timeout
        while True:
            for m in self.messages[seen:]:
                if pred(m):
                    return m
            seen = len(self.messages)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no matching message; last: {self.messages[-5:]}")
            self.read(min(left, 0.5))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    def last_state(self) -> dict[str, Any] | None:
        states = self.of_type("state")
        return states[-1] if states else None

    def register(self, password: str) -> dict[str, Any]:
        """``/register`` this name with ``password``, answering the ``password`` messages (asked twice); the
        reply to the second answer (``ok``, or the error) is returned."""
        assert self.request("/register")["type"] == "ok"
        self.wait_for(lambda m: m["type"] == "password", since=0)
        self.send(password)
        self.wait_for(lambda m: m["type"] == "password" and m["prompt"] == "Again", since=0)
        self.send(json.dumps({"id": "again", "cmd": password}))
        return self.wait_for(lambda m: m.get("id") == "again", since=0)

    def close(self) -> None:
        self.sock.close()


def pick_command(legal: list[str], rng: random.Random) -> str:
    """A random legal command, but like a person: play a card rather than draw, and catch nobody on a whim."""
    for wanted in (("/play", "/bid", "/pass", "/trump", "/spell", "/karuki", "/ok"), ("/draw", "/keep")):
        best = [c for c in legal if c.startswith(wanted)]
        if best:
            return rng.choice(best)
    return rng.choice(legal)


def play_until_game_end(clients: list[JsonClient], rng: random.Random, limit: int = 5000) -> None:
    """Each client answers its latest state with a random legal command until every client saw game_end."""
    pending: dict[str, str] = {}
    acted_on: dict[str, int] = {}
    for _ in range(limit):
        if all(c.of_type("game_end") for c in clients):
            return
        for c in clients:
            c.read(0.002)
            for m in c.messages[-20:]:
                if m["type"] in ("ok", "error") and m.get("id") is not None and pending.get(c.name) == m["id"]:
                    pending.pop(c.name)
            state = c.last_state()
            if c.name in pending or state is None or not state["legal"]:
                continue
            n_states = len(c.of_type("state"))
            if acted_on.get(c.name) == n_states:
                continue
            acted_on[c.name] = n_states
            cmd = pick_command(state["legal"], rng)
            if cmd == "/start":
                continue
            if cmd == "/pass":  # Witches: the pattern stands for any `count` cards of the hand
                cmd = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
            c._next_id += 1
            rid = f"{c.name}-{c._next_id}"
            pending[c.name] = rid
            c.send(f'{{"id": "{rid}", "cmd": "{cmd}"}}')
    # what each client last saw, so a stuck game can be told from a slow one
    last = {c.name: (c.last_state() or {}) for c in clients}
    seen = {name: {k: s.get(k) for k in ("phase", "turn", "legal", "hand")} for name, s in last.items()}
    tail = {c.name: [m.get("type") for m in c.messages[-8:]] for c in clients}
    raise AssertionError(f"the game did not finish in {limit} reads; last states {seen}; last messages {tail}")


def register(client: JsonClient, password: str) -> None:
    """``/register`` with the password asked twice: the JSON client answers the two ``password`` messages."""
    assert client.register(password)["type"] == "ok"
    client.wait_for(lambda m: m["type"] == "password", since=0)
    client.send(password)
    client.wait_for(lambda m: m["type"] == "password" and m["prompt"] == "Again", since=0)
    client.send(json.dumps({"id": "again", "cmd": password}))
    assert client.wait_for(lambda m: m.get("id") == "again", since=0)["type"] == "ok"
