"""The telnet decisions without a socket (mudwiz/net/terminal.py), the telnet framing (and, for line endings, the
raw one) fed bytes on a ``StringTransport``, and the width a session draws to (``fit``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from turns import outflow
from twisted.internet.address import IPv4Address, IPv6Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

import mudwiz
from mudwiz.lobby import Lobby
from mudwiz.net import terminal
from mudwiz.net.lines import MAX_BACKLOG, LineProtocol
from mudwiz.net.raw import RawFactory
from mudwiz.net.telnet import TERMINAL_WAIT, MudFactory, TelnetLines
from mudwiz.render.style import chop_painted, fit, strip_ansi, visible_len

IAC_SB, IAC_SE = b"\xff\xfa", b"\xff\xf0"


def test_a_first_line_in_cr_lf_is_a_telnet_program_and_lf_or_json_mode_is_not() -> None:
    assert terminal.looks_like_telnet(b"\r\n", b"alice")
    assert terminal.looks_like_telnet(b"\r\0", b"alice")
    assert not terminal.looks_like_telnet(b"\n", b"alice")
    assert not terminal.looks_like_telnet(b"\r\n", b"/mode json")
    assert not terminal.looks_like_telnet(b"\r\n", b"  /MODE JSON")
    assert not terminal.looks_like_telnet(b"\r\n", b'{"id": 1, "cmd": "/who"}')


def test_window_width_is_clamped_and_naws_read_from_four_bytes() -> None:
    assert [terminal.clamp_width(w) for w in (0, 20, 40, 80, 132, 500)] == [80, 40, 40, 80, 132, 200]
    assert terminal.naws_size(b"\x00\x64\x00\x1e") == (100, 30)
    assert terminal.naws_size(b"\x01\x00\x00\x18") == (256, 24)
    assert terminal.naws_size(b"\x00\x50\x00") is None and terminal.naws_size(b"") is None


def cycle(*answers: bytes) -> tuple[terminal.TerminalTypes, int]:
    """Feed answers as a client gives them while asked; returns the cycle and how many were taken."""
    types = terminal.TerminalTypes()
    for taken, answer in enumerate(answers, 1):
        if not types.add(answer):
            return types, taken
    return types, len(answers)


def test_ttype_cycle_ends_on_a_repeat_an_mtts_answer_or_the_fourth() -> None:
    stock, taken = cycle(b"XTERM", b"XTERM", b"never asked")
    assert taken == 2 and stock.names == ["XTERM"] and stock.choice() == terminal.Choice("ansi", None)
    mudlet, taken = cycle(b"MUDLET", b"XTERM-256COLOR", b"MTTS 2829", b"never asked")
    assert taken == 3 and mudlet.client == "MUDLET" and mudlet.mtts == 2829
    assert mudlet.choice() == terminal.Choice("ansi", "utf-8")
    endless, taken = cycle(b"a", b"b", b"c", b"d", b"e")
    assert taken == 4 and endless.done


def test_mtts_bits_and_names_pick_colour_and_charset() -> None:
    assert cycle(b"x", b"y", b"MTTS 0")[0].choice() == terminal.Choice("ascii", "ascii")
    assert cycle(b"x", b"y", b"MTTS 1")[0].choice() == terminal.Choice("ansi", "ascii")
    assert cycle(b"x", b"y", b"MTTS 4")[0].choice() == terminal.Choice("ascii", "utf-8")
    assert cycle(b"dumb", b"dumb")[0].choice() == terminal.Choice("ascii", "ascii")
    assert cycle(b"SyncTERM", b"SyncTERM")[0].choice() == terminal.Choice("ansi", "cp437")
    assert cycle(b"xterm-utf-8", b"xterm-utf-8")[0].choice() == terminal.Choice("ansi", "utf-8")
    assert cycle(b"WHATEVER", b"WHATEVER")[0].choice() == terminal.Choice()  # nothing said: defaults stay


def test_nonsense_from_a_client_never_raises() -> None:
    types, _ = cycle(b"\xff\x00\x80" * 100, b"MTTS 99999999999999", b"MTTS -1", b"")
    assert all(len(n) <= terminal.MAX_NAME for n in types.names)
    assert terminal.accepted_charset(b"\xff\xfe") is None
    assert terminal.accepted_charset(b"utf-8") == "utf-8" and terminal.accepted_charset(b"IBM437") == "cp437"


def test_mssp_table_repeats_val_for_several_values_and_drops_bytes_that_would_break_it() -> None:
    payload = terminal.mssp_payload({"NAME": "a\x01b\x02c\x00", "PORT": ["4000", "4001"]})
    assert payload == b"\x01NAME\x02abc\x01PORT\x024000\x024001"


WONT_NAWS, WONT_TTYPE = b"\xff\xfc\x1f", b"\xff\xfc\x18"  # a client's refusals: the first line waits no more


def telnet_protocol() -> tuple[TelnetLines, StringTransport]:
    protocol = MudFactory(Lobby(Clock()), "", 300.0, outflow=outflow(), ports=["4000"]).buildProtocol(
        IPv4Address("TCP", "10.1.2.3", 5555))
    transport = StringTransport()
    protocol.makeConnection(transport)
    return protocol.protocol, transport  # type: ignore[attr-defined]


def test_a_bare_cr_ends_a_line_at_once_and_a_split_cr_lf_is_one_enter() -> None:
    """In BINARY and in character mode the stock telnet ends a line with a bare CR; the line waited for the next
    key (found by a probe). A CR at a read's end is Enter; the LF or NUL after it in the next read is no key."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"\xff\xfd\x00" + WONT_NAWS + WONT_TTYPE)  # IAC DO BINARY: telnet, with no window size or type
    feed(b"bare_cr\r")
    assert lines.connection.logged_in
    transport.clear()
    feed(b"/who\r")
    assert b"Online" in transport.value()
    transport.clear()
    feed(b"\n")  # the rest of a CR LF split across reads: nothing, not an empty line's prompt
    feed(b"/tables\r")
    feed(b"\0/who\r\n")
    said = transport.value()
    assert b"No tables yet" in said and b"Online" in said and b"unknown command" not in said


