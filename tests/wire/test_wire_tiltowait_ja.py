"""A whole Tiltowait game read in Japanese, from ``mudwiz serve``: two players chose ``/lang ja`` (a JSON client
and a telnet client on an 80x24 screen, which plays from the GMCP states it is sent), two read English.

The Japanese readers' refusals are Japanese and the English readers' English, for the same wrong move; the events
are the same codes for both; the telnet screen shows the table in Japanese (the rules page's words: 場, 山, 捨て札,
回り方, ハリト(HALITO-R)) with nothing past column 80; and no English sentence of Tiltowait's own catalog reaches
either Japanese reader (each msgid's words, its fields any text, are looked for in everything they were sent).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pyte
import pytest
from wcwidth import wcswidth
from wire import BINARY, CHARSET, EOR_OPTION, GMCP, JsonClient, TelnetClient, free_port, pick_command, running_server

from mudwiz.games.tiltowait.cards import CODES
from mudwiz.games.tiltowait.engine import Tiltowait
from mudwiz.texts import catalogs

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
WORD = re.compile(r"[A-Za-z]{2,}")
# typed alike in every language: moves, their placeholders, the cards' codes
TYPED = {"play", "draw", "keep", "karuki", "catch", "ok", "CARD", "COLOUR", "NAME", *Tiltowait.VERBS, *CODES,
         *(code.split("-")[0] for code in CODES)}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """A server of this module's own, so that its table numbers are nobody else's."""
    with running_server(MUDWIZ_RAW_LISTEN=f"tcp:{free_port()}:interface=127.0.0.1") as address:
        yield address


def english_sentences() -> list[tuple[str, re.Pattern[str]]]:
    """Each msgid (and plural) of Tiltowait's catalog that says something in English, as a pattern of its text with
    anything where a field is: one English word at least besides what is typed alike in every language (a card's
    code, a move's verb, ``COLOUR``), and two for a text without fields (a lone ``hand`` is in many a sentence)."""
    source = next(s for s in catalogs.sources() if s.domain == "tiltowait")
    found = []
    for message in catalogs.extract(source):
        for msgid in filter(None, catalogs.ids(message) if message.id else ()):
            pieces = re.split(r"\{[^{}]*\}", msgid)
            words = [w for piece in pieces for w in WORD.findall(piece) if w not in TYPED]
            if words and (len(pieces) > 1 or len(words) > 1):
                found.append((msgid, re.compile(".*?".join(re.escape(piece) for piece in pieces))))
    assert len(found) > 100  # the catalog was read: a pattern list that is empty would find nothing
    return found


def untranslated(lines: list[str]) -> list[tuple[str, str]]:
    sentences = english_sentences()
    return [(line, msgid) for line in lines for msgid, pattern in sentences if pattern.search(line)]


def pump(client: TelnetClient, seconds: float) -> None:
    """Read what the server sent the telnet client, waiting at most ``seconds``."""
    try:
        client.wait(lambda: False, timeout=seconds)
    except TimeoutError:
        pass


def states(client: TelnetClient) -> list[dict]:
    return [data for package, data in client.gmcp() if package == "Game.State"]


def text_lines(data: bytes) -> list[str]:
    return [line.removeprefix("\r") for line in ANSI.sub("", data.decode("utf-8")).split("\r\n")]


def may_play(client: JsonClient) -> bool:
    """Whether a /play from ``client`` now is read as a play: it is not asked, or it is asked and may play."""
    state = client.last_state()
    assert state is not None
    return client.name not in state["waiting"] or any(m.startswith("/play") for m in state["legal"])


def play(clients: list[JsonClient], telnet: TelnetClient, rng: random.Random, limit: int = 20000) -> None:
    """Every player answers its latest state with a legal move (the JSON clients as ``play_until_game_end`` does;
    the telnet player from its GMCP states, never a /catch, which another's move may have made too late: a
    refused move would get no new state to answer) until all have seen the game end."""
    pending: dict[str, str] = {}
    acted: dict[str, int] = {}
    for _ in range(limit):
        if all(c.of_type("game_end") for c in clients):
            return
        pump(telnet, 0.002)
        told = states(telnet)
        if told and acted.get("telnet") != len(told):
            moves = [m for m in told[-1]["legal"] if not m.startswith("/catch")]
            if moves:
                acted["telnet"] = len(told)
                telnet.send(pick_command(moves, rng))
        for c in clients:
            c.read(0.002)
            if c.name in pending and any(m.get("id") == pending[c.name] for m in c.messages[-20:]
                                         if m["type"] in ("ok", "error")):
                pending.pop(c.name)
            state = c.last_state()
            if c.name in pending or state is None or not state["legal"] or acted.get(c.name) == len(
                    c.of_type("state")):
                continue
            acted[c.name] = len(c.of_type("state"))
            c._next_id += 1
            pending[c.name] = f"{c.name}-{c._next_id}"
            c.send(json.dumps({"id": pending[c.name], "cmd": pick_command(state["legal"], rng)}))
    raise AssertionError("the game did not finish")


def test_a_whole_tiltowait_game_read_in_japanese_on_json_and_an_80x24_telnet_screen(
        server: tuple[str, int]) -> None:
    ja = JsonClient(server, "tj_ja")
    english = [JsonClient(server, f"tj_en{i}") for i in (1, 2)]
    telnet = TelnetClient(server, do=(BINARY, EOR_OPTION, CHARSET, GMCP), size=(80, 24))
    try:
        assert ja.request("/lang ja")["type"] == "ok"
        telnet.send("tj_tel")
        telnet.read_until(b"Welcome, tj_tel")
        telnet.subnegotiate(GMCP, b'Core.Supports.Set ["Game 1"]')
        telnet.send("/lang ja")
        assert ja.request("/new tiltowait")["type"] == "ok"
        table = ja.wait_for(lambda m: m["type"] == "state", since=ja.mark)["table"]
        for c in english:
            assert c.request(f"/join {table}")["type"] == "ok"
        telnet.send(f"/join {table}")
        telnet.wait(lambda: any(s.get("table") == table for s in states(telnet)), what="no state of the table")
        assert ja.request("/option hands=1")["type"] == "ok"
        start = len(telnet.data)
        assert ja.request("/start")["type"] == "ok"

        # the same wrong move, refused in each reader's language (a card code is a card code in both), by players
        # for whom a /play is no move of another time (one asked to /draw is told that first, in the core's words)
        for client in (ja, *english):
            client.wait_for(lambda m: m["type"] == "state" and m["phase"] == "playing", since=0)
        if not may_play(ja):
            assert ja.request(ja.last_state()["legal"][0])["type"] == "ok"  # the /draw asked of it
            ja.wait_for(lambda m: m["type"] == "state", since=ja.mark)
        reader = next(c for c in english if may_play(c))
        said = {c.name: c.request("/play Z9")["message"] for c in (ja, reader)}
        assert said["tj_ja"].startswith("'Z9' はティルトウエイのカードではありません"), said
        assert said[reader.name].startswith("'Z9' is not a Tiltowait card"), said

        # the telnet player's screen, the table as it is now: Japanese, the cards' codes as typed
        telnet.wait(lambda: bool(states(telnet)), what="no state")
        look = len(telnet.data)
        telnet.send("/look")
        telnet.read_until("回り方：".encode(), start=look)
        pump(telnet, 0.5)
        term = pyte.Screen(80, 24)
        pyte.Stream(term).feed(telnet.data[look:].decode("utf-8"))
        rows = [row.rstrip() for row in term.display]
        assert any(row.startswith("── ティルトウエイ - 第 1/1 ハンド") for row in rows), rows
        assert any(row.startswith(" 場：") and "色：" in row and "回り方：" in row for row in rows), rows
        assert any(row.startswith(" 山：") and "捨て札：" in row and "次：" in row for row in rows), rows
        assert any("プレイヤー" in row and "枚数" in row and "得点" in row for row in rows), rows

        play([ja, *english], telnet, random.Random("tiltowait ja"))
        telnet.wait(lambda: "上がりました！".encode() in telnet.data[start:], what="no result")
        pump(telnet, 0.5)
    finally:
        for c in (ja, *english):
            c.close()
        telnet.close()

    # the telnet screen: every row within 80 columns (wcwidth: an oracle apart from the server's own measure)
    lines = text_lines(telnet.data[start:])
    assert max(wcswidth(line) for line in lines) <= 80, max(lines, key=wcswidth)
    shown = "\n".join(lines)
    for words in ("第 1 ハンド：各 7 枚。場に ", "を出しました。", "引きました", "第 1 ハンドの結果", "上がりました！"):
        assert words in shown, words
    assert not untranslated(lines)
    assert "Hand 1: 7 cards each" not in shown and " plays " not in shown

    # the JSON reader: its refusals in Japanese, no English sentence of the game's, events the same codes
    errors = [m["message"] for m in ja.of_type("error")]
    assert errors and JAPANESE.search(errors[0]), errors
    assert not untranslated(errors)
    played = [[{k: m[k] for k in ("player", "card", "target")} for m in c.of_type("card_played")]
              for c in (ja, english[0])]
    assert played[0] == played[1] and len(played[0]) > 5
    assert ja.of_type("game_end")[-1]["standings"] == english[0].of_type("game_end")[-1]["standings"]
