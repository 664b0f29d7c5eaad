"""The bare Twisted floor for ``bench/load.py``: the least a Twisted line server must do for the same load generator.

What it does, and nothing more (no game, no rules, no rendering, no limits, no logging):

- Listens on a Twisted endpoint description (``--listen``, e.g. ``tcp:4000:interface=127.0.0.1:backlog=1024``,
  the same string the generator gives ``mudwiz serve``) with ``LineReceiver`` (lines end in ``\\n``; a ``\\r``
  before it is dropped), ``TCP_NODELAY`` on each connection as mudwiz sets it.
- Sends ``What is your name? `` on connect. ``/mode ...`` is answered ``{"type":"ok","text":"mode json"}``; the
  first other line is the name, answered ``{"type":"welcome","name":NAME}`` (names are not checked).
- After that a line is a command, plain or a JSON request ``{"id":..,"cmd":..}``; every command is answered by
  exactly one ``{"type":"ok","id":..}`` (``error`` where said below), after the messages it causes:
  - ``/who``: a ``who`` message listing every logged-in name with ``where`` (``lobby`` or ``table N``);
  - ``/new GAME``: a table of four seats with the sender as its host, and a ``state`` to the sender;
  - ``/join N``: a seat (``error`` if there is no such table or it is full), and a ``state`` to every person
    seated; ``/bot add [LEVEL]``: a bot seat (host only), the same;
  - when four are seated the host's ``state`` offers ``legal: ["/start"]``; ``/start`` starts the table:
    seat 0 has the turn;
  - at a playing table, any other command from the player whose turn it is is a move: each person seated is
    sent one ``state`` line of ``--state-bytes`` bytes (padded; default 1400, the median size of mudwiz's Wizard
    state at a 4-player table in play), the next seat's offering ``legal`` (four ``/play`` entries), everyone
    else's ``[]``. With ``--work-us US`` each move first spends ``US`` µs of the thread's CPU in a busy loop,
    standing for a game's own work (rules, views, encoding, journal) at a known price: ``bench/load.py
    --floor-work`` runs such floors to find what work a move can cost before a latency target is missed.
    A bot seat moves at once (``callLater(0, ...)``: one bot move per reactor turn, so the
    reactor stays fair) with no thinking at all. The game never ends; there are no rounds, scores or ``/ok``.
    From anyone else at the table a move is an ``error``;
  - anything else: ``ok``.
- A lost connection leaves its seat to nobody (the table stops when its turn comes to an empty seat).

So the generator drives both servers identically, and the ratio mudwiz/floor is the price of everything mudwiz
does on top of Twisted's transport and line framing: the game, the renderer, the fan-out of events, the
lobby's arrival notices, limits, logging and bots' thinking.

    python bench/baseline.py --listen tcp:4000:interface=127.0.0.1
"""

from __future__ import annotations

import argparse
import json
import socket
import time
from collections.abc import Sequence
from typing import Any

from twisted.internet import endpoints, protocol, reactor
from twisted.protocols.basic import LineReceiver

LEGAL = ["/play R1", "/play R2", "/play G3", "/play Z"]


class Table:
    def __init__(self, tid: int, host: FloorLine, state_bytes: int, work_us: float = 0.0) -> None:
        self.id = tid
        self.host = host
        self.seats: list[FloorLine | None] = [host]  # None: a bot
        self.turn = -1  # -1: not started
        self.state_bytes = state_bytes
        self.work = work_us / 1e6

    def state(self, to: FloorLine | None) -> bytes:
        legal: list[str] = []
        if self.turn < 0:
            legal = ["/start"] if to is self.host and len(self.seats) == 4 else []
        elif self.seats[self.turn] is to:
            legal = LEGAL
        msg: dict[str, Any] = {"type": "state", "table": self.id, "game": "wizard",
                               "status": "playing" if self.turn >= 0 else "waiting", "you": to and to.name,
                               "turn": self.turn, "legal": legal, "pad": ""}
        line = json.dumps(msg, separators=(",", ":"))
        return line.replace('"pad":""', '"pad":"' + "x" * max(0, self.state_bytes - len(line)) + '"').encode()

    def tell_all(self) -> None:
        for seat in self.seats:
            if seat is not None and seat.transport is not None:
                seat.sendLine(self.state(seat))

    def move(self) -> None:
        if self.work:
            spin(self.work)
        self.turn = (self.turn + 1) % len(self.seats)
        self.tell_all()
        if self.seats[self.turn] is None:
            reactor.callLater(0, self.move)


