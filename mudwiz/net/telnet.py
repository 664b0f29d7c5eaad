"""The network edge: telnet (or raw ``nc``) lines in, rendered messages out. Knows no rules.

``twisted.conch.telnet`` answers any option negotiation a telnet client starts (refusing what we do not
support) and unescapes IAC; we never start a negotiation ourselves, so an ``nc`` user sees no stray bytes.
Lines may end in ``\\n``, ``\\r\\n`` or ``\\r\\0``; bytes are decoded as UTF-8 with replacement, and control
characters are removed before anything reaches the lobby, so no user can send another a control sequence.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from twisted.conch.telnet import IAC, Telnet, TelnetProtocol, TelnetTransport
from twisted.internet.interfaces import IDelayedCall, IPushProducer
from twisted.internet.protocol import Factory, Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from mudwiz.commands import catalogue, dispatch
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games.base import Event, Game
from mudwiz.lobby import Lobby
from mudwiz.net.limits import ConnectionCounter
from mudwiz.net.tcp import tune
from mudwiz.render import jsonl
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import NO_BREAK, Style
from mudwiz.session import Session
from mudwiz.usertext import clean, erase, one_line

log = Logger()

MAX_LINE = 4096  # bytes; a longer line is refused whole, and the connection stays up
LOGIN_TIMEOUT = 300.0  # seconds a connection may take to give its name (MUDWIZ_LOGIN_TIMEOUT; 0: no limit)
MAX_BACKLOG = 1 << 20  # bytes written while the peer reads nothing; past this the connection is dropped
MAX_SUBNEGOTIATION = 512  # bytes a telnet subnegotiation may run to (we take part in none); a longer one is given up
NAME_PROMPT = "What is your name? "
PRE_LOGIN = ("/mode", "/quit", "/help")


class TelnetSession(Session):
    """A person (or a scripted client) on a telnet connection: renders each message for its mode."""

    def __init__(self, protocol: MudProtocol) -> None:
        super().__init__()
        self.protocol = protocol
        self.presenter = Presenter(Style())
        self._style_mode = "ansi"

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        if not self.connected:
            return
        if self.mode == "json":
            self.protocol.send_lines([jsonl.encode(message)])
            return
        if self._style_mode != self.mode:
            self.presenter = Presenter(Style.for_mode(self.mode))
            self._style_mode = self.mode
        self.protocol.send_lines(self.presenter.lines(message, event))

    def close(self) -> None:
        self.protocol.transport.loseConnection()


@implementer(IPushProducer)
class Backlog:
    """Registered with the TCP transport, which pauses it once its own buffer is full (the peer is not reading)
    and resumes it when the buffer drains: what is written in between is counted, so that a client that never
    reads costs the server at most ``MAX_BACKLOG`` bytes rather than memory without end."""

    def __init__(self) -> None:
        self.paused = False
        self.pending = 0

    def pauseProducing(self) -> None:
        self.paused = True

    def resumeProducing(self) -> None:
        self.paused, self.pending = False, 0

    def stopProducing(self) -> None:
        pass


class MudProtocol(TelnetProtocol):
    """One connection: the name prompt, then each line as a command or chat."""

    def __init__(
        self, lobby: Lobby, motd: str, login_timeout: float = LOGIN_TIMEOUT,
        counter: ConnectionCounter | None = None, address: str = "",
    ) -> None:
        self.lobby = lobby
        self.motd = motd
        self.login_timeout = login_timeout
        self.counter = counter  # told when this connection logs in and when it is gone
        self._login_timer: IDelayedCall | None = None
        self.session = TelnetSession(self)
        self.session.address = address
        self.buffer = b""
        self.discarding = False
        self.logged_in = False
        self.prompt_open = False  # the name prompt ends without a newline; the next output must not join it
        self.line_open = False  # the last byte written was not a newline (a program reading lines would join)
        self.backlog = Backlog()
        self.dropped = False

    # -- bytes in

    def connectionMade(self) -> None:
        tcp = getattr(self.transport, "transport", None)  # under the telnet layer
        if tcp is not None and hasattr(tcp, "registerProducer"):
            tcp.registerProducer(self.backlog, True)
        for line in self.motd.splitlines():
            self.send_lines([clean(line)])
        self.prompt()
        if self.login_timeout > 0:
            self._login_timer = self.lobby.clock.callLater(self.login_timeout, self.no_name_given)

    def stop_login_timer(self) -> None:
        if self._login_timer is not None and self._login_timer.active():
            self._login_timer.cancel()

    def no_name_given(self) -> None:
        """A connection that never names itself (a port scan, a forgotten window) is not kept open for ever."""
        self.reply_error(BadCommand(f"no name given within {self.login_timeout:g} s: goodbye"), None)
        self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        data = self.buffer + data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").replace(b"\0", b"")
        *lines, self.buffer = data.split(b"\n")
        for raw in lines:
            if self.discarding:  # the tail of a line already refused as too long
                self.discarding = False
                continue
            if len(raw) > MAX_LINE:
                self.refuse_long_line()
                continue
            self.line_received(raw)
            if self.transport is None or getattr(self.transport, "disconnecting", False):
                return
        if len(self.buffer) > MAX_LINE:
            self.buffer = b""
            if not self.discarding:
                self.refuse_long_line()
            self.discarding = True

    def refuse_long_line(self) -> None:
        self.reply_error(BadCommand(f"line too long (more than {MAX_LINE} bytes): ignored"), None)

    def line_received(self, raw: bytes) -> None:
        self.prompt_open = False  # the user pressed Enter: their cursor is on a fresh line
        text = one_line(erase(raw.decode("utf-8", errors="replace"))).strip()
        request_id: Any = None
        if text.startswith("{"):
            try:
                request = json.loads(text)
                if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
                    raise ValueError('a JSON request is {"id": ..., "cmd": "/command ..."}')
            except ValueError as exc:
                self.reply_error(BadCommand(f"bad JSON request: {exc}"), None)
                return
            except RecursionError:  # json.loads recurses once a level: [[[[... past ~1000 levels
                self.reply_error(BadCommand("bad JSON request: nested too deeply"), None)
                return
            request_id = request.get("id")
            text = one_line(request["cmd"]).strip()  # JSON may spell a line break (\\n) or a bidi override
        try:
            reply = self.handle(text)
        except MudwizError as exc:
            self.reply_error(exc, request_id)
        except Exception:  # a bug must cost one reply, never the connection or the server
            log.failure("command {text!r} from {name} failed", text=text, name=self.session.name)
            self.reply_error(MudwizError("internal error; the command was not carried out"), request_id)
        else:
            if reply is not _NO_REPLY:
                message: dict[str, Any] = {"type": "ok"}
                if request_id is not None:
                    message["id"] = request_id
                if reply:
                    message["text"] = reply
                self.session.deliver(message)

    def handle(self, text: str) -> str | None | object:
        if self.logged_in:
            return dispatch(self.lobby, self.session, text)
        if not text:
            self.prompt()
            return _NO_REPLY
        if text.startswith("/"):
            if not text.lower().startswith(PRE_LOGIN):
                raise BadCommand("first tell me your name")
            return dispatch(self.lobby, self.session, text)
        self.lobby.login(self.session, text, greet=self.welcome)
        self.logged_in = True
        if self.counter is not None:
            self.counter.logged_in(self.session.address)
        self.stop_login_timer()
        if self.session.table is None:
            dispatch(self.lobby, self.session, "/look")
        return _NO_REPLY

    def welcome(self) -> None:
        self.session.deliver({"type": "welcome", "name": self.session.name, **catalogue()})
        if self.session.mode != "json":
            self.session.notice(f"Welcome, {self.session.name}! /help lists the commands; /tables the tables.")

    def reply_error(self, exc: MudwizError, request_id: Any) -> None:
        try:
            text = hint(self.session, str(exc))
        except Exception:  # the hint is a courtesy: a bug in it must not cost the error reply or the connection
            log.failure("hint for {error!r} to {name} failed", error=str(exc), name=self.session.name)
            text = str(exc)
        message: dict[str, Any] = {"type": "error", "message": text}
        if request_id is not None:
            message["id"] = request_id
        self.session.deliver(message)
        if not self.logged_in and self.session.mode != "json":
            self.prompt()

    def prompt(self) -> None:
        if self.session.mode != "json":
            self.write(NAME_PROMPT.encode())
            self.prompt_open = True

    # -- bytes out

    def send_lines(self, lines: list[str]) -> None:
        """Write lines ending in \\n: the telnet transport sends each as \\r\\n, as terminals expect."""
        if lines:
            # A person's Enter moved their cursor past the prompt; a JSON reader's stream has no Enter in it, so
            # its first line must not be glued to "What is your name? ".
            head = "\n" if self.prompt_open or (self.line_open and self.session.mode == "json") else ""
            self.prompt_open = False
            self.write((head + "\n".join(lines) + "\n").encode("utf-8", errors="replace"))

    def write(self, data: bytes) -> None:
        """Every byte out goes through here, so a peer that stops reading is noticed and dropped."""
        if self.dropped or self.transport is None:
            return
        if self.backlog.paused:
            self.backlog.pending += len(data)
            if self.backlog.pending > MAX_BACKLOG:
                self.dropped = True
                log.warn("{name}: dropped, {pending} bytes unread", name=self.session.name or "?",
                         pending=self.backlog.pending)
                self.transport.transport.abortConnection()  # loseConnection would wait to send it all
                return
        if data:
            self.line_open = not data.endswith(b"\n")
        self.transport.write(data)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.stop_login_timer()
        if self.counter is not None:
            self.counter.closed(self.session.address, self.logged_in)
        if self.logged_in:
            self.lobby.disconnect(self.session)
        self.session.connected = False


_NO_REPLY = object()


def hint(session: Session, message: str) -> str:
    """Append what the player may do, when it is their turn: ``; you may: /play B3, /play B10`` (engines give the
    reason only, so every refusal ends in this one style). Moves are listed as typed, in the order of the hand;
    on a terminal the words of one move are joined by ``NO_BREAK``, which the line wrapper never breaks at and
    shows as a space, so ``/bid 1`` is never split over two lines (a JSON client gets plain spaces)."""
    table = session.table
    if table is None or table.game is None:
        return message
    seat = table.seat_of(session.name)
    if seat is None or table.seats[seat] is not session:
        return message
    legal = [f"/{spelled(str(a), table.game_class)}" for a in table.game.legal_actions(seat)]
    if not legal:
        return message
    moves = summarize(legal, table.game.view(seat)["hand"])
    glue = " " if session.mode == "json" else NO_BREAK
    shown = ", ".join(m.replace(" ", glue) for m in moves[:12]) + (", ..." if len(moves) > 12 else "")
    return f"{message}; you may: {shown}"


def spelled(move: str, game: type[Game]) -> str:
    """A move as a person types it: a bare verb that stands for a pattern (Witches' ``pass``: any N cards of the
    hand) takes its arguments from the game's usage line, ``pass C1 C2 ...``; a bare ``/pass`` would be refused."""
    usage = game.usage(move)
    return usage if usage.startswith(move + " ") else move


