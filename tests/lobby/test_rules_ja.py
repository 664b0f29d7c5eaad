"""The Japanese rules pages (``/rules GAME ja``) and card names, game by game: the same sections as the English
page, lines that fit a terminal when a Japanese character takes two cells, the moves typed as the engine reads
them, and the seed sheets' names for the cards.

A real lobby fed through ``dispatch``; the pages come from the games' own ``rules_ja`` modules through their
plugins, as the message catalog will ask for them (``rules_text(game, section, lang)``).
"""

from __future__ import annotations

import re
import unicodedata
from importlib import import_module
from pathlib import Path
from types import ModuleType

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.cli import main
from mudwiz.commands import COMMANDS, dispatch, rules_text
from mudwiz.commands.rules import MAIN_SECTIONS
from mudwiz.errors import BadCommand
from mudwiz.games import game_class, languages, plugin
from mudwiz.lobby import Lobby

GAMES = ("wizard", "witches", "tiltowait")
CELLS = 76  # as the English text: two cells of indentation, and a margin, inside 80 columns
# What the seed sheets call the cards (shared/seeds), each game's own words: a name missing or changed is caught.
SEED_NAMES = {
    "wizard": {"R": "赤", "Y": "黄", "G": "緑", "B": "青", "Z": "ウィザード", "N": "ジェスター"},
    "witches": {"R": "赤", "G": "緑", "Y": "黄", "B": "青", "W": "ウィザード", "R11": "炎のウィッチ",
                "G11": "水のウィッチ", "Y11": "地のウィッチ", "B11": "空のウィッチ", "G12": "ピグミークイーン"},
    "tiltowait": {"K": "黒", "R": "赤", "G": "金", "B": "青", "HALITO": "ハリト", "DALTO": "ダルト",
                  "MAHALITO": "マハリト", "MADALTO": "マダルト", "TILTOWAIT": "ティルトウエイ", "KATINO": "カティノ",
                  "MILWA": "ミルワ", "MONTINO": "モンティノ", "HAMAN": "ハマン"},
}
# The sheets' terms each page must use (a page that drifted back to loan words of its own would lose them).
SEED_TERMS = {
    "wizard": ("切り札", "マストフォロー", "ビッド", "トリック", "ディーラー"),
    "witches": ("炎ポイント", "炎カード", "リードカラー", "水の呪文", "ピグミーの呪文", "大火炎の呪文"),
    "tiltowait": ("モンスターカード", "呪文カード", "カルキ", "上がる", "時計と逆回り", "眠らせる"),
}


