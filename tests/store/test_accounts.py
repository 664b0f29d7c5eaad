"""Accounts over the connection fed lines: a real SQLite file, real argon2id (inline: a fake clock has no threads),
the real lobby; then the telnet framing's echo bytes around a password, and the failure limit on a fake clock."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from outbox import Outbox
from turns import outflow
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from mudwiz.accounts import Accounts
from mudwiz.connection import NAME_PROMPT, Connection
from mudwiz.lobby import Lobby
from mudwiz.net.telnet import MudFactory
from mudwiz.ratelimit import FailureLimit
from mudwiz.store import FILENAME, SQLiteStore, open_store
from mudwiz.store.sqlite import MIGRATIONS

SECRET = "correct horse"


def lobby_with_accounts(tmp_path: Path, clock: Clock | None = None) -> Lobby:
    clock = clock or Clock()
    lobby = Lobby(clock, seed=1)
    lobby.accounts = Accounts(open_store(tmp_path), clock)
    return lobby


def connect(lobby: Lobby, address: str = "10.0.0.1") -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox, "", address=address)
    connection.start()
    outbox.take()
    return connection, outbox


def register(lobby: Lobby, name: str, password: str = SECRET) -> None:
    connection, outbox = connect(lobby)
    for line in (name, "/register", password, password):
        connection.receive(line)
    assert f"{name} is registered" in outbox.take()
    connection.receive("/quit")
    connection.lost()


def test_register_then_log_in_in_another_case_with_the_right_password_only(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    connection, outbox = connect(lobby)
    connection.receive("Mixed_Case")
    outbox.take()
    connection.receive("/register")
    said = outbox.take()
    assert "choose a password for Mixed_Case" in said and said.endswith("«on»Password: ")
    connection.receive(SECRET)
    assert outbox.take() == "\n«on»Again: "  # echo still off (telnet sends nothing for an «on» already on)
    connection.receive(SECRET)
    said = outbox.take()
    assert said.startswith("\n«off»") and "Mixed_Case is registered" in said
    connection.receive("/quit")
    connection.lost()

    again, outbox = connect(lobby)
    again.receive("mixed_CASE")
    assert outbox.take() == "«on»Password: " and not again.logged_in
    again.receive("wrong password")
    said = outbox.take()
    assert said.startswith("\n«off»") and "wrong password for Mixed_Case" in said and said.endswith(NAME_PROMPT)
    assert not again.logged_in and "mixed_case" not in lobby.users
    again.receive("MIXED_case")
    outbox.take()
    again.receive(SECRET)
    said = outbox.take()
    assert again.logged_in and again.session.name == "Mixed_Case" and "Welcome, Mixed_Case!" in said
    assert SECRET not in said and "wrong password" not in said
    assert again.session.registered


def test_a_mismatch_or_a_short_password_registers_nothing(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    connection, outbox = connect(lobby)
    connection.receive("careless")
    for lines, why in (((SECRET, SECRET + "x"), "the two passwords differ"),
                       (("short",), "a password has at least 8 characters")):  # said at once, not after "Again:"
        outbox.take()
        first = lines[0]
        for line in ("/register", *lines):
            connection.receive(line)
        said = outbox.take()
        assert f"{why}; nothing was registered" in said and said.count("\n«off»") == 1
        assert first not in said and lobby.accounts is not None and lobby.accounts.find("careless") is None
    connection.receive("/register mypassword")  # the password where it would be seen: refused, not quoted
    said = outbox.take()
    assert "/register takes nothing after it" in said and "mypassword" not in said
    assert not connection.session.registered


def test_password_lines_are_no_chat_and_a_json_client_is_asked_by_a_message(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    listener, heard = connect(lobby)
    listener.receive("listener")
    bot, outbox = connect(lobby)
    bot.receive("/mode json")
    bot.receive("robo")
    heard.take()
    outbox.take()
    bot.receive('{"id": 1, "cmd": "/register"}')
    replies = [json.loads(line) for line in outbox.take().splitlines()]
    assert replies[0]["type"] == "ok" and replies[0]["id"] == 1
    assert replies[1] == {"type": "password", "name": "robo", "prompt": "Password"}
    bot.receive(json.dumps({"id": 2, "cmd": SECRET}))
    assert json.loads(outbox.take()) == {"type": "password", "name": "robo", "prompt": "Again", "id": 2}
    bot.receive(SECRET)  # a bare line serves as well
    (reply,) = [json.loads(line) for line in outbox.take().splitlines()]
    assert reply["type"] == "ok" and "robo is registered" in reply["text"] and "«" not in reply["text"]
    assert heard.take() == ""  # nobody else heard a thing
    bot.lost()
    bot, outbox = connect(lobby)
    bot.receive("/mode json")
    outbox.take()
    bot.receive("ROBO")
    assert json.loads(outbox.take()) == {"type": "password", "name": "robo", "prompt": "Password"}
    bot.receive(json.dumps({"id": "pw", "cmd": SECRET}))
    welcome = json.loads(outbox.take().splitlines()[0])
    assert welcome["type"] == "welcome" and welcome["name"] == "robo"


def test_an_away_owners_name_is_not_taken_without_the_password(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    owner, _ = connect(lobby)
    for line in ("owner_x", "/new wizard", "/bot add random", "/bot add random", "/start", "/register", SECRET, SECRET):
        owner.receive(line)
    owner.lost()
    assert "owner_x" in lobby.away  # the seat is kept for them
    thief, outbox = connect(lobby, "10.6.6.6")
    thief.receive("OWNER_X")
    thief.receive("guess one")
    assert not thief.logged_in and "wrong password for owner_x" in outbox.take()
    thief.receive("/who")
    assert "first tell me your name" in outbox.take()
    assert "owner_x" in lobby.away and "owner_x" not in lobby.users


def test_failed_logins_are_throttled_per_account_and_per_address(tmp_path: Path) -> None:
    clock = Clock()
    lobby = lobby_with_accounts(tmp_path, clock)
    register(lobby, "target")
    register(lobby, "other")
    guesser, outbox = connect(lobby, "10.6.6.6")
    for i in range(5):
        guesser.receive("target")
        guesser.receive(f"guess {i}")
        assert "wrong password for target" in outbox.take()
    guesser.receive("target")  # the password is asked all the same: the line after the name is always its proof
    assert outbox.take().endswith("Password: ")
    guesser.receive("guess 5")
    said = outbox.take()
    assert "too many failed logins for target; try again in 60 s" in said and said.endswith(NAME_PROMPT)
    owner, outbox2 = connect(lobby, "10.1.1.1")  # from elsewhere too: the account is held back
    owner.receive("target")
    owner.receive(SECRET)
    assert "too many failed logins for target; try again in 60 s" in outbox2.take() and not owner.logged_in
    at_home, outbox3 = connect(lobby, "10.0.0.1")  # where the name was registered: the guesser cannot lock it out
    at_home.receive("target")
    at_home.receive("guess 7")  # a slip there is still counted (the hold, 120 s now), and still wrong
    assert "wrong password for target" in outbox3.take()
    at_home.receive("target")
    at_home.receive(SECRET)
    assert at_home.logged_in and "Welcome, target!" in outbox3.take()
    at_home.receive("/quit")
    at_home.lost()
    owner.receive("target")  # the owner's login left the hold standing elsewhere: it gave a guesser no new tries
    owner.receive("guess 8")
    assert "too many failed logins for target" in outbox2.take()
    guesser.receive("other")  # and this address, for any account: the line says it is the address
    guesser.receive("guess 6")
    assert "too many failed logins from 10.6.6.6; try again in 60 s" in outbox.take()
    clock.advance(120)
    owner.receive("target")
    owner.receive(SECRET)
    assert owner.logged_in  # the owner, after the wait, with the right password
    guesser.receive("other")
    guesser.receive("guess again")
    assert "wrong password for other" in outbox.take()
    guesser.receive("other")
    guesser.receive("guess on")
    assert "try again in 120 s" in outbox.take()  # each failure after a wait doubles it


def test_password_changes_the_password(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    connection, outbox = connect(lobby)
    connection.receive("changer")
    connection.receive("/password")
    assert "only a registered name" in outbox.take()
    for line in ("/register", SECRET, SECRET):
        connection.receive(line)
    outbox.take()
    for line in ("/password", "not it at all", "new secret 1", "new secret 1"):
        connection.receive(line)
    said = outbox.take()
    assert "Old password: " in said and "wrong password; the password is unchanged" in said
    for line in ("/password", SECRET, "new secret 1", "new secret 1"):
        connection.receive(line)
    assert "your password is changed" in outbox.take()
    connection.lost()
    again, outbox = connect(lobby)
    again.receive("changer")
    again.receive(SECRET)
    assert "wrong password" in outbox.take()
    again.receive("changer")
    again.receive("new secret 1")
    assert again.logged_in


def test_password_while_held_back_asks_all_the_same_and_no_password_reaches_the_room(tmp_path: Path) -> None:
    """/password was refused at once while failed tries held the name back (which anyone could cause by guessing
    at its login; now one who shares the owner's address): the old and new passwords typed after it were chat,
    said to the lobby (found by a probe)."""
    clock = Clock()
    lobby = lobby_with_accounts(tmp_path, clock)
    register(lobby, "dave")
    dave, said = connect(lobby)
    dave.receive("dave")
    dave.receive(SECRET)
    assert dave.logged_in
    listener, heard = connect(lobby, "10.0.0.9")
    listener.receive("listener")
    guesser, _ = connect(lobby)  # at dave's address: a name's hold spares it, the address's does not
    for i in range(5):
        guesser.receive("dave")
        guesser.receive(f"guess {i}")
    heard.take()
    said.take()
    for line in ("/password", SECRET, "brand new 1", "brand new 1"):
        dave.receive(line)
    reply = said.take()
    assert "Old password: " in reply and "too many failed logins from 10.0.0.1" in reply
    assert "brand new 1" not in heard.take() + reply and SECRET not in reply
    clock.advance(60)
    for line in ("/password", SECRET, "        "):  # eight blanks: refused before "Again:"
        dave.receive(line)
    reply = said.take()
    assert "a password of blanks only is too easy to guess; the password is unchanged" in reply
    assert "Again: " not in reply


def test_a_password_dialogues_error_lists_no_moves_on_the_players_turn(tmp_path: Path) -> None:
    """'the two passwords differ; ...; you may: /bid 0, /bid 1': an account's error is not about the game."""
    clock = Clock()
    lobby = lobby_with_accounts(tmp_path, clock)
    register(lobby, "hank")
    hank, said = connect(lobby)
    for line in ("hank", SECRET, "/new wizard", "/bot add", "/bot add", "/start"):
        hank.receive(line)
    table = lobby.tables[1]
    assert table.game is not None
    for _ in range(100):  # the bots before hank bid
        if table.game.legal_actions(table.seat_of("hank")):
            break
        clock.advance(1)
    assert table.game.legal_actions(table.seat_of("hank"))
    said.take()
    for line in ("/password", SECRET, "new secret 1", "new secret 2"):
        hank.receive(line)
    reply = said.take()
    assert "the two passwords differ; the password is unchanged" in reply and "you may" not in reply
    hank.receive("/frob")  # a game's player still hears their moves after any other error
    assert "you may: /bid" in said.take()


def test_a_login_still_being_checked_when_the_connection_drops_logs_nobody_in(tmp_path: Path) -> None:
    from twisted.internet import defer

    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "dropper")
    assert lobby.accounts is not None
    pending: list[tuple[defer.Deferred[object], object]] = []

    def later(fn: object, *args: object) -> defer.Deferred[object]:  # a worker thread that has not finished
        d: defer.Deferred[object] = defer.Deferred()
        pending.append((d, fn))
        return d

    lobby.accounts.work = later
    connection, outbox = connect(lobby)
    connection.receive("dropper")
    connection.receive(SECRET)
    connection.receive("/who")
    assert "wait for the answer about your password" in outbox.take()
    connection.lost()
    (d, fn), = pending
    d.callback(fn())  # type: ignore[operator]
    assert "dropper" not in lobby.users and not connection.logged_in


