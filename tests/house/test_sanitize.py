"""``one_line``: what a user writes for others is one honest line (no line injection).

Properties over any string, the text that must pass unchanged (scripts, accents, emoji), the attacks the probe
found, and the lobby applying it to chat and tells itself, whatever path the text came by.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.render.style import fit
from mudwiz.usertext import MAX_MARKS, MAX_SPOKEN, one_line, spoken

BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # every line break str.splitlines() knows
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
INVISIBLE = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e\U000e0001\U000e0041"


def longest_run_of_marks(text: str) -> int:
    run = longest = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        longest = max(longest, run)
    return longest


@given(st.text())
@example("gg\n* victim has left.")
@example("e" + "\u0301" * 2 + "\u200b" + "\u0301" * 2)  # marks on both sides of a removed character
@example("\ud800 lone surrogate")
def test_any_text_comes_out_as_one_line_without_hidden_characters(text: str) -> None:
    out = one_line(text)
    assert len(out.splitlines()) <= 1 and "\t" not in out
    assert not [ch for ch in out if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    assert longest_run_of_marks(out) <= MAX_MARKS
    assert len(out) <= len(text)
    assert one_line(out) == out  # applied at the edge and again in the lobby: the second time changes nothing


# What needs no cleaning: every category but controls, format characters, surrogates, line and paragraph
# separators and marks, with up to two marks after each character.
PLAIN = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp", "Mn", "Mc", "Me"))
MARK = st.characters(whitelist_categories=("Mn", "Mc", "Me"))


@given(st.lists(st.tuples(PLAIN, st.lists(MARK, max_size=MAX_MARKS))))
def test_text_with_nothing_to_clean_passes_unchanged(pieces: list[tuple[str, list[str]]]) -> None:
    text = "".join(base + "".join(marks) for base, marks in pieces)
    assert one_line(text) == text


NFD_VIETNAMESE = unicodedata.normalize("NFD", "Tiếng Việt có dấu")  # ế and ệ: a letter and two marks


@pytest.mark.parametrize("text", [
    "こんにちは、世界！ カードをどうぞ",
    "Crème brûlée, Åsa, Øystein, Zoë, naïve",
    unicodedata.normalize("NFD", "Crème brûlée, Åsa, Zoë, naïve"),
    NFD_VIETNAMESE,
    "Ελληνικά, русский, עברית, العربية, हिन्दी",
    "gg 👍🏽 🎉 ❤️ 1️⃣ 🇫🇷",  # skin tone (a modifier, not a mark), variation selector and keycap (marks), a flag
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
])
def test_legitimate_text_is_kept_intact(text: str) -> None:
    assert one_line(text) == text


def test_emoji_joined_by_zwj_fall_apart_as_documented() -> None:
    """ZERO WIDTH JOINER is a format character like the bidi overrides: the family becomes its three people."""
    assert one_line("\U0001f468\u200d\U0001f469\u200d\U0001f467") == "\U0001f468\U0001f469\U0001f467"


@pytest.mark.parametrize("brk", [*BREAKS, "\t", "\r\n"])
def test_every_line_break_and_tab_becomes_a_space(brk: str) -> None:
    assert one_line(f"gg{brk}* victim has left.") == "gg" + " " * len(brk) + "* victim has left."


@pytest.mark.parametrize("ch", [*BIDI, *INVISIBLE])
def test_bidi_and_invisible_format_characters_are_removed(ch: str) -> None:
    assert unicodedata.category(ch) == "Cf"
    assert one_line(f"pay{ch}pal{ch}") == "paypal"


def test_a_flood_of_combining_marks_keeps_two_per_character() -> None:
    zalgo = "".join(c + "\u0336\u0301\u0316\u0340" * 20 for c in "hi")
    assert one_line(zalgo) == "h\u0336\u0301i\u0336\u0301"
    assert one_line("\u0301" * 50 + "x") == "\u0301\u0301x"  # marks with nothing before them count too
    assert one_line("e\u0301\u0302\u200b\u0303\u0304") == "e\u0301\u0302"  # a removed character ends no run


def test_control_characters_still_go() -> None:
    assert one_line("a\x1b[2Jb\x07c\x00d\x7f\x9b31me") == "a[2Jbcd31me"


# ---------------------------------------------------------------- the lobby applies it to chat and tells


def test_the_lobby_delivers_chat_and_tells_as_one_line_whatever_path_they_came_by() -> None:
    """Called directly, as a path other than the telnet edge would: lobby chat, table chat and a tell."""
    lobby = Lobby(Clock(), seed=1)
    alice, bob = Recorder(), Recorder()
    lobby.login(alice, "alice")
    lobby.login(bob, "bob")
    attack = "gg\n* bob has left.\u2028\u202e!olleh\u200b" + "e" + "\u0301" * 9
    wanted = "gg * bob has left. !olleh" + "e\u0301\u0301"
    lobby.chat(alice, attack)
    lobby.tell(alice, "bob", attack)
    dispatch(lobby, alice, "/new wizard")
    dispatch(lobby, bob, "/join 1")
    lobby.chat(alice, attack)
    chats = bob.of_type("chat")
    assert [(m["channel"], m["text"]) for m in chats] == [("lobby", wanted), ("tell", wanted), ("table 1", wanted)]


# ---------------------------------------------------------------- what one line may cost the others' screens


@given(st.text(alphabet=st.sampled_from(" \u00a0\u2800\u3000\u3164\u2003\tab*"), max_size=300))
def test_spoken_text_has_no_run_of_blanks_and_none_at_either_end(text: str) -> None:
    said = spoken(text)
    assert "  " not in said and said == said.strip()
    assert not set(said) & set("\u00a0\u2800\u3000\u3164\u2003\t")


def test_a_screenful_of_blanks_or_a_line_too_long_is_never_said() -> None:
    """'a' + 4,000 spaces + 'b' was fifty blank rows on everyone's screen, ten such lines in the chat rate
    limit's burst (braille blanks too, which no rule called space); a 4,000-letter word was fifty rows too."""
    lobby = Lobby(Clock(), seed=1)
    alice, bob = Recorder(), Recorder()
    lobby.login(alice, "alice")
    lobby.login(bob, "bob")
    lobby.chat(alice, "a" + " " * 4000 + "b")
    lobby.tell(alice, "bob", "hi \u2800\u2800\u2800 there\u3000\u3000!")
    assert [m["text"] for m in bob.of_type("chat")] == ["a b", "hi there !"]
    for attempt in (lambda: lobby.chat(alice, "x" * (MAX_SPOKEN + 1)), lambda: lobby.chat(alice, "\u2800" * 9),
                    lambda: lobby.tell(alice, "bob", "y " * MAX_SPOKEN)):
        with pytest.raises(BadCommand, match="nothing was sent"):
            attempt()
    lobby.chat(alice, "x" * MAX_SPOKEN)  # as long as a line may be
    assert len(bob.of_type("chat")) == 3


def test_a_word_wider_than_the_window_goes_on_indented_never_at_the_left_edge() -> None:
    """A chat line's word too long for a row carried on at column 0, where a padded ``** Announcement from the
    sysop`` read as the server's own line (found by a probe)."""
    line = "[lobby] bob: hi " + "x" * 78 + "**Announcement_from_the_sysop"
    rows = fit([line], 80)
    assert len(rows) == 3 and all(row.startswith("  ") for row in rows[1:])
    assert "".join(row.replace(" ", "") for row in rows) == line.replace(" ", "")  # nothing lost
