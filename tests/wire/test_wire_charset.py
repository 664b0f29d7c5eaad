"""Japanese charsets over real loopback TCP with ``mudwiz serve``: a telnet client that accepts Shift_JIS (then
EUC-JP) by CHARSET plays a whole Wizard game against bots as 太郎, every byte it gets decodes in its charset with
nothing replaced, and the table, measured as a Japanese terminal draws it (ambiguous characters two cells), is
aligned and within 80 columns; a character split across two reads, an IAC inside one, a character the charset
lacks, kana names and their look-alikes, and an ASCII alias ``/tell`` finds."""

from __future__ import annotations

import json
import random
import re
import socket
import time
import unicodedata
from collections.abc import Iterator

import pyte
import pytest
from wire import (
    CHARSET,
    GMCP,
    JsonClient,
    TelnetClient,
    pick_command,
    register,
    running_server,
)

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
HEADING = ("名前", "得点")  # the Wizard table's "player" and "score" columns, read in Japanese
IAC, NOP = b"\xff", b"\xf1"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with running_server() as address:
        yield address


def cells(text: str, ambiguous: int = 2) -> int:
    """Columns ``text`` takes on a terminal that draws East Asian ambiguous characters ``ambiguous`` wide (pyte
    draws them one wide, so the two-cell case is measured here, by the Unicode table, not by the server's code)."""
    total = 0
    for ch in text:
        east = unicodedata.east_asian_width(ch)
        if unicodedata.combining(ch):
            continue
        total += 2 if east in ("W", "F") or east == "A" and ambiguous == 2 else 1
    return total


def japanese_client(server: tuple[str, int], charset: str, codec: str, name: str, lang: str = "en") -> TelnetClient:
    """Logged in over a Japanese charset, then ``/lang lang``: ``en`` where the test reads English replies (the
    charset under test, not the words), ``ja`` for a whole game read as a Japanese player reads it."""
    client = TelnetClient(server, do=(0, 25, CHARSET, GMCP), charset=charset, encoding=codec)
    client.read_until(b"name? ")
    client.send(name)  # at once, as a person types it: the server reads it once the CHARSET answer is in
    client.read_until(f"ようこそ、{name} さん".encode(codec))  # a Japanese charset: the welcome in Japanese
    client.send(f"/lang {lang}")
    client.read_until((f"言語: {lang}" if lang == "ja" else f"language: {lang}").encode(codec))
    return client


def play_whole_game(client: TelnetClient, rng: random.Random, limit: float = 120.0) -> None:
    """Answer each new state that asks us something with a legal move (read from GMCP's ``Game.State``: the
    screen is for the eyes), until ``Game.GameEnd``."""
    deadline = time.monotonic() + limit
    read = 0  # subnegotiations looked at
    while True:
        client.wait(lambda seen=read: len(client.subnegotiations) > seen, timeout=30, what="no GMCP message")
        fresh, read = client.subnegotiations[read:], len(client.subnegotiations)
        packages = [p[1:].decode().partition(" ") for p in fresh if p[:1] == bytes((GMCP,))]
        if any(package == "Game.GameEnd" for package, _, _ in packages):
            return
        assert time.monotonic() < deadline, "the game did not finish"
        latest = [json.loads(body) for package, _, body in packages if package == "Game.State"]
        legal = [move for move in (latest[-1].get("legal", []) if latest else []) if move != "/start"]
        if legal:
            client.send(pick_command(legal, rng))


def score_column(rows: list[str], names: list[str]) -> set[int]:
    """The cell where each row's first number after its name ends (the score column's right edge)."""
    ends = set()
    for row in rows:
        who = next(n for n in names if n in row)
        head = row[:row.index(who) + len(who)]
        score = re.match(r"\s*-?\d+", row[len(head):])
        assert score is not None, row
        ends.add(cells(head + score.group()))
    return ends


def table_rows(lines: list[str], names: list[str]) -> tuple[str, list[str]]:
    """The last table view's heading and its player rows among ``lines`` (ANSI codes out)."""
    at = max(i for i, line in enumerate(lines) if HEADING[0] in line and HEADING[1] in line)
    return lines[at], [line for line in lines[at + 1:at + 12] if any(n in line for n in names)][:len(names)]


