"""A table: seats, observers, the host's options, the start, round confirmation, bots and absent players.

One table layer drives any engine through the game interface (``legal_actions``/``apply``/``view``): it turns
the engine's events into per-viewer messages (each event filtered by ``visible_to``) and sends each viewer a
fresh ``state`` whenever their view may have changed. Timers (round confirmation, bot delays) run on an
injectable clock, so tests drive them with ``twisted.internet.task.Clock``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand, BadOption, IllegalAction, MudwizError
from mudwiz.games import game_class
from mudwiz.games.base import Event, Game, Option, TimedReveal
from mudwiz.session import Session
from mudwiz.thinking import Think, think_inline

log = Logger()

IDLE_CLOSE = 60.0  # seconds a table with nobody seated or watching stays open (MUDWIZ_IDLE_TABLE)
TURN_WARNING = 30.0  # seconds before a person's turn clock runs out that they are warned
# Seconds a bot waits while it could race a person (catch one who did not call karuki): the person must have a
# human's chance to call first, however fast the table's bots otherwise play.
REACTION_DELAY = 2.5

TABLE_OPTIONS = (
    Option("confirm", "seconds to wait for everyone's /ok after a round before going on anyway (0 or off: no limit)",
           default=120, lo=0, hi=3600),
    Option("turn", "seconds a person has for a move before a random legal one is made (0 or off: no limit)",
           default=300, lo=0, hi=3600),
    Option("botdelay", "milliseconds a bot waits before it moves (off: the server's setting)",
           default=None, lo=0, hi=10000),
)


def _table_option(name: str) -> Option | None:
    return next((o for o in TABLE_OPTIONS if o.name == name), None)


class Table:
    """Everything about one table except the rules (the engine's) and the bytes (the connections')."""

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
        think: Think = think_inline,
        idle_close: float = IDLE_CLOSE,
    ) -> None:
        self.id = table_id
        self.game_class: type[Game] = game_class(game)
        self.clock = clock
        self.bot_delay = bot_delay
        self.think = think
        self.seeds = seed_source or random.Random()
        self.on_empty = on_empty
        self.idle_close = idle_close
        self.seats: list[Session] = []
        self.observers: list[Session] = []
        self.host = host.name
        self.options: dict[str, Any] = {}  # as the host set them: game options and table options
        self.table_options: dict[str, Any] = {o.name: o.default for o in TABLE_OPTIONS}
        self.game: Game | None = None
        self.games_played = 0
        self.abandoned = False  # the game ended because no person was left playing it
        self.moves = 0  # bumped on every change of the game, so stale timers know they are stale
        self.confirmed: set[str] = set()
        self._confirm_timer: IDelayedCall | None = None
        self._turn_timer: IDelayedCall | None = None
        self._turn_warning: IDelayedCall | None = None
        self._idle_timer: IDelayedCall | None = None
        self.away_until: dict[str, float] = {}  # lower-cased name -> when a dropped player's kept seat is lost
        self._bot_timers: dict[int, IDelayedCall] = {}
        self._thinking: set[int] = set()  # seats whose bot is deciding right now (maybe in another thread)
        self.sit(host)

    # ------------------------------------------------------------ who is here

    @property
    def name(self) -> str:
        return self.game_class.name

    @property
    def status(self) -> str:
        if self.game is None:
            return "waiting"
        return "over" if self.game.finished or self.abandoned else "playing"

    @property
    def in_game(self) -> bool:
        return self.status == "playing"

    def seat_of(self, name: str) -> int | None:
        """The seat of ``name``, which may be typed in any case (names are unique ignoring case)."""
        name = name.lower()
        for i, s in enumerate(self.seats):
            if s.name.lower() == name:
                return i
        return None

    def is_host(self, session: Session) -> bool:
        """Names are unique ignoring case, so the host is too: a host back as ``HOSTY`` is still ``hosty``."""
        return session.name.lower() == self.host.lower()

    def game_seat(self, session: Session) -> int | None:
        """The engine's seat of ``session``, or None if it holds none. Found by name in the game's players: after
        a game ends, people leave and the table's seats shift, while the finished game's seats stay as dealt."""
        seat = self.seat_of(session.name)
        if self.game is None or seat is None or self.seats[seat] is not session:
            return None
        name = session.name.lower()
        return next((i for i, p in enumerate(self.game.players) if p.lower() == name), None)

    def seated(self, name: str) -> Session | None:
        seat = self.seat_of(name)
        return None if seat is None else self.seats[seat]

    def viewers(self) -> list[Session]:
        return [*self.seats, *self.observers]

    def humans(self) -> list[Session]:
        return [s for s in self.seats if not s.is_bot]

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.name,
            "status": self.status,
            "host": self.host,
            "players": [s.name for s in self.seats],
            "observers": len(self.observers),
            "seats": f"{len(self.seats)}/{self.game_class.max_players}",
        }

    # ------------------------------------------------------------ joining and leaving

    def sit(self, session: Session) -> None:
        if self.in_game and self.holds_seat_for(session.name):
            self.reattach(session)
            return
        if self.seat_of(session.name) is not None:
            raise BadCommand(f"you are already seated at table {self.id}")
        if self.in_game:
            raise BadCommand(f"table {self.id} is playing; /watch {self.id} to observe")
        if len(self.seats) >= self.game_class.max_players:
            raise BadCommand(f"table {self.id} is full ({self.game_class.max_players} players)")
        if self.status == "over":
            self.game = None  # a finished game's table is ready for a new one
        if session in self.observers:
            self.observers.remove(session)
        self.seats.append(session)
        session.table = self
        self.announce(f"{session.name} sits down at table {self.id}.")
        for s in self.viewers():
            if s.connected:
                self.send_state(s, look=s is session)
        self.people_changed()

    def watch(self, session: Session) -> None:
        if session in self.observers or self.seat_of(session.name) is not None:
            raise BadCommand(f"you are already at table {self.id}")
        self.observers.append(session)
        session.table = self
        self.announce(f"{session.name} is watching table {self.id}.")
        self.send_state(session, look=True)
        self.people_changed()

    def leave(self, session: Session) -> str:
        """Take ``session`` away from the table; mid-game a bot takes the seat so the others can play on."""
        session.table = None
        if session.connected and not session.is_bot:
            session.deliver({"type": "left", "table": self.id})
        if session in self.observers:
            self.observers.remove(session)
            self.announce(f"{session.name} stops watching.")
            self.people_changed(gone_for_good=True)
            return "you stop watching"
        seat = self.seat_of(session.name)
        if seat is None:
            return "you were not at this table"
        if self.in_game:
            self.replace_with_bot(seat, f"{session.name} leaves; a bot plays their seat.")
        else:
            del self.seats[seat]
            self.announce(f"{session.name} leaves table {self.id}.")
        if self.is_host(session):
            humans = self.humans()
            self.host = humans[0].name if humans else ""
            if self.host:
                self.announce(f"{self.host} is now the host.")
        self.people_changed(gone_for_good=True)
        if self.seats:
            self.send_states()
        return f"you leave table {self.id}"

    def replace_with_bot(self, seat: int, why: str) -> None:
        from mudwiz.bots import BotSession  # bots stand on tables, not the other way round

        old = self.seats[seat]
        bot = BotSession(old.name, level="random", game=self.name, seed=self.seeds.randrange(2**32))
        bot.table = self
        self.seats[seat] = bot
        self.away_until.pop(old.name.lower(), None)
        self.announce(why)
        self.people_changed()
        self._schedule_bots()

    def holds_seat_for(self, name: str) -> bool:
        """Whether ``name`` has a seat here to come back to: kept while they were away, or held by a stand-in."""
        s = self.seated(name)
        return s is not None and (not s.connected or (s.is_bot and getattr(s, "stand_in", False)))

    def reattach(self, session: Session) -> None:
        """A dropped player is back under the same name: their seat, with a fresh view."""
        seat = self.seat_of(session.name)
        if seat is None:
            return
        self.seats[seat] = session
        session.table = self
        self.away_until.pop(session.name.lower(), None)
        if not self.host:
            self.host = session.name
        self.announce(f"{session.name} is back.")
        self.send_state(session, look=True)
        self.people_changed()

    def people_changed(self, gone_for_good: bool = False) -> None:
        """Someone came, went, dropped or came back: nobody must be waited on who is not here.

        A round end no longer waits for a person who is gone; a game with no person left in it is ended rather
        than played out by bots; a table nobody sits at or watches closes (at once when the last one left on
        purpose, after ``idle_close`` seconds when they dropped, so that they find it if they come back)."""
        if self.game is not None and self.in_game and not self.humans():
            self.abandon()
        self._maybe_advance()
        if self._idle_timer is not None and self._idle_timer.active():
            self._idle_timer.cancel()
        self._idle_timer = None
        if self.humans() or self.observers:
            return
        if gone_for_good or not self.idle_close:
            self.close()
        else:
            self._idle_timer = self.clock.callLater(self.idle_close, self._close_if_idle)

    def _close_if_idle(self) -> None:
        self._idle_timer = None
        if not self.humans() and not self.observers:
            log.info("table {table} closed: nobody there for {idle} s", table=self.id, idle=self.idle_close)
            self.close()

    def abandon(self) -> None:
        """End a game nobody plays any more: bots playing on for nobody would only burn the server's time."""
        assert self.game is not None
        self.abandoned = True
        self.moves += 1
        self._cancel_timers()
        log.info("table {table} game abandoned seed={seed} log={log}", table=self.id, seed=self.game.seed,
                 log=self.game.log)
        self.announce("Nobody is left playing: the game is abandoned.")
        self.send_states()

    def _cancel_timers(self) -> None:
        for timer in [self._confirm_timer, self._turn_timer, self._turn_warning, *self._bot_timers.values()]:
            if timer is not None and timer.active():
                timer.cancel()
        self._bot_timers = {}

    def close(self) -> None:
        self._cancel_timers()
        if self._idle_timer is not None and self._idle_timer.active():
            self._idle_timer.cancel()
        for s in self.viewers():
            s.table = None
            if not s.is_bot and s.connected:
                s.notice(f"table {self.id} is closed.")
                s.deliver({"type": "left", "table": self.id})
        self.seats, self.observers = [], []
        if self.on_empty:
            self.on_empty(self)

    # ------------------------------------------------------------ options and start

    def option_rows(self) -> list[dict[str, Any]]:
        """Every option with its current value and help, for /option and the protocol's ``options`` message."""
        rows = []
        current = self.current_options()
        for opt in (*self.game_class.OPTIONS, *TABLE_OPTIONS):
            rows.append({"name": opt.name, "value": current[opt.name], "help": opt.help, "kind": opt.kind})
        return rows

    def current_options(self) -> dict[str, Any]:
        game_opts = {k: v for k, v in self.options.items() if _table_option(k) is None}
        return {**self.game_class.check_options(game_opts, None), **self.table_options}

    def set_option(self, session: Session, name: str, value: str | None) -> str:
        if not self.is_host(session):
            raise BadCommand(f"only the host ({self.host}) sets options")
        if self.in_game:
            raise BadCommand("options are set before /start")
        name = name.lower()
        opt = _table_option(name) or self.game_class.option(name)
        if value is None and opt.kind != "flag":
            hint = f"a number from {opt.lo} to {opt.hi}" if opt.kind == "int" else " or ".join(opt.choices)
            raise BadOption(f"{name} needs a value: {hint}" + (", or off" if opt.default is None else ""))
        table_opt = _table_option(name)
        if table_opt is not None:
            if table_opt.default is not None and str(value).lower() == "off":
                value = "0"  # the table's own numbers (turn, confirm) read 0 as off, and /option shows it so
            self.table_options[name] = table_opt.parse(value)
            self.options[name] = self.table_options[name]
        else:
            parsed = self.game_class.option(name).parse(value)
            trial = {k: v for k, v in self.options.items() if _table_option(k) is None}
            trial[name] = parsed
            self.game_class.check_options(trial, None)
            self.options[name] = parsed
        shown = self.current_options()[name]
        self.announce(f"{session.name} sets {name} = {_show(shown)}.", exclude=session)
        self.send_states()
        return f"{name} = {_show(shown)}"

    def start(self, session: Session) -> None:
        if not self.is_host(session):
            raise BadCommand(f"only the host ({self.host}) can start the game")
        if self.in_game:
            raise BadCommand("the game is already running")
        cls = self.game_class
        if len(self.seats) < cls.min_players:
            raise BadCommand(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players; "
                f"{len(self.seats)} seated (/bot add to fill a seat)"
            )
        game_opts = {k: v for k, v in self.options.items() if _table_option(k) is None}
        seed = self.seeds.randrange(2**63)
        self.game = cls([s.name for s in self.seats], game_opts, seed)  # may raise BadOption
        self.games_played += 1
        self.abandoned = False
        self.moves += 1
        log.info(
            "table {table} starts {game} seed={seed} players={players} options={options}",
            table=self.id, game=self.name, seed=seed, players=self.game.players, options=self.game.options,
        )
        self.announce(f"{cls.title} starts: {', '.join(self.game.players)}.")
        self._after(self.game.start_events)

    # ------------------------------------------------------------ play

    def act(self, session: Session, text: str) -> None:
        """A game move by a seated player (``bid 2``, ``play R12``): the engine decides if it is legal."""
        seat = self.seat_of(session.name)
        if seat is None or self.seats[seat] is not session:
            raise BadCommand("you are not playing at this table" + ("; you are watching" if session in
                                                                      self.observers else ""))
        if self.game is None:
            raise IllegalAction("the game has not started (the host types /start)")
        if not self.in_game:
            raise IllegalAction("the game is over (the host may /start a new one)")
        events = self.game.apply(seat, text)
        self.moves += 1
        self._after(events)

    def ok(self, session: Session) -> str | None:
        if self.game is None or self.game.phase != "roundend":
            raise IllegalAction("there is no round result to confirm")
        if self.seat_of(session.name) is None:
            raise BadCommand("only seated players confirm the round")
        self.confirmed.add(session.name)
        pending = self._pending_confirmations()
        self._maybe_advance()
        # The last /ok deals the next round at once: its reply must not read as if it came after that deal.
        return f"confirmed; waiting for {', '.join(pending)}" if pending else None

    def _pending_confirmations(self) -> list[str]:
        return [s.name for s in self.seats if not s.is_bot and s.connected and s.name not in self.confirmed]

    def _maybe_advance(self) -> None:
        if self.game is None or self.game.phase != "roundend" or not self.in_game:
            return
        pending = self._pending_confirmations()
        if pending:
            self.send_states()
            return
        self._advance()

    def _advance(self) -> None:
        if self._confirm_timer is not None and self._confirm_timer.active():
            self._confirm_timer.cancel()
        self._confirm_timer = None
        assert self.game is not None
        if self.game.phase != "roundend":
            return
        events = self.game.advance()
        self.moves += 1
        self._after(events)

    def _after(self, events: list[Event]) -> None:
        """Deliver what happened to each viewer as they may see it, then fresh states, then timers and bots."""
        assert self.game is not None
        for viewer in self.viewers():
            for event in events:
                seen = event.visible_to(viewer.name if viewer in self.seats else None)
                if seen is not None:
                    viewer.deliver({"type": seen.type, "table": self.id, "game": self.name, **_fields(seen)}, seen)
                    if isinstance(seen, TimedReveal) and seen.reveal_seconds > 0:
                        self._end_reveal_later(viewer, seen)
        if self.game.phase == "roundend":
            self.confirmed = set()
            delay = self.table_options["confirm"]
            if delay and self._pending_confirmations():
                self._confirm_timer = self.clock.callLater(delay, self._advance)
            elif not self._pending_confirmations():
                self._confirm_timer = self.clock.callLater(self.pace, self._advance)
        if self.game.finished:
            log.info(
                "table {table} game over seed={seed} log={log}",
                table=self.id, seed=self.game.seed, log=self.game.log,
            )
        self.send_states()
        self._schedule_bots()
        self._start_turn_timer()

    def _end_reveal_later(self, viewer: Session, event: TimedReveal) -> None:
        """A timed glimpse (Tiltowait's MILWA): the engine says what and for how long; the table keeps time."""
        message = {"type": "reveal_end", "table": self.id, "game": self.name, "player": event.revealed_player}
        self.clock.callLater(event.reveal_seconds, self._end_reveal, viewer, message)

    def _end_reveal(self, viewer: Session, message: dict[str, Any]) -> None:
        """The glimpse is over: say so, and draw the table again, so a line terminal's last screen no longer
        shows the opened hand."""
        viewer.deliver(message)
        if viewer.table is self and viewer.connected and not viewer.is_bot:
            self.send_state(viewer, look=True)

    # ------------------------------------------------------------ turn timer

    def _start_turn_timer(self) -> None:
        for timer in (self._turn_timer, self._turn_warning):
            if timer is not None and timer.active():
                timer.cancel()
        self._turn_timer = self._turn_warning = None
        limit = self.table_options["turn"]
        if not limit or self.game is None or not self.in_game:
            return
        if any(not self.seats[s].is_bot for s in self.game.waiting()):
            self._turn_timer = self.clock.callLater(limit, self._time_up, self.moves)
            before = min(TURN_WARNING, limit / 2)
            self._turn_warning = self.clock.callLater(limit - before, self._warn, self.moves, before)

    def _warn(self, moves: int, left: float) -> None:
        """Tell whoever the game waits on that their clock is running out, before a move is made for them."""
        self._turn_warning = None
        if self.game is None or moves != self.moves:
            return
        for seat in self.game.waiting():
            person = self.seats[seat]
            if not person.is_bot and person.connected:
                person.notice(f"{left:g} s left for your move; then a random legal move is made for you.")

    def _time_up(self, moves: int) -> None:
        """A person took too long: play a random legal move for each person the game still waits on."""
        self._turn_timer = None
        if self.game is None or moves != self.moves:
            return
        for seat in self.game.waiting():
            person = self.seats[seat]
            if person.is_bot or self.game.finished:
                continue
            action = self.any_move(seat)
            if action is not None and seat in self.game.waiting():
                self.announce(f"Time is up for {person.name}: {action}.")
                events = self.game.apply(seat, action)
                self.moves += 1
                self._after(events)
                return

    # ------------------------------------------------------------ bots

    @property
    def pace(self) -> float:
        """Seconds a bot waits before moving, so people can follow the play: the host's choice or the server's."""
        chosen = self.table_options["botdelay"]
        return self.bot_delay if chosen is None else chosen / 1000

    def _schedule_bots(self) -> None:
        if self.game is None or not self.in_game:
            return
        waiting = set(self.game.waiting())
        for seat, s in enumerate(self.seats):
            if not s.is_bot or seat in self._thinking or seat in self._bot_timers and self._bot_timers[seat].active():
                continue
            legal = self.game.legal_actions(seat)
            if seat not in waiting and not legal:
                continue
            delay = self.pace
            if any(a.verb in self.game_class.REACTION_VERBS for a in legal):
                delay = max(delay, REACTION_DELAY)
            self._bot_timers[seat] = self.clock.callLater(delay, self._bot_move, seat, self.moves)

    def _bot_move(self, seat: int, moves: int) -> None:
        """The delay is over: hand the bot its view and wait for its answer (see :mod:`mudwiz.thinking`)."""
        self._bot_timers.pop(seat, None)
        if self.game is None or not self.in_game or seat >= len(self.seats):
            return
        bot = self.seats[seat]
        if not bot.is_bot:
            return
        if moves != self.moves:  # the table changed since this move was planned: think again
            self._schedule_bots()
            return
        self._thinking.add(seat)
        game = self.game
        thought = self.think(bot, game.view(seat))  # type: ignore[arg-type]
        thought.addErrback(self._bot_failed, bot)
        thought.addCallback(self._bot_answer, seat, bot, game, moves)

    def _bot_failed(self, failure: Any, bot: Session) -> None:
        log.failure("bot {name} at table {table} failed to choose", failure, name=bot.name, table=self.id)
        return None

    def _bot_answer(self, action: str | None, seat: int, bot: Session, game: Game, moves: int) -> None:
        """Play the bot's answer if the table is still where it was when the bot was asked; else ask again."""
        self._thinking.discard(seat)
        if self.game is not game or moves != self.moves or seat >= len(self.seats) or self.seats[seat] is not bot:
            self._schedule_bots()  # the table moved on, or someone else holds the seat now: ask whoever is there
            return
        if not self.in_game:
            return
        if action is None and seat in game.waiting():
            action = self.any_move(seat)  # a bot that owes a move and has none (a bug) must not stall the table
        if action is None:
            return
        try:
            self.act(bot, action)
        except MudwizError as exc:  # a bot bug must never stall the table: log it, play any legal move
            log.error("bot {name} at table {table} tried {action!r}: {error}", name=bot.name, table=self.id,
                      action=action, error=str(exc))
            fallback = self.any_move(seat)
            if fallback is not None:
                self.act(bot, fallback)

    def any_move(self, seat: int) -> str | None:
        """A random legal move for ``seat``, concrete (a Witches pass names its cards), or None if it has none."""
        from mudwiz.bots.randombot import RandomBot

        assert self.game is not None
        return RandomBot(self.name, self.seeds).choose(self.game.view(seat))

    # ------------------------------------------------------------ output

    def announce(self, text: str, exclude: Session | None = None) -> None:
        for s in self.viewers():
            if not s.is_bot and s is not exclude:
                s.notice(text)

    def chat(self, session: Session, text: str) -> None:
        message = {"type": "chat", "from": session.name, "channel": f"table {self.id}", "text": text}
        for s in self.viewers():
            s.deliver(message)

    def state_for(self, session: Session) -> dict[str, Any]:
        seat = self.seat_of(session.name)
        if seat is not None and self.seats[seat] is not session:
            seat = None
        base: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "host": self.host,
            "status": self.status,
            "observer": seat is None,
            "observers": [o.name for o in self.observers],
        }
        if self.game is None:
            can_start = self.is_host(session) and len(self.seats) >= self.game_class.min_players
            return {
                **base,
                "game": self.name,
                "phase": "waiting",
                "round": 0,
                "rounds": None,
                "dealer": None,
                "turn": None,
                "waiting": [],
                "you": session.name if seat is not None else None,
                "players": [{"name": s.name, "score": 0, "bot": s.is_bot} for s in self.seats],
                "hand": [],
                "trick": [],
                "trump": {"suit": None, "card": None},
                "options": self.current_options(),
                "table_options": dict(self.table_options),
                "min_players": self.game_class.min_players,
                "max_players": self.game_class.max_players,
                "legal": ["/start"] if can_start else [],
            }
        seat = self.game_seat(session)
        view = self.game.view(seat)
        legal = [f"/{a}" for a in view["legal"]] if self.in_game else []
        if seat is not None and self.in_game and self.game.phase == "roundend" and session.name not in self.confirmed:
            legal.append("/ok")
        if seat is not None and not self.in_game and self.is_host(session):
            legal.append("/start")
        for p in view["players"]:
            holder = self.seated(p["name"])  # None once they left a finished game
            p["bot"] = holder is not None and holder.is_bot
            p["away"] = holder is None or not holder.connected
            p["stand_in"] = getattr(holder, "stand_in", False)
            until = self.away_until.get(p["name"].lower())
            if p["away"] and until is not None:
                p["away_for"] = max(0, round(until - self.clock.seconds()))
        return {**base, **view, "legal": legal, "table_options": dict(self.table_options),
                "confirmed": sorted(self.confirmed)}

    def send_state(self, session: Session, look: bool = False) -> None:
        message = self.state_for(session)
        if look:
            message["look"] = True
        session.deliver(message)

    def send_states(self) -> None:
        for s in self.viewers():
            if s.connected:
                self.send_state(s)


def _fields(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    data.pop("type")
    return data


def _show(value: Any) -> str:
    if value is True:
        return "on"
    if value in (False, None):
        return "off"
    return str(value)


__all__ = ["Table", "TABLE_OPTIONS", "BadOption"]
