"""Adjourned games on a fake clock: a game whose people all dropped past the grace waits for them (no bot plays it,
nothing is recorded), the one who left last is taken back at login and the others are told to /resume; it goes on
when everyone is back, or without those away when the people back agree; /adjourn by agreement; /adjourned and
/finger list it; it survives a restart (a real SQLite file and PostgreSQL: the ``store`` fixture) and its moves
are intact to the end; one kept past its time is recorded as abandoned."""

from __future__ import annotations

import pytest
from recorder import Recorder
from test_journal import journaled_lobby, play
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand, IllegalAction
from mudwiz.lobby import Lobby
from mudwiz.restore import restore_tables
from mudwiz.store import Store


def lobby_of(n: int, bots: int = 1, grace: float = 10.0) -> tuple[Clock, Lobby, list[Recorder]]:
    clock = Clock()
    clock.advance(1_700_000_000)
    lobby = Lobby(clock, grace=grace, bot_delay=0.5, seed=5)
    people = [Recorder() for _ in range(n)]
    for i, person in enumerate(people):
        lobby.login(person, f"p{i}")
    dispatch(lobby, people[0], "/new wizard")
    dispatch(lobby, people[0], "/option turn 0")
    for person in people[1:]:
        dispatch(lobby, person, "/join 1")
    for _ in range(bots):
        dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    return clock, lobby, people


def notices(person: Recorder) -> list[str]:
    return [str(m["text"]) for m in person.of_type("notice")]


def test_everyone_gone_adjourns_the_last_is_taken_back_the_others_resume_and_it_goes_on() -> None:
    clock, lobby, (p0, p1) = lobby_of(2)
    table = lobby.tables[1]
    lobby.disconnect(p0)
    clock.advance(5)
    lobby.disconnect(p1)
    clock.advance(10.1)  # p0's grace over, p1 still away: everyone is gone
    assert table.status == "adjourned" and table.adjourned is not None and table.adjourned.last == "p1"
    assert not lobby.away, "no grace timer runs for an adjourned game's seats"
    moves = table.moves
    clock.advance(7 * 86400)
    assert table.moves == moves and 1 in lobby.tables

    back1 = Recorder()
    lobby.login(back1, "p1")  # the last to leave: taken back to it
    assert table.seats[0].name == "p0" and table.seats[1] is back1
    assert any("goes on when p0 is back" in text for text in notices(back1))
    assert back1.last_state()["status"] == "adjourned" and back1.last_state()["legal"] == []
    with pytest.raises(IllegalAction, match="adjourned: it goes on when p0 is back"):
        dispatch(lobby, back1, "/bid 0")

    back0 = Recorder()
    lobby.login(back0, "p0")  # not the last: told, not seated
    assert back0.table is None
    assert any("/resume 1 takes your seat back" in text for text in notices(back0))
    dispatch(lobby, back0, "/adjourned")
    [listing] = back0.of_type("adjourned")
    assert [(g["id"], g["game"], g["last"]) for g in listing["games"]] == [(1, "wizard", "p1")]
    assert listing["games"][0]["until"].startswith("2023-11-28")  # 14 days after 2023-11-14
    dispatch(lobby, back0, "/finger p1")
    assert back0.of_type("finger")[-1]["adjourned"] == [1]

    assert dispatch(lobby, back0, "/resume 1") == "you are back at table 1"
    assert table.status == "playing" and table.adjourned is None
    assert "Everyone is back: the game goes on." in notices(back1)
    for _ in range(200):  # the bots play again, the people's moves are taken
        if table.moves > moves + 3:
            break
        for person in (back0, back1):
            legal = person.last_state()["legal"]
            if legal and legal[0] not in ("/ok", "/start"):
                dispatch(lobby, person, legal[0])
        clock.advance(1)
    assert table.moves > moves + 3


def test_one_person_and_bots_the_login_resumes_the_game_at_once() -> None:
    clock, lobby, (p0,) = lobby_of(1, bots=2)
    table = lobby.tables[1]
    lobby.disconnect(p0)
    clock.advance(10.1)
    assert table.status == "adjourned" and not table.abandoned
    back = Recorder()
    lobby.login(back, "p0")
    assert table.seats[0] is back and table.status == "playing"
    assert back.last_state()["status"] == "playing"


def test_adjourn_by_agreement_then_go_on_without_the_one_away() -> None:
    clock, lobby, (p0, p1) = lobby_of(2)
    table = lobby.tables[1]
    assert dispatch(lobby, p0, "/adjourn") == "you want to adjourn the game; waiting for p1"
    assert any("p0 wants to adjourn the game" in text for text in notices(p1))
    assert table.status == "playing"
    assert dispatch(lobby, p1, "/adjourn") is None
    assert table.status == "adjourned" and p0.table is None and p1.table is None
    assert any("/resume 1 takes your seat back" in text for text in notices(p0))
    assert table.holds_seat_for("p0") and table.holds_seat_for("p1")
    with pytest.raises(BadCommand, match="there is no table 7"):
        dispatch(lobby, p0, "/resume 7")

    dispatch(lobby, p0, "/resume 1")
    assert table.status == "adjourned" and table.waiting_for() == ["p1"]
    with pytest.raises(BadCommand, match="you have no seat kept at table 1"):
        stranger = Recorder()
        lobby.login(stranger, "zed")
        dispatch(lobby, stranger, "/resume 1")
    dispatch(lobby, p0, "/resume")  # the only person back agrees: on without p1
    assert table.status == "playing"
    assert table.away_until.get("p1") is not None, "p1's seat is kept for the grace, as a dropped player's"
    clock.advance(10.1)
    assert table.seats[1].is_bot and table.seats[1].name == "p1", "then a stand-in plays it"


def test_an_adjourned_game_kept_past_its_time_is_recorded_as_abandoned() -> None:
    clock, lobby, (p0,) = lobby_of(1, bots=2)
    lobby.disconnect(p0)
    clock.advance(10.1)
    assert lobby.kept.expire() == []
    clock.advance(lobby.kept.adjourn_keep + 1)
    assert lobby.kept.expire() == [1] and 1 not in lobby.tables


def test_an_adjourned_game_survives_a_restart_and_is_played_to_the_end_with_its_moves(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice = Recorder()
    lobby.login(alice, "Alice")
    for command in ("/new wizard", "/option rounds 2", "/option turn 0", "/bot add random", "/bot add good",
                    "/start"):
        dispatch(lobby, alice, command)
    play(clock, lobby, alice, 6)
    table = lobby.tables[1]
    log_before = list(table.game.log)
    lobby.disconnect(alice)
    clock.advance(30.1)
    assert table.status == "adjourned"
    [saved] = store.open_tables()
    assert saved.header["adjourned"]["last"] == "Alice"

    clock2, lobby2 = journaled_lobby(store, seed=77)  # kill -9 and a restart: the same file, nothing else
    [again] = restore_tables(lobby2, store.open_tables())
    assert again.status == "adjourned" and again.game.log == log_before
    assert not lobby2.away, "no grace runs out on an adjourned game's seats"
    clock2.advance(3600)
    assert again.game.log == log_before, "its bots wait with it"
    back = Recorder()
    lobby2.login(back, "alice")
    assert again.status == "playing" and again.seats[0] is back
    play(clock2, lobby2, back, 20_000, seed=4)
    assert back.of_type("game_end")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and record.outcome == "finished" and record.log[:len(log_before)] == log_before
