"""Telnet as real clients speak it, on the one telnet port: the stock ``telnet`` in a pty, tintin++ (``tt++``), a
scripted MUD client (tests/support/wire.py ``TelnetClient``), and ``nc`` and a JSON bot, which must never see an IAC.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest
from wcwidth import wcswidth
from wire import (
    BINARY,
    EOR_OPTION,
    GMCP,
    MSSP,
    NAWS,
    TELNET_EOR,
    TELNET_GA,
    JsonClient,
    NetcatSession,
    TelnetClient,
    Terminal,
    free_port,
    need,
    running_server,
)

import mudwiz

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """A server of this module's own: its tests open a dozen tables, which would change the table numbers
    other modules' tests on the shared server count on (``/join 42`` to a table that does not exist)."""
    with running_server(MUDWIZ_RAW_LISTEN=f"tcp:{free_port()}:interface=127.0.0.1") as address:  # MSSP's PORT
        yield address


JAPANESE = "日本語テスト"  # 0x83 and 0x9C among its bytes: without BINARY the stock telnet sends IAC IP / IAC BRK


def text_lines(data: bytes) -> list[str]:
    """The rows, as a terminal shows them: a CR at a row's start (the one after a typed line) moves nowhere."""
    return [line.removeprefix("\r") for line in ANSI.sub("", data.decode("utf-8")).split("\r\n")]


def widest(data: bytes) -> int:
    """The widest line in cells, as a terminal lays them out (wcwidth: an oracle apart from the server's code)."""
    return max(wcswidth(line) for line in text_lines(data))


def screen(data: bytes, columns: int, rows: int) -> pyte.Screen:
    term = pyte.Screen(columns, rows)
    pyte.Stream(term).feed(data.decode("utf-8"))  # strict UTF-8: an undecodable byte fails the test here
    return term


def fits(data: bytes, columns: int, rows: int) -> None:
    """``data`` on a ``columns``-wide pyte screen: every line within the width (none wrapped by the terminal),
    no replacement character, no control character left undrawn."""
    assert widest(data) <= columns, max(text_lines(data), key=wcswidth)
    term = screen(data.replace(b"\x1b[2J", b""), columns, rows)
    shown = "".join(term.display)
    assert "\ufffd" not in shown and not any(ch < " " for ch in shown)


def start_game(client: TelnetClient, mark: bytes) -> int:
    """A wizard table with two bots, started; returns where in ``data`` the game's output starts."""
    start = len(client.data)
    for line in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        client.send(line)
    client.read_until(mark, start=start)
    return start


def test_stock_telnet_types_japanese_chat_that_an_nc_user_receives_intact(server: tuple[str, int]) -> None:
    host, port = server
    nc = NetcatSession(server)
    telnet = Terminal([need("telnet"), host, str(port)])
    try:
        nc.read_until(b"name? ")
        nc.send(b"nc_reader\n")
        nc.read_until(b"Welcome, nc_reader")
        telnet.read_until(b"name? ")
        telnet.type("tel_writer")
        telnet.read_until(b"Welcome, tel_writer")
        telnet.type(JAPANESE)
        nc.read_until(JAPANESE.encode(), timeout=15)
        assert b"\xef\xbf\xbd" not in nc.output  # no U+FFFD: nothing was lost on the way
        assert b"\xff" not in nc.output  # and nc never saw an IAC
        telnet.read_until(JAPANESE.encode())
    finally:
        telnet.close()
        nc.close()


def test_stock_telnet_shows_each_reply_from_the_start_of_its_row(server: tuple[str, int]) -> None:
    """Once BINARY is agreed the stock ``telnet`` prints what it is sent untouched, its echo of Enter included: a
    bare LF, one row down and not back. Every reply and chat line began where the typed text had ended."""
    host, port = server
    telnet = Terminal([need("telnet"), host, str(port)], size=(100, 24))
    try:
        telnet.read_until(b"name? ")
        telnet.type("stair_step")
        telnet.read_until(b"Welcome, stair_step")
        time.sleep(0.3)  # the window size is in (NAWS), so /who is drawn to 100 columns
        since = len(telnet.output)
        telnet.type("/who")
        telnet.read_until(b"stair_step", since=since + 4)
        telnet.type("up the stairs")
        data = telnet.read_until(b": up the stairs\r\n", since=since)
        rows = [row.rstrip() for row in screen(data, 100, 24).display]
        at = rows.index("/who")
        assert rows[at + 1].startswith("\u2500\u2500 Online"), rows[at:at + 3]
        at = rows.index("up the stairs")
        assert rows[at + 1].startswith("[lobby] stair_step: up the stairs"), rows[at:at + 2]
    finally:
        telnet.close()


