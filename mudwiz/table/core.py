"""A table: one game's life from the seating to the standings, composed of parts with one job each.

The table itself keeps the game (start, moves, abandonment, closing) and ties the parts together: who is here
(:mod:`.seating`), what the host chose (:mod:`.options`), its clocks (:mod:`.timers`) and what happens when
people do not move (:mod:`.pacing`), its computer players (:mod:`.botdriver`) and what each viewer is sent
(:mod:`.fanout`). The lobby, the commands and the tests know the table by the names below and its state's
(:mod:`.state`), some of which forward to the part whose job it is. It drives any engine through the game
interface and never writes bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand, IllegalAction
from mudwiz.games import game_class
from mudwiz.games.base import Event
from mudwiz.session import Session
from mudwiz.store import GameRecord
from mudwiz.table.adjourning import Absent, Adjourned, all_gone, missing, waiting_line
from mudwiz.table.botdriver import BotDriver
from mudwiz.table.fanout import FanOut
from mudwiz.table.journal import Journal, TableJournal
from mudwiz.table.pacing import RoundConfirmation, TurnClock
from mudwiz.table.recording import GameRecording, Records
from mudwiz.table.seating import Seating
from mudwiz.table.state import TableState
from mudwiz.table.timers import IDLE_CLOSE
from mudwiz.texts import Later, later
from mudwiz.thinking import Think, think_inline

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in


@dataclass(frozen=True)
class TableServices:
    """What a table borrows from the server: where its bots think, where its finished games are kept and where it
    journals itself (None: they are not, as in tests that do not look)."""

    think: Think = think_inline
    records: Records | None = None
    journal: Journal | None = None


class Table(TableState):
    """Everything about one table except the rules (the engine's) and the bytes (the connections'): its state
    (:mod:`.state`) and what changes it. Each part is handed the table typed as its state, which is all it reads
    and sets, and the few calls of the table it makes (``played``, ``people_changed``, ``act``, ``stopping``):
    the effects of what a part does are the table's to apply, here."""

    def __init__(
        self,
        table_id: int,
        game: str,
        host: Session,
        clock: IReactorTime,
        *,
        bot_delay: float = 1.0,
        seed_source: random.Random | None = None,
        on_empty: Callable[[Table], None] | None = None,
        server: TableServices | None = None,
        idle_close: float = IDLE_CLOSE,
    ) -> None:
        super().__init__(table_id, game_class(game), clock, host.name, bot_delay, seed_source or random.Random())
        self.on_empty = on_empty
        self.idle_close = idle_close
        server = server or TableServices()
        records = server.records
        self.fanout = FanOut(self, records.board if records is not None else None)
        self.bots = BotDriver(self, server.think, self.act, self.stopping)
        self.rounds = RoundConfirmation(self, self.fanout, self.played, self.stopping)
        self.turn_clock = TurnClock(self, self.fanout, self.bots.any_move, self.played)
        self.seating = Seating(self, self, self.fanout, self.people_changed, self.bots.schedule)
        self.recording = GameRecording(self, self.fanout, records, self._hold)
        self.journal = TableJournal(self, server.journal)
        self.recording.outage = server.journal.outage if server.journal is not None else None
        self.sit(host)

    # ------------------------------------------------------------ what the fan-out does, under the table's names

    def announce(self, text: str | Later, exclude: Session | None = None) -> None:
        self.fanout.announce(text, exclude)

    def chat(self, session: Session, text: str) -> None:
        self.fanout.chat(session, text)

    def state_for(self, session: Session) -> dict[str, Any]:
        return self.fanout.state_for(session)

    def send_state(self, session: Session, look: bool = False) -> None:
        self.fanout.send_state(session, look)

    def send_states(self) -> None:
        self.fanout.send_states()

    # ------------------------------------------------------------ joining and leaving

    def sit(self, session: Session, by: Session | None = None) -> None:
        self.seating.sit(session, by)

    def watch(self, session: Session) -> None:
        self.seating.watch(session)

    def leave(self, session: Session, by: Session | None = None, dropped: bool = False) -> Later:
        return self.seating.leave(session, by, dropped)

    def replace_with_bot(self, seat: int, why: str | Later) -> None:
        self.seating.stand_in(seat, why)

    def reattach(self, session: Session) -> None:
        self.seating.reattach(session)

    def people_changed(self, gone_for_good: bool = False) -> None:
        """Someone came, went, dropped or came back: nobody must be waited on who is not here.

        A round end no longer waits for a person who is gone; a game with no person left in it is ended rather
        than played out by bots; a table nobody sits at or watches closes (at once when the last one left on
        purpose, after ``idle_close`` seconds when they dropped, so that they find it if they come back). Every
        seating change comes here, so this is where the journal's header is kept up to date. Not while the server
        stops: its connections dropping must neither end games nor close tables that are to be restored."""
        if self.stopping():
            return
        self.journal.save()
        if self.game is not None and self.in_game and not self.roster.humans() and self.tournament is None:
            self.abandon()  # (a tournament's game is played out: its stand-ins score for their people)
        if self.adjourned is not None and not missing(self.seats) and not all_gone(self.seats):
            self.go_on(later("Everyone is back: the game goes on."))
        self.rounds.maybe_advance()
        self.timers.stop_idle()
        if self.roster.humans() or self.observers or self.tournament is not None and self.in_game:
            return
        if gone_for_good or not self.idle_close:
            self.close()
        else:
            self.timers.idle_close(self.idle_close, self._close_if_idle)

    def _close_if_idle(self) -> None:
        if not self.roster.humans() and not self.observers:
            log.info("table {table} closed: nobody there for {idle} s", table=self.id, idle=self.idle_close)
            self.close()

    def abandon(self) -> None:
        """End a game nobody plays any more: bots playing on for nobody would only burn the server's time."""
        assert self.game is not None
        self.abandoned = True
        self.moves += 1
        self._stop_game_timers()
        self.journal.abandoned(self.recording.started)
        log.info("table {table} game abandoned seed={seed} log={log}", table=self.id, seed=self.game.seed,
                 log=self.game.log)
        self.recording.finish("abandoned")
        if self.on_over is not None:
            self.on_over(self)
        self.announce(later("Nobody is left playing: the game is abandoned."))
        self.seating.stand_ins_go()  # as at a game's end: left seated they held their people's names on
        self.send_states()

    # ------------------------------------------------------------ adjourned games (:mod:`.adjourning`)

    def adjourn(self, last: str, why: str | Later) -> None:
        """Stop the game where it is until its people are back; ``last`` left it last (their login takes them back
        to it). Its people who are here leave it, their seats kept for them: every seat waits, none is played."""
        assert self.game is not None and self.in_game
        self.adjourned = Adjourned(self.clock.seconds(), last)
        self._stop_game_timers()
        self.away_until.clear()
        for seat, person in enumerate(self.seats):
            if not person.is_bot and person.connected:
                self.seats[seat] = Absent(person.name)
                person.table = None
                person.notice(later("The game at table {n} is adjourned: /resume {n} takes your seat back "
                                    "(/adjourned lists your games).", n=self.id))
                person.deliver({"type": "left", "table": self.id})
        log.info("table {table} adjourned: {game}, {moves} moves, {last} left last", table=self.id, game=self.name,
                 moves=len(self.game.log), last=last)
        self.journal.save()
        self.announce(why)
        self.send_states()

    def go_on(self, why: str | Later) -> None:
        """The adjourned game goes on: its people are back (or those back go on without the others, whose seats
        ``missing`` the lobby keeps for the grace period), its clocks and bots as after its last move."""
        assert self.game is not None
        self.adjourned = None
        self.journal.save()
        log.info("table {table} resumed: {game}, {moves} moves", table=self.id, game=self.name,
                 moves=len(self.game.log))
        self.announce(why)
        if self.game.phase == "roundend":
            self.rounds.restored()
        self.send_states()
        self.bots.schedule()
        self.turn_clock.restart()

    def adjourn_again(self, last: str) -> None:
        """The one who came back to the adjourned game has gone again, the last of its people: back at their login."""
        assert self.adjourned is not None
        self.adjourned = Adjourned(self.adjourned.since, last)

    def expire(self) -> None:
        """An adjourned game nobody came back to in the time the server keeps them: recorded as abandoned (as a
        game its people all left is), and the table closed."""
        log.info("table {table} adjourned game expired", table=self.id)
        self.adjourned = None
        self.abandon()
        self.close()

    def waiting_for(self) -> list[str]:
        """Who an adjourned game waits for: its people not back in their seats."""
        return missing(self.seats)

    def _stop_game_timers(self) -> None:
        self.timers.stop_game()
        self.bots.cancel()

    def close(self) -> None:
        self._stop_game_timers()
        self.timers.stop_idle()
        for s in self.roster.viewers():
            s.table = None
            if not s.is_bot and s.connected:
                s.notice(later("table {n} is closed.", n=self.id))
                s.deliver({"type": "left", "table": self.id})
        self.roster.clear()
        self.journal.close()
        if self.on_empty:
            self.on_empty(self)

    # ------------------------------------------------------------ options and start

    def set_option(self, session: Session, name: str, value: str | None) -> str:
        if not self.is_host(session):
            raise BadCommand(later("only the host ({host}) sets options", host=self.host))
        if self.in_game:
            raise BadCommand(later("options are set before /start"))
        shown = self.config.set(name, value)
        self.journal.save()
        self.announce(later("{name} sets {option}.", name=session.name, option=shown), exclude=session)
        self.send_states()
        return shown

    def start(self, session: Session) -> None:
        if not self.is_host(session):
            raise BadCommand(later("only the host ({host}) can start the game", host=self.host))
        if self.in_game:
            raise BadCommand(later("the game is already running"))
        self._not_stopping()
        cls = self.game_class
        if len(self.seats) < cls.min_players:
            raise BadCommand(later("{game} needs {least} to {most} players; {n} seated (/bot add to fill a seat)",
                                   game=cls.title, least=cls.min_players, most=cls.max_players, n=len(self.seats)))
        seed = self.seeds.randrange(2**63)
        self.game = cls([s.name for s in self.seats], self.config.game_options(), seed)  # may raise BadOption
        self.games_played += 1
        self.recording.start()
        self.abandoned = False
        self.moves += 1
        self.journal.started(self.recording.started)
        log.info(
            "table {table} starts {game} seed={seed} players={players} options={options}",
            table=self.id, game=self.name, seed=seed, players=self.game.players, options=self.game.options,
        )
        self.announce(later("{game} starts: {players}.", game=cls.title, players=", ".join(self.game.players)))
        self._after(self.game.start_events)

    # ------------------------------------------------------------ play

    def act(self, session: Session, text: str) -> None:
        """A game move by a seated player (``bid 2``, ``play R12``): the engine decides if it is legal."""
        seat = self.roster.own_seat(session)
        if seat is None:
            raise BadCommand(later("you are not playing at this table; you are watching") if session in
                             self.observers else later("you are not playing at this table"))
        if self.game is None:
            raise IllegalAction(later("the game has not started (the host types /start)"))
        if not self.in_game:
            raise IllegalAction(later("the game is over (the host may /start a new one)"))
        if self.adjourned is not None:
            raise IllegalAction(waiting_line(self.id, self.waiting_for()))
        self._not_stopping()
        self.played(self.game.apply(seat, text))

    def _not_stopping(self) -> None:
        """Refuse what could not be journaled any more: the server is on its way down."""
        if self.stopping():
            raise BadCommand(later("the server is stopping: moves are no longer taken (your table is kept for its "
                                   "restart)"))

    def stopping(self) -> bool:
        """Whether the server is on its way down: nothing is journaled any more (``TableJournal.stopping``)."""
        return self.journal.stopping

    def _hold(self, record: GameRecord) -> None:
        """A finished game's record, held in the journal until the store has it (``TableJournal.hold``): the
        journal as it is then (a restored table gets a journal of its own after its parts were made)."""
        self.journal.hold(record)

    def ok(self, session: Session) -> Later | None:
        return self.rounds.confirm(session)

    def played(self, events: list[Event]) -> None:
        """The game changed (a move, a round dealt): bump ``moves`` so stale timers know, journal it, and only
        then tell everyone (what anyone was told is restored after a crash)."""
        self.moves += 1
        self.recording.moved()
        self.journal.moved(self.recording.actions)
        self._after(events)

    def _after(self, events: list[Event]) -> None:
        """Deliver what happened to each viewer as they may see it, then fresh states, then timers and bots."""
        assert self.game is not None
        self.fanout.events(events)
        if self.game.phase == "roundend":
            self.rounds.round_ended()
        if self.game.finished:
            # the moves by count: the game's record holds them (``/game ID``, ``mudwiz export``), or the log line
            # saying it was not stored does; printed whole here they cost 0.4 ms of the reactor's time a game, and
            # 200 tables ending together waited 80 ms for their log lines
            log.info("table {table} game over seed={seed} moves={moves}", table=self.id, seed=self.game.seed,
                     moves=len(self.game.log))
            self.recording.finish("finished")
            if self.on_over is not None:
                self.on_over(self)
            self.seating.stand_ins_go()
        self.send_states()
        self.bots.schedule()
        self.turn_clock.restart()
