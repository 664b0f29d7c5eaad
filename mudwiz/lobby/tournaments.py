"""Tournaments run by the server: sign-up until the start, Swiss rounds at tables of several players, the standings.

A tournament (``/tournament new``) is open for sign-ups (registered players: ``/tournament join ID``) until its
start; then each round is paired (mudwiz/meeting/swiss.py), its tables made on this process with the options
given, the entrants seated (one on another process of a cluster is told and seated from there, as a match's
players are; one not online, or busy at another table, has the seat kept for them as a dropped player's: the
grace, then a stand-in plays it for them, scoring for them) and bots in the last table's empty seats, and each
game started at once. When every table of the round is over, the next starts after a short pause
that the entrants are told of; after the last, the standings are published to everyone and kept.

Everything is written to the store at each change (its state whole: mudwiz/store/competition.py), and the tables
are journaled as any table is, so after a restart (``kill -9`` too) ``restore`` carries each one on from its round.
In a cluster they run on the process that holds the seek book (``books_here``), which takes them over from the
store when it becomes that process; a round's table taken over by another process sends its result there.
The commands are the desk's (tournament_desk.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.games import game_class
from mudwiz.games.base import standings as final_places
from mudwiz.lobby.directory import Local
from mudwiz.lobby.matching import bot_level, seat_bot
from mudwiz.lobby.people import LOBBY
from mudwiz.lobby.tournament_desk import TournamentDesk
from mudwiz.meeting.swiss import met_pairs, pair, standings
from mudwiz.meeting.tournament import Tournament
from mudwiz.seasons import season_of, season_period
from mudwiz.session import Session
from mudwiz.store import Store, StoreError
from mudwiz.table import Table
from mudwiz.table.adjourning import Absent
from mudwiz.texts import Later, english, later

if TYPE_CHECKING:
    from mudwiz.lobby.keeping import Kept
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList

log = Logger(namespace="mudwiz.lobby.tournaments")

TICK = 1.0  # seconds between looks at the running tournaments' tables and the open ones' start times
PAUSE = 10.0  # seconds between a round's last game and the next round, told to the entrants
LIVE = ("open", "running")
GONE_AFTER = 30.0  # seconds a round's table is nowhere before it counts as gone without a result (every seat last)


def season_points(store: Store | None, now: float, tournament: Tournament, rows: list[tuple[str, float]]) -> None:
    """A finished tournament's points count in the season, the tournament as one game (docs/tournaments.md)."""
    try:
        if store is not None:
            store.add_season_points(season_of(now, season_period()), tournament.game, rows)
    except (StoreError, ValueError) as why:
        log.error("tournament {id}'s season points NOT kept: {why}", id=tournament.id, why=why)


def game_result(table: Table) -> dict[str, list[int]] | None:
    """Each player's place and score at ``table`` once its game is over; None while it runs or before it starts."""
    game = table.game
    if game is None or table.in_game:
        return None
    return {row["player"]: [row["place"], row["score"]]
            for row in final_places(game.players, game.scores, game.LOW_WINS)}