def telnet_connection(lobby: Lobby) -> tuple[Any, StringTransport]:
    """A connection on the telnet port, its banner read: the protocol, and the transport it writes to."""
    protocol = MudFactory(lobby, "", 300.0, outflow=outflow()).buildProtocol(IPv4Address("TCP", "10.9.9.9", 4321))
    transport = StringTransport()
    protocol.makeConnection(transport)
    transport.clear()
    return protocol, transport


def test_telnet_turns_echo_off_for_the_password_and_on_again(tmp_path: Path) -> None:
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "tel_acct")
    protocol, transport = telnet_connection(lobby)
    protocol.dataReceived(b"TEL_ACCT\r\n")  # CR LF: a telnet client (the options it is offered come first)
    protocol.dataReceived(b"\xff\xfc\x1f\xff\xfc\x18")  # WONT NAWS, WONT TTYPE: the name waits no more
    offers, prompt = transport.value().rsplit(b"\xff\xfb\x01", 1)  # IAC WILL ECHO, then the prompt
    assert prompt == b"\rPassword: " and offers.startswith(b"\xff\xfb\x00")  # IAC WILL BINARY, ...
    transport.clear()
    protocol.dataReceived(b"\xff\xfd\x01")  # the client's IAC DO ECHO: taken quietly
    assert transport.value() == b""
    protocol.dataReceived(SECRET.encode() + b"\r\n")
    said = transport.value()
    assert said.startswith(b"\r\n\xff\xfc\x01")  # a new line (the Enter was not echoed), IAC WONT ECHO
    assert b"Welcome, tel_acct!" in said and SECRET.encode() not in said


