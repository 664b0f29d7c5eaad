"""Each game played to its end in Japanese at a terminal, over SSH (the real OpenSSH ``ssh``, its ``LANG`` sent)
and through the BBS door (``mudwiz door --charset sjis --lang ja``, Shift_JIS bytes), against a real ``mudwiz
serve`` with two bots at the table: the player reads the moves allowed off the refusal of a probe (the core's
hint, in Japanese) and types the first, until the table says, in Japanese, that the game is over. What they were
shown is Japanese where the catalogs have it, every row within 80 columns, and no English sentence of the game's
catalog or the core's that has a Japanese one reaches them.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from wcwidth import wcswidth
from wire import Terminal, free_port, need, running_server

import mudwiz

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
FIELD = re.compile(r"\{[^{}]*\}")
ROOT = Path(mudwiz.__file__).resolve().parent
SECRET = "edgekey"
GAME_OVER = "ゲームは終わりました"  # the table's answer to a move once the game is over (table/core.py)
YOU_MAY = "できる手: "  # the core's hint after a refused move, in Japanese (hints.py)
PROBE = "/play ?"  # no card of any game: refused, with the moves allowed when it is the player's turn
GAMES = {  # each game's shortest length, and the heading of its table in Japanese (its own catalog)
    "wizard": ("/option rounds 1", "ウィザード - 第 1/1 ラウンド"),
    "witches": ("/option hands 1", "ウィッチズ"),
    "tiltowait": ("/option hands 1", "ティルトウエイ - 第 1"),
}


def english_sentences(game: str) -> list[re.Pattern[str]]:
    """The English of every text of ``game``'s catalog and the core's that has a Japanese translation and says
    two words or more, as a pattern its filled-in form matches: what a Japanese reader must not be shown."""
    patterns = []
    for po in (ROOT / "locale/ja/LC_MESSAGES/mudwiz.po", ROOT / f"games/{game}/locale/ja/LC_MESSAGES/{game}.po"):
        with po.open("rb") as file:
            catalog = read_po(file)
        for message in catalog:
            said = message.string if isinstance(message.string, tuple) else (message.string,)
            if not message.id or message.fuzzy or not all(said):
                continue
            for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
                parts = [p.strip() for p in FIELD.split(msgid) if p.strip()]
                if len(re.findall(r"[A-Za-z]{2,}[,:;.]? +[A-Za-z]{2,}", " ".join(parts))) >= 1:
                    patterns.append(re.compile(".+?".join(re.escape(p) for p in parts)))
    assert len(patterns) > 300  # both catalogs read: a list that matched nothing would prove nothing
    return patterns


def rows(shown: str) -> list[str]:
    return [row.rstrip("\r") for row in ANSI.sub("", shown).split("\n")]


def english_in(lines: list[str], patterns: list[re.Pattern[str]], typed: set[str]) -> list[str]:
    return [f"{line!r} ~ {p.pattern}" for line in lines if line.strip() not in typed for p in patterns
            if p.search(line)]


def pump(term: Terminal, seconds: float) -> None:
    try:
        term.read_until(b"\0\0never", timeout=seconds)
    except TimeoutError:
        pass


class Player:
    """A person at a terminal whose bytes are in ``codec``: types lines and reads the table's answers."""

    def __init__(self, term: Terminal, codec: str) -> None:
        self.term = term
        self.codec = codec
        self.typed: set[str] = {PROBE}  # their own lines, echoed by the server: not the server's words

    def shown(self, since: int = 0) -> str:
        return self.term.output[since:].decode(self.codec, "replace")

    def type(self, line: str, wait_for: str | None = None) -> str:
        at = len(self.term.output)
        self.typed.add(line)
        self.term.type(line)
        if wait_for is not None:
            self.term.read_until(wait_for.encode(self.codec), since=at, timeout=30)
        return self.shown(at)

    def refusal(self) -> str:
        """Probe with a card no game has, and the whole refusal (``! ...``, its rows joined) that answers it."""
        at = len(self.term.output)
        self.typed.add(PROBE)
        self.term.type(PROBE)
        deadline = time.monotonic() + 30
        while not any(line.startswith("! ") for line in rows(self.shown(at))):  # painted: read without its paint
            assert time.monotonic() < deadline, f"no refusal: {self.shown(at)[-600:]!r}"
            pump(self.term, 0.02)
        pump(self.term, 0.05)  # the rest of its rows
        raw = self.shown(at).split("\r\n")
        first = next(i for i, line in enumerate(raw) if ANSI.sub("", line).startswith("! "))
        paint = raw[first][:raw[first].index("! ")]  # its rows after the first are painted the same, two in
        said = [raw[first]]
        for line in raw[first + 1:]:
            if not line.startswith(paint + "  "):
                break
            said.append(line)
        return " ".join(ANSI.sub("", line).strip() for line in said)

    def play_to_the_end(self, timeout: float = 180) -> int:
        """Moves until the game is over: the first concrete one the hint lists (``/pass C1 C2 ...`` stands for a
        choice: the turn clock makes one); how many were typed."""
        moves, tries, last = 0, 0, []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            refused = self.refusal()
            if GAME_OVER in refused:
                return moves
            listed = refused.split(YOU_MAY, 1)[1].split(", ") if YOU_MAY in refused else []
            listed = [m.replace("\u00a0", " ").strip() for m in listed]
            # ``/play MAHALITO ...`` stands for a spell's colours (Tiltowait): red, say; a MILWA's aim is not read
            concrete = [m.replace(" ...", " R") if m.endswith(" ...") and "MILWA" not in m else m for m in listed]
            concrete = [m for m in concrete if "..." not in m and " C1" not in m]
            # a card played ends a hand sooner, and one's last but one with its call: a hand of Tiltowait played with
            # the first move listed (a draw) went on for 300 moves
            concrete.sort(key=lambda move: (not move.startswith("/play "), not move.endswith(" karuki")))
            if concrete:  # the same moves listed again: the last one tried was refused; the next one
                tries, last = (tries + 1 if listed == last else 0), listed
                self.type(concrete[tries % len(concrete)])
                moves += 1
            else:
                pump(self.term, 0.1)
        raise AssertionError(f"the game did not end: {self.shown()[-800:]!r}")