def ended(seen: bytes) -> list[str]:
    """The lines in ``seen`` whose Enter has come, as the user pressed it: a CR is Enter at once, and the LF or
    NUL of a CR LF or CR NUL is no second one."""
    return [line.decode() for line in re.split(rb"\r\n|\r\0|\r|\n", seen)[:-1]]


def taken_lines(lines: LineProtocol) -> list[str]:
    """The lines the connection is handed from now on, in order (it acts on them as ever)."""
    taken: list[str] = []
    act = lines._act  # every line goes through it to the connection (which may be compiled: not patched there)

    def spy(call: Any, *args: Any) -> None:
        if call == lines.connection.receive:
            taken.append(args[0])
        act(call, *args)

    lines._act = spy  # type: ignore[method-assign]
    return taken


def framing(kind: str) -> tuple[LineProtocol, Callable[[bytes], None]]:
    """A connection on the telnet port (``first``: as it starts; ``negotiated``: telnet, its terminal answered, a
    name given) or on the raw port, and how to feed it a read."""
    if kind == "raw":
        protocol = RawFactory(Lobby(Clock()), "", 300.0, outflow=outflow()).buildProtocol(
            IPv4Address("TCP", "10.1.2.3", 5555))
        protocol.makeConnection(StringTransport())
        assert isinstance(protocol, LineProtocol)
        return protocol, protocol.dataReceived
    lines, _ = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    if kind == "negotiated":
        feed(b"\xff\xfd\x00" + WONT_NAWS + WONT_TTYPE + b"negotiated\r\n")
    return lines, feed


@pytest.mark.parametrize("kind", ["first", "negotiated", "raw"])
@pytest.mark.parametrize("ending", [b"\r\n", b"\r\0", b"\r", b"\n"], ids=["CR LF", "CR NUL", "CR", "LF"])
def test_each_line_ending_split_at_any_byte_is_one_enter_acted_on_when_it_comes(ending: bytes, kind: str) -> None:
    """A first line ending in a bare CR waited for the next byte (conch holds a CR to see whether LF or NUL
    follows; the telnet framing's own Enter for a CR that ends a read was only for a connection already decided),
    where the raw port acted on it at once; and the raw port took the LF of a CR LF split across reads for an
    empty line of its own. Every ending, split across two reads at each byte and sent a byte a read: each line is
    acted on once its end has come, and the LF or NUL of a pair split from its CR is no empty line (at a password
    prompt, an empty line is an answer). ``first``: a telnet connection's first lines, which also decide whether
    it is telnet; ``negotiated``: lines after telnet was seen and its terminal answered; ``raw``: the raw port."""
    stream = b"first_line" + ending + b"/who" + ending + b"/tables" + ending
    splits = [[stream[:cut], stream[cut:]] for cut in range(1, len(stream))] + [[bytes([b]) for b in stream]]
    for reads in splits:
        lines, feed = framing(kind)
        taken, seen = taken_lines(lines), b""
        for read in reads:
            feed(read)
            seen += read
            # a first line in CR LF or CR NUL shows telnet: it waits for the terminal's answers, or this
            lines.factory.lobby.clock.advance(TERMINAL_WAIT)
            assert taken == ended(seen), (reads, read)
        assert lines.connection.logged_in