class Tournaments:
    """The tournaments of this process by number; ``store()`` where they are kept (None: nowhere, refused),
    ``may_open(session)`` whether that user may open one, ``rating(name, game)`` a player's rating."""

    def __init__(self, clock: IReactorTime, people: People, table_list: TableList, names: Names, kept: Kept, *,
                 store: Callable[[], Store | None], may_open: Callable[[Session], bool],
                 rating: Callable[[str, str], float], limit: int = 5) -> None:
        self.clock = clock
        self.people = people
        self.table_list = table_list
        self.names = names
        self.kept = kept
        self.store = store
        self.may_open = may_open
        self.rating = rating
        self.limit = limit
        self.live: dict[int, Tournament] = {}
        self._tick: IDelayedCall | None = None
        self.here = False  # whether they run on this process (a cluster's: the seek book's process)
        self.missing: dict[int, float] = {}  # a round's table found on no process -> since when
        self.desk = TournamentDesk(self)

    def opened(self, tournament: Tournament) -> None:
        """A tournament just made by the desk: kept, and run from now on."""
        self.save(tournament)
        self.live[tournament.id] = tournament
        self._arm()

    # ------------------------------------------------------------ running them

    def restore(self) -> None:
        """At the start of a server of one process: the open and running tournaments carry on (their tables were
        restored from the journal). A cluster's process does it when it becomes the seek book's (``books_here``)."""
        if isinstance(self.people.directory, Local):
            self.books_here(True)

    def books_here(self, here: bool) -> None:
        """Whether the tournaments run on this process from now on: taken over from the store, or let go (the
        other process takes them over from the store: their state is written there at every change)."""
        if here == self.here:
            return
        self.here = here
        self.live.clear()
        if not here:
            if self._tick is not None and self._tick.active():
                self._tick.cancel()
            return
        store = self.store()
        if store is None:
            return
        try:
            rows = store.tournaments(LIVE, 1000)
        except StoreError as why:
            log.error("tournaments NOT restored: {why}", why=why)
            return
        for tid, _, state in rows:
            tournament = Tournament.from_json(state)
            self.live[tid] = tournament  # (its tables' ``on_over`` came back with their journals: restore.py)
            log.info("tournament {id} restored: {status}, round {round} of {rounds}", id=tid,
                     status=tournament.status, round=tournament.round, rounds=tournament.rounds)
        self._arm()

    def _arm(self) -> None:
        if self.live and (self._tick is None or not self._tick.active()):
            self._tick = self.clock.callLater(TICK, self.tick)

    def tick(self) -> None:
        """Start what is due, take each finished table's result, and go on to the next round when a round is over.
        Not while the server stops: its tables are kept for the restart, which carries the tournaments on."""
        if self.kept.stopping:
            return
        now = self.clock.seconds()
        for tournament in list(self.live.values()):
            try:
                self._step(tournament, now)
            except Exception:  # one tournament's fault must not stop the others
                log.failure("tournament {id} failed", id=tournament.id)
        self._arm()

    def _step(self, tournament: Tournament, now: float) -> None:
        if tournament.status == "open" and now >= tournament.start_at:
            if len(tournament.entrants) < 2:
                self._end(tournament, "called off",  # i18n: not text (a status kept in the store)
                          later("Tournament {id} ({game}) is called off: fewer than 2 players signed up.",
                                id=tournament.id, game=game_class(tournament.game).title))
                return
            tournament.status = "running"
            self._round(tournament)
        elif tournament.status == "running":
            if tournament.next_round_at is not None:
                if now >= tournament.next_round_at:
                    tournament.next_round_at = None
                    self._round(tournament)
                return
            changed = False
            for entry in tournament.tables[-1]:
                if entry["result"] is None:
                    changed |= self._result(entry)
            if not all(entry["result"] for entry in tournament.tables[-1]):
                if changed:
                    self.save(tournament)
                return
            if tournament.round >= tournament.rounds:
                self._finish(tournament)
                return
            tournament.next_round_at = now + PAUSE
            self.save(tournament)
            self._tell(tournament, later("Tournament {id}: round {round} is over; round {next} starts in {seconds:g} s "
                                         "(/tournament {id}: the standings).", id=tournament.id,
                                         round=tournament.round, next=tournament.round + 1, seconds=PAUSE))

    def table_over(self, table: Table) -> None:
        """A round's game ended: its result is taken now, before its people may leave and the table close; sent
        to the process the tournaments run on when that is another (a table taken over from a process gone)."""
        result = game_result(table)
        if table.tournament is None or result is None:
            return
        directory = self.people.directory
        node = directory.seek_book()
        if node is None:
            self.take_result(table.tournament, table.id, result)
            return
        args = {"tournament": table.tournament, "table": table.id, "result": result}
        directory.ask_seeks(node, Session(table.host), "result", args, desk="tournaments").addErrback(
            lambda failure: log.error("table {table}'s tournament result NOT sent: {why}", table=table.id,
                                      why=failure.getErrorMessage()))

    def take_result(self, tid: int, table_id: int, result: dict[str, Any]) -> None:
        """A round's table's result, from here or from the process its table is on; once."""
        tournament = self.live.get(tid)
        if tournament is None or not tournament.tables:
            return
        for entry in tournament.tables[-1]:
            if entry["table"] == table_id and entry["result"] is None:
                entry["result"] = result
                self.save(tournament)

    def _result(self, entry: dict[str, Any]) -> bool:
        """A round's table whose result did not come: its game over here, or the table gone from every process
        without one (every seat last). One on another process sends its result (``table_over``). The caller
        saves the tournament when this took one."""
        table = self.table_list.tables.get(entry["table"])
        if table is not None:
            entry["result"] = game_result(table)
            return entry["result"] is not None
        now = self.clock.seconds()
        if any(row["id"] == entry["table"] for row in self.people.directory.summaries([])):
            self.missing.pop(entry["table"], None)
            return False
        if now - self.missing.setdefault(entry["table"], now) < GONE_AFTER:  # (a process gone: taken over soon)
            return False
        self.missing.pop(entry["table"])
        entry["result"] = {name: [len(entry["seats"]), 0] for name in entry["seats"]}
        return True

    def _round(self, tournament: Tournament) -> None:
        tournament.round += 1
        done = tournament.results()
        points = {r.name: r.points for r in standings(tournament.entrants, done)}
        ratings = {name: self.rating(name, tournament.game) for name in tournament.entrants}
        met = met_pairs([list(entry["seats"]) for rnd in tournament.tables for entry in rnd])
        pairing = pair(tournament.entrants, points, ratings, met, tournament.size)
        entries = []
        for i, names in enumerate(pairing.tables):
            bots = tournament.size - len(names) if i == len(pairing.tables) - 1 else 0
            entries.append(self._table(tournament, names, bots))
        tournament.tables.append(entries)
        self.save(tournament)
        for entry in entries:
            others = ", ".join(entry["seats"])
            told = {"type": "notice", "text": later("Tournament {id}, round {round} of {rounds}: you play at table {n} "
                                                    "with {names}.", id=tournament.id, round=tournament.round,
                                                    rounds=tournament.rounds, n=entry["table"], names=others)}
            for name in entry["seats"]:
                user = self.people.users.get(name.lower())
                if user is not None:
                    user.deliver(told)
                else:  # on another process: told there, and seated from there (a match's way: matching.py)
                    self.people.directory.to_seeker(name, {"op": "seek_seat", "name": name, "table": entry["table"],
                                                           "message": told})

    def _table(self, tournament: Tournament, names: list[str], bots: int) -> dict[str, Any]:
        """A round's table: its people seated (or their seats kept), bots in the empty seats, its game started."""
        first = self._free(names[0])
        table = self.table_list.make_table(self.table_list.new_table_id(), tournament.game, first or Absent(names[0]))
        table.tournament, table.on_over = tournament.id, self.table_over
        for name, value in tournament.options:
            table.config.set(name, value)
        for name in names[1:]:
            user = self._free(name)
            if user is not None:
                table.sit(user)
            else:
                table.roster.seats.append(Absent(name))
        level = bot_level(table.name, sum(self.rating(n, table.name) for n in names) / len(names))
        bot_names = [seat_bot(table, self.names.free_bot_name(table), level) for _ in range(bots)]
        host = table.seats[0]
        table.start(host)
        for seat in table.seats:
            if isinstance(seat, Absent):  # not here, or busy: the grace to come, then a stand-in plays for them
                self.kept.hold_seat(seat.name, table)
        return {"table": table.id, "seats": [s.name for s in table.seats], "bots": bot_names, "result": None}

    def _free(self, name: str) -> Session | None:
        user = self.people.users.get(name.lower())
        if user is None or user.table is not None or user.elsewhere is not None or not user.connected:
            return None
        return user

    def _finish(self, tournament: Tournament) -> None:
        rows = standings(tournament.entrants, tournament.results())
        tournament.standings = [asdict(r) for r in rows]
        tournament.winner = rows[0].name if rows else None
        season_points(self.store(), self.clock.seconds(), tournament, [(r.name, r.points) for r in rows])
        top = ", ".join(f"{i}. {r.name} {r.points:g}" for i, r in enumerate(rows[:3], 1))
        self._end(tournament, "finished", later("Tournament {id} ({game}) is over: won by {winner}: {top}.",
                                                id=tournament.id, game=game_class(tournament.game).title,
                                                winner=tournament.winner, top=top))

    def _end(self, tournament: Tournament, status: str, text: Later) -> None:
        tournament.status = status
        tournament.finished_at = self.clock.seconds()
        self.save(tournament)
        self.live.pop(tournament.id, None)
        for user in list(self.people.users.values()):
            if user.connected:
                user.notice(text)
        self._tell(tournament, text, elsewhere_only=True)
        self.people.directory.notice(text)  # the other processes' lobbies
        log.info("{text}", text=english(text))

    def _tell(self, tournament: Tournament, text: Later, elsewhere_only: bool = False) -> None:
        """``text`` to the entrants, of this process and the others (``elsewhere_only``: the others')."""
        directory = self.people.directory
        for name in tournament.entrants:
            user = self.people.users.get(name.lower())
            if user is not None and elsewhere_only:
                continue
            if user is None:  # on another process (its lobby hears ``elsewhere_only``'s text as a lobby notice)
                user = None if elsewhere_only and directory.where(name) == LOBBY else directory.user(name)
            if user is not None and user.connected:
                user.notice(text)

    # ------------------------------------------------------------ the store

    def kept_store(self) -> Store:
        store = self.store()
        if store is None:
            raise BadCommand(later("this server keeps no records, so it runs no tournaments"))
        return store

    def save(self, tournament: Tournament) -> None:
        store = self.store()
        if store is None:
            return
        try:
            store.save_tournament(tournament.id, tournament.status, tournament.to_json(), self.clock.seconds())
        except StoreError as why:
            log.error("tournament {id} NOT saved: {why}", id=tournament.id, why=why)

