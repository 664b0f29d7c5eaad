"""Sysops on a fake clock: real connections fed lines, the real lobby and tables, a real SQLite file; the stop
is a recorder of the calls, where the server's is the reactor's ``stop``.

Who may use the sysop commands (checked when the command runs), kick, bans by name and by address at the door
with their expiry, announcements, the shutdown countdown and its cancellation, and the clean stop that leaves a
running game as it is (no abandoned record on the way down)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import Backend
from outbox import Outbox
from twisted.internet.task import Clock
from wire import pick_command

from mudwiz.accounts import Accounts
from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style
from mudwiz.store import Ban, Store
from mudwiz.sysops import FAREWELL, Farewell, Sysops, address_key, ban_target
from mudwiz.table import Records

SECRET = "correct horse"
SYSOP_COMMANDS = ("/kick bob", "/ban bob", "/unban bob", "/bans", "/announce hello", "/shutdown 5",
                  "/shutdown cancel")


class Server:
    """A lobby with accounts, records and sysops on one store (each backend: a SQLite file, a PostgreSQL
    database); ``stops`` the times the stop was asked."""

    def __init__(self, backend: Backend, grace: float = 30) -> None:
        self.clock = Clock()
        self.clock.advance(1_700_000_000)
        self.store: Store = backend.open()
        self.lobby = Lobby(self.clock, grace=grace, bot_delay=0.5, seed=3, records=Records.inline(self.store))
        self.lobby.accounts = Accounts(self.store, self.clock)
        self.stops: list[float] = []
        self.lobby.sysops = Sysops(self.lobby, self.store, lambda: self.stops.append(self.clock.seconds()))

    def account(self, name: str, *roles: str) -> None:
        assert self.lobby.accounts is not None
        self.store.create_account(name, self.lobby.accounts.hasher.hash(SECRET))
        for role in roles:
            self.store.grant_role(name, role)

    def connect(self, name: str, password: str | None = None, address: str = "10.0.0.1") -> User:
        user = User(self.lobby, address)
        user.line(name)
        if password is not None:
            user.line(password)
        return user


class User:
    """One connection in JSON mode, and what it was sent."""

    def __init__(self, lobby: Lobby, address: str) -> None:
        self.outbox = Outbox()
        self.connection = Connection(lobby, self.outbox, "motd", address=address)
        self.connection.start()
        self.messages: list[dict[str, Any]] = []
        if not self.outbox.closed:
            self.line("/mode json")

    def line(self, text: str) -> list[dict[str, Any]]:
        self.connection.receive(text)
        return self.read()

    def read(self) -> list[dict[str, Any]]:
        new = [json.loads(line) for line in self.outbox.take().splitlines() if line.startswith("{")]
        self.messages += new
        return new

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        self.read()
        return [m for m in self.messages if m["type"] == kind]

    def reply(self, command: str) -> dict[str, Any]:
        """The ok or error reply to ``command``."""
        return next(m for m in self.line(json.dumps({"id": 1, "cmd": command})) if m.get("id") == 1)

    def drop(self) -> None:
        """What the framing does once the connection it was asked to close is gone."""
        self.connection.lost()


@pytest.fixture
def server(backend: Backend) -> Server:
    return Server(backend)


def test_every_sysop_command_is_refused_to_a_guest_and_to_a_registered_name_without_the_role(
        server: Server) -> None:
    server.account("Reg")
    guest, registered = server.connect("Guest"), server.connect("Reg", SECRET)
    server.connect("bob")
    assert registered.connection.logged_in and registered.connection.session.registered
    for user in (guest, registered):
        for command in SYSOP_COMMANDS:
            reply = user.reply(command)
            assert reply["type"] == "error" and reply["message"].startswith("only a sysop can"), (command, reply)
    assert "bob" in server.lobby.users and server.stops == [] and server.store.bans(server.clock.seconds()) == []


def test_help_lists_the_sysop_commands_to_a_sysop_only(server: Server) -> None:
    """Commands nobody else may use are noise in everyone else's ``/help``; a sysop needs to find them."""
    server.account("Alice", "sysop")
    server.account("Reg")
    texts = {}
    for name, password in (("Alice", SECRET), ("Reg", SECRET), ("Guest", None)):
        user = server.connect(name, password)
        user.reply("/help")
        texts[name] = user.of_type("help")[-1]["text"]
        for listed in (user.of_type("help")[-1], user.of_type("welcome")[-1]):  # the catalogue clients complete from
            commands = {c["command"] for c in listed["commands"]}
            assert ("/kick" in commands) == (name == "Alice") and "/who" in commands, name
        user.reply("/help kick")  # explaining one is for anyone
        assert "/kick NAME [REASON]" in user.of_type("help")[-1]["text"]
    assert "/kick NAME [REASON]" in texts["Alice"] and "/shutdown" in texts["Alice"]
    assert all("/kick" not in texts[n] and "/shutdown" not in texts[n] for n in ("Reg", "Guest"))


