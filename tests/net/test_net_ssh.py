"""The SSH framing without sockets (mudwiz/net/ssh.py): who a user name and password prove to be (a real SQLite
store, passwords checked inline on ``task.Clock``), ``Connection.start_as`` fed what SSH proved, the listener's
place in the connection limits and its login timer on Twisted's ``StringTransport``, and the host key file.
The same over loopback with the real ``ssh`` is tests/wire/test_wire_ssh.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519
from outbox import Outbox
from turns import outflow
from twisted.conch.ssh import keys
from twisted.conch.ssh.session import SSHSession, SSHSessionProcessProtocol
from twisted.cred.error import UnauthorizedLogin
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from mudwiz.accounts import Accounts
from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.net.limits import ConnectionCounter, Limits
from mudwiz.net.lines import MAX_BACKLOG
from mudwiz.net.listener import Refused
from mudwiz.net.ssh import MudTransport, Player, SSHFactory
from mudwiz.net.sshauth import HOST_KEY, Login, Names, Password, host_key
from mudwiz.store import StoreError, open_store

SECRET = "a good long password"


@pytest.fixture
def lobby(tmp_path: Path) -> Lobby:
    clock = Clock()
    lobby = Lobby(clock, seed=1)
    lobby.accounts = Accounts(open_store(tmp_path / "data"), clock)
    lobby.accounts.register("Alice", SECRET)
    return lobby


def proved(lobby: Lobby, name: str, password: str, address: str = "10.0.0.1") -> Login | Failure:
    """What ``Names`` makes of a name and password: the ``Login``, or the failure that refuses it."""
    results: list[Any] = []
    Names(lobby).requestAvatarId(Password(name.encode(), password.encode(), address)).addBoth(results.append)
    assert len(results) == 1  # inline on a fake clock: answered at once
    return results[0]  # type: ignore[no-any-return]


def refusal(result: Login | Failure) -> str:
    assert isinstance(result, Failure) and result.check(UnauthorizedLogin), result
    return result.getErrorMessage()


def test_an_account_is_proved_by_its_password_in_any_case_of_its_name(lobby: Lobby) -> None:
    assert proved(lobby, "ALICE", SECRET) == Login("Alice", "password")
    assert refusal(proved(lobby, "alice", "wrong")) == "wrong password for Alice"
    assert refusal(proved(lobby, "alice", "")) == "wrong password for Alice"


def test_failed_logins_are_throttled_per_name_and_per_address(lobby: Lobby) -> None:
    for _ in range(5):
        refusal(proved(lobby, "Alice", "wrong"))
    assert refusal(proved(lobby, "Alice", SECRET)).startswith("too many failed logins for Alice; try again in 60 s")
    assert refusal(proved(lobby, "Alice", SECRET, "10.0.0.2")).startswith("too many failed logins for Alice")
    lobby.clock.advance(61)  # type: ignore[attr-defined]
    assert proved(lobby, "Alice", SECRET, "10.0.0.2") == Login("Alice", "password")


def test_a_free_name_is_a_guest_s_with_any_password(lobby: Lobby) -> None:
    assert proved(lobby, "bob", "") == Login("bob", "guest")
    assert proved(lobby, "bob", "whatever") == Login("bob", "guest")
    assert proved(lobby, "not a name!", "") == Login("not a name!", "guest")  # refused once in, in one line


def dropped_mid_game(lobby: Lobby, name: str) -> str:
    """``name`` logs in as a guest, starts a game with two bots and drops: the seat, and the name, are held for
    her. Returns her resume code."""
    connection = Connection(lobby, Outbox())
    connection.start_as(name, "guest")
    for line in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        connection.receive(line)
    assert connection.session.table is not None and connection.session.table.in_game
    connection.lost()
    return lobby.resume_codes[name.lower()]


def test_a_held_guest_name_takes_its_resume_code(lobby: Lobby) -> None:
    code = dropped_mid_game(lobby, "Carol")
    assert lobby.needs_resume_code("carol")
    assert refusal(proved(lobby, "carol", "")).startswith("wrong resume code for Carol")
    assert proved(lobby, "CAROL", code.lower()) == Login("Carol", "resume")


def start_as(lobby: Lobby, name: str, proof: str) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox, "the motd")
    connection.start_as(name, proof)
    return connection, outbox


def test_start_as_logs_straight_in_with_no_name_prompt(lobby: Lobby) -> None:
    connection, outbox = start_as(lobby, "Alice", "password")
    said = outbox.take()
    assert said.startswith("the motd\n") and "What is your name?" not in said and "Welcome, Alice!" in said
    assert connection.logged_in and connection.session.registered and "resume code" not in said
    guest, outbox = start_as(lobby, "dave", "guest")
    assert guest.logged_in and not guest.session.registered and "Your resume code is" in outbox.take()


@pytest.mark.parametrize(("name", "proof", "why"), [
    ("no good!", "guest", "a name is 2 to 16"),
    ("alice", "guest", "Alice is registered: log in with its password"),  # registered since it was proved
    ("A1ice", "guest", "A1ice looks too like Alice, a registered name; choose another name"),  # Alice away or not
])
def test_start_as_refuses_a_name_in_one_line_and_closes(lobby: Lobby, name: str, proof: str, why: str) -> None:
    connection, outbox = start_as(lobby, name, proof)
    said = outbox.take()
    assert why in said and said.count("\n") == 2 and outbox.closed  # the motd, the refusal
    assert not connection.logged_in and not lobby.users


def test_start_as_refuses_a_name_taken_or_held_meanwhile(lobby: Lobby) -> None:
    start_as(lobby, "erin", "guest")
    taken, outbox = start_as(lobby, "ERIN", "guest")
    assert "erin is already connected" in outbox.take().lower() and outbox.closed and not taken.logged_in
    dropped_mid_game(lobby, "frank")
    thief, outbox = start_as(lobby, "frank", "guest")  # proved a guest before the name came to be held
    assert "held for a guest who dropped" in outbox.take() and outbox.closed and not thief.logged_in


# -- the listener


def factory(tmp_path: Path, lobby: Lobby, limits: Limits) -> SSHFactory:
    made = SSHFactory(lobby, "motd", 30.0, ConnectionCounter(limits), outflow=outflow(),
                      directory=str(tmp_path / "keys"))
    made.startFactory()
    return made


def test_ssh_connections_count_in_the_shared_limits_from_connect_to_close(tmp_path: Path, lobby: Lobby) -> None:
    ssh = factory(tmp_path, lobby, Limits(total=100, headroom=0, per_address=20, unnamed_per_address=2))
    counter = ssh.counter
    assert counter is not None
    peer = IPv4Address("TCP", "10.0.0.9", 5000)
    first, second = ssh.buildProtocol(peer), ssh.buildProtocol(peer)
    assert isinstance(first, MudTransport) and isinstance(second, MudTransport) and first.address == "10.0.0.9"
    third = ssh.buildProtocol(peer)
    assert isinstance(third, Refused) and "not yet logged in" in third.message  # as on telnet and raw
    first.makeConnection(StringTransport())
    first.logged_in()
    assert counter.unnamed == 1 and counter.connections == 2
    first.connectionLost(None)
    assert counter.connections == 1 and counter.unnamed == 1


def test_an_ssh_connection_that_never_logs_in_is_cut_off_at_the_login_timeout(tmp_path: Path, lobby: Lobby) -> None:
    ssh = factory(tmp_path, lobby, Limits(total=100, headroom=0))
    protocol = ssh.buildProtocol(IPv4Address("TCP", "10.0.0.9", 5000))
    assert isinstance(protocol, MudTransport)
    wire = StringTransport()
    protocol.makeConnection(wire)
    assert wire.value().startswith(b"SSH-2.0-")
    lobby.clock.advance(29)  # type: ignore[attr-defined]
    assert not wire.disconnecting
    lobby.clock.advance(1)  # type: ignore[attr-defined]
    assert wire.disconnecting and b"no login within 30 s" in wire.value()


def test_the_host_key_is_made_once_private_and_kept(tmp_path: Path) -> None:
    first = host_key(str(tmp_path))
    path = tmp_path / HOST_KEY
    assert path.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / (HOST_KEY + ".pub")).read_bytes().startswith(b"ssh-ed25519 ")
    assert host_key(str(tmp_path)) == first


def test_a_host_key_file_that_is_no_key_stops_the_start_with_its_name(tmp_path: Path) -> None:
    (tmp_path / HOST_KEY).write_text("not a key\n")
    with pytest.raises(StoreError, match=HOST_KEY):
        host_key(str(tmp_path))


@pytest.mark.parametrize("kind", ["passphrase", "public", "directory"])
def test_a_host_key_no_server_can_use_stops_the_start_in_one_line(tmp_path: Path, kind: str) -> None:
    """Each crashed the start with a traceback, or (a public key) started a server on which every login failed."""
    path = tmp_path / HOST_KEY
    key = keys.Key(ed25519.Ed25519PrivateKey.generate())
    if kind == "passphrase":
        path.write_bytes(key.toString("OPENSSH", passphrase=b"secret pass"))
    elif kind == "public":
        path.write_bytes(key.public().toString("OPENSSH"))
    else:
        path.mkdir()
    with pytest.raises(StoreError, match=HOST_KEY) as refused:
        host_key(str(tmp_path))
    assert "\n" not in str(refused.value)


class Peer:
    """Conch's side of an SSH connection as a channel sees it (``SSHConnection``'s sends), for a client that
    never opens its window: nothing is ever sent, all waits in the channel."""

    def __init__(self, transport: MudTransport) -> None:
        self.transport = transport
        self.requests: list[bytes] = []

    def sendData(self, channel: Any, data: bytes) -> None:
        raise AssertionError("a closed window lets nothing out")

    def sendRequest(self, channel: Any, kind: bytes, data: bytes, wantReply: bool = False) -> None:
        self.requests.append(kind)

    def sendClose(self, channel: Any) -> None:
        pass

    def sendEOF(self, channel: Any) -> None:
        pass


def test_a_client_that_never_opens_its_channel_window_is_dropped(tmp_path: Path, lobby: Lobby) -> None:
    """It may read every TCP packet, so the socket never backs up: what waits in the channel is counted too."""
    ssh = factory(tmp_path, lobby, Limits(total=100, headroom=0))
    transport = ssh.buildProtocol(IPv4Address("TCP", "10.0.0.9", 5000))
    assert isinstance(transport, MudTransport)
    wire = StringTransport()
    transport.makeConnection(wire)
    player = Player(Login("gina", "guest"))
    channel = SSHSession(remoteWindow=0, remoteMaxPacket=32768, conn=Peer(transport), avatar=player)  # type: ignore[arg-type]
    player.openShell(SSHSessionProcessProtocol(channel))
    lines = player.lines
    assert lines is not None and lines.connection.logged_in
    for _ in range(MAX_BACKLOG // 1000):
        lines.dataReceived(b"/help all\n")
        if lines.dropped:
            break
    assert lines.dropped and wire.disconnecting
    assert MAX_BACKLOG - 20_000 < len(channel.buf) <= MAX_BACKLOG  # held up to the limit, then no more