def test_a_first_line_whose_lf_comes_a_read_later_still_gets_echo_off_for_the_password(tmp_path: Path) -> None:
    """The name's CR is Enter at once (a bare-CR client's line no longer waits for the next byte), so when its LF
    came in the next read the name had been acted on and its password asked before the pair showed a telnet
    client: the prompt came with no IAC WILL ECHO, and the password was shown as typed (a QA probe)."""
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "tel_split")
    protocol, transport = telnet_connection(lobby)
    protocol.dataReceived(b"tel_split\r")
    assert transport.value().endswith(b"Password: ") and b"\xff" not in transport.value()  # no telnet seen yet
    transport.clear()
    protocol.dataReceived(b"\n")  # CR LF after all: a telnet client, at its password prompt
    assert b"\xff\xfb\x01" in transport.value()  # IAC WILL ECHO: its echo goes off now
    transport.clear()
    protocol.dataReceived(b"\xff\xfd\x01\xff\xfc\x1f\xff\xfc\x18")  # DO ECHO; WONT NAWS, TTYPE: nothing to wait for
    protocol.dataReceived(SECRET.encode() + b"\r\n")
    said = transport.value()
    assert b"\xff\xfc\x01" in said and b"Welcome, tel_split!" in said and SECRET.encode() not in said


