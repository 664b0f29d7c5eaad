"""``/rules GAME`` and ``/spells``: each game's own rules text, shown at the table in 80 columns.

A real lobby fed through ``dispatch``; the help messages are drawn by the server's terminal renderer.
"""

from __future__ import annotations

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import COMMANDS, dispatch, help_text
from mudwiz.errors import BadCommand
from mudwiz.games import available, game_class
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style

SPELLS = ("HALITO", "DALTO", "MAHALITO", "MADALTO", "TILTOWAIT", "KATINO", "MILWA", "MONTINO", "HAMAN")


def lobby_with(name: str = "ann") -> tuple[Lobby, Recorder]:
    lobby = Lobby(Clock(), grace=30.0, bot_delay=0.5, seed=1)
    person = Recorder()
    lobby.login(person, name)
    return lobby, person


def shown(lobby: Lobby, person: Recorder, line: str) -> dict:
    """The one message ``line`` sends back."""
    before = len(person.messages)
    assert dispatch(lobby, person, line) is None
    (message,) = person.messages[before:]
    return message


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_rules_give_goal_play_scoring_and_options_in_80_columns(game: str) -> None:
    lobby, ann = lobby_with()
    message = shown(lobby, ann, f"/rules {game.upper()}")
    assert message["type"] == "help" and message["topic"] == f"rules {game}"
    text = message["text"]
    cls = game_class(game)
    for heading in ("Goal", "Play", "Scoring", "Options"):
        assert f"\n{heading}\n" in text
    assert all(opt.name in text for opt in cls.OPTIONS)
    assert cls.RULES["scoring"].splitlines()[0] in text
    for mode in ("ansi", "ascii"):
        lines = Presenter(Style.for_mode(mode)).lines(message)
        assert len(lines) == len(text.splitlines()) > 15
        assert all(len(line) <= 80 for line in lines), max(lines, key=len)


def test_a_narrow_window_gets_the_rules_reflowed_by_paragraph() -> None:
    """Below 80 columns each 78-column line was wrapped on its own, leaving a sentence's tail on a row alone."""
    lobby, ann = lobby_with()
    message = shown(lobby, ann, "/rules wizard goal")
    lines = Presenter(Style.for_mode("ascii", width=50)).lines(message)
    assert lines == ["Wizard rules: goal",
                     "  Wizard (Amigo, Ken Fisher): bid how many tricks",
                     "  you will take, then take exactly that many.",
                     "  Taking more is as bad as taking fewer. The",
                     "  highest total after the last round wins."]
    spells = Presenter(Style.for_mode("ascii", width=44)).lines(shown(lobby, ann, "/rules tiltowait spells"))
    assert "  HALITO-c (8, 20): the next player draws 2." in spells  # a label starts its own paragraph
    assert "    On its colour, on any HALITO, on the" in spells  # and its indented lines theirs
    options = Presenter(Style.for_mode("ascii", width=44)).lines(shown(lobby, ann, "/rules wizard options"))
    assert "  hiddentip      everyone bids at once," in options  # a table row's text wraps under its column
    assert "                 unseen; the bids are shown" in options
    assert all(len(line) <= 44 for line in spells + options)


def test_each_section_has_a_page_of_its_own() -> None:
    lobby, ann = lobby_with()
    for game in available():
        cls = game_class(game)
        for section in (*cls.RULES, "options"):
            text = shown(lobby, ann, f"/rules {game} {section}")["text"]
            assert len(text.splitlines()) <= 22, (game, section)  # a 24-row screen, with the prompt
    with pytest.raises(BadCommand, match="Witches rules have no section 'spells': goal, cards, play, scoring, options"):
        dispatch(lobby, ann, "/rules witches spells")


def test_without_a_game_rules_shows_the_tables_game_and_in_the_lobby_says_how() -> None:
    lobby, ann = lobby_with()
    with pytest.raises(BadCommand, match=r"usage: /rules GAME \[SECTION\]; games: wizard, witches, tiltowait"):
        dispatch(lobby, ann, "/rules")
    with pytest.raises(BadCommand, match="no rules for 'chess'"):
        dispatch(lobby, ann, "/rules chess")
    dispatch(lobby, ann, "/new tiltowait")
    assert shown(lobby, ann, "/rules")["topic"] == "rules tiltowait"
    assert shown(lobby, ann, "/rules spells")["topic"] == "rules tiltowait spells"
    assert shown(lobby, ann, "/rules wizard")["topic"] == "rules wizard"


def test_spells_lists_the_nine_tiltowait_spells_anywhere() -> None:
    lobby, ann = lobby_with()
    message = shown(lobby, ann, "/spells")
    assert message["topic"] == "rules tiltowait spells"
    assert message == {**shown(lobby, ann, "/rules tiltowait spells")}
    lines = message["text"].splitlines()
    for spell in SPELLS:
        assert any(line.startswith(f"  {spell}") for line in lines), spell
    assert "whole table for 5 seconds" in message["text"]
    dispatch(lobby, ann, "/new wizard")  # a game with no spells of its own: still Tiltowait's
    assert shown(lobby, ann, "/spells")["topic"] == "rules tiltowait spells"


def test_help_lists_the_new_commands() -> None:
    lobby, ann = lobby_with()
    assert {"rules", "spells"} <= set(COMMANDS)
    text = help_text("", ann)
    assert "/rules [GAME [SECTION]]" in text and "/spells" in text
    assert all(len(line) <= 80 for line in help_text("rules", ann).splitlines())


def test_the_card_legend_says_each_games_letters_and_where_games_differ() -> None:
    """G was green in Wizard and gold in Tiltowait, the Wizard Z in Wizard and W in Witches, and nothing said so.
    The codes stay; /rules GAME (the client's F1) and /help cards say what each letter means, game by game."""
    lobby, ann = lobby_with()
    wizard = shown(lobby, ann, "/rules wizard")["text"]
    tiltowait = shown(lobby, ann, "/rules tiltowait")["text"]
    witches = shown(lobby, ann, "/rules witches cards")["text"]
    flat = {name: " ".join(text.split()) for name, text in
            (("wizard", wizard), ("tiltowait", tiltowait), ("witches", witches))}
    assert "\nCards\n" in wizard and "\nCards\n" in tiltowait
    assert "G green" in flat["wizard"] and "Z a Wizard, N a Jester" in flat["wizard"]
    assert "G gold" in flat["tiltowait"] and "K black" in flat["tiltowait"]
    assert "W a Wizard" in flat["witches"]
    difference = "G is green in Wizard and Witches, gold in Tiltowait"
    assert all(difference in text for text in flat.values())
    assert "a Wizard is Z in Wizard, W in Witches" in flat["wizard"] and "a Wizard is" not in flat["tiltowait"]
    cards = shown(lobby, ann, "/help cards")["text"]
    assert [line for line in cards.splitlines() if len(line) > 80] == []
    assert "  Wizard: B blue, G green, R red, Y yellow, Z a Wizard, N a Jester." in cards.splitlines()
    assert "  Tiltowait: K black, R red, G gold, B blue." in cards.splitlines()
    assert difference in " ".join(cards.split()) and "cards:" in help_text("help", ann)
