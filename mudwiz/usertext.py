"""Text a user typed, made safe before anyone else reads it: no control characters, one line, nothing invisible.

It sits below every other layer (the lobby, the tables and the renderers all call it), so it imports nothing
of mudwiz but its errors (a leaf).
"""

from __future__ import annotations

import re
import unicodedata

from mudwiz.errors import BadCommand
from mudwiz.texts import Later, later

NAME_RULE = re.compile(r"^[A-Za-z0-9_-]{2,16}$")  # a user's name: typeable on any terminal, no spaces
# A name may also be Japanese: hiragana, katakana (with ``ー`` and the iteration marks) and kanji, mixed with the
# ASCII above, 2 to ``NAME_CELLS`` terminal cells long (a Japanese letter is two cells: at most 8 of them), after
# NFKC (half-width katakana and full-width letters typed are their usual forms: ``ｶ`` is ``カ``, ``Ａ`` is ``A``).
# Such a name is not typeable everywhere: its owner may register an ASCII alias (``/alias``) others find them by.
_JAPANESE = "\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe\u3005\u4e00-\u9fff"
JAPANESE_NAME_RULE = re.compile(f"^[A-Za-z0-9_\\-{_JAPANESE}]+$")
NAME_CELLS = 16


def name_form(name: str) -> str:
    """A name as typed, in the one form it is known by: NFKC (full-width and half-width forms folded), trimmed."""
    name = name.strip()
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def name_cells(name: str) -> int:
    """Terminal cells a name (ASCII and Japanese letters only) takes: a Japanese letter is two."""
    return sum(1 if ch.isascii() else 2 for ch in name)


def is_name(name: str) -> bool:
    """Whether ``name`` (in ``name_form``) is a user's name: ``NAME_RULE``, or ASCII and Japanese letters of 2 to
    ``NAME_CELLS`` cells."""
    if name.isascii():
        return NAME_RULE.match(name) is not None
    return JAPANESE_NAME_RULE.match(name) is not None and 2 <= name_cells(name) <= NAME_CELLS
# A BBS caller's name, ``handle@tag``: given only by a trusted BBS link (net/rlogin.py), never typed at the name
# prompt (NAME_RULE has no ``@``), so nobody can pose as a BBS's caller. 2-16 + 1 + 1-15: at most 32 characters.
BBS_TAG_RULE = re.compile(r"^[A-Za-z0-9_-]{1,15}$")
BBS_NAME_RULE = re.compile(r"^[A-Za-z0-9_-]{2,16}@[A-Za-z0-9_-]{1,15}$")
# The names bots are given (``bot1``, ``bot2``, ...): a guest called so passed for a computer player. An account
# so named before the rule keeps logging in; a BBS caller's ``bot9@tag`` is no bot's name.
BOT_NAME_RULE = re.compile(r"^bot[0-9]+$", re.IGNORECASE)
BOT_NAME_REFUSED = later("bot followed by digits is kept for computer players")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


# Letters and digits a screen shows alike, as spelled (``Carol`` and ``CaroI``: a capital i for an l; a small i is
# no l, or Lisa and Ilsa, Li and Il would be one name), then in lower case the pairs read as one letter (``rn``
# as ``m``): each to the one it is taken for.
_LOOKALIKE = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "o", "5": "s", "_": "-"})
_LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"))


# Japanese letters a screen shows alike (in NFKC: half-width forms are already folded), each to one of them: the
# long-vowel mark, the kanji one and dashes; katakana and the kanji they look like; small kana and their full size;
# hiragana and katakana drawn alike.
_KANA_LOOKALIKE = str.maketrans({
    **dict.fromkeys("\u30fc\u2015\u2014\u2500\u2012\u2013\u2212", "\u4e00"),  # ー ― — ─ ‒ – − as 一
    "\u30ab": "\u529b", "\u30ed": "\u53e3", "\u30cb": "\u4e8c",  # カ力 ロ口 ニ二
    "\u30a8": "\u5de5", "\u30cf": "\u516b", "\u30bf": "\u5915", "\u30c8": "\u535c",  # エ工 ハ八 タ夕 ト卜
    "\u3078": "\u30d8", "\u3079": "\u30d9", "\u307a": "\u30da", "\u308a": "\u30ea",  # へヘ べベ ぺペ りリ
    **{chr(small): chr(small + 1) for small in (0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085,
                                                0x3087, 0x308e, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30c3,
                                                0x30e3, 0x30e5, 0x30e7, 0x30ee)},  # ぁあ ... ッツ ャヤ: small, full
    "\u30f5": "\u529b", "\u30f6": "\u30b1",  # ヵ (as カ, so as 力), ヶケ
})