def test_the_stock_telnets_first_screen_fits_its_terminal_type_and_window(server: tuple[str, int]) -> None:
    """The stock telnet negotiates only once the name's CR LF shows it is telnet, so the first screen (the welcome,
    who is online, the tables) was drawn before its answers came: in colour and UTF-8 for TERM=dumb, 80 wide in
    a 40-column window. The name now waits for them (at most half a second)."""
    host, port = server
    telnet = Terminal([need("telnet"), host, str(port)], env={**os.environ, "TERM": "dumb"}, size=(40, 24))
    try:
        telnet.read_until(b"name? ")
        since = len(telnet.output)
        telnet.type("first_dumb")
        first = telnet.read_until(b"/new wizard", since=since)[since:]
        assert b"Welcome, first_dumb" in first and b"Online" in first
        assert b"\x1b[" not in first and not any(b > 127 for b in first)  # plain ASCII: no colour, no box lines
        assert max(len(line) for line in first.split(b"\r\n")) <= 40, first
    finally:
        telnet.close()


def test_nc_and_a_json_bot_on_the_telnet_port_never_see_an_iac(server: tuple[str, int]) -> None:
    """A whole session with a password asked (twice, /register) and answered, then a login with it: no IAC,
    no echo marks, nothing but text; and a JSON bot's every line is JSON."""
    nc = NetcatSession(server)
    try:
        nc.read_until(b"name? ")
        nc.send(b"nc_plain_pw\n/register\n")
        nc.read_until(b"Password: ")
        nc.send(b"sekrit-pw-1\nsekrit-pw-1\n")
        nc.read_until(b"nc_plain_pw is registered")
        nc.send(b"/quit\n")
    finally:
        nc.close()
    again = NetcatSession(server)
    try:
        again.send(b"nc_plain_pw\n")
        again.read_until(b"Password: ")
        again.send(b"sekrit-pw-1\n")
        again.read_until(b"Welcome, nc_plain_pw")
        assert b"\xff" not in nc.output + again.output
    finally:
        again.close()
    bot = JsonClient(server, "json_no_iac")
    try:
        bot.request("/who")
        assert all(b"\xff" not in line for line in bot.raw)
    finally:
        bot.close()


def test_the_options_a_mud_client_is_offered_and_eor_after_each_prompt(server: tuple[str, int]) -> None:
    client = TelnetClient(server, ttypes=("MUDLET", "ANSI-TRUECOLOR", "MTTS 2349"))
    try:
        client.read_until(b"name? ")
        assert client.wire.count(b"\xff") == 0  # nothing before the client showed it is telnet
        client.send("mud_offers")
        client.read_until(b"Welcome, mud_offers")
        offered = set(client.received)
        assert {(251, 0), (251, 25), (251, 42), (251, 70), (253, 31), (253, 24), (253, 0)} <= offered
        # SGA and ECHO are never offered to a MUD client: it keeps its own input line (Mudlet takes WILL ECHO for
        # a password prompt); a terminal is offered both (test_wire_charmode.py)
        assert (251, 3) not in offered and (251, 1) not in offered
        client.send("/register")
        at = len(client.data)
        client.read_until(b"Password: ", start=at)
        client.wait(lambda: bool(client.marks) and client.marks[-1][0] == len(client.data) > at)
        assert client.marks[-1][1] == TELNET_EOR  # the prompt ends with the EOR
        assert all(kind == TELNET_EOR for _, kind in client.marks)
    finally:
        client.close()


