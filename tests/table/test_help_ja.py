"""``/help`` in the reader's language: the moves and options of a game, marked in the game's own catalog, read in
Japanese by a Japanese reader, wrapped by terminal cells (a kana is two) within the window and the 22 rows."""

from __future__ import annotations

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch, help_text
from mudwiz.commands.help import in_own_words, own_words
from mudwiz.games import game_class
from mudwiz.lobby import Lobby
from mudwiz.render.style import cell_width
from mudwiz.table import TABLE_OPTIONS
from mudwiz.texts import speaking

GAMES = ["wizard", "witches", "tiltowait"]


def _host_at(game: str) -> Recorder:
    lobby = Lobby(Clock(), seed=1)
    host = Recorder()
    lobby.login(host, "host")
    dispatch(lobby, host, f"/new {game}")
    return host


def _joined(text: str) -> str:
    """The text with its wrapping undone: rows break inside a Japanese sentence, which has no spaces."""
    return "".join(text.split())


@pytest.mark.parametrize("game", GAMES)
def test_help_game_explains_its_moves_and_options_in_japanese(game: str) -> None:
    host = _host_at(game)
    cls = game_class(game)
    with speaking("ja"):
        text = help_text(game, host)
    for usage in cls.VERBS.values():
        with speaking("ja"):
            typed, explained = own_words(game, usage)
        english = usage.partition(":")[2].strip()
        assert explained != english and not explained.isascii(), usage  # the game's catalog has it
        assert f"/{typed}" in text and _joined(explained) in _joined(text)
        assert english not in text
    for option in (*cls.OPTIONS, *TABLE_OPTIONS):
        with speaking("ja"):
            said = in_own_words(game, option.help)
        assert not said.isascii() and _joined(said) in _joined(text), option.name
    with speaking("ja"):
        one = help_text("play", host)
    assert one.startswith(f"/{cls.VERBS['play'].split(':')[0]} ({game}): ") and not one.isascii()


@pytest.mark.parametrize("game", GAMES)
def test_japanese_help_fits_the_window_and_24_rows_at_any_width(game: str) -> None:
    host = _host_at(game)
    for width in range(40, 81):
        host.width = width  # type: ignore[attr-defined]  # a connection's session has it (telnet NAWS)
        with speaking("ja"):
            alone = help_text("", host).splitlines()
            assert len(alone) <= 23, (width, alone)  # with the prompt's row
            for topic in ("", "all", game, "play", "mode", "cards"):
                for line in help_text(topic, host).splitlines():
                    assert cell_width(line) <= width, (width, topic, line)


def test_at_a_table_help_shows_its_moves_in_japanese_in_22_rows() -> None:
    """As in English: the table's moves under the commands on one 80x24 screen, explained in Japanese when they
    fit, else their usages under a line saying ``/help MOVE`` explains one (Japanese rows wrap sooner)."""
    for game in GAMES:
        host = _host_at(game)
        with speaking("ja"):
            text = help_text("", host)
            first = own_words(game, next(iter(game_class(game).VERBS.values())))[1]
        assert len(text.splitlines()) <= 22, text
        explained = first.partition("。")[0][:12] in text
        assert explained or "/help MOVE で説明" in text, text