@pytest.mark.parametrize("kind", ["negotiated", "raw"])
def test_no_line_after_quit_is_acted_on_even_in_the_same_read(kind: str) -> None:
    """The line protocol reads no more lines once its connection is closing; on the telnet port it asked conch's
    transport, which never says so, and a chat line sent with ``/quit`` was said to the lobby after it."""
    lines, feed = framing(kind)
    taken = taken_lines(lines)
    feed(b"/quit\r\nsaid after quitting\r\n/who\r\n")
    assert taken == ["/quit"]


def test_telnet_synch_and_eof_commands_cost_no_typed_byte_and_no_log_line() -> None:
    """``send synch`` is IAC DM with the DM urgent: urgent data stays in the stream (SO_OOBINLINE, tcp.py), and
    IAC DM is a command conch knows. IAC EOF, SUSP and ABORT were not, raised, and were logged as bad input."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"\xff\xfd\x00" + WONT_NAWS + WONT_TTYPE + b"synch_user\r\n")
    for command in (b"\xf2", b"\xec", b"\xed", b"\xee"):  # DM, EOF, SUSP, ABORT
        transport.clear()
        feed(b"\xff" + command + b"/who\r\n")
        assert b"Online" in transport.value(), command
    assert not lines.transport.faulted  # type: ignore[union-attr]


def test_telnet_ayt_is_answered_and_ec_and_el_take_back_what_was_typed() -> None:
    """``send ayt``, ``send ec`` and ``send el`` in the stock telnet (RFC 854): AYT got no answer, so a user
    asking whether a quiet connection still lives heard nothing; EC and EL were ignored, so the character or
    the line they took back was acted on."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"\xff\xfd\x00" + WONT_NAWS + WONT_TTYPE + b"ayt_user\r\n")
    transport.clear()
    feed(b"\xff\xf6")
    assert transport.value() == b"\r\n[Yes]\r\n"
    feed(b"\xff\xf6" * 50)  # a flood of questions: one answer a second
    assert transport.value() == b"\r\n[Yes]\r\n"
    transport.clear()
    feed(b"/whx\xff\xf7o\r\n")  # the x taken back: /who
    assert b"Online" in transport.value() and b"unknown command" not in transport.value()
    transport.clear()
    feed(b"/frob\xff\xf8/tables\r\n")  # the line so far taken back: /tables
    assert b"No tables yet" in transport.value() and b"frob" not in transport.value()
    assert not lines.transport.faulted  # type: ignore[union-attr]


def test_an_lf_client_gets_no_iac_ever_and_a_cr_lf_one_is_offered_the_options() -> None:
    lines, transport = telnet_protocol()
    lines.transport.dataReceived(b"lf_user\n/who\n")  # type: ignore[union-attr]
    assert b"Welcome, lf_user" in transport.value() and b"\xff" not in transport.value()
    lines, transport = telnet_protocol()
    lines.transport.dataReceived(b"crlf_user\r\n")  # type: ignore[union-attr]
    assert transport.value().count(b"\xff") == 10  # WILL BINARY EOR CHARSET MSSP GMCP MCCP2, DO BINARY NAWS TTYPE ENV


def test_a_first_line_split_over_reads_is_decided_when_it_ends() -> None:
    lines, transport = telnet_protocol()
    for piece in (b"spl", b"it_user\r", b"\n", WONT_NAWS + WONT_TTYPE):
        lines.transport.dataReceived(piece)  # type: ignore[union-attr]
    assert lines.telnet and b"Welcome, split_user" in transport.value()