def summarize(legal: list[str], hand: Sequence[str] = ()) -> list[str]:
    """The moves in the order of ``hand`` (a card's moves where the card sits, moves of one verb together; an
    engine may list ``/play B10`` before ``/play B3``), and moves that differ only after their second word, three
    or more of them, as one: ``/play MILWA ...`` stands for the eight ways to aim a MILWA, so the list says what
    kinds of move there are."""
    verbs = {a.split()[0]: i for i, a in reversed(list(enumerate(legal)))}  # each verb's first place
    place = {card: i for i, card in reversed(list(enumerate(hand)))}

    def order(move: str) -> tuple[int, int]:
        words = move.split()
        return verbs[words[0]], place.get(words[1], len(hand)) if len(words) > 1 else len(hand)

    legal = sorted(legal, key=order)
    heads = [" ".join(a.split()[:2]) for a in legal]
    many = Counter(heads)
    shown: dict[str, None] = {}  # in order, each once
    for move, head in zip(legal, heads, strict=True):
        shown[f"{head} ..." if len(move.split()) > 2 and many[head] > 2 else move] = None
    return list(shown)


class _Telnet(TelnetTransport):
    """Conch's transport, made total: no bytes a client sends raise out of it or cost the connection.

    Conch's parser raises on some malformed commands (``ValueError`` for an unknown command after IAC,
    ``IndexError`` for the empty subnegotiation ``IAC SB IAC SE``), which would drop the sender with a traceback
    and lose the rest of what it sent. So bytes go to the parser in pieces: plain data up to the next IAC at once,
    the bytes of a telnet command one at a time. A piece that raises is logged in one line (the first on a
    connection only) and the parser starts again on plain data: the bad command is lost, nothing else. A
    subnegotiation longer than ``MAX_SUBNEGOTIATION`` bytes is no real one (we agree to no option that has one):
    it is given up the same way, and what follows is read as plain data.
    """

    faulted = False  # a parser fault on this connection has been logged

    def connectionMade(self) -> None:
        tune(self.transport)
        super().connectionMade()

    def dataReceived(self, data: bytes) -> None:
        at = 0
        while at < len(data):
            if self.state not in ("data", "subnegotiation") or data[at] == IAC[0]:
                end = at + 1
            else:
                end = data.find(IAC, at)
                end = len(data) if end < 0 else end
                if self.state == "subnegotiation":  # one byte past the limit at most
                    end = min(end, at + MAX_SUBNEGOTIATION + 1 - len(self.commands))
            piece, at = data[at:end], end
            try:
                Telnet.dataReceived(self, piece)
            except Exception as exc:
                self.fault(piece, repr(exc))
            if self.state.startswith("subnegotiation") and len(self.commands) > MAX_SUBNEGOTIATION:
                self.fault(piece, f"subnegotiation longer than {MAX_SUBNEGOTIATION} bytes")

    def fault(self, piece: bytes, why: str) -> None:
        """Forget the command being read and go back to plain data; say so in the log once a connection."""
        self.state = "data"
        for half_read in ("command", "commands"):
            self.__dict__.pop(half_read, None)
        if not self.faulted:
            self.faulted = True
            log.warn("{peer}: bad telnet input {piece!r} ignored ({why}); any more on this connection is ignored "
                     "without a word", peer=_peer(self.transport), piece=piece[:16], why=why)

    def applicationDataReceived(self, data: bytes) -> None:
        """Lines for the protocol. Its own errors are bugs, not bad telnet: they are logged with the traceback,
        and cost what was being read, never the connection."""
        try:
            super().applicationDataReceived(data)
        except Exception:
            log.failure("input from {peer} failed", peer=_peer(self.transport))