def test_the_failure_limit_five_a_minute_then_a_growing_wait() -> None:
    clock = Clock()
    limit = FailureLimit(clock, 5, 60.0, 3600.0)
    for _ in range(4):
        limit.failed("k")
        clock.advance(10)
    assert limit.wait("k") == 0
    clock.advance(21)  # the first failure is now more than a minute old
    limit.failed("k")
    assert limit.wait("k") == 0
    limit.failed("k")
    assert limit.wait("k") == 60
    clock.advance(60)
    limit.failed("k")
    assert limit.wait("k") == 120
    clock.advance(120)
    for expected in (240, 480, 960, 1920, 3600, 3600):
        limit.failed("k")
        assert limit.wait("k") == expected
        clock.advance(expected)
    clock.advance(3601)
    limit.failed("k")
    assert limit.wait("k") == 0  # quiet for an hour: afresh
    assert limit.wait("never") == 0


def test_a_hold_does_not_stop_an_address_that_proved_the_key_and_the_memory_is_bounded() -> None:
    clock = Clock()
    limit = FailureLimit(clock, 1, 60.0, 3600.0)
    limit.succeeded("k", "home")
    limit.failed("k")
    assert limit.wait("k", "elsewhere") == 60 and limit.wait("k") == 60 and limit.wait("k", "home") == 0
    for i in range(FailureLimit.TRUSTED_PER_KEY):  # the latest eight addresses are remembered
        limit.succeeded("k", f"new {i}")
    limit.failed("k")  # during the hold (a success then leaves it): it doubles
    assert limit.wait("k", "home") == 120 and limit.wait("k", "new 0") == 0
    limit.succeeded("k", "home")  # let in past the hold, which stands for everyone else
    assert limit.wait("k", "elsewhere") > 0
    limit.succeeded("k", "new owner", fresh=True)  # registered anew, or a new guest: the others are not trusted
    assert limit.wait("k", "home") > 0 and limit.wait("k", "new owner") == 0
    limit.TRUSTED_KEYS = 4
    for i in range(5):
        limit.succeeded(f"key {i}", "a")
    assert list(limit.trusted) == ["key 1", "key 2", "key 3", "key 4"]  # past 4, the older half was forgotten


def test_passwords_checked_from_one_address_are_limited_right_or_wrong(tmp_path: Path) -> None:
    """Each check is argon2id's 64 MiB and tens of milliseconds of the workers every login shares: a few
    connections changing their password in a loop (right each time, so never counted as failures) made a login
    take seconds (found by a probe)."""
    clock = Clock()
    lobby = lobby_with_accounts(tmp_path, clock)
    register(lobby, "erin")  # one check: its hash
    erin, said = connect(lobby)
    erin.receive("erin")
    erin.receive(SECRET)  # two
    assert erin.logged_in
    said.take()
    for _ in range(18):
        for line in ("/password", SECRET, SECRET, SECRET):
            erin.receive(line)
        assert "your password is changed" in said.take()
    for line in ("/password", SECRET, SECRET, SECRET):
        erin.receive(line)
    assert "too many passwords checked from 10.0.0.1; try again in 3 s" in said.take()
    elsewhere, outbox = connect(lobby, "10.2.2.2")  # another address has its own count
    elsewhere.receive("erin_two")
    for line in ("/register", SECRET, SECRET):
        elsewhere.receive(line)
    assert "erin_two is registered" in outbox.take()
    clock.advance(3)
    for line in ("/password", SECRET, SECRET, SECRET):
        erin.receive(line)
    assert "your password is changed" in said.take()