def test_naws_ttype_and_charset_reach_the_session_and_junk_is_ignored() -> None:
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    session = lines.connection.session
    feed(b"opt_user\r\n\xff\xfb\x1f\xff\xfb\x18\xff\xfd\x2a")  # WILL NAWS, WILL TTYPE, DO CHARSET
    feed(IAC_SB + b"\x1f\x00\x64\x00\x1e" + IAC_SE)
    assert session.width == 100
    feed(IAC_SB + b"\x1f\x00\x10\x00\x1e" + IAC_SE)  # 16 columns: drawn for 40
    assert session.width == 40
    feed(IAC_SB + b"\x1f\x00" + IAC_SE + IAC_SB + b"\x18\x07junk" + IAC_SE + IAC_SB + b"\x2a" + IAC_SE)
    assert session.width == 40 and session.mode == "ansi" and session.charset == "utf-8"
    for answer in (b"x", b"y", b"MTTS 0"):
        feed(IAC_SB + b"\x18\x00" + answer + IAC_SE)
    assert (session.mode, session.charset) == ("ascii", "ascii")
    feed("/say déjà vu\r\n".encode())
    assert transport.value().endswith(b"[lobby] opt_user: deja vu\r\n")  # an ASCII terminal: ASCII only
    feed(IAC_SB + b"\x2a\x02CP437" + IAC_SE)  # CHARSET ACCEPTED CP437
    assert session.charset == "cp437"
    feed(b"/mode ansi\r\n/say caf\x82 \x9b\r\n")  # typed in CP437: cafe with an acute accent, a cent sign
    assert transport.value().endswith(b": caf\x82 \x9b\r\n")  # and sent back in CP437
    feed("/mode utf8\r\n/say café\r\n".encode())  # a terminal taken for CP437 has no other way back to UTF-8
    assert transport.value().endswith(": café\r\n".encode()) and session.charset == "utf-8"
    feed(b"/mode ansi\r\n")  # another /mode: the charset the link chose again
    assert (session.mode, session.charset) == ("ansi", "cp437")


def test_mode_typed_by_the_user_wins_over_mtts() -> None:
    lines, _ = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"/mode ascii\r\nmode_user\r\n\xff\xfb\x18")
    for answer in (b"x", b"y", b"MTTS 2829"):
        feed(IAC_SB + b"\x18\x00" + answer + IAC_SE)
    feed(WONT_NAWS)  # the lines waited for the terminal's answers: now they are all in
    assert lines.connection.session.mode == "ascii"


def test_fit_wraps_painted_lines_to_the_width_and_loses_nothing() -> None:
    painted = "\x1b[1m" + "word " * 30 + "\x1b[0m"
    fitted = fit([painted, "short"], 40)
    assert max(map(visible_len, fitted)) <= 40 and fitted[-1] == "short" and len(fitted) > 3
    chopped = chop_painted("\x1b[31m" + "日本語" * 10 + "\x1b[0m", 11)
    assert [visible_len(p) for p in chopped] == [10, 10, 10, 10, 10, 10]  # a wide character is never halved
    assert "".join(chopped) == "\x1b[31m" + "日本語" * 10 + "\x1b[0m"  # every code kept, in its place
    assert fit(["ok"], 40) == ["ok"]
    row = "   bot1                  0    (20)     0/0     --   leads"
    assert fit([row], 40) == ["   bot1  0  (20)  0/0  --  leads"]  # a table row stays one row, columns closer
    assert fit([row], 80) == [row]  # a line that fits keeps its columns
    assert fit(["\x1b[90m   player" + " " * 40 + "card\x1b[0m"], 40) == ["\x1b[90m   player  card\x1b[0m"]
    # a line broken in pieces: each piece keeps the paint in force where it starts, and each ends reset; a word
    # wider than the window is broken where the window ends, its tail on the next rows (it was cut, and lost)
    error = "\x1b[31;1m! unknown command: /x" + "A" * 100 + " and \x1b[4mmore\x1b[24m words\x1b[0m"
    # (its later rows indented as wrapped rows are: at the left edge a row could pass for a line of its own)
    assert fit([error], 40) == ["\x1b[31;1m! unknown command:\x1b[0m",
                                "\x1b[31;1m  /x" + "A" * 36 + "\x1b[0m",
                                "\x1b[31;1m  " + "A" * 38 + "\x1b[0m",
                                "\x1b[31;1m  " + "A" * 26 + " and \x1b[4mmore\x1b[24m\x1b[0m",
                                "\x1b[31;1m\x1b[4m\x1b[24m  words\x1b[0m"]  # after the long word's tail
    url = "see https://example.org/" + "x" * 90 + " ok"
    assert "".join(piece.strip() for piece in fit([url], 40)).replace(" ", "") == url.replace(" ", "")


