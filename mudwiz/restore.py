"""Restart-safe tables: at the server's start, every table the journal holds (mudwiz/table/journal.py) is rebuilt
at its last committed move: the same id, host, options and seats, the game replayed from its seed and moves
(``Game.replay``), bots and stand-ins seated again, each person's seat kept for them as a dropped player's is (a
fresh grace period), and so is each watcher's place (``Lobby.keep_watch``), the round-end and turn clocks running
again and the bots planning their moves.

A table the journal cannot rebuild (a bad entry, a move the engine refuses) is logged in one line and skipped;
the others are restored all the same, and the server starts.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Sequence
from typing import Any

from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.store import GameRecord, JournaledTable, Store, StoreError
from mudwiz.store.base import game_key, held_key
from mudwiz.table import Table
from mudwiz.table.adjourning import Absent, Adjourned
from mudwiz.table.botseat import BotSession
from mudwiz.table.journal import TableJournal
from mudwiz.table.options import table_option

log = Logger()


def restore_tables(lobby: Lobby, journaled: list[JournaledTable], held: Sequence[GameRecord] = ()) -> list[Table]:
    """Rebuild each journaled table in ``lobby``; returns those restored. ``held``: the records the journal held for
    the store when the process died (``Store.held_records``), stored now, each once."""
    store_held(lobby, held)
    kept = {held_key(record) for record in held}
    restored = []
    for saved in journaled:
        if "error" not in saved.header and not any(
                str(seat.get("kind")) in ("person", "stand-in") for seat in saved.header.get("seats") or []):
            forget_empty(lobby, saved.id)
            continue
        try:
            restored.append(restore(lobby, saved, kept))
        except Exception as exc:  # a bad entry costs its table, never the server
            half_built = lobby.tables.get(saved.id)
            if half_built is not None:
                lobby.table_list.unlist(half_built)  # unlisted, and no kept seat's timer left pointing at it
            lobby.table_list.taken(saved.id)  # its id stays its own, for a later look
            log.error("table {table} NOT restored from the journal: {why}", table=saved.id,
                      why=f"{type(exc).__name__}: {exc}")
    lobby.tournaments.restore()  # after their tables: each carries on from its round
    return restored


def forget_empty(lobby: Lobby, table_id: int) -> None:
    """A table journaled with nobody at it (its people dropped; it waited ``MUDWIZ_IDLE_TABLE`` for them), or
    bots only (its last people left on purpose, and the process died before the close was journaled): there is
    nothing to restore, and it goes from the journal. It was refused as a bad entry (``no seats``), logged as an
    error at every start, and kept; a table of bots came back with no host."""
    lobby.table_list.taken(table_id)
    store = lobby.journal.store if lobby.journal is not None else None
    if store is None:
        return
    try:
        store.drop_table(table_id)
    except StoreError as exc:
        log.warn("table {table} (nobody at it) not dropped from the journal: {why}", table=table_id, why=exc)
        return
    log.info("table {table} had no person at it: dropped from the journal", table=table_id)


def resume_code_of(lobby: Lobby) -> Callable[[str], str | None]:
    """A guest's resume code by name, for the journal to keep with their seat: the lobby's ``resume_codes``
    (lower-cased name -> code) where the server has them, else none."""
    return lambda name: getattr(lobby, "resume_codes", {}).get(name.lower())


def seat_session(seat: dict[str, Any], game: str, lobby: Lobby) -> Session:
    """The session for a journaled seat: a bot of its level, a stand-in, or a person not back yet."""
    name, kind = str(seat["name"]), str(seat["kind"])
    codes = getattr(lobby, "resume_codes", None)  # guests' resume codes, where the server has them
    if kind in ("person", "stand-in") and seat.get("resume") and isinstance(codes, dict):
        codes[name.lower()] = seat["resume"]  # a stand-in's seat is its guest's, taken back with their code
    if kind == "person":
        return Absent(name)
    seed = lobby.seeds.randrange(2**32)
    if kind == "stand-in":
        return BotSession(name, level="random", game=game, seed=seed, stand_in=True)
    if kind.startswith("bot:"):
        return BotSession(name, level=kind[4:], game=game, seed=seed, stand_in=False)
    raise ValueError(f"seat {name!r} of unknown kind {kind!r}")


def watcher_session(watcher: str | dict[str, Any], lobby: Lobby) -> str:
    """A journaled watcher's name, their guest's resume code (if any) put back with the lobby's codes as a kept
    seat's is (``seat_session``). A name alone is a registered watcher's, or a journal from before the codes."""
    if isinstance(watcher, str):
        return watcher
    name = str(watcher["name"])
    codes = getattr(lobby, "resume_codes", None)
    if watcher.get("resume") and isinstance(codes, dict):
        codes[name.lower()] = watcher["resume"]
    return name


def read_held(store: Store, node: str | None) -> list[GameRecord]:
    """``store.held_records(node)``; none, and the log says why, if they cannot be read: the tables are restored
    all the same, and the records stay held for a later start. A held row that does not read as a record is
    logged and left held; the others are stored. (Its table, if it still journals that game, records it from the
    journal: ``finish_unrecorded`` knows only the keys of the records read, and that record, being the same game,
    deletes the held row with it.)"""
    try:
        held = store.held_records(node)
    except StoreError as exc:
        log.error("the records held for the store NOT read: {why}", why=exc)
        return []
    for bad in held:
        if isinstance(bad, StoreError):
            log.error("a record held for the store NOT read, left held: {why}", why=bad)
    return [record for record in held if not isinstance(record, StoreError)]


def store_held(lobby: Lobby, held: Sequence[GameRecord]) -> None:
    """Hand each record that was on its way to the store to it again: the game ended, but the process died before
    the record was stored (and the table may since have started its next game, or closed)."""
    records = lobby.records
    for record in held:
        if records is None:
            log.error("table {table}'s record of a {game} game was held, but this server keeps no records: {record}",
                      table=record.table_id, game=record.game, record=json.dumps(record.to_dict()))
            continue

        def kept(game_id: int, record: GameRecord = record) -> None:
            log.info("table {table} game recorded as #{id} ({outcome}), held since before the restart",
                     table=record.table_id, id=game_id, outcome=record.outcome)
            for seat in record.seats:
                records.board.forget(seat["name"])  # its ratings moved: read again when next shown

        def lost(failure: Failure, record: GameRecord = record) -> None:
            log.error("table {table} held game record NOT stored: {why}; it stays held for the next start",
                      table=record.table_id, why=failure.getErrorMessage())

        records.keep(record).addCallbacks(kept, lost)


def restore(lobby: Lobby, saved: JournaledTable, held: Collection[str] = ()) -> Table:
    header = saved.header
    if "error" in header:
        raise ValueError(f"header {header['error']}")
    seats = [seat_session(seat, header["game"], lobby) for seat in header["seats"]]
    if not seats:
        raise ValueError("no seats")
    table = lobby.make_table(saved.id, header["game"], seats[0], journal=False)
    for session in seats[1:]:
        table.roster.seats.append(session)
        session.table = table
    table.host = str(header["host"])
    set_options(table, header["options"])
    if saved.seed is not None and saved.game is not None and not over_and_left(table, saved, held):
        replay_game(table, saved)
    if isinstance(header.get("tournament"), int):  # its result goes to the tournament, wherever that runs
        table.tournament, table.on_over = header["tournament"], lobby.tournaments.table_over
    if header.get("adjourned") is not None and table.in_game:  # it waits for its people, as before the restart
        table.adjourned = Adjourned.from_json(header["adjourned"])
    table.journal = TableJournal(table, lobby.journal, moves=len(saved.moves))
    table.journal.save()
    finish_unrecorded(table, saved.recorded, held)
    for session in seats:
        if isinstance(session, Absent) and table.adjourned is None:
            lobby.hold_seat(session.name, table)
    for watcher in header.get("observers", []):
        lobby.keep_watch(watcher_session(watcher, lobby), table)
    if table.live:
        rearm(table)
    log.info("table {table} restored: {game}, {status}, {moves} moves, seats {seats}", table=table.id,
             game=table.name, status=table.status, moves=len(saved.moves), seats=[s.name for s in table.seats])
    return table


def set_options(table: Table, chosen: dict[str, Any]) -> None:
    """The host's options as journaled (already parsed values), checked as the game would check them."""
    config = table.config
    config.chosen = dict(chosen)
    own = {name: value for name, value in chosen.items() if table_option(name) is not None}
    config.settings = dataclasses.replace(config.settings, **own)
    config.current()  # raises BadOption for a value or combination the game refuses