def test_a_grant_counts_at_once_without_logging_in_again_and_a_revoke_too(server: Server) -> None:
    server.account("Alice")
    alice = server.connect("alice", SECRET)
    assert alice.reply("/announce hi")["type"] == "error"
    server.store.grant_role("Alice", "sysop")  # as `mudwiz admin grant` does, from another process
    assert alice.reply("/announce hi")["type"] == "ok"
    server.store.revoke_role("alice", "sysop")
    assert alice.reply("/announce hi")["message"] == "only a sysop can announce"


def test_a_guest_under_a_sysops_name_is_impossible_and_a_sysop_without_the_password_is_not_one(
        server: Server) -> None:
    server.account("Alice", "sysop")
    alice = server.connect("Alice")  # asked for the password, never gave it
    assert not alice.connection.logged_in and alice.of_type("password")


def test_kick_disconnects_with_one_line_and_the_seat_follows_the_drop_rules(server: Server) -> None:
    server.account("Alice", "sysop")
    alice, bob = server.connect("Alice", SECRET), server.connect("bob")
    bob.line("/new wizard")
    bob.line("/bot add random")
    bob.line("/bot add random")
    bob.line("/start")
    assert alice.reply("/kick bob cheating")["text"] == "bob is disconnected"
    [kicked] = bob.of_type("kicked")
    assert kicked == {"type": "kicked", "by": "Alice", "text": "You are disconnected by the sysop Alice: cheating."}
    assert bob.outbox.closed
    bob.drop()
    table = server.lobby.tables[1]
    assert "bob" in server.lobby.away and table.in_game and table.seats[0] is bob.connection.session  # kept
    assert alice.reply("/kick nobody")["message"] == "nobody called nobody is online"
    assert alice.reply("/kick alice")["message"].startswith("that is you")


def test_a_sysop_cannot_kick_or_ban_another_sysop(server: Server) -> None:
    server.account("Alice", "sysop")
    server.account("Carol", "sysop")
    alice, carol = server.connect("Alice", SECRET), server.connect("Carol", SECRET)
    for command in ("/kick carol", "/ban carol", "/ban Carol 5"):
        assert "Carol is a sysop: revoke the role first" in alice.reply(command)["message"]
    assert not carol.outbox.closed and server.store.bans(server.clock.seconds()) == []


def test_a_ban_by_name_disconnects_them_refuses_them_until_it_expires_and_is_in_the_store(
        server: Server, backend: Backend) -> None:
    server.account("Alice", "sysop")
    alice, bob = server.connect("Alice", SECRET), server.connect("Bob")
    reply = alice.reply("/ban bob 2")
    assert reply["text"] == "bob is banned until 2023-11-14 22:15:20 UTC; disconnected: Bob", reply
    [kicked] = bob.of_type("kicked")
    assert kicked["until"] == "2023-11-14T22:15:20Z" and bob.outbox.closed
    bob.drop()
    again = server.connect("BOB")
    [error] = again.of_type("error")
    assert error["message"] == "bob is banned from this server until 2023-11-14 22:15:20 UTC"  # as banned
    assert again.outbox.closed and not again.connection.logged_in and "bob" not in server.lobby.users
    alice.line("/bans")
    assert alice.of_type("bans")[-1]["bans"] == [{"kind": "name", "target": "bob", "until": "2023-11-14T22:15:20Z",
                                                  "by": "Alice", "since": "2023-11-14T22:13:20Z"}]
    reopened = backend.open()  # kept in the store, for the next run
    assert [b.target for b in reopened.bans(server.clock.seconds())] == ["bob"]
    reopened.close()
    server.clock.advance(121)  # expired
    assert server.connect("bob").connection.logged_in
    alice.line("/bans")
    assert alice.of_type("bans")[-1]["bans"] == []


def test_a_ban_without_minutes_holds_until_unban(server: Server) -> None:
    server.account("Alice", "sysop")
    alice = server.connect("Alice", SECRET)
    assert alice.reply("/ban Mallory")["text"] == "Mallory is banned until a sysop lifts it"
    server.clock.advance(10 * 365 * 86400)
    refused = server.connect("mallory")
    assert refused.of_type("error")[0]["message"] == "Mallory is banned from this server until a sysop lifts it"
    assert alice.reply("/unban MALLORY")["text"] == "MALLORY may log in again"
    assert server.connect("mallory").connection.logged_in
    assert alice.reply("/unban mallory")["message"].startswith("mallory is not banned")


