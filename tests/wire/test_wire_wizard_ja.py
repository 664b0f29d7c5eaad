"""A whole Wizard game read in Japanese (``/lang ja``) from ``mudwiz serve``: a JSON player whose errors and option
help come in Japanese while every code stays as it was, and a telnet player at 80x24 whose screen shows the table
in Japanese within its 80 columns; neither is sent an English sentence of Wizard's own catalog."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pyte
from babel.messages.pofile import read_po
from wcwidth import wcswidth
from wire import JsonClient, TelnetClient, pick_command

import mudwiz.games.wizard

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FIELD = re.compile(r"\{[^{}]*\}")
CODE = re.compile(r"^(?:Z|N|[BGRY](?:[1-9]|1[0-3]))$")
MOVE = re.compile(r"/(?:bid|play|trump)[ \u00a0][^\s,]+")
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CATALOG = Path(mudwiz.games.wizard.__file__).parent / "locale" / "ja" / "LC_MESSAGES" / "wizard.po"


def english_sentences() -> list[re.Pattern[str]]:
    """Each English text of Wizard's catalog that says two words or more, as a pattern whose ``{fields}`` match
    anything: what a Japanese reader must never be sent."""
    with CATALOG.open("rb") as po:
        catalog = read_po(po)
    patterns = []
    for message in catalog:
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            parts = FIELD.split(msgid)
            if msgid and len(re.findall(r"[A-Za-z]{2,}", " ".join(parts))) >= 2:
                patterns.append(re.compile(".+?".join(re.escape(p.strip()) for p in parts if p.strip())))
    return patterns


def english_in(lines: list[str]) -> list[str]:
    patterns = english_sentences()
    return [f"{line!r} ~ {p.pattern}" for line in lines for p in patterns if p.search(line)]


def pump(client: TelnetClient, seconds: float = 0.05) -> None:
    """Read what the server has sent, for at most ``seconds``."""
    try:
        client.wait(lambda: False, seconds)
    except TimeoutError:
        pass


def plain(data: bytes) -> str:
    return ANSI.sub("", data.decode("utf-8", "replace"))


def screen(data: bytes) -> list[str]:
    """``data`` on an 80x24 pyte screen, as a terminal shows it."""
    term = pyte.Screen(80, 24)
    pyte.Stream(term).feed(data.replace(b"\x1b[2J", b"").decode("utf-8"))
    return [row.rstrip() for row in term.display]


class TelnetPlayer:
    """A person at a telnet terminal who reads the table in Japanese and plays from it: on the prompt that says it
    is their turn, a move the rules refuse (a bid that is no number, ``/play ?`` with their cards in view), whose
    error lists the moves allowed; then the first of those. ``/ok`` after each round's result."""

    def __init__(self, client: TelnetClient) -> None:
        self.client = client
        self.seen = len(client.data)
        self.errors: list[str] = []  # the refusals, as shown
        self.turn_screen: list[str] = []  # the screen when first asked for a card

    def step(self) -> None:
        pump(self.client)
        new = plain(self.client.data[self.seen:])
        if "ラウンドの結果" in new:
            self.seen = len(self.client.data)
            self.client.send("/ok")
            return
        asked = re.search(r"あなたの(?:番|リード)です：(/\w+)", new)
        if asked is None:
            return
        if asked.group(1) == "/play" and not self.turn_screen:
            self.turn_screen = screen(self.client.data)
        probe = {"/bid": "/bid x", "/trump": "/trump x"}.get(asked.group(1), "/play ?")
        at = len(self.client.data)
        self.client.send(probe)
        self.client.read_until("できる手:".encode(), start=at, timeout=20)  # the core's hint, in Japanese too
        pump(self.client, 0.2)
        said = plain(self.client.data[at:]).replace("\r\n  ", " ")
        self.errors.append(said.strip())
        moves = MOVE.findall(said.split("できる手:", 1)[1])
        assert moves, said
        self.seen = len(self.client.data)
        self.client.send(moves[0].replace("\u00a0", " "))