def _peer(transport: Any) -> str:
    return str(getattr(transport.getPeer(), "host", "?")) if transport is not None else "?"


class Refused(Protocol):
    """A connection over a limit: one line saying why, then closed."""

    def __init__(self, message: str) -> None:
        self.message = message

    def connectionMade(self) -> None:
        assert self.transport is not None
        self.transport.write(self.message.encode() + b"\r\n")
        self.transport.loseConnection()


class MudFactory(Factory):
    """Shared state of every connection: the lobby, the message of the day and the connection counts."""

    def __init__(
        self, lobby: Lobby, motd: str, login_timeout: float = LOGIN_TIMEOUT, counter: ConnectionCounter | None = None
    ) -> None:
        self.lobby = lobby
        self.motd = motd
        self.login_timeout = login_timeout
        self.counter = counter

    def buildProtocol(self, addr: Any) -> Protocol:
        address = str(getattr(addr, "host", ""))  # "" for a unix socket: no per-address limits
        if self.counter is not None:
            refusal = self.counter.admit(address)
            if refusal is not None:
                if refusal.news:
                    log.warn("refusing connections from {address}: {why}", address=address or "?",
                             why=refusal.message)
                return Refused(refusal.message)
        transport = _Telnet(MudProtocol, self.lobby, self.motd, self.login_timeout, self.counter, address)
        transport.factory = self
        return transport
