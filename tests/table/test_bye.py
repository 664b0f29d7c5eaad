"""``/bye``: a clean goodbye from wherever the user is (the BBS door's when the caller's time is up,
docs/bbs.md): their table left as ``/leave`` leaves it, or their watching stopped, then the connection closed;
in the lobby only the close, never the error ``/leave`` gives there."""

from __future__ import annotations

from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.lobby import Lobby


class Caller(Recorder):
    """A recorder that knows it was closed, as a connection is by ``/quit``."""

    closed = False

    def close(self) -> None:
        self.closed = True


def lobby_of(*names: str) -> tuple[Clock, Lobby, list[Caller]]:
    clock = Clock()
    lobby = Lobby(clock, grace=30.0, bot_delay=0.5, seed=1)
    people = [Caller() for _ in names]
    for person, name in zip(people, names, strict=True):
        lobby.login(person, name)
    return clock, lobby, people


def notices(person: Recorder) -> list[str]:
    return [str(m["text"]) for m in person.of_type("notice")]


def test_bye_mid_game_leaves_the_seat_to_a_bot_at_once_and_closes() -> None:
    clock, lobby, people = lobby_of("p0", "p1", "p2")
    dispatch(lobby, people[0], "/new wizard")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    leaver = people[1]
    assert dispatch(lobby, leaver, "/bye") == "bye"
    assert leaver.closed and leaver.table is None
    assert table.seats[1].is_bot and table.seats[1] is not leaver  # at once, not after the grace period
    assert any(t.startswith("you leave table 1: a bot plays your seat") for t in notices(leaver))
    assert leaver.of_type("left") == [{"type": "left", "table": 1}]
    assert any("p1 leaves; a bot plays their seat." in t for t in notices(people[0]))
    lobby.disconnect(leaver)  # the connection's close comes after: nothing left to hold
    assert table.seats[1].is_bot and not table.abandoned


def test_bye_in_a_game_played_alone_with_bots_adjourns_it_for_the_next_login() -> None:
    clock, lobby, (caller,) = lobby_of("p0")
    for command in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        dispatch(lobby, caller, command)
    table = lobby.tables[1]
    assert dispatch(lobby, caller, "/bye") == "bye"
    assert caller.closed and caller.table is None
    assert table.status == "adjourned" and table.holds_seat_for("p0") and not table.abandoned
    assert any("/resume 1 takes your seat back" in t for t in notices(caller))
    lobby.disconnect(caller)
    clock.advance(3600)
    back = Caller()
    lobby.login(back, "p0")
    assert table.seats[0] is back and table.status == "playing"


def test_bye_before_the_game_leaves_the_table_and_the_last_one_out_closes_it() -> None:
    clock, lobby, (host,) = lobby_of("p0")
    dispatch(lobby, host, "/new wizard")
    assert dispatch(lobby, host, "/bye") == "bye"
    assert host.closed and host.table is None and 1 not in lobby.tables
    assert "you leave table 1" in notices(host)


def test_bye_while_watching_stops_watching_and_closes() -> None:
    clock, lobby, (host, watcher) = lobby_of("p0", "p1")
    dispatch(lobby, host, "/new wizard")
    dispatch(lobby, watcher, "/watch 1")
    table = lobby.tables[1]
    assert dispatch(lobby, watcher, "/bye") == "bye"
    assert watcher.closed and watcher.table is None and watcher not in table.observers
    assert "you stop watching" in notices(watcher)
    assert "p1 stops watching." in notices(host)


def test_bye_in_the_lobby_only_closes_saying_nothing_of_a_table() -> None:
    clock, lobby, (alone,) = lobby_of("p0")
    before = len(alone.messages)
    assert dispatch(lobby, alone, "/bye") == "bye"
    assert alone.closed
    assert alone.messages[before:] == []  # no error, no notice: the reply is all