def test_an_address_ban_refuses_at_connection_and_disconnects_everyone_on_it_but_sysops(server: Server) -> None:
    server.account("Alice", "sysop")
    alice = server.connect("Alice", SECRET, address="10.0.0.1")
    bob, eve = server.connect("bob", address="10.0.0.2"), server.connect("eve", address="10.0.0.2")
    carol = server.connect("carol", address="10.0.0.3")
    assert alice.reply("/ban 10.0.0.1")["message"] == "10.0.0.1 is the address you are connected from"
    reply = alice.reply("/ban 10.0.0.2 0.5")
    assert reply["text"].startswith("address 10.0.0.2 is banned until ") and reply["text"].endswith("bob, eve")
    assert bob.outbox.closed and eve.outbox.closed and not carol.outbox.closed
    refused = User(server.lobby, "10.0.0.2")  # at connection: before the motd, before a name
    assert refused.outbox.closed and refused.messages == []
    assert "your address 10.0.0.2 is banned from this server until" in refused.outbox.text
    assert "motd" not in refused.outbox.text
    server.clock.advance(31)
    assert server.connect("bob2", address="10.0.0.2").connection.logged_in
    for bad in ("/ban", "/ban 10.0.0.9 -1", "/ban 10.0.0.9 0", "/ban 10.0.0.9 soon", "/ban a b c", "/ban b@d"):
        assert alice.reply(bad)["type"] == "error", bad


def test_announce_reaches_everyone_online_in_json_and_on_a_terminal(server: Server) -> None:
    server.account("Alice", "sysop")
    alice, bob = server.connect("Alice", SECRET), server.connect("bob")
    bob.line("/new wizard")  # at a table: still hears it
    alice.line("/announce Tea in five minutes")
    message = {"type": "announce", "from": "Alice", "text": "Tea in five minutes"}
    assert message in bob.of_type("announce") and message in alice.of_type("announce")
    [line] = Presenter(Style.for_mode("ascii")).lines(message)
    assert line == "** Announcement from the sysop Alice: Tea in five minutes"
    assert alice.reply("/announce")["message"] == "usage: /announce TEXT"


def test_shutdown_counts_down_at_each_minute_30_and_10_seconds_then_stops(server: Server) -> None:
    server.account("Alice", "sysop")
    alice, bob = server.connect("Alice", SECRET), server.connect("bob")
    start = server.clock.seconds()
    assert alice.reply("/shutdown 3")["text"] == "the server stops in 3 minutes"
    heard: list[tuple[float, Any]] = []
    for _ in range(200):
        heard += [(server.clock.seconds() - start, m["seconds"]) for m in bob.read() if m["type"] == "shutdown"]
        server.clock.advance(1)
    assert heard == [(0, 180), (60, 120), (120, 60), (150, 30), (170, 10), (180, 0)]
    assert server.stops == [start + 180]
    assert bob.of_type("shutdown")[0]["text"] == "The server stops in 3 minutes (shutdown by the sysop Alice)."
    assert bob.of_type("shutdown")[-1]["text"] == "The server is stopping now (shutdown by the sysop Alice)."


def test_shutdown_cancel_and_replace(server: Server) -> None:
    server.account("Alice", "sysop")
    alice, bob = server.connect("Alice", SECRET), server.connect("bob")
    assert alice.reply("/shutdown cancel")["message"] == "no shutdown is counting down"
    assert alice.reply("/shutdown")["text"] == "the server stops in 1 minute"
    assert alice.reply("/shutdown 2")["text"] == "the server stops in 2 minutes; the earlier shutdown is replaced"
    server.clock.advance(100)
    assert alice.reply("/shutdown CANCEL")["text"] == "the shutdown is cancelled"
    assert bob.of_type("shutdown")[-1] == {"type": "shutdown", "seconds": None, "by": "Alice",
                                           "text": "The shutdown is cancelled by the sysop Alice: the server "
                                                   "keeps running."}
    server.clock.advance(3600)
    assert server.stops == []
    assert [m["seconds"] for m in bob.of_type("shutdown")] == [60, 120, 60, 30, None]
    for bad in ("/shutdown soon", "/shutdown -1", "/shutdown 100000"):
        assert alice.reply(bad)["message"].startswith("usage: /shutdown"), bad
    assert alice.reply("/shutdown 0")["text"] == "the server stops now" and server.stops == [server.clock.seconds()]


def play_a_little(server: Server, user: User, moves: int) -> None:
    rng = random.Random(1)
    for _ in range(moves):
        states = user.of_type("state")
        legal = [c for c in states[-1]["legal"] if c != "/start"] if states else []
        if legal:
            user.line(pick_command(legal, rng))
        server.clock.advance(1)


