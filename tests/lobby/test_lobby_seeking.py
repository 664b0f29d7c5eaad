"""The lobby's seeking part, fed commands with a fake clock: refusals are one line and change nothing, a match
counts down to a started game, backing out (``/leave`` or a dropped connection) puts the others' seeks back,
quick play joins a waiting table or is filled with bots after the wait, and ``/again`` needs everyone."""

from __future__ import annotations

import json

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.cluster.bus import WIRE
from mudwiz.commands import dispatch
from mudwiz.errors import MudwizError
from mudwiz.lobby import Lobby, MeetingSettings
from mudwiz.lobby.matching import bot_level
from mudwiz.lobby.seeking import SeekSettings
from mudwiz.ratings import bot_levels, bot_rating
from mudwiz.texts import Later, revive, speaking


def setup(*names: str, **settings: float) -> tuple[Clock, Lobby, list[Recorder]]:
    clock = Clock()
    lobby = Lobby(clock, seed=1, meeting=MeetingSettings(seeks=SeekSettings(**settings)))  # type: ignore[arg-type]
    people = []
    for name in names:
        session = Recorder(name)
        lobby.login(session, name)
        people.append(session)
    return clock, lobby, people


def refused(lobby: Lobby, session: Recorder, line: str) -> str:
    with pytest.raises(MudwizError) as caught:
        dispatch(lobby, session, line)
    return str(caught.value)


def test_bad_seeks_are_one_line_and_place_nothing() -> None:
    _, lobby, (ann,) = setup("ann")
    assert refused(lobby, ann, "/seek") == "usage: /seek GAME [N] [rated|casual] [min=R] [max=R] [OPTION[=VALUE] ...]"
    assert refused(lobby, ann, "/seek chess").startswith("no game called 'chess'")
    assert refused(lobby, ann, "/seek wizard 9") == "Wizard is for 3 to 6 players, not 9"
    assert "rounds" in refused(lobby, ann, "/seek wizard rounds=99")
    assert refused(lobby, ann, "/seek wizard min=1800 max=1400") == "min=1800 is above max=1400"
    assert refused(lobby, ann, "/seek wizard rated") == "a guest's seek is casual: register (/register) to play rated"
    assert refused(lobby, ann, "/unseek") == "you have no open seek"
    assert len(lobby.seeking.book) == 0


def test_the_open_seeks_are_capped() -> None:
    _, lobby, (ann, bob) = setup("ann", "bob", max_open=1)
    dispatch(lobby, ann, "/seek wizard 5")
    told = [m["text"] for m in bob.of_type("notice")]
    assert "ann seeks a game: wizard, 5 players, casual (/seeks lists them)." in told
    assert not [m for m in ann.of_type("notice") if "seeks a game" in m["text"]]
    assert refused(lobby, bob, "/seek witches") == "there are already 1 open seeks: try /quick, or later"
    dispatch(lobby, ann, "/seek witches")  # a new seek replaces your own
    assert [s.game for s in lobby.seeking.book.open_seeks()] == ["witches"]


def test_matched_seeks_count_down_to_a_started_game() -> None:
    clock, lobby, people = setup("ann", "bob", "cy", countdown=5)
    for person in people:
        dispatch(lobby, person, "/seek wizard 3 rounds=1")
    table = people[0].table
    assert table is not None and [s.name for s in table.seats] == ["ann", "bob", "cy"]
    assert table.options["rounds"] == 1 and table.game is None
    assert all(p.of_type("matched")[-1]["countdown"] == 5 for p in people)
    clock.advance(5)
    assert table.in_game and len(lobby.seeking.book) == 0


def test_a_seeker_backing_out_puts_the_others_seeks_back() -> None:
    clock, lobby, (ann, bob, cy) = setup("ann", "bob", "cy", countdown=5)
    for person in (ann, bob, cy):
        dispatch(lobby, person, "/seek wizard 3")
    dispatch(lobby, bob, "/leave")
    assert ann.table is None and cy.table is None and lobby.tables == {}
    assert sorted(s.owner for s in lobby.seeking.book.open_seeks()) == ["ann", "cy"]
    assert any("bob backed out" in m["text"] for m in ann.of_type("notice"))
    clock.advance(10)  # the countdown was called off: nothing starts
    assert lobby.tables == {}


def test_a_seeker_dropping_during_the_countdown_calls_it_off() -> None:
    _, lobby, (ann, bob, cy) = setup("ann", "bob", "cy", countdown=5)
    for person in (ann, bob, cy):
        dispatch(lobby, person, "/seek wizard 3")
    lobby.disconnect(cy)
    assert lobby.tables == {} and sorted(s.owner for s in lobby.seeking.book.open_seeks()) == ["ann", "bob"]
    lobby.disconnect(ann)  # a seek lasts until its owner logs out
    assert [s.owner for s in lobby.seeking.book.open_seeks()] == ["bob"]


