"""The connection with no sockets: a ``Connection`` fed lines, its output read back as text; then the shared line
framing (``mudwiz/net/``) on Twisted's ``StringTransport``, fed bytes, with the login timer on ``task.Clock``.

Real lobby, tables, engines and renderers throughout; only the bytes' way to a socket is left out.
"""

from __future__ import annotations

import json
import re
from typing import Any

from outbox import Outbox
from turns import outflow
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

import mudwiz
from mudwiz.connection import MAX_LINE, NAME_PROMPT, Connection
from mudwiz.lobby import Lobby
from mudwiz.net.limits import ConnectionCounter, Limits
from mudwiz.net.lines import MAX_BACKLOG, LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.net.raw import RawFactory
from mudwiz.net.telnet import MudFactory

MOTD = "Hello there\nsecond line"


def connected(lobby: Lobby | None = None, login_timeout: float = 300.0) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby or Lobby(Clock(), seed=1), outbox, MOTD, login_timeout=login_timeout)
    connection.start()
    return connection, outbox


# -- the connection, fed lines


def test_the_motd_and_the_prompt_then_a_name_logs_in() -> None:
    connection, outbox = connected()
    assert outbox.take() == f"Hello there\nsecond line\n{NAME_PROMPT}"
    connection.receive("alice")
    said = outbox.take()
    assert connection.logged_in and connection.lobby.users["alice"] is connection.session
    first, code, third, *_ = said.split("\n")
    assert f"* Welcome, alice! (mudwiz {mudwiz.__version__}) /help lists the commands" in first  # and the version
    assert "Online (1)" in third  # then the lobby
    assert f"* Your resume code is {connection.lobby.resume_codes['alice']}: type it" in code  # a guest's
    assert NAME_PROMPT not in said


def test_the_welcome_shows_the_version_within_80_columns_for_the_longest_name() -> None:
    connection, outbox = connected()
    outbox.take()
    connection.receive("Sixteen_letters_")
    said = outbox.take()
    assert connection.logged_in and f"mudwiz {mudwiz.__version__}" in said
    assert all(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) <= 80 for line in said.split("\n")), said


def test_a_bad_name_is_refused_with_the_reason_and_the_prompt_again() -> None:
    connection, outbox = connected()
    outbox.take()
    connection.receive("x")
    said = outbox.take()
    assert "2 to 16 of the letters" in said and said.endswith(NAME_PROMPT)
    connection.receive("/who")
    assert "first tell me your name" in outbox.take()
    connection.receive("")
    assert outbox.take() == NAME_PROMPT  # Enter alone: the prompt again, nothing else
    assert not connection.logged_in and not connection.lobby.users


def test_mode_json_before_the_name_makes_every_reply_a_json_line_of_its_own() -> None:
    connection, outbox = connected()
    outbox.take()
    connection.receive("/mode json")
    said = outbox.take()
    assert said.startswith("\n{")  # never glued to the prompt before it
    assert json.loads(said)["type"] == "ok"
    connection.receive("jason")
    replies = outbox.json_lines()
    assert replies[0]["type"] == "welcome" and replies[0]["name"] == "jason"
    assert replies[0]["version"] == mudwiz.__version__
    connection.receive("x y")  # chat now, not a name
    assert all(m["type"] != "welcome" for m in outbox.json_lines())


def test_a_json_request_is_answered_with_its_id_and_a_malformed_one_without() -> None:
    connection, outbox = connected()
    connection.receive("/mode json")
    connection.receive("jrequest")
    outbox.take()
    connection.receive('{"id": [7, "x"], "cmd": "/who"}')
    replies = outbox.json_lines()
    assert replies[-1] == {"type": "ok", "id": [7, "x"]} and replies[0]["type"] == "who"
    connection.receive('{"id": 8, "cmd": "/frobnicate"}')
    (error,) = outbox.json_lines()
    assert error["id"] == 8 and error["message"].startswith("unknown command /frobnicate")
    connection.receive('{"id": 9}')
    assert outbox.json_lines() == [{"type": "error", "message": 'bad JSON request: a JSON request is {"id": ..., '
                                    '"cmd": "/command ..."}'}]
    connection.receive('{"cmd": ' + "[" * 5000)
    assert outbox.json_lines() == [{"type": "error", "message": "bad JSON request: nested too deeply"}]
    # An id that parses but is nested so deep that encoding it again, for the reply, would recurse past the limit
    # deeper in the stack (found by the fuzzer with orjson, which refuses past 254 levels and handed it back to
    # the standard library): refused before anything is done, and the next request is answered.
    for depth in (33, 300):
        connection.receive(json.dumps({"id": [], "cmd": "/who"}).replace("[]", "[" * depth + "]" * depth))
        assert outbox.json_lines() == [{"type": "error", "message": 'bad JSON request: "id" is nested more than 32 '
                                        'deep; it is echoed in the reply'}]
    deep_ok = json.loads("[" * 32 + "]" * 32)
    connection.receive(json.dumps({"id": deep_ok, "cmd": "/who"}))
    assert outbox.json_lines()[-1] == {"type": "ok", "id": deep_ok}


