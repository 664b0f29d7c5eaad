"""Tiltowait's rules in brief in Japanese (``/rules tiltowait ja``), with the card names the Japanese views will
use.

The words are the ASCII sheet's own (モンスターカード, 呪文カード, 黒・赤・金・青, 場に捨てられたカード, 山,
カルキ, 上がる, 時計と逆回り) and so are the spells' names (ハリト, ダルト, マハリト, マダルト, ティルトウエイ,
カティノ, ミルワ, モンティノ, ハマン), each beside the code a move types (/play MAHALITO G), which stays as it is.
Same sections as ``rules.RULES_TEXT``; each line at most 76 terminal cells (a Japanese character takes two).
"""

RULES_TEXT_JA = {
    "goal": """\
ティルトウエイ（アスキーのウィザードリィカードゲーム）：手持ちのカードを
誰よりも早くなくすのが目的です。場に捨てられたカードに色か数字を合わせて
捨て、9 つの呪文で攻撃と防御をします。誰かが上がると、他の人は手持ちに
残ったカードの点をマイナス得点として受けます。最後のハンド（1 回の
ゲーム）の後、合計点の最も高い人の勝ちです。""",  # i18n: not text (Japanese already)
    "play": """\
カード：モンスターカードは K 黒・R 赤・G 金・B 青の 4 色、1〜10 が
各 2 枚。呪文カードは 40 枚（それぞれの効果は /spells）。
準備：7 枚ずつ配り、山の一番上をめくって場に置きます。各ハンドは
時計と逆回りに始まります。前のハンドで上がった人から次のハンドを始めます。
手番：指定されている色か、一番上のモンスターと同じ数字のカードを捨てます
（/play R7）。一番上のカードに出せる呪文でもかまいません。または山から
1 枚引きます（/draw）。引いたカードが出せるなら、すぐ出すか手元に残します
（/keep）。色を指定する呪文は色と一緒に出します：/play MAHALITO G。
引かされたとき：合計枚数を引く（/draw）か、合う攻撃呪文を重ねて次の人に
回すか、モンティノ（MONTINO）かハマン（HAMAN）で無効にします。
カルキ：捨てて残り 1 枚になるときは、そのカードと一緒に宣言します：
/play R3 karuki。言い忘れると、次の動きまでなら誰でも指摘でき
（/catch NAME）、言い忘れた人は 2 枚引きます。
上がり：マハリト、マダルト、ミルワ、モンティノ、ハマンは最後の 1 枚に
できません（ミルワやティルトウエイの 2 枚引きに答えるモンティノとハマンは
例外です）。""",  # i18n: not text (Japanese already)
    "scoring": """\
上がった人は 0 点。他の人は手持ちに残ったカードの点をマイナスで受けます：
モンスターはその数字、ハリト・ダルト・カティノは 20、モンティノ・ハマンは
30、マハリト・マダルト・ティルトウエイ・ミルワは 40。手持ちに
ティルトウエイがあると合計が 2 倍になります。
例：R7、K2、HALITO-B が残れば -29。さらにティルトウエイもあれば -138。
オプションで変えなければ 5 ハンドで終わります。各ハンドの後に /ok。""",  # i18n: not text (Japanese already)
    "spells": """\
呪文（枚数、点）：効果。出せるところ。-c はその色：-R。
HALITO-c ハリト（8 枚、20 点）：次の人に 2 枚引かせる。
  その色の上、どのハリトの上、同じ色のダルトの上。
DALTO-c ダルト（4 枚、20 点）：回り方を逆転し、次の人に 2 枚引かせる。
  その色の上、どのダルトの上、同じ色のハリトの上。
MAHALITO マハリト（4 枚、40 点）：次の人に 4 枚引かせ、色を指定する。
  ハリトとダルトの上以外ならどこでも。
MADALTO マダルト（2 枚、40 点）：回り方を逆転し、次の人に 4 枚引かせ、
  色を指定する。出せるところはマハリトと同じ。両者は互いに重ねられる。
TILTOWAIT ティルトウエイ（2 枚、40 点）：自分以外の全員に順に 2 枚ずつ
  引かせ、色を指定する。ハリト、ダルト、マハリト、マダルト、カティノ、
  ティルトウエイの上には出せない。手持ちに残ると得点が 2 倍。
KATINO-c カティノ（8 枚、20 点）：次の人を眠らせる（手番をとばす）。
  無効にはできない。その色の上にだけ出せる。
MILWA ミルワ（2 枚、40 点）：どこにでも出せる。/play MILWA NAME COLOUR：
  NAME の手札を 5 秒間表向きにして全員に見せ（milwa=caster なら自分
  だけに）、色を指定する。
MONTINO モンティノ（4 枚、30 点）：どこにでも出せる。自分に向けられた
  呪文を無効にする（カティノ以外）。色と回り方はそのまま。自分の手番
  以外では、呪文に答えるときだけ出せる。
HAMAN ハマン（6 枚、30 点）：モンティノと同じで色も指定：/play HAMAN B""",  # i18n: not text (Japanese already)
}

# Colour letter and spell code -> its Japanese name (the sheet's words): the views name a spell so beside its code
# (render.py's ``card_name``), and the catalog's colour names are these; the typed codes never change.
NAMES_JA = {
    "K": "黒", "R": "赤", "G": "金", "B": "青",
    "HALITO": "ハリト", "DALTO": "ダルト", "MAHALITO": "マハリト", "MADALTO": "マダルト",
    "TILTOWAIT": "ティルトウエイ", "KATINO": "カティノ", "MILWA": "ミルワ", "MONTINO": "モンティノ",
    "HAMAN": "ハマン",
}

# The card legend in one Japanese line, code and name side by side: ``/rules tiltowait ja`` shows it (its cards
# section).
LEGEND_JA = "K=黒 R=赤 G=金 B=青"