def test_quick_play_joins_a_waiting_table() -> None:
    _, lobby, (ann, bob) = setup("ann", "bob")
    dispatch(lobby, ann, "/new witches")
    assert dispatch(lobby, bob, "/quick witches") == "you sit at table 1"


def test_quick_play_is_filled_with_bots_near_the_players_rating_after_the_wait() -> None:
    clock, lobby, (ann,) = setup("ann", bots_after=30, countdown=2)
    assert "bots fill the empty seats in 30 s" in str(dispatch(lobby, ann, "/quick wizard"))
    clock.advance(29)
    assert ann.table is None
    clock.advance(1)
    table = ann.table
    assert table is not None and [s.is_bot for s in table.seats] == [False, True, True, True]
    assert {getattr(s, "level", None) for s in table.seats[1:]} == {bot_level("wizard", 1000.0)}
    clock.advance(2)
    assert table.in_game


def test_the_bot_level_is_the_closest_in_rating() -> None:
    levels = {level: bot_rating("wizard", level).shown for level in bot_levels("wizard")}
    strongest = max(levels, key=lambda level: levels[level])
    assert bot_level("wizard", 5000) == strongest and bot_level("nosuchgame", 1000) == "random"


def test_quick_play_waits_for_ever_when_the_wait_is_zero() -> None:
    clock, lobby, (ann,) = setup("ann", bots_after=0)
    assert "bots" not in str(dispatch(lobby, ann, "/quick wizard"))
    clock.advance(3600)
    assert ann.table is None and len(lobby.seeking.book) == 1


def test_again_needs_a_finished_game_and_everyone_seated() -> None:
    _, lobby, (ann, bob, cy) = setup("ann", "bob", "cy")
    dispatch(lobby, ann, "/new wizard")
    assert refused(lobby, ann, "/again") == "/again is for after a game: /start starts the first"
    dispatch(lobby, bob, "/join 1")
    dispatch(lobby, cy, "/join 1")
    table = lobby.tables[1]
    dispatch(lobby, ann, "/start")
    assert refused(lobby, bob, "/again") == "/again is for after a game: this one is running"
    table.abandoned = True  # as at a game's end
    dispatch(lobby, ann, "/again")
    assert bob.of_type("again")[-1] == {"type": "again", "table": 1, "agreed": ["ann"], "waiting": ["bob", "cy"]}
    assert refused(lobby, ann, "/again") == "ann has already agreed"
    dispatch(lobby, cy, "/leave")
    assert bob.of_type("again")[-1]["called_off_by"] == "cy"
    dispatch(lobby, cy, "/join 1")
    for person in (bob, ann):  # proposed afresh, to those seated now
        dispatch(lobby, person, "/again")
    assert not table.in_game
    dispatch(lobby, cy, "/again")
    assert table.in_game and table.games_played == 2 and [s.name for s in table.seats] == ["ann", "bob", "cy"]


def test_the_desks_answers_carry_their_texts_unworded_across_the_bus() -> None:
    """A desk's answer crosses a cluster's bus (its JSON encoder and ``revive``): its reply, refusal and notice
    stay ``Later``s, so the asker's own process words them in the asker's language."""
    _, lobby, (ann,) = setup("ann")
    desk = lobby.seeking.desk
    placed = desk.do(ann, "seek", {"game": "wizard", "players": 5, "options": [], "min": 1200})
    refused = desk.do(ann, "seek", {"game": "wizard", "players": 9, "options": []})
    tournament = lobby.tournaments.desk.do(ann, "show", {"id": "x"})
    crossed = revive(json.loads(WIRE.encode([placed, refused, tournament])))
    assert [type(crossed[0]["ok"]), type(crossed[0]["notice"]), type(crossed[1]["error"])] == [Later] * 3
    with speaking("ja"):
        assert str(crossed[0]["ok"]) \
            == "ゲームの相手を募集しました: wizard、5 人、カジュアル、レーティング 1200 以上（/unseek で取り下げ）"
        assert str(crossed[1]["error"]) == "Wizard は 3～6 人で遊ぶゲームです（9 人ではできません）"
        assert str(crossed[2]["error"]) == "使い方: /tournament ID（一覧は /tournaments）"
    assert crossed[1]["error"] == "Wizard is for 3 to 6 players, not 9"