def set_up_and_play(player: Player, game: str) -> str:
    """A table of ``game`` at its shortest with two bots moving at once, played to its end; what was shown."""
    length, _ = GAMES[game]
    at = len(player.term.output)
    player.type(f"/new {game}", wait_for="卓 ")
    for line in (length, "/option botdelay 0", "/option confirm 1", "/option turn 2", "/bot add random",
                 "/bot add random"):
        player.type(line)
    player.type("/start", wait_for="を開始")
    began = time.monotonic()
    moves = player.play_to_the_end()
    print(f"{game}: {moves} moves typed in {time.monotonic() - began:.1f} s")
    assert moves > 0
    pump(player.term, 0.3)
    player.type("/leave", wait_for="を離れました")
    return player.shown(at)


def check(shown: str, game: str, player: Player) -> None:
    lines = rows(shown)
    assert all(wcswidth(line) <= 80 for line in lines), max(lines, key=wcswidth)
    assert "\ufffd" not in shown
    heading = GAMES[game][1]
    for japanese in (f"{game.title()} を開始", heading, "着席しました", YOU_MAY.strip(), GAME_OVER, "を離れました"):
        assert japanese in shown, japanese
    wrong = english_in(lines, english_sentences(game), player.typed)
    assert not wrong, "\n".join(wrong[:20])


@pytest.fixture
def server() -> Iterator[tuple[int, int]]:
    """A server of each test's own, its tables' seeds drawn from one seed: each way plays the same short games."""
    ssh, rlogin = free_port(), free_port()
    with running_server(MUDWIZ_SSH=f"tcp:{ssh}:interface=127.0.0.1", MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1",
                        MUDWIZ_RLOGIN_BBS=f"edge:{SECRET}", MUDWIZ_SEED=os.environ.get("EDGE_SEED", "5")):
        yield ssh, rlogin


def over_ssh(port: int, name: str) -> Player:
    env = {**os.environ, "LANG": "ja_JP.UTF-8", "TERM": "xterm"}
    argv = [need("sshpass"), "-p", "", need("ssh"), "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "NumberOfPasswordPrompts=1", "-o", "SendEnv=LANG",
            "-p", str(port), "-tt", f"{name}@127.0.0.1"]
    player = Player(Terminal(argv, env=env), "utf-8")
    player.term.read_until(f"ようこそ、{name} さん".encode(), timeout=30)
    return player


def through_the_door(rlogin: int, handle: str, tmp_path: Path) -> Player:
    drop = tmp_path / "door32.sys"
    drop.write_text("\r\n".join(["2", "-1", "115200", "Test BBS", "7", "Real Name", handle, "30", "60", "1", "1"])
                    + "\r\n", encoding="cp932")
    argv = [sys.executable, "-m", "mudwiz.cli", "door", str(drop), "--server", f"127.0.0.1:{rlogin}",
            "--secret", SECRET, "--charset", "sjis", "--lang", "ja"]
    player = Player(Terminal(argv, env=dict(os.environ)), "cp932")
    player.term.read_until(f"ようこそ、{handle}@edge さん".encode("cp932"), timeout=30)
    return player


Open = Callable[[int, int, Path], Player]
WAYS: dict[str, Open] = {
    "ssh": lambda ssh, rlogin, tmp: over_ssh(ssh, "jedge_ssh"),
    "door": lambda ssh, rlogin, tmp: through_the_door(rlogin, "jedge_door", tmp),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_the_three_games_played_to_their_end_in_japanese(server: tuple[int, int], way: str, tmp_path: Path) -> None:
    player = WAYS[way](*server, tmp_path)
    try:
        for game in GAMES:
            check(set_up_and_play(player, game), game, player)
        player.type("/quit")
        assert player.term.proc.wait(timeout=15) == 0
    finally:
        player.term.close()