def test_a_name_being_registered_is_not_a_guests_for_the_taking(tmp_path: Path) -> None:
    """The registrant dropped while the account was being made, and a guest came in under the name at once: the
    account was made all the same, and the guest played on under it with no password (found by a probe)."""
    from twisted.internet import defer

    waiting: list[tuple[defer.Deferred[Any], Any]] = []

    def later(fn: Any, *args: Any) -> defer.Deferred[Any]:  # a worker thread that has not finished yet
        d: defer.Deferred[Any] = defer.Deferred()
        waiting.append((d, lambda: fn(*args)))
        return d

    lobby = Lobby(Clock(), seed=1)
    lobby.accounts = Accounts(open_store(tmp_path), Clock(), work=later)
    erin, _ = connect(lobby)
    for line in ("erin", "/register", SECRET, SECRET):
        erin.receive(line)
    erin.lost()
    guest, outbox = connect(lobby, "10.3.3.3")
    guest.receive("Erin")
    assert "Erin is being registered; log in with its password in a moment" in outbox.take()
    assert not guest.logged_in
    [(done, work)] = waiting
    done.callback(work())
    guest.receive("erin")
    assert outbox.take().endswith("Password: ")  # an account's name now


def test_two_logins_with_the_password_at_once_end_as_one_taken_over(tmp_path: Path) -> None:
    """The second of two right passwords checked at once was told 'already connected; choose another name':
    proven, it takes the name over, as it would have coming a moment later (found by a probe)."""
    from twisted.internet import defer

    waiting: list[tuple[defer.Deferred[Any], Any]] = []

    def later(fn: Any, *args: Any) -> defer.Deferred[Any]:
        d: defer.Deferred[Any] = defer.Deferred()
        waiting.append((d, lambda: fn(*args)))
        return d

    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "dana")
    assert lobby.accounts is not None
    lobby.accounts.work = later
    first, said1 = connect(lobby)
    second, said2 = connect(lobby, "10.0.0.2")
    for connection in (first, second):
        connection.receive("dana")
        connection.receive(SECRET)
    for done, work in waiting:
        done.callback(work())
    assert second.logged_in and lobby.users["dana"] is second.session
    assert "Welcome, dana!" in said2.take() and "logged in again on another connection (10.0.0.2)" in said1.take()


def test_a_password_and_a_chat_line_with_del_read_the_same_bare_or_as_json(tmp_path: Path) -> None:
    """DEL takes back the character before it in a bare line (a terminal's key); a JSON request's ``cmd`` kept
    it, so a password registered from a terminal was wrong from a bot, and chat differed (found by a probe)."""
    lobby = lobby_with_accounts(tmp_path)
    typed = "pass wordX\x7f12"  # the X taken back: the password is "pass word12"
    register(lobby, "del_user", typed)
    bot, outbox = connect(lobby, "10.0.0.2")
    bot.receive("/mode json")
    bot.receive("del_user")
    bot.receive(json.dumps({"id": 1, "cmd": typed}))
    assert bot.logged_in, outbox.take()
    listener, heard = connect(lobby, "10.0.0.3")
    listener.receive("listener")
    heard.take()
    bot.receive(json.dumps({"id": 2, "cmd": "bell\x7fdel"}))
    assert "beldel" in heard.take()


def test_bots_are_never_named_as_an_account(tmp_path: Path) -> None:
    """A bot called bot2 locked out the account bot2 ('a computer player at a table') and put its games in the
    account's history (found by a probe)."""
    lobby = lobby_with_accounts(tmp_path)
    assert lobby.accounts is not None  # made before bot and digits was kept for bots: /register refuses it now
    lobby.accounts.store.create_account("bot2", lobby.accounts.hasher.hash(SECRET))
    host, _ = connect(lobby)
    for line in ("hoster", "/new wizard", "/bot add random", "/bot add random"):
        host.receive(line)
    table = host.session.table
    assert table is not None and [s.name for s in table.seats] == ["hoster", "bot1", "bot3"]
    owner, outbox = connect(lobby, "10.0.0.4")
    owner.receive("bot2")
    owner.receive(SECRET)
    assert owner.logged_in, outbox.take()


def test_a_password_is_the_same_in_nfc_and_nfd_and_an_older_nfd_hash_still_logs_in(tmp_path: Path) -> None:
    """``pässwörd`` typed as one code point an umlaut (NFC) or as a letter and a combining mark (NFD: macOS
    input) was two passwords; each is hashed and checked in NFC now (RFC 8265)."""
    import unicodedata

    nfc, nfd = (unicodedata.normalize(form, "pässwörd ok") for form in ("NFC", "NFD"))
    assert nfc != nfd
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "umlaut", nfd)
    for typed in (nfc, nfd):
        connection, outbox = connect(lobby)
        connection.receive("umlaut")
        connection.receive(typed)
        assert connection.logged_in, outbox.take()
        connection.receive("/quit")
        connection.lost()
    assert lobby.accounts is not None  # an account hashed as typed, before: still right as typed
    lobby.accounts.store.create_account("older", lobby.accounts.hasher.hash(nfd))
    connection, outbox = connect(lobby)
    connection.receive("older")
    connection.receive(nfd)
    assert connection.logged_in, outbox.take()


