"""Fuzzing a live server over loopback TCP, while well-behaved clients check that it still serves them.

Shared by ``tests/wire/test_fuzz.py`` (a few seconds) and ``bench/fuzz.py`` (as long as you like); like ``wire.py``,
nothing here imports the server: every client is a raw socket, as a person or a bot would connect.

* **Fuzzing clients** (``run_worker``, one asyncio loop a process, several processes for more load) connect from
  ``127.0.0.2`` upwards, a few connections an address (the server caps connections per address), and take each
  connection through every place a user can be: before the name, in the lobby, seated at a waiting table, in a
  running game (playing real moves in between, so games reach their end), watching, after a game. In each
  place they send a burst of junk in each output mode: random bytes, telnet sequences (whole, truncated,
  malformed), JSON requests (valid, malformed, ~2000 levels deep, wrong types, control characters and bidi in
  ``cmd``), overlong lines, and commands with random arguments. Between bursts they steer with JSON requests
  and wait for the replies. Connections end by ``/quit``, a plain close, a reset, or a drop in the middle of a
  game (sometimes coming back under the same name within the grace period).
* **Well-behaved clients** (``run``, in the calling process): JSON players at two full Wizard tables with bots,
  playing game after game, and a monitor sending ``/who`` and timing each reply. Every request must be
  answered, nobody dropped, every game finished.
* **Afterwards** every table still ``playing`` is watched for a moment: one that no longer moves is stuck.

Every generator is seeded from one number, printed by the callers. The same seed makes each fuzzing client send
the same junk in the same bursts, in the same order; where each burst lands (which place, which connection)
still depends on how the server's answers and the many connections interleave, which varies from run to run.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import re
import socket
import statistics
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

MARKER = b"internal error"  # the server's reply when a command raised something unexpected
MODES = ("ansi", "ascii", "json")
PLACES = ("login", "lobby", "waiting", "playing", "watching", "over")
GAMES = ("wizard", "witches", "tiltowait")
PER_ADDRESS = 12  # connections a fuzzing process opens from one source address at once (the server allows 20)
PRE_LOGIN = 3  # ... of which not yet logged in (the server allows 5)
COOLDOWN = 0.3  # seconds before a closed connection's place on its address is used again
GOOD_ADDRESS = "127.0.0.1"  # the well-behaved clients' address; fuzzing clients never use it

# ---------------------------------------------------------------------------------------------- the junk

IAC, DONT, DO, WONT, WILL, SB, SE, NOP = 255, 254, 253, 252, 251, 250, 240, 241
TELNET_COMMANDS = (239, 241, 242, 243, 244, 245, 246, 247, 248, 249)  # EOR NOP DM BRK IP AO AYT EC EL GA
TELNET_OPTIONS = (0, 1, 3, 5, 24, 31, 32, 33, 34, 36, 39, 42, 255)  # binary echo sga status ttype naws ...
# From any state of a telnet parser back to plain data at the start of a line, without an error and with any
# subnegotiation closed (never empty): a NOP ends an IAC or completes a command, CR LF ends a line, IAC SB NUL
# IAC SE closes (or opens and closes) a subnegotiation, and CR LF ends the line a subnegotiation interrupted.
TELNET_RESET = bytes((NOP,)) + b"\r\n" + bytes((IAC, SB, 0, IAC, SE)) + b"\r\n"

VERBS = {
    "help": 3, "who": 3, "tables": 3, "say": 2, "tell": 2, "mode": 2, "new": 3, "join": 4, "watch": 3, "leave": 0.3,
    "option": 5, "start": 2, "ok": 2, "score": 2, "look": 2, "bot": 4, "bid": 3, "play": 4, "trump": 2, "pass": 2,
    "spell": 1, "draw": 1, "keep": 1, "karuki": 1, "catch": 1,
}
OPTION_NAMES = ("rounds", "hands", "limit", "confirm", "turn", "botdelay", "notequal", "hiddentip", "secretbid",
                "clairvoyance", "tournament", "earth", "", "x", "ROUNDS", "rounds=", "=")
NUMBERS = ("0", "1", "2", "3", "5", "-1", "+1", "01", "007", "99", "-300", "4294967296", "9" * 30, "1e3", "0x1f",
           "1.5", "NaN", "inf", "-0", " 3 ")
UNICODE_DIGITS = ("²", "³", "¹", "٣", "۵", "१", "①", "Ⅻ", "½", "𝟙", "１", "٠", "߂", "፩", "〇")
CARDS = ("R12", "B1", "G14", "Y7", "r3", "Z", "N", "W", "z", "n", "w", "?", "R99", "R0", "R-1", "B", "R١٢", "RR",
         "MILWA", "MAHALITO", "HALITO", "KATINO", "MONTINO", "LOKTOFEIT", "TILTOWAIT", "DUMAPIC", "milwa")
COLOURS = ("B", "G", "R", "Y", "red", "Blue", "green", "YELLOW", "purple", "b")
WORDS = ("add", "remove", "good", "random", "on", "off", "give", "take", "carry", "wizard", "witches", "tiltowait",
         "json", "ascii", "ansi", "all", "me", "bot1", "bot2", "bot9", "nobody", "help", "lobby", "table")
ODD = ("", " ", "=", "==", "%s", "%n", "{}", "{0}", "{name}", "\\", "'", '"', "`", "$(id)", "../..", "None", "null",
       "true", "[]", '{"a":1}', "<b>", "\u202e", "\u2066x\u2069", "\u200b", "\ufeff", "e\u0301", "🂡", "💥",
       "\u0000", "\x1b[31m", "\x7f", "\ud800", "\udfff", "\u2028", "\u0085", "ǅ", "ß", "İ", "ﬃ", "Ω", "\t")
RAW = (b"\xed\xa0\x80", b"\xff\xfe", b"\xc0\xaf", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80", b"\xfe\xff")
ENDS = (b"\r\n",) * 5 + (b"\n",) * 3 + (b"\r\0", b"\r", b"", b"\n\n", b"\r\r\n")


class Fuzz:
    """Junk for one connection: ``line()`` is one item to send (a line, several, or none complete)."""

    def __init__(self, rng: random.Random, names: Iterable[str] = ()) -> None:
        self.rng = rng
        self.names = list(names)  # people to aim /tell, /catch, /bot remove at
        self.tables = list(range(1, 8))  # table numbers worth trying; callers add the real ones
        kinds = {self.command: 34, self.json_request: 18, self.telnet: 11, self.chat: 9, self.garbage: 9,
                 self.overlong: 4, self.mixed: 5, self.deep_json: 0.4, self.empty_subnegotiation: 0.4}
        self._kinds, self._weights = list(kinds), list(kinds.values())

    def line(self) -> bytes:
        return self.rng.choices(self._kinds, self._weights)[0]()

    def seen(self, table: int) -> None:
        """A table that exists: worth aiming /join and /watch at."""
        if table not in self.tables:
            self.tables = [*self.tables[-19:], table]

    # -- words

    def token(self) -> str:
        r = self.rng
        pool = r.choices(
            (NUMBERS, UNICODE_DIGITS, CARDS, COLOURS, WORDS, ODD, OPTION_NAMES, self.names or WORDS, None, None),
            (4, 2, 4, 2, 3, 3, 2, 2, 1, 1))[0]
        if pool is None:
            return str(r.choice(self.tables)) if r.random() < 0.5 else self.random_text(r.randint(1, 12))
        word = r.choice(pool)
        if r.random() < 0.05:
            word = word * r.randint(2, 200)
        return word

    def random_text(self, n: int) -> str:
        r = self.rng
        alphabet = r.choice(("abcdefghijklmnopqrstuvwxyz0123456789_-", "aé€😀\u202e\u0301ǅ\u00a0 x",
                             "".join(map(chr, range(32, 127)))))
        return "".join(r.choice(alphabet) for _ in range(n))

    def end(self) -> bytes:
        return self.rng.choice(ENDS)

    def encode(self, text: str) -> bytes:
        data = text.encode("utf-8", errors="surrogatepass")  # a lone surrogate becomes invalid UTF-8, as wanted
        r = self.rng
        if r.random() < 0.08:  # damage a few bytes
            data = bytearray(data)
            for _ in range(r.randint(1, 3)):
                at = r.randint(0, len(data))
                data[at:at] = r.choice(RAW) if r.random() < 0.7 else bytes([r.randrange(256)])
            data = bytes(data)
        return data

    # -- kinds of item

    def command_text(self) -> str:
        r = self.rng
        if r.random() < 0.003:
            verb = "quit"
        elif r.random() < 0.9:
            verb = r.choices(list(VERBS), list(VERBS.values()))[0]
        else:
            verb = r.choice(("", "/", "jоin", "JOIN", "x", "hel", "modejson", self.random_text(r.randint(1, 8))))
        if r.random() < 0.1:
            verb = verb.upper() if r.random() < 0.5 else verb.capitalize()
        args = self.arguments(verb.lower())
        sep = r.choice((" ", " ", " ", "  ", "\t", " \u00a0"))
        return sep.join(["/" + verb, *args]) if args else "/" + verb

    def arguments(self, verb: str) -> list[str]:
        r = self.rng
        t = self.token
        if r.random() < 0.25:  # anything at all
            return [t() for _ in range(r.randint(0, 4))]
        if verb in ("join", "watch"):
            return [r.choice((str(r.choice(self.tables)), "#" + str(r.choice(self.tables)), r.choice(UNICODE_DIGITS),
                              t()))]
        if verb == "option":
            name = r.choice(OPTION_NAMES)
            value = r.choice((r.choice(NUMBERS), r.choice(UNICODE_DIGITS), "on", "off", "carry", t(), ""))
            return [f"{name}={value}"] if r.random() < 0.3 else [name, value]
        if verb == "bot":
            return [r.choice(("add", "remove", "ADD", t())), r.choice(("random", "good", "bot1", "bot2", t()))]
        if verb in ("play", "pass"):
            return [r.choice(CARDS) for _ in range(r.randint(1, 5 if verb == "pass" else 3))]
        if verb == "bid":
            return [r.choice((r.choice(NUMBERS), r.choice(UNICODE_DIGITS)))]
        if verb == "trump":
            return [r.choice(COLOURS + UNICODE_DIGITS)]
        if verb in ("tell", "catch"):
            return [r.choice(self.names or ["nobody"]), self.random_text(r.randint(1, 30))]
        if verb == "mode":
            return [r.choice(("json", "ascii", "ansi", "JSON", "json ascii", "", t()))]
        if verb in ("help", "new"):
            return [r.choice((*GAMES, *VERBS, "", t()))]
        return [t() for _ in range(r.randint(0, 2))]

    def command(self) -> bytes:
        return self.encode(self.command_text()) + self.end()

    def chat(self) -> bytes:
        r = self.rng
        words = [r.choice((self.random_text(r.randint(1, 10)), self.token())) for _ in range(r.randint(1, 8))]
        return self.encode(" ".join(words)) + self.end()

    def json_value(self, depth: int = 0) -> Any:
        r = self.rng
        kind = r.randrange(9 if depth < 3 else 6)
        if kind == 0:
            return r.choice((0, -1, 2**63, 10**30, 1.5, 1e308, -0.0))
        if kind == 1:
            return self.random_text(r.randint(0, 12))
        if kind == 2:
            return r.choice((True, False, None))
        if kind in (3, 4, 5):
            return r.choice((r.randint(0, 99), self.token()))
        if kind in (6, 7):
            return [self.json_value(depth + 1) for _ in range(r.randint(0, 3))]
        return {self.random_text(r.randint(0, 5)): self.json_value(depth + 1) for _ in range(r.randint(0, 3))}

    def json_request(self) -> bytes:
        r = self.rng
        request: dict[str, Any] = {}
        if r.random() < 0.9:
            request["id"] = self.json_value()
        shape = r.random()
        if shape < 0.55:
            request["cmd"] = self.command_text()
        elif shape < 0.7:  # control characters, line breaks, bidi and friends inside cmd
            text = self.command_text()
            at = r.randint(0, len(text))
            request["cmd"] = text[:at] + r.choice(("\n", "\r", "\r\n", "\u0000", "\x1b[2J", "\u202e", "\u2028",
                                                   "\u0085", "\x08" * 5, "\u2066", "\ufeff")) + text[at:]
        elif shape < 0.85:  # the wrong type
            request["cmd"] = r.choice((5, None, True, [], {}, ["/who"], 1.5, {"cmd": "/who"}, self.json_value()))
        elif shape < 0.9:
            pass  # no cmd at all
        else:
            request["cmd"] = self.chat().decode("utf-8", errors="replace").rstrip("\r\n\0")
        if r.random() < 0.1:
            request[r.choice(("x", "cmd ", "ID", ""))] = self.json_value()
        text = json.dumps(request, ensure_ascii=r.random() < 0.5)
        damage = r.random()
        if damage < 0.1:
            text = text[: r.randint(1, max(1, len(text) - 1))]  # truncated
        elif damage < 0.15:
            text += r.choice(("}", "]", ",", " x", "{}"))
        elif damage < 0.2:
            text = text.replace('"', "'")
        elif damage < 0.23:
            text = r.choice(("{", "{}", "{]", '{"cmd"}', '{"cmd":}', '{"id":NaN,"cmd":"/who"}', "{\"cmd\":\"/who\"",
                             '{"cmd":"/who","cmd":"/tables"}', '{"id":1e999,"cmd":"/who"}', ' {"cmd":"/who"}',
                             '{"cmd":"\\ud800"}', '{"cmd":"/who"} {"cmd":"/tables"}', "{" + "9" * 4000 + "}",
                             '{"id":' + "9" * 4000 + ',"cmd":"/who"}'))
        return self.encode(text) + self.end()

    def deep_json(self) -> bytes:
        """A request nested far deeper than a JSON reader's recursion allows, short enough to be read."""
        r = self.rng
        depth = r.randint(900, 2030)
        where = r.random()
        if where < 0.5:
            text = '{"id":1,"cmd":"/who","x":' + "[" * depth + "]" * depth + "}"
        elif where < 0.75:
            text = '{"cmd":"/who","id":' + "[" * depth + "]" * depth + "}"
        else:
            depth = min(depth, 800)
            text = '{"cmd":' + '{"a":' * depth + "1" + "}" * depth + "}"
        return text.encode() + self.end()

    def telnet_sequence(self) -> bytes:
        r = self.rng
        option = bytes([r.choice(TELNET_OPTIONS) if r.random() < 0.7 else r.randrange(256)])
        payload = bytes(r.randrange(256) for _ in range(r.randint(0, 40))).replace(b"\xff", b"\xff\xff")
        kind = r.randrange(14)
        if kind < 4:
            return bytes([IAC, r.choice((WILL, WONT, DO, DONT))]) + option
        if kind == 4:
            return bytes([IAC, SB]) + option + payload + bytes([IAC, SE])
        if kind == 5:  # NAWS, of the right length or not
            size = bytes(r.randrange(256) for _ in range(r.choice((4, 4, 0, 2, 5, 9))))
            return bytes([IAC, SB, 31]) + size.replace(b"\xff", b"\xff\xff") + bytes([IAC, SE])
        if kind == 6:  # truncated: an open subnegotiation (the reset before the next steering closes it)
            return bytes([IAC, SB]) + option + payload[: r.randint(0, len(payload))]
        if kind == 7:
            return bytes([IAC])
        if kind == 8:
            return bytes([IAC, r.randrange(256)])
        if kind == 9:
            return bytes([IAC, IAC])
        if kind == 10:
            return bytes([IAC, r.choice(TELNET_COMMANDS)])
        if kind == 11:
            return bytes([IAC, SE])
        if kind == 12:
            return bytes([IAC, SB]) + option + payload + bytes([IAC, r.randrange(256)])
        return b"".join(bytes([IAC, r.choice((WILL, WONT, DO, DONT)), r.randrange(256)]) for _ in range(50))

    def telnet(self) -> bytes:
        r = self.rng
        seq = b"".join(self.telnet_sequence() for _ in range(r.randint(1, 3)))
        where = r.random()
        if where < 0.4:
            return seq
        text = self.encode(self.command_text() if r.random() < 0.6 else self.random_text(r.randint(1, 20)))
        if where < 0.7:
            return seq + text + self.end()
        at = r.randint(0, len(text))
        return text[:at] + seq + text[at:] + self.end()

    def empty_subnegotiation(self) -> bytes:
        """IAC SB IAC SE: a subnegotiation with not even an option byte."""
        return bytes([IAC, SB, IAC, SE]) + (b"" if self.rng.random() < 0.5 else self.command())

    def garbage(self) -> bytes:
        r = self.rng
        n = r.randint(1, 300)
        if r.random() < 0.5:
            return r.randbytes(n)
        return self.encode(self.random_text(n)) + self.end()

    def overlong(self) -> bytes:
        r = self.rng
        n = r.choice((4095, 4096, 4097, 4100, r.randint(4097, 12000), r.randint(12000, 40000)))
        fill = r.choice((b"a", b"/who ", "é".encode(), b"{", b"\0", r.randbytes(1), b"\r\0"))
        if fill == b"\r\0":  # not one long line but thousands of empty ones: each gets its reply
            n = min(n, 4100)
        body = (fill * (n // len(fill) + 1))[:n]
        if r.random() < 0.2:
            body = b'{"id":1,"cmd":"/say ' + body + b'"}'
        return body + r.choice((b"\r\n", b"\n", b"", b"\r\n/who\r\n"))

    def mixed(self) -> bytes:
        """Several items glued together, the line ends between them chosen at random."""
        return b"".join(self.rng.choice((self.command, self.telnet, self.chat, self.garbage))().rstrip(b"\r\n")
                        + self.end() for _ in range(self.rng.randint(2, 4)))


# ---------------------------------------------------------------------------------------------- connections


class Lost(Exception):
    """The connection is gone, or the server stopped answering it: this client starts over."""


class TelnetState:
    """Where the server's telnet parser is after reading what we sent, as far as a client can tell: a stray IAC
    makes it drop the rest of what it read at once, which a client cannot see; but when this says plain data,
    the server is in plain data too."""

    def __init__(self) -> None:
        self.state = "data"
        self.held = 0  # bytes of the open subnegotiation
        self.overflow = False  # a subnegotiation grew past what the server buffers: it closes the connection
        self.stumbled = False  # an IAC before a byte that is no telnet command: the server drops the rest it read

    def feed(self, data: bytes) -> None:
        if self.state == "data" and IAC not in data:
            if data:
                self.state = "newline" if data.endswith(b"\r") else "data"
            return
        state = self.state
        for b in data:
            if state == "data":
                state = "escaped" if b == IAC else "newline" if b == 13 else "data"
            elif state == "escaped":
                state = "sub" if b == SB else "command" if b in (WILL, WONT, DO, DONT) else "data"
                self.stumbled = self.stumbled or not (b in (IAC, SB, WILL, WONT, DO, DONT) or b in TELNET_COMMANDS)
                self.held = 0
            elif state == "command":
                state = "data"
            elif state == "newline":
                state = "escaped" if b == IAC else "data"
            elif state == "sub":
                if b == IAC:
                    state = "subescaped"
                else:
                    self.held += 1
            elif state == "subescaped":
                state = "data" if b == SE else "sub"
                self.held += b != SE
            if self.held >= 4096:
                self.overflow = True
        self.state = state

    def reset(self) -> bytes:
        """Bytes that end any line and any telnet sequence in progress, without an error."""
        reset = b"\r\n" if self.state in ("data", "newline") else TELNET_RESET
        self.state, self.stumbled = "data", False
        return reset


class Conn:
    """A raw TCP connection: bytes out, and in, each line checked for ``MARKER`` and read as JSON when it is."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, label: str, source: str,
                 strict: bool = False) -> None:
        self.reader, self.writer = reader, writer
        self.label, self.source = label, source
        self.strict = strict  # a well-behaved JSON client: after the welcome every line must be one JSON object
        self.messages: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.closed = False
        self.closing = False  # we asked for the end (``/quit``, a close): the server closing is no surprise
        self.welcomed = False
        self.sent: deque[bytes] = deque(maxlen=64)  # the last items sent: the culprit is among them, if any
        self.internal: list[tuple[bytes, list[bytes]]] = []  # (the line with MARKER, what was sent before it)
        self.bad_lines: list[bytes] = []  # strict clients: lines that were not one JSON object
        self.telnet = TelnetState()
        self.quit_sent = False  # some junk may have said /quit
        self.last_heard = self.last_state_at = time.monotonic()
        self.closed_at = 0.0  # time.time() when the connection ended
        self.counts: Counter[str] = Counter()  # messages read, by type
        self.asked: dict[str, str] = {}  # our recent request ids -> their commands
        self._ids = 0
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, address: tuple[str, int], source: str, label: str, timeout: float = 10.0,
                   strict: bool = False) -> Conn:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(address[0], address[1], local_addr=(source, 0), limit=1 << 22), timeout)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer, label, source, strict)

    async def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = await self.reader.read(1 << 16)
                if not chunk:
                    break
                self.last_heard = time.monotonic()
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                if len(buffer) > 1 << 16:  # no line end in sight (the server never sends that much of one)
                    buffer = buffer[-4096:]
                for line in lines:
                    self._line(line.rstrip(b"\r"))
                self.changed.set()
        except (ConnectionError, OSError):
            pass
        finally:
            if MARKER in buffer and not self.strict:  # the last words of a connection the server closed
                self._line(buffer)
            self.closed = True
            self.closed_at = time.time()
            self.changed.set()

    def _line(self, line: bytes) -> None:
        if MARKER in line:
            ours = re.search(rb'"id":"(@[^"]*)"', line)
            asked = self.asked.get(ours.group(1).decode(errors="replace")) if ours else None
            self.internal.append((line[:300], [asked.encode()] if asked else list(self.sent)))
        if self.strict and self.welcomed:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if not isinstance(message, dict) or "type" not in message:
                if line.strip():
                    self.bad_lines.append(line[:300])
                return
            self.add(message)
            return
        start = line.find(b"{")
        if start < 0 or b'"type"' not in line:
            return
        try:
            message = json.loads(line[start:])
        except ValueError:
            return
        if isinstance(message, dict) and isinstance(message.get("type"), str):
            if message["type"] == "welcome":
                self.welcomed = True
            self.add(message)

    def add(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.counts[message["type"]] += 1
        if message["type"] == "state":
            self.last_state_at = time.monotonic()

    async def send(self, data: bytes, junk: bool = False) -> None:
        if self.closed:
            raise Lost("closed")
        if junk:
            self.sent.append(data)
            self.quit_sent = self.quit_sent or b"quit" in data.lower()
        self.telnet.feed(data)
        self.writer.write(data)
        try:
            await asyncio.wait_for(self.writer.drain(), 20)
        except (TimeoutError, ConnectionError, OSError) as exc:
            raise Lost(f"send: {exc!r}") from None

    def next_id(self) -> str:
        self._ids += 1
        return f"@{self.label}:{self._ids}"

    async def request(self, cmd: str, timeout: float = 10.0) -> dict[str, Any] | None:
        """Send ``{"id", "cmd"}``; the ``ok``/``error`` reply with that id, or None if none came in time."""
        rid = self.next_id()
        since = len(self.messages)
        self.asked[rid] = cmd
        if len(self.asked) > 50:
            del self.asked[next(iter(self.asked))]
        await self.send(json.dumps({"id": rid, "cmd": cmd}).encode() + b"\r\n")
        return await self.wait_for(lambda m: m.get("id") == rid and m["type"] in ("ok", "error"), since, timeout)

    async def wait_for(self, match: Callable[[dict[str, Any]], bool], since: int,
                       timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while True:
            for m in self.messages[since:]:
                if match(m):
                    return m
            since = len(self.messages)
            left = deadline - time.monotonic()
            if self.closed or left <= 0:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    def last(self, kind: str, since: int = 0) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages[since:]) if m["type"] == kind), None)

    def forget(self) -> None:
        """Drop the messages read so far but the last state (long-lived clients; with no wait in progress)."""
        state = self.last("state")
        self.messages[:] = [state] if state else []

    async def close(self, how: str = "close") -> None:
        self.closing = True
        try:
            if how == "reset":
                sock = self.writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                self.writer.transport.abort()
            else:
                self.writer.close()
        except OSError:
            pass
        try:
            await asyncio.wait_for(self._task, 5)
        except (TimeoutError, asyncio.CancelledError):
            self._task.cancel()


# ---------------------------------------------------------------------------------------------- fuzzing clients


class Slots:
    """Which source address a new connection comes from, keeping each under the server's per-address caps."""

    def __init__(self, addresses: list[str]) -> None:
        self.addresses = addresses
        self.open: Counter[str] = Counter()
        self.anonymous: Counter[str] = Counter()  # open and not (known to be) logged in

    async def take(self) -> str:
        while True:
            free = [a for a in self.addresses if self.open[a] < PER_ADDRESS and self.anonymous[a] < PRE_LOGIN]
            if free:
                address = min(free, key=lambda a: (self.open[a], self.anonymous[a]))
                self.open[address] += 1
                self.anonymous[address] += 1
                return address
            await asyncio.sleep(0.02)

    def logged_in(self, address: str) -> None:
        self.anonymous[address] -= 1

    def give_back(self, address: str, logged_in: bool) -> None:
        def free() -> None:
            self.open[address] -= 1
            if not logged_in:
                self.anonymous[address] -= 1

        asyncio.get_running_loop().call_later(COOLDOWN, free)


@dataclass
class WorkerPlan:
    address: tuple[str, int]
    seed: int
    worker: int
    clients: int
    lines: int
    seconds: float
    sources: list[str]
    names: list[str]  # the well-behaved clients' names, for /tell and friends
    burst: float = 6.0  # junk lines in a burst, on average


class Worker:
    """One process's fuzzing clients, on one asyncio loop."""

    def __init__(self, plan: WorkerPlan) -> None:
        self.plan = plan
        self.slots = Slots(plan.sources)
        self.stats: Counter[str] = Counter()
        self.coverage: Counter[str] = Counter()  # "place/mode" -> junk bursts sent there
        self.findings: list[dict[str, Any]] = []
        self.open_tables: dict[int, int] = {}  # a host's table -> seats it keeps for other fuzzing clients
        self.deadline = self.last_end = 0.0

    def going(self) -> bool:
        """Until the lines or the time are spent; past the time (at most as long again) while some place and mode
        has had no junk yet: a flooder's lines are read at its line rate, and on a busy machine a short run could
        end before a rare place (watching, say) came up at all."""
        if self.stats["lines"] >= self.plan.lines:
            return False
        now = time.monotonic()
        if now >= self.deadline and now < self.last_end and not self.everywhere():
            self.deadline = min(now + 1, self.last_end)
        return now < self.deadline

    def everywhere(self) -> bool:
        return all(self.coverage[f"{place}/{mode}"] for place in PLACES for mode in MODES)

    def time_left(self, wanted: float) -> float:
        """A wait of ``wanted`` seconds, shortened once the run is over (then at most 1 s, to finish cleanly)."""
        return max(0.1, min(wanted, self.deadline - time.monotonic() + 1))

    async def run(self) -> dict[str, Any]:
        self.deadline = time.monotonic() + self.plan.seconds
        self.last_end = self.deadline + self.plan.seconds
        started = time.monotonic()
        await asyncio.gather(*(self.client(i) for i in range(self.plan.clients)))
        return {"stats": dict(self.stats), "coverage": dict(self.coverage), "findings": self.findings,
                "seconds": time.monotonic() - started}

    # -- one fuzzing client: connection after connection

    async def client(self, index: int) -> None:
        rng = random.Random(f"{self.plan.seed}/{self.plan.worker}/{index}")  # steering: follows the server
        fuzz = Fuzz(random.Random(f"{self.plan.seed}/{self.plan.worker}/{index}/junk"), self.plan.names)
        life, comeback = 0, None
        while self.going():
            life += 1
            name = comeback or f"fz{self.plan.worker}x{index}y{life}"
            try:
                comeback = await self.life(rng, fuzz, name[:16], returning=comeback is not None)
            except Exception:  # a bug here must not look like the server's
                self.stats["client bugs"] += 1
                self.findings.append({"kind": "fuzzing client failed", "what": traceback.format_exc(limit=-3),
                                      "when": time.time(), "source": "", "inputs": []})
                comeback = None

    async def life(self, rng: random.Random, fuzz: Fuzz, name: str, returning: bool) -> str | None:
        """One connection, from connect to close; returns a name to come back under, if it dropped to do so."""
        source = await self.slots.take()
        logged_in = False
        try:
            conn = await Conn.open(self.plan.address, source, name)
        except (TimeoutError, OSError):
            self.stats["connect failures"] += 1
            self.slots.give_back(source, False)
            await asyncio.sleep(0.2)
            return None
        self.stats["connections"] += 1
        ending, comeback = rng.choice(("quit", "close", "close", "reset")), None
        try:
            if not returning:
                await self.stage(conn, rng, fuzz, "login")
            if not await self.login(conn, name):
                return None
            logged_in = True
            self.slots.logged_in(source)
            comeback, ending = await self.logged_in(conn, rng, fuzz, returning)
        except Lost:
            pass
        finally:
            self.note_trouble(conn)
            if not conn.closed:
                if ending == "quit" and not comeback:
                    try:
                        await conn.send(b"/quit\r\n")
                        await conn.wait_for(lambda m: False, len(conn.messages), 0.5)
                    except Lost:
                        pass
                await conn.close("reset" if comeback else ending)
            self.slots.give_back(source, logged_in)
        return comeback

    async def logged_in(self, conn: Conn, rng: random.Random, fuzz: Fuzz,
                        returning: bool) -> tuple[str | None, str]:
        """Lobby, then a role; returns (a name to come back under or None, how to end the connection)."""
        if returning:  # back from a drop: the seat is handed back with a fresh state
            outcome = await self.play(conn, rng, fuzz)
        else:
            await self.stage(conn, rng, fuzz, "lobby")
            role = rng.random()
            if role < 0.3 and any(n > 0 for n in self.open_tables.values()):
                outcome = await self.join(conn, rng, fuzz)
            elif role < 0.75:
                outcome = await self.host(conn, rng, fuzz)
            elif role < 0.95:
                outcome = await self.watch(conn, rng, fuzz)
            else:
                outcome = "lobby"
        if outcome.startswith("drop"):
            self.stats[outcome] += 1
            return (conn.label if outcome == "drop to come back" else None), "reset"
        if outcome == "over" and self.going():
            await self.stage(conn, rng, fuzz, "over")
            after = rng.random()
            if after < 0.4:
                await self.ask(conn, "/leave")
                self.stats["left a finished table"] += 1
            elif after < 0.55:
                await self.ask(conn, "/start")
                if (await self.play(conn, rng, fuzz)).startswith("drop"):
                    return None, "reset"
        return None, rng.choice(("quit", "close", "close", "reset"))

    def note_trouble(self, conn: Conn) -> None:
        for line, inputs in conn.internal:
            self.findings.append({"kind": "internal error", "what": line, "when": time.time(),
                                  "source": conn.source, "inputs": inputs})
        if conn.closed and not conn.closing and not conn.quit_sent and not conn.telnet.overflow:
            self.stats["closed by the server"] += 1
            self.findings.append({"kind": "closed by the server", "what": b"", "when": conn.closed_at,
                                  "source": conn.source, "inputs": list(conn.sent)})

    # -- steering

    async def sync(self, conn: Conn) -> None:
        tries = await sync(conn, self.time_left)
        self.stats["steering lines"] += tries
        self.stats["steering retries"] += tries - 1

    async def ask(self, conn: Conn, cmd: str, timeout: float = 10.0) -> dict[str, Any]:
        self.stats["steering lines"] += 1
        reply = await conn.request(cmd, self.time_left(timeout))
        if reply is None:
            raise Lost(f"no reply to {cmd}")
        return reply

    async def look(self, conn: Conn) -> dict[str, Any] | None:
        """The state of this connection's table, or None in the lobby."""
        since = len(conn.messages)
        await self.ask(conn, "/look")
        return conn.last("state", since)

    @staticmethod
    def place(state: dict[str, Any] | None) -> str:
        if state is None:
            return "lobby"
        if state.get("observer"):
            return "watching"
        return {"waiting": "waiting", "over": "over"}.get(state.get("status", ""), "playing")

    async def stage(self, conn: Conn, rng: random.Random, fuzz: Fuzz, place: str | None = None,
                    modes: tuple[str, ...] = MODES) -> None:
        """A burst of junk in each of ``modes``, from where the connection is (looked up if not given)."""
        for mode in rng.sample(modes, len(modes)):
            if not self.going():
                return
            here = place or self.place(await self.look(conn))
            self.coverage[f"{here}/{mode}"] += 1
            await conn.send(f"/mode {mode}\r\n".encode())
            for _ in range(min(int(fuzz.rng.expovariate(1 / self.plan.burst)) + 1, int(10 * self.plan.burst))):
                if self.stats["lines"] >= self.plan.lines:
                    break
                self.stats["lines"] += 1  # counted before the send waits, so that clients stop at the budget
                await conn.send(fuzz.line(), junk=True)
            await self.sync(conn)

    async def login(self, conn: Conn, name: str) -> bool:
        await self.sync(conn)
        for _ in range(5):
            since = len(conn.messages)
            await conn.send(json.dumps({"id": conn.next_id(), "cmd": name}).encode() + b"\r\n")
            self.stats["steering lines"] += 1
            reply = await self.ask(conn, "/who")  # refused before the name, answered after
            if reply["type"] == "ok":
                if not conn.last("welcome", since):
                    self.stats["logged in by junk"] += 1
                return True
            await asyncio.sleep(0.2)  # the name is still taken (our own dropped connection, not yet noticed)
        return False

    # -- roles

    async def host(self, conn: Conn, rng: random.Random, fuzz: Fuzz) -> str:
        game = rng.choices(GAMES, (6, 2, 2))[0]
        since = len(conn.messages)
        if (await self.ask(conn, f"/new {game}"))["type"] != "ok":
            return "lobby"
        state = conn.last("state", since)
        if state is None:
            return "lobby"
        table = state["table"]
        fuzz.seen(table)
        self.stats["tables opened"] += 1
        self.open_tables[table] = rng.choice((0, 0, 1, 2))
        try:
            await self.stage(conn, rng, fuzz, None)
            length = {"wizard": "rounds 2", "witches": "hands 1", "tiltowait": "hands 1"}[game]
            for option in (length, f"confirm {rng.choice((0, 0, 1))}", "botdelay 0"):
                await self.ask(conn, f"/option {option}")
            waited = time.monotonic() + 1.0
            while self.open_tables.get(table, 0) > 0 and time.monotonic() < waited:
                await asyncio.sleep(0.05)
        finally:
            self.open_tables.pop(table, None)
        state = await self.look(conn)
        if state is None or state.get("status") != "waiting":
            return await self.play(conn, rng, fuzz)
        for _ in range(max(0, 3 - len(state["players"])) + rng.choice((0, 0, 1))):
            await self.ask(conn, f"/bot add {'good' if rng.random() < 0.1 else 'random'}")
        await self.ask(conn, "/start")
        return await self.play(conn, rng, fuzz)

    async def join(self, conn: Conn, rng: random.Random, fuzz: Fuzz) -> str:
        tables = [t for t, n in self.open_tables.items() if n > 0]
        if not tables:
            return "lobby"
        table = rng.choice(tables)
        self.open_tables[table] -= 1
        fuzz.seen(table)
        if (await self.ask(conn, f"/join {table}"))["type"] != "ok":
            return "lobby"
        self.stats["tables joined"] += 1
        await self.stage(conn, rng, fuzz, None)
        return await self.play(conn, rng, fuzz)

    async def watch(self, conn: Conn, rng: random.Random, fuzz: Fuzz) -> str:
        since = len(conn.messages)
        await self.ask(conn, "/tables")
        listing = conn.last("tables", since)
        ids = [t["id"] for t in listing["tables"]] if listing else []
        for t in ids[-5:]:
            fuzz.seen(t)
        if not ids:
            return "lobby"
        if (await self.ask(conn, f"/watch {rng.choice(ids)}"))["type"] != "ok":
            return "lobby"
        self.stats["tables watched"] += 1
        await self.stage(conn, rng, fuzz, "watching")
        if rng.random() < 0.5:
            await self.ask(conn, "/leave")
        return "watched"

    async def play(self, conn: Conn, rng: random.Random, fuzz: Fuzz) -> str:
        """Play real moves (and junk in between) until the game is over: "over", "lobby", or a drop."""
        state = await self.look(conn)
        idle = 0.0
        while self.going():
            if state is None:
                return "lobby"
            status = state.get("status")
            if status == "over":
                self.stats["games to the end"] += 1
                return "over"
            legal = [c for c in state.get("legal", []) if c != "/start"]
            if status == "playing" and legal:
                idle = 0.0
                if "/ok" in legal and state.get("table_options", {}).get("confirm") == 0 and rng.random() < 0.3:
                    return "drop at round end"  # the table must not wait for ever for our /ok
                chance = rng.random()
                if chance < 0.01:
                    return "drop to come back"
                if chance < 0.2:
                    await self.stage(conn, rng, fuzz, "playing", (rng.choice(MODES),))
                    state = await self.look(conn)
                    continue
                since = len(conn.messages)
                if (await self.ask(conn, move(legal, state, rng)))["type"] == "error":
                    self.stats["legal moves refused"] += 1  # junk may have changed the table since that state
                    state = await self.look(conn)
                else:
                    state = conn.last("state", since) or state
                continue
            # someone else's turn (or the host has yet to start): wait for the table to move
            since = len(conn.messages)
            started = time.monotonic()
            news = await conn.wait_for(lambda m: m["type"] in ("state", "left"), since, self.time_left(2.0))
            idle += time.monotonic() - started
            if conn.closed:
                raise Lost("closed")
            if news is None or news["type"] == "left" or idle > 2:
                state = await self.look(conn)
                if idle > 6 and state is not None and state.get("status") == "waiting":
                    return "lobby"  # nobody starts this table
            else:
                state = conn.last("state", since) or state
        return "out of time"


async def sync(conn: Conn, limit: Callable[[float], float] = lambda wait: wait) -> int:
    """Bring a connection back to a known footing (the telnet parser in plain data, JSON mode) and wait for the
    server to say so; returns how many tries it took. A try can vanish (a stray IAC in the junk before it makes
    the server drop the rest of that read), so tries are repeated, each waiting longer; any answer will do."""
    ids: set[str] = set()
    since = len(conn.messages)
    if conn.telnet.stumbled:  # let the server read what went before on its own, so the rest is not dropped with it
        await asyncio.sleep(0.01)
    for tries, wait in enumerate((0.25, 0.5, 1.0, 2.0, 4.0, 8.0), 1):
        rid = conn.next_id()
        ids.add(rid)
        await conn.send(conn.telnet.reset() + json.dumps({"id": rid, "cmd": "/mode json"}).encode() + b"\r\n")
        if await conn.wait_for(lambda m: isinstance(m.get("id"), str) and m["id"] in ids, since, limit(wait)):
            return tries
        if conn.closed:
            raise Lost("closed")
    raise Lost("no answer")


def move(legal: list[str], state: dict[str, Any], rng: random.Random) -> str:
    """A random legal command, preferring to play on; Witches' ``/pass`` pattern names real cards."""
    for wanted in (("/play", "/bid", "/pass", "/trump", "/spell", "/karuki", "/ok"), ("/draw", "/keep")):
        best = [c for c in legal if c.startswith(wanted)]
        if best:
            break
    else:
        best = legal
    cmd = rng.choice(best)
    if cmd == "/pass":
        cmd = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
    return cmd


def run_worker(plan: WorkerPlan) -> dict[str, Any]:
    """One fuzzing process: ``plan.clients`` clients until ``plan.lines`` junk lines or ``plan.seconds``."""
    return asyncio.run(Worker(plan).run())


# ---------------------------------------------------------------------------------------------- well-behaved clients

REPLY_TIMEOUT = 15.0  # seconds a well-behaved client waits for any one reply before it counts as unanswered
STALL = 15.0  # seconds a running game may go without a new state before it counts as stalled


async def login_json(address: tuple[str, int], name: str) -> Conn:
    """A well-behaved JSON client on ``GOOD_ADDRESS``, logged in (after the welcome, every line is JSON)."""
    conn = await Conn.open(address, GOOD_ADDRESS, name, strict=True)
    await conn.send(f"/mode json\r\n{name}\r\n".encode())
    if await conn.wait_for(lambda m: m["type"] == "welcome", 0, 20) is None:
        raise RuntimeError(f"{name} could not log in: {conn.messages[-3:]}")
    return conn


@dataclass
class Behaviour:
    """What the well-behaved clients went through."""

    dropped: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    bad_lines: list[str] = field(default_factory=list)
    stalls: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)  # table host -> games finished
    latencies: list[float] = field(default_factory=list)  # the monitor's /who round trips, seconds


class GoodTable:
    """People (JSON clients) and random bots filling every seat of a Wizard table, playing game after game."""

    def __init__(self, address: tuple[str, int], names: list[str], seed: int, behaviour: Behaviour) -> None:
        self.address, self.names, self.behaviour = address, names, behaviour
        self.rng = random.Random(f"{seed}/good/{names[0]}")
        self.conns: list[Conn] = []
        self.table = 0

    async def open(self) -> None:
        self.conns = [await login_json(self.address, n) for n in self.names]
        host = self.conns[0]
        since = len(host.messages)
        await self.must(host, "/new wizard")
        self.table = host.last("state", since)["table"]  # type: ignore[index]
        for c in self.conns[1:]:
            await self.must(c, f"/join {self.table}")
        await self.must(host, "/option rounds 3")
        for _ in range(6 - len(self.conns)):  # every seat taken: nobody else can sit down here
            await self.must(host, "/bot add random")
        await self.must(host, "/start")

    @staticmethod
    async def must(conn: Conn, cmd: str) -> None:
        reply = await conn.request(cmd, REPLY_TIMEOUT)
        if reply is None or reply["type"] != "ok":
            raise RuntimeError(f"{conn.label}: {cmd} -> {reply}")

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(*(self.player(c, i == 0, stop) for i, c in enumerate(self.conns)))

    async def player(self, conn: Conn, host: bool, stop: asyncio.Event) -> None:
        try:
            await self.play(conn, host, stop)
        except Lost:
            self.behaviour.dropped.append(f"{conn.label} (table {self.table})")
        if host:
            self.behaviour.games[conn.label] = conn.counts["game_end"]

    async def play(self, conn: Conn, host: bool, stop: asyncio.Event) -> None:
        b = self.behaviour
        acted: dict[str, Any] | None = None
        stalled = False
        while not stop.is_set():
            if conn.closed:
                raise Lost("closed")
            state = conn.last("state")
            legal = state["legal"] if state else []
            if not (host and state and state["status"] == "over"):
                legal = [c for c in legal if c != "/start"]
            if legal and state is not acted:
                acted = state
                assert state is not None
                cmd = move(legal, state, self.rng)
                reply = await conn.request(cmd, REPLY_TIMEOUT)
                if reply is None and not conn.closed:
                    b.unanswered.append(f"{conn.label}: {cmd}")
                elif reply is not None and reply["type"] == "error":
                    b.errors.append(f"{conn.label}: {cmd} -> {reply['message']}")
            else:
                await conn.wait_for(lambda m: True, len(conn.messages), 0.5)
            if state and state["status"] == "playing" and time.monotonic() - conn.last_state_at > STALL:
                if not stalled:
                    b.stalls.append(f"table {self.table} ({conn.label}): no new state for {STALL:g} s in "
                                    f"phase {state.get('phase')}, waiting for {state.get('waiting')}")
                stalled = True
            if len(conn.messages) > 500:
                conn.forget()

    def close_checks(self) -> None:
        for conn in self.conns:
            self.behaviour.bad_lines += [f"{conn.label}: {line!r}" for line in conn.bad_lines]
            self.behaviour.internal += [f"{conn.label}: {line!r}" for line, _ in conn.internal]


async def monitor(address: tuple[str, int], period: float, stop: asyncio.Event, b: Behaviour) -> None:
    """``/who`` every ``period`` seconds, timing each reply."""
    conn = await login_json(address, "wbmonitor")
    try:
        await ping(conn, period, stop, b)
    except Lost:
        b.dropped.append("wbmonitor")
    finally:
        b.bad_lines += [f"wbmonitor: {line!r}" for line in conn.bad_lines]
        b.internal += [f"wbmonitor: {line!r}" for line, _ in conn.internal]
        await conn.close()


async def ping(conn: Conn, period: float, stop: asyncio.Event, b: Behaviour) -> None:
    while not stop.is_set():
        sent = time.perf_counter()
        reply = await conn.request("/who", REPLY_TIMEOUT)
        if reply is None:
            if conn.closed:
                raise Lost("closed")
            b.unanswered.append("wbmonitor: /who")
        else:
            b.latencies.append(time.perf_counter() - sent)
        conn.forget()
        await asyncio.sleep(max(0.0, period - (time.perf_counter() - sent)))


async def stuck_tables(address: tuple[str, int], skip: set[int], window: float) -> tuple[list[str], Counter[str]]:
    """Watch every table still playing for ``window`` seconds: those that do not move (and have no timer that
    will move them) are stuck. Also counts the tables left, by status."""
    conn = await login_json(address, "wbcheck")
    since = len(conn.messages)
    await conn.request("/tables", REPLY_TIMEOUT)
    listing = conn.last("tables", since)
    await conn.close()
    tables = [t for t in (listing or {"tables": []})["tables"] if t["id"] not in skip]
    left = Counter(t["status"] for t in tables)
    playing = [t for t in tables if t["status"] == "playing"]
    stuck: list[str] = []
    for at in range(0, len(playing), 12):  # 127.0.0.1 stays under the per-address caps: 12 at a time, logged
        batch = playing[at:at + 12]          # in one after the other
        conns = [await login_json(address, f"wbwatch{i}") for i in range(len(batch))]
        found = await asyncio.gather(*(watch_for_progress(c, t, window) for c, t in zip(conns, batch, strict=True)))
        stuck += [s for s in found if s]
    return stuck, left


async def watch_for_progress(conn: Conn, table: dict[str, Any], window: float) -> str | None:
    try:
        since = len(conn.messages)
        reply = await conn.request(f"/watch {table['id']}", REPLY_TIMEOUT)
        state = conn.last("state", since)
        if reply is None or reply["type"] != "ok" or state is None:
            return None  # gone in the meantime
        moved = await conn.wait_for(lambda m: m["type"] in ("state", "left") or "game" in m,
                                    len(conn.messages), window)
        if moved is not None:
            return None
        options = state.get("table_options", {})
        if state.get("phase") == "roundend" and options.get("confirm"):
            return None  # a confirmation timer will move it
        if (options.get("botdelay") or 0) > window * 500:
            return None  # slow bots, by the host's choice
        here = {p["name"] for p in state.get("players", []) if not p.get("bot") and not p.get("away")}
        awaited = set(state.get("waiting") or []) if state.get("phase") != "roundend" else \
            here - set(state.get("confirmed") or [])
        if awaited and awaited <= here:
            return None  # a person still connected is awaited: a fuzzing client's lines may still be waiting
            # their turn under the flood budget (read at its line rate, its close seen after them)
        players = ", ".join(f"{p['name']}{' (bot)' if p.get('bot') else ''}{' (away)' if p.get('away') else ''}"
                            for p in state.get("players", []))
        why = ""
        if state.get("phase") == "roundend" and not any(not p.get("bot") and not p.get("away")
                                                        for p in state.get("players", [])):
            why = " (no person is left to /ok the round, and under confirm=0 no timer ends it)"
        return (f"table {table['id']} ({table['game']}) has not moved for {window:g} s: phase {state.get('phase')}, "
                f"waiting for {state.get('waiting')}, confirmed {state.get('confirmed')}, players {players}, "
                f"table options {options}{why}")
    finally:
        await conn.close()


# ---------------------------------------------------------------------------------------------- the whole run


@dataclass
class LogError:
    """One kind of traceback in the server's log: where it was raised, how often, and the first one's text."""

    exception: str
    where: str
    excerpt: list[str]
    count: int = 1
    command: str = ""  # the log's own words on what failed: "command '/join ²' from bob failed"
    closing: bool = False  # raised while a closed connection was being cleaned up (connectionLost)
    seen: list[tuple[str, float]] = field(default_factory=list)  # (peer address, time) of errors Twisted caught

    @property
    def key(self) -> str:
        return f"{self.exception.split(':')[0]} at {self.where}"


LOG_HEADER = re.compile(r"^(\S+) \[(?:_Telnet,\d+,([\d.]+)|[^\]]*)\] (.*)")


def show(data: bytes, most: int = 160) -> str:
    """Bytes for a failure message: their repr, cut short (saying how long they were)."""
    return repr(data) if len(data) <= most else f"{data[:most]!r}... ({len(data)} bytes)"


def log_errors(log: str) -> list[LogError]:
    """The distinct tracebacks in a server log (twisted.logger's text: a header line, then lines indented by a
    tab), told apart by the exception's type and the innermost frame."""
    from datetime import datetime

    errors: dict[str, LogError] = {}
    for entry in re.split(r"\n(?=\S)", log):
        if "Traceback" not in entry:
            continue
        lines = [line.strip() for line in entry.splitlines() if line.strip()]
        frames = [line for line in lines if line.startswith("File ")]
        error = LogError(lines[-1], frames[-1] if frames else "", [lines[0], *lines[-9:]])
        if error.key in errors:
            error = errors[error.key]
            error.count += 1
        else:
            errors[error.key] = error
            error.closing = "connectionLost" in entry
        header = LOG_HEADER.match(lines[0])
        if header is None:
            continue
        when, source, text = header.groups()
        if text.startswith(("command ", "hint for ")):
            error.command = error.command or text
        elif source and len(error.seen) < 5:
            error.seen.append((source, datetime.fromisoformat(when).timestamp()))
    return list(errors.values())


async def pinpoint(address: tuple[str, int], findings: list[dict[str, Any]], log: Callable[[], str],
                   budget: int = 6) -> dict[str, bytes]:
    """For tracebacks the log does not tie to a command (Twisted caught them: the connection is gone), find
    the input: the connections the server closed near that time, from that address, have their last items
    sent again, one at a time, on a fresh connection, until one raises the same error again."""
    closed = [f for f in findings if f["kind"] == "closed by the server"]
    culprits: dict[str, bytes] = {}
    tried: set[int] = set()
    for error in log_errors(log()):
        if error.command or not error.seen:
            continue
        near = sorted(((abs(f["when"] - at), i) for i, f in enumerate(closed) for source, at in error.seen
                       if f["source"] == source and -1.5 <= f["when"] - at <= 2.5), key=lambda n: n[0])
        for _, i in near:
            if budget <= 0 or error.key in culprits:
                break
            if i in tried:
                continue
            tried.add(i)
            budget -= 1
            found = await replay(address, closed[i]["source"], closed[i]["inputs"], log, f"fzreplay{budget}")
            if found is not None:
                culprits.setdefault(found[1], found[0])
    return culprits


async def replay(address: tuple[str, int], source: str, inputs: list[bytes], log: Callable[[], str],
                 name: str) -> tuple[bytes, str] | None:
    """Send ``inputs`` one by one on a fresh, logged-in connection: the first that makes the server log a
    traceback, and that traceback's key."""
    try:
        conn = await Conn.open(address, source, name)
    except (TimeoutError, OSError):
        return None
    try:
        await sync(conn)
        await conn.send(json.dumps({"id": conn.next_id(), "cmd": name}).encode() + b"\r\n")
        for item in inputs:
            before = len(log())
            await conn.send(item)
            try:
                await sync(conn)
            except Lost:
                pass
            new = log_errors(log()[before:])
            if new:
                return item, new[0].key
            if conn.closed:
                return None
        return None
    except Lost:
        return None
    finally:
        await conn.close()


@dataclass
class Report:
    seed: int
    workers: int
    clients: int
    duration: float = 0.0
    stats: Counter[str] = field(default_factory=Counter)
    coverage: Counter[str] = field(default_factory=Counter)
    findings: list[dict[str, Any]] = field(default_factory=list)
    behaviour: Behaviour = field(default_factory=Behaviour)
    stuck: list[str] = field(default_factory=list)
    tables_left: Counter[str] = field(default_factory=Counter)
    culprits: dict[str, bytes] = field(default_factory=dict)  # traceback key -> the input that raises it again

    def internal_errors(self) -> list[dict[str, Any]]:
        return [f for f in self.findings if f["kind"] == "internal error"]

    def figures(self, log: str) -> list[str]:
        """The run in a few lines, for people (bench/fuzz.py prints these)."""
        s, b = self.stats, self.behaviour
        errors = log_errors(log)
        ms = sorted(1000 * t for t in b.latencies)
        latency = "no replies"
        if ms:
            q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else [ms[0]] * 99
            latency = f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} requests)"
        return [
            f"seed             {self.seed}",
            f"lines sent       {s['lines']} junk + {s['steering lines']} steering "
            f"({self.workers} worker(s), {self.clients} clients)",
            f"connections      {s['connections']} ({s['closed by the server']} closed by the server, "
            f"{s['connect failures']} failed to connect)",
            f"duration         {self.duration:.1f} s ({s['lines'] / max(self.duration, 1e-9):.0f} junk lines/s)",
            f"internal errors  {len(self.internal_errors())} seen by fuzzing clients, {len(b.internal)} by "
            f"well-behaved ones, {log.count('internal error')} in the server log",
            f"tracebacks       {sum(e.count for e in errors)} in the server log ({len(errors)} distinct, "
            f"{len(self.culprits)} of them raised again from the input alone)",
            *(f"                   {e.count:5} x {e.exception[:100]}" for e in errors),
            f"well-behaved     dropped {len(b.dropped)}, unanswered {len(b.unanswered)}, errors {len(b.errors)}, "
            f"stalled {len(b.stalls)}, games finished {sum(b.games.values())}",
            f"monitor /who     {latency}",
            f"fuzzed tables    {s['tables opened']} opened, {s['games to the end']} games played to the end "
            f"by fuzzing clients; left {dict(self.tables_left)}, stuck {len(self.stuck)}",
            f"coverage         {len(self.coverage)}/{len(PLACES) * len(MODES)} places x modes "
            f"({', '.join(f'{k} {v}' for k, v in sorted(self.coverage.items()))})",
        ]

    def problems(self, log: str, alive: bool) -> list[str]:
        """Everything that should not have happened, each with what is known about its cause."""
        b = self.behaviour
        out: list[str] = []
        if not alive:
            out.append("the server process died")
        closed = [f for f in self.findings if f["kind"] == "closed by the server"]
        for e in log_errors(log):
            text = f"{e.count} traceback(s) in the server log ending {e.exception!r}, first:\n    " + \
                "\n    ".join(e.excerpt)
            if e.closing:
                text += f"\n  raised while the server cleaned up after a connection (from {e.seen[0][0]}) closed"
            if e.command:
                text += f"\n  {'also raised by a command' if e.closing else 'offending input'}, as the log says: " \
                    + e.command
            elif e.key in self.culprits:
                text += f"\n  offending input (sent alone again, it raises this again): {show(self.culprits[e.key])}"
            elif not e.closing:
                near = [f for f in closed for source, at in e.seen
                        if f["source"] == source and -1.5 <= f["when"] - at <= 2.5][:2]
                text += "".join(f"\n  maybe one of the last items sent on a connection from {f['source']} that "
                                f"the server closed then: " + " | ".join(show(i) for i in f["inputs"][-3:])
                                for f in near)
            out.append(text)
        if "internal error" in log:
            out.append(f"'internal error' in the server log ({log.count('internal error')} times)")
        seen: set[bytes] = set()
        internal = self.internal_errors()
        for f in internal:
            what = re.sub(rb',?"id":("[^"]*"|[^,}]*)|; you may: [^"]*', b"", f["what"])
            if what in seen:
                continue
            seen.add(what)
            if len(seen) > 3:
                out.append(f"... {len(internal)} internal errors seen by fuzzing clients in all")
                break
            out.append(f"a fuzzing client from {f['source']} received {f['what']!r} in reply to (or after) "
                       + " | ".join(show(i) for i in f["inputs"][-3:]))
        for what, items in (("well-behaved clients dropped", b.dropped), ("requests never answered", b.unanswered),
                            ("well-behaved requests refused", b.errors), ("games stalled", b.stalls),
                            ("non-JSON lines to JSON clients", b.bad_lines),
                            ("internal errors to well-behaved clients", b.internal),
                            ("stuck tables", self.stuck)):
            if items:
                out.append(f"{what}: {len(items)}\n  " + "\n  ".join(items[:5]))
        for host, games in b.games.items():
            if games == 0:
                out.append(f"the well-behaved table of {host} finished no game")
        missing = [f"{p}/{m}" for p in PLACES for m in MODES if f"{p}/{m}" not in self.coverage]
        if missing:
            out.append(f"the fuzzing never reached {', '.join(missing)}")
        bugs = [f["what"] for f in self.findings if f["kind"] == "fuzzing client failed"]
        if bugs:
            out.append(f"fuzzing clients failed {len(bugs)} time(s) (a bug in tests/support/fuzzing.py), "
                       f"first:\n{bugs[0]}")
        return out