def test_a_client_that_refuses_eor_is_sent_ga(server: tuple[str, int]) -> None:
    client = TelnetClient(server, do=(0,))
    try:
        client.send("mud_no_eor")
        client.read_until(b"Welcome, mud_no_eor")
        client.send("/register")
        at = len(client.data)
        client.read_until(b"Password: ", start=at)
        client.wait(lambda: bool(client.marks) and client.marks[-1][0] == len(client.data) > at)
        assert all(kind == TELNET_GA for _, kind in client.marks)
    finally:
        client.close()


def test_mssp_answers_a_crawler_with_the_server_s_status(server: tuple[str, int]) -> None:
    someone = JsonClient(server, "mssp_someone")  # online: the crawler's table may come before its own login
    crawler = TelnetClient(server, do=(MSSP,), will=())
    try:
        crawler.send("crawler_x")
        crawler.read_until(b"Welcome, crawler_x")
        variables = mssp_variables(crawler)
        assert variables["NAME"] == ["mudwiz"] and variables["CODEBASE"] == [f"mudwiz {mudwiz.__version__}"]
        assert int(variables["PLAYERS"][0]) >= 1 and int(variables["UPTIME"][0]) > 1_600_000_000
        assert variables["PORT"] == [str(server[1])]  # not the raw port: it speaks no telnet, so no MSSP
        assert {"wizard", "witches", "tiltowait"} <= set(variables["GAMES"])
    finally:
        crawler.close()
        someone.close()


def test_naws_100_then_60_columns_draw_the_table_to_fit(server: tuple[str, int]) -> None:
    client = TelnetClient(server, size=(100, 30))
    try:
        client.send("naws_wide")
        client.read_until(b"Welcome, naws_wide")
        start = start_game(client, b"Your turn")
        client.send("/look")
        wide = client.read_until(b"Your turn", start=len(client.data))
        fits(client.data[start:], 100, 30)
        assert widest(wide) == 100  # the rules across the whole window
        client.naws(60, 20)
        client.send("/look")
        at = len(client.data)
        narrow = client.read_until(b"Your turn", start=at)
        fits(narrow, 60, 20)
        assert widest(narrow) == 60
        client.send("/help")
        fits(client.read_until(b"/quit", start=len(client.data)), 60, 20)
        client.naws(30, 20)  # drawn for 40, the narrowest: the compact view
        client.send("/look")
        compact = client.read_until(b"Your turn", start=len(client.data))
        fits(compact, 40, 20)
        mine = [line for line in text_lines(compact) if "naws_wide" in line and "/" in line]
        assert mine and all(len(line.split()) >= 4 for line in mine)  # a player's row is still one row
    finally:
        client.close()


@pytest.mark.parametrize(("ttypes", "colour", "unicode"), [
    (("MUDLET", "xterm-256color", "MTTS 2829"), True, True),
    (("xterm-256color",), True, True),
    (("dumb",), False, False),
    (("SOMECLIENT", "vt100", "MTTS 0"), False, False),
    (("SOMECLIENT", "xterm", "MTTS 1"), True, False),  # colour, but no UTF-8: ASCII text in colour
])
def test_ttype_cycling_picks_the_mode(server: tuple[str, int], ttypes: tuple[str, ...], colour: bool,
                                      unicode: bool) -> None:
    name = f"tt_{abs(hash(ttypes)) % 10**6}"
    client = TelnetClient(server, ttypes=ttypes, do=(BINARY, EOR_OPTION))  # no CHARSET: TTYPE alone decides
    try:
        client.send(name)
        client.read_until(f"Welcome, {name}".encode())
        cycle = len(ttypes) + (0 if ttypes[-1].startswith("MTTS") else 1)  # an MTTS answer or a repeat ends it
        client.wait(lambda: len(client.ttypes_sent) >= cycle)
        client.send("/who")  # an answer to a line sent after the last TTYPE answer: the cycle is over
        client.read_until(b"Online (", start=len(client.data))
        start = start_game(client, b"Your turn")
        shown = client.data[start:]
        assert (b"\x1b[" in shown) == colour
        assert (not shown.isascii()) == unicode
        fits(shown, 80, 24)
    finally:
        client.close()


