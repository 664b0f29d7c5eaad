"""Swiss tournaments on a fake clock with real tables and a real store (SQLite and PostgreSQL: ``store``): the
pairing and points as documented, a whole tournament of 7 registered players and a bot at tables of 4 run to its
end by the server (the people away have their seats played by stand-ins, which score for them), the standings
published and kept, a restart between rounds carrying on with nothing counted twice, and bad input refused."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby, MeetingSettings
from mudwiz.meeting.swiss import met_pairs, pair, place_points, repeats, standings
from mudwiz.restore import restore_tables
from mudwiz.seasons import season_of
from mudwiz.store import Store
from mudwiz.table import Journal, Records

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus"]


def test_points_by_place_share_ties_and_a_bot_scores_for_nobody() -> None:
    assert place_points([1, 2, 3, 4]) == [4, 2, 1, 0]
    assert place_points([1, 1, 3, 4]) == [3, 3, 1, 0]
    assert place_points([1, 2, 2, 4]) == [4, 1.5, 1.5, 0]
    assert place_points([1, 2, 3]) == [2, 1, 0]
    rows = standings(["a", "b", "c"], [{"a": (2, 10), "b": (1, 20), "c": (3, 5), "bot1": (4, 0)}])
    assert [(r.name, r.points, r.firsts) for r in rows] == [("b", 4, 1), ("a", 2, 0), ("c", 1, 0)]
    assert rows[0].buchholz == 3  # a's 2 and c's 1


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_place_points_always_hand_out_the_same_total(raw: list[int]) -> None:
    n = len(raw)
    order = sorted(raw)
    places = [1 + sum(1 for other in order if other < value) for value in raw]  # ties share the better place
    assert sum(place_points(places)) == pytest.approx(sum(place_points(list(range(1, n + 1)))))


def test_pairing_seats_similar_scores_together_and_avoids_old_opponents() -> None:
    first = pair(NAMES, {}, {}, set(), 4)
    assert [len(t) for t in first.tables] == [4, 3] and first.bots == 1
    points = {"Ann": 4, "Eve": 4, "Ben": 2, "Fay": 2}
    second = pair(NAMES, points, {}, met_pairs(first.tables), 4)
    assert sum(repeats(t, met_pairs(first.tables)) for t in second.tables) < \
        sum(repeats(t, met_pairs(first.tables)) for t in first.tables)
    assert {"Ann", "Eve"} <= set(second.tables[0])  # the leaders play each other
    assert sorted(itertools.chain(*second.tables)) == sorted(NAMES)


def lobby_of(store: Store) -> tuple[Clock, Lobby]:
    clock = Clock()
    clock.advance(1_700_000_000)
    lobby = Lobby(clock, grace=5, bot_delay=0.01, seed=3, records=Records.inline(store),
                  meeting=MeetingSettings(tournaments="registered"))
    lobby.journal = Journal(store)
    return clock, lobby


def signed_up(lobby: Lobby) -> list[Recorder]:
    people = []
    for name in NAMES:
        person = Recorder()
        lobby.login(person, name, registered=True)
        people.append(person)
    reply = dispatch(lobby, people[0], "/tournament new wizard swiss 2 rounds=1 turn=0 start in 1")
    assert reply == "tournament 1 is open: it starts in 1 min"
    for person in people:
        assert str(dispatch(lobby, person, "/tournament join 1")).startswith("you are signed up")
    return people


def run(clock: Clock, lobby: Lobby, seconds: float) -> None:
    for _ in range(int(seconds * 10)):
        clock.advance(0.1)


def test_a_swiss_tournament_runs_to_its_end_and_is_kept(store: Store) -> None:
    clock, lobby = lobby_of(store)
    people = signed_up(lobby)
    for person in people[1:]:
        lobby.disconnect(person)  # away: their seats are kept, then played by stand-ins that score for them
    ann = people[0]
    run(clock, lobby, 61)
    assert any("Tournament 1, round 1 of 2: you play at table" in m["text"] for m in ann.of_type("notice"))
    for _ in range(3000):  # Ann plays her own moves
        tournament = lobby.tournaments.live.get(1)
        if tournament is None:
            break
        state = ann.last_state() if ann.of_type("state") else None
        if state and state["legal"] and state["legal"][0] != "/start" and ann.table is not None:
            try:
                dispatch(lobby, ann, state["legal"][0])
            except BadCommand:
                pass
        if ann.table is not None and not ann.table.in_game:
            dispatch(lobby, ann, "/leave")
        clock.advance(0.1)
    status, state = store.tournament(1)
    assert status == "finished" and state["round"] == 2 and len(state["tables"]) == 2
    for rnd in state["tables"]:
        seated = [n for t in rnd for n in t["seats"] if n not in t["bots"]]
        assert sorted(seated) == sorted(NAMES) and sum(len(t["bots"]) for t in rnd) == 1
        assert all(t["result"] for t in rnd)
    rows = state["standings"]
    assert sorted(r["name"] for r in rows) == sorted(NAMES) and state["winner"] == rows[0]["name"]
    total = sum(r["points"] for r in rows)
    assert 2 * (14 - 4) <= total <= 2 * 14  # 7 points a table a round, less what the bot took
    assert any(f"Tournament 1 (Wizard) is over: won by {state['winner']}" in m["text"] for m in ann.of_type("notice"))
    season = {row[0]: row[1] for row in store.season_table(season_of(clock.seconds(), "month"), "wizard", 10)}
    assert all(season[r["name"]] >= r["points"] for r in rows), "its points count in the season"
    dispatch(lobby, ann, "/tournament 1")
    shown = ann.of_type("tournament")[-1]
    assert shown["status"] == "finished" and [r["name"] for r in shown["standings"]] == [r["name"] for r in rows]
    dispatch(lobby, ann, "/tournaments")
    assert ann.of_type("tournaments")[-1]["tournaments"][0]["winner"] == state["winner"]


def test_a_restart_between_rounds_carries_on_with_nothing_counted_twice(store: Store) -> None:
    clock, lobby = lobby_of(store)
    for person in signed_up(lobby):
        lobby.disconnect(person)
    run(clock, lobby, 61)
    for _ in range(3000):
        status, state = store.tournament(1)
        if state["next_round_at"] is not None:
            break
        clock.advance(0.1)
    assert state["round"] == 1 and all(t["result"] for t in state["tables"][0])
    first_round = state["tables"][0]

    clock2, lobby2 = lobby_of(store)  # the server after a kill -9: the same store, nothing else
    clock2.advance(state["next_round_at"] - clock2.seconds() - 1)
    restore_tables(lobby2, store.open_tables())
    assert 1 in lobby2.tournaments.live
    run(clock2, lobby2, 3)
    for _ in range(6000):
        status, state = store.tournament(1)
        if status == "finished":
            break
        clock2.advance(0.1)
    assert status == "finished" and state["tables"][0] == first_round and len(state["tables"]) == 2


def test_bad_input_is_refused_in_one_line_and_nothing_is_made(store: Store) -> None:
    clock, lobby = lobby_of(store)
    ann, gus = Recorder(), Recorder()
    lobby.login(ann, "Ann", registered=True)
    lobby.login(gus, "Gus")
    for command, why in (("/tournament new chess swiss 2", "there is no game chess"),
                         ("/tournament new wizard knockout 2", "usage: /tournament new"),
                         ("/tournament new wizard swiss 0", "1 to 20 rounds"),
                         ("/tournament new wizard swiss 2 size 9", "Wizard is played by 3 to 6 a table"),
                         ("/tournament new wizard swiss 2 start at 00:00", "has passed today"),
                         ("/tournament new wizard swiss 2 rounds=x", "nothing was made"),
                         ("/tournament 5", "there is no tournament 5"),
                         ("/tournament join 1", "there is no tournament 1")):
        with pytest.raises(BadCommand, match=why):
            dispatch(lobby, ann, command)
    assert store.tournaments(("open", "running", "finished")) == []
    dispatch(lobby, ann, "/tournament new wizard swiss 1")
    with pytest.raises(BadCommand, match="tournaments are for registered players"):
        dispatch(lobby, gus, "/tournament join 1")
    with pytest.raises(BadCommand, match="only a sysop opens tournaments"):
        dispatch(lobby, gus, "/tournament new wizard swiss 1")
    dispatch(lobby, ann, "/tournament join 1")
    run(clock, lobby, 601)  # one player at the start: called off
    assert store.tournament(1)[0] == "called off"
    with pytest.raises(BadCommand, match="has ended"):
        dispatch(lobby, ann, "/tournament join 1")


def test_the_standings_and_the_list_read_at_80_columns(store: Store) -> None:
    from mudwiz.render.ansi import Presenter
    from mudwiz.render.style import Style

    clock, lobby = lobby_of(store)
    for person in signed_up(lobby):
        lobby.disconnect(person)
    run(clock, lobby, 61)
    reader = Recorder()
    lobby.login(reader, "Reader")
    dispatch(lobby, reader, "/tournament 1")
    dispatch(lobby, reader, "/tournaments")
    presenter = Presenter(Style(colour=False))
    shown = presenter.lines(reader.of_type("tournament")[-1])
    assert "Tournament 1: Wizard, Swiss, 2 rounds, tables of 4" in shown[0]
    assert any("round 1 of 2" in line for line in shown) and any("(bot)" in line for line in shown)
    listing = presenter.lines(reader.of_type("tournaments")[-1])
    assert any("wizard" in line and "7 players" in line and "round 1 of 2" in line for line in listing)
    assert all(len(line) <= 80 for line in shown + listing)


def test_numbers_that_are_not_plain_digits_are_refused_in_one_line(store: Store) -> None:
    clock, lobby = lobby_of(store)
    ann = Recorder()
    lobby.login(ann, "Ann", registered=True)
    for command, why in (("/tournament new wizard swiss ²", "usage: /tournament new"),
                         ("/tournament new wizard swiss 2 size ²", "Wizard is played by 3 to 6 a table"),
                         ("/tournament new wizard swiss 2 start in ³", "start in MINUTES"),
                         ("/tournament new wizard swiss 2 start at ²:00", "start in MINUTES"),
                         ("/tournament ²", "usage: /tournament ID"),
                         ("/pager ²", "usage: /pager on|off|ROWS")):
        with pytest.raises(BadCommand, match=why):  # superscripts are digits to str.isdigit, not to int()
            dispatch(lobby, ann, command)
