"""Findings of the abuse and fault probe at the table and lobby layer, each pinned by a test.

Fed commands directly with a fake clock (``task.Clock``): no sockets, no sleeps.
"""

from __future__ import annotations

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.lobby import MOVE_BURST, Lobby


def lobby_with(n: int, grace: float = 30.0, **kw: float) -> tuple[Clock, Lobby, list[Recorder]]:
    clock = Clock()
    lobby = Lobby(clock, grace=grace, bot_delay=0.5, seed=1, **kw)
    people = [Recorder() for _ in range(n)]
    for i, p in enumerate(people):
        lobby.login(p, f"p{i}")
    return clock, lobby, people


def seated(n: int, game: str = "wizard", grace: float = 30.0, **opts: str) -> tuple[Clock, Lobby, list[Recorder]]:
    clock, lobby, people = lobby_with(n, grace)
    dispatch(lobby, people[0], f"/new {game}")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    for name, value in opts.items():
        dispatch(lobby, people[0], f"/option {name} {value}")
    return clock, lobby, people


def play_until(lobby: Lobby, people: list[Recorder], phases: tuple[str, ...], clock: Clock | None = None) -> None:
    """People play the first legal move of their latest state (bots on the clock) until the phase is reached."""
    table = lobby.tables[1]
    for _ in range(2000):
        assert table.game is not None
        if table.game.phase in phases:
            return
        moved = False
        for p in people:
            if p.table is not table or not p.connected:
                continue
            legal = p.last_state()["legal"]
            if legal and legal[0] not in ("/ok", "/start"):
                dispatch(lobby, p, legal[0])
                moved = True
                break
        if not moved and clock is not None:
            clock.advance(1)
    raise AssertionError(f"never reached {phases}")


def finish_game(lobby: Lobby, people: list[Recorder], clock: Clock) -> None:
    table = lobby.tables[1]
    for _ in range(50):
        if table.game.finished:
            return
        play_until(lobby, people, ("roundend", "gameover"), clock)
        for p in people:
            if "/ok" in p.last_state()["legal"]:
                dispatch(lobby, p, "/ok")
        clock.advance(1)
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------ 3. a table stuck at round end


@pytest.mark.parametrize("how", ["drop", "leave"])
def test_round_end_never_waits_on_someone_who_is_not_there(how: str) -> None:
    clock, lobby, people = seated(3, confirm="0", rounds="2")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    play_until(lobby, people, ("roundend",))
    dispatch(lobby, people[0], "/ok")
    dispatch(lobby, people[1], "/ok")
    assert table.game.phase == "roundend"
    if how == "drop":
        lobby.disconnect(people[2])
    else:
        dispatch(lobby, people[2], "/leave")
    clock.advance(5)  # a bot's pace at most
    assert table.game.round == 2 and table.game.phase != "roundend", "nobody left to wait for"


def test_whoever_still_must_confirm_is_offered_ok() -> None:
    clock, lobby, people = seated(3, confirm="0", rounds="2")
    dispatch(lobby, people[0], "/start")
    play_until(lobby, people, ("roundend",))
    dispatch(lobby, people[0], "/ok")
    lobby.disconnect(people[2])
    assert "/ok" in people[1].last_state()["legal"]
    assert "/ok" not in people[0].last_state()["legal"]


# ------------------------------------------------------------------ 4. abandoned tables


def test_a_game_nobody_plays_any_more_is_adjourned_not_played_out_by_bots() -> None:
    clock, lobby, people = seated(2, grace=10)
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    lobby.disconnect(people[0])
    lobby.disconnect(people[1])
    clock.advance(10.1)  # grace over, nobody back: the game waits for them
    assert table.status == "adjourned" and not table.abandoned
    assert table.adjourned is not None and table.adjourned.last == "p1"
    moves = table.moves
    clock.advance(3600)
    assert table.moves == moves, "no bot plays on"


def test_a_game_everyone_left_on_purpose_is_abandoned() -> None:
    clock, lobby, people = seated(2, grace=10)
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    dispatch(lobby, people[0], "/leave")
    dispatch(lobby, people[1], "/leave")
    assert table.status == "over" and table.abandoned