def sources_for(workers: int) -> list[list[str]]:
    """Each worker's own source addresses: 127.0.0.2 upwards, at least eight in all, none shared."""
    pool = [f"127.0.0.{i}" for i in range(2, 2 + max(8, workers))]
    return [pool[w::workers] for w in range(workers)]


async def _run(address: tuple[str, int], seed: int, lines: int, clients: int, workers: int, seconds: float,
               grace: float, period: float, window: float, burst: float, log: Callable[[], str] | None) -> Report:
    report = Report(seed, workers, clients)
    b = report.behaviour
    good = [GoodTable(address, ["wbalice", "wbbob"], seed, b), GoodTable(address, ["wbcarol"], seed, b)]
    for t in good:
        await t.open()
    names = [n for t in good for n in t.names]
    stop = asyncio.Event()
    watchers = [asyncio.create_task(t.run(stop)) for t in good]
    watchers.append(asyncio.create_task(monitor(address, period, stop, b)))
    plans = [WorkerPlan(address, seed, w, clients // workers + (w < clients % workers),
                        lines // workers + (w < lines % workers), seconds, src, names, burst)
             for w, src in enumerate(sources_for(workers))]
    started = time.monotonic()
    loop = asyncio.get_running_loop()
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = await asyncio.gather(*(loop.run_in_executor(pool, run_worker, p) for p in plans))
        report.duration = time.monotonic() - started
        for r in results:
            report.stats.update(r["stats"])
            report.coverage.update(r["coverage"])
            report.findings += r["findings"]
        await asyncio.sleep(grace + 0.5)  # every fuzzing client is gone: kept seats go to stand-ins
        try:
            report.stuck, report.tables_left = await stuck_tables(address, {t.table for t in good}, window)
            if log is not None:
                report.culprits = await pinpoint(address, report.findings, log)
        except (OSError, RuntimeError) as exc:  # the server is gone, or refuses us: say so, with the rest
            report.stuck.append(f"the tables could not be checked: {exc!r}")
    finally:
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
        for t in good:
            t.close_checks()
            for c in t.conns:
                await c.close()
    return report


def run(address: tuple[str, int], *, seed: int, lines: int, clients: int, workers: int = 1,
        seconds: float = 3600.0, grace: float = 1.0, period: float = 0.05, window: float = 3.0, burst: float = 6.0,
        log: Callable[[], str] | None = None) -> Report:
    """Fuzz the server at ``address`` with ``workers`` processes of fuzzing clients until ``lines`` junk lines
    are sent or ``seconds`` pass, with the well-behaved clients alongside; then look for stuck tables, and
    (given ``log``, which reads the server's log) for the inputs behind tracebacks the log does not explain.
    ``grace`` must be the server's MUDWIZ_GRACE; ``period`` is the monitor's; ``window`` how long a table
    may stand still; ``burst`` how many junk lines a fuzzing client sends at once, on average."""
    address = (str(address[0]), int(address[1]))  # a plain tuple: it goes to other processes
    return asyncio.run(_run(address, seed, lines, clients, workers, seconds, grace, period, window, burst, log))