def test_the_clean_stop_tells_everyone_closes_connections_and_abandons_no_running_game(backend: Backend) -> None:
    server = Server(backend, grace=0)  # a drop would hand the seat to a stand-in at once and abandon the game
    bob, carol = server.connect("bob"), server.connect("carol")
    bob.line("/new wizard")
    bob.line("/bot add random")
    bob.line("/bot add random")
    bob.line("/start")
    play_a_little(server, bob, 5)
    table = server.lobby.tables[1]
    assert table.in_game
    assert server.lobby.sysops is not None
    stopped = Farewell(server.lobby.sysops).stopService()  # what the reactor's shutdown (TERM, /shutdown) runs
    fired: list[object] = []
    stopped.addCallback(fired.append)
    for user in (bob, carol):
        assert user.of_type("shutdown")[-1]["text"] == "The server is stopping now." and user.outbox.closed
    assert not fired  # waits for the connections to go
    bob.drop()
    carol.drop()
    server.clock.advance(0.05)
    assert fired == [None]
    assert table.in_game and not table.abandoned and table.seats[0] is bob.connection.session
    assert server.store.games_of("bob") == [] and server.lobby.away == {}
    server.clock.advance(3600)  # nor later, from a timer
    assert server.store.games_of("bob") == [] and not table.abandoned


def test_the_clean_stop_does_not_wait_for_ever_on_a_connection_that_does_not_close(server: Server) -> None:
    server.connect("bob")
    assert server.lobby.sysops is not None
    fired: list[object] = []
    server.lobby.sysops.farewell().addCallback(fired.append)
    server.clock.advance(FAREWELL)
    assert fired == [None]


def test_bans_that_cannot_be_read_let_people_in_and_the_log_says_so(server: Server) -> None:
    from twisted.logger import formatEvent, globalLogPublisher

    logged: list[str] = []

    def observe(event: dict[str, object]) -> None:
        logged.append(formatEvent(event))

    server.store.add_ban(Ban("address", "10.0.0.9", None, "admin", 0))
    assert User(server.lobby, "10.0.0.9").outbox.closed  # banned while the file can be read
    globalLogPublisher.addObserver(observe)
    try:
        server.store.close()  # as good as a disk that fails every read from now on
        user = User(server.lobby, "10.0.0.9")
    finally:
        globalLogPublisher.removeObserver(observe)
    assert not user.outbox.closed  # a sick disk locks nobody out
    assert [line for line in logged if line.startswith("cannot read the bans, address 10.0.0.9 let in: ")]


def test_a_terminal_shows_the_sysops_messages_in_80_columns() -> None:
    from mudwiz.render.style import WIDTH, visible_len

    presenter = Presenter(Style.for_mode("ascii"))
    bans = {"type": "bans", "bans": [
        {"kind": "name", "target": "mallory", "until": None, "by": "Sys", "since": "2026-11-24T00:00:00Z"},
        {"kind": "address", "target": "2001:db8::1", "until": "2026-11-24T01:00:00Z", "by": "Sys",
         "since": "2026-11-24T00:00:00Z"}]}
    assert presenter.lines(bans)[1:] == [
        "  name     mallory                                  until lifted, by Sys",
        "  address  2001:db8::1                              until 2026-11-24 01:00:00 UTC, by Sys"]
    assert presenter.lines({"type": "bans", "bans": []})[1:] == ["  Nobody is banned."]
    shown = [*presenter.lines({"type": "shutdown", "seconds": 30, "by": "Sys",
                               "text": "The server stops in 30 seconds (shutdown by the sysop Sys)."}),
             *presenter.lines({"type": "kicked", "by": "Sys", "text": "You are disconnected by the sysop Sys: "
                               + "spam " * 30}),
             *presenter.lines({"type": "announce", "from": "Sys", "text": "word " * 40})]
    assert shown[0] == "** The server stops in 30 seconds (shutdown by the sysop Sys)."
    assert shown[1].startswith("! You are disconnected by the sysop Sys: spam")
    assert len(shown) > 4 and all(visible_len(line) <= WIDTH for line in shown)


def test_an_ipv4_address_mapped_into_ipv6_is_banned_as_the_ipv4_address_it_is() -> None:
    """``/ban ::ffff:127.0.0.12`` was kept as ``::ffff:7f00:c`` and never matched 127.0.0.12 (found by a probe);
    a dual-stack listener may report a peer either way, and both are the same address."""
    assert ban_target("::ffff:127.0.0.12") == ("address", "127.0.0.12")
    assert ban_target(" 127.0.0.12 ") == ("address", "127.0.0.12")
    assert ban_target("2001:db8::1") == ("address", "2001:db8::1")
    assert address_key("::ffff:10.1.2.3") == address_key("10.1.2.3") == "10.1.2.3"