def test_a_table_with_nobody_seated_or_watching_is_closed_after_the_idle_time() -> None:
    clock, lobby, people = seated(2, grace=10)
    lobby.disconnect(people[0])
    lobby.disconnect(people[1])  # no game: nothing to adjourn, the table waits idle_close for them
    clock.advance(lobby.idle_close - 1)
    assert 1 in lobby.tables
    clock.advance(2)
    assert 1 not in lobby.tables


def test_an_observer_keeps_an_abandoned_table_open_and_sees_why() -> None:
    clock, lobby, people = seated(2, grace=10)
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    watcher = Recorder()
    lobby.login(watcher, "watcher")
    dispatch(lobby, watcher, "/watch 1")
    dispatch(lobby, people[0], "/leave")
    dispatch(lobby, people[1], "/leave")
    clock.advance(lobby.idle_close * 2)
    assert 1 in lobby.tables
    assert any("abandoned" in m["text"] for m in watcher.of_type("notice"))
    dispatch(lobby, watcher, "/leave")
    clock.advance(lobby.idle_close + 1)
    assert 1 not in lobby.tables


def test_a_watcher_sees_a_game_adjourned_and_the_table_stays_for_its_people() -> None:
    clock, lobby, people = seated(2, grace=10)
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    watcher = Recorder()
    lobby.login(watcher, "watcher")
    dispatch(lobby, watcher, "/watch 1")
    lobby.disconnect(people[0])
    lobby.disconnect(people[1])
    clock.advance(10.1)
    assert any("the game is adjourned" in m["text"] for m in watcher.of_type("notice"))
    assert watcher.last_state()["status"] == "adjourned"
    dispatch(lobby, watcher, "/leave")
    clock.advance(lobby.idle_close * 2)
    assert lobby.tables[1].status == "adjourned"


def test_a_returning_player_finds_the_table_until_it_closes() -> None:
    """Drop and come back within the idle time: the table (and its grace timer) still holds the seat."""
    clock, lobby, people = seated(2, grace=100)
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    lobby.disconnect(people[0])
    lobby.disconnect(people[1])
    clock.advance(50)
    back = Recorder()
    lobby.login(back, "p0")
    assert table.seats[0] is back and table.status == "playing"


# ------------------------------------------------------------------ 5. leaving a finished table


@pytest.mark.parametrize("how", ["leave", "drop", "bot remove"])
def test_anyone_leaving_a_finished_table_leaves_the_others_views_whole(how: str) -> None:
    clock, lobby, people = seated(3, rounds="1", confirm="1")
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    finish_game(lobby, people, clock)
    if how == "leave":
        assert dispatch(lobby, people[1], "/leave") == "you leave table 1"
    elif how == "drop":
        lobby.disconnect(people[1])
    else:
        assert dispatch(lobby, people[0], "/bot remove bot1") == "bot1 leaves table 1"
    for p in (people[0], people[2]):
        dispatch(lobby, p, "/look")
        dispatch(lobby, p, "/score")
        state = p.last_state()
        assert state["status"] == "over" and state["you"] == p.name
        assert len(state["players"]) == 4, "the finished game's standings stay in view"
        assert p.of_type("score")[-1]["players"]


def test_a_finished_game_keeps_each_seat_its_own_view_after_an_earlier_seat_leaves() -> None:
    clock, lobby, people = seated(3, rounds="1", confirm="1")
    dispatch(lobby, people[0], "/start")
    finish_game(lobby, people, clock)
    dispatch(lobby, people[0], "/leave")
    state = lobby.tables[1].state_for(people[2])
    assert state["you"] == "p2"
    assert [p["name"] for p in state["players"]] == ["p0", "p1", "p2"]
    assert next(p for p in state["players"] if p["name"] == "p0")["away"]


# ------------------------------------------------------------------ 6. floods that bypass the chat limit


def test_moving_between_tables_cannot_flood_a_table() -> None:
    clock, lobby, people = seated(2)
    flooder = Recorder()
    lobby.login(flooder, "flooder")
    before = len(people[1].of_type("notice"))
    refused = 0
    for _ in range(200):
        try:
            dispatch(lobby, flooder, "/watch 1")
            dispatch(lobby, flooder, "/leave")
        except MudwizError as exc:
            assert "too fast" in str(exc)
            refused += 1
    assert refused
    assert len(people[1].of_type("notice")) - before <= 2 * MOVE_BURST + 2, "a burst, then a line a second at most"
    clock.advance(5)
    dispatch(lobby, flooder, "/watch 1")  # and the limit wears off