def test_a_painted_row_drawn_wider_is_rewrapped_without_a_blank_row() -> None:
    """A red error drawn for 80 columns, its second row ``ESC[31;1m  'abc...``, re-wrapped for 40: the paint code
    was taken for a word and left a row of one blank inside the error (found by a probe)."""
    rows = fit(["\x1b[31;1m  '" + "abcdefghij" * 6 + "';\x1b[0m"], 40)
    assert all(strip_ansi(row).strip() for row in rows), rows
    assert "".join(strip_ansi(row).strip() for row in rows) == "'" + "abcdefghij" * 6 + "';"


def test_a_table_too_wide_is_squeezed_alike_in_every_row_and_stays_under_its_header() -> None:
    """Squeezed row by row, each row lost different padding: at 60 columns ``0/?`` sat under ``(now)`` (found by
    a probe). The padding every row shares goes, in every row alike."""
    rows = ["\x1b[90m   player            score   (now) tricks/bid  card\x1b[0m",
            " > \x1b[1mbot3\x1b[0m                  0             0/?     --   leads, [2139]",
            "   bot4                  0    (20)     0/?     --   [2139]"]
    fitted = [strip_ansi(line) for line in fit(["Dealer: bot4", *rows, " Your turn: /bid 0..1."], 60)]
    assert fitted[0] == "Dealer: bot4" and fitted[-1] == " Your turn: /bid 0..1."  # no table: left as they are
    head, *body = fitted[1:-1]
    assert max(map(len, fitted)) <= 60 and len(body) == 2
    assert all(row[head.index("score") + 4] == "0" for row in body), (head, body)  # right-aligned under it
    assert body[0].index("0/?") == body[1].index("0/?") and body[0].index("--") == body[1].index("--") == \
        head.index("card")
    assert body[1].index("(20)") + 4 == head.index("(now)") + 5  # right-aligned under it
    # narrower: one space between columns, if two are too many for a row, and still in every row alike
    bots = [rows[0], "   bot1                  0             0/?     --   [2139]",
            "   bot2                 10             1/1     R9   [2139]"]
    head, *body = [strip_ansi(line) for line in fit(bots, 45)]
    assert max(len(head), *map(len, body)) <= 45 and head.startswith("   player score")
    assert body[0].index("0/?") == body[1].index("1/1") and body[0].index("--") == body[1].index("R9")
    # a padded line above the table (Wizard's dealer line) is no row of it: its gaps would leave none common
    above = " Dealer: bot2   Leads: narrow45   Follow: -"
    rows = [above, rows[0], " > narrow45              0             0/?     --   leads, away 1:57",
            "   bot1                 10    (30)     0/1     R9   [2139]"]
    fitted = [strip_ansi(line) for line in fit(rows, 60)]
    head, *body = fitted[1:]
    assert fitted[0] == above and max(map(len, fitted)) <= 60
    assert body[0].index("--") == body[1].index("R9") == head.index("card")
    assert body[1].index("(30)") + 4 == head.index("(now)") + 5


def test_gmcp_names_and_decoding() -> None:
    assert terminal.gmcp_package({"type": "state"}) == "Game.State"
    assert terminal.gmcp_package({"type": "game_end"}) == "Game.GameEnd"
    assert terminal.gmcp_encode("Game.Chat", {"text": "日本"}) == "Game.Chat {\"text\":\"日本\"}".encode()
    assert terminal.gmcp_decode(b"Core.Ping") == ("Core.Ping", None)
    assert terminal.gmcp_decode(b'Core.Hello {"client": "Mudlet"}') == ("Core.Hello", {"client": "Mudlet"})
    assert terminal.gmcp_decode(b"Core.Hello {not json") == ("Core.Hello", None)
    assert terminal.gmcp_decode(b"[" * 100_000) is None and terminal.gmcp_decode(b"  ") is None