def test_mode_chosen_by_the_user_wins_over_the_terminal_type(server: tuple[str, int]) -> None:
    client = TelnetClient(server, ttypes=("dumb",))
    try:
        client.send("/mode ansi")
        client.send("tt_chosen")
        client.read_until(b"Welcome, tt_chosen")
        client.wait(lambda: len(client.ttypes_sent) >= 2)
        start = start_game(client, b"Your turn")
        assert b"\x1b[" in client.data[start:]
    finally:
        client.close()


def test_80x24_screens_of_ansi_and_ascii_modes(server: tuple[str, int]) -> None:
    for mode in ("ansi", "ascii"):
        client = TelnetClient(server, ttypes=("xterm" if mode == "ansi" else "dumb",), size=(80, 24))
        try:
            client.send(f"scr_{mode}")
            client.read_until(f"Welcome, scr_{mode}".encode())
            client.wait(lambda: len(client.ttypes_sent) >= 2)  # noqa: B023  # called here, in this iteration
            start = start_game(client, b"Your turn")
            client.send("/look")
            view = client.read_until(b"Your turn", start=len(client.data))
            fits(client.data[start:], 80, 24)
            assert widest(view) == 80
            assert (b"\x1b[" in view) == (mode == "ansi") and view.isascii() == (mode == "ascii")
        finally:
            client.close()


def tintin() -> str:
    return shutil.which("tt++") or shutil.which("tt++", path="/usr/games") or need("tt++")


def tintin_session(address: tuple[str, int], directory: Path) -> Terminal:
    """tintin++ in an 80x24 pty, connected to ``address``, showing every telnet command it sends and receives."""
    script = directory / "session.tin"
    script.write_text(f"#config {{debug telnet}} on\n#session mud {address[0]} {address[1]}\n")
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    return Terminal([tintin(), "-G", str(script)], env=env)


def mssp_variables(crawler: TelnetClient) -> dict[str, list[str]]:
    """The MSSP table ``crawler`` is sent (waiting for it), each variable's values."""
    crawler.wait(lambda: any(p[:1] == bytes((MSSP,)) for p in crawler.subnegotiations))
    table = next(p for p in crawler.subnegotiations if p[:1] == bytes((MSSP,)))
    variables: dict[str, list[str]] = {}
    for item in table[1:].split(b"\x01")[1:]:
        name, *values = item.decode().split("\x02")
        variables[name] = values
    return variables


def test_tintin_sees_eor_and_sends_its_window(server: tuple[str, int], tmp_path: Path) -> None:
    tt = tintin_session(server, tmp_path)
    try:
        tt.read_until(b"name? ")
        tt.type("tt_player")
        tt.read_until(b"Welcome, tt_player")
        tt.type("/register")  # a prompt: marked by EOR (whole lines are not)
        tt.read_until(b"RCVD IAC EOR")
        assert b"SENT IAC DO EOR" in tt.output
        for said in (b"SENT IAC SB NAWS 0 80 0 24", b"SENT IAC SB TTYPE TINTIN++",
                     b"SENT IAC SB CHARSET ACCEPTED UTF-8", b"RCVD IAC SB MSSP"):
            assert said in tt.output, said
    finally:
        tt.close()


def test_a_socket_that_sends_iac_first_is_telnet_at_once(server: tuple[str, int]) -> None:
    """A client that starts negotiating (as SyncTERM does) is answered before it sends a line."""
    sock = socket.create_connection(server, timeout=10)
    try:
        sock.sendall(bytes((255, 253, 3)))  # IAC DO SGA
        got = b""
        while b"\xff\xfb\x03" not in got:  # IAC WILL SGA: agreed when asked
            got += sock.recv(4096)
        assert b"\xff\xfd" + bytes((NAWS,)) in got or b"\xff\xfd\x1f" in got
    finally:
        sock.close()


