"""Game records made by real tables on a fake clock into a real SQLite file: finished and abandoned games, each
replayed from its exported record to the same standings, and what /history and /game show of them."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from recorder import Recorder
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from wire import pick_command

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.games import game_class
from mudwiz.lobby import Lobby
from mudwiz.ratings import recompute
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import WIDTH, Style, strip_ansi, visible_len
from mudwiz.store import SQLiteStore, open_store
from mudwiz.table import Records

SHORT = {"wizard": "rounds 2", "witches": "hands 2", "tiltowait": "hands 2"}


def lobby_on(tmp_path: Path) -> tuple[Clock, Lobby, SQLiteStore]:
    clock = Clock()
    clock.advance(1_700_000_000)  # a date, as a real clock would have
    store = open_store(tmp_path)
    return clock, Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records.inline(store)), store


def seat_person_and_bots(lobby: Lobby, game: str) -> Recorder:
    alice = Recorder()
    lobby.login(alice, "Alice")
    dispatch(lobby, alice, f"/new {game}")
    dispatch(lobby, alice, f"/option {SHORT[game]}")
    for _ in range(2):
        dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/start")
    return alice


def move(lobby: Lobby, person: Recorder, rng: random.Random) -> None:
    """One random legal move of ``person``'s latest state, if it has one."""
    state = person.last_state()
    legal = [c for c in state["legal"] if c != "/start"]
    if not legal:
        return
    cmd = pick_command(legal, rng)
    if cmd == "/pass":
        cmd = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
    dispatch(lobby, person, cmd)