def test_a_refused_move_at_a_table_ends_in_the_moves_the_player_may_make() -> None:
    clock = Clock()
    lobby = Lobby(clock, bot_delay=0.5, seed=4)
    connection, outbox = connected(lobby)
    for line in ("/mode json", "hinted", "/new wizard", "/bot add random", "/bot add random", "/start"):
        connection.receive(line)
    table = connection.session.table
    assert table is not None and table.game is not None
    seat = table.seat_of("hinted")
    for _ in range(100):  # the bots move on the clock until it is our turn
        if seat in table.game.waiting():
            break
        clock.advance(0.5)
    outbox.take()
    connection.receive('{"id": "m", "cmd": "/bid 99"}')
    (error,) = [m for m in outbox.json_lines() if m["type"] == "error"]
    legal = [f"/{a}" for a in table.game.legal_actions(seat)]
    assert error["id"] == "m" and error["message"].endswith("; you may: " + ", ".join(legal))


def test_erase_and_one_line_are_applied_to_what_the_user_typed() -> None:
    lobby = Lobby(Clock(), seed=1)
    listener, heard = connected(lobby)
    listener.receive("/mode json")
    listener.receive("listener")
    connection, _ = connected(lobby)
    connection.receive("typist_xx\b\ber")
    heard.take()
    connection.receive("hellx\bo\u202e there\x1b[2J")
    chat = [m for m in heard.json_lines() if m["type"] == "chat"]
    assert [(m["from"], m["text"]) for m in chat] == [("typist_er", "hello there[2J")]


def test_a_line_refused_as_too_long_gets_one_error_and_before_a_name_the_prompt() -> None:
    connection, outbox = connected()
    outbox.take()
    connection.line_too_long()
    said = outbox.take()
    assert f"line too long (more than {MAX_LINE} bytes): ignored" in said and said.endswith(NAME_PROMPT)


def test_help_and_mode_before_the_name_ask_for_the_name_again() -> None:
    """The prompt scrolled away under the help (sixty lines), and the user was left at an empty line."""
    connection, outbox = connected()
    outbox.take()
    connection.receive("/help")
    assert "/help" in (said := outbox.take()) and said.endswith(NAME_PROMPT)
    connection.receive("/mode ascii")
    assert outbox.take().endswith(NAME_PROMPT)
    connection.receive("/mode json")  # a program reads no prompt
    assert not outbox.take().endswith(NAME_PROMPT)
    connection.receive("hasname")
    assert connection.logged_in


def test_the_login_timeout_closes_a_nameless_connection_only() -> None:
    nameless, outbox = connected(login_timeout=2.5)
    nameless.login_expired()
    said = outbox.take()
    assert "no name given within 2.5 s: goodbye" in said and outbox.closed and said.count(NAME_PROMPT) == 1
    named, outbox = connected()
    named.receive("stays")
    outbox.take()
    named.login_expired()
    assert outbox.take() == "" and not outbox.closed


def test_quit_closes_and_a_lost_connection_leaves_the_lobby() -> None:
    lobby = Lobby(Clock(), seed=1)
    connection, outbox = connected(lobby)
    connection.receive("/quit")
    assert outbox.closed
    other, _ = connected(lobby)
    other.receive("leaver")
    other.lost()
    assert "leaver" not in lobby.users and not other.session.connected


# -- the line framing, fed bytes


def framed(factory_class: type[LineFactory], clock: Clock | None = None, counter: ConnectionCounter | None = None,
           ) -> tuple[LineProtocol, StringTransport, Lobby]:
    lobby = Lobby(clock or Clock(), seed=1)
    factory = factory_class(lobby, MOTD, 300.0, counter, outflow=outflow())
    protocol = factory.buildProtocol(IPv4Address("TCP", "10.9.9.9", 4321))
    transport = StringTransport()
    protocol.makeConnection(transport)
    line_protocol = getattr(protocol, "protocol", protocol)  # under telnet, conch's transport holds it
    assert isinstance(line_protocol, LineProtocol)
    return line_protocol, transport, lobby


