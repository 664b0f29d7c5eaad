"""The lobby and the meeting place in Japanese, on ``mudwiz serve``: a JSON client that chose ``/lang ja`` reads
every reply, refusal and notice of the friends, channels, seeks, tournaments, tells and names in Japanese, while an
English client beside it reads the same notices (one text, put into words for each reader) in English."""

from __future__ import annotations

import re
from typing import Any

from wire import JsonClient, running_server

PASSWORD = "lobby-secret-7"
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
# words an English sentence of the lobby can hardly do without, where a Japanese one has none (commands, names,
# option words and game names stay as typed in both)
ENGLISH = re.compile(r"(?<![/=\w])(the|you|your|is|are|was|not|no|has|have|of|to|for|and)(?![\w=|\]])")


def said(message: dict[str, Any]) -> str | None:
    """The human text of a reply, a refusal or a notice (None: no text, or none for a person)."""
    if message["type"] == "error":
        return str(message["message"])
    if message["type"] in ("ok", "notice"):
        return message.get("text")
    return None


def in_japanese(client: JsonClient, since: int) -> list[str]:
    """Every human text ``client`` read from ``since`` on, each checked for Japanese and for no English sentence."""
    texts = [text for m in client.messages[since:] if (text := said(m))]
    english = [text for text in texts if not JAPANESE.search(text) or ENGLISH.search(text)]
    assert not english, f"not in Japanese: {english}"
    return texts


def test_a_japanese_reader_gets_the_lobby_and_the_meeting_place_in_japanese() -> None:
    with running_server(MUDWIZ_TOURNAMENTS="registered") as server:
        hana = JsonClient(server, "Hana")
        assert hana.register(PASSWORD)["type"] == "ok"
        assert hana.request("/lang ja")["text"] == "言語: ja"
        start = len(hana.messages)
        ken = JsonClient(server, "Ken")
        assert ken.register(PASSWORD)["type"] == "ok"
        hana.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Ken が来ました。", since=start)
        yuki = JsonClient(server, "Yuki")  # a guest
        assert yuki.request("/lang ja")["type"] == "ok"
        guest_start = len(yuki.messages)

        # friends: a plan's line too long, a notify list, a guest's refusal
        assert hana.request("/plan add " + "x" * 90)["message"] \
            == "プランの行は 76 文字までです（これは 90 文字）。プランは変わっていません"
        assert hana.request("/notify Ken")["type"] == "ok"
        assert yuki.request("/plan add hello")["message"] \
            == "プランはアカウントに保存されるもので、あなたはゲストです。まず /register で名前を登録してください"
        assert yuki.request("/alias yk")["message"] == "別名は登録済みの名前だけのものです。まず /register してください"

        # channels: the meeting place's refusals (mudwiz/meeting/channels.py), a Later through its Refused
        assert hana.request("/channel join wizard")["type"] == "ok"
        assert hana.request("/channel join wizard")["message"] == "すでに wizard に参加しています"
        assert hana.request("/channel join !")["message"] \
            == "チャンネル名は英字、数字、- の 2～16 文字です（! は使えません）"
        assert hana.request("/ch help hi")["message"] == "help に参加していません。参加するには /channel join help"

        # seeks: placed, described, withdrawn; the seek words' and the book's refusals; another's seek told
        placed = hana.request("/seek wizard 5 casual min=1200")
        assert placed["text"] \
            == "ゲームの相手を募集しました: wizard、5 人、カジュアル、レーティング 1200 以上（/unseek で取り下げ）"
        assert hana.request("/seek wizard 4 4")["message"] == "「人数」が 2 回指定されています。募集していません"
        assert hana.request("/seek wizard 9")["message"].startswith("Wizard は 3～6 人で遊ぶゲームです")
        assert hana.request("/unseek")["text"].startswith("募集（wizard、5 人、カジュアル")
        assert hana.request("/unseek")["message"] == "受付中の募集はありません"
        assert ken.request("/seek wizard 3 casual")["text"] \
            == "you seek a game: wizard, 3 players, casual (/unseek withdraws it)"
        hana.wait_for(lambda m: m["type"] == "notice" and m["text"]
                      == "Ken がゲームの相手を募集しています: wizard、3 人、カジュアル（一覧は /seeks）。", since=start)

        # tournaments: opened by the English reader, told to both, each in their language
        opened = ken.request("/tournament new wizard swiss 2 start in 30")
        assert opened["text"] == "tournament 1 is open: it starts in 30 min"
        ken.wait_for(lambda m: m["type"] == "notice" and m["text"].startswith("Ken opens tournament 1: Wizard, Swiss, "
                                                                                 "2 rounds at tables of 4"), since=0)
        hana.wait_for(lambda m: m["type"] == "notice" and m["text"].startswith(
            "Ken がトーナメント 1 を開きました: Wizard、スイス式、2 ラウンド、4 人卓。"), since=start)
        assert hana.request("/tournament join 1")["text"] == "トーナメント 1 に参加登録しました（現在 1 人）"
        assert hana.request("/tournament join 1")["message"] == "トーナメント 1 にはすでに参加登録しています"
        assert hana.request("/tournament 99")["message"] == "トーナメント 99 はありません。一覧は /tournaments"
        assert hana.request("/tournament new nogame swiss 2")["message"].startswith("ゲーム nogame はありません。")
        assert hana.request("/tournament leave 1")["text"] == "トーナメント 1 の参加登録を取り消しました"
        assert yuki.request("/tournament join 1")["message"] \
            == "トーナメントは登録プレイヤーのものです。まず /register で名前を登録してください"

        # tells and tables: away, nobody, no table
        assert ken.request("/away lunch")["type"] == "ok"
        assert hana.request("/tell Ken hi")["text"] == "Ken は離席中です: lunch"
        assert hana.request("/tell Nobody hi")["message"] == "Nobody という名前の人はオンラインにいません"
        assert hana.request("/join 99")["message"] == "卓 99 はありません。卓の一覧は /tables"

        texts = in_japanese(hana, start) + in_japanese(yuki, guest_start)
        assert len(texts) >= 25, texts
        for client in (hana, ken, yuki):
            client.close()