def test_opening_tables_cannot_flood_the_lobby() -> None:
    clock, lobby, people = lobby_with(2)
    before = len(people[1].of_type("notice"))
    for _ in range(200):
        try:
            dispatch(lobby, people[0], "/new wizard")
            dispatch(lobby, people[0], "/leave")
        except MudwizError:
            pass
    assert len(people[1].of_type("notice")) - before <= 25


def test_arrivals_from_one_address_are_summed_up_not_listed_one_by_one() -> None:
    clock, lobby, people = lobby_with(1)
    for i in range(200):
        s = Recorder()
        s.address = "192.0.2.7"
        lobby.login(s, f"spam{i}")
        lobby.disconnect(s)
    lines = [m["text"] for m in people[0].of_type("notice")]
    assert 0 < len(lines) <= 25
    clock.advance(60)
    summary = [m["text"] for m in people[0].of_type("notice")][len(lines):]
    assert summary and any("arrived" in t for t in summary), summary
    other = Recorder()
    other.address = "198.51.100.1"
    lobby.login(other, "honest")
    assert people[0].of_type("notice")[-1]["text"] == "honest has arrived."


# ------------------------------------------------------------------ 10. an observer trying to join a running game


def test_an_observer_refused_a_seat_stays_an_observer() -> None:
    clock, lobby, people = seated(3)
    dispatch(lobby, people[0], "/start")
    watcher = Recorder()
    lobby.login(watcher, "watcher")
    dispatch(lobby, watcher, "/watch 1")
    with pytest.raises(BadCommand):
        dispatch(lobby, watcher, "/join 1")
    table = lobby.tables[1]
    assert watcher in table.observers and watcher.table is table
    n = len(watcher.of_type("state"))
    dispatch(lobby, people[0], "hello")
    play_until(lobby, people, ("playing",))
    assert len(watcher.of_type("state")) > n, "still sent the table's states"
    assert any(u["where"] == "table 1 (watching)" for u in lobby.who() if u["name"] == "watcher")


# ------------------------------------------------------------------ 11. names in another letter case


def test_a_returning_host_in_another_case_keeps_their_spelling_and_their_rights() -> None:
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=1)
    host, other = Recorder(), Recorder()
    lobby.login(host, "hosty")
    lobby.login(other, "other")
    dispatch(lobby, host, "/new wizard")
    dispatch(lobby, other, "/join 1")
    dispatch(lobby, host, "/bot add random")
    dispatch(lobby, host, "/option rounds 1")
    dispatch(lobby, host, "/start")
    lobby.disconnect(host)
    back = Recorder()
    lobby.login(back, "HOSTY")
    assert back.name == "hosty", "the returning player keeps the spelling they first used"
    table = lobby.tables[1]
    assert table.seats[0] is back
    assert back.last_state()["hand"], "their own hand is theirs"
    finish_game(lobby, [back, other], clock)
    dispatch(lobby, back, "/start")
    assert table.status == "playing"


def test_host_checks_ignore_letter_case() -> None:
    clock, lobby, people = seated(2)
    table = lobby.tables[1]
    table.host = "P0"  # as it would be spelled by a name typed in another case
    dispatch(lobby, people[0], "/option rounds 1")
    dispatch(lobby, people[0], "/bot add random")
    dispatch(lobby, people[0], "/start")
    assert table.status == "playing"


# ------------------------------------------------------------------ 12. a silent player holds a table for ever