def test_every_line_ending_and_a_line_split_over_reads() -> None:
    protocol, transport, lobby = framed(RawFactory)
    assert transport.value() == f"Hello there\r\nsecond line\r\n{NAME_PROMPT}".encode()
    reads = (b"/mode j", b"son\r", b"\0spl", b"it_name\n", b'{"id": 1, "cmd": "/who"}\r\n',
             b'{"id": 2, "cmd": "/who"}\r')
    for data in reads:
        protocol.dataReceived(data)
    assert "split_name" in lobby.users
    said = transport.value()
    assert b'{"type":"ok","id":1}\r\n' in said and b'{"type":"ok","id":2}\r\n' in said


def test_a_too_long_line_is_refused_once_and_the_connection_reads_on() -> None:
    protocol, transport, lobby = framed(RawFactory)
    protocol.dataReceived(b"x" * (MAX_LINE + 1) + b"\nwhole_long\n")  # a whole line too long, and a name after it
    assert "whole_long" in lobby.users
    protocol, transport, lobby = framed(RawFactory)
    for _ in range(3):  # a line too long before its end has even arrived: refused once, its tail discarded
        protocol.dataReceived(b"y" * 3000)
    protocol.dataReceived(b"tail_of_it\nafter_long\n")
    said = transport.value()
    assert said.count(b"line too long") == 1 and set(lobby.users) == {"after_long"}
    assert not transport.disconnecting
    protocol.dataReceived(b"z" * MAX_LINE + b"\n")  # exactly the limit is a line
    assert transport.value().count(b"line too long") == 1


def test_the_login_timer_runs_on_the_lobby_clock_and_stops_at_login() -> None:
    clock = Clock()
    counter = ConnectionCounter(Limits(total=10, headroom=1))
    protocol, transport, _ = framed(MudFactory, clock, counter)
    clock.advance(299)
    assert not transport.disconnecting
    clock.advance(1)
    assert b"no name given within 300 s: goodbye" in transport.value() and transport.disconnecting
    protocol, transport, _ = framed(MudFactory, clock, counter)
    protocol.dataReceived(b"in_time\r\n")
    assert (counter.connections, counter.unnamed) == (2, 1)  # both admitted; one of them logged in
    clock.advance(1000)
    assert not transport.disconnecting and not clock.getDelayedCalls()
    protocol.connectionLost()
    assert (counter.connections, counter.unnamed) == (1, 1)


def test_telnet_answers_negotiation_and_escapes_iac_while_raw_reads_bytes_as_bytes() -> None:
    protocol, transport, lobby = framed(MudFactory)
    transport.clear()
    # IAC WILL ECHO, WONT NAWS, WONT TTYPE (so the name waits no more for them), then a name
    protocol.transport.dataReceived(b"\xff\xfb\x01\xff\xfc\x1f\xff\xfc\x18tel_name\r\n")
    offers, answer = transport.value().split(b"\xff\xfe\x01", 1)  # IAC DONT ECHO, after the server's own offers
    assert offers.startswith(b"\xff\xfb\x00") and b"\xff\xfe" not in answer  # IAC WILL BINARY first
    assert "tel_name" in lobby.users
    protocol.send("one\ntwo\n")
    assert transport.value().endswith(b"one\r\ntwo\r\n")  # conch's layer ends each line as a terminal wants
    protocol, transport, lobby = framed(RawFactory)
    protocol.dataReceived(b"\xff\xfb\x01raw_name\r\n")
    assert not lobby.users  # the bytes are part of the line, and that is no valid name
    assert b"\xff" not in transport.value()


def test_plain_reads_take_the_short_way_and_a_failure_there_costs_only_that_read() -> None:
    """A telnet connection's plain reads (no IAC) go to the line protocol whole (``_Telnet.dataReceived``'s
    short way); something raising under one of them is logged as the loop's pieces are, never drops the
    connection, and the next read is taken as ever."""
    protocol, transport, lobby = framed(MudFactory)
    telnet: Any = protocol.transport
    telnet.dataReceived(b"plain_name\n")
    assert "plain_name" in lobby.users and telnet.decided
    taken: list[bytes] = []
    original = protocol.dataReceived

    def failing(data: bytes) -> None:
        taken.append(data)
        raise RuntimeError("a bug below the framing")

    protocol.dataReceived = failing  # type: ignore[method-assign]
    telnet.dataReceived(b"/who\r\n")
    assert taken == [b"/who\n"], "one whole line, CR LF made LF, handed on at once"
    assert telnet.faulted and not transport.disconnecting
    protocol.dataReceived = original  # type: ignore[method-assign]
    transport.clear()
    telnet.dataReceived(b"/who\n")
    assert b"plain_name" in transport.value()
    protocol, transport, lobby = framed(MudFactory)
    telnet = protocol.transport
    telnet.dataReceived(b"x\n")  # no valid name: asked again (the first line also decides: not telnet)
    assert telnet.decided and transport.value().endswith(NAME_PROMPT.encode())
    transport.clear()
    telnet.dataReceived(b"")  # an empty read is no line (an Enter here would be asked the name again)
    protocol.dataReceived(b"")  # nor at the line protocol, where an SSH channel's empty data would come
    assert transport.value() == b""