def over_and_left(table: Table, saved: JournaledTable, held: Collection[str]) -> bool:
    """Whether the journaled game is over and recorded (or its record held, on its way) and its seats have changed
    since (a player left, a bot was removed): the table comes back waiting for its next game, as it was. It was
    refused whole (``the game's players are not the seats``), and a table of people gone lost."""
    assert saved.seed is not None and saved.game is not None
    if list(saved.game["players"]) == [s.name for s in table.seats]:
        return False
    return saved.recorded or game_key(table.id, saved.seed, float(saved.game["started"])) in held


def replay_game(table: Table, saved: JournaledTable) -> None:
    """The game at its last journaled move, and its record so far (each move's time as first played)."""
    assert saved.seed is not None and saved.game is not None
    players = list(saved.game["players"])
    if players != [s.name for s in table.seats]:
        raise ValueError(f"the game's players {players} are not the seats {[s.name for s in table.seats]}")
    log_entries = [(move["seat"], str(move["action"])) for move in saved.moves]
    game, _ = table.game_class.replay(players, saved.game["options"], saved.seed, log_entries)
    table.game = game
    table.games_played = 1
    table.abandoned = bool(saved.game.get("abandoned"))
    table.moves += 1
    recording = table.recording
    recording.started = float(saved.game["started"])
    recording.actions = [dict(move) for move in saved.moves]
    recording.done = False


def finish_unrecorded(table: Table, recorded: bool, held: Collection[str] = ()) -> None:
    """A game that ended just before the crash, before its record was stored (the record marks the journaled
    game ``recorded`` in its own transaction): record it now, once. Not if its record is ``held`` (the keys of
    the records ``store_held`` stores): that is the record, on its way already."""
    if table.game is None or table.in_game:
        return
    if recorded or game_key(table.id, table.game.seed, table.recording.started) in held:
        table.recording.done = True
        return
    if table.abandoned:
        table.recording.finish("abandoned")
    elif table.game.finished:
        table.recording.finish("finished")


def rearm(table: Table) -> None:
    """The clocks of a running game, as after its last move: the round end's, the turn's, the bots'."""
    assert table.game is not None
    if table.game.phase == "roundend":
        table.rounds.restored()
    table.bots.schedule()
    table.turn_clock.restart()