def test_a_first_line_in_a_bare_cr_is_answered_at_once_and_a_split_cr_lf_is_one_enter(
        server: tuple[str, int]) -> None:
    """A client that ends its lines in a bare CR typed its name and was answered only once it sent another byte
    (the CR was held to see whether LF or NUL followed). And a CR LF split across two reads is one Enter: its LF
    is no empty line, which at a password prompt would have been the password."""
    sock = socket.create_connection(server, timeout=10)
    seen = b""

    def until(needle: bytes) -> None:
        nonlocal seen
        at = len(seen)
        while needle not in seen[at:]:
            chunk = sock.recv(65536)
            assert chunk, seen
            seen += chunk

    try:
        sock.sendall(b"split_crlf\r")  # its LF only once the name is answered
        until(b"Welcome, split_crlf")
        assert b"\xff" not in seen  # a bare CR is no sign of a telnet program: nothing negotiated so far
        sock.sendall(b"\n")  # CR LF after all: telnet, and no second Enter
        sock.sendall(b"/register\r")
        until(b"Password: ")
        sock.sendall(b"\n")
        for reply in (b"Again: ", b"split_crlf is registered"):
            sock.sendall(b"sekrit-split-1\r\n")
            until(reply)
        assert b"differ" not in seen and seen.count(b"Password: ") == 1 and seen.count(b"name? ") == 1
    finally:
        sock.close()


def test_gmcp_carries_every_message_as_game_packages_and_answers_ping(server: tuple[str, int]) -> None:
    client = TelnetClient(server, do=(BINARY, EOR_OPTION, GMCP))
    try:
        client.send("gmcp_user")
        client.read_until(b"Welcome, gmcp_user")
        client.subnegotiate(GMCP, b'Core.Supports.Set ["Game 1"]')
        client.subnegotiate(GMCP, b"Core.Ping")
        client.wait(lambda: ("Core.Ping", None) in client.gmcp())
        assert client.gmcp()[0] == ("Core.Hello", {"name": "mudwiz", "codebase": "mudwiz"})
        start_game(client, b"Your turn")
        client.wait(lambda: any(p == "Game.State" and d["legal"] for p, d in client.gmcp()))
        state = [d for p, d in client.gmcp() if p == "Game.State"][-1]
        assert state["type"] == "state" and state["game"] == "wizard" and state["you"] == "gmcp_user"
        # what the JSON protocol's state holds, as a bot gets it: the first move of a round is a bid, or the
        # dealer's choice of trump when a Wizard is turned up (the cards are not seeded here)
        assert state["legal"] and all(cmd.startswith(("/bid ", "/trump ")) for cmd in state["legal"])
        assert "/bid 0" in state["legal"] or state["phase"] == "trump", state
        packages = {p for p, _ in client.gmcp()}
        assert {"Game.Ok", "Game.Notice", "Game.RoundStart"} <= packages  # the welcome came before GMCP was agreed
        assert b"Your turn" in client.data  # and the screen is drawn as ever
    finally:
        client.close()


def test_a_cp437_terminal_gets_its_code_page_on_an_80x24_screen(server: tuple[str, int]) -> None:
    client = TelnetClient(server, ttypes=("SyncTERM",), do=(BINARY, EOR_OPTION))
    try:
        client.send("bbs_user")
        client.read_until(b"Welcome, bbs_user")
        client.wait(lambda: len(client.ttypes_sent) >= 2)
        start = start_game(client, b"Your turn")
        client.send("/look")
        view = client.read_until(b"Your turn", start=len(client.data))
        assert b"\xc4" * 10 in view and b"\xe2\x94\x80" not in view  # the rule in CP437's box drawing, not UTF-8
        assert b"\x1b[" in view  # SyncTERM draws ANSI colour
        text = client.data[start:].decode("cp437")
        assert max(wcswidth(ANSI.sub("", line)) for line in text.split("\r\n")) <= 80
        term = pyte.Screen(80, 24)
        pyte.Stream(term).feed(text)
        assert "\u2500" * 10 in "".join(term.display)
    finally:
        client.close()


