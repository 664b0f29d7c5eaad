"""Languages over the wire, on ``mudwiz serve``: the stock telnet sending its LANG (NEW-ENVIRON), a JSON client's
``/lang`` and its errors, and a registered name's language kept in the real SQLite file across logins and a
restart of the server."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from wire import JsonClient, TelnetClient, Terminal, need, running_server

SECRET = "correct horse"
NEW_ENVIRON, IS, VAR, VALUE, USERVAR = 39, 0, 0, 1, 3


def test_the_stock_telnet_exporting_lang_ja_is_answered_in_japanese(tmp_path: Path) -> None:
    """``environ export LANG`` in a telnetrc: the stock telnet sends LANG when the server asks (RFC 1572), and the
    welcome comes in Japanese (the name prompt came before: telnet is seen, and the options offered, at the first
    line the stock telnet sends); the same telnet without it gets English."""
    with running_server() as server:
        host, port = server
        home = tmp_path / "home"
        home.mkdir()
        (home / ".telnetrc").write_text(f"{host}\n    environ export LANG\n")
        env = {**os.environ, "HOME": str(home), "LANG": "ja_JP.UTF-8", "TERM": "xterm"}
        telnet = Terminal([need("telnet"), host, str(port)], env=env)
        english = Terminal([need("telnet"), host, str(port)], env={**env, "HOME": str(tmp_path), "LANG": "C.UTF-8"})
        try:
            telnet.read_until(b"name? ", timeout=15)
            telnet.type("hana")
            telnet.read_until("ようこそ、hana さん！".encode())
            telnet.type("/lang fr")
            telnet.read_until("使い方: /lang en|ja（現在: ja）".encode())
            english.read_until(b"name? ")
            english.type("ann")
            english.read_until(b"Welcome, ann!")
        finally:
            telnet.close()
            english.close()


def test_a_client_sending_lang_as_a_var_and_one_sending_an_unknown_one() -> None:
    with running_server() as server:
        ja = TelnetClient(server, will=(0, 24, 31, 42, NEW_ENVIRON))
        fr = TelnetClient(server, will=(0, 24, 31, 42, NEW_ENVIRON))
        try:
            for client, lang in ((ja, b"ja_JP.eucJP"), (fr, b"fr_FR.UTF-8")):
                client.sock.sendall(bytes((255, 241)))  # IAC NOP: a telnet client, offered the options at once
                client.wait(lambda c=client: any(p[:1] == bytes((NEW_ENVIRON,)) for p in c.subnegotiations),
                            what="no NEW-ENVIRON SEND")
                client.subnegotiate(NEW_ENVIRON, bytes((IS, VAR)) + b"LANG" + bytes((VALUE,)) + lang)
            ja.send("yuki")
            ja.read_until("ようこそ、yuki さん！".encode())
            fr.send("pierre")
            fr.read_until(b"Welcome, pierre!")
        finally:
            ja.close()
            fr.close()


def test_a_registered_json_client_keeps_japanese_across_logins_and_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        kenji = JsonClient(server, "Kenji")
        assert kenji.register(SECRET)["type"] == "ok"
        wrong = kenji.request("/join 99")
        assert kenji.request("/lang ja")["text"] == "言語: ja"
        again = kenji.request("/lang xx")
        assert again["type"] == wrong["type"] == "error" and again["message"] == "使い方: /lang en|ja（現在: ja）"
        assert set(again) == set(wrong)  # the same fields: only the human text follows the language
        kenji.sock.close()
    with sqlite3.connect(data / "mudwiz.db") as db:  # read once the server has stopped
        assert db.execute("SELECT lang FROM accounts WHERE name_key = 'kenji'").fetchone() == ("ja",)
    with running_server(MUDWIZ_DATA=str(data)) as server:
        back = JsonClient(server, "Kenji", password=SECRET)
        assert back.request('/lang zz')["message"] == "使い方: /lang en|ja（現在: ja）"
        other = JsonClient(server, "guest1")
        assert other.request("/lang zz")["message"] == "usage: /lang en|ja (now: en)"
        back.sock.close()
        other.sock.close()
