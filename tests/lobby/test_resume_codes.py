"""Guests' resume codes over the connection fed lines (a real lobby, tables and engines on a fake clock; no
accounts unless a test registers one, in a real SQLite file): who gets a code, when a name asks for it, what a
wrong one costs, and when the name is free again."""

from __future__ import annotations

import json
import re
from pathlib import Path

from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz.accounts import Accounts
from mudwiz.connection import NAME_PROMPT, Connection
from mudwiz.lobby import CODE_ALPHABET, Lobby, new_resume_code, typed_code
from mudwiz.store import open_store

CODE = re.compile(rf"^[{CODE_ALPHABET}]{{3}}-[{CODE_ALPHABET}]{{3}}-[{CODE_ALPHABET}]{{3}}$")
SECRET = "correct horse"


def connect(lobby: Lobby, address: str = "10.0.0.1", json_mode: bool = False) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox, "", address=address)
    connection.start()
    if json_mode:
        connection.receive("/mode json")
    outbox.take()
    return connection, outbox


def seated_and_playing(lobby: Lobby, name: str, partner: Connection | None = None) -> tuple[Connection, Outbox]:
    """``name`` logs in as a guest, opens a Wizard table, ``partner`` (a person, who keeps the game going when
    ``name`` is gone) joins it, bots fill it, and it starts."""
    connection, outbox = connect(lobby)
    connection.receive(name)
    connection.receive("/new wizard")
    if partner is not None:
        partner.receive("/join 1")
    for line in ("/bot add random", "/bot add random", "/start"):
        connection.receive(line)
    assert connection.session.table is not None and connection.session.table.in_game
    return connection, outbox


def logged_in(lobby: Lobby, name: str) -> Connection:
    connection, _ = connect(lobby)
    connection.receive(name)
    assert connection.logged_in
    return connection


def test_codes_are_three_groups_from_an_unambiguous_alphabet_and_typed_in_any_form() -> None:
    codes = {new_resume_code() for _ in range(200)}
    assert len(codes) == 200 and all(CODE.match(c) for c in codes)
    assert not set("01ILO") & set(CODE_ALPHABET)
    assert typed_code("7kq92m xw4") == typed_code(" 7KQ-92M-XW4 ") == "7KQ-92M-XW4"


def test_a_guest_is_given_a_code_on_screen_and_in_json_a_registered_name_none(tmp_path: Path) -> None:
    lobby = Lobby(Clock(), seed=1)
    lobby.accounts = Accounts(open_store(tmp_path), lobby.clock)
    guest, outbox = connect(lobby)
    guest.receive("Ann")
    code = lobby.resume_codes["ann"]
    assert CODE.match(code) and f"Your resume code is {code}: type it if you are asked" in outbox.take()
    bot, outbox = connect(lobby, json_mode=True)
    bot.receive("robo")
    welcome = outbox.json_lines()[0]
    assert welcome["type"] == "welcome" and welcome["resume"] == lobby.resume_codes["robo"] != code
    for line in ("/register", SECRET, SECRET):
        bot.receive(line)
    assert "robo" not in lobby.resume_codes  # the password proves who comes back now
    bot.lost()
    back, outbox = connect(lobby, json_mode=True)
    back.receive("ROBO")
    assert outbox.json_lines() == [{"type": "password", "name": "robo", "prompt": "Password"}]
    back.receive(SECRET)
    welcome = outbox.json_lines()[0]
    assert welcome["type"] == "welcome" and welcome["resume"] is None and back.session.registered