def play_out(clock: Clock, lobby: Lobby, person: Recorder, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(20_000):
        if person.of_type("game_end"):
            return
        move(lobby, person, rng)
        clock.advance(1)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_a_finished_game_is_recorded_and_its_export_replays_to_the_same_standings(tmp_path: Path,
                                                                                 game: str) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    started = clock.seconds()
    alice = seat_person_and_bots(lobby, game)
    play_out(clock, lobby, alice)
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None
    assert (record.game, record.outcome, record.started) == (game, "finished", started)
    assert record.seats == [{"name": "Alice", "kind": "person"}, {"name": "bot1", "kind": "bot:random"},
                            {"name": "bot2", "kind": "bot:random"}]
    table = lobby.tables[1]
    assert table.game is not None and record.seed == table.game.seed and record.options == table.game.options
    assert record.table_options == table.table_options
    assert record.log == table.game.log and any(seat is None for seat, _ in record.log)  # round ends too
    times = [a["t"] for a in record.actions]
    assert times == sorted(times) and times[-1] > 0
    assert record.ended == record.started + times[-1]  # the last move ended the game
    assert record.standings == alice.of_type("game_end")[-1]["standings"]
    exported = json.loads(json.dumps(record.to_dict()))  # what `mudwiz export` prints
    replayed, _ = game_class(exported["game"]).replay(
        [s["name"] for s in exported["seats"]], exported["options"], exported["seed"],
        [(a["seat"], a["action"]) for a in exported["actions"]])
    assert replayed.finished
    assert replayed.view(None)["standings"] == exported["standings"]


def test_an_abandoned_game_is_recorded_with_its_moves_and_its_people_placed_below_the_bots(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    rng = random.Random(3)
    for _ in range(6):
        move(lobby, alice, rng)
        clock.advance(1)
    table = lobby.tables[1]
    assert table.game is not None and len(table.game.log) >= 3
    log = list(table.game.log)
    table.game.scores[0] = 90  # Alice leads by far: leaving still places her last
    reply = dispatch(lobby, alice, "/leave")  # the last person leaves: a stand-in takes the seat, it is abandoned
    assert reply == "you leave table 1: nobody is left, so the game is abandoned"  # a guest: no rating to speak of
    [summary] = store.games_of("ALICE")
    record = store.game(summary.id)
    assert record is not None and record.outcome == "abandoned"
    assert [s["kind"] for s in record.seats] == ["stand-in", "bot:random", "bot:random"]
    assert record.standings is not None and record.standings[-1] == {"player": "Alice", "score": 90, "place": 3}
    bots = [r for r in record.standings if r["player"] != "Alice"]
    assert [r["score"] for r in bots] == sorted((r["score"] for r in bots), reverse=True)
    assert all(r["place"] == 1 + sum(o["score"] > r["score"] for o in bots) for r in bots)
    assert record.log == log
    replayed, _ = game_class("wizard").replay(record.players, record.options, record.seed, record.log)
    assert replayed.log == log and not replayed.finished


def registered(lobby: Lobby, store: SQLiteStore, name: str) -> Recorder:
    store.create_account(name, "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")  # never checked here
    person = Recorder()
    lobby.login(person, name, registered=True)
    return person


def test_leaving_a_rated_game_last_does_not_dodge_its_loss(tmp_path: Path) -> None:
    """docs/accounts.md: leaving does not dodge a loss. The last person to leave ended the game (abandoned, as
    nobody plays it), and an abandoned game changed nobody's rating: leaving a game going badly undid its loss."""
    clock, lobby, store = lobby_on(tmp_path)
    alice = registered(lobby, store, "Alice")
    for cmd in ("/new wizard", "/option rounds 2", "/bot add good", "/bot add good", "/start"):
        dispatch(lobby, alice, cmd)
    rng = random.Random(4)
    while len(lobby.tables[1].game.log) < 4:  # type: ignore[union-attr]
        move(lobby, alice, rng)
        clock.advance(1)
    assert dispatch(lobby, alice, "/leave") == ("you leave table 1: nobody is left, so the game is abandoned; it "
                                                "counts for your rating as it stood, you placed below the bots")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and record.outcome == "abandoned" and record.standings is not None
    assert next(r["place"] for r in record.standings if r["player"] == "Alice") == 3
    rating = store.rating("Alice", "wizard")
    assert rating is not None and rating.games == 1 and rating.shown < 1000  # last behind two good bots: a loss
    assert recompute([record], {"alice"})[("alice", "wizard")] == rating  # the record alone gives it again
    dispatch(lobby, alice, "/history")
    assert "left 3/3" in "\n".join(lines_of(alice.of_type("history")[-1]))
    dispatch(lobby, alice, f"/game {summary.id}")
    text = " ".join(" ".join(strip_ansi(line) for line in lines_of(alice.of_type("game")[-1])).split())
    assert "It counts as it stood, those who left placed below the bots." in text and "Final standings" in text


def test_a_game_left_before_any_move_counts_all_the_same(tmp_path: Path) -> None:
    """Left before any move, a game counted for nothing: a player could look at a hand, leave, and deal again."""
    clock, lobby, store = lobby_on(tmp_path)
    alice = registered(lobby, store, "Alice")
    for cmd in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        dispatch(lobby, alice, cmd)
    assert dispatch(lobby, alice, "/leave") == ("you leave table 1: nobody is left, so the game is abandoned; it "
                                                "counts for your rating as it stood, you placed below the bots")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and record.outcome == "abandoned" and not record.log
    assert record.standings is not None and record.standings[-1] == {"player": "Alice", "score": 0, "place": 3}
    rating = store.rating("Alice", "wizard")
    assert rating is not None and rating.games == 1


def test_the_people_of_a_game_without_bots_are_placed_by_score_and_not_told_of_bots(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = registered(lobby, store, "Alice")
    bob = Recorder()
    lobby.login(bob, "Bob")
    carol = Recorder()
    lobby.login(carol, "Carol")
    dispatch(lobby, alice, "/new witches")
    for person in (bob, carol):
        dispatch(lobby, person, "/join 1")
    dispatch(lobby, alice, "/start")
    game = lobby.tables[1].game
    assert game is not None
    game.scores[:] = [20, 0, 7]  # Witches: the fewest points win
    dispatch(lobby, bob, "/leave")
    dispatch(lobby, carol, "/leave")
    assert dispatch(lobby, alice, "/leave") == ("you leave table 1: nobody is left, so the game is abandoned; it "
                                                "counts for your rating as it stood")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None and [(r["player"], r["place"]) for r in record.standings or []] == [
        ("Bob", 1), ("Carol", 2), ("Alice", 3)]
    dispatch(lobby, alice, f"/game {summary.id}")
    text = " ".join(" ".join(strip_ansi(line) for line in lines_of(alice.of_type("game")[-1])).split())
    assert "It counts as it stood." in text and "below the bots" not in text


def test_everyone_who_left_is_placed_below_the_bots_and_among_themselves_by_score(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = registered(lobby, store, "Alice")
    bob = Recorder()
    lobby.login(bob, "Bob")
    for cmd in ("/new wizard", "/option rounds 2", "/bot add random", "/start"):
        if cmd == "/start":
            dispatch(lobby, bob, "/join 1")
        dispatch(lobby, alice, cmd)
    rng = random.Random(6)
    game = lobby.tables[1].game
    assert game is not None
    while len(game.log) < 3:
        move(lobby, alice, rng)
        move(lobby, bob, rng)
        clock.advance(1)
    assert dispatch(lobby, alice, "/leave") == ("you leave table 1: a bot plays your seat (/join 1 takes it back); "
                                                "the game still counts for your rating")
    clock.advance(1)
    game.scores[:] = [40, 10, 90]  # Alice, the bot, Bob: the bot last by score, yet above both who left
    assert dispatch(lobby, bob, "/leave") == "you leave table 1: nobody is left, so the game is abandoned"
    [summary] = store.games_of("bob")
    record = store.game(summary.id)
    assert record is not None and record.standings == [
        {"player": "bot1", "score": 10, "place": 1}, {"player": "Bob", "score": 90, "place": 2},
        {"player": "Alice", "score": 40, "place": 3}]
    rating = store.rating("Alice", "wizard")
    assert rating is not None and rating.games == 1 and store.rating("Bob", "wizard") is None  # a guest


def test_a_game_is_recorded_once_and_each_new_game_again(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    play_out(clock, lobby, alice)
    dispatch(lobby, alice, "/leave")  # leaving a finished game abandons nothing
    assert len(store.games_of("alice")) == 1
    alice.messages.clear()
    dispatch(lobby, alice, "/new wizard")
    dispatch(lobby, alice, "/option rounds 1")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/start")
    play_out(clock, lobby, alice)
    assert len(store.games_of("alice")) == 2


def lines_of(message: dict[str, object]) -> list[str]:
    lines = Presenter(Style()).lines(message)  # type: ignore[arg-type]
    assert all(visible_len(line) <= WIDTH for line in lines), lines
    return lines


def test_history_and_game_show_the_records_in_80_columns(tmp_path: Path) -> None:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    play_out(clock, lobby, alice)
    dispatch(lobby, alice, "/leave")
    dispatch(lobby, alice, "/new witches")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/bot add random")
    dispatch(lobby, alice, "/start")
    dispatch(lobby, alice, "/leave")  # abandoned at once
    bob = Recorder()
    lobby.login(bob, "bob")

    dispatch(lobby, bob, "/history ALICE")
    history = bob.of_type("history")[-1]
    assert history["name"] == "ALICE"
    abandoned, finished = history["games"]
    assert (abandoned["game"], abandoned["outcome"], abandoned["place"]) == ("witches", "abandoned", 3)
    assert (finished["game"], finished["outcome"]) == ("wizard", "finished")
    wizard = store.game(finished["id"])
    assert wizard is not None and wizard.standings is not None
    mine = next(r for r in wizard.standings if r["player"] == "Alice")
    assert finished["place"] == mine["place"]
    assert finished["date"] == "2023-11-14T" + finished["date"][11:] and finished["date"].endswith("Z")
    assert {p["name"]: p["score"] for p in finished["players"]} == {r["player"]: r["score"] for r in wizard.standings}
    text = "\n".join(lines_of(history))
    assert f"#{finished['id']}" in text and "left 3/3" in text and f"place {mine['place']}/3" in text

    dispatch(lobby, bob, "/history")
    assert bob.of_type("history")[-1]["games"] == []
    assert "  No games recorded for bob." in lines_of(bob.of_type("history")[-1])

    dispatch(lobby, bob, f"/game {finished['id']}")
    shown = bob.of_type("game")[-1]
    assert shown["standings"] == wizard.standings and len(shown["sheet"]) == 2  # rounds 2
    assert [p["score"] for p in shown["players"]] == [
        next(r["score"] for r in wizard.standings if r["player"] == s["name"]) for s in wizard.seats]
    text = "\n".join(lines_of(shown))
    assert "Score sheet" in text and "Final standings" in text and "bot1 (bot random)" in text

    dispatch(lobby, bob, f"/game {abandoned['id']}")
    assert "Abandoned" in "\n".join(lines_of(bob.of_type("game")[-1]))
    with pytest.raises(Exception, match="there is no game 999"):
        dispatch(lobby, bob, "/game 999")
    with pytest.raises(Exception, match="usage: /game ID"):
        dispatch(lobby, bob, "/game x")


def test_a_damaged_game_row_costs_that_game_only_and_says_so_in_one_line(tmp_path: Path) -> None:
    """A game row whose standings were no JSON made /history, /game and /replay 'internal error' for everyone in
    it (a critical traceback logged each time) and ``mudwiz export`` die with a traceback (found by a probe)."""
    import sqlite3
    import subprocess
    import sys

    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    play_out(clock, lobby, alice)
    [summary] = store.games_of("alice")
    with sqlite3.connect(tmp_path / "mudwiz.db") as db:
        db.execute("UPDATE games SET standings = '{bad' WHERE id = ?", (summary.id,))
    dispatch(lobby, alice, "/history")
    [listed] = alice.of_type("history")[-1]["games"]
    assert (listed["id"], listed["outcome"]) == (summary.id, "damaged")
    assert f"#{summary.id}" in "\n".join(lines_of(alice.of_type("history")[-1]))
    assert " damaged " in "\n".join(lines_of(alice.of_type("history")[-1]))  # it read "place None/3"
    for command in (f"/game {summary.id}", f"/replay {summary.id}", f"/replay {summary.id} 3"):
        with pytest.raises(BadCommand, match=f"game {summary.id} is damaged in the database"):  # one line, no
            dispatch(lobby, alice, command)  # traceback: a StoreError here was an internal error
    done = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", str(summary.id), "--data", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "is damaged" in done.stderr, done.stderr


def test_without_a_store_the_commands_say_so() -> None:
    lobby = Lobby(Clock(), seed=1)
    alice = Recorder()
    lobby.login(alice, "alice")
    with pytest.raises(Exception, match="keeps no game records"):
        dispatch(lobby, alice, "/history")


def test_a_record_the_store_cannot_take_is_logged_whole_and_the_table_goes_on(tmp_path: Path) -> None:
    from twisted.logger import formatEvent, globalLogPublisher

    clock, lobby, store = lobby_on(tmp_path)
    logged: list[str] = []

    def observe(event: dict[str, object]) -> None:
        logged.append(formatEvent(event))

    globalLogPublisher.addObserver(observe)
    try:
        alice = seat_person_and_bots(lobby, "wizard")
        store.close()  # as good as a disk that refuses every write from now on
        play_out(clock, lobby, alice)
    finally:
        globalLogPublisher.removeObserver(observe)
    [line] = [text for text in logged if "game record NOT stored" in text]
    assert str(tmp_path / "mudwiz.db") in line
    record = json.loads(line.split("; the record: ", 1)[1])
    assert record["outcome"] == "finished" and record["standings"] == alice.of_type("game_end")[-1]["standings"]
    assert lobby.tables[1].status == "over"


def queued_reads(tmp_path: Path) -> tuple[Clock, Lobby, SQLiteStore, list[tuple[Callable[[], Any], Deferred[Any]]]]:
    """A lobby whose records are written inline but read again (``Records.read``) only when the test says."""
    clock = Clock()
    clock.advance(1_700_000_000)
    store = open_store(tmp_path)
    inline = Records.inline(store)
    reads: list[tuple[Callable[[], Any], Deferred[Any]]] = []

    def queued(read: Callable[[], Any]) -> Deferred[Any]:
        done: Deferred[Any] = Deferred()
        reads.append((read, done))
        return done

    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11,
                  records=Records(store, inline.keep, inline.board, read=queued))
    return clock, lobby, store, reads


def test_a_game_that_moves_no_rating_sends_nothing_more_once_its_ratings_are_read(tmp_path: Path) -> None:
    """A guest's game with bots: the ratings read again after it changed nothing, so no state is sent again (200
    tables' worth of states at once, each as the last one)."""
    clock, lobby, store, reads = queued_reads(tmp_path)
    alice = seat_person_and_bots(lobby, "wizard")
    play_out(clock, lobby, alice)
    assert store.games_of("alice") and store.rating("Alice", "wizard") is None
    [(read, done)] = reads
    before = list(alice.messages)
    done.callback(read())
    assert alice.messages == before


def test_a_games_new_ratings_are_read_where_records_read_runs_and_shown_when_it_answers(tmp_path: Path) -> None:
    """After a rated game the people's ratings are read again by ``Records.read`` (the server's: the store's
    thread), not on the reactor's thread, where each read waited for the lock the store's thread holds through every
    record it commits, and 200 tables ending their games together made the reactor wait for 200 commits.
    The table shows the new rating when that read answers; a bot's seat, whose rating is fixed, is not read."""
    clock, lobby, store, reads = queued_reads(tmp_path)
    store.create_account("Alice", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")  # never checked here
    alice = Recorder()
    lobby.login(alice, "Alice", registered=True)
    for cmd in ("/new wizard", "/option rounds 2", "/bot add random", "/bot add random", "/start"):
        dispatch(lobby, alice, cmd)

    def shown() -> int | None:
        return next(p["rating"] for p in alice.last_state()["players"] if p["name"] == "Alice")

    assert shown() is None  # not rated yet
    play_out(clock, lobby, alice)
    rating = store.rating("Alice", "wizard")
    assert rating is not None, "the game was recorded and rated"
    [(read, done)] = reads
    assert shown() is None and not [n for n in alice.of_type("notice") if str(n["text"]).startswith("Ratings (")]
    found: list[Any] = []
    reader = threading.Thread(target=lambda: found.append(read()))  # where the server runs it: not this thread
    reader.start()
    reader.join()
    [ratings] = found
    assert list(ratings) == ["alice"], "the bots' seats are not read"
    done.callback(ratings)
    assert shown() == rating.shown
    [moved] = [n for n in alice.of_type("notice") if str(n["text"]).startswith("Ratings (")]
    assert moved["text"] == f"Ratings (wizard): Alice new -> {rating.shown}."