def test_eor_ends_a_prompt_never_a_burst_of_whole_lines_nor_a_json_line() -> None:
    """A MUD client takes EOR for the end of a prompt: after output ending in a line break tintin++ drew an
    empty line for it, one more row of 24 on every event (found by a probe)."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"\xff\xfd\x19" + WONT_NAWS + WONT_TTYPE)  # DO EOR; no window size, no terminal type
    transport.clear()
    feed(b"/help\r\n")  # before the name: the answer, then the name prompt again
    assert transport.value().endswith(b"What is your name? \xff\xef")  # IAC EOR after the prompt
    feed(b"eor_user\r\n")
    transport.clear()
    feed(b"/who\r\n")
    assert transport.value().endswith(b"\r\n") and b"\xff\xef" not in transport.value()  # whole lines: none
    feed(b"/mode json\r\n")
    transport.clear()
    feed(b"/who\r\n")
    assert transport.value().startswith(b"{") and b"\xff" not in transport.value()


def test_cp437_has_the_box_drawing_and_accents_and_folds_the_rest() -> None:
    assert terminal.encode("\u2500\u2500 café ½ ♥", "cp437") == b"\xc4\xc4 caf\x82 \xab ?"  # CP437's 0x03 is a control
    assert terminal.encode("日本 — “quoted” ☃", "cp437") == b'?? - "quoted" ?'
    assert terminal.encode("\u2500 café 日", "ascii") == b"? cafe ?"
    assert terminal.decode(b"caf\x82", "cp437") == "café" and terminal.decode(b"\xff\xfe", "utf-8") == "\ufffd\ufffd"


def test_mssp_toggled_on_and_off_is_answered_three_times_and_oob_output_counts_to_the_backlog() -> None:
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"toggler\r\n" + b"\xff\xfd\x46\xff\xfe\x46" * 100)  # DO MSSP, DONT MSSP, a hundred times
    assert transport.value().count(f"\x01CODEBASE\x02mudwiz {mudwiz.__version__}\x01".encode()) == 3
    feed(b"\xff\xfd\xc9")  # DO GMCP
    transport.producer.pauseProducing()  # the peer reads nothing
    for _ in range(MAX_BACKLOG // 1000 + 1):
        lines.send_gmcp("Game.Big", {"x": "y" * 1000})
    assert lines.dropped and transport.disconnected


def test_a_peer_on_a_dual_stack_listener_is_kept_at_its_ipv4_address() -> None:
    """A tcp6 listener reports an IPv4 peer as ``::ffff:127.0.0.1``, which bans keep as ``127.0.0.1``: a ban of the
    address disconnected nobody and spared no sysop's own (found by a probe). The session has the address as bans
    spell it; a real IPv6 address stays as it is."""
    factory = MudFactory(Lobby(Clock()), "", 300.0, outflow=outflow())
    for host, kept in (("::ffff:127.0.0.1", "127.0.0.1"), ("2001:db8::7", "2001:db8::7"), ("10.1.2.3", "10.1.2.3")):
        protocol = factory.buildProtocol(IPv6Address("TCP", host, 5555))
        protocol.makeConnection(StringTransport())
        assert protocol.protocol.connection.session.address == kept  # type: ignore[attr-defined]


def test_an_option_the_client_asks_for_is_agreed_before_its_subnegotiation() -> None:
    """RFC 855: a subnegotiation only once its option is in effect. ``SB TTYPE SEND`` came before ``DO TTYPE``, the
    MSSP table before ``WILL MSSP``, GMCP's hello before ``WILL GMCP``: a strict client drops them (found by a
    probe)."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(WONT_NAWS + WONT_TTYPE + b"\xff\xfe\x46\xff\xfe\xc9")  # every offer refused (DONT MSSP, DONT GMCP)
    for asked, agreed, sent in ((b"\xff\xfb\x18", b"\xff\xfd\x18", b"\xff\xfa\x18\x01\xff\xf0"),  # WILL TTYPE
                                (b"\xff\xfd\x46", b"\xff\xfb\x46", b"\xff\xfa\x46\x01"),  # DO MSSP
                                (b"\xff\xfd\xc9", b"\xff\xfb\xc9", b"\xff\xfa\xc9Core.Hello")):  # DO GMCP
        transport.clear()
        feed(asked)
        assert transport.value().startswith(agreed + sent[:3]) and sent in transport.value(), transport.value()