def test_while_connected_the_name_asks_its_code_and_the_code_takes_the_connection_over() -> None:
    """A person whose old connection hangs half-open (not yet noticed dead) comes back: the name online asks for
    its proof, and the proof moves them, seat and all, to the new connection; the old one is told and closed. A
    wrong proof changes nothing. The line after the name is the proof, never a name (a password sent there was
    once a guest's name, shown to the lobby)."""
    lobby = Lobby(Clock(), seed=1, grace=60)
    owner, owner_out = seated_and_playing(lobby, "Ann")
    table = owner.session.table
    code = lobby.resume_codes["ann"]
    thief, outbox = connect(lobby, "10.9.9.9")
    thief.receive("aNN")
    assert outbox.take().endswith("Resume code: ")
    thief.receive("222-333-444")
    assert "wrong resume code for Ann" in outbox.take() and not thief.logged_in
    assert owner.session.connected and lobby.users["ann"] is owner.session and not owner_out.closed
    back, back_out = connect(lobby, "10.2.2.2")
    back.receive("ann")
    back.receive(code)
    assert back.logged_in and back.session.name == "Ann" and lobby.users["ann"] is back.session
    assert back.session.table is table and table.seated("Ann") is back.session  # the seat came along
    assert "Ann logged in again on another connection (10.2.2.2); this one is closed" in owner_out.take()
    assert owner_out.closed
    owner.receive("/who")  # a line the old connection had on its way is read by nobody
    owner.lost()  # and its end, when it comes, leaves the new connection as it is
    assert lobby.users["ann"] is back.session and back.session.connected and table.seated("Ann") is back.session


def registered_owner(tmp_path: Path, grace: float) -> tuple[Lobby, Connection, Outbox]:
    """A lobby with accounts in a real SQLite file, and Reg_Ann registered and logged in on a connection."""
    clock = Clock()
    lobby = Lobby(clock, seed=1, grace=grace)
    lobby.accounts = Accounts(open_store(tmp_path), clock)
    owner, owner_out = connect(lobby)
    for line in ("Reg_Ann", "/register", SECRET, SECRET):
        owner.receive(line)
    return lobby, owner, owner_out


def test_while_connected_a_registered_name_asks_its_password_and_the_password_takes_over(tmp_path: Path) -> None:
    lobby, owner, owner_out = registered_owner(tmp_path, grace=60)
    other, outbox = connect(lobby, "10.3.3.3", json_mode=True)
    other.receive("reg_ann")  # a bot sends its name and password together: the password is read as one
    other.receive(SECRET)
    assert outbox.json_lines()[0] == {"type": "password", "name": "Reg_Ann", "prompt": "Password"}
    assert other.logged_in and other.session.registered and lobby.users["reg_ann"] is other.session
    assert "logged in again on another connection" in owner_out.take() and owner_out.closed


def test_during_the_grace_period_only_the_code_takes_the_seat_back() -> None:
    lobby = Lobby(Clock(), seed=1, grace=60)
    owner, _ = seated_and_playing(lobby, "Ann")
    code = lobby.resume_codes["ann"]
    owner.lost()
    assert "ann" in lobby.away
    thief, outbox = connect(lobby, "10.6.6.6")
    thief.receive("ANN")
    assert outbox.take() == "«on»Resume code: " and not thief.logged_in  # echo off, as for a password
    thief.receive(code.replace("A", "B") if "A" in code else "222-222-222")
    said = outbox.take()
    assert said.startswith("\n«off»") and "wrong resume code for Ann" in said and said.endswith(NAME_PROMPT)
    assert "ann" in lobby.away and "ann" not in lobby.users and code not in said
    back, outbox = connect(lobby)
    back.receive("ann")
    outbox.take()
    back.receive(code.lower().replace("-", " "))  # as a person might type it
    said = outbox.take()
    assert back.logged_in and back.session.name == "Ann" and f"Your resume code is {code}:" in said
    assert "Ann is back." in said and back.session.table is not None and "ann" not in lobby.away
    assert lobby.resume_codes["ann"] == code  # the same code: it still guards the name