def test_a_peer_that_never_reads_is_dropped_past_the_backlog() -> None:
    protocol, transport, _ = framed(RawFactory)
    protocol.dataReceived(b"reads_nothing\n")
    transport.producer.pauseProducing()  # what the reactor does once its buffer for the peer is full
    chunk = "h" * 1022 + "\n"  # 1024 bytes on the wire, the newline being CR LF
    for _ in range(MAX_BACKLOG // 1024):
        protocol.send(chunk)
    assert not transport.disconnecting  # exactly the limit: kept
    protocol.send(chunk)
    assert transport.disconnected and protocol.dropped
    transport.producer.resumeProducing()
    written = len(transport.value())
    protocol.send(chunk)
    assert len(transport.value()) == written  # nothing more is written to a dropped peer


def test_a_server_with_many_connections_refuses_with_one_line() -> None:
    counter = ConnectionCounter(Limits(total=10, headroom=1, unnamed_per_address=1))
    framed(RawFactory, counter=counter)
    lobby = Lobby(Clock(), seed=1)
    refused = RawFactory(lobby, MOTD, 300.0, counter, outflow=outflow()).buildProtocol(
        IPv4Address("TCP", "10.9.9.9", 1))
    transport = StringTransport()
    refused.makeConnection(transport)
    assert transport.value().startswith(b"too many connections from your address not yet logged in")
    assert transport.disconnecting


def test_a_guest_may_not_take_a_name_that_looks_like_someone_online() -> None:
    """``CaroI`` (a capital i) read as Carol in every chat line and /who: a guest could pose as someone online.
    Refused while the other is here; the same name in another case is that person's own (already connected)."""
    lobby = Lobby(Clock(), seed=1)
    carol, _ = connected(lobby)
    carol.receive("Carol")
    for lookalike in ("CaroI", "car0l", "Caro1"):
        poser, outbox = connected(lobby)
        outbox.take()
        poser.receive(lookalike)
        assert f"{lookalike} looks too like Carol, who is online; choose another name" in outbox.take()
        assert not poser.logged_in and lookalike.lower() not in lobby.users
    mark, _ = connected(lobby)
    mark.receive("mark")
    poser, outbox = connected(lobby)
    poser.receive("rnark")
    assert "looks too like mark" in outbox.take()
    mark.receive("/new wizard")  # mark plays, drops, and comes back with his code while "rnark" is online: the
    for line in ("/bot add random", "/bot add random", "/start"):  # name held for him is his
        mark.receive(line)
    code = lobby.resume_codes["mark"]
    mark.lost()
    rnark, _ = connected(lobby)
    rnark.receive("rnark")
    assert rnark.logged_in
    back, outbox = connected(lobby)
    back.receive("mark")
    back.receive(code)
    assert back.logged_in, outbox.take()
    carol.receive("/quit")
    carol.lost()
    later, outbox = connected(lobby)  # gone: the name is nobody's to be mistaken for
    later.receive("CaroI")
    assert later.logged_in


def test_the_raw_port_sends_plain_text_until_mode_ansi_asks_for_colour() -> None:
    """nc on the raw port showed the ANSI colour codes as they are: plain text there unless /mode ansi asks."""
    protocol, transport, lobby = framed(RawFactory)
    protocol.dataReceived(b"plain_nc\r\n/frob\r\n/who\r\n")
    assert "plain_nc" in lobby.users and b"\x1b" not in transport.value()
    assert lobby.users["plain_nc"].mode == "ascii"
    protocol.dataReceived(b"/mode ansi\r\n/frob\r\n")
    assert b"\x1b[" in transport.value()
    protocol, transport, lobby = framed(MudFactory)  # the telnet port as before
    assert protocol.connection.session.mode == "ansi"


def test_a_japanese_charset_suggests_japanese_unless_the_client_or_the_user_said_a_language() -> None:
    connection, _ = connected()
    session = connection.session
    session.adopt(None, "shift_jis")
    assert session.lang == "ja"
    heard, _ = connected()
    heard.session.lang, heard.session.lang_heard = "en", True  # NEW-ENVIRON LANG=en_US came first
    heard.session.adopt(None, "euc-jp")
    assert heard.session.lang == "en"
    chose, _ = connected()
    chose.session.lang, chose.session.lang_chosen = "en", True
    chose.session.adopt(None, "shift_jis")
    assert chose.session.lang == "en"
    plain, _ = connected()
    plain.session.adopt(None, "utf-8")
    assert plain.session.lang == "en"
