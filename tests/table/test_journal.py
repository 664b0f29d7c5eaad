"""The table journal on each store (a real SQLite file and a real PostgreSQL database: the ``store`` fixture) and
real tables on a fake clock: a table rebuilt from the journal in a new lobby (as after a crash) is at its last move
with its seats, host and options, its person gets the seat back by logging in, and the game finishes into one
whole record; a bad entry costs only its table; a stopped journal keeps tables as they were; a record ends its
game's journal in its own transaction."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from typing import Any

import pytest
from recorder import Recorder
from test_records import SHORT, move
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.logger import LogLevel, globalLogPublisher

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.outflow import gate
from mudwiz.ratings import RatingBoard
from mudwiz.restore import Absent, read_held, restore_tables, resume_code_of
from mudwiz.store import GameRecord, SQLiteStore, Store, StoreError
from mudwiz.store.base import held_key
from mudwiz.table import Journal, Records


def journaled_lobby(store: Store, seed: int = 11) -> tuple[Clock, Lobby]:
    clock = Clock()
    clock.advance(1_700_000_000)
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=seed, records=Records.inline(store))
    lobby.journal = Journal(store)
    return clock, lobby


def start_table(lobby: Lobby, game: str, name: str = "Alice") -> Recorder:
    alice = Recorder()
    lobby.login(alice, name)
    dispatch(lobby, alice, f"/new {game}")
    dispatch(lobby, alice, f"/option {SHORT[game]}")
    dispatch(lobby, alice, "/option turn 0")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/bot add good")
    dispatch(lobby, alice, "/start")
    return alice


def play(clock: Clock, lobby: Lobby, person: Recorder, steps: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if person.of_type("game_end"):
            return
        move(lobby, person, rng)
        clock.advance(1)


def one_round_played(clock: Clock, lobby: Lobby) -> Recorder:
    """Alice's table 1: a Wizard game of one round with two bots, played to its end."""
    alice = Recorder()
    lobby.login(alice, "Alice")
    for command in ("/new wizard", "/option rounds 1", "/bot add random", "/bot add random", "/start"):
        dispatch(lobby, alice, command)
    play(clock, lobby, alice, 2_000)
    return alice


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_a_table_comes_back_at_its_last_move_and_its_game_is_recorded_once_whole(store: Store, game: str) -> None:
    clock, lobby = journaled_lobby(store)
    alice = start_table(lobby, game)
    play(clock, lobby, alice, 5)
    before = lobby.tables[1]
    assert before.game is not None and before.in_game and len(before.game.log) > 3
    [saved] = store.open_tables()
    assert [(m["seat"], m["action"]) for m in saved.moves] == before.game.log

    clock2, lobby2 = journaled_lobby(store, seed=99)  # the server after a crash: same file, nothing else
    [table] = restore_tables(lobby2, store.open_tables())
    assert table.id == 1 and lobby2.tables == {1: table} and lobby2.table_list.next_id == 2
    assert table.game is not None and table.game.log == before.game.log and table.game.seed == before.game.seed
    assert [(s.name, type(s).__name__) for s in table.seats] == [("Alice", "Absent"), ("bot1", "BotSession"),
                                                                   ("bot2", "BotSession")]
    assert [getattr(s, "level", None) for s in table.seats] == [None, "random", "normal"]
    assert table.host == "Alice" and table.options == before.options and table.table_options["turn"] == 0
    assert table.game.view(0) == before.game.view(0)
    assert table.away_until["alice"] == clock2.seconds() + 30 and "alice" in lobby2.away
    assert isinstance(table.seats[0], Absent)

    back = Recorder()
    lobby2.login(back, "alice")  # any case: the seat keeps its spelling
    assert back.name == "Alice" and table.seats[0] is back and "alice" not in lobby2.away
    assert back.last_state()["you"] == "Alice"
    play(clock2, lobby2, back, 20_000, seed=4)
    assert back.of_type("game_end")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and record.outcome == "finished" and record.seed == before.game.seed
    assert record.log[:len(before.game.log)] == before.game.log and record.log == table.game.log
    assert record.actions[:len(before.recording.actions)] == before.recording.actions  # times as first played
    [after] = store.open_tables()  # the table stays open with its game over, recorded
    assert after.recorded and after.seed == record.seed and len(after.moves) == len(record.log)
    _, lobby3 = journaled_lobby(store)
    [again] = restore_tables(lobby3, store.open_tables())
    assert again.status == "over" and again.game is not None and again.game.finished
    assert len(store.games_of("alice")) == 1