def test_a_whole_wizard_game_in_japanese_over_json_and_telnet(server: tuple[str, int]) -> None:
    bot = JsonClient(server, "jwzjson")
    telnet = TelnetClient(server, size=(80, 24))
    try:
        telnet.send("jwztel")
        telnet.read_until(b"Welcome, jwztel")
        assert bot.request("/lang ja")["type"] == "ok"
        start = len(telnet.data)
        telnet.send("/lang ja")
        pump(telnet, 0.5)
        assert bot.request("/new wizard")["type"] == "ok"
        table = bot.wait_for(lambda m: m["type"] == "state", since=bot.mark)["table"]
        for line in ("/option rounds 2", "/bot add random"):
            assert bot.request(line)["type"] == "ok", line
        assert bot.request("/option notequal")["type"] == "ok"
        clash = bot.request("/option tournament")  # the game's own refusal of a combination, in Japanese
        assert clash["type"] == "error" and clash["message"].startswith("rounds と tournament はどちらも"), clash
        telnet.send(f"/join {table}")
        bot.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 3)

        # the options' help in Japanese, their names and values as typed
        assert bot.request("/option")["type"] == "ok"
        rows = {o["name"]: o for o in bot.wait_for(lambda m: m["type"] == "options", since=bot.mark)["options"]}
        assert rows["notequal"]["value"] is True and rows["rounds"]["value"] == 2
        for name in ("notequal", "hiddentip", "secretbid", "clairvoyance", "rounds", "tournament"):
            assert KANA.search(rows[name]["help"]), rows[name]

        assert bot.request("/start")["type"] == "ok"
        player = TelnetPlayer(telnet)
        rng = random.Random(7)
        refused: list[str] = []
        acted = 0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if bot.of_type("game_end"):
                break
            player.step()
            bot.read(0.02)
            state = bot.last_state()
            states = len(bot.of_type("state"))
            if state is None or not state["legal"] or states == acted:
                continue
            acted = states
            if state["phase"] == "bidding" and not refused:
                refused.append(bot.request("/bid x")["message"])
            if state["phase"] == "playing" and len(refused) == 1:
                refused.append(bot.request("/play ?")["message"])
            command = pick_command(state["legal"], rng)
            if command != "/start":
                bot.request(command)
        else:
            raise AssertionError("the game did not finish")
        for _ in range(20):
            pump(telnet, 0.1)

        # JSON: the refusals in Japanese, the moves in them as typed
        assert refused[0].startswith("ビッドはトリック数（整数）です：'x' は使えません"), refused
        assert refused[1].startswith("このラウンドは自分のカードが見えます"), refused
        assert "/play" in refused[1]
        errors = [m["message"] for m in bot.messages if m["type"] == "error"]
        assert not english_in(errors)
        # ... and every code as it was: states and events carry no word of any language
        for m in bot.messages:
            if m["type"] == "state":
                assert all(CODE.match(c) for c in m["hand"]), m["hand"]
                assert m["trump"]["suit"] in (None, "B", "G", "R", "Y")
            if m["type"] in ("card_played", "trump_turned") and m.get("card") is not None:
                assert CODE.match(m["card"]), m
        assert {m["type"] for m in bot.messages} >= {"round_start", "trump_turned", "bid_made", "card_played",
                                                      "trick", "round_end", "game_end"}

        # telnet: the game drawn in Japanese, every row within 80 columns, no English sentence of Wizard's
        shown = plain(telnet.data[start:])
        lines = [line.removeprefix("\r") for line in shown.split("\r\n")]
        assert all(wcswidth(line) <= 80 for line in lines), max(lines, key=wcswidth)
        assert not english_in(lines)
        for words in ("ウィザード - 第 1/2 ラウンド、1 枚", "第 2 ラウンド：各 2 枚。", "第 1 ラウンドの結果",
                      "ビッド", "獲得", "あなたの"):
            assert words in shown, words
        ours = ("ビッドはトリック数（整数）です：'x' は使えません", "このラウンドは自分のカードが見えます", "'x'")
        assert player.errors and all(e.removeprefix("! ").startswith(ours) for e in player.errors), player.errors
        rows_seen = player.turn_screen
        assert any(row.startswith(" 切り札：") for row in rows_seen), rows_seen
        assert any("ディーラー：" in row and "リード：" in row for row in rows_seen), rows_seen
        assert any(row.startswith("   名前") and "得点" in row and "札" in row for row in rows_seen), rows_seen
        assert all(wcswidth(row) <= 80 for row in screen(telnet.data))
        # a Japanese heading counted in cells: ``[rating]`` stands over the rows' ratings
        headings = [line for line in lines if line.startswith("   名前") and "[rating]" in line]
        rated = [line for line in lines if re.search(r"^ [ >] \S+ .*\[\d+\]", line)]
        if headings and rated:
            at = wcswidth(headings[0][:headings[0].index("[rating]")])
            assert all(wcswidth(row[:re.search(r"\[\d+\]", row).start()]) == at for row in rated), rated
    finally:
        telnet.close()
        bot.close()
