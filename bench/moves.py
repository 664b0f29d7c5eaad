"""A move's CPU in process, through the whole stack but the kernel: steadier than bench/load.py on a busy machine.

``--tables`` tables of 4 JSON clients, each connection a real telnet listener's protocol (``MudFactory``) on a
``StringTransport``: line framing, the JSON envelope, dispatch, the table, the fan-out, the writes down to the
transport. Clients answer their latest ``state`` with a random entry of ``legal`` as bench/load.py's do, one
command at a time round the tables. Prints CPU µs per command and per game move (``time.process_time``), so
other load on the machine matters less than to the socket benchmark. No journal (no store), no sockets: the
figure is the server's own work a command. With ``--turns`` output is held per turn as on a running server
(``hold_per_turn``): in each turn every client with a move makes it, then the turn's output is written, so work
done once a batch (a round end's ``/ok``s, ``outflow.at_batch_end``) is counted as a server does it. Figures,
never assertions::

    python bench/moves.py [--tables 50] [--commands 20000] [--seed 1] [--turns] [--profile FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable from a checkout without installing

from twisted.internet import reactor  # noqa: E402
from twisted.internet.address import IPv4Address  # noqa: E402
from twisted.internet.testing import StringTransport  # noqa: E402

from mudwiz.cli import tune_gc  # noqa: E402
from mudwiz.lobby import Lobby  # noqa: E402
from mudwiz.net.telnet import MudFactory  # noqa: E402
from mudwiz.outflow import Outflow, install  # noqa: E402

NOT_MOVES = ("/ok", "/start")


class Client:
    """One JSON connection on a string transport: its latest ``legal``, read from what the server wrote."""

    def __init__(self, factory: MudFactory, name: str) -> None:
        self.protocol: Any = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 4000))
        self.transport = StringTransport()
        self.protocol.makeConnection(self.transport)
        self.legal: list[str] = []
        self.table: int | None = None
        self.req = 0
        self.line(f"/mode json\n{name}")

    spent = 0.0  # CPU seconds in the server's code, all clients

    def line(self, text: str) -> None:
        data = text.encode() + b"\n"
        start = time.process_time()
        self.protocol.dataReceived(data)
        Client.spent += time.process_time() - start
        self.read()

    def command(self, cmd: str) -> None:
        self.req += 1
        self.line(json.dumps({"id": self.req, "cmd": cmd}))

    def read(self) -> None:
        data = self.transport.value()
        self.transport.clear()
        for raw in data.split(b"\n"):
            start = raw.find(b"{")
            if start >= 0:
                message = json.loads(raw[start:])
                if message.get("type") == "state":
                    self.legal = message.get("legal") or []
                    self.table = message.get("table", self.table)


class _NoCall:
    """The delayed call ``hold_per_turn`` is handed: made once a turn and run by ``run``, never cancelled."""

    def active(self) -> bool:
        return False

    def cancel(self) -> None:
        pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--commands", type=int, default=20000, help="commands measured (after 2,000 of warm-up)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write a cProfile of the measured commands to this file")
    parser.add_argument("--turns", action="store_true",
                        help="hold output per turn as a running server does (Outflow.hold_per_turn): each turn "
                             "every client with a move makes it, then what the turn held is written")
    args = parser.parse_args(argv)
    tune_gc()  # the collector as ``mudwiz serve`` runs it
    rng = random.Random(args.seed)
    # the reactor as the clock, never run: its timers (turn clocks) are set and moved as in a server, none fires
    # (``task.Clock`` would sort all its calls at each new one, a cost no server has)
    outflow = install(Outflow())  # as makeService builds it
    factory = MudFactory(Lobby(reactor, bot_delay=0, grace=0, seed=args.seed), "", 0.0, outflow=outflow)
    tables = []
    for t in range(args.tables):
        host = Client(factory, f"h{t}")
        host.command("/new wizard")
        guests = [Client(factory, f"g{t}x{i}") for i in range(3)]
        for guest in guests:
            guest.command(f"/join {host.table}")
        for c in (host, *guests):
            c.read()
        tables.append([host, *guests])
    clients = [c for table in tables for c in table]

    turn_end: list[Any] = []  # with --turns: the call that ends the turn, as the reactor would make it

    def run(n: int) -> int:
        moves = 0
        while n > 0:
            for c in clients:
                c.read()
                if c.legal:
                    cmd = rng.choice(c.legal)
                    c.legal = []
                    c.command(cmd)
                    moves += not cmd.startswith(NOT_MOVES)
                    n -= 1
            if turn_end:  # every client with a move made it: the turn ends, and what it held is written
                start = time.process_time()
                turn_end.pop()()
                Client.spent += time.process_time() - start
        return moves

    def end_turn_later(delay: float, call: Any) -> _NoCall:
        turn_end.append(call)
        return _NoCall()

    if args.turns:
        outflow.hold_per_turn(end_turn_later)

    run(2000)
    profile = cProfile.Profile() if args.profile else None
    Client.spent = 0.0
    if profile is not None:
        profile.enable()
    moves = run(args.commands)
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    spent = Client.spent
    if args.turns:
        outflow.hold_per_turn(None)
    turns = " (per turn)" if args.turns else ""
    print(f"moves {args.tables} tables{turns}: {args.commands} commands ({moves} moves) in {spent:.2f} s CPU: "
          f"{spent / args.commands * 1e6:.0f} µs/command, {spent / moves * 1e6:.0f} µs/move")


if __name__ == "__main__":
    main()