def cells(line: str) -> int:
    """Terminal cells, counting an ambiguous-width character as two, as a Japanese terminal draws it."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 1 for ch in line)


def ja(game: str) -> ModuleType:
    return import_module(f"mudwiz.games.{game}.rules_ja")


def shown(lobby: Lobby, person: Recorder, line: str) -> dict:
    before = len(person.messages)
    assert dispatch(lobby, person, line) is None
    (message,) = person.messages[before:]
    return message


@pytest.fixture
def ann() -> tuple[Lobby, Recorder]:
    lobby = Lobby(Clock(), grace=30.0, bot_delay=0.5, seed=1)
    person = Recorder()
    lobby.login(person, "ann")
    return lobby, person


def test_cells_counts_a_japanese_character_as_two() -> None:
    assert cells("R=赤") == 4 and cells("ab") == 2 and cells("〜・（）：") == 10


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_page_has_the_english_sections_in_order(game: str) -> None:
    cls = game_class(game)
    assert list(ja(game).RULES_TEXT_JA) == list(cls.RULES)
    assert plugin(game).rules_for("ja") is ja(game).RULES_TEXT_JA  # type: ignore[union-attr]
    assert plugin(game).rules_for("xx") is cls.RULES  # type: ignore[union-attr]  # no such language: English


@pytest.mark.parametrize("game", GAMES)
def test_every_japanese_line_fits_76_cells(game: str) -> None:
    for section, text in ja(game).RULES_TEXT_JA.items():
        for line in text.splitlines():
            assert cells(line) <= CELLS, (game, section, cells(line), line)
    assert cells(ja(game).LEGEND_JA) <= CELLS


@pytest.mark.parametrize("game", GAMES)
def test_the_page_types_every_move_as_the_english_page_does(game: str) -> None:
    """Each verb of the engine appears as typed (``/bid``; Tiltowait's call, ``karuki``, as the word it types
    after a discard), and so does every command, card code and spell the English page shows."""
    cls = game_class(game)
    english, japanese = "\n".join(cls.RULES.values()), "\n".join(ja(game).RULES_TEXT_JA.values())
    for verb in cls.VERBS:
        assert f"/{verb}" in japanese or f" {verb}" in japanese, verb
    commands = set(re.findall(r"/[a-z]+", english))
    assert commands and commands <= set(re.findall(r"/[a-z]+", japanese))
    names = ja(game).NAMES_JA
    words = set(re.findall(r"\b[A-Z]{1,9}(?:-[A-Zc])?\d*\b", english))  # R12, HALITO-c, MILWA, NAME; and "A"
    codes = {w for w in words if re.search(r"\d", w) or w.split("-")[0] in names or w in ("NAME", "COLOUR")}
    missing = {code for code in codes if not re.search(rf"(?<![A-Za-z]){re.escape(code)}(?![A-Za-z0-9])", japanese)}
    assert codes and not missing, missing


@pytest.mark.parametrize("game", GAMES)
def test_card_names_are_the_seeds_and_the_legend_gives_each_letter_with_its_name(game: str) -> None:
    names, legend = ja(game).NAMES_JA, ja(game).LEGEND_JA
    assert names == SEED_NAMES[game]
    letters = [letter for letter, _ in plugin(game).letters]  # type: ignore[union-attr]
    assert sorted(legend.split()) == sorted(f"{letter}={names[letter]}" for letter in letters)
    assert plugin(game).legend_for("ja") == legend and plugin(game).legend_for("en") is None  # type: ignore[union-attr]
    japanese = "\n".join(ja(game).RULES_TEXT_JA.values())
    assert all(term in japanese for term in SEED_TERMS[game]), [t for t in SEED_TERMS[game] if t not in japanese]
    for code, name in names.items():
        if len(code) > 1 and code.isalpha():  # a spell: its own line in the spells section, code and name
            assert re.search(rf"^{code}(-c)? {name}（", ja(game).RULES_TEXT_JA["spells"], re.M), code


@pytest.mark.parametrize("game", GAMES)
def test_rules_game_ja_shows_the_japanese_page(game: str, ann: tuple[Lobby, Recorder]) -> None:
    lobby, person = ann
    message = shown(lobby, person, f"/rules {game} ja")
    assert message["type"] == "help" and message["topic"] == f"rules {game} ja"
    text = message["text"]
    assert text == rules_text(game_class(game), lang="ja") == rules_text(game, lang="ja")
    for heading in ("目的", "カード", "進行", "得点", "オプション"):
        assert f"\n{heading}\n" in text
    for section, body in ja(game).RULES_TEXT_JA.items():
        if section in MAIN_SECTIONS:  # a game's own (Tiltowait's spells) is a page of its own
            assert "  " + body.splitlines()[0] in text.splitlines(), section
    assert f"  {ja(game).LEGEND_JA}" in text.splitlines()
    assert all(cells(line) <= 80 for line in text.splitlines()), max(text.splitlines(), key=cells)
    for section in (*ja(game).RULES_TEXT_JA, "cards", "options"):
        page = shown(lobby, person, f"/rules {game} {section.upper()} ja")
        assert page["topic"] == f"rules {game} {section} ja"
        assert len(page["text"].splitlines()) <= 22, (game, section)  # a 24-row screen, with the prompt
        assert all(cells(line) <= 80 for line in page["text"].splitlines())
    assert shown(lobby, person, f"/rules {game}")["text"] == rules_text(game_class(game))  # English unchanged


def test_ja_at_a_table_and_what_is_not_a_language(ann: tuple[Lobby, Recorder]) -> None:
    lobby, person = ann
    assert languages() == ["en", "ja"]
    with pytest.raises(BadCommand, match="no rules for 'ja'"):  # in the lobby the first word is the game
        dispatch(lobby, person, "/rules ja")
    with pytest.raises(BadCommand, match="Wizard rules have no section 'fr'"):
        dispatch(lobby, person, "/rules wizard fr")
    with pytest.raises(BadCommand, match="Wizard rules have no section 'spells'"):
        dispatch(lobby, person, "/rules wizard spells ja")
    assert shown(lobby, person, "/rules wizard en")["topic"] == "rules wizard"
    dispatch(lobby, person, "/new tiltowait")
    assert shown(lobby, person, "/rules ja")["topic"] == "rules tiltowait ja"
    spells = shown(lobby, person, "/rules spells ja")
    assert spells["topic"] == "rules tiltowait spells ja" and "ティルトウエイ" in spells["text"]


def test_a_reader_of_japanese_is_shown_the_japanese_page_unasked(ann: tuple[Lobby, Recorder]) -> None:
    lobby, person = ann
    dispatch(lobby, person, "/lang ja")
    assert shown(lobby, person, "/rules witches")["text"] == rules_text("witches", lang="ja")
    assert shown(lobby, person, "/rules wizard play en")["topic"] == "rules wizard play"  # asked: English
    assert "ティルトウエイ" in shown(lobby, person, "/spells")["text"]
    dispatch(lobby, person, "/lang en")
    assert shown(lobby, person, "/rules witches")["text"] == rules_text("witches")


# ---------------------------------------------------------------- the Japanese quick start and sysop's page

DOCS = Path(__file__).resolve().parents[2] / "docs"
JA_DOCS = sorted((DOCS / "ja").glob("*.md"))


def test_every_command_the_japanese_pages_give_exists() -> None:
    """A player typing what docs/ja says is never told the command does not exist: every ``/word`` is a command or
    a game's move, every ``mudwiz ...`` a subcommand, every ``MUDWIZ_`` setting one the English pages document."""
    assert [p.name for p in JA_DOCS] == ["README.md", "sysop.md"]
    moves = {verb for game in GAMES for verb in game_class(game).VERBS}
    english = "".join((DOCS / page).read_text() for page in ("../README.md", "operations.md", "bbs.md"))
    for page in JA_DOCS:
        text = page.read_text()
        typed = set(re.findall(r"`/([a-z]+)", text))
        assert typed and not typed - set(COMMANDS) - moves, (page.name, typed - set(COMMANDS) - moves)
        settings = set(re.findall(r"MUDWIZ_[A-Z_]+[A-Z]", text))
        assert not {s for s in settings if s not in english}, page.name
        for words in set(re.findall(r"`mudwiz ([a-z]+(?: [a-z]+)?)", text)):
            with pytest.raises(SystemExit) as ended:
                main([*words.split(), "--help"])
            assert ended.value.code == 0, words
    assert "docs/ja/README.md" in (DOCS.parent / "README.md").read_text()
