"""``/rules GAME ja`` over the wire, from ``mudwiz serve``: a telnet client that agreed to UTF-8 reads the
Japanese page as written, each row inside its 80 columns, and a JSON client gets the page's text whole."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from wcwidth import wcswidth
from wire import JsonClient, TelnetClient

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def page(game: str, section: str) -> list[str]:
    """The section's lines as the server shows them, indented under the heading."""
    text = import_module(f"mudwiz.games.{game}.rules_ja").RULES_TEXT_JA[section]
    return ["  " + line for line in text.splitlines()]


@pytest.mark.parametrize(("game", "section"), [("wizard", "scoring"), ("witches", "goal"), ("tiltowait", "spells")])
def test_telnet_in_utf8_reads_a_japanese_section(server: tuple[str, int], game: str, section: str) -> None:
    client = TelnetClient(server)
    try:
        name = f"ja_{game[:3]}"
        client.send(name)
        client.read_until(f"Welcome, {name}".encode())
        at = len(client.data)
        client.send(f"/rules {game} {section} ja")
        last = page(game, section)[-1].encode()
        shown = client.read_until(last, start=at).decode()
        rows = [ANSI.sub("", row).rstrip("\r") for row in shown.split("\n")]
        for line in page(game, section):
            assert line in rows, line
        assert f"{game.title()} のルール：" in shown
        assert all(wcswidth(row) <= 80 for row in rows), max(rows, key=wcswidth)
    finally:
        client.close()


def test_json_gets_the_whole_japanese_page(server: tuple[str, int]) -> None:
    bot = JsonClient(server, "ja_json")
    try:
        assert bot.request("/rules witches ja")["type"] == "ok"
        message = bot.wait_for(lambda m: m["type"] == "help", since=bot.mark)
        assert message["topic"] == "rules witches ja"
        lines = message["text"].splitlines()
        for section in ("goal", "play", "scoring"):
            assert all(line in lines for line in page("witches", section)), section
        assert "  R=赤 G=緑 Y=黄 B=青 W=ウィザード" in lines
        english = bot.request("/rules witches")
        assert english["type"] == "ok" and "炎" not in str(bot.messages[bot.mark:])
    finally:
        bot.close()
