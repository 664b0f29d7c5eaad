"""A whole game of Witches read in Japanese, from ``mudwiz serve``: three JSON players and a telnet player at
80x24, each after ``/lang ja``. The JSON players' errors come in Japanese while the protocol's codes stay as they
are; the telnet player plays from its screen alone (the marked cards of its hand), which shows the table in
Japanese with no line past column 80; and no English sentence of the game's own catalog reaches either of them."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pyte
from babel.messages.pofile import read_po
from wcwidth import wcswidth
from wire import JsonClient, TelnetClient, pick_command

import mudwiz.games.witches
from mudwiz.games.witches.cards import DECK
from mudwiz.games.witches.rules_ja import NAMES_JA

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PO = Path(mudwiz.games.witches.__file__).parent / "locale" / "ja" / "LC_MESSAGES" / "witches.po"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
HAND_CARD = re.compile(r"\x1b\[([0-9;]*)m (\w+) \x1b\[0m")  # a card of a hand's row: padded, marked bold-reverse
RULE = "── ウィッチズ".encode()  # the table view's first line
PROMPTS = ("あなたの番".encode(), "あなたのリード".encode(), "あなたの呪文".encode())


def english_sentences() -> list[re.Pattern[str]]:
    """Each English text of the game's catalog that reads as a sentence (two words or more, or a ``Label:``), as a
    pattern its filled-in form matches: what a reader of Japanese must never be shown."""
    with PO.open("rb") as f:
        catalog = read_po(f, locale="ja", domain="witches")
    found = []
    for message in catalog:
        for msgid in (message.id,) if isinstance(message.id, str) else message.id:
            words = re.sub(r"\{\w+\}", " ", msgid)
            if re.search(r"[A-Za-z]{2,}[,:;]? +[A-Za-z]{2,}|^[A-Z][a-z]+:", words.strip()):
                parts = re.split(r"\{\w+\}", msgid)
                found.append(re.compile(".+?".join(re.escape(p) for p in parts)))
    assert len(found) > 50  # the catalog is read: a pattern list that matched nothing would prove nothing
    return found


def english_in(lines: list[str], patterns: list[re.Pattern[str]]) -> list[str]:
    return [line for line in lines for p in patterns if p.search(line)]


def telnet_move(shown: bytes) -> str | None:
    """The move the telnet player types for the last prompt in ``shown`` (None: none is its turn's), read off its
    screen: the first cards of its hand for a pass, its first playable (marked) card for a trick."""
    at = max(shown.rfind(p) for p in PROMPTS)
    begins = shown.rfind(RULE, 0, max(at, 0))
    if at < 0 or begins < 0:
        return None
    cards = HAND_CARD.findall(shown[begins:at].decode())
    prompt = ANSI.sub("", shown[at:].decode()).split("\n")[0]
    if prompt.startswith("あなたの呪文"):
        return "/spell give"
    count = re.search(r"/pass( C\d+)+", prompt)
    if count:
        return " ".join(["/pass", *(code for _paint, code in cards[:count.group().count("C")])])
    marked = [code for paint, code in cards if paint.endswith("1;7")]
    return f"/play {marked[0]}" if marked else None


def test_a_whole_game_of_witches_in_japanese(server: tuple[str, int]) -> None:
    english = english_sentences()
    rng = random.Random(7)
    players = [JsonClient(server, f"wja{i}") for i in range(3)]
    telnet = TelnetClient(server)
    try:
        telnet.send("wja_tn")
        telnet.read_until(b"Welcome, wja_tn")
        telnet.send("/lang ja")
        for p in players:
            assert p.request("/lang ja")["type"] == "ok"
        host, *others = players
        assert host.request("/new witches")["type"] == "ok"
        table = host.wait_for(lambda m: m["type"] == "state", since=host.mark)["table"]
        for p in others:
            assert p.request(f"/join {table}")["type"] == "ok"
        telnet.send(f"/join {table}")
        host.wait_for(lambda m: m["type"] == "state" and "wja_tn" in str(m.get("players")), since=0)
        assert host.request("/option hands=1")["type"] == "ok"
        start = len(telnet.data)
        assert host.request("/start")["type"] == "ok"

        # wrong moves, in Japanese: their codes (cards, commands) as typed
        state = host.wait_for(lambda m: m["type"] == "state" and m["legal"] == ["/pass"], since=host.mark)
        missing = next(c for c in DECK.cards() if c not in state["hand"])
        error = host.request(f"/pass {missing} {state['hand'][0]} {state['hand'][1]}")
        assert error["type"] == "error" and f"{missing} を持っていません" in error["message"], error
        error = host.request(f"/pass {state['hand'][0]}")
        assert error["type"] == "error"
        assert "1 枚ではなく、ちょうど 3 枚渡してください：/pass C1 C2 C3" in error["message"]
        errors = [error["message"] for error in (host.of_type("error"))]
        unfollowed = ""

        telnet.read_until("あなたの番：".encode(), start=start, timeout=30)
        first = telnet.data[start:]
        board = pyte.Screen(80, 24)
        pyte.Stream(board).feed(first.decode("utf-8"))
        drawn = "\n".join(board.display)
        for said in ("ウィッチズ - 第 1/1 ハンド、各 15 枚", "ディーラー：", "プレイヤー", "合計", "トリック",
                     "へ 3 枚パス（左）。4 人中", "あなたの番："):
            assert said in drawn, said

        played = 0
        acted: dict[str, int] = {}
        told_at = start
        deadline = time.monotonic() + 180
        while not all(p.of_type("game_end") for p in players):
            assert time.monotonic() < deadline, "the game did not finish"
            for p in players:
                p.read(0.005)
                state = p.last_state()
                seen = len(p.of_type("state"))
                if state is None or not state["legal"] or acted.get(p.name) == seen or p.of_type("game_end"):
                    continue
                acted[p.name] = seen
                lead = state.get("lead")
                off = [c for c in state["hand"] if f"/play {c}" not in state["legal"]]
                if lead and off and not unfollowed:  # a card of another colour: the rule, with the colour named
                    reply = p.request(f"/play {off[0]}")
                    unfollowed = reply["message"]
                    assert f"マストフォローです：{NAMES_JA[lead]}のカードを出してください" in unfollowed, unfollowed
                    errors.append(unfollowed)
                move = pick_command(state["legal"], rng)
                if move == "/pass":
                    move = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
                reply = p.request(move)
                if reply["type"] == "error":  # a move overtaken by the table's: answered in Japanese all the same
                    errors.append(reply["message"])
            try:
                telnet.wait(lambda: False, timeout=0.02)
            except TimeoutError:
                pass
            move = telnet_move(telnet.data[told_at:])
            if move is not None:
                telnet.send(move)
                told_at = len(telnet.data)
                played += 1
            if all(p.of_type("game_end") for p in players):
                break
        assert unfollowed, "no JSON player was ever refused a card of another colour"
        assert played >= 16  # its pass and its 15 cards, each typed from what its screen showed
        telnet.read_until("第 1 ハンドの結果".encode(), start=start, timeout=30)
        time.sleep(0.5)
        telnet.wait(lambda: True)

        # the JSON players: Japanese messages; the events' codes as ever
        assert errors and all(JAPANESE.search(m) for m in errors), errors
        assert not english_in(errors, english), english_in(errors, english)
        for p in players:
            starts = p.of_type("hand_start")
            assert [s["direction"] for s in starts] == ["left"] and starts[0]["pass_count"] == 3
            assert all(re.fullmatch(r"[RGYB]\d+|W", m["card"]) for m in p.of_type("card_played"))

        # the telnet player: each line within 80 cells, the game's words all Japanese
        shown = telnet.data[start:].decode("utf-8")
        lines = [ANSI.sub("", line).rstrip("\r") for line in shown.split("\n")]
        assert max(wcswidth(line) for line in lines) <= 80, max(lines, key=wcswidth)
        assert not english_in(lines, english), english_in(lines, english)[:5]
        for said in ("全員が 3 枚を左隣へ渡します。", "全員が渡し終えました。", "から受け取ったカード：",
                     "を出しました。", "第 1 ハンドの結果", "増減"):
            assert said in shown, said
        screen = pyte.Screen(80, 24)
        pyte.Stream(screen).feed(shown)
        assert "第 1 ハンドの結果" in "\n".join(screen.display)
    finally:
        for p in players:
            p.close()
        telnet.close()
