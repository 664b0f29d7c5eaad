"""The bot driver: when the game waits on a bot, wait the table's pace (longer before a move that races a
person's reaction), hand the bot its view to think about (:mod:`mudwiz.thinking`, maybe in another thread), and
play its answer, or any legal move when the bot has none or a wrong one, so that a bot never stalls a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall
from twisted.logger import Logger

from mudwiz.bots.randombot import RandomBot
from mudwiz.errors import MudwizError
from mudwiz.games.base import Game
from mudwiz.session import Session
from mudwiz.table.state import TableState
from mudwiz.thinking import Think

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

# Seconds a bot waits while it could race a person (catch one who did not call karuki): the person must have a
# human's chance to call first, however fast the table's bots otherwise play.
REACTION_DELAY = 2.5


class BotDriver:
    """Schedules each seated bot's next move and plays it, if the table is still where it was when it asked."""

    def __init__(self, table: TableState, think: Think, act: Callable[[Session, str], None],
                 stopping: Callable[[], bool]) -> None:
        """``act(bot, move)``: the table's, which plays a move as a person's command does; ``stopping()``: whether
        the server is on its way down (moves are no longer played)."""
        self.table = table
        self.think = think
        self.act = act
        self.stopping = stopping
        self._timers: dict[int, IDelayedCall] = {}
        self._thinking: set[int] = set()  # seats whose bot is deciding right now (maybe in another thread)

    def schedule(self) -> None:
        """Plan a move for every bot that has one to make and none planned or being thought about."""
        table, game = self.table, self.table.game
        if game is None or not table.live:
            return
        bots = [seat for seat, s in enumerate(table.roster.seats) if s.is_bot]
        if not bots:  # a table of people: nothing to plan, after every move
            return
        waiting = set(game.waiting())
        for seat in bots:
            if seat in self._thinking or seat in self._timers and self._timers[seat].active():
                continue
            legal = game.legal_actions(seat)
            if seat not in waiting and not legal:
                continue
            delay = table.pace
            if any(a.verb in table.game_class.REACTION_VERBS for a in legal):
                delay = max(delay, REACTION_DELAY)
            self._timers[seat] = table.clock.callLater(delay, self._move, seat, table.moves)

    def cancel(self) -> None:
        """Forget every planned move (a bot already thinking finds the table moved on when it answers)."""
        for timer in self._timers.values():
            if timer.active():
                timer.cancel()
        self._timers = {}

    def _move(self, seat: int, moves: int) -> None:
        """The delay is over: hand the bot its view and wait for its answer (see :mod:`mudwiz.thinking`)."""
        table = self.table
        self._timers.pop(seat, None)
        if table.game is None or not table.in_game or seat >= len(table.roster.seats):
            return
        bot = table.roster.seats[seat]
        if not bot.is_bot:
            return
        if moves != table.moves:  # the table changed since this move was planned: think again
            self.schedule()
            return
        self._thinking.add(seat)
        game = table.game
        thought = self.think(bot, game.view(seat))  # type: ignore[arg-type]
        thought.addErrback(self._failed, bot)
        thought.addCallback(self._answer, seat, bot, game, moves)

    def _failed(self, failure: Any, bot: Session) -> None:
        log.failure("bot {name} at table {table} failed to choose", failure, name=bot.name, table=self.table.id)
        return None

    def _answer(self, action: str | None, seat: int, bot: Session, game: Game, moves: int) -> None:
        """Play the bot's answer if the table is still where it was when the bot was asked; else ask again."""
        table = self.table
        self._thinking.discard(seat)
        seats = table.roster.seats
        if table.game is not game or moves != table.moves or seat >= len(seats) or seats[seat] is not bot:
            self.schedule()  # the table moved on, or someone else holds the seat now: ask whoever is there
            return
        if not table.live or self.stopping():
            return
        if action is None and seat in game.waiting():
            action = self.any_move(seat)  # a bot that owes a move and has none (a bug) must not stall the table
        if action is None:
            return
        try:
            self.act(bot, action)
        except MudwizError as exc:  # a bot bug must never stall the table: log it, play any legal move
            log.error("bot {name} at table {table} tried {action!r}: {error}", name=bot.name, table=table.id,
                      action=action, error=str(exc))
            fallback = self.any_move(seat)
            if fallback is not None:
                self.act(bot, fallback)

    def any_move(self, seat: int) -> str | None:
        """A random legal move for ``seat``, concrete (a Witches pass names its cards), or None if it has none."""
        table = self.table
        assert table.game is not None
        return RandomBot(table.name, table.seeds).choose(table.game.view(seat))