def test_a_password_sent_as_a_request_is_answered_with_its_id(tmp_path: Path) -> None:
    """docs/protocol.md: a password may come as a request's cmd, "then the reply carries its id". A right
    password's reply (the welcome) had none, nor had the prompt after a first new password (found by a probe)."""
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "idbot")
    bot, outbox = connect(lobby)
    bot.receive("/mode json")
    bot.receive("idbot")
    outbox.take()
    bot.receive(json.dumps({"id": "pw", "cmd": SECRET}))
    said = [json.loads(line) for line in outbox.take().splitlines() if line.startswith("{")]
    assert bot.logged_in and said[-1] == {"type": "ok", "id": "pw"} and said[0]["type"] == "welcome"
    bot.receive(json.dumps({"id": 1, "cmd": "/password"}))
    outbox.take()
    bot.receive(json.dumps({"id": 2, "cmd": SECRET}))
    assert json.loads(outbox.take()) == {"type": "password", "name": "idbot", "prompt": "New password", "id": 2}
    bot.receive(json.dumps({"id": 3, "cmd": "brand new 1"}))
    assert json.loads(outbox.take())["id"] == 3
    bot.receive(json.dumps({"id": 4, "cmd": "brand new 1"}))
    assert json.loads(outbox.take()) == {"type": "ok", "id": 4, "text": "your password is changed"}


def test_json_that_is_no_request_is_refused_never_said_to_the_room(tmp_path: Path) -> None:
    """A batch's array, a string, a number or null was chat, said to everyone in the room (found by a probe)."""
    from mudwiz.connection import request_id_of

    lobby = lobby_with_accounts(tmp_path)
    bot, outbox = connect(lobby)
    bot.receive("/mode json")
    bot.receive("jsonbot")
    listener, heard = connect(lobby, "10.0.0.3")
    listener.receive("listener")
    heard.take()
    outbox.take()
    for line in ('[{"id": 1, "cmd": "/tables"}]', '"/tables"', "null", "17", "true"):
        bot.receive(line)
        assert json.loads(outbox.take())["message"].startswith("bad JSON request: a JSON request is {"), line
    assert "chat" not in heard.take()
    bot.receive("no JSON at all")  # a bare line is still chat
    assert "no JSON at all" in heard.take()
    assert request_id_of('{"id": 7, "cmd": "/who"}') == 7 and request_id_of("secret {") is None
    assert request_id_of('{"id": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}') is None


def test_a_password_is_measured_as_hashed_and_blank_by_chats_rule(tmp_path: Path) -> None:
    """Five umlauts typed in NFD (ten code points) made an 'eight-character' password of five; eight braille
    blanks were no blanks to str.strip (found by a probe)."""
    import unicodedata

    lobby = lobby_with_accounts(tmp_path)
    for typed, why in ((unicodedata.normalize("NFD", "äöüäö"), "at least 8 characters"),
                       ("\u2800" * 8, "blanks only"), ("\u3164" * 8, "blanks only")):
        connection, outbox = connect(lobby)
        connection.receive("shorty")
        for line in ("/register", typed):
            connection.receive(line)
        assert why in outbox.take() and lobby.accounts is not None and lobby.accounts.find("shorty") is None
        connection.receive("/quit")
        connection.lost()


def test_a_name_sent_as_a_request_is_answered_with_its_id(tmp_path: Path) -> None:
    """A guest's name as {"id": 1, "cmd": NAME} got the welcome and no reply with its id; a registered name's
    password prompt had none either (found by a probe)."""
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "known")
    for name, last in (("guesty", {"type": "ok", "id": 1}),
                       ("known", {"type": "password", "name": "known", "prompt": "Password", "id": 1})):
        bot, outbox = connect(lobby)
        bot.receive("/mode json")
        outbox.take()
        bot.receive(json.dumps({"id": 1, "cmd": name}))
        said = [json.loads(line) for line in outbox.take().splitlines() if line.startswith("{")]
        assert said[-1] == last and [m for m in said if m.get("id") == 1] == [last]


# -- names that look like a registered one (usertext.skeleton: CaroI, car0l and Carol)


def test_a_guest_may_not_take_a_name_that_looks_like_an_account_whose_owner_is_away(tmp_path: Path) -> None:
    """Refused only while the look-alike was online: with Carol registered and away, a guest came in as CaroI
    (a capital i) and chatted and played as her. Her own name in any case is hers, asked for its password."""
    lobby = lobby_with_accounts(tmp_path)
    register(lobby, "Carol")
    assert "carol" not in lobby.users
    for alike in ("CaroI", "car0l", "Caro1"):
        poser, outbox = connect(lobby)
        poser.receive(alike)
        said = outbox.take()
        assert f"{alike} looks too like Carol, a registered name; choose another name" in said, said
        assert said.endswith(NAME_PROMPT) and not poser.logged_in and alike.lower() not in lobby.users
        assert lobby.resume_code(poser.session) is None and alike.lower() not in lobby.resume_codes
    owner, outbox = connect(lobby)
    owner.receive("CAROL")
    assert outbox.take() == "«on»Password: "
    owner.receive(SECRET)
    assert owner.logged_in and owner.session.name == "Carol" and owner.session.registered
    poser, outbox = connect(lobby)
    poser.receive("CaroI")  # and while she is here, as ever
    assert "CaroI looks too like Carol, who is online; choose another name" in outbox.take()
    other, _ = connect(lobby)
    other.receive("Caroline")  # a name merely like hers is no look-alike
    assert other.logged_in