def test_a_game_that_ended_before_its_record_was_stored_is_recorded_at_the_restore(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    lobby.records = None  # as if the server died between the last move and the record's commit
    alice = one_round_played(clock, lobby)
    assert alice.of_type("game_end") and store.games_of("alice") == []
    _, lobby2 = journaled_lobby(store)
    [table] = restore_tables(lobby2, store.open_tables())
    assert table.status == "over"
    [summary] = store.games_of("alice")
    assert summary.outcome == "finished"
    _, lobby3 = journaled_lobby(store)
    restore_tables(lobby3, store.open_tables())
    assert len(store.games_of("alice")) == 1  # recorded once: the record ended the journaled game


def test_a_finished_game_whose_seats_changed_since_comes_back_as_a_waiting_table(store: Store) -> None:
    """Bob left the table after its game: the journal still held the game, of players who were no longer the
    seats, and the restart refused the table whole, logging an error (found by a probe, after a takeover)."""
    clock, lobby = journaled_lobby(store)
    alice, bob = Recorder(), Recorder()
    lobby.login(alice, "Alice")
    lobby.login(bob, "Bob")
    for command in ("/new wizard", "/option rounds 1", "/bot add random"):
        dispatch(lobby, alice, command)
    dispatch(lobby, bob, "/join 1")
    dispatch(lobby, alice, "/start")
    play(clock, lobby, alice, 2_000)
    assert alice.of_type("game_end")
    dispatch(lobby, bob, "/leave")
    _, lobby2 = journaled_lobby(store)
    [table] = restore_tables(lobby2, store.open_tables())
    assert [s.name for s in table.seats] == ["Alice", "bot1"] and table.status == "waiting" and table.game is None
    assert len(store.games_of("alice")) == 1


def test_a_table_with_nobody_at_it_is_dropped_from_the_journal_at_a_restart(store: Store) -> None:
    """A guest opened a table and dropped: it waited for them, seatless, and a restart then refused it as a bad
    entry ('no seats'), logged as an error at every start and kept (found by a probe)."""
    _, lobby = journaled_lobby(store)
    gone = Recorder()
    lobby.login(gone, "Gone")
    dispatch(lobby, gone, "/new wizard")
    lobby.disconnect(gone)
    assert 1 in lobby.tables and not lobby.tables[1].seats  # it waits for them (MUDWIZ_IDLE_TABLE)
    [saved] = store.open_tables()
    assert saved.header["seats"] == []
    _, lobby2 = journaled_lobby(store)
    logged: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(logged.append)
    try:
        assert restore_tables(lobby2, store.open_tables()) == []
    finally:
        globalLogPublisher.removeObserver(logged.append)
    assert store.open_tables() == [] and lobby2.table_list.next_id == 2
    assert not [e for e in logged if e.get("log_level") == LogLevel.error]
    bots_only = [{"name": "bot1", "kind": "bot:random"}]
    store.save_table(5, {"game": "wizard", "host": "", "options": {}, "seats": bots_only})
    _, lobby3 = journaled_lobby(store)  # its people left, and the close was not journaled before the crash
    assert restore_tables(lobby3, store.open_tables()) == [] and store.open_tables() == []


def test_a_record_marks_the_journaled_game_recorded_only_if_it_is_that_game_by_seed_and_start(store: Store) -> None:
    """A server given ``MUDWIZ_SEED`` deals the same seeds again after a restart: a record still on its way (held
    from before) must not mark the table's next game of the same seed, whose own record a crash could then lose."""
    store.save_table(1, {"game": "wizard", "host": "Zed", "options": {}, "seats": []})
    store.start_table_game(1, 5, {"players": ["Zed"], "options": {}, "started": 100.0, "abandoned": False})

    def record(seed: int, started: float) -> GameRecord:
        return GameRecord("wizard", {}, {}, seed, [{"name": "Zed", "kind": "person"}], [], None, "abandoned",
                          started, started + 1, table_id=1)

    store.record_game(record(5, 50.0))  # the game dealt from seed 5 before the restart
    assert not store.open_tables()[0].recorded
    store.record_game(record(5, 100.0))
    assert store.open_tables()[0].recorded
    store.start_table_game(1, 6, {"players": ["Zed"], "options": {}})  # a journal from before starts were kept
    store.record_game(record(6, 7.0))
    assert store.open_tables()[0].recorded  # by seed alone, as it was


@pytest.mark.parametrize("then", ["nothing", "the next game", "the table closes"])
def test_a_record_still_on_its_way_to_the_store_when_the_process_dies_is_stored_at_the_restart_once(
        store: Store, then: str) -> None:
    """The record goes to the store's thread as the game ends; the host may start the next game (which forgets the
    last in the journal's table row) or leave (which drops the row) before that thread stores it. A crash then
    lost the game: ``kill -9`` at random moments in tests/wire/test_crash.py found it. The record is held in the journal
    from the game's end until it is stored."""
    clock, lobby = journaled_lobby(store)
    # the store's thread never gets to the record: the process dies first
    lobby.records = Records(store, lambda record: Deferred(), RatingBoard(store))
    alice = one_round_played(clock, lobby)
    table = lobby.tables[1]
    assert alice.of_type("game_end") and table.game is not None
    seed, log = table.game.seed, list(table.game.log)
    if then == "the next game":
        dispatch(lobby, alice, "/start")
        assert table.in_game and table.game.seed != seed
    elif then == "the table closes":
        dispatch(lobby, alice, "/leave")
        assert 1 not in lobby.tables and store.open_tables() == []
    store.prune_journal()  # the held record's actions are the journal's rows: pruning leaves them
    [held] = store.held_records()
    assert (held.table_id, held.seed, held.log) == (1, seed, log) and store.games_of("alice") == []

    _, lobby2 = journaled_lobby(store)  # the server after the crash
    restored = restore_tables(lobby2, store.open_tables(), store.held_records())
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and (record.seed, record.log, record.outcome) == (seed, log, "finished")
    assert store.held_records() == []
    if then == "the next game":
        [again] = restored
        assert again.in_game and again.game is not None and again.game.seed != seed
    _, lobby3 = journaled_lobby(store)
    restore_tables(lobby3, store.open_tables(), store.held_records())
    assert len(store.games_of("alice")) == 1


def test_a_held_record_is_the_claimers_with_its_table_and_goes_when_stored(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice = start_table(lobby, "wizard")
    play(clock, lobby, alice, 3)
    record = lobby.tables[1].recording.record("abandoned")
    store.save_table(2, {"game": "wizard", "host": "x", "options": {}, "seats": []}, node="north")
    store.hold_record(record, node="west")
    store.hold_record(dataclasses.replace(record, table_id=2, actions=[]), node="north")
    assert [r.table_id for r in held_records(store)] == [1, 2] and store.held_records("east") == []
    store.save_table(1, {"game": "wizard", "host": "Alice", "options": {}, "seats": []}, node="west")
    store.save_table(3, {"game": "wizard", "host": "x", "options": {}, "seats": []}, node="west")
    store.hold_record(dataclasses.replace(record, table_id=3, actions=[]), node="west")  # west's record of table 3,
    store.drop_table(3)  # which closed before the record was stored
    claim = store.claim_tables("west", "east")
    assert claim.tables == [1]  # west's open tables, and every record west held: table 3's too
    assert claim.held == sorted(held_key(r) for r in held_records(store) if r.table_id in (1, 3))
    assert [r.table_id for r in held_records(store, "east")] == [1, 3] and store.held_records("west") == []
    assert [r.table_id for r in held_records(store, "north")] == [2]
    store.record_game(record)
    assert [r.table_id for r in held_records(store)] == [2, 3]  # the same game at another table is another record


def held_records(store: Store, node: str | None = None) -> list[GameRecord]:
    """``store.held_records(node)``, every one read as a record."""
    records = store.held_records(node)
    assert all(isinstance(r, GameRecord) for r in records), records
    return [r for r in records if isinstance(r, GameRecord)]


def test_a_held_record_that_does_not_read_is_logged_and_keeps_no_other_from_the_store(store: Store) -> None:
    """One bad held row (here: its actions are not in the journal) made ``held_records`` fail whole, and every
    held record then waited for a later start, which failed the same way: none was ever stored."""
    clock, lobby = journaled_lobby(store)
    lobby.records = Records(store, lambda record: Deferred(), RatingBoard(store))  # the process dies first
    one_round_played(clock, lobby)
    [good] = store.held_records()
    assert isinstance(good, GameRecord)
    store.save_table(2, {"game": "wizard", "host": "x", "options": {}, "seats": []})
    store.hold_record(dataclasses.replace(good, table_id=2))  # table 2 journaled none of these actions
    store.drop_table(2)  # and closed
    bad = store.held_records()[1]
    assert isinstance(bad, StoreError) and "table 2 has 0 of its" in str(bad), bad
    lines: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(lines.append)
    try:
        _, lobby2 = journaled_lobby(store)  # the server after the crash
        restore_tables(lobby2, store.open_tables(), read_held(store, None))
    finally:
        globalLogPublisher.removeObserver(lines.append)
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and (record.seed, record.log) == (good.seed, good.log)
    errors = [e for e in lines if e.get("log_level") is not None and e["log_level"].name == "error"]
    assert [str(e["why"]) for e in errors] == [str(bad)]
    [left] = store.held_records()  # the bad one stays held, for someone to look at
    assert isinstance(left, StoreError)


def test_a_bad_entry_costs_its_table_only_and_says_why_in_one_line(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice = start_table(lobby, "wizard")
    play(clock, lobby, alice, 10)
    store.save_table(7, {"game": "chess", "host": "x", "options": {}, "seats": [{"name": "x", "kind": "person"}]})
    seats = [{"name": "y", "kind": "person"}, {"name": "b", "kind": "bot:random"}, {"name": "c", "kind": "bot:random"}]
    store.save_table(8, {"game": "wizard", "host": "y", "options": {}, "seats": seats})
    store.start_table_game(8, 5, {"players": ["y", "b", "c"], "options": {}, "started": 0.0, "abandoned": False})
    store.add_table_move(8, 0, 2, "bid 99", 0.0)
    lines: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(lines.append)
    try:
        _, lobby2 = journaled_lobby(store)
        restored = restore_tables(lobby2, store.open_tables())
    finally:
        globalLogPublisher.removeObserver(lines.append)
    assert [t.id for t in restored] == [1] and set(lobby2.tables) == {1} and lobby2.table_list.next_id == 9
    errors = [e for e in lines if e.get("log_level") is not None and e["log_level"].name == "error"]
    assert [e["table"] for e in errors] == [7, 8]
    assert "chess" in errors[0]["why"]
    assert errors[1]["why"].split(":")[0] in ("IllegalAction", "NotYourTurn"), errors[1]["why"]
    assert lobby2.tables[1].journal.store is store  # the restored one journals on


def test_a_stopped_journal_keeps_the_tables_as_the_server_left_them(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    lobby.grace = 0  # a drop is a leave: the worst the connections closing at a stop could do to a table
    waiting = Recorder()
    lobby.login(waiting, "Wendy")
    dispatch(lobby, waiting, "/new witches")
    dispatch(lobby, waiting, "/bot add random")
    dispatch(lobby, waiting, "/bot add random")
    player = start_table(lobby, "wizard")
    play(clock, lobby, player, 8)
    journaled = store.open_tables()
    assert [t.id for t in journaled] == [1, 2]
    assert lobby.journal is not None
    lobby.journal.stop()
    table = lobby.tables[2]
    with pytest.raises(BadCommand, match="the server is stopping"):
        table.act(player, next(c for c in player.last_state()["legal"] if c != "/ok").lstrip("/"))
    with pytest.raises(BadCommand, match="the server is stopping"):
        lobby.tables[1].start(waiting)
    lobby.disconnect(waiting)
    lobby.disconnect(player)
    assert store.open_tables() == journaled and store.games_of("alice") == []  # not recorded as abandoned
    assert not table.abandoned and table.in_game


def test_the_record_marks_its_tables_journaled_game_only_if_it_is_still_that_game(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice = start_table(lobby, "wizard")
    play(clock, lobby, alice, 10)
    table = lobby.tables[1]
    assert table.game is not None
    record = table.recording.record("abandoned")
    store.start_table_game(1, 12345, {"players": ["Alice", "bot1", "bot2"], "options": {}, "started": 0.0,
                                      "abandoned": False})  # the next game started before the record was written
    store.add_table_move(1, 0, 0, "bid 0", 1.0)
    store.record_game(record)
    [saved] = store.open_tables()
    assert saved.seed == 12345 and len(saved.moves) == 1 and not saved.recorded
    store.start_table_game(1, record.seed, {"players": ["Alice", "bot1", "bot2"], "options": {},
                                            "started": record.started, "abandoned": False})  # that game again
    store.record_game(record)
    [saved] = store.open_tables()
    assert saved.seed == record.seed and saved.recorded
    store.start_table_game(1, 777, {"players": ["Alice", "bot1", "bot2"], "options": {}, "started": 0.0,
                                    "abandoned": False})
    [saved] = store.open_tables()
    assert saved.seed == 777 and not saved.recorded and saved.moves == []


def test_a_stand_in_and_a_waiting_table_come_back_and_a_seat_not_claimed_goes_after_the_grace(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice, carol, bob = Recorder(), Recorder(), Recorder()
    for person, name in ((alice, "Alice"), (carol, "Carol"), (bob, "Bob")):
        lobby.login(person, name)
    dispatch(lobby, alice, "/new witches")  # table 1: Alice, Carol and a bot, playing
    dispatch(lobby, carol, "/join 1")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/start")
    dispatch(lobby, bob, "/new wizard")  # table 2: Bob alone, waiting
    play(clock, lobby, carol, 3)
    table = lobby.tables[1]
    table.replace_with_bot(0, "a stand-in for the test")  # as when Alice's grace ran out
    assert table.in_game and store.open_tables()[0].header["seats"][0] == {"name": "Alice", "kind": "stand-in"}

    clock2, lobby2 = journaled_lobby(store)
    restored = {t.id: t for t in restore_tables(lobby2, store.open_tables())}
    assert set(restored) == {1, 2}
    assert restored[2].status == "waiting" and [s.name for s in restored[2].seats] == ["Bob"]
    stand_in = restored[1].seats[0]
    assert stand_in.is_bot and getattr(stand_in, "stand_in", False) and stand_in.name == "Alice"
    assert restored[1].game is not None and restored[1].game.log == table.game.log  # type: ignore[union-attr]
    back = Recorder()
    lobby2.login(back, "Alice")  # her seat, from the stand-in
    assert restored[1].seats[0] is back and back.last_state()["table"] == 1
    clock2.advance(31)  # Bob's kept seat at the waiting table goes after the grace: the table closes, is forgotten
    assert 2 not in lobby2.tables and [t.id for t in store.open_tables()] == [1]


def test_a_watcher_watches_again_after_a_drop_or_a_restart_within_the_grace_and_not_after(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    alice = start_table(lobby, "wizard")
    olga = Recorder()
    lobby.login(olga, "Olga")
    dispatch(lobby, olga, "/watch 1")
    assert store.open_tables()[0].header["observers"] == ["Olga"]
    lobby.disconnect(olga)  # her connection drops
    table = lobby.tables[1]
    assert olga not in table.observers
    back = Recorder()
    lobby.login(back, "olga")
    assert back in table.observers and back.last_state()["table"] == 1 and back.last_state()["observer"]
    assert any(m["type"] == "notice" and "Olga is watching table 1" in m["text"] for m in alice.messages)
    lobby.disconnect(back)
    clock.advance(31)  # past the grace: she comes back to the lobby
    late = Recorder()
    lobby.login(late, "Olga")
    assert late.table is None and late not in table.observers

    dispatch(lobby, late, "/watch 1")  # watching when the server stops: the journal's header names her
    lobby.stopping = True
    lobby.disconnect(late)
    clock2, lobby2 = journaled_lobby(store)
    [restored] = restore_tables(lobby2, store.open_tables())
    again = Recorder()
    lobby2.login(again, "Olga")
    assert again in restored.observers and again.last_state()["observer"]
    lobby2.disconnect(again)
    clock2.advance(31)
    gone = Recorder()
    lobby2.login(gone, "Olga")
    assert gone.table is None


def test_a_guests_resume_code_is_kept_with_the_seat_where_the_lobby_has_them(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, resume_code_of(lobby))
    alice = start_table(lobby, "wizard")
    code = lobby.resume_codes["alice"]  # given at her login, as a guest
    play(clock, lobby, alice, 2)
    assert store.open_tables()[0].header["seats"][0] == {"name": "Alice", "kind": "person", "resume": code}
    _, lobby2 = journaled_lobby(store)
    restore_tables(lobby2, store.open_tables())
    assert lobby2.resume_codes == {"alice": code}
    _, without = journaled_lobby(store)  # a lobby with no resume codes restores the table all the same
    assert [t.id for t in restore_tables(without, store.open_tables())] == [1]


def test_a_guest_whose_seat_a_stand_in_plays_keeps_their_code_over_a_restart(store: Store) -> None:
    """A guest who left (or whose grace ran out) has a stand-in in their seat, and the seat is still theirs: only
    their resume code takes it back. The journal kept the code with people's seats only, so after a restart
    anyone who typed the name got the seat, and a new code (found by a probe)."""
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, resume_code_of(lobby))
    alice, bob = Recorder(), Recorder()
    lobby.login(alice, "Alice")
    lobby.login(bob, "Bob")  # stays: a table of bots alone would close
    dispatch(lobby, alice, "/new wizard")
    dispatch(lobby, alice, f"/option {SHORT['wizard']}")
    dispatch(lobby, alice, "/option turn 0")
    dispatch(lobby, bob, "/join 1")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/start")
    code = lobby.resume_codes["alice"]
    dispatch(lobby, alice, "/leave")  # mid-game: a stand-in plays her seat, kept for her
    lobby.disconnect(alice)
    assert store.open_tables()[0].header["seats"][0] == {"name": "Alice", "kind": "stand-in", "resume": code}
    _, lobby2 = journaled_lobby(store)
    restore_tables(lobby2, store.open_tables())
    assert lobby2.resume_codes["alice"] == code and lobby2.needs_resume_code("ALICE")  # the login asks for it


def test_a_guest_watchers_name_is_held_with_the_watch_and_their_code_kept_over_a_restart(store: Store) -> None:
    """A watch kept for a guest holds their name as a kept seat does: whoever takes it must give their resume code,
    until the grace is over; the journal keeps the code with the watcher's name, so a restart keeps it too."""
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, resume_code_of(lobby))
    start_table(lobby, "wizard")
    olga = Recorder()
    lobby.login(olga, "Olga")
    code = lobby.resume_codes["olga"]
    dispatch(lobby, olga, "/watch 1")
    assert store.open_tables()[0].header["observers"] == [{"name": "Olga", "resume": code}]
    lobby.disconnect(olga)
    assert lobby.holds_name("OLGA") and lobby.needs_resume_code("olga")
    clock.advance(31)  # the grace is over: the name is anyone's again
    assert not lobby.holds_name("olga") and not lobby.needs_resume_code("olga")
    someone = Recorder()
    lobby.login(someone, "Olga")
    assert someone.table is None and lobby.resume_codes["olga"] != code  # a new guest's name, with a code of its own

    dispatch(lobby, someone, "/watch 1")
    newer = lobby.resume_codes["olga"]
    lobby.stopping = True
    lobby.disconnect(someone)
    clock2, lobby2 = journaled_lobby(store)
    restore_tables(lobby2, store.open_tables())
    assert lobby2.resume_codes["olga"] == newer and lobby2.needs_resume_code("Olga")
    clock2.advance(31)
    assert not lobby2.needs_resume_code("Olga")


def test_a_watcher_who_dropped_just_before_a_restart_watches_again_after_it(store: Store) -> None:
    """Dropped a moment before the server stopped: their watch was kept but they were no longer watching, so the
    journal's header no longer named them and the restart lost their watch (found by a probe). The header names
    the watchers whose watch is kept, while it is."""
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, resume_code_of(lobby))
    alice = start_table(lobby, "wizard")
    olga = Recorder()
    lobby.login(olga, "Olga")
    code = lobby.resume_codes["olga"]
    dispatch(lobby, olga, "/watch 1")
    lobby.disconnect(olga)  # her connection drops; the server stops a moment later
    assert store.open_tables()[0].header["observers"] == [{"name": "Olga", "resume": code}]
    lobby.stopping = True
    lobby.disconnect(alice)
    clock2, lobby2 = journaled_lobby(store)
    [restored] = restore_tables(lobby2, store.open_tables())
    assert lobby2.needs_resume_code("olga") and lobby2.resume_codes["olga"] == code
    again = Recorder()
    lobby2.login(again, "Olga")
    assert again in restored.observers and again.last_state()["observer"]
    assert restored.roster.watch_until == {}
    clock.advance(31)  # past the grace, a header names no watcher whose watch was given up
    assert lobby.tables[1].journal.header().get("observers") is None


def test_grouped_moves_wait_for_one_commit_that_writes_them_all(store: Store) -> None:
    """A running server's journal (``grouped``) keeps a turn's moves until ``commit``, which runs before any
    output leaves (mudwiz/outflow.py): two tables' moves then go in one transaction, and come back as ever."""
    clock, lobby = journaled_lobby(store)
    lobby.journal.grouped = True  # type: ignore[union-attr]
    people = [start_table(lobby, "wizard"), start_table(lobby, "witches", "Bob")]
    for person in people:
        play(clock, lobby, person, 4)
    logs = {t.id: list(t.game.log) for t in lobby.tables.values() if t.game is not None}
    assert all(logs.values()) and lobby.journal.pending  # type: ignore[union-attr]
    assert all(len(saved.moves) < len(logs[saved.id]) for saved in store.open_tables()), "not written yet"
    lobby.journal.commit()  # type: ignore[union-attr]
    assert {saved.id: [(m["seat"], m["action"]) for m in saved.moves] for saved in store.open_tables()} == logs
    _, lobby2 = journaled_lobby(store)
    restored = restore_tables(lobby2, store.open_tables())
    assert {t.id: t.game.log for t in restored if t.game is not None} == logs


def test_a_failed_group_commit_is_written_again_with_the_tables_next_move(tmp_path: Any) -> None:
    """All of a commit's moves or none (here SQLite refuses one, as a full disk would): the game goes on, and each
    table's journal writes its unwritten moves again with its next one, so none is missing or out of place."""
    store = SQLiteStore(tmp_path / "mudwiz.sqlite")
    clock, lobby = journaled_lobby(store)
    lobby.journal.grouped = True  # type: ignore[union-attr]
    alice = start_table(lobby, "wizard")
    lobby.journal.commit()  # type: ignore[union-attr]
    with sqlite3.connect(store.path) as db:  # another program's doing, on the real file
        db.execute("CREATE TRIGGER refuse BEFORE INSERT ON table_moves WHEN NEW.n = 3 "
                   "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    play(clock, lobby, alice, 3)
    logged: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(logged.append)
    try:
        lobby.journal.commit()  # type: ignore[union-attr]
    finally:
        globalLogPublisher.removeObserver(logged.append)
    assert any("NOT written" in e.get("log_format", "") for e in logged)
    [saved] = store.open_tables()
    assert len(saved.moves) < 4, "the whole group was refused"
    with sqlite3.connect(store.path) as db:
        db.execute("DROP TRIGGER refuse")
    play(clock, lobby, alice, 1)
    lobby.journal.commit()  # type: ignore[union-attr]
    [saved] = store.open_tables()
    assert [(m["seat"], m["action"]) for m in saved.moves] == lobby.tables[1].game.log  # type: ignore[union-attr]


def test_a_games_last_moves_are_journaled_before_its_record_is_kept(store: Store) -> None:
    """On a running server the journal commits a turn's moves together (``grouped``, before any output), and the
    record goes to the store's thread at once: a record kept before its game's last moves were committed, and a
    crash between the two, replayed the game to its end after the restart and recorded it twice. The record now
    waits for the commit."""
    clock = Clock()
    clock.advance(1_700_000_000)
    seen: list[tuple[int, int]] = []  # at each record: the journaled moves, the game's
    inline = Records.inline(store)

    def keep(record: Any) -> Any:
        [saved] = store.open_tables()
        [table] = [t for t in lobby.tables.values() if t.game is not None]
        seen.append((len(saved.moves), len(table.game.log)))
        return inline.keep(record)

    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records(store, keep, inline.board))
    lobby.journal = Journal(store)
    lobby.journal.grouped = True
    ungate = gate(lobby.journal.commit)
    try:
        alice = start_table(lobby, "wizard")
        play(clock, lobby, alice, 500)
    finally:
        ungate()
    assert alice.of_type("game_end"), "the game was played to its end"
    assert len(seen) == 1 and seen[0][0] == seen[0][1] > 0, seen


def test_a_restart_at_a_round_end_waits_for_its_people_to_see_the_result(store: Store) -> None:
    """Restored at a round end, with everyone away, the round was dealt at a bot's pace: nobody saw its result
    or typed /ok (found by a probe). It waits for them now, at most the confirm clock."""
    clock, lobby = journaled_lobby(store)
    alice = Recorder()
    lobby.login(alice, "Alice")
    for command in ("/new wizard", "/option rounds 2", "/option confirm 60", "/bot add random", "/bot add random",
                    "/start"):
        dispatch(lobby, alice, command)
    rng = random.Random(3)
    while lobby.tables[1].game.phase != "roundend":  # type: ignore[union-attr]
        move(lobby, alice, rng)
        clock.advance(1)
    clock2, lobby2 = journaled_lobby(store)
    [table] = restore_tables(lobby2, store.open_tables())
    clock2.advance(10)
    assert table.game is not None and table.game.phase == "roundend"  # nobody is back: the round is not dealt
    back = Recorder()
    lobby2.login(back, "Alice")
    clock2.advance(20)
    assert table.game.phase == "roundend" and "/ok" in back.last_state()["legal"]
    dispatch(lobby2, back, "/ok")
    assert table.game.phase != "roundend"
    clock3, lobby3 = journaled_lobby(store)
    [again] = restore_tables(lobby3, store.open_tables())
    assert again.game is not None and again.game.phase != "roundend"