def test_after_the_stand_in_took_over_the_seat_needs_the_code_too() -> None:
    clock = Clock()
    lobby = Lobby(clock, seed=1, grace=10)
    owner, _ = seated_and_playing(lobby, "Ann", partner=logged_in(lobby, "partner"))  # who plays on
    code = lobby.resume_codes["ann"]
    table = owner.session.table
    assert table is not None
    owner.lost()
    clock.advance(10)
    assert "ann" not in lobby.away and table.holds_seat_for("ann")  # a stand-in plays the seat
    thief, outbox = connect(lobby, json_mode=True)
    thief.receive("Ann")
    assert outbox.json_lines() == [{"type": "password", "name": "Ann", "prompt": "Resume code"}]
    thief.receive(json.dumps({"id": 7, "cmd": "WRONG-CODE"}))
    assert outbox.json_lines() == [{"type": "error", "message": "wrong resume code for Ann", "id": 7}]
    assert not thief.logged_in and table.seats[0].is_bot
    thief.receive("ann")
    outbox.take()
    thief.receive(json.dumps({"id": 8, "cmd": code}))
    welcome = outbox.json_lines()[0]
    assert welcome["type"] == "welcome" and welcome["resume"] == code
    assert table.seats[0] is thief.session and not table.seats[0].is_bot


def test_a_seat_left_mid_game_is_held_for_the_code_until_the_table_closes() -> None:
    lobby = Lobby(Clock(), seed=1)
    other = logged_in(lobby, "bob")  # a person playing too keeps the game going after Ann leaves
    owner, _ = seated_and_playing(lobby, "Ann", partner=other)
    table = owner.session.table
    assert table is not None
    owner.receive("/leave")
    owner.receive("/quit")
    owner.lost()
    assert table.holds_seat_for("Ann") and "ann" in lobby.resume_codes
    thief, outbox = connect(lobby)
    thief.receive("ann")
    thief.receive("222-333-444")
    assert "wrong resume code for Ann" in outbox.take() and table.seats[0].is_bot
    other.receive("/leave")  # nobody left at the table: it closes, and nothing holds Ann any more
    assert table.id not in lobby.tables and "ann" not in lobby.resume_codes
    thief.receive("ANN")
    said = outbox.take()
    assert thief.logged_in and thief.session.name == "ANN" and "Resume code" not in said
    assert lobby.resume_codes["ann"] in said  # a new guest, a new code


def test_a_guest_who_quits_from_the_lobby_frees_the_name() -> None:
    lobby = Lobby(Clock(), seed=1)
    first, _ = connect(lobby)
    first.receive("Ann")
    code = lobby.resume_codes["ann"]
    first.lost()
    assert lobby.resume_codes == {}
    second, outbox = connect(lobby)
    second.receive("ann")
    assert second.logged_in and lobby.resume_codes["ann"] != code


def test_wrong_codes_are_throttled_by_name_and_by_address_without_accounts() -> None:
    clock = Clock()
    lobby = Lobby(clock, seed=1, grace=3600)
    assert lobby.accounts is None
    owner, _ = seated_and_playing(lobby, "Ann")
    code = lobby.resume_codes["ann"]
    owner.lost()
    guesser, outbox = connect(lobby, "10.6.6.6")
    for i in range(5):
        guesser.receive("ann")
        guesser.receive(f"{i}{i}{i}-XYZ-XYZ")
        assert "wrong resume code for Ann" in outbox.take()
    guesser.receive("ann")  # asked all the same: the line after the name is always its proof
    guesser.receive("666-XYZ-XYZ")
    said = outbox.take()
    assert "Resume code: " in said and "too many failed logins for Ann; try again in 60 s" in said
    back, outbox2 = connect(lobby, "10.1.1.1")  # the name waits, from anywhere else: even its owner
    back.receive("ann")
    back.receive(code)
    assert "too many failed logins for Ann; try again in 60 s" in outbox2.take() and not back.logged_in
    at_home, outbox3 = connect(lobby)  # but from where Ann came in as a guest: a guesser cannot lock her out
    at_home.receive("ann")
    at_home.receive(code)
    assert at_home.logged_in and at_home.session.table is not None, outbox3.take()
    at_home.lost()
    clock.advance(60)
    back.receive("ann")
    back.receive(code)
    assert back.logged_in and back.session.table is not None
    guesser.receive("ann")  # online now: its code would take it over, so it is asked for again
    assert outbox.take().endswith("Resume code: ")