def test_people_have_a_turn_clock_by_default_with_a_warning_first() -> None:
    clock, lobby, people = seated(3, rounds="1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    assert table.table_options["turn"] == 300
    game = table.game
    first = game.waiting()[0]
    clock.advance(269)
    assert not any("left for your move" in m["text"] for m in people[first].of_type("notice"))
    clock.advance(2)
    warned = [m["text"] for m in people[first].of_type("notice") if "left for your move" in m["text"]]
    assert warned and "30 s" in warned[0]
    assert game.bids[first] is None
    clock.advance(30)
    assert game.bids[first] is not None


def test_turn_off_still_switches_the_clock_off() -> None:
    clock, lobby, people = seated(3, rounds="1", turn="off")
    dispatch(lobby, people[0], "/start")
    game = lobby.tables[1].game
    first = game.waiting()[0]
    clock.advance(3600)
    assert game.bids[first] is None


def test_a_dropped_players_row_says_how_long_the_seat_is_kept() -> None:
    from mudwiz.render.common import rating_first
    from mudwiz.render.style import Style

    clock, lobby, people = seated(3, grace=120)
    dispatch(lobby, people[0], "/start")
    lobby.disconnect(people[1])
    clock.advance(20)
    dispatch(lobby, people[0], "/look")
    row = next(p for p in people[0].last_state()["players"] if p["name"] == "p1")
    assert row["away"] and row["away_for"] == 100
    assert rating_first([], row, Style(colour=False, unicode=False)) == ["away 1:40"]
    back = Recorder()
    lobby.login(back, "p1")
    assert "away_for" not in next(p for p in back.last_state()["players"] if p["name"] == "p1")


# ------------------------------------------------------------------ a table's people, found by a probe


def test_a_table_never_stays_without_a_host_who_can_start_it() -> None:
    """A host who dropped mid-game was still the host once their stand-in left at the game's end, and a table
    whose host left while someone watched gave the next to sit no host: `only the host () seats bots`."""
    clock, lobby, people = seated(3, rounds="1", confirm="1")
    dispatch(lobby, people[0], "/start")
    lobby.disconnect(people[0])
    clock.advance(31)  # past the grace: a stand-in plays the host's seat
    finish_game(lobby, people[1:], clock)
    table = lobby.tables[1]
    assert table.host == "p1" and dispatch(lobby, people[1], "/bot add") is not None
    assert "p1 is now the host." in [m["text"] for m in people[2].of_type("notice")]
    clock, lobby, people = lobby_with(3)
    dispatch(lobby, people[0], "/new wizard")
    dispatch(lobby, people[1], "/watch 1")
    dispatch(lobby, people[0], "/leave")
    assert people[1].last_state()["host"] == ""  # the watcher's view is told, not left naming p0
    dispatch(lobby, people[2], "/join 1")
    assert lobby.tables[1].host == "p2" and dispatch(lobby, people[2], "/bot add") is not None


def test_the_others_see_a_dropped_player_back_at_once() -> None:
    clock, lobby, people = seated(3)
    dispatch(lobby, people[0], "/start")
    lobby.disconnect(people[1])
    assert [p["away"] for p in people[2].last_state()["players"] if p["name"] == "p1"] == [True]
    back = Recorder()
    lobby.login(back, "p1")
    assert [p["away"] for p in people[2].last_state()["players"] if p["name"] == "p1"] == [False]


def test_a_table_whose_people_dropped_waits_for_them_and_one_left_on_purpose_closes() -> None:
    """operations.md: a table with nobody left stays open ``idle_close`` seconds when its people dropped (so a
    returning player finds it); only a waiting game's was kept so, a table not playing closed at once."""
    clock, lobby, people = lobby_with(2, idle_close=15)
    dispatch(lobby, people[0], "/new wizard")
    dispatch(lobby, people[1], "/new witches")
    lobby.disconnect(people[0])
    dispatch(lobby, people[1], "/leave")
    assert sorted(lobby.tables) == [1]
    clock.advance(16)
    assert lobby.tables == {}


def test_an_abandoned_games_stand_ins_leave_and_hold_no_name() -> None:
    clock, lobby, people = seated(1)
    dispatch(lobby, people[0], "/bot add")
    dispatch(lobby, people[0], "/bot add")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    dispatch(lobby, people[0], "/leave")  # a stand-in takes the seat, no person is left: abandoned
    lobby.disconnect(people[0])
    assert table.status == "over" and table.seat_of("p0") is None and not lobby.holds_name("p0")


def test_watching_the_table_whose_seat_is_kept_for_you_says_how_to_take_it_back() -> None:
    clock, lobby, people = seated(3)
    dispatch(lobby, people[0], "/start")
    dispatch(lobby, people[1], "/leave")
    with pytest.raises(BadCommand, match="your seat at table 1 is kept for you: /join 1 takes it back"):
        dispatch(lobby, people[1], "/watch 1")
