"""Wizard's rules in brief in Japanese (``/rules wizard ja``), with the card names the Japanese views will use.

The words are the Japanese sheets' own (ウィザード, ジェスター, 切り札, マストフォロー, ビッド), so a player who
learnt the game from them reads the terms they know; the typed codes (/play R12) stay as they are. Same sections
as ``rules.RULES_TEXT``; each line at most 76 terminal cells (a Japanese character takes two).
"""

RULES_TEXT_JA = {
    "goal": """\
ウィザード（Amigo 社、Ken Fisher 作）：各ラウンドで何トリック取るかを
予想して宣言（ビッド）し、ちょうどその数だけ取ります。取りすぎても
足りなくても外れです。最終ラウンドの後、合計点の最も高い人の勝ちです。""",  # i18n: not text (Japanese already)
    "play": """\
カード：4 つのスート B 青・G 緑・R 赤・Y 黄、各 1〜13。ウィザード（Z）
4 枚はどのカードより強く、ジェスター（N）4 枚はどのカードより弱い。
ラウンド：第 1 ラウンドは 1 枚ずつ、第 2 ラウンドは 2 枚ずつ、と山札が
尽きるまで配ります：3 人 20 ラウンド、4 人 15、5 人 12、6 人 10。
切り札：残りの山札の一番上をめくり、そのスートが切り札です。ジェスター
なら切り札なし。ウィザードならディーラーがスートを決めます（/trump R）。
最終ラウンドはめくるカードがなく、切り札なしです。
ビッド：ディーラーの左から順に、取るトリック数を 0 から配られた枚数まで
で宣言します（/bid 2）。ディーラーが最後に宣言します。
トリック：ディーラーの左の人が最初のカードを出します（/play R12）。
マストフォロー：最初に出たスートのカードと同じスートを持っていれば、
それを出します。ウィザードとジェスターはいつでも出せます。スートの
カードより前にウィザードが出たら、フォローの縛りはありません。
トリックを取るのは最初のウィザード、なければ最も高い切り札、なければ
リードのスートで最も高いカード（全員ジェスターなら最初のジェスター）。
トリックを取った人が次のトリックの最初のカードを出します。""",
    "scoring": """\
ビッドどおり：20 点に、取ったトリック 1 つにつき 10 点を加えます。
外れ：多すぎても少なすぎても、1 トリックの差につき -10 点。
例：ビッド 2 で 2 トリック：+40。ビッド 0 で 0：+20。ビッド 3 で 1：-20。
各ラウンドの後、結果を見たら /ok と入力します。""",
}

# Card letter -> its Japanese name (the seeds' words): the catalog (locale/ja/LC_MESSAGES/wizard.po) says the
# same for the views (tests/games/test_wizard_ja.py holds them alike); the typed codes never change.
NAMES_JA = {"R": "赤", "Y": "黄", "G": "緑", "B": "青", "Z": "ウィザード", "N": "ジェスター"}

# The card legend in one Japanese line, code and name side by side: ``/rules wizard ja`` shows it (its cards
# section).
LEGEND_JA = "R=赤 Y=黄 G=緑 B=青 Z=ウィザード N=ジェスター"