MAX_SPELLINGS = 64  # spellings of a Japanese name looked up as accounts at most (``look_alike_spellings``)


def _name_letters() -> dict[str, tuple[str, ...]]:
    """Each Japanese letter a name may hold -> the letters a name may hold that look like it (itself first)."""
    groups: dict[str, list[str]] = {}
    for code, folded in _KANA_LOOKALIKE.items():
        ch = chr(code)
        if JAPANESE_NAME_RULE.match(ch) and JAPANESE_NAME_RULE.match(str(folded)):
            groups.setdefault(str(folded), [str(folded)]).append(ch)
    return {ch: tuple(group) for group in groups.values() for ch in group}


_NAME_LETTERS = _name_letters()


def look_alike_spellings(name: str) -> list[str]:
    """The other spellings of a Japanese ``name`` that look like it, letter by letter (``カイ`` for ``力イ``), at
    most ``MAX_SPELLINGS``: what an account's stored look, which knows only ASCII look-alikes, cannot find."""
    spellings = [""]
    for ch in name:
        spellings = [s + alike for s in spellings for alike in _NAME_LETTERS.get(ch, (ch,))][:MAX_SPELLINGS + 1]
    return [s for s in spellings if s != name][:MAX_SPELLINGS]


def skeleton(name: str) -> str:
    """What ``name``, as spelled, looks like on a screen (after UTS #39's idea of a confusable skeleton, for the
    ASCII a name may hold, and the kana and kanji: ``カイ`` and ``力イ``, ``タロー`` and ``夕ロ一``), in lower
    case: two names with one skeleton are hard to tell apart, so one may pose as the other."""
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name).translate(_KANA_LOOKALIKE)
    text = name.translate(_LOOKALIKE).lower()
    for pair, one in _LOOKALIKE_PAIRS:
        text = text.replace(pair, one)
    return text


def erase(text: str) -> str:
    """Backspace, DEL and Ctrl-U as a terminal in line mode would have applied them: Backspace and DEL take back
    the character before them, Ctrl-U all of the line before it. A telnet client that sends keys as typed (Ctrl-H,
    or DEL from a BBS terminal) leaves them in, and telnet's IAC EC and IAC EL come as DEL and Ctrl-U."""
    if "\b" not in text and "\x7f" not in text and "\x15" not in text:
        return text
    kept: list[str] = []
    for ch in text:
        if ch in "\b\x7f":
            if kept:
                kept.pop()
        elif ch == "\x15":
            kept.clear()
        else:
            kept.append(ch)
    return "".join(kept)


def bbs_text(raw: bytes, codec: str = "cp437") -> str:
    """Bytes a BBS wrote (a drop file, an rlogin handshake's user names): UTF-8 when they are, else the BBS's own
    charset: CP437 (Synchronet sends a handle ``Jörg`` as ``J\x94rg``), or ``codec`` where the BBS said it is a
    Japanese one (cp932, euc_jp). One rule for both ways in, so that a caller is one name whichever way their BBS
    sends them."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode(codec, errors="replace")


def is_bbs_name(name: str) -> bool:
    """Whether ``name`` is a BBS caller's ``handle@tag``: the handle a name (``is_name``: ASCII, or kana and kanji
    in 16 columns), the tag ``BBS_TAG_RULE``'s."""
    handle, at, tag = name.rpartition("@")
    return bool(at) and BBS_TAG_RULE.match(tag) is not None and is_name(handle)


