#!/usr/bin/env python3
"""A scripted mudwiz player to copy: connect, sit down, answer every ``state`` with one of its ``legal`` commands.

    python examples/bot.py --name robo --new wizard --bots 2 --option rounds=3
    python examples/bot.py --name robo2 --join 1
    MUDWIZ_PASSWORD=secret-pw python examples/bot.py --name MyBot --new witches --bots 3   # a registered name

It speaks the JSON mode of docs/protocol.md over plain TCP, with the standard library only. Write your own
``choose(state) -> command`` and pass it to ``play``; the default, ``random_choice``, plays any of the three
games (Wizard, Witches, Tiltowait) by picking a random legal command.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any

State = dict[str, Any]
Strategy = Callable[[State], str]


def random_choice(state: State) -> str:
    """Any legal command; Witches' ``/pass`` stands for any ``state.pass.count`` cards of the hand."""
    command = random.choice([c for c in state["legal"] if c != "/start"])
    if command == "/pass":
        cards = random.sample(state["hand"], state["pass"]["count"])
        command = " ".join(["/pass", *cards])
    return command


class Connection:
    """One TCP connection in JSON mode: send commands with an id, read one JSON object a line."""

    def __init__(self, host: str, port: int, name: str, trace: bool = False) -> None:
        try:
            self.sock = socket.create_connection((host, port), timeout=60)
        except OSError as exc:
            raise SystemExit(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        self.buffer = b""
        self.next_id = 0
        self.trace = trace  # print every line: "> " sent, "< " received (to stderr)
        self.send("/mode json")  # before the name, so that even the login's replies are JSON
        self.send(name)

    def send(self, line: str) -> None:
        if self.trace:
            print(">", line, file=sys.stderr)
        self.sock.sendall(line.encode() + b"\r\n")

    def request(self, command: str) -> int:
        """Send ``command`` as ``{"id", "cmd"}``; the server's ok/error reply carries the same id."""
        self.next_id += 1
        self.send(json.dumps({"id": self.next_id, "cmd": command}))
        return self.next_id

    def messages(self) -> Iterator[dict[str, Any]]:
        """Every message the server sends, in order, until it closes the connection."""
        while True:
            chunk = self.sock.recv(65536)
            if not chunk:
                return
            self.buffer += chunk
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                if self.trace:
                    print("<", line.decode(errors="replace").rstrip("\r"), file=sys.stderr)
                start = line.find(b"{")  # the greeting before /mode json took effect is plain text
                if start >= 0:
                    yield json.loads(line[start:])


def proof(asked: dict[str, Any], password: str | None, resume: str | None) -> str:
    """The answer to a ``password`` message: a registered name's password, or the resume code of a guest's name
    held since a drop (docs/protocol.md, "Registered names", "Guests and resume codes")."""
    if asked["prompt"] == "Resume code":
        if resume is None:
            raise SystemExit(f"{asked['name']} is held for a guest who dropped: give --resume CODE (from their "
                             "welcome), or choose another --name")
        return resume
    if password is None:
        raise SystemExit(f"{asked['name']} is a registered name: give its password (--password, or MUDWIZ_PASSWORD)")
    return password


def play(conn: Connection, choose: Strategy, setup: list[str], password: str | None = None,
         resume: str | None = None) -> list[dict[str, Any]]:
    """Log in (answering a password or resume code asked), run the ``setup`` commands one by one, then answer
    states until the game ends; returns the standings.

    One command in flight at a time: a move's ``state`` arrives before its ``ok``, so once the reply is in,
    the latest state is the one to answer (each state is answered at most once).
    """
    pending: int | None = None  # the id of the command we wait on
    state: State | None = None
    states = answered = 0
    strategy = choose
    for message in conn.messages():
        kind = message["type"]
        if kind == "password":
            conn.send(proof(message, password, resume))
        elif kind == "welcome":
            if message.get("resume"):
                print(f"logged in as {message['name']}; after a drop, log in again with --resume {message['resume']}",
                      file=sys.stderr)
            if setup:
                pending = conn.request(setup.pop(0))
        elif kind == "error" and "id" not in message and state is None:
            raise SystemExit(f"refused: {message['message']}")  # e.g. the name is taken
        elif kind in ("ok", "error") and pending is not None and message.get("id") == pending:
            pending = None
            if kind == "error":
                print(f"refused: {message['message']}", file=sys.stderr)
                if setup or state is None:
                    raise SystemExit(1)
                answered, strategy = 0, random_choice  # answer the same state again, at random this once
            if setup:
                pending = conn.request(setup.pop(0))
        elif kind == "state":
            state, states = message, states + 1
        elif kind == "game_end":
            return message["standings"]
        if pending is None and not setup and state is not None and state["legal"] and answered != states:
            legal = state["legal"]
            command = "/start" if "/start" in legal else "/ok" if "/ok" in legal else strategy(state)
            answered, strategy = states, choose
            pending = conn.request(command)
    raise SystemExit("the server closed the connection")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A mudwiz bot: plays one game from state.legal, then exits.")
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, default=4000)
    parser.add_argument("--name", default=f"robo{random.randrange(1000, 9999)}")  # bot+digits: the server's bots
    parser.add_argument("--password", default=os.environ.get("MUDWIZ_PASSWORD"),
                        help="the name's password, if registered (default $MUDWIZ_PASSWORD, which ps does not show)")
    parser.add_argument("--resume", metavar="CODE", help="a guest's resume code, to come back to its name and seat")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--new", metavar="GAME", help="open a table for wizard, witches or tiltowait, as its host")
    where.add_argument("--join", metavar="N", type=int, help="sit at table N (its host starts the game)")
    parser.add_argument("--bots", type=int, default=0, help="server bots to seat (host only)")
    parser.add_argument("--level", default="normal", help="their level: easy, normal, hard or random")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a table option")
    parser.add_argument("--trace", action="store_true", help="print every line sent (>) and received (<)")
    args = parser.parse_args(argv)

    if args.new:
        setup = [f"/new {args.new}", *(f"/option {o}" for o in args.option),
                 *[f"/bot add {args.level}"] * args.bots]
    else:
        setup = [f"/join {args.join}"]
    conn = Connection(args.host, args.port, args.name, args.trace)
    try:
        standings = play(conn, random_choice, setup, args.password, args.resume)
    except OSError as exc:  # a timeout, a reset: one line, not a traceback
        raise SystemExit(f"the connection to {args.host}:{args.port} failed: {exc.strerror or exc}") from None
    print("game over:")
    for row in standings:
        print(f"  {row['place']}. {row['player']:16} {row['score']:6}")


if __name__ == "__main__":
    main()