@pytest.mark.parametrize(("charset", "codec"), [("Shift_JIS", "cp932"), ("EUC-JP", "euc_jp")])
def test_a_japanese_terminal_plays_a_whole_game_aligned_in_its_charset(
        server: tuple[str, int], charset: str, codec: str) -> None:
    name = "太郎" if codec == "cp932" else "花子"
    client = japanese_client(server, charset, codec, name, lang="ja")
    try:
        for line in ("/new wizard", "/bot add random", "/bot add random", "/option botdelay 0", "/option rounds 5",
                     "/start"):
            client.send(line)
        play_whole_game(client, random.Random(7))
        at = len(client.data)
        client.send("/look")
        client.read_until(HEADING[1].encode(codec), start=at)

        def standings_in(data: bytes) -> list[str]:
            rows = [ANSI.sub("", line) for line in data.decode(codec, "replace").split("\r\n")]
            return [row for row in rows if re.match(r"\s+\d\. ", row)]

        client.wait(lambda: len(set(standings_in(client.data[at:]))) >= 3, timeout=20, what="the final standings")
        time.sleep(0.3)
        text = client.data.decode(codec)  # strict: a byte that is no character in the charset fails here
        assert "\ufffd" not in text and "\u3013" not in text  # nothing replaced, nothing marked: all of it fits
        assert name in text
        # nothing past column 80, as a Japanese terminal draws (ambiguous two wide)
        rows = [piece for line in ANSI.sub("", text).split("\r\n") for piece in line.split("\r")]  # CR: column 0
        widest = max(rows, key=cells)
        assert cells(widest) <= 80, widest
        # the last table drawn in the game: each row's score ends under the heading's, counted in cells
        names = [name, "bot1", "bot2"]
        heading, players = table_rows(rows, names)
        assert len(players) == 3 and any(name in row for row in players), (heading, players)
        assert score_column(players, names) == {cells(heading[:heading.index(HEADING[1]) + len(HEADING[1])])}, players
        # the final standings after /look: one score column, whoever's name is wide
        look = client.data[at:].decode(codec)
        standings = [ANSI.sub("", line) for line in look.split("\r\n") if re.match(r"\s+\d\. ", ANSI.sub("", line))]
        assert len(set(standings)) == 3 and len(score_column(standings, names)) == 1, standings  # (drawn once or twice)
        # and on an 80x24 pyte screen the table shows the name, drawn in two cells a kanji
        screen = pyte.Screen(80, 24)
        pyte.Stream(screen).feed(look)
        assert any(name[0] in row for row in screen.display), screen.display
    finally:
        client.close()


def test_a_character_split_across_reads_and_an_iac_inside_one_arrive_whole(server: tuple[str, int]) -> None:
    listener = JsonClient(server, "cs_listener")
    client = japanese_client(server, "Shift_JIS", "cp932", "cs_split")
    try:
        data = "/say 太郎です".encode("cp932")
        client.sock.sendall(data[:6])  # "/say " and the first byte of 太
        time.sleep(0.3)
        client.sock.sendall(data[6:] + b"\r\n")
        said = listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == "cs_split")
        assert said["text"] == "太郎です"
        # an IAC NOP between the two bytes of a character: the telnet layer takes it out before decoding
        tail = "花子".encode("cp932")
        client.sock.sendall(b"/say " + tail[:1] + IAC + NOP + tail[1:] + b"\r\n")
        said = listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == "cs_split")
        assert said["text"] == "花子"
        # what the client is sent back has no byte 255 that is not a telnet command (cp932 has none)
        assert b"\xff\xff" not in client.wire
    finally:
        client.close()
        listener.close()


def test_a_character_the_charset_lacks_arrives_as_a_mark_of_its_width(server: tuple[str, int]) -> None:
    writer = JsonClient(server, "cs_writer")
    client = japanese_client(server, "Shift_JIS", "cp932", "cs_reader")
    try:
        at = len(client.data)
        writer.request("/say 한국 x ♥ ok")  # Korean: wide, not in Shift_JIS; ♥: ambiguous, not in it either
        seen = client.read_until(b"ok", start=at)
        line = seen.decode("cp932")
        assert "〓〓 x 〓 ok" in line, line  # ambiguous is two cells here: the heart's mark is two cells too
        client.send("/width ambiguous 1")
        client.read_until(b"ambiguous characters 1 wide")
        at = len(client.data)
        writer.request("/say 한 x ♥ again")
        line = client.read_until(b"again", start=at).decode("cp932")
        assert "〓 x ? again" in line, line
        assert b"\xef\xbf\xbd" not in client.data  # never UTF-8 bytes either
    finally:
        client.close()
        writer.close()


def test_kana_names_look_alikes_refused_and_an_alias_for_tell(server: tuple[str, int]) -> None:
    kai = JsonClient(server, "カイ")
    try:
        with pytest.raises(RuntimeError, match="looks too like カイ"):
            JsonClient(server, "力イ")  # the kanji for power, not the katakana ka
        same = socket.create_connection(server, timeout=10)  # half-width katakana: the same name, to take over
        same.sendall("/mode json\r\nｶｲ\r\n".encode())
        seen = b""
        while b"Resume code" not in seen:
            chunk = same.recv(4096)
            assert chunk, seen
            seen += chunk
        assert '"name":"カイ"'.encode() in seen  # asked for カイ's proof, as any name online is
        same.close()
        register(kai, "kai-password-9")
        assert kai.request("/alias kai")["type"] == "ok"
        other = JsonClient(server, "cs_teller")
        try:
            assert other.request("/tell kai こんにちは")["type"] == "ok"
            told = kai.wait_for(lambda m: m["type"] == "chat" and m["from"] == "cs_teller")
            assert told["text"] == "こんにちは"
            refused = other.request("/alias mine")
            assert refused["type"] == "error" and "\n" not in refused["message"]  # a guest: one line, refused
        finally:
            other.close()
        with pytest.raises(RuntimeError, match="alias"):
            JsonClient(server, "Kai")  # the alias is nobody else's name
    finally:
        kai.close()
    time.sleep(0.5)  # カイ has left: the account's name is still guarded, by its kana spellings too
    with pytest.raises(RuntimeError, match="looks too like カイ, a registered name"):
        JsonClient(server, "力イ")
    JsonClient(server, "カイ", password="kai-password-9").close()  # and its owner logs in
