"""Each person reads their own language (mudwiz/texts): ``/lang``, texts put into words for each reader, a JSON
client's error ``message`` in Japanese with its fields as they were, a text sent to many in each one's language,
an account keeping its language, on the real lobby, connections, renderers and catalogs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz import texts
from mudwiz.accounts import Accounts
from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.render.jsonl import Shared
from mudwiz.store import open_store
from mudwiz.texts import ENGLISH, Later, _, languages, later, later_n, speaking

SECRET = "correct horse"


def connect(lobby: Lobby, *lines: str) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox, "")
    connection.start()
    for line in lines:
        connection.receive(line)
    outbox.take()
    return connection, outbox


def test_the_core_catalog_is_japanese_and_english_needs_none() -> None:
    assert languages() == ("en", "ja")
    assert texts.normalize("ja_JP.UTF-8") == "ja" and texts.normalize("C") is None and texts.normalize("") is None
    assert texts.pick("ja_JP.eucJP") == "ja" and texts.pick("fr_FR.UTF-8") is None


def test_a_later_text_is_put_into_the_language_spoken_when_it_is_read() -> None:
    text = later("language: {lang}", lang="ja")
    assert str(text) == "language: ja" and text == "language: ja"
    with speaking("ja"):
        assert str(text) == "言語: ja" and _("language: {lang}", lang="en") == "言語: en"
    assert text.into("ja") == "言語: ja" and text.english() == "language: ja"
    assert _("not in any catalog {x}", x=1) == "not in any catalog 1"  # untranslated: the msgid as written


def test_a_later_text_crosses_a_process_as_its_msgid_and_params_never_as_one_language() -> None:
    text = later("usage: /lang {langs} (now: {lang})", langs="en|ja", lang=later("language: {lang}", lang="ja"))
    wire = json.loads(json.dumps(text.to_json()))
    assert "使い方" not in json.dumps(wire) and "usage:" not in json.dumps(wire["params"])
    back = Later.from_json(wire)
    assert back == text and back.into("ja") == "使い方: /lang en|ja（現在: 言語: ja）"
    counted = later_n("{n} game", "{n} games", 3)
    assert Later.from_json(counted.to_json()).english() == "3 games"


def test_lang_before_login_then_the_welcome_and_prompt_in_japanese() -> None:
    lobby = Lobby(Clock(), seed=1)
    outbox = Outbox()
    connection = Connection(lobby, outbox, "")
    connection.start()
    assert outbox.take() == "What is your name? "
    connection.receive("/lang ja")
    assert "言語: ja" in outbox.take() and connection.session.lang == "ja"
    connection.receive("/lang klingon")
    said = outbox.take()
    assert said.count("\n") == 1 and "使い方: /lang en|ja（現在: ja）" in said and said.endswith("お名前は？ ")
    connection.receive("alice")
    said = outbox.take()
    assert "ようこそ、alice さん！" in said and "再開コード" in said


def test_a_json_clients_error_message_follows_its_language_and_its_fields_do_not() -> None:
    lobby = Lobby(Clock(), seed=1)
    connection, outbox = connect(lobby, "/mode json", "bob")
    connection.receive('{"id": 7, "cmd": "/lang fr"}')
    english = json.loads(outbox.take())
    connection.receive('{"id": 8, "cmd": "/lang ja"}')
    assert json.loads(outbox.take()) == {"type": "ok", "id": 8, "text": "言語: ja"}
    connection.receive('{"id": 7, "cmd": "/lang fr"}')
    japanese = json.loads(outbox.take())
    assert english == {"type": "error", "id": 7, "message": "usage: /lang en|ja (now: en)"}
    assert japanese == {"type": "error", "id": 7, "message": "使い方: /lang en|ja（現在: ja）"}
    connection.receive('{"id": 9, "cmd": 5}')
    assert json.loads(outbox.take())["message"].startswith("JSON リクエストが正しくありません")


@pytest.mark.parametrize("mode", ["json", "ansi"])
def test_one_message_sent_to_many_is_read_in_each_ones_language(mode: str) -> None:
    """One ``Shared`` message (encoded once for all who read JSON) with a ``Later`` text in it: each reader has it
    in their own language, whichever of them it was encoded for first."""
    lobby = Lobby(Clock(), seed=1)
    readers = [connect(lobby, f"/mode {mode}", f"/lang {lang}", name) for lang, name in
               (("ja", "hana"), ("en", "ann"), ("ja", "yuki"))]
    message = Shared({"type": "notice", "text": later("language: {lang}", lang="?")})
    for connection, _outbox in readers:
        connection.session.deliver(message)
    said = [outbox.take() for _connection, outbox in readers]
    assert ["言語: ?" in said[0], "language: ?" in said[1], "言語: ?" in said[2]] == [True] * 3, said


def test_a_registered_name_keeps_its_language_across_logins(tmp_path: Path) -> None:
    clock = Clock()
    lobby = Lobby(clock, seed=1)
    store = open_store(tmp_path)
    lobby.accounts = Accounts(store, clock)
    connection, outbox = connect(lobby, "Kenji", "/register", SECRET, SECRET)
    connection.receive("/lang ja")
    assert "言語: ja" in outbox.take()
    connection.receive("/quit")
    connection.lost()
    assert store.account("kenji") is not None and store.account("kenji").lang == "ja"
    again, outbox = connect(lobby)
    for line in ("kenji", SECRET):
        again.receive(line)
    said = outbox.take()
    assert again.session.lang == "ja" and "ようこそ、Kenji さん！" in said, said
    guest, outbox = connect(lobby, "other")
    assert guest.session.lang == ENGLISH


def test_the_store_keeps_an_accounts_language(store: Any) -> None:
    store.create_account("Mei", "hash")
    assert store.account("mei").lang is None
    store.set_account_lang("MEI", "ja")
    assert store.account("Mei").lang == "ja"
    with pytest.raises(KeyError):
        store.set_account_lang("nobody", "ja")