def bbs_name(handle: str, tag: str) -> str | None:
    """The name a BBS's caller goes by here: their handle as the BBS spells it (spaces, accents, punctuation)
    made to fit the name rule, then ``@tag``: ``Joe Smith`` of ``dove`` is ``Joe_Smith@dove``. Spaces become
    ``_``, accents are dropped from their letters, kana and kanji stay (in NFKC: half-width katakana as their
    usual forms), anything else outside A-Z a-z 0-9 _ - goes, and the handle is cut to 16 columns; None when
    fewer than 2 are left."""
    kept, cells = [], 0
    for ch in re.sub(r"\s+", "_", unicodedata.normalize("NFKC", handle.strip())):
        letters = ch if JAPANESE_NAME_RULE.match(ch) else re.sub(r"[^A-Za-z0-9_-]", "",
                                                                   unicodedata.normalize("NFKD", ch))
        if cells + name_cells(letters) > NAME_CELLS:
            break
        kept.append(letters)
        cells += name_cells(letters)
    name = f"{''.join(kept)}@{tag}"
    return name if is_bbs_name(name) else None


def clean(text: str) -> str:
    """Remove every control character (ESC included) from user-supplied text: chat, names, table titles."""
    return _CONTROL.sub("", text)


# Everything str.splitlines() or a terminal breaks a line at, and tab; clean() drops the other C0/C1 controls.
_BREAKS = re.compile("[\t\n\x0b\x0c\r\x1c-\x1e\x85\u2028\u2029]")
MAX_MARKS = 2  # combining marks kept on one base character: enough for Vietnamese, too few to draw a tower


def one_line(text: str) -> str:
    """What a user writes for others to read, made one honest line: line breaks and tabs become a space, so no
    one can print a fake server line (``gg\\n* bob has left.``) on others' screens; controls go (``clean``);
    format characters (category Cf: bidi overrides and isolates, LRM/RLM, zero-width spaces and joiners, BOM,
    tag characters) and lone surrogates are removed, so text cannot run backwards or hide; and a base character
    keeps at most ``MAX_MARKS`` combining marks, so a flood of them cannot smear over the lines around it.

    Letters of every script, accents (NFC, or NFD with up to two marks a letter) and emoji pass unchanged,
    except that emoji sequences built with ZERO WIDTH JOINER (U+200D, a Cf character) fall apart into their
    pieces (a family becomes its people), and tag-built flags lose their tags: an accepted cost of removing
    every invisible character.
    """
    if text.isascii() and text.isprintable():  # the common case (a command): nothing to break, clean or remove
        return text
    text = clean(_BREAKS.sub(" ", text))
    if text.isascii():
        return text
    kept: list[str] = []
    marks = 0
    for ch in text:
        if ch.isascii():  # the common case, and never Cf, Cs or a mark
            marks = 0
        else:
            kind = unicodedata.category(ch)
            if kind in ("Cf", "Cs"):
                continue  # removed without ending a run of marks: e + 2 marks + ZWSP + 2 marks is e + 4 marks
            if kind[0] == "M":
                marks += 1
                if marks > MAX_MARKS:
                    continue
            else:
                marks = 0
        kept.append(ch)
    return "".join(kept)


# Characters that show as nothing but space: every Unicode space (str.isspace: NBSP, U+3000, the U+2000 block),
# the braille blank and the Hangul fillers (letters and symbols by category, drawn blank).
_BLANK_RUNS = re.compile("[\\s\u2800\u3164\u115f\u1160\uffa0]+")
MAX_SPOKEN = 400  # characters of one chat line, tell, announcement or reason: five rows of 80


def spoken(text: str) -> str:
    """What one user says to others (chat, a tell, an announcement, a kick's reason): ``one_line``, with every
    run of blanks made one space and none at either end. A line of 4,000 spaces (or braille blanks, which no
    rule called space) was fifty blank rows on everyone's screen, within the chat rate limit, and blanks could
    push text to where it posed as a line of the server's."""
    return _BLANK_RUNS.sub(" ", one_line(text)).strip()


A_LINE = later("a line for others")  # what ``said`` calls a text by default


def said(text: str, what: str | Later = A_LINE) -> str:
    """``text`` as said to others (``spoken``), or ``BadCommand`` saying why not: blank, or too long, refused
    whole in one line rather than cut (what a person wrote is never lost unsaid)."""
    text = spoken(text)
    if not text:
        raise BadCommand(later("{what} is blank: nothing was sent", what=what))
    if len(text) > MAX_SPOKEN:
        raise BadCommand(later("{what} is at most {most} characters (this one has {n}); nothing was sent", what=what,
                               most=MAX_SPOKEN, n=len(text)))
    return text