def test_a_guest_back_with_the_code_of_a_name_held_for_them_keeps_it_and_may_not_register_it(tmp_path: Path) -> None:
    """mark dropped mid-game (his seat and name held for him, his code in hand); meanwhile rnark came, whom
    nobody online looked like, and registered. mark's own name is still his to come back to: the code proves it,
    as it does past a look-alike online. But he may not make it an account beside rnark's."""
    lobby = lobby_with_accounts(tmp_path)
    mark, _ = connect(lobby)
    for line in ("mark", "/new wizard", "/bot add random", "/bot add random", "/start"):
        mark.receive(line)
    code = lobby.resume_codes["mark"]
    mark.lost()
    register(lobby, "rnark")
    back, outbox = connect(lobby)
    back.receive("mark")
    assert outbox.take().endswith("Resume code: ")
    back.receive(code)
    assert back.logged_in and back.session.table is not None, outbox.take()
    outbox.take()
    back.receive("/register")
    said = outbox.take()
    assert "mark looks too like rnark, a registered name; choose another name to register" in said, said
    assert back.asking is None and lobby.accounts is not None and lobby.accounts.find("mark") is None


def test_a_code_left_over_from_a_name_no_longer_held_lets_no_look_alike_in(tmp_path: Path) -> None:
    """Pau1 played, left (a stand-in kept the name, and its code), and went; Paul registered. The game ended and
    the stand-in left, the table still open with its host at it: the old code was still kept, and as nothing held
    the name nobody was asked it, so anyone came in as Pau1 past the look-alike check, which a code had let off."""
    clock = Clock()
    lobby = lobby_with_accounts(tmp_path, clock)
    host, _ = connect(lobby)
    for line in ("Hosty", "/new wizard", "/option rounds 1", "/bot add random"):
        host.receive(line)
    poser, _ = connect(lobby)
    poser.receive("Pau1")
    poser.receive("/join 1")
    host.receive("/start")
    poser.receive("/leave")
    poser.receive("/quit")
    poser.lost()
    register(lobby, "Paul")
    table = lobby.tables[1]
    assert table.game is not None and lobby.holds_name("pau1")
    for _ in range(500):  # Hosty plays the game out with the bot and Pau1's stand-in
        if table.game.finished:
            break
        for action in table.game.legal_actions(0)[:1]:
            host.receive(f"/{action.verb} {' '.join(action.args)}")
        if table.game.phase == "roundend":
            host.receive("/ok")
        clock.advance(5)
    assert not lobby.holds_name("pau1") and host.session.table is table  # the stand-in gone, the table open
    again, outbox = connect(lobby)
    again.receive("Pau1")
    said = outbox.take()
    assert "Pau1 looks too like Paul, a registered name; choose another name" in said, said
    assert not again.logged_in


def test_a_small_i_is_no_l_nor_a_capital_one_an_i() -> None:
    """The look is of the name as spelled: ``CaroI`` (a capital i) reads as Carol, but Lisa and Ilsa, Li and Il
    are names of their own, which a look taken in lower case (``i`` as ``l``) made one."""
    lobby = Lobby(Clock(), seed=1)
    for name in ("Lisa", "Ilsa", "li", "Il"):
        guest, _ = connect(lobby)
        guest.receive(name)
        assert guest.logged_in, name
    poser, outbox = connect(lobby)
    poser.receive("LlSA")
    assert "LlSA looks too like Ilsa, who is online; choose another name" in outbox.take()


