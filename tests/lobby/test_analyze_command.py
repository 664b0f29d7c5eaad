"""``/analyze`` on a fake clock with a real SQLite file: a game still being played is refused, the last recorded game
is the default, a game whose plugin has no analysis says so in one line, and the message is drawn by the game's
renderer within 80 columns (the wire test, tests/wire/test_wire_analyze.py, has the rest end to end)."""

from __future__ import annotations

from pathlib import Path

import pytest
from recorder import Recorder
from test_records import lobby_on, play_out, seat_person_and_bots

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import WIDTH, Style, strip_ansi, visible_len


def refused(lobby: object, who: Recorder, line: str) -> BadCommand:
    with pytest.raises(BadCommand) as caught:
        dispatch(lobby, who, line)  # type: ignore[arg-type]
    return caught.value


def test_a_game_in_play_is_refused_and_then_the_last_one_is_analysed(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    playing = refused(lobby, alice, "/analyze")
    assert playing.code == "in-progress" and "still being played" in str(playing)
    play_out(clock, lobby, alice)
    [summary] = store.games_of("alice")
    dispatch(lobby, alice, "/analyze")
    [message] = alice.of_type("analysis")
    assert (message["id"], message["game"], message["round"]) == (summary.id, "wizard", None)
    assert [seat["player"] for seat in message["seats"]] == ["Alice"]
    lines = Presenter(Style()).lines(message)
    assert all(visible_len(line) <= WIDTH for line in lines), lines
    assert strip_ansi(lines[0]).startswith(f"── Analysis of game #{summary.id}: Alice")
    assert str(dispatch(lobby, alice, f"/analyze {summary.id} 99")).startswith(f"analysing game {summary.id}")
    late = alice.of_type("error")[-1]  # found by the work, which a server runs after the ok: one line, coded
    assert (late["code"], str(late["message"])) == ("no-round", "that game has rounds 1 to 2, not 99")
    for bad in ("/analyze x", "/analyze 1 2 3", f"/analyze {summary.id} 0"):
        assert refused(lobby, alice, bad).code == "usage", bad


def test_a_game_without_an_analysis_says_so_in_one_line(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "witches")
    play_out(clock, lobby, alice)
    [summary] = store.games_of("alice")
    none = refused(lobby, alice, f"/analyze {summary.id}")
    assert (str(none), none.code) == ("no analysis for witches yet", "no-analysis")
    nobody = Recorder()
    lobby.login(nobody, "nobody")
    assert refused(lobby, nobody, "/analyze").code == "no-game"


def test_the_export_of_a_game_without_an_analysis_says_so_and_fails(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from mudwiz.cli import export_game

    clock, lobby, store = lobby_on(tmp_path)
    play_out(clock, lobby, seat_person_and_bots(lobby, "witches"))
    [summary] = store.games_of("alice")
    store.close()
    assert export_game(summary.id, str(tmp_path), "") == 1
    assert capsys.readouterr().err == "mudwiz: no analysis for witches yet\n"
    assert export_game(summary.id, str(tmp_path)) == 0 and '"analysis"' not in capsys.readouterr().out