def test_a_wide_window_shows_the_score_sheet_beside_the_table(server: tuple[str, int]) -> None:
    """160 columns: the table view (80) and, beside it, the score sheet once a round is scored; still no line
    past the width, and no more rows than the table alone."""
    client = TelnetClient(server, do=(BINARY, EOR_OPTION, GMCP), size=(160, 40))
    try:
        client.send("wide_sheet")
        client.read_until(b"Welcome, wide_sheet")
        start_game(client, b"Your turn")
        for _ in range(20):  # round 1 has one card each: bid, then play it (the state says which moves are legal;
            # a Wizard turned up has the dealer name trump first)
            client.wait(lambda: any(p == "Game.State" for p, _ in client.gmcp()))
            state = [d for p, d in client.gmcp() if p == "Game.State"][-1]
            if state.get("round", 1) > 1:
                break
            moves = [m for m in state["legal"] if m.startswith(("/bid", "/trump", "/play", "/ok"))]
            seen = len(client.subnegotiations)
            if moves:
                client.send(moves[0])
            client.wait(lambda: len(client.subnegotiations) > seen)  # noqa: B023  # called in this iteration
        client.send("/look")
        view = client.read_until(b"Your turn", start=len(client.data))
        rows = text_lines(view)
        beside = [row for row in rows if "Score sheet" in row]
        assert beside and beside[0].startswith("\u2500\u2500 Wizard - round 2")  # on the table's own rule line
        assert any("  rnd  " in row[80:] for row in rows)
        fits(view, 160, 40)
        # and beside the views drawn on their own (a turn, a trick), whose states do not carry the sheet again:
        # it was drawn on /look only, and came and went between screens
        state = [d for p, d in client.gmcp() if p == "Game.State"][-1]
        at = len(client.data)
        client.send(state["legal"][0])
        view = client.read_until(b"Your turn", start=at)
        assert any("Score sheet" in row for row in text_lines(view)), text_lines(view)
    finally:
        client.close()


def test_mode_cp437_is_chosen_by_hand_and_left_again(server: tuple[str, int]) -> None:
    """/mode cp437 on a link that says nothing of itself (nc): output in the code page, input read in it; another
    /mode puts the charset back."""
    nc, listener = NetcatSession(server), NetcatSession(server)

    def after(session: NetcatSession, start: int, needle: bytes) -> bytes:
        deadline = time.monotonic() + 10
        while needle not in session.output[start:]:
            assert time.monotonic() < deadline, session.output[start:]
            chunk = session.proc.stdout.read()  # type: ignore[union-attr]  # non-blocking: None when nothing came
            session.output += chunk or b""
            time.sleep(0.02)
        return session.output[start:]

    try:
        listener.send(b"cp_listener\n")
        listener.read_until(b"Welcome, cp_listener")
        nc.send(b"cp_user\n")
        nc.read_until(b"Welcome, cp_user")
        start = len(nc.output)
        nc.send(b"/mode cp437\n/who cp_user\n")
        rule = start + after(nc, start, b"Online (").index(b"Online (")
        after(nc, rule, b"\r\n")  # the whole rule line
        who = nc.output[start:]
        assert b"mode cp437" in who and b"\xc4" * 10 in who and b"\xe2\x94\x80" not in who, who
        nc.send("caf\u00e9 cp437\n".encode("cp437"))  # é typed on a CP437 terminal: 0x82
        after(listener, 0, "caf\u00e9 cp437".encode())  # reaches a UTF-8 user as é
        start = len(nc.output)
        nc.send(b"/mode ansi\n/who cp_user\n")
        rule = start + after(nc, start, b"Online (").index(b"Online (")
        after(nc, rule, b"\r\n")
        back = nc.output[start:]
        assert b"mode ansi" in back and b"\xe2\x94\x80" in back and b"\xc4" * 10 not in back, back
    finally:
        nc.close()
        listener.close()


def test_telnet_synch_sent_urgent_keeps_the_next_typed_byte(server: tuple[str, int]) -> None:
    """``send synch`` sends IAC, then DM as TCP urgent data: the kernel took the DM out of the stream, and the IAC
    left behind ate the next byte typed (``/who`` became the chat line ``who``)."""
    raw = socket.create_connection(server, timeout=10)
    try:
        raw.sendall(b"\xff\xfd\x00urgent_user\r\n")
        seen = b""
        while b"Welcome, urgent_user" not in seen:
            seen += raw.recv(65536)
        raw.sendall(b"\xff")
        raw.send(b"\xf2", socket.MSG_OOB)
        time.sleep(0.1)
        raw.sendall(b"/who\r\n")
        seen = b""
        while b"urgent_user" not in seen.partition(b"Online")[2]:
            seen += raw.recv(65536)
        assert b"bad telnet input" not in server.log().encode()  # type: ignore[attr-defined]
    finally:
        raw.close()