def test_a_name_is_not_registered_when_a_look_alike_is_registered_while_its_passwords_are_typed(
        tmp_path: Path) -> None:
    """Another process on the same database (a cluster) registers Carol while CaroI, online here, is between
    /register and the account being made: the store refuses, in the one transaction that would have made it."""
    from twisted.internet import defer

    waiting: list[tuple[defer.Deferred[Any], Any]] = []

    def later(fn: Any, *args: Any) -> defer.Deferred[Any]:  # the password threads, not yet done
        d: defer.Deferred[Any] = defer.Deferred()
        waiting.append((d, lambda: fn(*args)))
        return d

    lobby = lobby_with_accounts(tmp_path)
    assert lobby.accounts is not None
    lobby.accounts.work = later
    poser, outbox = connect(lobby)
    poser.receive("CaroI")
    outbox.take()
    poser.receive("/register")
    assert "choose a password for CaroI" in outbox.take()
    lobby.accounts.store.create_account("Carol", lobby.accounts.hasher.hash(SECRET))  # the other process's
    for line in (SECRET, SECRET):
        poser.receive(line)
    [(done, work)] = waiting
    try:
        done.callback(work())
    except Exception as exc:  # as the thread's Deferred fails
        done.errback(exc)
    said = outbox.take()
    assert "CaroI looks too like Carol, a registered name; nothing was registered" in said, said
    assert lobby.accounts.find("CaroI") is None and not poser.session.registered
    assert "CaroI" not in lobby.accounts.registering.values()
    poser.receive("/register")  # and asked again, at once
    assert "CaroI looks too like Carol, a registered name; choose another name to register" in outbox.take()


def test_accounts_that_looked_alike_before_names_were_compared_by_look_both_still_log_in(tmp_path: Path) -> None:
    """Carol and CaroI were both registered under version 8, which compared names online only: the migration
    locks neither owner out. Each logs in with their own password, and a new guest's look-alike of both is
    refused naming the older."""
    SQLiteStore(tmp_path / FILENAME, migrations=MIGRATIONS[:8]).close()
    db = sqlite3.connect(tmp_path / FILENAME)
    with db:  # as version 8's code registered them, Carol first
        hashed = PasswordHasher().hash
        db.executemany("INSERT INTO accounts VALUES (?, ?, ?, ?)",
                       [("carol", "Carol", hashed(SECRET), 1.0), ("caroi", "CaroI", hashed(SECRET + "!"), 2.0)])
    db.close()
    lobby = lobby_with_accounts(tmp_path)
    for typed, spelled, password in (("caroi", "CaroI", SECRET + "!"), ("Carol", "Carol", SECRET)):
        owner, outbox = connect(lobby)
        owner.receive(typed)
        owner.receive(password)
        said = outbox.take()
        assert owner.logged_in and owner.session.registered and f"Welcome, {spelled}!" in said, said
        owner.receive("/quit")
        owner.lost()
    poser, outbox = connect(lobby)
    poser.receive("car0l")
    assert "car0l looks too like Carol, a registered name; choose another name" in outbox.take()
    owner, outbox = connect(lobby)
    owner.receive("CaroI")
    owner.receive(SECRET + "!")
    outbox.take()
    for line in ("/password", SECRET + "!", SECRET + "?", SECRET + "?"):  # the account is whole: its password changes
        owner.receive(line)
    assert "your password is changed" in outbox.take()


def test_a_too_short_password_is_refused_at_its_first_entry(tmp_path: Path) -> None:
    """/register and /password asked for a too-short password twice before saying it was too short."""
    lobby = lobby_with_accounts(tmp_path)
    connection, outbox = connect(lobby)
    connection.receive("brief")
    outbox.take()
    connection.receive("/register")
    outbox.take()
    connection.receive("short")
    said = outbox.take()
    assert "a password has at least 8 characters; nothing was registered" in said and "Again: " not in said
    assert said.startswith("\n«off»") and "short" not in said.replace("too short", "")
    assert lobby.accounts is not None and lobby.accounts.find("brief") is None
    register(lobby, "owner")
    owner, heard = connect(lobby)
    for line in ("owner", SECRET, "/password", SECRET, "tiny"):
        owner.receive(line)
    said = heard.take()
    assert "a password has at least 8 characters; the password is unchanged" in said
    assert said.count("Again: ") == 0 and "tiny" not in said


def test_bot_and_digits_is_no_guests_name_but_an_account_so_named_logs_in(tmp_path: Path) -> None:
    """A guest could be called bot9 and pass for a computer player; an account made before the rule keeps its
    name, and a BBS caller's bot9@tag is no bot's name."""
    lobby = lobby_with_accounts(tmp_path)
    for typed in ("bot9", "BOT12"):
        connection, outbox = connect(lobby)
        connection.receive(typed)
        said = outbox.take()
        assert "! bot followed by digits is kept for computer players; choose another name\x1b[0m\n" in said
        assert said.count("\n") <= 2 and not connection.logged_in
    for fine in ("bot", "botany", "robot9", "bot9x"):
        connection, outbox = connect(lobby)
        connection.receive(fine)
        assert connection.logged_in, outbox.take()
        connection.receive("/quit")
        connection.lost()
    assert lobby.accounts is not None
    lobby.accounts.store.create_account("bot7", lobby.accounts.hasher.hash(SECRET))
    old, outbox = connect(lobby)
    old.receive("bot7")
    assert outbox.take().endswith("Password: ")
    old.receive(SECRET)
    assert old.logged_in and "Welcome, bot7!" in outbox.take()
    assert lobby.check_name("bot9@bbs", "bbs") == "bot9@bbs"