def test_wrong_codes_and_wrong_passwords_count_together(tmp_path: Path) -> None:
    clock = Clock()
    lobby = Lobby(clock, seed=1, grace=3600)
    lobby.accounts = Accounts(open_store(tmp_path), clock)
    owner, _ = seated_and_playing(lobby, "Ann")
    owner.lost()
    registrar, _ = connect(lobby)
    for line in ("Reg_Ula", "/register", SECRET, SECRET, "/quit"):
        registrar.receive(line)
    registrar.lost()
    guesser, outbox = connect(lobby, "10.6.6.6")
    for i in range(3):
        guesser.receive("ann")
        guesser.receive(f"{i}{i}{i}-XYZ-XYZ")
    for i in range(2):
        guesser.receive("reg_ula")
        guesser.receive(f"guess {i}")
    assert outbox.take().count("wrong") == 5
    guesser.receive("reg_ula")
    guesser.receive("guess 2")
    assert "too many failed logins from 10.6.6.6" in outbox.take()  # this address is held back for any name


def test_a_registered_players_seat_needs_the_password_whether_away_left_or_stood_in(tmp_path: Path) -> None:
    lobby, owner, _ = registered_owner(tmp_path, grace=10)
    clock = lobby.clock
    bob = logged_in(lobby, "bob")
    owner.receive("/new wizard")
    bob.receive("/join 1")
    owner.receive("/bot add random")
    owner.receive("/start")
    table = owner.session.table
    assert table is not None and table.in_game and "reg_ann" not in lobby.resume_codes
    for how in ("away", "stand-in", "left"):
        if how == "left":
            owner.receive("/leave")
        owner.lost()
        if how == "stand-in":
            clock.advance(10)
        assert table.holds_seat_for("Reg_Ann"), how
        thief, outbox = connect(lobby, "10.6.6.6")
        thief.receive("REG_ANN")
        assert outbox.take() == "«on»Password: ", how
        thief.receive("222-333-444")
        assert "wrong password for Reg_Ann" in outbox.take() and not thief.logged_in, how
        owner, outbox = connect(lobby)
        owner.receive("reg_ann")
        owner.receive(SECRET)
        assert owner.logged_in and table.seats[0] is owner.session and table.in_game, how


def test_a_name_freed_while_its_code_is_asked_is_a_new_guests_and_one_taken_meanwhile_is_taken_over() -> None:
    lobby = Lobby(Clock(), seed=1)
    owner, _ = seated_and_playing(lobby, "Ann")
    code = lobby.resume_codes["ann"]
    table = owner.session.table
    assert table is not None
    owner.lost()
    late, outbox = connect(lobby)
    late.receive("ann")
    assert outbox.take() == "«on»Resume code: "
    table.close()  # the table went (its seat with it) while the question was open: nothing holds Ann now
    late.receive("anything")
    assert late.logged_in and late.session.name == "Ann" and lobby.resume_codes["ann"] != code
    slow, outbox = connect(lobby)
    late.lost()
    assert "ann" not in lobby.resume_codes
    owner, _ = seated_and_playing(lobby, "Ann")
    owner.lost()
    slow.receive("ann")
    first, said = connect(lobby)
    first.receive("ann")
    first.receive(lobby.resume_codes["ann"])
    assert first.logged_in  # in first: the seat is taken back
    slow.receive(lobby.resume_codes["ann"])  # proven too: the name moves to it, as a takeover's would
    assert slow.logged_in and lobby.users["ann"] is slow.session and "Welcome, Ann!" in outbox.take()
    assert "Ann logged in again on another connection" in said.take()