def spin(seconds: float) -> None:
    """Spends ``seconds`` of this thread's CPU (not wall time: a busy machine must not shrink the work)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class FloorLine(LineReceiver):
    delimiter = b"\n"
    MAX_LENGTH = 4096

    def __init__(self, factory: Floor) -> None:
        self.factory = factory
        self.name: str | None = None
        self.table: Table | None = None

    def connectionMade(self) -> None:
        sock = getattr(self.transport, "socket", None)
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.transport.write(b"What is your name? ")  # type: ignore[union-attr]

    def connectionLost(self, reason: object = None) -> None:
        if self.name is not None:
            self.factory.users.pop(self.name, None)
        if self.table is not None:
            self.table.seats = [None if s is self else s for s in self.table.seats]

    def send(self, **msg: Any) -> None:
        self.sendLine(json.dumps(msg, separators=(",", ":")).encode())

    def lineReceived(self, line: bytes) -> None:
        text = line.rstrip(b"\r").decode("utf-8", "replace").strip()
        if text.startswith("/mode"):
            self.send(type="ok", text="mode json")
            return
        if self.name is None:
            self.name = text
            self.factory.users[text] = self
            self.send(type="welcome", name=text)
            return
        rid: Any = None
        if text.startswith("{"):
            try:
                req = json.loads(text)
                rid, text = req.get("id"), str(req["cmd"])
            except (ValueError, KeyError, AttributeError):
                self.send(type="error", message="bad request")
                return
        reply = self.command(text)
        if reply is None:
            self.send(type="ok", id=rid)
        else:
            self.send(type="error", id=rid, message=reply)

    def command(self, text: str) -> str | None:
        """Carries ``text`` out; an error's message, or None for ok."""
        verb, _, rest = text.partition(" ")
        f = self.factory
        table = self.table
        if verb == "/who":
            self.send(type="who", users=[{"name": n, "where": f"table {u.table.id}" if u.table else "lobby"}
                                         for n, u in f.users.items()])
        elif verb == "/new":
            f.last_id += 1
            self.table = f.tables[f.last_id] = Table(f.last_id, self, f.state_bytes, f.work_us)
            self.sendLine(self.table.state(self))
        elif verb == "/join":
            found = f.tables.get(int(rest)) if rest.strip().isdigit() else None
            if found is None or len(found.seats) >= 4:
                return "no such table, or it is full"
            self.table = found
            found.seats.append(self)
            found.tell_all()
        elif verb == "/bot" and table is not None and table.host is self and len(table.seats) < 4:
            table.seats.append(None)
            table.tell_all()
        elif verb == "/start" and table is not None and table.host is self and table.turn < 0:
            if len(table.seats) < 4:
                return "not enough players"
            table.turn = -1
            table.move()
        elif table is not None and table.turn >= 0:
            if table.seats[table.turn] is not self:
                return "it is not your turn"
            table.move()
        return None


class Floor(protocol.Factory):
    def __init__(self, state_bytes: int, work_us: float = 0.0) -> None:
        self.work_us = work_us
        self.users: dict[str, FloorLine] = {}
        self.tables: dict[int, Table] = {}
        self.last_id = 0
        self.state_bytes = state_bytes

    def buildProtocol(self, addr: object) -> FloorLine:
        return FloorLine(self)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", default="tcp:4000:interface=127.0.0.1", help="a Twisted endpoint description")
    parser.add_argument("--state-bytes", type=int, default=1400, help="bytes of each state line sent for a move")
    parser.add_argument("--work-us", type=float, default=0.0, help="µs of CPU spent on each move (default 0)")
    args = parser.parse_args(argv)
    endpoints.serverFromString(reactor, args.listen).listen(Floor(args.state_bytes, args.work_us))
    reactor.run()


if __name__ == "__main__":
    main()
