"""Tournaments run by the server: sign-up until the start, Swiss rounds at tables of several players, the standings.

A tournament (``/tournament new``) is open for sign-ups (registered players: ``/tournament join ID``) until its
start; then each round is paired (mudwiz/meeting/swiss.py), its tables made on this process with the options
given, the entrants seated (one not here, or busy at another table, has the seat kept for them as a dropped
player's: the grace, then a stand-in plays it for them, scoring for them) and bots in the last table's empty
seats, and each game started at once. When every table of the round is over, the next starts after a short pause
that the entrants are told of; after the last, the standings are published to everyone and kept.

Everything is written to the store at each change (its state whole: mudwiz/store/competition.py), and the tables
are journaled as any table is, so after a restart (``kill -9`` too) ``restore`` carries each one on from its round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand, BadOption
from mudwiz.games import available, game_class
from mudwiz.games.base import standings as final_places
from mudwiz.lobby.directory import Local
from mudwiz.lobby.friends import kept
from mudwiz.lobby.matching import bot_level, seat_bot
from mudwiz.meeting.swiss import met_pairs, pair, standings
from mudwiz.meeting.tournament import Tournament, parse_rest
from mudwiz.numbers import whole_number
from mudwiz.seasons import season_of, season_period
from mudwiz.session import Session
from mudwiz.store import Store, StoreError
from mudwiz.table import Table
from mudwiz.table.adjourning import Absent
from mudwiz.table.options import TableOptions

if TYPE_CHECKING:
    from mudwiz.lobby.keeping import Kept
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList

log = Logger(namespace="mudwiz.lobby.tournaments")

TICK = 1.0  # seconds between looks at the running tournaments' tables and the open ones' start times
PAUSE = 10.0  # seconds between a round's last game and the next round, told to the entrants
MAX_ROUNDS = 20
LIVE = ("open", "running")


def season_points(store: Store | None, now: float, tournament: Tournament, rows: list[tuple[str, float]]) -> None:
    """A finished tournament's points count in the season, the tournament as one game (docs/tournaments.md)."""
    try:
        if store is not None:
            store.add_season_points(season_of(now, season_period()), tournament.game, rows)
    except (StoreError, ValueError) as why:
        log.error("tournament {id}'s season points NOT kept: {why}", id=tournament.id, why=why)


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
        self.restored = False

    # ------------------------------------------------------------ commands

    def new(self, session: Session, words: list[str]) -> str:
        if not self.may_open(session):
            raise BadCommand("only a sysop opens tournaments here (MUDWIZ_TOURNAMENTS=registered lets players)")
        store = self._store()
        if len(self.live) >= self.limit:
            raise BadCommand(f"there are already {self.limit} tournaments open or running; one more when one ends")
        usage = "usage: /tournament new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES | start at HH:MM]"
        rounds = whole_number(words[2]) if len(words) >= 3 else None
        if rounds is None or words[1].lower() != "swiss":
            raise BadCommand(usage)
        game = words[0].lower()
        if game not in available():
            raise BadCommand(f"there is no game {words[0]}; one of: {', '.join(available())}")
        cls = game_class(game)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadCommand(f"a tournament has 1 to {MAX_ROUNDS} rounds")
        size, start_at, typed = parse_rest(words[3:], cls, self.clock.seconds())
        options = TableOptions(cls)
        try:
            for name, value in typed:
                options.set(name, value)
            cls.check_options(options.game_options(), size)
        except BadOption as why:
            raise BadCommand(f"{why}; nothing was made") from None
        now = self.clock.seconds()
        tournament = Tournament(0, game, rounds, size, typed, session.name, start_at if start_at is not None
                                else now + 600.0)
        tournament.id = kept(lambda: store.new_tournament(game, "open", tournament.to_json(), now))
        self._save(tournament)
        self.live[tournament.id] = tournament
        self._arm()
        minutes = max(0, round((tournament.start_at - now) / 60))
        self.people.lobby_notice(f"{session.name} opens tournament {tournament.id}: {cls.title}, Swiss, {rounds} "
                                 f"round{'s' * (rounds != 1)} at tables of {size}; it starts in {minutes} min "
                                 f"(/tournament join {tournament.id}).")
        return f"tournament {tournament.id} is open: it starts in {minutes} min"

    def join(self, session: Session, number: str) -> str:
        tournament = self._open(number)
        if not session.registered:
            raise BadCommand("tournaments are for registered players: /register keeps your name first")
        if tournament.entrant(session.name):
            raise BadCommand(f"you are signed up for tournament {tournament.id} already")
        tournament.entrants.append(session.name)
        self._save(tournament)
        return f"you are signed up for tournament {tournament.id} ({len(tournament.entrants)} players so far)"

    def leave(self, session: Session, number: str) -> str:
        tournament = self._open(number)
        name = tournament.entrant(session.name)
        if name is None:
            raise BadCommand(f"you are not signed up for tournament {tournament.id}")
        tournament.entrants.remove(name)
        self._save(tournament)
        return f"you are no longer signed up for tournament {tournament.id}"

    def _open(self, number: str) -> Tournament:
        tournament = self.find(number)
        if tournament.status != "open":
            ended = "started" if tournament.status == "running" else "ended"
            raise BadCommand(f"tournament {tournament.id} has {ended}; sign-ups are before the start")
        return tournament

    def find(self, number: str) -> Tournament:
        tid = whole_number(number.strip().lstrip("#"))
        if tid is None:
            raise BadCommand("usage: /tournament ID (/tournaments lists them)")
        if tid in self.live:
            return self.live[tid]
        found = kept(lambda: self._store().tournament(tid))
        if found is None:
            raise BadCommand(f"there is no tournament {tid}; /tournaments lists them")
        return Tournament.from_json(found[1])

    def listing(self) -> dict[str, Any]:
        rows = kept(lambda: self._store().tournaments(("open", "running", "finished"), 20))
        return {"type": "tournaments", "tournaments": [
            {"id": tid, "status": status, "game": state["game"], "rounds": state["rounds"], "round": state["round"],
             "players": len(state["entrants"]), "start_at": state["start_at"], "winner": state.get("winner")}
            for tid, status, state in rows]}

    # ------------------------------------------------------------ running them

    def restore(self) -> None:
        """At the start: the open and running tournaments carry on (their tables were restored from the journal).
        Once, and on a server of one process: a cluster's nodes run none yet (docs/tournaments.md)."""
        store = self.store()
        if store is None or self.restored or not isinstance(self.people.directory, Local):
            return
        self.restored = True
        try:
            rows = store.tournaments(LIVE, 1000)
        except StoreError as why:
            log.error("tournaments NOT restored: {why}", why=why)
            return
        for tid, _, state in rows:
            tournament = Tournament.from_json(state)
            self.live[tid] = tournament
            for entry in tournament.tables[-1] if tournament.tables and tournament.status == "running" else []:
                table = self.table_list.tables.get(entry["table"])
                if table is not None:  # its tournament number came back with it from the journal's header
                    table.on_over = self.table_over
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
                self._end(tournament, "called off", "fewer than 2 players signed up")
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
                    self._save(tournament)
                return
            if tournament.round >= tournament.rounds:
                self._finish(tournament)
                return
            tournament.next_round_at = now + PAUSE
            self._save(tournament)
            self._tell(tournament, f"Tournament {tournament.id}: round {tournament.round} is over; round "
                                   f"{tournament.round + 1} starts in {PAUSE:g} s (/tournament {tournament.id}: the "
                                   f"standings).")

    def table_over(self, table: Table) -> None:
        """A round's game ended: its result is taken now, before its people may leave and the table close."""
        tournament = self.live.get(table.tournament or 0)
        if tournament is None or not tournament.tables:
            return
        for entry in tournament.tables[-1]:
            if entry["table"] == table.id and entry["result"] is None and self._result(entry):
                self._save(tournament)

    def _result(self, entry: dict[str, Any]) -> bool:
        """The result of a round's table once its game is over (a table gone without one: every seat last)."""
        table = self.table_list.tables.get(entry["table"])
        if table is not None and (table.game is None or table.in_game):
            return False
        if table is None or table.game is None:
            entry["result"] = {name: [len(entry["seats"]), 0] for name in entry["seats"]}
            return True
        game = table.game
        entry["result"] = {row["player"]: [row["place"], row["score"]]
                           for row in final_places(game.players, game.scores, game.LOW_WINS)}
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
        self._save(tournament)
        for entry in entries:
            others = ", ".join(entry["seats"])
            for name in entry["seats"]:
                user = self.people.users.get(name.lower())
                if user is not None:
                    user.notice(f"Tournament {tournament.id}, round {tournament.round} of {tournament.rounds}: you "
                                f"play at table {entry['table']} with {others}.")

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
        self._end(tournament, "finished", f"won by {tournament.winner}: {top}")

    def _end(self, tournament: Tournament, status: str, why: str) -> None:
        tournament.status = status
        tournament.finished_at = self.clock.seconds()
        self._save(tournament)
        self.live.pop(tournament.id, None)
        title = game_class(tournament.game).title
        text = f"Tournament {tournament.id} ({title}) is {'over' if status == 'finished' else status}: {why}."
        for user in list(self.people.users.values()):
            if user.connected:
                user.notice(text)
        log.info("{text}", text=text)

    def _tell(self, tournament: Tournament, text: str) -> None:
        for name in tournament.entrants:
            user = self.people.users.get(name.lower())
            if user is not None and user.connected:
                user.notice(text)

    # ------------------------------------------------------------ the store

    def _store(self) -> Store:
        store = self.store()
        if store is None:
            raise BadCommand("this server keeps no records, so it runs no tournaments")
        return store

    def _save(self, tournament: Tournament) -> None:
        store = self.store()
        if store is None:
            return
        try:
            store.save_tournament(tournament.id, tournament.status, tournament.to_json(), self.clock.seconds())
        except StoreError as why:
            log.error("tournament {id} NOT saved: {why}", id=tournament.id, why=why)

