"""Witches's rules in brief in Japanese (``/rules witches ja``), with the card names the Japanese views will use.

The words are the Japanese sheet's own (炎カード, 炎ポイント, 炎・水・地・空のウィッチ, ピグミークイーン,
リードカラー, 水の呪文, ピグミーの呪文, 大火炎の呪文), so a player who learnt the game from it reads the terms
they know; the typed codes (/play R12) stay as they are. Same sections as ``rules.RULES_TEXT``; each line at
most 76 terminal cells (a Japanese character takes two).
"""

RULES_TEXT_JA = {
    "goal": """\
ウィッチズ（Amigo 社）：ハーツに似たトリックテイキングゲーム。炎ポイントを
取らないようにするか、炎カードを全部取って他の全員に呪文をかけます。
誰かの合計が 70 点に達したハンドでゲームが終わり、合計の最も低い人の勝ち。""",
    "play": """\
カード：4 色 R 赤・G 緑・Y 黄・B 青、各 1〜14。ウィザード（W）4 枚は
0 で、どの色でもありません。赤のカードが炎カードです。
配り：全部のカードを均等に配ります。次に全員が同時に裏向きでカードを
渡します（/pass C1 C2 ...）：3 人は 4 枚、4・5 人は 3 枚、6 人は 2 枚。
左隣へ、次のハンドは右隣へ（4・6 人は左、右、向かい合わせの順）。
トリック：ディーラーの左の人が最初のカードを出します（/play R12）。
リードカラー（最初に出たウィザード以外のカードの色）を持っていれば、
その色かウィザードを出します。持っていなければ何を出してもかまいません。
切り札はなく、リードカラーの最も高いカードが勝ちます（全員ウィザード
なら最初のウィザード）。トリックの勝者が次のトリックを始めます。""",
    "scoring": """\
自分が取ったトリックの炎ポイントを数えます：
- 赤のカード 1 枚につき 1 点（炎のウィッチ R11 自身は 0 点）；
- 炎のウィッチ R11 はその点を 2 倍にします（最大 15 点）；
- 水のウィッチ G11 は 5 点、ピグミークイーン G12 は 10 点；
- 空のウィッチ B11 は水のウィッチとピグミークイーンの点を打ち消します；
- 地のウィッチ Y11 は 5 点減らします（0 点より下にはなりません）。
例：R2、R5、R9、水のウィッチと地のウィッチ：3 + 5 - 5 = 3 点。
呪文：赤のカード 14 枚すべてと、水のウィッチ（水の呪文、20 点）、
ピグミークイーン（ピグミーの呪文、25 点）または両方（大火炎の呪文、
30 点）を取ると、自分は 0 点で、他の全員が呪文の点を受けます。そのハンドで
ゲームが終わるときは選べます：/spell give（通常どおり）か
/spell take（自分の合計から引く）。
各ハンドの後、結果を見たら /ok と入力します。""",  # i18n: not text (the Japanese page itself)
}

NAMES_JA = {
    "R": "赤", "G": "緑", "Y": "黄", "B": "青", "W": "ウィザード",
    "R11": "炎のウィッチ", "G11": "水のウィッチ", "Y11": "地のウィッチ", "B11": "空のウィッチ",
    "G12": "ピグミークイーン",
}
"""Colour letter, the Wizard and the special cards -> their Japanese names (the seed's words). The game's
catalog (witches.po) says the same for the names the views and messages show (names.py); the codes never
change."""  # i18n: not text (a docstring)

LEGEND_JA = "R=赤 G=緑 Y=黄 B=青 W=ウィザード"
"""The card legend in one Japanese line, code and name side by side: ``/rules witches ja`` shows it (its cards
section)."""  # i18n: not text (a docstring)
