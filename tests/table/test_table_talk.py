"""Issue #20 at the table layer: what a first-time player meets between the moves (fake clock, no sockets)."""

from __future__ import annotations

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.table import REACTION_DELAY


def table_of(game: str, people: int, *commands: str) -> tuple[Clock, Lobby, list[Recorder]]:
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=4)
    sessions = [Recorder() for _ in range(people)]
    for i, p in enumerate(sessions):
        lobby.login(p, f"p{i}")
    dispatch(lobby, sessions[0], f"/new {game}")
    for p in sessions[1:]:
        dispatch(lobby, p, "/join 1")
    for cmd in commands:
        dispatch(lobby, sessions[0], cmd)
    return clock, lobby, sessions


def expose(lobby: Lobby, called: bool) -> list[str]:
    """p0 down to one card (as after their last-but-one discard), with or without the karuki call."""
    table = lobby.tables[1]
    game = table.game
    game.hands[0] = game.hands[0][:1]
    if called:
        game.called.add(0)
    else:
        game.exposed = 0
    table.moves += 1
    table._after([])
    return game.hands[0]


def test_a_bot_catches_a_forgotten_karuki_only_after_a_persons_reaction_time() -> None:
    clock, lobby, people = table_of("tiltowait", 1, "/bot add good", "/bot add good", "/option botdelay 0")
    dispatch(lobby, people[0], "/start")
    hand = expose(lobby, called=False)
    clock.advance(2.0)
    assert len(hand) == 1, "no bot catches within two seconds"
    clock.advance(REACTION_DELAY + 0.5)
    assert len(hand) == 3, "then the penalty: two cards"


def test_a_person_who_calls_in_time_is_not_caught() -> None:
    clock, lobby, people = table_of("tiltowait", 1, "/bot add good", "/bot add good", "/option botdelay 0")
    dispatch(lobby, people[0], "/start")
    hand = expose(lobby, called=False)
    clock.advance(1.5)
    dispatch(lobby, people[0], "/karuki")
    clock.advance(REACTION_DELAY * 2)
    assert len(hand) == 1


def test_the_round_end_waits_for_everyones_ok_by_default() -> None:
    clock, lobby, people = table_of("wizard", 3, "/option rounds 2")
    table = lobby.tables[1]
    assert table.table_options["confirm"] >= 120, "the timeout is only an away-from-keyboard safety"
    dispatch(lobby, people[0], "/start")
    for _ in range(200):
        if table.game.phase == "roundend":
            break
        for p in people:
            legal = p.last_state()["legal"]
            if legal and legal[0] != "/ok":
                dispatch(lobby, p, legal[0])
                break
    assert table.game.phase == "roundend"
    clock.advance(60)
    assert table.game.phase == "roundend"
    assert dispatch(lobby, people[0], "/ok") == "confirmed; waiting for p1, p2"
    assert people[1].last_state()["confirmed"] == ["p0"]
    assert dispatch(lobby, people[1], "/ok") == "confirmed; waiting for p2"
    assert dispatch(lobby, people[2], "/ok") is None, "the last /ok deals at once: no reply after the new deal"
    assert table.game.round == 2


def test_an_option_is_told_once_to_whoever_sets_it() -> None:
    clock, lobby, people = table_of("wizard", 2)
    assert dispatch(lobby, people[0], "/option rounds 3") == "rounds = 3"
    assert not [m for m in people[0].of_type("notice") if "sets rounds" in m["text"]]
    assert [m["text"] for m in people[1].of_type("notice") if "sets rounds" in m["text"]] == ["p0 sets rounds = 3."]
    assert dispatch(lobby, people[0], "/option confirm off") == "confirm = off"


def test_a_refused_name_says_why_and_a_tell_to_yourself_is_refused() -> None:
    clock = Clock()
    lobby = Lobby(clock)
    with pytest.raises(BadCommand, match="A-Z.*kana or kanji"):
        lobby.login(Recorder(), "Zoë")
    with pytest.raises(BadCommand, match="no spaces"):
        lobby.login(Recorder(), "two words")
    me = Recorder()
    lobby.login(me, "me")
    with pytest.raises(BadCommand, match="that is you"):
        dispatch(lobby, me, "/tell ME hello")
    assert not me.of_type("chat")