def test_a_subnegotiation_of_an_option_not_agreed_is_ignored() -> None:
    """``SB GMCP Core.Ping`` from a client that never agreed to GMCP was answered, each of 1,500 of them (so a
    flood went round the option requests' limit), and ``SB TTYPE IS`` with no ``WILL TTYPE`` got a ``TTYPE
    SEND`` (found by a probe). RFC 855: only once the option is in effect."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(WONT_NAWS + WONT_TTYPE + b"\xff\xfe\xc9")  # DONT GMCP
    feed(b"sub_user\r\n")
    transport.clear()
    feed(IAC_SB + b"\xc9Core.Ping" + IAC_SE + IAC_SB + b"\x18\x00xterm" + IAC_SE)
    assert transport.value() == b""
    feed(b"\xff\xfd\xc9")  # DO GMCP: agreed now
    transport.clear()
    feed(IAC_SB + b"\xc9Core.Ping" + IAC_SE)
    assert transport.value() == IAC_SB + b"\xc9Core.Ping" + IAC_SE


def test_a_flood_of_option_requests_gets_a_hundred_answers_and_counts_to_the_backlog() -> None:
    """Each ``IAC WILL ECHO`` (refused: the client may not echo for us) was answered ``IAC DONT ECHO`` straight into
    Twisted's buffer, uncounted: a client that sent them and read nothing grew the server by 170 MB in 30 s, before
    it gave a name (found by a probe)."""
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(WONT_NAWS + WONT_TTYPE)
    transport.clear()
    feed(b"\xff\xfb\x01" * 450 + b"\xff\xfd\x63" * 450)  # WILL ECHO, DO option 99: each refused
    answers = transport.value()
    assert answers.count(b"\xff\xfe\x01") + answers.count(b"\xff\xfc\x63") == 100 - 10  # the offers counted first
    transport.clear()
    feed(b"\xff\xfd\xc9\xff\xfe\xc9" * 20)  # DO GMCP, DONT GMCP: past the answers, not acted on at all: its
    assert transport.value() == b""  # hello went out with no WILL GMCP before it (found by a probe)
    feed(b"ann\r\n")
    assert b"Welcome, ann!" in transport.value() and not lines.dropped  # the connection itself goes on
    assert not transport.disconnecting
    feed(b"\xff\xfd\x01\xff\xfe\x01" * 50)  # DO ECHO, DONT ECHO: past a thousand requests in all, dropped
    assert transport.disconnecting

    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(WONT_NAWS + WONT_TTYPE)
    transport.producer.pauseProducing()  # the peer reads nothing
    for _ in range(MAX_BACKLOG // 600 + 1):  # an MSSP table's bytes, to a crawler that never reads them
        lines.transport.requestNegotiation(b"\x46", b"x" * 600)  # type: ignore[union-attr]
    assert lines.dropped and transport.disconnected


def test_plain_telnet_data_is_read_as_conchs_own_parser_reads_it() -> None:
    """The telnet framing hands plain data on without conch's byte-by-byte loop where it can (a CR-LF line, text
    with no CR); what the protocol is given must be what conch would give it, byte for byte, for every CR form."""
    from twisted.conch.telnet import Telnet, TelnetProtocol

    from mudwiz.net.telnet import _Telnet

    class Fast(_Telnet):
        decided = True  # telnet or not is beside the point here

        def __init__(self) -> None:
            super().__init__(TelnetProtocol)  # refuses every option
            self.got: list[bytes] = []

        def applicationDataReceived(self, data: bytes) -> None:
            self.got.append(data)

    class Slow(Fast):
        def dataReceived(self, data: bytes) -> None:
            Telnet.dataReceived(self, data)

    chunks = [b"abc\r\n", b"a\rb\r\n", b"x\r\0y\r\n", b"\r\r\n", b"one\r\ntwo\r\n", b"tail\r", b"\nnext\r\n",
              b"\r\n", b"no newline", b"lf only\n", b"a\xff\xffb\r\n", b"ab\xff\xfd\x19cd\r\n", b"\r", b"\0z\r\n"]
    fast, slow = Fast(), Slow()
    for transport in (fast, slow):
        transport.makeConnection(StringTransport())
    def lines(got: list[bytes]) -> bytes:  # as the line protocol reads it: a lone CR ends a line too
        return b"".join(got).replace(b"\r\n", b"\n").replace(b"\r", b"\n")

    for chunk in chunks:
        fast.dataReceived(chunk)
        slow.dataReceived(chunk)
        if chunk.endswith(b"\r"):  # Enter at once (a bare CR, or the first half of a CR LF or CR NUL); conch waits
            assert lines(fast.got) == lines(slow.got) + b"\n", chunk
        else:
            assert lines(fast.got) == lines(slow.got), chunk
    assert lines(fast.got).count(b"\n") == 17
